package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Run statuses the store itself looks at; any other status counts as finished.
const (
	StatusQueued  = "queued"
	StatusRunning = "running"
)

// ListRuns page sizes.
const (
	DefaultRunLimit = 50
	MaxRunLimit     = 500
)

// RunRecord is a run as stored. Doc, the run document of API.md, is opaque to the store; the
// other fields are what it indexes and filters on.
type RunRecord struct {
	V       int             `json:"v"`
	ID      string          `json:"id"` // from NewID, so that ids sort by creation time
	Account string          `json:"account"`
	Status  string          `json:"status"`
	Created time.Time       `json:"created"`
	Updated time.Time       `json:"updated"`
	Doc     json.RawMessage `json:"doc"`
}

// unfinished reports whether a run with this status has not ended yet.
func unfinished(status string) bool {
	return status == StatusQueued || status == StatusRunning
}

// PutRun inserts or replaces the run with r.ID. It sets V and Updated; Created is the one of the
// first put (r.Created, or now when zero) and is kept on later puts. A run cannot move to
// another account. ID and Account are required, and Doc, when set, must be valid JSON.
func (db *DB) PutRun(r RunRecord) error {
	if r.ID == "" || r.Account == "" {
		return errors.New("store: a run needs an ID and an account")
	}
	if _, err := validAccount(r.Account); err != nil {
		return err
	}
	r.V = recordVersion
	r.Updated = db.timestamp()
	if r.Created.IsZero() {
		r.Created = r.Updated
	}
	id := []byte(r.ID)
	return db.bolt.Update(func(tx *bolt.Tx) error {
		runs := tx.Bucket(bucketRuns)
		if data := runs.Get(id); data != nil {
			var old RunRecord
			if err := decodeRecord("run", id, data, &old); err != nil {
				return err
			}
			if old.Account != r.Account {
				return fmt.Errorf("store: run %s belongs to account %s, not %s", r.ID, old.Account, r.Account)
			}
			r.Created = old.Created
		}
		data, err := json.Marshal(r)
		if err != nil {
			return fmt.Errorf("store: encode run %s: %w", r.ID, err)
		}
		if err := runs.Put(id, data); err != nil {
			return fmt.Errorf("store: put run %s: %w", r.ID, err)
		}
		idx, err := tx.Bucket(bucketAccountRuns).CreateBucketIfNotExists([]byte(r.Account))
		if err != nil {
			return fmt.Errorf("store: account index of %s: %w", r.Account, err)
		}
		if err := idx.Put(id, nil); err != nil {
			return fmt.Errorf("store: index run %s: %w", r.ID, err)
		}
		pending := tx.Bucket(bucketUnfinishedRuns)
		if unfinished(r.Status) {
			err = pending.Put(id, nil)
		} else {
			err = pending.Delete(id)
		}
		if err != nil {
			return fmt.Errorf("store: index run %s: %w", r.ID, err)
		}
		return nil
	})
}

// GetRun returns the run id of account. A run of another account is ErrNotFound, exactly like a
// run that does not exist.
func (db *DB) GetRun(account, id string) (RunRecord, error) {
	var r RunRecord
	err := db.bolt.View(func(tx *bolt.Tx) error {
		var err error
		r, err = getRun(tx, []byte(id))
		if err == nil && r.Account != account {
			err = notFound("run", id)
		}
		return err
	})
	if err != nil {
		return RunRecord{}, err
	}
	return r, nil
}

func getRun(tx *bolt.Tx, id []byte) (RunRecord, error) {
	data := tx.Bucket(bucketRuns).Get(id)
	if data == nil {
		return RunRecord{}, notFound("run", string(id))
	}
	var r RunRecord
	if err := decodeRecord("run", id, data, &r); err != nil {
		return RunRecord{}, err
	}
	return r, nil
}

// ListRuns returns up to limit runs of account, newest first (limit <= 0 means DefaultRunLimit;
// it is capped at MaxRunLimit). before, when not empty, is an exclusive cursor: only runs with
// ids sorting before it are returned, so passing the last id of a page gets the next page. It
// walks the account's own index backwards, so its cost does not grow with other accounts' runs.
func (db *DB) ListRuns(account string, limit int, before string) ([]RunRecord, error) {
	if limit <= 0 {
		limit = DefaultRunLimit
	}
	limit = min(limit, MaxRunLimit)
	list := []RunRecord{}
	err := db.bolt.View(func(tx *bolt.Tx) error {
		if account == "" {
			return nil
		}
		idx := tx.Bucket(bucketAccountRuns).Bucket([]byte(account))
		if idx == nil {
			return nil
		}
		c := idx.Cursor()
		var k []byte
		if before == "" {
			k, _ = c.Last()
		} else if k, _ = c.Seek([]byte(before)); k == nil {
			k, _ = c.Last() // every id sorts before the cursor
		} else {
			k, _ = c.Prev() // Seek stopped at the first id >= before
		}
		for ; k != nil && len(list) < limit; k, _ = c.Prev() {
			r, err := getRun(tx, k)
			if errors.Is(err, ErrNotFound) || (err == nil && r.Account != account) {
				return fmt.Errorf("store: account index of %s lists run %s, which is not the account's", account, k)
			}
			if err != nil {
				return err
			}
			list = append(list, r)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return list, nil
}

// UnfinishedRuns returns the runs still queued or running, oldest first: after a crash or a
// restart, these are the runs no process is working on any more.
func (db *DB) UnfinishedRuns() ([]RunRecord, error) {
	list := []RunRecord{}
	err := db.bolt.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketUnfinishedRuns).ForEach(func(id, _ []byte) error {
			r, err := getRun(tx, id)
			if errors.Is(err, ErrNotFound) {
				return fmt.Errorf("store: unfinished index lists missing run %s", id)
			}
			if err != nil {
				return err
			}
			if !unfinished(r.Status) {
				return fmt.Errorf("store: unfinished index lists run %s, which is %s", id, r.Status)
			}
			list = append(list, r)
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	return list, nil
}
