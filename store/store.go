// Package store keeps rodeo's durable state (API keys and run records) in one embedded bbolt
// file, dir/rodeo.db.
//
// bbolt because rodeo runs on one machine by default: a single file gives ACID transactions with
// no server to install, back up or keep alive, and a restart loses nothing that was committed.
// Its file lock also stops two rodeo processes from sharing a data directory by mistake.
//
// Every record is JSON carrying a format version in its "v" field. Readers check it before
// decoding, so a record written by a newer rodeo is reported as such instead of being misread
// and perhaps written back without the fields this version does not know.
//
// Buckets:
//
//	keys            key id -> key record (JSON, holds SHA-256 of the secret, never the secret)
//	key_hashes      SHA-256(secret) -> key id, the index Authenticate looks up
//	runs            run id -> RunRecord (JSON)
//	account_runs    one nested bucket per account: run id -> empty, for ListRuns
//	unfinished_runs run id -> empty for runs queued or running, for UnfinishedRuns
//
// Finished runs are pruned with their artifacts by age and by size (retention.go); the file is
// rewritten without its free pages offline (compact.go).
package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// Sentinel errors. Compare with errors.Is: the store often returns them wrapped in an error
// whose message names the missing thing.
var (
	// ErrNotFound means the key or run does not exist, or belongs to another account (the two
	// cases are indistinguishable on purpose). Its code is errs.NotFound.
	ErrNotFound = errs.E(errs.NotFound, "not found")

	// ErrInvalidKey is what Authenticate returns for an empty, unknown or revoked secret, with
	// code errs.InvalidKey. It never says which of the three it was.
	ErrInvalidKey = errs.E(errs.InvalidKey, "invalid or revoked API key")

	// ErrInUse means another process (or another DB in this process) holds the data directory's
	// lock. Open returns it wrapped with code errs.Busy and a message naming the directory.
	ErrInUse = errors.New("data directory is in use by another rodeo process")

	// ErrUnsupportedVersion means a stored record has a format version newer than this build
	// understands, i.e. the data directory was last used by a newer rodeo.
	ErrUnsupportedVersion = errors.New("record version not supported")
)

// FileName is the name of the database file inside the data directory.
const FileName = "rodeo.db"

// recordVersion is the format version of every record this build writes and the newest it reads.
const recordVersion = 1

// openTimeout is how long Open waits for the file lock before deciding that another process
// owns the directory.
const openTimeout = time.Second

var (
	bucketKeys           = []byte("keys")
	bucketKeyHashes      = []byte("key_hashes")
	bucketRuns           = []byte("runs")
	bucketAccountRuns    = []byte("account_runs")
	bucketUnfinishedRuns = []byte("unfinished_runs")

	// featureBuckets are added by the files of later features (scripts, sheets, outbox, cache)
	// from their init functions, so each feature keeps its layout in its own file.
	featureBuckets [][]byte

	allBuckets = [][]byte{bucketKeys, bucketKeyHashes, bucketRuns, bucketAccountRuns, bucketUnfinishedRuns}
)

// DB is rodeo's store. It is safe for concurrent use; bbolt serializes writers and lets readers
// run in parallel.
type DB struct {
	bolt *bolt.DB
	dir  string
	now  func() time.Time // injectable clock for tests
	// pruned counts the runs Prune deleted (retention.go).
	pruned atomic.Int64
}

// Open opens (creating if needed) the store in dir. It fails after about a second, with an
// error wrapping ErrInUse, when another process has the directory open.
func Open(dir string) (*DB, error) {
	if dir == "" {
		return nil, errs.E(errs.InvalidConfig, "data directory is empty")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create data directory: %w", err)
	}
	bdb, err := bolt.Open(filepath.Join(dir, FileName), 0o600, &bolt.Options{Timeout: openTimeout})
	if errors.Is(err, berrors.ErrTimeout) {
		return nil, &errs.Error{
			Code:    errs.Busy,
			Message: fmt.Sprintf("data directory %s is in use by another rodeo process", dir),
			Err:     ErrInUse,
		}
	}
	if err != nil {
		return nil, fmt.Errorf("open store in %s: %w", dir, err)
	}
	err = bdb.Update(func(tx *bolt.Tx) error {
		for _, name := range append(append([][]byte(nil), allBuckets...), featureBuckets...) {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				return fmt.Errorf("create bucket %s: %w", name, err)
			}
		}
		return nil
	})
	if err != nil {
		_ = bdb.Close()
		return nil, fmt.Errorf("open store in %s: %w", dir, err)
	}
	return &DB{bolt: bdb, dir: dir, now: time.Now}, nil
}

// Close releases the database file and its lock. Calling it again is harmless.
func (db *DB) Close() error {
	return db.bolt.Close()
}

// Dir is the data directory the DB was opened in.
func (db *DB) Dir() string { return db.dir }

// timestamp is the DB clock in UTC, so stored times do not depend on the server's zone.
func (db *DB) timestamp() time.Time { return db.now().UTC() }

// notFound is ErrNotFound with a message naming what was missing.
func notFound(kind, id string) error {
	return &errs.Error{Code: errs.NotFound, Message: fmt.Sprintf("%s %s not found", kind, id), Err: ErrNotFound}
}

// decodeRecord checks a record's version before decoding it into dst, so that a record from a
// newer format is refused instead of half-read.
func decodeRecord(kind string, id []byte, data []byte, dst any) error {
	return decodeRecordUpTo(kind, id, data, dst, recordVersion)
}

// decodeRecordUpTo is decodeRecord for a kind whose records have reached format newest.
func decodeRecordUpTo(kind string, id []byte, data []byte, dst any, newest int) error {
	var hdr struct {
		V int `json:"v"`
	}
	if err := json.Unmarshal(data, &hdr); err != nil {
		return fmt.Errorf("store: corrupt %s record %s: %w", kind, id, err)
	}
	switch {
	case hdr.V > newest:
		return fmt.Errorf("store: %s record %s has format version %d, newer than this rodeo understands (%d); upgrade rodeo: %w",
			kind, id, hdr.V, newest, ErrUnsupportedVersion)
	case hdr.V < 1:
		return fmt.Errorf("store: corrupt %s record %s: missing format version", kind, id)
	}
	if err := json.Unmarshal(data, dst); err != nil {
		return fmt.Errorf("store: corrupt %s record %s: %w", kind, id, err)
	}
	return nil
}
