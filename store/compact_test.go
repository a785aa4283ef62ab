package store

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	bolt "go.etcd.io/bbolt"
)

func TestCompact_ShrinksAfterDeletes(t *testing.T) {
	dir := t.TempDir()
	db := openTestDB(t, dir)
	db.bolt.NoSync = true
	now := time.Now().UTC()
	runs := make([]testRun, 30)
	for i := range runs {
		runs[i] = testRun{age: time.Duration(len(runs)-i) * time.Hour, status: "succeeded", artifacts: 200 << 10}
	}
	ids := putTestRuns(t, db, now, runs)
	if _, err := db.Prune(Retention{KeepFor: 150 * time.Minute}); err != nil {
		t.Fatal(err)
	}
	used, _ := db.Size()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	res, err := Compact(dir)
	if err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(filepath.Join(dir, FileName)); fi == nil || fi.Size() != res.After {
		t.Errorf("file is %v bytes, Compact reported %d", fi.Size(), res.After)
	}
	// 28 of 30 runs of equal size were deleted: the file must lose most of its size.
	if res.After >= res.Before/4 || res.After > used.Used*2 {
		t.Errorf("compacted %d -> %d bytes (in use before: %d), want far smaller", res.Before, res.After, used.Used)
	}
	if _, err := os.Stat(filepath.Join(dir, FileName+".compact")); !os.IsNotExist(err) {
		t.Errorf("the temporary copy is left: %v", err)
	}

	// Everything kept is still there, and the store opens and checks clean (cleanup).
	db = openTestDB(t, dir)
	for _, id := range ids[28:] {
		if _, err := db.GetRun("acme", id); err != nil {
			t.Errorf("run %s after compaction: %v", id, err)
		}
		a, err := db.GetArtifact("acme", id, "a.bin")
		if err != nil || len(a.Data) != 100<<10 || !bytes.Equal(a.Data[:1], []byte{byte(id[4]-'0') + 10*byte(id[3]-'0')}) {
			t.Errorf("artifact of %s after compaction: %d bytes, %v", id, len(a.Data), err)
		}
	}
	if _, err := db.GetRun("acme", ids[0]); !errs.Is(err, errs.NotFound) {
		t.Errorf("pruned run %s is back: %v", ids[0], err)
	}
}

func TestCompact_RefusesWhileOpen(t *testing.T) {
	dir := t.TempDir()
	db := openTestDB(t, dir)
	putTestRuns(t, db, time.Now(), []testRun{{status: "succeeded", artifacts: 10}})
	before, _ := os.ReadFile(filepath.Join(dir, FileName))

	_, err := Compact(dir)
	if err == nil {
		t.Fatal("Compact succeeded while the store was open")
	}
	if errs.Code(err) != errs.Busy || !errors.Is(err, ErrInUse) {
		t.Errorf("error %v (code %s), want busy wrapping ErrInUse", err, errs.Code(err))
	}
	after, _ := os.ReadFile(filepath.Join(dir, FileName))
	if !bytes.Equal(before, after) {
		t.Error("the refused compaction changed the file")
	}
	if _, err := os.Stat(filepath.Join(dir, FileName+".compact")); !os.IsNotExist(err) {
		t.Errorf("the refused compaction left a copy: %v", err)
	}
	if _, err := db.GetRun("acme", "r_000"); err != nil {
		t.Errorf("the open store lost its run: %v", err)
	}
}

func TestCompact_NoStore(t *testing.T) {
	if _, err := Compact(t.TempDir()); errs.Code(err) != errs.NotFound {
		t.Errorf("Compact of an empty directory: %v, want not_found", err)
	}
}

// TestCompact_RetiresTheReplacedFile: a process that opened the file before the compaction (a
// server waiting for the lock) finds a file bbolt refuses, not the old data.
func TestCompact_RetiresTheReplacedFile(t *testing.T) {
	dir := t.TempDir()
	db := openTestDB(t, dir)
	putTestRuns(t, db, time.Now(), []testRun{{status: "succeeded", artifacts: 10}})
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	waiting, err := os.Open(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer waiting.Close()
	if _, err := Compact(dir); err != nil {
		t.Fatal(err)
	}
	meta := make([]byte, 8192)
	if _, err := waiting.ReadAt(meta, 0); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(meta, make([]byte, len(meta))) {
		t.Error("the replaced file still has its meta pages")
	}
	if old, err := bolt.Open(fmt.Sprintf("/proc/self/fd/%d", waiting.Fd()), 0o600, &bolt.Options{Timeout: time.Second, ReadOnly: true}); err == nil {
		_ = old.Close()
		t.Error("bbolt opened the replaced file")
	}
	// The new file is whole.
	db = openTestDB(t, dir)
	if _, err := db.GetRun("acme", "r_000"); err != nil {
		t.Errorf("run after compaction: %v", err)
	}
}
