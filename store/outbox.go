package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// The outbox keeps the mail of a server without SMTP, so that an email node still has a
// visible, checkable effect (GET /outbox).
//
// Bucket:
//
//	outbox  one nested bucket per account: message id -> OutboxMessage (JSON)
var bucketOutbox = []byte("outbox")

func init() {
	featureBuckets = append(featureBuckets, bucketOutbox)
}

// ListOutbox page sizes.
const (
	DefaultOutboxLimit = 50
	MaxOutboxLimit     = 500
)

// OutboxMessage is one message kept in the outbox. Attachments are listed by name and size;
// their content is kept apart (outbox_delivery.go) until the message is sent.
type OutboxMessage struct {
	V           int                `json:"v"`
	ID          string             `json:"id"`
	Account     string             `json:"account"`
	RunID       string             `json:"run_id,omitempty"`
	To          []string           `json:"to"`
	Subject     string             `json:"subject"`
	Body        string             `json:"body"`
	Attachments []OutboxAttachment `json:"attachments,omitempty"`
	Created     time.Time          `json:"created"`
	// Delivery is where the message stands with SMTP once a server with SMTP has tried to send
	// it (outbox_delivery.go); nil while it is only kept.
	Delivery *OutboxDelivery `json:"delivery,omitempty"`
}

// OutboxAttachment describes an attachment of an outbox message.
type OutboxAttachment struct {
	Name        string `json:"name"`
	Size        int    `json:"size"`
	ContentType string `json:"content_type,omitempty"`
}

// AddOutbox stores m in its account's outbox and returns it with its id and time set. content,
// when given, is the attachments' bytes in the order of m.Attachments, kept so that a later
// SMTP delivery sends them (outbox_delivery.go).
func (db *DB) AddOutbox(m OutboxMessage, content ...[]byte) (OutboxMessage, error) {
	if m.Account == "" {
		return OutboxMessage{}, errors.New("store: an outbox message needs an account")
	}
	if _, err := validAccount(m.Account); err != nil {
		return OutboxMessage{}, err
	}
	m.V = recordVersion
	m.ID = NewID("m")
	m.Created = db.timestamp()
	data, err := json.Marshal(m)
	if err != nil {
		return OutboxMessage{}, fmt.Errorf("store: encode outbox message: %w", err)
	}
	err = db.bolt.Update(func(tx *bolt.Tx) error {
		b, err := tx.Bucket(bucketOutbox).CreateBucketIfNotExists([]byte(m.Account))
		if err != nil {
			return fmt.Errorf("store: outbox of %s: %w", m.Account, err)
		}
		if err := b.Put([]byte(m.ID), data); err != nil {
			return err
		}
		return putOutboxContent(tx, m.Account, m.ID, content)
	})
	if err != nil {
		return OutboxMessage{}, err
	}
	return m, nil
}

// GetOutbox returns message id of account's outbox (ErrNotFound otherwise).
func (db *DB) GetOutbox(account, id string) (OutboxMessage, error) {
	var m OutboxMessage
	err := db.bolt.View(func(tx *bolt.Tx) error {
		var err error
		m, err = outboxMessage(tx, account, id)
		return err
	})
	return m, err
}

// ListOutbox returns up to limit messages of account's outbox, newest first (limit <= 0 means
// DefaultOutboxLimit, capped at MaxOutboxLimit); before is an exclusive id cursor as in ListRuns.
func (db *DB) ListOutbox(account string, limit int, before string) ([]OutboxMessage, error) {
	if limit <= 0 {
		limit = DefaultOutboxLimit
	}
	limit = min(limit, MaxOutboxLimit)
	list := []OutboxMessage{}
	err := db.bolt.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketOutbox).Bucket([]byte(account))
		if b == nil || account == "" {
			return nil
		}
		c := b.Cursor()
		var k, v []byte
		if before == "" {
			k, v = c.Last()
		} else if k, _ = c.Seek([]byte(before)); k == nil {
			k, v = c.Last()
		} else {
			k, v = c.Prev()
		}
		for ; k != nil && len(list) < limit; k, v = c.Prev() {
			var m OutboxMessage
			if err := decodeRecord("outbox message", k, v, &m); err != nil {
				return err
			}
			list = append(list, m)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return list, nil
}

// outboxMessage reads message id of account's outbox in tx (ErrNotFound otherwise).
func outboxMessage(tx *bolt.Tx, account, id string) (OutboxMessage, error) {
	var m OutboxMessage
	b := tx.Bucket(bucketOutbox).Bucket([]byte(account))
	if b == nil || account == "" {
		return m, notFound("outbox message", id)
	}
	data := b.Get([]byte(id))
	if data == nil {
		return m, notFound("outbox message", id)
	}
	return m, decodeRecord("outbox message", []byte(id), data, &m)
}
