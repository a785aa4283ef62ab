package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rodeo-run/rodeo/store"
)

// retentionFlags bound what `rodeo serve` keeps: finished runs older than --keep-runs, or the
// oldest ones while the store holds more than --max-store, are pruned in the background with
// their artifacts (store/retention.go).
type retentionFlags struct {
	keepRuns, maxStore string
	every              time.Duration
}

func (a *App) addRetentionFlags(fs *flag.FlagSet, f *retentionFlags) {
	fs.StringVar(&f.keepRuns, "keep-runs", a.env("RODEO_KEEP_RUNS", "30d"),
		"how long finished runs and their artifacts are kept: a Go duration or days with d (30d, 1d12h, 720h); 0 or off keeps them forever (env RODEO_KEEP_RUNS)")
	fs.StringVar(&f.maxStore, "max-store", a.env("RODEO_MAX_STORE", "10GB"),
		"past this size of data in the store (2GB, 500MB, 10GiB), the oldest finished runs are pruned; 0 or off: no bound (env RODEO_MAX_STORE)")
	fs.DurationVar(&f.every, "prune-every", a.envDuration("RODEO_PRUNE_EVERY", 10*time.Minute),
		"how often retention runs (also once at start) (env RODEO_PRUNE_EVERY)")
}

// policy checks the flags; a bad value stops the server before it opens anything.
func (f retentionFlags) policy() (store.Retention, error) {
	keep, err := store.ParseKeepRuns(f.keepRuns)
	if err != nil {
		return store.Retention{}, fmt.Errorf("--keep-runs / RODEO_KEEP_RUNS: %w", err)
	}
	max, err := store.ParseSize(f.maxStore)
	if err != nil {
		return store.Retention{}, fmt.Errorf("--max-store / RODEO_MAX_STORE: %w", err)
	}
	if f.every <= 0 {
		return store.Retention{}, fmt.Errorf("--prune-every / RODEO_PRUNE_EVERY: want a positive duration, got %s", f.every)
	}
	return store.Retention{KeepFor: keep, MaxBytes: max}, nil
}

// startRetention prunes db by p now and then every interval until the returned stop is called
// (which waits for a pass in progress), and removes the working folders (work/<run id>) of the
// runs it deletes. A policy that keeps everything starts nothing.
func startRetention(db *store.DB, work string, p store.Retention, every time.Duration, log *slog.Logger) (stop func()) {
	if p == (store.Retention{}) {
		log.Info("retention off: runs are kept forever")
		return func() {}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			prune(db, work, p, log)
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	}()
	return func() { cancel(); <-done }
}

// prune runs one retention pass and logs what it did.
func prune(db *store.DB, work string, p store.Retention, log *slog.Logger) {
	res, err := db.Prune(p)
	folders := removeWorkFolders(work, res.IDs, log)
	if p.KeepFor > 0 {
		folders += sweepWorkFolders(db, work, time.Now().Add(-p.KeepFor), log)
	}
	if err != nil {
		log.Error("retention pass failed", "err", err, "pruned_runs", res.Runs())
		return
	}
	size, _ := db.Size()
	if res.Runs() > 0 {
		log.Info("pruned runs", "by_age", res.ByAge, "by_size", res.BySize, "artifacts", res.Artifacts, "work_folders", folders,
			"store_used", store.FormatSize(size.Used), "store_file", store.FormatSize(size.File))
	}
	if res.OverLimit {
		log.Warn("the store is over --max-store with no finished run left to prune", "store_used", store.FormatSize(size.Used),
			"max_store", store.FormatSize(p.MaxBytes))
	}
}

// removeWorkFolders removes work/<id> of each deleted run and counts those that existed.
func removeWorkFolders(work string, ids []string, log *slog.Logger) int {
	n := 0
	for _, id := range ids {
		if id == "" || id != filepath.Base(id) || strings.HasPrefix(id, ".") {
			continue // not a folder name runWorkDir would have made
		}
		dir := filepath.Join(work, id)
		if _, err := os.Lstat(dir); err != nil {
			continue
		}
		if err := os.RemoveAll(dir); err != nil {
			log.Warn("remove a pruned run's working folder", "run", id, "err", err)
			continue
		}
		n++
	}
	return n
}

// sweepWorkFolders removes the run folders in work last changed before cutoff whose run is not
// in the store: those of `rodeo run` (never stored), and of runs deleted before their folder
// could be (a crash, a compaction of an older store). A folder of a stored run is left to
// removeWorkFolders, whatever its age.
func sweepWorkFolders(db *store.DB, work string, cutoff time.Time, log *slog.Logger) int {
	entries, err := os.ReadDir(work)
	if err != nil {
		return 0
	}
	var stale []string
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || !e.IsDir() || !strings.HasPrefix(e.Name(), "r_") || !info.ModTime().Before(cutoff) {
			continue
		}
		if stored, err := db.HasRun(e.Name()); err != nil || stored {
			continue
		}
		stale = append(stale, e.Name())
	}
	return removeWorkFolders(work, stale, log)
}
