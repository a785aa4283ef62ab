package store

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	bolt "go.etcd.io/bbolt"
)

func TestParseKeepRuns(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
		bad  bool
	}{
		{in: "30d", want: 30 * 24 * time.Hour},
		{in: "1d12h", want: 36 * time.Hour},
		{in: "720h", want: 720 * time.Hour},
		{in: "90m", want: 90 * time.Minute},
		{in: " 7D ", want: 7 * 24 * time.Hour},
		{in: "0", want: 0},
		{in: "off", want: 0},
		{in: "OFF", want: 0},
		{in: "", bad: true},
		{in: "30", bad: true},
		{in: "-1h", bad: true},
		{in: "0d", bad: true},
		{in: "d", bad: true},
		{in: "1.5d", bad: true},
		{in: "30days", bad: true},
		{in: "forever", bad: true},
	} {
		got, err := ParseKeepRuns(tc.in)
		if tc.bad {
			if err == nil || errs.Code(err) != errs.InvalidConfig {
				t.Errorf("ParseKeepRuns(%q) = %v, %v; want an invalid_config error", tc.in, got, err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ParseKeepRuns(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

func TestParseSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		bad  bool
	}{
		{in: "2GB", want: 2e9},
		{in: "10gb", want: 10e9},
		{in: "500MB", want: 500e6},
		{in: "1.5GiB", want: 3 << 29},
		{in: "64 KiB", want: 64 << 10},
		{in: "4096", want: 4096},
		{in: "12b", want: 12},
		{in: "1T", want: 1e12},
		{in: "0", want: 0},
		{in: "off", want: 0},
		{in: "", bad: true},
		{in: "-1GB", bad: true},
		{in: "0GB", bad: true},
		{in: "lots", bad: true},
		{in: "2 gigabytes", bad: true},
		{in: "1e30TB", bad: true},
	} {
		got, err := ParseSize(tc.in)
		if tc.bad {
			if err == nil || errs.Code(err) != errs.InvalidConfig {
				t.Errorf("ParseSize(%q) = %v, %v; want an invalid_config error", tc.in, got, err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ParseSize(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

// testRun describes a run a retention test stores: its age when pruning runs, its status and
// how many bytes of artifacts it keeps.
type testRun struct {
	age       time.Duration
	status    string
	artifacts int
}

// putTestRuns stores runs r_000, r_001, … (oldest first, as NewID ids sort) created at now-age,
// each with its artifacts in two files, and an extension queue entry for queued and expired ones.
func putTestRuns(t testing.TB, db *DB, now time.Time, runs []testRun) []string {
	t.Helper()
	ids := make([]string, len(runs))
	for i, r := range runs {
		ids[i] = fmt.Sprintf("r_%03d", i)
		rec := RunRecord{ID: ids[i], Account: "acme", Status: r.status, Created: now.Add(-r.age), Doc: []byte(`{"steps":[]}`)}
		if err := db.PutRun(rec); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"a.bin", "b.bin"} {
			if r.artifacts == 0 {
				break
			}
			data := bytes.Repeat([]byte{byte(i)}, r.artifacts/2)
			if err := db.PutArtifact(Artifact{Run: ids[i], Account: "acme", Name: name, Data: data}); err != nil {
				t.Fatal(err)
			}
		}
		// An expired run's entry is normally gone with it; one left behind must go when it does.
		if r.status == StatusQueued || r.status == "expired" {
			if err := db.PutQueuedRun(QueuedRun{ID: ids[i], Account: "acme", Nodes: []byte(`[]`)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	return ids
}

// kept returns the ids of ids that still have a run record, and fails the test when a deleted
// run left an artifact or an extension queue entry behind, or a kept one lost its artifacts.
func kept(t *testing.T, db *DB, ids []string, runs []testRun) []string {
	t.Helper()
	var out []string
	for i, id := range ids {
		_, err := db.GetRun("acme", id)
		arts, _ := db.ListArtifacts("acme", id)
		var queued bool
		_ = db.bolt.View(func(tx *bolt.Tx) error { queued = tx.Bucket(bucketExtQueue).Get([]byte(id)) != nil; return nil })
		switch {
		case err == nil:
			out = append(out, id)
			if runs[i].artifacts > 0 && len(arts) != 2 {
				t.Errorf("kept run %s has %d artifacts, want 2", id, len(arts))
			}
		case errs.Is(err, errs.NotFound):
			if len(arts) != 0 || queued {
				t.Errorf("pruned run %s left %d artifacts (queue entry: %v)", id, len(arts), queued)
			}
		default:
			t.Fatal(err)
		}
	}
	return out
}

func TestPrune_ByAge(t *testing.T) {
	const day = 24 * time.Hour
	now := time.Date(2030, 6, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name   string
		keep   time.Duration
		runs   []testRun
		want   []string
		pruned int
	}{
		{
			name: "keep forever",
			runs: []testRun{{age: 400 * day, status: "succeeded", artifacts: 10}, {age: 1, status: "failed"}},
			want: []string{"r_000", "r_001"},
		},
		{
			name: "old finished runs go with their artifacts, newer ones stay",
			keep: 30 * day,
			runs: []testRun{
				{age: 90 * day, status: "succeeded", artifacts: 10},
				{age: 31 * day, status: "failed", artifacts: 10},
				{age: 29 * day, status: "canceled", artifacts: 10},
				{age: time.Hour, status: "succeeded"},
			},
			want:   []string{"r_002", "r_003"},
			pruned: 2,
		},
		{
			name: "queued and running runs stay however old",
			keep: day,
			runs: []testRun{
				{age: 50 * day, status: StatusRunning, artifacts: 10},
				{age: 40 * day, status: "timed_out"},
				{age: 30 * day, status: StatusQueued},
				{age: 20 * day, status: "expired", artifacts: 10},
			},
			want:   []string{"r_000", "r_002"},
			pruned: 2,
		},
		{
			name: "a run exactly as old as the limit stays",
			keep: 7 * day,
			runs: []testRun{{age: 7*day + time.Second, status: "failed"}, {age: 7 * day, status: "failed"}},
			want: []string{"r_001"}, pruned: 1,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := openTestDB(t, "")
			db.now = func() time.Time { return now }
			ids := putTestRuns(t, db, now, tc.runs)
			res, err := db.Prune(Retention{KeepFor: tc.keep})
			if err != nil {
				t.Fatal(err)
			}
			if got := kept(t, db, ids, tc.runs); fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("kept %v, want %v", got, tc.want)
			}
			if res.ByAge != tc.pruned || res.BySize != 0 || db.PrunedRuns() != int64(tc.pruned) {
				t.Errorf("result %+v, counter %d; want %d pruned by age", res, db.PrunedRuns(), tc.pruned)
			}
			var gone []string
			for _, id := range ids {
				if !strings.Contains(fmt.Sprint(tc.want), id) {
					gone = append(gone, id)
				}
			}
			if fmt.Sprint(res.IDs) != fmt.Sprint(gone) {
				t.Errorf("result lists %v as pruned, want %v", res.IDs, gone)
			}
		})
	}
}

func TestPrune_ByAgeInBatches(t *testing.T) {
	db := openTestDB(t, "")
	db.bolt.NoSync = true // hundreds of small commits; durability is not what this checks
	now := time.Date(2030, 6, 1, 12, 0, 0, 0, time.UTC)
	db.now = func() time.Time { return now }
	n := 2*pruneBatch + 10
	runs := make([]testRun, n)
	for i := range runs {
		runs[i] = testRun{age: time.Duration(n-i) * time.Hour, status: "succeeded"}
		if i%100 == 7 {
			runs[i].status = StatusRunning
		}
	}
	ids := putTestRuns(t, db, now, runs)
	res, err := db.Prune(Retention{KeepFor: 5 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	got := kept(t, db, ids, runs)
	want := []string{"r_007", "r_107", "r_207", "r_307", "r_407", "r_507", "r_517", "r_518", "r_519", "r_520", "r_521"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("kept %v, want %v", got, want)
	}
	if res.ByAge != n-len(want) {
		t.Errorf("pruned %d, want %d", res.ByAge, n-len(want))
	}
}

func TestPrune_BySize(t *testing.T) {
	db := openTestDB(t, "")
	db.bolt.NoSync = true
	now := time.Date(2030, 6, 1, 12, 0, 0, 0, time.UTC)
	db.now = func() time.Time { return now }
	runs := make([]testRun, 40)
	for i := range runs {
		runs[i] = testRun{age: time.Duration(len(runs)-i) * time.Minute, status: "succeeded", artifacts: 100 << 10}
	}
	runs[0].status = StatusRunning // the oldest run is still going: it must survive
	ids := putTestRuns(t, db, now, runs)
	before, err := db.Size()
	if err != nil {
		t.Fatal(err)
	}
	limit := before.Used / 2
	res, err := db.Prune(Retention{MaxBytes: limit, KeepFor: 365 * 24 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	after, _ := db.Size()
	if after.Used > limit {
		t.Errorf("store uses %d bytes after pruning, over the %d limit", after.Used, limit)
	}
	got := kept(t, db, ids, runs)
	if len(got) < 2 || got[0] != "r_000" {
		t.Fatalf("kept %v: the running run must stay", got)
	}
	// Oldest first: what is kept besides the running run is a tail of the newest ones.
	first := len(ids) - (len(got) - 1)
	if fmt.Sprint(got[1:]) != fmt.Sprint(ids[first:]) {
		t.Errorf("kept %v, want the running run and the newest %v", got, ids[first:])
	}
	// Not more than needed: each run holds about 1/40 of the data, so about half stay.
	if len(got) < 15 {
		t.Errorf("kept only %d of 40 runs under a limit of half the data", len(got))
	}
	if res.BySize != len(ids)-len(got) || res.ByAge != 0 || res.Artifacts != 2*res.BySize || res.OverLimit || len(res.IDs) != res.BySize || res.IDs[0] != "r_001" {
		t.Errorf("result %+v for %d runs kept", res, len(got))
	}
}

func TestPrune_OverLimitWithNothingFinished(t *testing.T) {
	db := openTestDB(t, "")
	now := time.Now().UTC()
	ids := putTestRuns(t, db, now, []testRun{{age: time.Hour, status: StatusRunning, artifacts: 64 << 10}, {status: StatusQueued}})
	res, err := db.Prune(Retention{MaxBytes: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !res.OverLimit || res.Runs() != 0 {
		t.Errorf("result %+v, want over the limit with nothing pruned", res)
	}
	for _, id := range ids {
		if _, err := db.GetRun("acme", id); err != nil {
			t.Errorf("run %s: %v", id, err)
		}
	}
}

func TestSize_UsedFallsAfterDeletes(t *testing.T) {
	db := openTestDB(t, "")
	now := time.Now().UTC()
	runs := []testRun{{age: 2 * time.Hour, status: "succeeded", artifacts: 1 << 20}, {age: time.Hour, status: "succeeded"}}
	putTestRuns(t, db, now, runs)
	full, err := db.Size()
	if err != nil {
		t.Fatal(err)
	}
	if full.Used < 1<<20 || full.File < full.Used {
		t.Fatalf("size %+v with a 1 MiB artifact stored", full)
	}
	if _, err := db.Prune(Retention{KeepFor: 90 * time.Minute}); err != nil {
		t.Fatal(err)
	}
	after, _ := db.Size()
	if after.File < full.File || after.Used > full.Used-(1<<20) {
		t.Errorf("after pruning the run with the artifact: %+v, before %+v (the file does not shrink, the used bytes drop)", after, full)
	}
}
