package store

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	bolt "go.etcd.io/bbolt"
)

// Artifacts are files a run keeps with its record (screenshots), served at
// /runs/<run>/artifacts/<name> to the run's account.
//
// Buckets:
//
//	artifacts      "<run id>/<name>" -> Artifact (JSON, without its bytes)
//	artifact_data  "<run id>/<name>" -> the bytes, as they are
//
// One bucket keyed by run then name keeps a run's artifacts adjacent, so listing them is a
// prefix scan that never reads the bytes. The bytes are kept raw beside the record rather than
// inside its JSON, where base64 made every screenshot a third larger. A record of format 1 has
// its bytes inline (Data); it is read as it is, and replaced by the new form when rewritten.
// Sizes are capped: artifacts live in the same file as keys and runs.
var (
	bucketArtifacts    = []byte("artifacts")
	bucketArtifactData = []byte("artifact_data")
)

// artifactVersion is the format of the artifact records this build writes: 2, the bytes in
// artifact_data. A rodeo that knows only format 1 refuses them instead of serving empty files.
const artifactVersion = 2

func init() { featureBuckets = append(featureBuckets, bucketArtifacts, bucketArtifactData) }

// Artifact limits.
const (
	// MaxArtifactSize caps one artifact's bytes.
	MaxArtifactSize = 20 << 20
	// MaxArtifactsPerRun caps how many artifacts one run keeps (a screenshot in a loop).
	MaxArtifactsPerRun = 200
	// maxArtifactName caps a name's length.
	maxArtifactName = 200
)

// Artifact is one stored file of a run.
type Artifact struct {
	V           int       `json:"v"`
	Run         string    `json:"run"`
	Account     string    `json:"account"`
	Name        string    `json:"name"`
	ContentType string    `json:"content_type"`
	Size        int       `json:"size"`
	Created     time.Time `json:"created"`
	Data        []byte    `json:"data,omitempty"`
}

// ValidArtifactName reports whether name can name an artifact: not empty, at most 200 bytes,
// no slash, backslash or control character, and not "." or "..".
func ValidArtifactName(name string) bool {
	if name == "" || len(name) > maxArtifactName || name == "." || name == ".." {
		return false
	}
	for _, r := range name {
		if r == '/' || r == '\\' || r < 0x20 || r == 0x7f {
			return false
		}
	}
	return true
}

// ArtifactPath is the server path an artifact is served at: /runs/<run>/artifacts/<name>.
func ArtifactPath(run, name string) string {
	return "/runs/" + url.PathEscape(run) + "/artifacts/" + url.PathEscape(name)
}

func artifactKey(run, name string) []byte { return []byte(run + "/" + name) }

// PutArtifact stores a (replacing one of the same run and name). Run, Account and a valid Name
// are required; data over MaxArtifactSize, or a new name past MaxArtifactsPerRun, is refused with
// code too_large. An artifact cannot move to another account.
func (db *DB) PutArtifact(a Artifact) error {
	if a.Run == "" || strings.Contains(a.Run, "/") || a.Account == "" {
		return errs.E(errs.InvalidConfig, "store: an artifact needs a run and an account")
	}
	if !ValidArtifactName(a.Name) {
		return errs.E(errs.InvalidConfig, "artifact name %q is not valid: use 1 to %d characters without slashes", a.Name, maxArtifactName)
	}
	if len(a.Data) > MaxArtifactSize {
		return errs.E(errs.TooLarge, "artifact %s is %d bytes; at most %d are kept with a run", a.Name, len(a.Data), MaxArtifactSize)
	}
	if a.ContentType == "" {
		a.ContentType = "application/octet-stream"
	}
	a.V, a.Size, a.Created = artifactVersion, len(a.Data), db.timestamp()
	data := a.Data
	a.Data = nil
	key := artifactKey(a.Run, a.Name)
	return db.bolt.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketArtifacts)
		if old := b.Get(key); old != nil {
			var prev Artifact
			if err := decodeArtifact(key, old, &prev); err != nil {
				return err
			}
			if prev.Account != a.Account {
				return fmt.Errorf("store: artifact %s belongs to another account", key)
			}
		} else {
			n := 0
			prefix := []byte(a.Run + "/")
			c := b.Cursor()
			for k, _ := c.Seek(prefix); k != nil && strings.HasPrefix(string(k), string(prefix)); k, _ = c.Next() {
				n++
			}
			if n >= MaxArtifactsPerRun {
				return errs.E(errs.TooLarge, "run %s already keeps %d artifacts, the most a run may keep", a.Run, n)
			}
		}
		rec, err := json.Marshal(a)
		if err != nil {
			return fmt.Errorf("store: encode artifact %s: %w", key, err)
		}
		if err := b.Put(key, rec); err != nil {
			return fmt.Errorf("store: put artifact %s: %w", key, err)
		}
		if data == nil {
			data = []byte{} // bbolt stores a nil value as empty anyway; say so
		}
		return tx.Bucket(bucketArtifactData).Put(key, data)
	})
}

// decodeArtifact reads an artifact record of format 1 (bytes inline) or 2 (bytes apart).
func decodeArtifact(key, rec []byte, a *Artifact) error {
	return decodeRecordUpTo("artifact", key, rec, a, artifactVersion)
}

// artifactData returns the bytes of the artifact at key: inline in a format 1 record, else in
// artifact_data (copied: the slice outlives the transaction).
func artifactData(tx *bolt.Tx, key []byte, a *Artifact) []byte {
	if a.V < 2 {
		return a.Data
	}
	return append([]byte{}, tx.Bucket(bucketArtifactData).Get(key)...)
}

// GetArtifact returns the artifact name of run, with its bytes. An artifact of another account
// is ErrNotFound, exactly like one that does not exist.
func (db *DB) GetArtifact(account, run, name string) (Artifact, error) {
	var a Artifact
	if !ValidArtifactName(name) || strings.Contains(run, "/") {
		return a, notFound("artifact", name)
	}
	key := artifactKey(run, name)
	err := db.bolt.View(func(tx *bolt.Tx) error {
		rec := tx.Bucket(bucketArtifacts).Get(key)
		if rec == nil {
			return notFound("artifact", name)
		}
		if err := decodeArtifact(key, rec, &a); err != nil {
			return err
		}
		if a.Account != account {
			return notFound("artifact", name)
		}
		a.Data = artifactData(tx, key, &a)
		return nil
	})
	if err != nil {
		return Artifact{}, err
	}
	return a, nil
}

// ListArtifacts returns run's artifacts of account, by name, without their bytes. A run of
// another account has none.
func (db *DB) ListArtifacts(account, run string) ([]Artifact, error) {
	out := []Artifact{}
	if run == "" || strings.Contains(run, "/") {
		return out, nil
	}
	prefix := []byte(run + "/")
	err := db.bolt.View(func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketArtifacts).Cursor()
		for k, v := c.Seek(prefix); k != nil && strings.HasPrefix(string(k), string(prefix)); k, v = c.Next() {
			var a Artifact
			if err := decodeArtifact(k, v, &a); err != nil {
				return err
			}
			if a.Account != account {
				continue
			}
			a.Data = nil
			out = append(out, a)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
