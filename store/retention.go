package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	bolt "go.etcd.io/bbolt"
)

// Retention: finished runs older than a policy's age, or the oldest finished runs while the store
// holds more than its size bound, are deleted with everything keyed by their id (the run record,
// its account index entry, its artifacts, its extension queue entry). Queued and running runs are
// never deleted, however old: a process is (or will be) working on them.
//
// Runs are visited in id order, which is creation order (NewID), so pruning by age stops at the
// first run young enough to keep and pruning by size reads only as many runs as it deletes: the
// cost of a pass grows with what it deletes, not with what the store holds.

// Retention defaults of `rodeo serve`.
const (
	// DefaultKeepRuns is how long finished runs are kept: 30 days.
	DefaultKeepRuns = 30 * 24 * time.Hour
	// DefaultMaxStore bounds the bytes the store holds before the oldest runs go: 10 GB, far
	// below what a month of runs takes on a busy server (docs/PERFORMANCE.md: about 1 KB a step)
	// and low enough that an endless stream of screenshots cannot fill a small disk.
	DefaultMaxStore = 10 * 1000 * 1000 * 1000
)

// pruneBatch caps the runs one write transaction deletes, so a large backlog (a lowered
// --keep-runs) never holds bbolt's single writer lock for long.
const pruneBatch = 256

// runKeyedBuckets are the top-level buckets keyed by run id alone, whose entry goes with the run.
// The account index and the artifacts (keyed "<run>/<name>", records and bytes) are handled by
// deleteRun itself.
var runKeyedBuckets = [][]byte{bucketUnfinishedRuns, bucketExtQueue, bucketRunQueue}

// Retention is a pruning policy. The zero value keeps everything.
type Retention struct {
	// KeepFor is the age (since creation) past which finished runs are deleted; 0 keeps them
	// whatever their age.
	KeepFor time.Duration
	// MaxBytes bounds the bytes in use in the store file (UsedBytes); past it the oldest finished
	// runs are deleted until it fits. 0 means no bound.
	MaxBytes int64
}

// PruneResult says what one Prune pass deleted.
type PruneResult struct {
	// ByAge and BySize count the runs deleted for each reason.
	ByAge, BySize int
	// Artifacts counts the artifacts deleted with those runs.
	Artifacts int
	// OverLimit is set when the store still holds more than MaxBytes with no finished run left
	// to delete (the rest is saved scripts, sheets, keys and runs in progress).
	OverLimit bool
	// IDs are the deleted runs, oldest first, for what is kept outside the store (their working
	// folders).
	IDs []string
}

// Runs is the number of runs deleted.
func (r PruneResult) Runs() int { return r.ByAge + r.BySize }

// Size is the store file's size and the bytes in use in it.
type Size struct {
	// File is the size of rodeo.db on disk. bbolt grows it ahead of its data (up to 16 MB) and
	// never shrinks it: pages freed by deletes are reused by later writes, and `rodeo store
	// compact` returns them to the disk.
	File int64 `json:"file_bytes"`
	// Used is File less its free pages: what the data takes, the figure --max-store bounds.
	Used int64 `json:"used_bytes"`
}

// Size reports the store's file size and the bytes in use in it.
func (db *DB) Size() (Size, error) {
	var s Size
	err := db.bolt.View(func(tx *bolt.Tx) error {
		s.Used = tx.Size() - int64(db.bolt.Stats().FreeAlloc)
		return nil
	})
	if err != nil {
		return s, err
	}
	fi, err := os.Stat(db.bolt.Path())
	if err != nil {
		return s, fmt.Errorf("store size: %w", err)
	}
	s.File = fi.Size()
	return s, nil
}

// HasRun reports whether a run with id is stored, whatever its account.
func (db *DB) HasRun(id string) (bool, error) {
	var ok bool
	err := db.bolt.View(func(tx *bolt.Tx) error { ok = tx.Bucket(bucketRuns).Get([]byte(id)) != nil; return nil })
	return ok, err
}

// PrunedRuns is how many runs Prune deleted since the DB was opened (a metric).
func (db *DB) PrunedRuns() int64 { return db.pruned.Load() }

// Prune deletes the finished runs p says to drop, oldest first: first every one older than
// p.KeepFor, then, while the store uses more than p.MaxBytes, the oldest remaining ones.
func (db *DB) Prune(p Retention) (PruneResult, error) {
	var res PruneResult
	if p.KeepFor > 0 {
		cutoff := db.timestamp().Add(-p.KeepFor)
		n, arts, err := db.pruneWhile(&res.IDs, func(h runHeader, _ int) (bool, bool) { return h.Created.Before(cutoff), false })
		res.ByAge, res.Artifacts = n, arts
		if err != nil {
			return res, err
		}
	}
	if p.MaxBytes > 0 {
		n, arts, over, err := db.pruneToSize(p.MaxBytes, &res.IDs)
		res.BySize, res.Artifacts, res.OverLimit = n, res.Artifacts+arts, over
		if err != nil {
			return res, err
		}
	}
	return res, nil
}

// pruneToSize deletes the oldest finished runs until the store uses at most max bytes. A pass
// deletes runs whose records add up to the excess; the pages that frees differ a little from the
// records' bytes (a page is freed whole, or merged), so it measures again and goes on until the
// store fits or no finished run is left.
func (db *DB) pruneToSize(max int64, ids *[]string) (runs, artifacts int, over bool, err error) {
	for {
		size, err := db.Size()
		if err != nil {
			return runs, artifacts, false, err
		}
		excess := size.Used - max
		if excess <= 0 {
			return runs, artifacts, false, nil
		}
		var taken int64
		n, arts, err := db.pruneWhile(ids, func(_ runHeader, bytes int) (bool, bool) {
			if taken >= excess {
				return false, true
			}
			taken += int64(bytes)
			return true, false
		})
		runs, artifacts = runs+n, artifacts+arts
		if err != nil || n == 0 {
			return runs, artifacts, err == nil, err
		}
	}
}

// runHeader is what pruning reads of a run record.
type runHeader struct {
	V       int       `json:"v"`
	Status  string    `json:"status"`
	Account string    `json:"account"`
	Created time.Time `json:"created"`
}

// pruneWhile walks the finished runs oldest first and deletes those pick takes, in batches of
// pruneBatch runs a transaction, appending their ids to ids. pick gets the run and the bytes it
// and its artifacts hold, and answers whether to delete it and whether to stop the walk (a run
// pick refuses also stops it).
func (db *DB) pruneWhile(ids *[]string, pick func(h runHeader, bytes int) (take, stop bool)) (runs, artifacts int, err error) {
	var after []byte
	for {
		var n, arts int
		var done bool
		var victims []runVictim
		err := db.bolt.Update(func(tx *bolt.Tx) error {
			victims, after, done = nextVictims(tx, after, pick)
			for _, v := range victims {
				a, err := deleteRun(tx, v)
				if err != nil {
					return err
				}
				n, arts = n+1, arts+a
			}
			return nil
		})
		if err != nil {
			return runs, artifacts, err
		}
		for _, v := range victims {
			*ids = append(*ids, string(v.id))
		}
		db.pruned.Add(int64(n))
		runs, artifacts = runs+n, artifacts+arts
		if done {
			return runs, artifacts, nil
		}
	}
}

// runVictim is a run chosen for deletion.
type runVictim struct {
	id      []byte
	account string
}

// nextVictims collects up to pruneBatch runs after the key after that pick takes. It returns the
// key to continue from and whether the walk is over.
func nextVictims(tx *bolt.Tx, after []byte, pick func(runHeader, int) (bool, bool)) ([]runVictim, []byte, bool) {
	var out []runVictim
	var last []byte
	c := tx.Bucket(bucketRuns).Cursor()
	k, v := c.First()
	if after != nil {
		if k, v = c.Seek(after); k != nil && bytes.Equal(k, after) {
			k, v = c.Next()
		}
	}
	for ; k != nil; k, v = c.Next() {
		if len(out) == pruneBatch {
			return out, last, false
		}
		last = append(last[:0:0], k...)
		var h runHeader
		if err := json.Unmarshal(v, &h); err != nil || h.V < 1 || h.V > recordVersion {
			continue // unreadable by this build: never deleted blindly
		}
		if unfinished(h.Status) {
			continue
		}
		take, stop := pick(h, len(k)+len(v)+artifactBytes(tx, k))
		if !take || stop {
			return out, nil, true
		}
		out = append(out, runVictim{id: append([]byte(nil), k...), account: h.Account})
	}
	return out, nil, true
}

// artifactBytes is the bytes the artifacts of run hold (keys, records and their bytes).
func artifactBytes(tx *bolt.Tx, run []byte) int {
	n := 0
	prefix := append(append([]byte(nil), run...), '/')
	for _, name := range [][]byte{bucketArtifacts, bucketArtifactData} {
		c := tx.Bucket(name).Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			n += len(k) + len(v)
		}
	}
	return n
}

// deleteRun removes run v and every entry keyed by its id; it returns the artifacts removed.
func deleteRun(tx *bolt.Tx, v runVictim) (int, error) {
	if err := tx.Bucket(bucketRuns).Delete(v.id); err != nil {
		return 0, fmt.Errorf("store: delete run %s: %w", v.id, err)
	}
	if idx := tx.Bucket(bucketAccountRuns).Bucket([]byte(v.account)); idx != nil {
		if err := idx.Delete(v.id); err != nil {
			return 0, fmt.Errorf("store: unindex run %s: %w", v.id, err)
		}
	}
	for _, name := range runKeyedBuckets {
		if err := tx.Bucket(name).Delete(v.id); err != nil {
			return 0, fmt.Errorf("store: delete run %s from %s: %w", v.id, name, err)
		}
	}
	prefix := append(append([]byte(nil), v.id...), '/')
	var keys [][]byte
	c := tx.Bucket(bucketArtifacts).Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		keys = append(keys, append([]byte(nil), k...))
	}
	for _, k := range keys {
		if err := tx.Bucket(bucketArtifacts).Delete(k); err != nil {
			return 0, fmt.Errorf("store: delete artifact %s: %w", k, err)
		}
		if err := tx.Bucket(bucketArtifactData).Delete(k); err != nil {
			return 0, fmt.Errorf("store: delete artifact %s: %w", k, err)
		}
	}
	return len(keys), nil
}

// ParseKeepRuns reads a --keep-runs value: a Go duration ("720h", "90m") or a number of days
// with "d", alone or before a duration ("30d", "1d12h"); "0" and "off" keep runs forever (0).
func ParseKeepRuns(s string) (time.Duration, error) {
	s = strings.TrimSpace(strings.ToLower(s))
	if s == "0" || s == "off" {
		return 0, nil
	}
	var days time.Duration
	if i := strings.IndexByte(s, 'd'); i >= 0 {
		n, err := strconv.ParseUint(s[:i], 10, 32)
		if err != nil {
			return 0, errs.E(errs.InvalidConfig, "keep-runs %q: want a duration like 30d, 12h or 1d12h, or off", s)
		}
		days, s = time.Duration(n)*24*time.Hour, s[i+1:]
	}
	var rest time.Duration
	if s != "" {
		var err error
		if rest, err = time.ParseDuration(s); err != nil {
			return 0, errs.E(errs.InvalidConfig, "keep-runs %q: want a duration like 30d, 12h or 1d12h, or off", s)
		}
	}
	d := days + rest
	if d <= 0 {
		return 0, errs.E(errs.InvalidConfig, "keep-runs must be positive, or off (0) to keep runs forever")
	}
	return d, nil
}

// sizeUnits are the suffixes ParseSize knows: SI (1000) and binary (1024) multiples.
var sizeUnits = []struct {
	suffix string
	mult   int64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"tib", 1 << 40},
	{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"tb", 1e12},
	{"k", 1e3}, {"m", 1e6}, {"g", 1e9}, {"t", 1e12}, {"b", 1},
}

// ParseSize reads a --max-store value: bytes, or a number with a unit (KB, MB, GB, TB are powers
// of 1000; KiB, MiB, GiB, TiB powers of 1024; case does not matter), e.g. "2GB", "1.5GiB";
// "0" and "off" mean no bound (0).
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(strings.ToLower(s))
	if t == "0" || t == "off" {
		return 0, nil
	}
	mult := int64(1)
	for _, u := range sizeUnits {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.mult
			break
		}
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || f <= 0 || f*float64(mult) > 1<<62 {
		return 0, errs.E(errs.InvalidConfig, "max-store %q: want a size like 2GB, 500MB or 10GiB, or off", s)
	}
	return int64(f * float64(mult)), nil
}

// FormatSize renders n bytes for people: "1.50 GB", "312 kB", "17 B" (SI units, as ParseSize
// reads them back).
func FormatSize(n int64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.2f GB", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.0f kB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d B", n)
}
