package store

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	bolt "go.etcd.io/bbolt"
)

func TestScripts_VersionsListDelete(t *testing.T) {
	dir := t.TempDir()
	db := openTestDB(t, dir)
	db.now = fakeClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), time.Second)

	for i, goal := range []string{"first", "second", "third"} {
		v, err := db.SaveScript("acme", "sign up", goal, json.RawMessage(`[{"type":"delay","time":`+string(rune('1'+i))+`}]`))
		if err != nil {
			t.Fatal(err)
		}
		if v.Version != i+1 || v.Name != "sign up" || v.Goal != goal {
			t.Fatalf("save %d: %+v", i+1, v)
		}
	}
	if _, err := db.SaveScript("acme", "other.v2", "x", json.RawMessage(`[]`)); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SaveScript("globex", "sign up", "theirs", json.RawMessage(`[]`)); err != nil {
		t.Fatal(err)
	}

	latest, err := db.GetScript("acme", "sign up", 0)
	if err != nil || latest.Version != 3 || latest.Goal != "third" || string(latest.JSONOutput) != `[{"type":"delay","time":3}]` {
		t.Fatalf("latest: %+v %v", latest, err)
	}
	v1, err := db.GetScript("acme", "sign up", 1)
	if err != nil || v1.Version != 1 || v1.Goal != "first" || !v1.Created.Before(latest.Created) {
		t.Fatalf("v1: %+v %v", v1, err)
	}
	if _, err := db.GetScript("acme", "sign up", 4); !errors.Is(err, ErrNotFound) {
		t.Errorf("version 4: %v, want not found", err)
	}
	// Another account's script is not found, whatever its name.
	if _, err := db.GetScript("globex", "other.v2", 0); !errors.Is(err, ErrNotFound) || errs.Code(err) != errs.NotFound {
		t.Errorf("another account's script: %v", err)
	}
	if g, err := db.GetScript("globex", "sign up", 0); err != nil || g.Goal != "theirs" || g.Version != 1 {
		t.Errorf("globex's own: %+v %v", g, err)
	}

	list, err := db.ListScripts("acme")
	if err != nil || len(list) != 2 || list[0].Name != "other.v2" || list[1].Name != "sign up" || list[1].Latest != 3 ||
		!list[1].Updated.After(list[1].Created) {
		t.Fatalf("list: %+v %v", list, err)
	}
	if l, _ := db.ListScripts("nobody"); len(l) != 0 {
		t.Errorf("an account without scripts lists %v", l)
	}

	// Survives Close + Open.
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db2 := openTestDB(t, dir)
	if v, err := db2.GetScript("acme", "sign up", 2); err != nil || v.Goal != "second" {
		t.Fatalf("after reopen: %+v %v", v, err)
	}

	// Delete removes every version; a new save starts again at 1; the other account keeps its own.
	if err := db2.DeleteScript("acme", "sign up"); err != nil {
		t.Fatal(err)
	}
	for _, ver := range []int{0, 1, 2, 3} {
		if _, err := db2.GetScript("acme", "sign up", ver); !errors.Is(err, ErrNotFound) {
			t.Errorf("deleted version %d: %v", ver, err)
		}
	}
	if err := db2.DeleteScript("acme", "sign up"); !errors.Is(err, ErrNotFound) {
		t.Errorf("second delete: %v", err)
	}
	if err := db2.DeleteScript("acme", "other.v2x"); !errors.Is(err, ErrNotFound) {
		t.Errorf("delete of an unknown script: %v", err)
	}
	if v, err := db2.SaveScript("acme", "sign up", "again", json.RawMessage(`[]`)); err != nil || v.Version != 1 {
		t.Errorf("save after delete: %+v %v", v, err)
	}
	if g, err := db2.GetScript("globex", "sign up", 0); err != nil || g.Goal != "theirs" {
		t.Errorf("globex's script after acme's delete: %+v %v", g, err)
	}
	if n := countKeys(t, db2, bucketScriptVersions); n != 3 {
		t.Errorf("%d version records, want 3 (acme other.v2, acme sign up v1, globex sign up)", n)
	}
}

func countKeys(t *testing.T, db *DB, bucket []byte) int {
	t.Helper()
	n := 0
	err := db.bolt.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucket).ForEach(func(_, _ []byte) error { n++; return nil })
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestScripts_Names(t *testing.T) {
	db := openTestDB(t, "")
	for _, name := range []string{"a", "My Script 2", "x.y_z-1", strings.Repeat("n", 100)} {
		if _, err := db.SaveScript("acme", name, "g", json.RawMessage(`[]`)); err != nil {
			t.Errorf("%q: %v", name, err)
		}
	}
	for _, name := range []string{"", " ", "..", "a/b", "a\x00b", "é", "a?b", strings.Repeat("n", 101)} {
		if _, err := db.SaveScript("acme", name, "g", json.RawMessage(`[]`)); errs.Code(err) != errs.InvalidConfig {
			t.Errorf("%q: %v, want invalid_config", name, err)
		}
		if _, err := db.GetScript("acme", name, 0); !errors.Is(err, ErrNotFound) {
			t.Errorf("get %q: %v, want not found", name, err)
		}
	}
	if _, err := db.SaveScript("acme", "ok", "g", json.RawMessage(`[`)); errs.Code(err) != errs.InvalidConfig {
		t.Errorf("invalid JSON: %v", err)
	}
}
