package store

import (
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Watches are screen-state triggers: a page checked every so often, and a saved script run when
// an English condition about it turns true. A watch keeps its state (the last result, when it
// fired, how many checks failed in a row, when it checks next) with it, so a restart goes on
// where the last process stopped and does not fire again for a condition it already fired for.
//
//	watches  watch id -> Watch (JSON, with its last checks)
var bucketWatches = []byte("watches")

func init() { featureBuckets = append(featureBuckets, bucketWatches) }

// MaxWatchChecks is how many of its last checks a watch keeps.
const MaxWatchChecks = 20

// WatchCheck is one look at a watch's page.
type WatchCheck struct {
	At         time.Time `json:"at"`
	DurationMS int64     `json:"duration_ms"`
	// Value is what was read for the condition (a table as its JSON), cut to 500 characters.
	Value string `json:"value,omitempty"`
	// Result is the condition's truth; absent when the check failed.
	Result *bool `json:"result,omitempty"`
	// Fired is set when this check started a run (RunID); Note says why a true result did not
	// fire (it was already true, or the cooldown had not passed) or why firing failed.
	Fired bool   `json:"fired,omitempty"`
	RunID string `json:"run_id,omitempty"`
	Note  string `json:"note,omitempty"`
	// Error is why the check could not read the condition (code and message).
	Error *CheckError `json:"error,omitempty"`
}

// CheckError is a failed check's reason.
type CheckError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Watch is one screen-state trigger.
type Watch struct {
	V         int    `json:"v"`
	ID        string `json:"id"`
	Account   string `json:"account"`
	Script    string `json:"script"`
	URL       string `json:"url"`
	Condition string `json:"condition"`
	// Every and Cooldown are in seconds.
	Every    float64   `json:"every"`
	Cooldown float64   `json:"cooldown"`
	Paused   bool      `json:"paused"`
	Created  time.Time `json:"created"`
	// LastResult is the condition's last known truth (errors leave it as it was).
	LastResult bool       `json:"last_result"`
	LastFired  *time.Time `json:"last_fired,omitempty"`
	Fires      int        `json:"fires"`
	// Failures counts the checks that failed in a row (they back the next check off).
	Failures  int          `json:"failures"`
	NextCheck time.Time    `json:"next_check"`
	Checks    []WatchCheck `json:"checks"`
}

func putWatch(tx *bolt.Tx, w Watch) error {
	w.V = recordVersion
	data, err := json.Marshal(w)
	if err != nil {
		return fmt.Errorf("store: encode watch %s: %w", w.ID, err)
	}
	return tx.Bucket(bucketWatches).Put([]byte(w.ID), data)
}

func getWatch(tx *bolt.Tx, id string) (Watch, bool, error) {
	var w Watch
	data := tx.Bucket(bucketWatches).Get([]byte(id))
	if data == nil {
		return w, false, nil
	}
	if err := decodeRecord("watch", []byte(id), data, &w); err != nil {
		return w, false, err
	}
	return w, true, nil
}

// CreateWatch stores w (Account, Script, URL, Condition and Every set) with a new id, first
// checked at once, and returns it.
func (db *DB) CreateWatch(w Watch) (Watch, error) {
	if w.Account == "" || w.URL == "" || w.Condition == "" || w.Every <= 0 {
		return Watch{}, fmt.Errorf("store: a watch needs an account, a URL, a condition and an interval")
	}
	if err := ValidScriptName(w.Script); err != nil {
		return Watch{}, err
	}
	w.ID, w.Created, w.Checks = NewID("wt"), db.timestamp(), []WatchCheck{}
	w.NextCheck = w.Created
	if err := db.bolt.Update(func(tx *bolt.Tx) error { return putWatch(tx, w) }); err != nil {
		return Watch{}, err
	}
	w.V = recordVersion
	return w, nil
}

// GetWatch returns the account's watch id; another account's is ErrNotFound.
func (db *DB) GetWatch(account, id string) (Watch, error) {
	var w Watch
	err := db.bolt.View(func(tx *bolt.Tx) error {
		var ok bool
		var err error
		if w, ok, err = getWatch(tx, id); err != nil {
			return err
		}
		if !ok || (account != "" && w.Account != account) {
			return notFound("watch", id)
		}
		return nil
	})
	return w, err
}

// ListWatches returns the account's watches, oldest first ("" lists every account's: the
// watcher's start); a non-empty script keeps only those that run it.
func (db *DB) ListWatches(account, script string) ([]Watch, error) {
	out := []Watch{}
	err := db.bolt.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketWatches).ForEach(func(k, v []byte) error {
			var w Watch
			if err := decodeRecord("watch", k, v, &w); err != nil {
				return err
			}
			if (account == "" || w.Account == account) && (script == "" || w.Script == script) {
				out = append(out, w)
			}
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// DeleteWatch removes the account's watch id.
func (db *DB) DeleteWatch(account, id string) error {
	return db.bolt.Update(func(tx *bolt.Tx) error {
		w, ok, err := getWatch(tx, id)
		if err != nil {
			return err
		}
		if !ok || w.Account != account {
			return notFound("watch", id)
		}
		return tx.Bucket(bucketWatches).Delete([]byte(id))
	})
}

// UpdateWatch changes watch id in one transaction: f gets the stored watch and edits it; an
// error from f changes nothing. A non-empty account must own the watch. It returns the watch as
// stored (ErrNotFound when it is gone: deleted meanwhile).
func (db *DB) UpdateWatch(account, id string, f func(*Watch) error) (Watch, error) {
	var out Watch
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		w, ok, err := getWatch(tx, id)
		if err != nil {
			return err
		}
		if !ok || (account != "" && w.Account != account) {
			return notFound("watch", id)
		}
		owner := w.Account
		if err := f(&w); err != nil {
			return err
		}
		w.ID, w.Account = id, owner // f cannot move a watch
		if n := len(w.Checks); n > MaxWatchChecks {
			w.Checks = append([]WatchCheck(nil), w.Checks[n-MaxWatchChecks:]...)
		}
		out = w
		return putWatch(tx, w)
	})
	if err != nil {
		return Watch{}, err
	}
	out.V = recordVersion
	return out, nil
}
