package server_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/store"
)

// An email node of a server without SMTP lands in the account's outbox, visible at GET /outbox.
func TestOutboxHTTP(t *testing.T) {
	s := newSheetServer(t)
	body := `{"key": "` + s.key + `", "goal": "mail", "data": {"n": 3}, "json_output": [
		{"type": "email", "to": "ada@example.com", "subject": "Count", "body": "n is", "data": "n"}]}`
	resp, err := http.Post(s.base+"/agents", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var doc scripts.Doc
	if err := json.Unmarshal(raw, &doc); err != nil || doc.Status != scripts.StatusSucceeded || doc.Steps[0].Detail["delivered"] != "outbox" {
		t.Fatalf("agent: %s", raw)
	}
	r, out := s.get(t, "/outbox", s.key)
	var list struct{ Messages []store.OutboxMessage }
	if err := json.Unmarshal(out, &list); r.StatusCode != 200 || err != nil || len(list.Messages) != 1 {
		t.Fatalf("outbox %d %s", r.StatusCode, out)
	}
	m := list.Messages[0]
	if m.Subject != "Count" || m.Body != "n is\n\n3\n" || m.To[0] != "ada@example.com" || m.RunID != doc.RunID || m.Created.IsZero() {
		t.Fatalf("message %+v", m)
	}
	if r, one := s.get(t, "/outbox/"+m.ID, s.key); r.StatusCode != 200 || !strings.Contains(string(one), `"subject":"Count"`) {
		t.Fatalf("one message %d %s", r.StatusCode, one)
	}
	if r, other := s.get(t, "/outbox", s.otherKey); r.StatusCode != 200 || !strings.Contains(string(other), `"messages":[]`) {
		t.Fatalf("other's outbox %d %s", r.StatusCode, other)
	}
	if r, other := s.get(t, "/outbox/"+m.ID, s.otherKey); r.StatusCode != 404 {
		t.Fatalf("other's message %d %s", r.StatusCode, other)
	}
	if r, _ := s.get(t, "/outbox", ""); r.StatusCode != 401 {
		t.Fatalf("no key: %d", r.StatusCode)
	}
}
