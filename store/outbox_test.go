package store

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestOutbox_AddGetList(t *testing.T) {
	db := openTestDB(t, "")
	var ids []string
	for i := range 4 {
		m, err := db.AddOutbox(OutboxMessage{Account: "acme", RunID: "r_1", To: []string{"a@example.com"},
			Subject: fmt.Sprint("hello ", i), Body: "body",
			Attachments: []OutboxAttachment{{Name: "report.csv", Size: 12, ContentType: "text/csv"}}})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(m.ID, "m_") || m.Created.IsZero() || m.V != recordVersion {
			t.Fatalf("added %+v", m)
		}
		ids = append(ids, m.ID)
	}
	got, err := db.GetOutbox("acme", ids[1])
	if err != nil || got.Subject != "hello 1" || got.Attachments[0].Size != 12 || got.To[0] != "a@example.com" {
		t.Fatalf("get: %+v %v", got, err)
	}
	if _, err := db.GetOutbox("other", ids[1]); !errors.Is(err, ErrNotFound) {
		t.Fatalf("another account's message: %v", err)
	}
	list, err := db.ListOutbox("acme", 3, "")
	if err != nil || len(list) != 3 || list[0].ID != ids[3] || list[2].ID != ids[1] {
		t.Fatalf("list: %+v %v", list, err)
	}
	list, err = db.ListOutbox("acme", 3, list[2].ID)
	if err != nil || len(list) != 1 || list[0].ID != ids[0] {
		t.Fatalf("page 2: %+v %v", list, err)
	}
	if list, err := db.ListOutbox("other", 0, ""); err != nil || len(list) != 0 || list == nil {
		t.Fatalf("other's outbox: %#v %v", list, err)
	}
}

func TestOutbox_NeedsAccount(t *testing.T) {
	db := openTestDB(t, "")
	if _, err := db.AddOutbox(OutboxMessage{To: []string{"a@example.com"}}); err == nil {
		t.Fatal("a message without an account was stored")
	}
}
