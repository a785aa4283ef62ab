package store

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/rodeo-run/rodeo/errs"
	bolt "go.etcd.io/bbolt"
)

// DefaultAccount is the account of keys created without one.
const DefaultAccount = "default"

const (
	secretPrefix    = "rk_"
	secretRandBytes = 32
	displayPrefix   = 10 // characters of the secret kept in Key.Prefix
	minImportSecret = 16
	maxAccountLen   = 64
	maxLabelLen     = 64
)

// Key is an API key as the store shows it: never its secret, nor the secret's hash.
type Key struct {
	V         int        `json:"v"`
	ID        string     `json:"id"`      // "k_" + 12 hex digits
	Account   string     `json:"account"` // the account whose scripts, runs and sheets the key reaches
	Prefix    string     `json:"prefix"`  // first characters of the secret, to recognize a key in a list
	Created   time.Time  `json:"created"`
	Revoked   bool       `json:"revoked"`
	RevokedAt *time.Time `json:"revoked_at,omitempty"`

	// Label says what the key is for, in its creator's words (optional).
	Label string `json:"label,omitempty"`
}

// keyRecord is a Key as stored: with the SHA-256 of its secret, which only Authenticate reads.
type keyRecord struct {
	Key
	Hash []byte `json:"hash"`
}

// hashSecret is SHA-256 of the secret. A fast hash is enough, and a slow KDF (bcrypt, argon2)
// would only cost CPU on every request: generated secrets carry 256 random bits, so the hash
// cannot be reversed by guessing, and imported ones must be at least 16 characters. Hashing
// also means an index lookup by hash leaks nothing useful through its timing.
func hashSecret(secret string) [sha256.Size]byte {
	return sha256.Sum256([]byte(secret))
}

// validAccount applies the default and checks an account name: 1-64 characters of
// [A-Za-z0-9._-], safe in URLs, file names and log lines.
func validAccount(account string) (string, error) {
	if account == "" {
		return DefaultAccount, nil
	}
	ok := len(account) <= maxAccountLen
	for i := 0; ok && i < len(account); i++ {
		c := account[i]
		ok = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-'
	}
	if !ok {
		return "", errs.E(errs.InvalidConfig, "invalid account name %q: use 1-%d letters, digits, '.', '_' or '-'", account, maxAccountLen)
	}
	return account, nil
}

// CreateKey makes a new key for account ("" means DefaultAccount) and returns its secret, which
// the store does not keep: it is shown once, here.
func (db *DB) CreateKey(account string) (secret string, k Key, err error) {
	return db.CreateLabeledKey(account, "")
}

// CreateLabeledKey is CreateKey with a label saying what the key is for (at most 64 printable
// characters), shown beside the key in lists.
func (db *DB) CreateLabeledKey(account, label string) (secret string, k Key, err error) {
	account, err = validAccount(account)
	if err != nil {
		return "", Key{}, err
	}
	if err := validLabel(label); err != nil {
		return "", Key{}, err
	}
	var b [secretRandBytes]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (it aborts the program instead)
	secret = secretPrefix + base64.RawURLEncoding.EncodeToString(b[:])

	err = db.bolt.Update(func(tx *bolt.Tx) error {
		var err error
		k, err = db.insertKey(tx, secret, account, label)
		return err
	})
	if err != nil {
		return "", Key{}, err
	}
	return secret, k, nil
}

// validLabel checks a key label: at most maxLabelLen characters, none of them a control character.
func validLabel(label string) error {
	if utf8.RuneCountInString(label) > maxLabelLen || !utf8.ValidString(label) {
		return &errs.Error{Code: errs.InvalidConfig, Message: fmt.Sprintf("invalid key label: at most %d characters", maxLabelLen),
			Details: []errs.Detail{{Field: "label", Problem: fmt.Sprintf("must be at most %d characters", maxLabelLen)}}}
	}
	for _, r := range label {
		if unicode.IsControl(r) {
			return &errs.Error{Code: errs.InvalidConfig, Message: "invalid key label: it has a control character",
				Details: []errs.Detail{{Field: "label", Problem: "must not hold control characters (newlines, tabs)"}}}
		}
	}
	return nil
}

// ImportKey accepts a secret chosen outside rodeo (RODEO_API_KEY) as a key of account ("" means
// DefaultAccount). It is idempotent: importing a known secret returns its existing key
// unchanged, still revoked if it was revoked and still in its original account.
//
// The secret must be at least 16 printable ASCII characters with no spaces, which also catches
// a stray newline or quote from a shell or an env file.
func (db *DB) ImportKey(secret, account string) (Key, error) {
	if len(secret) < minImportSecret {
		return Key{}, errs.E(errs.InvalidConfig, "API key is too short: it needs at least %d characters", minImportSecret)
	}
	for i := 0; i < len(secret); i++ {
		if c := secret[i]; c <= ' ' || c > '~' {
			return Key{}, errs.E(errs.InvalidConfig, "API key has a space, control or non-ASCII character at position %d", i+1)
		}
	}
	account, err := validAccount(account)
	if err != nil {
		return Key{}, err
	}
	sum := hashSecret(secret)
	var k Key
	err = db.bolt.Update(func(tx *bolt.Tx) error {
		if id := tx.Bucket(bucketKeyHashes).Get(sum[:]); id != nil {
			rec, err := getKey(tx, id)
			if err != nil {
				return err
			}
			k = rec.Key
			return nil
		}
		var err error
		k, err = db.insertKey(tx, secret, account, "")
		return err
	})
	if err != nil {
		return Key{}, err
	}
	return k, nil
}

// insertKey stores a new key for secret under a fresh id.
func (db *DB) insertKey(tx *bolt.Tx, secret, account, label string) (Key, error) {
	keys, hashes := tx.Bucket(bucketKeys), tx.Bucket(bucketKeyHashes)
	sum := hashSecret(secret)
	if hashes.Get(sum[:]) != nil {
		return Key{}, errors.New("store: key secret already exists")
	}
	var id string
	for range 8 {
		var b [6]byte
		_, _ = rand.Read(b[:])
		if c := "k_" + hex.EncodeToString(b[:]); keys.Get([]byte(c)) == nil {
			id = c
			break
		}
	}
	if id == "" {
		return Key{}, errors.New("store: cannot find a free key id")
	}
	rec := keyRecord{
		Key: Key{
			V:       recordVersion,
			ID:      id,
			Account: account,
			Prefix:  secret[:min(displayPrefix, len(secret))],
			Label:   label,
			Created: db.timestamp(),
		},
		Hash: sum[:],
	}
	if err := putKey(tx, rec); err != nil {
		return Key{}, err
	}
	if err := hashes.Put(sum[:], []byte(id)); err != nil {
		return Key{}, fmt.Errorf("store: index key %s: %w", id, err)
	}
	return rec.Key, nil
}

func putKey(tx *bolt.Tx, rec keyRecord) error {
	data, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("store: encode key %s: %w", rec.ID, err)
	}
	if err := tx.Bucket(bucketKeys).Put([]byte(rec.ID), data); err != nil {
		return fmt.Errorf("store: put key %s: %w", rec.ID, err)
	}
	return nil
}

// getKey reads a key record; ErrNotFound when there is none.
func getKey(tx *bolt.Tx, id []byte) (keyRecord, error) {
	data := tx.Bucket(bucketKeys).Get(id)
	if data == nil {
		return keyRecord{}, notFound("key", string(id))
	}
	var rec keyRecord
	if err := decodeRecord("key", id, data, &rec); err != nil {
		return keyRecord{}, err
	}
	return rec, nil
}

// ListKeys returns all keys of all accounts, oldest first.
func (db *DB) ListKeys() ([]Key, error) {
	var list []Key
	err := db.bolt.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketKeys).ForEach(func(id, data []byte) error {
			var rec keyRecord
			if err := decodeRecord("key", id, data, &rec); err != nil {
				return err
			}
			list = append(list, rec.Key)
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(list, func(i, j int) bool {
		if !list[i].Created.Equal(list[j].Created) {
			return list[i].Created.Before(list[j].Created)
		}
		return list[i].ID < list[j].ID
	})
	return list, nil
}

// RevokeKey revokes a key for good. Revoking a revoked key changes nothing (its RevokedAt stays
// the first revocation's); an unknown id is ErrNotFound.
func (db *DB) RevokeKey(id string) error {
	return db.bolt.Update(func(tx *bolt.Tx) error {
		rec, err := getKey(tx, []byte(id))
		if err != nil || rec.Revoked {
			return err
		}
		now := db.timestamp()
		rec.Revoked, rec.RevokedAt = true, &now
		return putKey(tx, rec)
	})
}

// Authenticate returns the live key whose secret this is, or ErrInvalidKey when the secret is
// empty, unknown or revoked.
func (db *DB) Authenticate(secret string) (Key, error) {
	if secret == "" {
		return Key{}, ErrInvalidKey
	}
	sum := hashSecret(secret)
	var k Key
	err := db.bolt.View(func(tx *bolt.Tx) error {
		id := tx.Bucket(bucketKeyHashes).Get(sum[:])
		if id == nil {
			return ErrInvalidKey
		}
		rec, err := getKey(tx, id)
		if errors.Is(err, ErrNotFound) {
			return fmt.Errorf("store: key index points at missing key %s", id)
		}
		if err != nil {
			return err
		}
		// The index already matched, so this is a second line of defense (e.g. against a
		// damaged index); it is constant time like any comparison of secret material should be.
		if subtle.ConstantTimeCompare(rec.Hash, sum[:]) != 1 || rec.Revoked {
			return ErrInvalidKey
		}
		k = rec.Key
		return nil
	})
	if err != nil {
		return Key{}, err
	}
	return k, nil
}

// CountKeys returns how many keys exist, revoked ones included.
func (db *DB) CountKeys() (int, error) {
	var n int
	err := db.bolt.View(func(tx *bolt.Tx) error {
		n = tx.Bucket(bucketKeys).Stats().KeyN
		return nil
	})
	return n, err
}
