package main

import (
	"flag"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/store"
)

func TestRetentionFlags(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		env  map[string]string
		want store.Retention
		bad  string
	}{
		{name: "defaults", want: store.Retention{KeepFor: 30 * 24 * time.Hour, MaxBytes: 10e9}},
		{name: "flags", args: []string{"--keep-runs", "7d", "--max-store", "2GB"}, want: store.Retention{KeepFor: 7 * 24 * time.Hour, MaxBytes: 2e9}},
		{name: "env", env: map[string]string{"RODEO_KEEP_RUNS": "12h", "RODEO_MAX_STORE": "500MiB"}, want: store.Retention{KeepFor: 12 * time.Hour, MaxBytes: 500 << 20}},
		{name: "off", args: []string{"--keep-runs", "off", "--max-store", "0"}, want: store.Retention{}},
		{name: "bad age", args: []string{"--keep-runs", "a month"}, bad: "--keep-runs / RODEO_KEEP_RUNS: keep-runs \"a month\""},
		{name: "bad size", args: []string{"--max-store", "big"}, bad: "--max-store / RODEO_MAX_STORE"},
		{name: "bad interval", args: []string{"--prune-every", "0s"}, bad: "--prune-every"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := &App{Getenv: func(k string) string { return tc.env[k] }}
			fs := flag.NewFlagSet("serve", flag.ContinueOnError)
			var rf retentionFlags
			a.addRetentionFlags(fs, &rf)
			if err := fs.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			got, err := rf.policy()
			if tc.bad != "" {
				if err == nil || !strings.Contains(err.Error(), tc.bad) {
					t.Fatalf("policy %+v, error %v; want one naming %q", got, err, tc.bad)
				}
				return
			}
			if err != nil || got != tc.want || rf.every != 10*time.Minute {
				t.Fatalf("policy %+v every %v, error %v; want %+v", got, rf.every, err, tc.want)
			}
		})
	}
}

// TestServe_BadRetentionTouchesNothing: a bad --keep-runs stops serve with exit 2 before the data
// directory is created.
func TestServe_BadRetentionTouchesNothing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	code, _, errOut := inProcess(t, map[string]string{}, "serve", "--data", dir, "--keep-runs", "-3d", "--addr", "127.0.0.1:0")
	if code != exitInvalid || !strings.Contains(errOut, "keep-runs") {
		t.Errorf("serve with a bad --keep-runs: %d %q", code, errOut)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the data directory was created: %v", err)
	}
}

// TestStartRetention_PrunesInBackground: the retention loop prunes at start and on every tick,
// removes the working folders of the runs it prunes and old ones of runs never stored, and stop
// waits for it.
func TestStartRetention_PrunesInBackground(t *testing.T) {
	dir := t.TempDir()
	db, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	work := filepath.Join(dir, "work")
	folder := func(name string, age time.Duration) string {
		t.Helper()
		p := filepath.Join(work, name)
		if err := os.MkdirAll(p, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(p, "out.txt"), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, time.Now().Add(-age), time.Now().Add(-age)); err != nil {
			t.Fatal(err)
		}
		return p
	}
	put := func(id string, created time.Time) {
		t.Helper()
		if err := db.PutRun(store.RunRecord{ID: id, Account: "default", Status: "succeeded", Created: created, Doc: []byte(`{}`)}); err != nil {
			t.Fatal(err)
		}
	}
	put("r_1", time.Now().Add(-2*time.Hour))
	pruned := folder("r_1", 0)                 // a pruned run's: goes whatever its age
	cli := folder("r_cli", 3*time.Hour)        // of a run never stored, old: goes
	young := folder("r_young", time.Minute)    // of a run never stored, recent: stays
	stored := folder("r_3", 5*time.Hour)       // of a kept run: stays however old
	other := folder("unrelated", 10*time.Hour) // not a run's: stays
	put("r_3", time.Now())
	stop := startRetention(db, work, store.Retention{KeepFor: time.Hour}, 20*time.Millisecond, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer stop()
	gone := func(id string) bool {
		deadline := time.Now().Add(5 * time.Second)
		for time.Now().Before(deadline) {
			if _, err := db.GetRun("default", id); errs.Is(err, errs.NotFound) {
				return true
			}
			time.Sleep(10 * time.Millisecond)
		}
		return false
	}
	if !gone("r_1") {
		t.Fatal("the old run was not pruned at start")
	}
	put("r_2", time.Now().Add(-3*time.Hour)) // written after the first pass: a later tick takes it
	if !gone("r_2") {
		t.Fatal("the old run was not pruned by a later pass")
	}
	stop()
	if _, err := db.GetRun("default", "r_3"); err != nil {
		t.Errorf("a new run was pruned: %v", err)
	}
	for p, want := range map[string]bool{pruned: false, cli: false, young: true, stored: true, other: true} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", filepath.Base(p), err == nil, want)
		}
	}
	if db.PrunedRuns() != 2 {
		t.Errorf("pruned %d runs, want 2", db.PrunedRuns())
	}
}
