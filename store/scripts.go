package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	bolt "go.etcd.io/bbolt"
)

// Saved scripts: per account, by name, every save a new version. Layout:
//
//	scripts          account NUL name -> ScriptInfo (JSON): the latest version and times
//	script_versions  account NUL name NUL version (8 digits) -> ScriptVersion (JSON)
//
// The NUL separators cannot occur in account or script names, and fixed-width version numbers
// make a name's versions one sorted prefix.
var (
	bucketScripts        = []byte("scripts")
	bucketScriptVersions = []byte("script_versions")
)

func init() { featureBuckets = append(featureBuckets, bucketScripts, bucketScriptVersions) }

// MaxScriptName is the longest script name.
const MaxScriptName = 100

// ScriptInfo is a saved script as listed: its name, latest version and times.
type ScriptInfo struct {
	V       int       `json:"v"`
	Name    string    `json:"name"`
	Latest  int       `json:"latest_version"`
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
}

// ScriptVersion is one saved version of a script: the goal and json_output as sent.
type ScriptVersion struct {
	V          int             `json:"v"`
	Name       string          `json:"name"`
	Version    int             `json:"version"`
	Goal       string          `json:"goal"`
	JSONOutput json.RawMessage `json:"json_output"`
	// Profile is the browser profile the script's runs use ("" for none; profiles.go).
	Profile string    `json:"profile,omitempty"`
	Created time.Time `json:"created"`
}

// ValidScriptName checks a script name: 1-100 characters of letters, digits, '.', '_', '-' and
// spaces, not only spaces or dots.
func ValidScriptName(name string) error {
	ok := len(name) >= 1 && len(name) <= MaxScriptName && strings.Trim(name, " .") != ""
	for i := 0; ok && i < len(name); i++ {
		c := name[i]
		ok = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-' || c == ' '
	}
	if !ok {
		return &errs.Error{Code: errs.InvalidConfig,
			Message: fmt.Sprintf("invalid script name %q: use 1-%d letters, digits, spaces, '.', '_' or '-'", name, MaxScriptName),
			Details: []errs.Detail{{Field: "name", Problem: fmt.Sprintf("must be 1-%d letters, digits, spaces, '.', '_' or '-'", MaxScriptName)}}}
	}
	return nil
}

func scriptKey(account, name string) []byte { return []byte(account + "\x00" + name) }

func versionKey(account, name string, version int) []byte {
	return fmt.Appendf(nil, "%s\x00%s\x00%08d", account, name, version)
}

func checkScriptArgs(account, name string) error {
	if account == "" {
		return errors.New("store: a script needs an account")
	}
	if _, err := validAccount(account); err != nil {
		return err
	}
	return ValidScriptName(name)
}

// SaveScript stores a new version of the account's script name (version 1 when it is new) and
// returns it. jsonOutput must be valid JSON; validating the nodes is the caller's job.
func (db *DB) SaveScript(account, name, goal string, jsonOutput json.RawMessage) (ScriptVersion, error) {
	return db.SaveScriptVersion(account, ScriptVersion{Name: name, Goal: goal, JSONOutput: jsonOutput})
}

// SaveScriptVersion is SaveScript for a version with its profile: it saves in.Name's goal,
// json_output and profile as the script's next version.
func (db *DB) SaveScriptVersion(account string, in ScriptVersion) (ScriptVersion, error) {
	name, jsonOutput := in.Name, in.JSONOutput
	if err := checkScriptArgs(account, name); err != nil {
		return ScriptVersion{}, err
	}
	if !json.Valid(jsonOutput) {
		return ScriptVersion{}, errs.E(errs.InvalidConfig, "json_output of script %s is not valid JSON", name)
	}
	if in.Profile != "" {
		if err := ValidProfileName(in.Profile); err != nil {
			return ScriptVersion{}, err
		}
	}
	now := db.timestamp()
	v := ScriptVersion{V: recordVersion, Name: name, Goal: in.Goal, JSONOutput: jsonOutput, Profile: in.Profile, Created: now}
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		key := scriptKey(account, name)
		info := ScriptInfo{V: recordVersion, Name: name, Created: now}
		if data := tx.Bucket(bucketScripts).Get(key); data != nil {
			if err := decodeRecord("script", key, data, &info); err != nil {
				return err
			}
		}
		info.Latest++
		info.Updated = now
		v.Version = info.Latest
		data, err := json.Marshal(info)
		if err != nil {
			return fmt.Errorf("store: encode script %s: %w", name, err)
		}
		if err := tx.Bucket(bucketScripts).Put(key, data); err != nil {
			return fmt.Errorf("store: put script %s: %w", name, err)
		}
		if data, err = json.Marshal(v); err != nil {
			return fmt.Errorf("store: encode script %s: %w", name, err)
		}
		if err := tx.Bucket(bucketScriptVersions).Put(versionKey(account, name, v.Version), data); err != nil {
			return fmt.Errorf("store: put script %s: %w", name, err)
		}
		return nil
	})
	if err != nil {
		return ScriptVersion{}, err
	}
	return v, nil
}

// GetScript returns version of the account's script name; version 0 means the latest. Another
// account's script is ErrNotFound, like one that does not exist.
func (db *DB) GetScript(account, name string, version int) (ScriptVersion, error) {
	if err := checkScriptArgs(account, name); err != nil {
		return ScriptVersion{}, notFound("script", name)
	}
	var v ScriptVersion
	err := db.bolt.View(func(tx *bolt.Tx) error {
		key := scriptKey(account, name)
		data := tx.Bucket(bucketScripts).Get(key)
		if data == nil {
			return notFound("script", name)
		}
		if version <= 0 {
			var info ScriptInfo
			if err := decodeRecord("script", key, data, &info); err != nil {
				return err
			}
			version = info.Latest
		}
		vkey := versionKey(account, name, version)
		data = tx.Bucket(bucketScriptVersions).Get(vkey)
		if data == nil {
			return &errs.Error{Code: errs.NotFound, Message: fmt.Sprintf("script %s has no version %d", name, version), Err: ErrNotFound}
		}
		return decodeRecord("script version", vkey, data, &v)
	})
	if err != nil {
		return ScriptVersion{}, err
	}
	return v, nil
}

// ListScripts returns the account's scripts sorted by name.
func (db *DB) ListScripts(account string) ([]ScriptInfo, error) {
	list := []ScriptInfo{}
	if account == "" {
		return list, nil
	}
	prefix := []byte(account + "\x00")
	err := db.bolt.View(func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketScripts).Cursor()
		for k, data := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, data = c.Next() {
			var info ScriptInfo
			if err := decodeRecord("script", k, data, &info); err != nil {
				return err
			}
			list = append(list, info)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return list, nil
}

// DeleteScript removes the account's script name with all its versions.
func (db *DB) DeleteScript(account, name string) error {
	if err := checkScriptArgs(account, name); err != nil {
		return notFound("script", name)
	}
	return db.bolt.Update(func(tx *bolt.Tx) error {
		key := scriptKey(account, name)
		if tx.Bucket(bucketScripts).Get(key) == nil {
			return notFound("script", name)
		}
		if err := tx.Bucket(bucketScripts).Delete(key); err != nil {
			return fmt.Errorf("store: delete script %s: %w", name, err)
		}
		prefix := append(key, 0)
		c := tx.Bucket(bucketScriptVersions).Cursor()
		for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Seek(prefix) {
			if err := c.Delete(); err != nil {
				return fmt.Errorf("store: delete script %s: %w", name, err)
			}
		}
		return nil
	})
}
