package store

import (
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// The resolution cache of the semantic engine: one nested bucket per account under
// "resolutions", key -> a versioned record wrapping the engine's entry. The store does not read
// the entry; the engine re-validates every hit against the live page anyway.
//
//	resolutions     account -> (cache key -> resolutionRecord JSON)
var bucketResolutions = []byte("resolutions")

func init() { featureBuckets = append(featureBuckets, bucketResolutions) }

// resolutionRecord wraps a cache entry with the store's format version.
type resolutionRecord struct {
	V     int             `json:"v"`
	Entry json.RawMessage `json:"entry"`
}

// GetResolution returns the cached entry of account under key, or nil, nil when there is none.
func (db *DB) GetResolution(account, key string) ([]byte, error) {
	if account == "" {
		account = "-"
	}
	if key == "" {
		return nil, nil
	}
	var out []byte
	err := db.bolt.View(func(tx *bolt.Tx) error {
		acc := tx.Bucket(bucketResolutions).Bucket([]byte(account))
		if acc == nil {
			return nil
		}
		data := acc.Get([]byte(key))
		if data == nil {
			return nil
		}
		var rec resolutionRecord
		if err := decodeRecord("resolution", []byte(key), data, &rec); err != nil {
			return err
		}
		out = append([]byte(nil), rec.Entry...)
		return nil
	})
	return out, err
}

// PutResolution stores entry (valid JSON) for account under key, replacing any previous one.
func (db *DB) PutResolution(account, key string, entry []byte) error {
	if account == "" {
		account = "-"
	}
	if key == "" || !json.Valid(entry) {
		return fmt.Errorf("store: a resolution needs a key and a JSON entry")
	}
	data, err := json.Marshal(resolutionRecord{V: recordVersion, Entry: entry})
	if err != nil {
		return fmt.Errorf("store: encode resolution: %w", err)
	}
	return db.bolt.Update(func(tx *bolt.Tx) error {
		acc, err := tx.Bucket(bucketResolutions).CreateBucketIfNotExists([]byte(account))
		if err != nil {
			return fmt.Errorf("store: resolutions of %s: %w", account, err)
		}
		return acc.Put([]byte(key), data)
	})
}

// DeleteResolution removes the entry of account under key; a missing one is not an error.
func (db *DB) DeleteResolution(account, key string) error {
	if account == "" {
		account = "-"
	}
	return db.bolt.Update(func(tx *bolt.Tx) error {
		acc := tx.Bucket(bucketResolutions).Bucket([]byte(account))
		if acc == nil {
			return nil
		}
		return acc.Delete([]byte(key))
	})
}
