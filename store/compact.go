package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/rodeo-run/rodeo/errs"
	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// compactTxBytes bounds what one transaction of the copy writes, so compacting a large store
// does not hold it all in memory.
const compactTxBytes = 64 << 20

// CompactResult is the store file's size before and after Compact.
type CompactResult struct {
	Before, After int64
}

// Compact rewrites the store file of dir without its free pages, offline: bbolt never shrinks a
// file, so the space that pruned runs freed is reused by later runs but only a rewrite returns it
// to the disk. It holds the file's lock for the whole copy and refuses, with code busy and
// ErrInUse, when a server (or any other process) has the directory open. The copy is written
// beside the file and renamed over it, so a crash leaves either the old file or the new one.
func Compact(dir string) (CompactResult, error) {
	var res CompactResult
	path := filepath.Join(dir, FileName)
	fi, err := os.Stat(path)
	if err != nil {
		return res, errs.E(errs.NotFound, "no store to compact in %s: %v", dir, err)
	}
	res.Before = fi.Size()
	src, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: openTimeout})
	if errors.Is(err, berrors.ErrTimeout) {
		return res, &errs.Error{Code: errs.Busy, Err: ErrInUse,
			Message: fmt.Sprintf("data directory %s is in use by another rodeo process: stop the server before compacting", dir)}
	}
	if err != nil {
		return res, fmt.Errorf("open store in %s: %w", dir, err)
	}
	defer src.Close() // the lock is held until the copy has replaced the file

	tmp := path + ".compact"
	_ = os.Remove(tmp) // left by a compaction that was interrupted
	dst, err := bolt.Open(tmp, 0o600, &bolt.Options{Timeout: openTimeout})
	if err != nil {
		return res, fmt.Errorf("create %s: %w", tmp, err)
	}
	if err := bolt.Compact(dst, src, compactTxBytes); err != nil {
		_ = dst.Close()
		_ = os.Remove(tmp)
		return res, fmt.Errorf("compact %s: %w", path, err)
	}
	var data int64
	_ = dst.View(func(tx *bolt.Tx) error { data = tx.Size(); return nil })
	if err := dst.Close(); err != nil {
		_ = os.Remove(tmp)
		return res, fmt.Errorf("compact %s: %w", path, err)
	}
	// bbolt grows a file in steps of up to 16 MB ahead of its data; the copy has no use for the
	// room past its last page (it grows again on the next write that needs it).
	if fi, err := os.Stat(tmp); err == nil && fi.Size() > data && data > 0 {
		if err := os.Truncate(tmp, data); err != nil {
			_ = os.Remove(tmp)
			return res, fmt.Errorf("compact %s: %w", path, err)
		}
	}
	if fi, err := os.Stat(tmp); err == nil {
		res.After = fi.Size()
	}
	old, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		_ = os.Remove(tmp)
		return res, fmt.Errorf("compact %s: %w", path, err)
	}
	defer old.Close()
	if err := os.Rename(tmp, path); err != nil {
		_ = os.Remove(tmp)
		return res, fmt.Errorf("replace %s: %w", path, err)
	}
	if err := syncDir(dir); err != nil {
		return res, err
	}
	return res, retire(old, src.Info().PageSize)
}

// retire overwrites the meta pages of the file compaction replaced. A server started during the
// compaction opened that file and waits for its lock; when the lock is released it must fail
// ("invalid database": start it again) instead of running on a copy nobody will read again.
func retire(old *os.File, pageSize int) error {
	if _, err := old.WriteAt(make([]byte, 2*pageSize), 0); err != nil {
		return fmt.Errorf("retire the replaced store file: %w", err)
	}
	return old.Sync()
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}
