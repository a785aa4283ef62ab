package store

import (
	"strings"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/errs"
)

func TestWaitingRuns_KeepTheirOrderAndFields(t *testing.T) {
	db := openTestDB(t, t.TempDir())
	slot := time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC)
	ids := []string{NewID("r"), NewID("r"), NewID("r")}
	for i, id := range []string{ids[2], ids[0], ids[1]} { // stored out of order
		w := WaitingRun{ID: id, Account: "acct", Source: "schedule", Goal: "g", Nodes: []byte(`[{"type":"delay"}]`),
			Data: map[string]any{"data": "x"}, Profile: "work", ScriptName: "s", ScriptVersion: i + 1, TriggerID: "sc_1", TriggerSlot: &slot, Timeout: time.Minute}
		if err := db.PutWaitingRun(w); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.PutWaitingRun(WaitingRun{ID: "r_x"}); err == nil {
		t.Error("a waiting run without an account was stored")
	}
	if err := db.DeleteWaitingRun(ids[1]); err != nil {
		t.Fatal(err)
	}
	got, err := db.WaitingRuns()
	if err != nil || len(got) != 2 || got[0].ID != ids[0] || got[1].ID != ids[2] {
		t.Fatalf("WaitingRuns = %+v, %v; want %s then %s", got, err, ids[0], ids[2])
	}
	w := got[0]
	if w.Profile != "work" || w.Data["data"] != "x" || w.TriggerSlot == nil || !w.TriggerSlot.Equal(slot) || w.Timeout != time.Minute || string(w.Nodes) != `[{"type":"delay"}]` {
		t.Errorf("stored waiting run lost fields: %+v", w)
	}
}

func TestValidProfileName(t *testing.T) {
	cases := []struct {
		name string
		ok   bool
	}{
		{"work", true}, {"Shop-2.eu_west", true}, {"0", true}, {string(make([]byte, 64)), false},
		{"", false}, {"has space", false}, {"-lead", false}, {".hidden", false}, {"a/b", false}, {"é", false},
		{strings.Repeat("x", 64), true}, {strings.Repeat("x", 65), false},
	}
	for _, c := range cases {
		err := ValidProfileName(c.name)
		if (err == nil) != c.ok || (err != nil && errs.Code(err) != errs.InvalidProfile) {
			t.Errorf("ValidProfileName(%q) = %v, want ok=%v (code invalid_profile)", c.name, err, c.ok)
		}
	}
}

func TestProfiles_SaveListDelete(t *testing.T) {
	db := openTestDB(t, t.TempDir())
	first, err := db.SaveProfile(Profile{Account: "acct", Name: "work", Cookies: []byte(`[]`), LastRun: "r_1"})
	if err != nil {
		t.Fatal(err)
	}
	second, err := db.SaveProfile(Profile{Account: "acct", Name: "work", LocalStorage: map[string]map[string]string{"http://a": {"k": "v"}}, LastRun: "r_2"})
	if err != nil {
		t.Fatal(err)
	}
	if second.Runs != 2 || !second.Created.Equal(first.Created) || second.LastRun != "r_2" {
		t.Errorf("second save: %+v", second)
	}
	if _, err := db.SaveProfile(Profile{Account: "acct", Name: "bad name"}); errs.Code(err) != errs.InvalidProfile {
		t.Errorf("save with a bad name: %v", err)
	}
	if _, err := db.SaveProfile(Profile{Account: "other", Name: "home"}); err != nil {
		t.Fatal(err)
	}
	list, err := db.ListProfiles("acct")
	if err != nil || len(list) != 1 || list[0].LocalStorage["http://a"]["k"] != "v" {
		t.Fatalf("ListProfiles = %+v, %v", list, err)
	}
	if _, err := db.GetProfile("other", "work"); errs.Code(err) != errs.NotFound {
		t.Errorf("another account's profile: %v", err)
	}
	if err := db.DeleteProfile("other", "work"); errs.Code(err) != errs.NotFound {
		t.Errorf("delete of another account's profile: %v", err)
	}
	if err := db.DeleteProfile("acct", "work"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.GetProfile("acct", "work"); errs.Code(err) != errs.NotFound {
		t.Errorf("deleted profile: %v", err)
	}
}
