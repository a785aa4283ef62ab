package store

import (
	"encoding/json"
	"errors"
	"time"

	bolt "go.etcd.io/bbolt"
)

// bucketExtQueue holds runs triggered for the companion extension that wait for one to connect:
// run id -> QueuedRun. The run's own record (status queued) is in the runs bucket; this is what it
// takes to start it after a restart.
var bucketExtQueue = []byte("extension_queue")

func init() { featureBuckets = append(featureBuckets, bucketExtQueue) }

// QueuedRun is a run waiting for an extension, with everything needed to start it later.
type QueuedRun struct {
	V       int    `json:"v"`
	ID      string `json:"id"`
	Account string `json:"account"`
	Goal    string `json:"goal"`
	// Nodes is the compiled script's json_output (a start URL's "open tab" included).
	Nodes         json.RawMessage `json:"nodes"`
	Data          map[string]any  `json:"data,omitempty"`
	ScriptName    string          `json:"script_name,omitempty"`
	ScriptVersion int             `json:"script_version,omitempty"`
	Background    bool            `json:"background"`
	Created       time.Time       `json:"created"`
	Expires       time.Time       `json:"expires"`
}

// PutQueuedRun stores (or replaces) a waiting extension run.
func (db *DB) PutQueuedRun(q QueuedRun) error {
	if q.ID == "" || q.Account == "" {
		return errors.New("store: a queued run needs an ID and an account")
	}
	q.V = recordVersion
	raw, err := json.Marshal(q)
	if err != nil {
		return err
	}
	return db.bolt.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketExtQueue).Put([]byte(q.ID), raw) })
}

// DeleteQueuedRun forgets a waiting run (it started, expired or was canceled). Unknown ids are fine.
func (db *DB) DeleteQueuedRun(id string) error {
	return db.bolt.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketExtQueue).Delete([]byte(id)) })
}

// QueuedRuns lists the waiting extension runs, oldest first (ids sort by time).
func (db *DB) QueuedRuns() ([]QueuedRun, error) {
	var out []QueuedRun
	err := db.bolt.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketExtQueue).ForEach(func(k, v []byte) error {
			var q QueuedRun
			if err := decodeRecord("queued run", k, v, &q); err != nil {
				return err
			}
			out = append(out, q)
			return nil
		})
	})
	return out, err
}
