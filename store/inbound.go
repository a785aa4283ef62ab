package store

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Inbound triggers are the email addresses and phone webhooks that run a saved script when mail,
// an SMS or a call comes in. Each has an unguessable token: the address's local part
// (t-<token>@domain) or the webhook's path (/triggers/phone/<token>/sms). Layout:
//
//	inbound_triggers  trigger id -> InboundTrigger (JSON, with the last deliveries)
//	inbound_tokens    kind NUL SHA-256(token) -> trigger id
//
// The token index holds a hash, as key_hashes does for API keys: a lookup compares hashes, so
// the B+tree's byte comparisons reveal nothing about the token by their timing.
var (
	bucketInboundTriggers = []byte("inbound_triggers")
	bucketInboundTokens   = []byte("inbound_tokens")
)

func init() { featureBuckets = append(featureBuckets, bucketInboundTriggers, bucketInboundTokens) }

// Inbound trigger kinds.
const (
	InboundEmail = "email"
	InboundPhone = "phone"
)

// MaxDeliveries is how many of its last deliveries an inbound trigger keeps.
const MaxDeliveries = 20

// Delivery is one message, SMS or call that reached an inbound trigger, and what came of it.
type Delivery struct {
	At time.Time `json:"at"`
	// Kind is "email", "sms" or "call".
	Kind    string `json:"kind"`
	From    string `json:"from,omitempty"`
	Subject string `json:"subject,omitempty"`
	// Result is "ran" (a run started), "filtered" (a filter did not match), "refused" (a bad
	// signature) or "failed" (the run could not start).
	Result string `json:"result"`
	Reason string `json:"reason,omitempty"`
	RunID  string `json:"run_id,omitempty"`
}

// InboundTrigger is an email address or a phone webhook that runs an account's saved script.
type InboundTrigger struct {
	V       int    `json:"v"`
	ID      string `json:"id"`
	Kind    string `json:"kind"`
	Account string `json:"account"`
	Script  string `json:"script"`
	Token   string `json:"token"`
	// From and Subject filter mail (email): a message runs the script only when its sender and
	// subject contain them, case-insensitively; empty matches everything.
	From    string `json:"from,omitempty"`
	Subject string `json:"subject,omitempty"`
	// AuthToken (phone) is the Twilio auth token webhook signatures are checked with; empty
	// accepts unsigned posts. A secret: the API never shows it.
	AuthToken string `json:"auth_token,omitempty"`
	// Prompt (phone) is what a call hears before it speaks.
	Prompt     string     `json:"prompt,omitempty"`
	Created    time.Time  `json:"created"`
	Deliveries []Delivery `json:"deliveries"`
}

// tokenEncoding writes tokens in lower-case base32 without padding: safe in an email local part
// and a URL path, and the same whichever case a mail server passes the address on in.
var tokenEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// newToken is 160 random bits as 32 lower-case characters.
func newToken() string {
	var b [20]byte
	_, _ = rand.Read(b[:])
	return tokenEncoding.EncodeToString(b[:])
}

func tokenKey(kind, token string) []byte {
	sum := sha256.Sum256([]byte(token))
	return append([]byte(kind+"\x00"), sum[:]...)
}

func inboundPrefix(kind string) string {
	if kind == InboundEmail {
		return "em"
	}
	return "ph"
}

// CreateInboundTrigger stores t (Kind, Account and Script set) with a new id and token and returns it.
func (db *DB) CreateInboundTrigger(t InboundTrigger) (InboundTrigger, error) {
	if t.Kind != InboundEmail && t.Kind != InboundPhone {
		return InboundTrigger{}, fmt.Errorf("store: unknown inbound trigger kind %q", t.Kind)
	}
	if t.Account == "" {
		return InboundTrigger{}, fmt.Errorf("store: an inbound trigger needs an account")
	}
	if err := ValidScriptName(t.Script); err != nil {
		return InboundTrigger{}, err
	}
	t.V, t.ID, t.Token, t.Created, t.Deliveries = recordVersion, NewID(inboundPrefix(t.Kind)), newToken(), db.timestamp(), []Delivery{}
	data, err := json.Marshal(t)
	if err != nil {
		return InboundTrigger{}, fmt.Errorf("store: encode inbound trigger: %w", err)
	}
	err = db.bolt.Update(func(tx *bolt.Tx) error {
		if err := tx.Bucket(bucketInboundTokens).Put(tokenKey(t.Kind, t.Token), []byte(t.ID)); err != nil {
			return err
		}
		return tx.Bucket(bucketInboundTriggers).Put([]byte(t.ID), data)
	})
	if err != nil {
		return InboundTrigger{}, fmt.Errorf("store: create inbound trigger: %w", err)
	}
	return t, nil
}

func getInbound(tx *bolt.Tx, id string) (InboundTrigger, bool, error) {
	var t InboundTrigger
	data := tx.Bucket(bucketInboundTriggers).Get([]byte(id))
	if data == nil {
		return t, false, nil
	}
	if err := decodeRecord("inbound trigger", []byte(id), data, &t); err != nil {
		return t, false, err
	}
	return t, true, nil
}

// InboundTriggerByToken finds the trigger of kind whose token is token (ErrNotFound when none).
func (db *DB) InboundTriggerByToken(kind, token string) (InboundTrigger, error) {
	var t InboundTrigger
	err := db.bolt.View(func(tx *bolt.Tx) error {
		id := tx.Bucket(bucketInboundTokens).Get(tokenKey(kind, strings.ToLower(token)))
		if id == nil {
			return notFound(kind+" trigger", "for that token")
		}
		var ok bool
		var err error
		if t, ok, err = getInbound(tx, string(id)); err != nil {
			return err
		} else if !ok {
			return notFound(kind+" trigger", "for that token")
		}
		return nil
	})
	return t, err
}

// GetInboundTrigger returns the account's trigger id of kind; another account's is ErrNotFound.
func (db *DB) GetInboundTrigger(account, kind, id string) (InboundTrigger, error) {
	var t InboundTrigger
	err := db.bolt.View(func(tx *bolt.Tx) error {
		var ok bool
		var err error
		t, ok, err = getInbound(tx, id)
		if err != nil {
			return err
		}
		if !ok || t.Account != account || t.Kind != kind {
			return notFound(kind+" trigger", id)
		}
		return nil
	})
	return t, err
}

// ListInboundTriggers returns the account's triggers of kind, oldest first; a non-empty script
// keeps only those that run it.
func (db *DB) ListInboundTriggers(account, kind, script string) ([]InboundTrigger, error) {
	out := []InboundTrigger{}
	err := db.bolt.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketInboundTriggers).ForEach(func(k, v []byte) error {
			var t InboundTrigger
			if err := decodeRecord("inbound trigger", k, v, &t); err != nil {
				return err
			}
			if t.Account == account && t.Kind == kind && (script == "" || t.Script == script) {
				out = append(out, t)
			}
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// DeleteInboundTrigger removes the account's trigger id of kind; its token stops working at once.
func (db *DB) DeleteInboundTrigger(account, kind, id string) error {
	return db.bolt.Update(func(tx *bolt.Tx) error {
		t, ok, err := getInbound(tx, id)
		if err != nil {
			return err
		}
		if !ok || t.Account != account || t.Kind != kind {
			return notFound(kind+" trigger", id)
		}
		if err := tx.Bucket(bucketInboundTokens).Delete(tokenKey(t.Kind, t.Token)); err != nil {
			return err
		}
		return tx.Bucket(bucketInboundTriggers).Delete([]byte(id))
	})
}

// RecordDelivery appends d to trigger id's deliveries, keeping the last MaxDeliveries. A trigger
// deleted meanwhile is ErrNotFound.
func (db *DB) RecordDelivery(id string, d Delivery) error {
	if d.At.IsZero() {
		d.At = db.timestamp()
	}
	return db.bolt.Update(func(tx *bolt.Tx) error {
		t, ok, err := getInbound(tx, id)
		if err != nil {
			return err
		}
		if !ok {
			return notFound("inbound trigger", id)
		}
		t.Deliveries = append(t.Deliveries, d)
		if n := len(t.Deliveries); n > MaxDeliveries {
			t.Deliveries = append([]Delivery(nil), t.Deliveries[n-MaxDeliveries:]...)
		}
		data, err := json.Marshal(t)
		if err != nil {
			return fmt.Errorf("store: encode inbound trigger: %w", err)
		}
		return tx.Bucket(bucketInboundTriggers).Put([]byte(id), data)
	})
}
