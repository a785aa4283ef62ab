package store

import (
	"encoding/json"
	"errors"
	"time"

	bolt "go.etcd.io/bbolt"
)

// bucketRunQueue holds the runs that wait in the engine's queue for a browser (webhook-, email-,
// SMS- and schedule-triggered runs): run id -> WaitingRun. It follows the extension queue's
// layout (extqueue.go): the run's own record, status queued, is in the runs bucket; this is what
// it takes to start the run after a restart. Ids sort by creation time, so a cursor walk is the
// queue's order.
var bucketRunQueue = []byte("run_queue")

func init() { featureBuckets = append(featureBuckets, bucketRunQueue) }

// WaitingRun is a run waiting for a browser, with everything needed to start it later.
type WaitingRun struct {
	V       int    `json:"v"`
	ID      string `json:"id"`
	Account string `json:"account"`
	Source  string `json:"source"`
	Goal    string `json:"goal"`
	// Nodes is the compiled script's json_output (a start URL's "open tab" included).
	Nodes json.RawMessage `json:"nodes"`
	Data  map[string]any  `json:"data,omitempty"`
	// Record keeps a screenshot after each browser step (the script's record switch).
	Record bool `json:"record,omitempty"`
	// Profile is the named browser profile the run uses ("" for a fresh context).
	Profile       string        `json:"profile,omitempty"`
	ScriptName    string        `json:"script_name,omitempty"`
	ScriptVersion int           `json:"script_version,omitempty"`
	TriggerID     string        `json:"trigger_id,omitempty"`
	TriggerSlot   *time.Time    `json:"trigger_slot,omitempty"`
	Timeout       time.Duration `json:"timeout,omitempty"`
	Created       time.Time     `json:"created"`
}

// PutWaitingRun stores (or replaces) a run waiting for a browser.
func (db *DB) PutWaitingRun(w WaitingRun) error {
	if w.ID == "" || w.Account == "" {
		return errors.New("store: a waiting run needs an ID and an account")
	}
	w.V = recordVersion
	raw, err := json.Marshal(w)
	if err != nil {
		return err
	}
	return db.bolt.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketRunQueue).Put([]byte(w.ID), raw) })
}

// DeleteWaitingRun forgets a waiting run (it started, failed or was canceled). Unknown ids are fine.
func (db *DB) DeleteWaitingRun(id string) error {
	return db.bolt.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketRunQueue).Delete([]byte(id)) })
}

// WaitingRuns lists the runs waiting for a browser, oldest first.
func (db *DB) WaitingRuns() ([]WaitingRun, error) {
	var out []WaitingRun
	err := db.bolt.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketRunQueue).ForEach(func(k, v []byte) error {
			var w WaitingRun
			if err := decodeRecord("waiting run", k, v, &w); err != nil {
				return err
			}
			out = append(out, w)
			return nil
		})
	})
	return out, err
}
