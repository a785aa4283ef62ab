package store

import (
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	bolt "go.etcd.io/bbolt"
)

// Named browser profiles: the cookies and local storage a run with "profile" leaves behind, for
// the next run with the same profile (scripts/profile.go).
//
// Bucket:
//
//	profiles  one nested bucket per account: profile name -> Profile (JSON)
var bucketProfiles = []byte("profiles")

func init() { featureBuckets = append(featureBuckets, bucketProfiles) }

// MaxProfileName is the longest profile name.
const MaxProfileName = 64

// Profile is one named browser profile of an account.
type Profile struct {
	V       int    `json:"v"`
	Name    string `json:"name"`
	Account string `json:"account"`
	// Cookies are the context's cookies as CDP's Storage.getCookies returns them.
	Cookies json.RawMessage `json:"cookies,omitempty"`
	// LocalStorage is origin (scheme://host[:port]) -> key -> value.
	LocalStorage map[string]map[string]string `json:"local_storage,omitempty"`
	Created      time.Time                    `json:"created"`
	Updated      time.Time                    `json:"updated"`
	// LastRun is the run that saved it last; Runs counts the runs that saved it.
	LastRun string `json:"last_run,omitempty"`
	Runs    int    `json:"runs"`
}

// ValidProfileName checks a profile name: 1-64 letters, digits, '.', '_' or '-', starting with
// a letter or digit. The error has code invalid_profile.
func ValidProfileName(name string) error {
	ok := len(name) >= 1 && len(name) <= MaxProfileName
	for i := 0; ok && i < len(name); i++ {
		c := name[i]
		alnum := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
		ok = alnum || i > 0 && (c == '.' || c == '_' || c == '-')
	}
	if !ok {
		return &errs.Error{Code: errs.InvalidProfile,
			Message: fmt.Sprintf("invalid profile name %q: use 1-%d letters, digits, '.', '_' or '-', starting with a letter or digit", name, MaxProfileName),
			Details: []errs.Detail{{Field: "profile", Problem: fmt.Sprintf("must be 1-%d letters, digits, '.', '_' or '-', starting with a letter or digit", MaxProfileName)}}}
	}
	return nil
}

// GetProfile returns the account's profile name; ErrNotFound when it was never saved.
func (db *DB) GetProfile(account, name string) (Profile, error) {
	var p Profile
	err := db.bolt.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketProfiles).Bucket([]byte(account))
		var raw []byte
		if b != nil && account != "" {
			raw = b.Get([]byte(name))
		}
		if raw == nil {
			return notFound("profile", name)
		}
		return decodeRecord("profile", []byte(name), raw, &p)
	})
	return p, err
}

// SaveProfile stores the state a run left in profile p.Name of p.Account (creating it), and
// returns it as stored: Created is kept from the first save, Runs counts the saves.
func (db *DB) SaveProfile(p Profile) (Profile, error) {
	if err := ValidProfileName(p.Name); err != nil {
		return Profile{}, err
	}
	if _, err := validAccount(p.Account); err != nil {
		return Profile{}, err
	}
	p.V = recordVersion
	p.Updated = db.timestamp()
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		b, err := tx.Bucket(bucketProfiles).CreateBucketIfNotExists([]byte(p.Account))
		if err != nil {
			return fmt.Errorf("store: profiles of %s: %w", p.Account, err)
		}
		p.Created, p.Runs = p.Updated, 1
		if raw := b.Get([]byte(p.Name)); raw != nil {
			var old Profile
			if err := decodeRecord("profile", []byte(p.Name), raw, &old); err != nil {
				return err
			}
			p.Created, p.Runs = old.Created, old.Runs+1
		}
		raw, err := json.Marshal(p)
		if err != nil {
			return fmt.Errorf("store: encode profile %s: %w", p.Name, err)
		}
		return b.Put([]byte(p.Name), raw)
	})
	if err != nil {
		return Profile{}, err
	}
	return p, nil
}

// ListProfiles returns the account's profiles by name.
func (db *DB) ListProfiles(account string) ([]Profile, error) {
	list := []Profile{}
	err := db.bolt.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketProfiles).Bucket([]byte(account))
		if b == nil || account == "" {
			return nil
		}
		return b.ForEach(func(k, v []byte) error {
			var p Profile
			if err := decodeRecord("profile", k, v, &p); err != nil {
				return err
			}
			list = append(list, p)
			return nil
		})
	})
	sort.Slice(list, func(i, j int) bool { return list[i].Name < list[j].Name })
	return list, err
}

// DeleteProfile forgets the account's profile name; ErrNotFound when there is none.
func (db *DB) DeleteProfile(account, name string) error {
	return db.bolt.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketProfiles).Bucket([]byte(account))
		if b == nil || account == "" || b.Get([]byte(name)) == nil {
			return notFound("profile", name)
		}
		return b.Delete([]byte(name))
	})
}
