package store

import (
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// ScanRuns walks account's runs newest first, starting after the cursor before ("" for the
// newest; like ListRuns, the cursor itself is excluded), and calls fn on each until fn answers
// false or max runs have been read (max <= 0: no bound). It answers the id of the last run read
// and more: whether runs older than it are left. A filtered list reads runs until it has a page
// of matches, so max bounds the work of a filter that matches little.
func (db *DB) ScanRuns(account, before string, max int, fn func(RunRecord) (bool, error)) (last string, more bool, err error) {
	err = db.bolt.View(func(tx *bolt.Tx) error {
		idx := tx.Bucket(bucketAccountRuns).Bucket([]byte(account))
		if account == "" || idx == nil {
			return nil
		}
		c := idx.Cursor()
		k := newestBefore(c, before)
		for read := 0; k != nil; k, _ = c.Prev() {
			if max > 0 && read == max {
				more = true
				return nil
			}
			read++
			r, err := getRun(tx, k)
			if errors.Is(err, ErrNotFound) || (err == nil && r.Account != account) {
				return fmt.Errorf("store: account index of %s lists run %s, which is not the account's", account, k)
			}
			if err != nil {
				return err
			}
			last = r.ID
			goOn, err := fn(r)
			if err != nil {
				return err
			}
			if !goOn {
				k, _ = c.Prev()
				more = k != nil
				return nil
			}
		}
		return nil
	})
	if err != nil {
		return "", false, err
	}
	return last, more, nil
}
