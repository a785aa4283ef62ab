package store

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// openTestDB opens a store in dir (a fresh t.TempDir() when dir is empty). On cleanup it checks
// the file's consistency, bbolt's page structure and the store's own indexes, then closes it. A
// test may close the DB itself; the cleanup then only skips the checks.
func openTestDB(t testing.TB, dir string) *DB {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	db, err := Open(dir)
	if err != nil {
		t.Fatalf("Open(%s): %v", dir, err)
	}
	t.Cleanup(func() {
		t.Helper()
		checkDB(t, db)
		if err := db.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return db
}

// checkDB reports every inconsistency of an open DB; a closed DB is skipped.
func checkDB(t testing.TB, db *DB) {
	t.Helper()
	err := db.bolt.View(func(tx *bolt.Tx) error {
		for err := range tx.Check() {
			t.Errorf("bbolt consistency check: %v", err)
		}
		for _, err := range checkIndexes(tx) {
			t.Errorf("store consistency check: %v", err)
		}
		return nil
	})
	if err != nil && !errors.Is(err, berrors.ErrDatabaseNotOpen) {
		t.Errorf("consistency check: %v", err)
	}
}

// checkIndexes verifies that every index agrees with the records it indexes, both ways.
func checkIndexes(tx *bolt.Tx) []error {
	var problems []error
	add := func(format string, args ...any) { problems = append(problems, fmt.Errorf(format, args...)) }

	hashes := tx.Bucket(bucketKeyHashes)
	keyN := 0
	_ = tx.Bucket(bucketKeys).ForEach(func(id, _ []byte) error {
		keyN++
		rec, err := getKey(tx, id)
		if err != nil {
			add("key %s: %v", id, err)
			return nil
		}
		if rec.ID != string(id) {
			add("key %s stored under id %s", rec.ID, id)
		}
		if got := hashes.Get(rec.Hash); !bytes.Equal(got, id) {
			add("key %s: hash index gives %q", id, got)
		}
		return nil
	})
	if n := hashes.Stats().KeyN; n != keyN {
		add("%d keys but %d hash index entries", keyN, n)
	}

	runN, pendingN := 0, 0
	accountRuns, pending := tx.Bucket(bucketAccountRuns), tx.Bucket(bucketUnfinishedRuns)
	_ = tx.Bucket(bucketRuns).ForEach(func(id, _ []byte) error {
		runN++
		r, err := getRun(tx, id)
		if err != nil {
			add("run %s: %v", id, err)
			return nil
		}
		if idx := accountRuns.Bucket([]byte(r.Account)); idx == nil || idx.Get(id) == nil {
			add("run %s missing from the index of account %s", id, r.Account)
		}
		if unfinished(r.Status) {
			pendingN++
		}
		if unfinished(r.Status) != (pending.Get(id) != nil) {
			add("run %s (%s): unfinished index disagrees", id, r.Status)
		}
		return nil
	})
	if n := pending.Stats().KeyN; n != pendingN {
		add("%d unfinished runs but %d unfinished index entries", pendingN, n)
	}
	indexed := 0
	_ = accountRuns.ForEachBucket(func(account []byte) error {
		return accountRuns.Bucket(account).ForEach(func(id, _ []byte) error {
			indexed++
			if r, err := getRun(tx, id); err != nil || r.Account != string(account) {
				add("index of account %s lists run %s (%v)", account, id, err)
			}
			return nil
		})
	})
	if indexed != runN {
		add("%d runs but %d account index entries", runN, indexed)
	}

	// An artifact of format 2 has its bytes in artifact_data, and artifact_data holds nothing else.
	arts, artData := tx.Bucket(bucketArtifacts), tx.Bucket(bucketArtifactData)
	_ = arts.ForEach(func(k, v []byte) error {
		var a Artifact
		if err := decodeArtifact(k, v, &a); err != nil {
			add("artifact %s: %v", k, err)
		} else if d := artData.Get(k); a.V >= 2 && (d == nil || len(d) != a.Size) {
			add("artifact %s of %d bytes has %d bytes of data (present: %v)", k, a.Size, len(d), d != nil)
		}
		return nil
	})
	_ = artData.ForEach(func(k, _ []byte) error {
		if arts.Get(k) == nil {
			add("artifact data %s has no artifact record", k)
		}
		return nil
	})
	return problems
}

// fakeClock returns a clock that starts at start and advances by step on every reading.
func fakeClock(start time.Time, step time.Duration) func() time.Time {
	var mu sync.Mutex
	now := start
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(step)
		return now
	}
}

func TestOpen_CreatesPrivateFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "data")
	openTestDB(t, dir)

	for _, tc := range []struct {
		path string
		want os.FileMode
	}{
		{dir, 0o700 | os.ModeDir},
		{filepath.Join(dir, FileName), 0o600},
	} {
		fi, err := os.Stat(tc.path)
		if err != nil {
			t.Fatal(err)
		}
		// The umask may only remove bits, so more than wanted is the failure to catch.
		if got := fi.Mode(); got&^tc.want != 0 {
			t.Errorf("%s: mode %v, want at most %v", tc.path, got, tc.want)
		}
	}
}

func TestOpen_Buckets(t *testing.T) {
	db := openTestDB(t, "")
	err := db.bolt.View(func(tx *bolt.Tx) error {
		for _, name := range allBuckets {
			if tx.Bucket(name) == nil {
				t.Errorf("bucket %s missing", name)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestOpen_InUse(t *testing.T) {
	dir := t.TempDir()
	openTestDB(t, dir)

	start := time.Now()
	db2, err := Open(dir)
	elapsed := time.Since(start)
	if err == nil {
		db2.Close()
		t.Fatal("second Open of the same directory succeeded")
	}
	if want := "data directory " + dir + " is in use by another rodeo process"; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	if !errors.Is(err, ErrInUse) {
		t.Errorf("error %v is not ErrInUse", err)
	}
	if code := errs.Code(err); code != errs.Busy {
		t.Errorf("code %s, want %s", code, errs.Busy)
	}
	if elapsed < openTimeout/2 || elapsed > 3*time.Second {
		t.Errorf("second Open failed after %v, want about %v", elapsed, openTimeout)
	}
}

func TestOpen_AfterClose(t *testing.T) {
	dir := t.TempDir()
	db := openTestDB(t, dir)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	openTestDB(t, dir) // the lock is released
}

func TestOpen_NotADatabase(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, FileName), bytes.Repeat([]byte("not bolt"), 1024), 0o600); err != nil {
		t.Fatal(err)
	}
	if db, err := Open(dir); err == nil {
		db.Close()
		t.Fatal("Open of a corrupt file succeeded")
	}
}

func TestOpen_EmptyDir(t *testing.T) {
	if _, err := Open(""); !errs.Is(err, errs.InvalidConfig) {
		t.Errorf("Open(\"\"): %v, want %s", err, errs.InvalidConfig)
	}
}

// TestDB_Durability closes and reopens the store and expects everything back.
func TestDB_Durability(t *testing.T) {
	dir := t.TempDir()
	db := openTestDB(t, dir)
	secret, key, err := db.CreateKey("acme")
	if err != nil {
		t.Fatal(err)
	}
	revokedSecret, revoked, err := db.CreateKey("acme")
	if err != nil {
		t.Fatal(err)
	}
	if err := db.RevokeKey(revoked.ID); err != nil {
		t.Fatal(err)
	}
	done := RunRecord{ID: NewID("r"), Account: "acme", Status: "succeeded", Doc: []byte(`{"steps":[1,2]}`)}
	queued := RunRecord{ID: NewID("r"), Account: "acme", Status: StatusQueued, Doc: []byte(`{}`)}
	for _, r := range []RunRecord{done, queued} {
		if err := db.PutRun(r); err != nil {
			t.Fatal(err)
		}
	}
	before, err := db.GetRun("acme", done.ID)
	if err != nil {
		t.Fatal(err)
	}
	checkDB(t, db)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	db = openTestDB(t, dir)
	if got, err := db.Authenticate(secret); err != nil || got.ID != key.ID {
		t.Errorf("Authenticate after reopen: %+v, %v", got, err)
	}
	if _, err := db.Authenticate(revokedSecret); !errs.Is(err, errs.InvalidKey) {
		t.Errorf("revoked key after reopen: %v, want %s", err, errs.InvalidKey)
	}
	if n, err := db.CountKeys(); err != nil || n != 2 {
		t.Errorf("CountKeys after reopen: %d, %v", n, err)
	}
	after, err := db.GetRun("acme", done.ID)
	if err != nil {
		t.Fatal(err)
	}
	assertRunEqual(t, after, before)
	if runs, err := db.UnfinishedRuns(); err != nil || len(runs) != 1 || runs[0].ID != queued.ID {
		t.Errorf("UnfinishedRuns after reopen: %v, %v", runIDs(runs), err)
	}
}

// TestDecodeRecord_NewerVersion plants records of a future format and expects every reader to
// refuse them with ErrUnsupportedVersion rather than misread them.
func TestDecodeRecord_NewerVersion(t *testing.T) {
	db := openTestDB(t, "")
	secret, key, err := db.CreateKey("acme")
	if err != nil {
		t.Fatal(err)
	}
	run := RunRecord{ID: NewID("r"), Account: "acme", Status: StatusRunning}
	if err := db.PutRun(run); err != nil {
		t.Fatal(err)
	}
	// v2 changes the type of a field, which a v1 reader would fail on or misread.
	err = db.bolt.Update(func(tx *bolt.Tx) error {
		if err := tx.Bucket(bucketKeys).Put([]byte(key.ID), []byte(`{"v":2,"id":"`+key.ID+`","revoked":{"at":"x"}}`)); err != nil {
			return err
		}
		return tx.Bucket(bucketRuns).Put([]byte(run.ID), []byte(`{"v":2,"id":"`+run.ID+`","account":["acme"]}`))
	})
	if err != nil {
		t.Fatal(err)
	}

	for name, call := range map[string]func() error{
		"Authenticate":   func() error { _, err := db.Authenticate(secret); return err },
		"ListKeys":       func() error { _, err := db.ListKeys(); return err },
		"RevokeKey":      func() error { return db.RevokeKey(key.ID) },
		"ImportKey":      func() error { _, err := db.ImportKey(secret, "acme"); return err },
		"GetRun":         func() error { _, err := db.GetRun("acme", run.ID); return err },
		"ListRuns":       func() error { _, err := db.ListRuns("acme", 0, ""); return err },
		"UnfinishedRuns": func() error { _, err := db.UnfinishedRuns(); return err },
		"PutRun":         func() error { return db.PutRun(run) },
	} {
		t.Run(name, func(t *testing.T) {
			err := call()
			if !errors.Is(err, ErrUnsupportedVersion) {
				t.Fatalf("error %v, want ErrUnsupportedVersion", err)
			}
			if !strings.Contains(err.Error(), "newer than this rodeo understands") {
				t.Errorf("error %q does not explain itself", err)
			}
		})
	}

	// Put the records back so the cleanup's consistency check can read them.
	err = db.bolt.Update(func(tx *bolt.Tx) error {
		if err := tx.Bucket(bucketKeys).Delete([]byte(key.ID)); err != nil {
			return err
		}
		sum := hashSecret(secret)
		if err := tx.Bucket(bucketKeyHashes).Delete(sum[:]); err != nil {
			return err
		}
		if err := tx.Bucket(bucketRuns).Delete([]byte(run.ID)); err != nil {
			return err
		}
		if err := tx.Bucket(bucketUnfinishedRuns).Delete([]byte(run.ID)); err != nil {
			return err
		}
		return tx.Bucket(bucketAccountRuns).DeleteBucket([]byte("acme"))
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestDecodeRecord_Corrupt(t *testing.T) {
	for _, tc := range []struct {
		name, data, want string
	}{
		{"not JSON", `{"v":`, "corrupt"},
		{"no version", `{"id":"x"}`, "missing format version"},
		{"version zero", `{"v":0}`, "missing format version"},
		{"bad field type", `{"v":1,"status":7}`, "corrupt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r RunRecord
			err := decodeRecord("run", []byte("r_1"), []byte(tc.data), &r)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
			if errors.Is(err, ErrUnsupportedVersion) {
				t.Errorf("corrupt record reported as a newer version: %v", err)
			}
		})
	}
}

// TestCheckIndexes_Detects makes sure the cleanup check can fail: it breaks each index in turn.
func TestCheckIndexes_Detects(t *testing.T) {
	for _, tc := range []struct {
		name    string
		breakIt func(tx *bolt.Tx, keyID, runID []byte) error
	}{
		{"key hash missing", func(tx *bolt.Tx, keyID, _ []byte) error {
			c := tx.Bucket(bucketKeyHashes).Cursor()
			k, _ := c.First()
			return tx.Bucket(bucketKeyHashes).Delete(k)
		}},
		{"key missing", func(tx *bolt.Tx, keyID, _ []byte) error { return tx.Bucket(bucketKeys).Delete(keyID) }},
		{"account index missing", func(tx *bolt.Tx, _, runID []byte) error {
			return tx.Bucket(bucketAccountRuns).Bucket([]byte("acme")).Delete(runID)
		}},
		{"run missing", func(tx *bolt.Tx, _, runID []byte) error { return tx.Bucket(bucketRuns).Delete(runID) }},
		{"unfinished index missing", func(tx *bolt.Tx, _, runID []byte) error {
			return tx.Bucket(bucketUnfinishedRuns).Delete(runID)
		}},
		{"stale unfinished entry", func(tx *bolt.Tx, _, _ []byte) error {
			return tx.Bucket(bucketUnfinishedRuns).Put([]byte("r_ghost"), nil)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, err := Open(t.TempDir()) // not openTestDB: its cleanup would rightly fail
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			_, k, err := db.CreateKey("acme")
			if err != nil {
				t.Fatal(err)
			}
			runID := NewID("r")
			if err := db.PutRun(RunRecord{ID: runID, Account: "acme", Status: StatusRunning}); err != nil {
				t.Fatal(err)
			}
			_ = db.bolt.View(func(tx *bolt.Tx) error {
				if p := checkIndexes(tx); len(p) != 0 {
					t.Errorf("intact store reported %v", p)
				}
				return nil
			})
			if err := db.bolt.Update(func(tx *bolt.Tx) error { return tc.breakIt(tx, []byte(k.ID), []byte(runID)) }); err != nil {
				t.Fatal(err)
			}
			_ = db.bolt.View(func(tx *bolt.Tx) error {
				if p := checkIndexes(tx); len(p) == 0 {
					t.Error("broken store passed the check")
				}
				return nil
			})
		})
	}
}

// TestDB_Concurrent exercises readers and writers together (meaningful under -race).
func TestDB_Concurrent(t *testing.T) {
	db := openTestDB(t, "")
	secret, _, err := db.CreateKey("acme")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 20 {
				switch g % 3 {
				case 0:
					if _, err := db.Authenticate(secret); err != nil {
						t.Error(err)
					}
				case 1:
					r := RunRecord{ID: NewID("r"), Account: "acme", Status: StatusQueued}
					if err := db.PutRun(r); err != nil {
						t.Error(err)
					}
					r.Status = "succeeded"
					if err := db.PutRun(r); err != nil {
						t.Error(err)
					}
				default:
					if _, err := db.ListRuns("acme", i, ""); err != nil {
						t.Error(err)
					}
				}
			}
		})
	}
	wg.Wait()
	if runs, err := db.UnfinishedRuns(); err != nil || len(runs) != 0 {
		t.Errorf("UnfinishedRuns: %v, %v", runIDs(runs), err)
	}
}
