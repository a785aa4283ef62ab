package store

import (
	"encoding/json"
	"fmt"
	"sort"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Delivery of the outbox: a server started with SMTP sends the messages kept while it had none
// (mail.Outbox), and records each attempt on the message.
//
// Bucket:
//
//	outbox_content  account NUL message id -> the attachments' bytes (JSON list of base64)
var bucketOutboxContent = []byte("outbox_content")

func init() { featureBuckets = append(featureBuckets, bucketOutboxContent) }

// Delivery statuses of an outbox message.
const (
	// OutboxPending: not sent yet; NextAttempt says when it is tried (again).
	OutboxPending = "pending"
	// OutboxSending: an attempt is under way. A message found so at start was being sent when
	// the server stopped, and is tried again (at-least-once; see docs/operations.md).
	OutboxSending = "sending"
	// OutboxSent: the SMTP server accepted it; it is never sent again.
	OutboxSent = "sent"
	// OutboxFailed: every attempt failed; it is not tried again.
	OutboxFailed = "failed"
)

// OutboxDelivery is where an outbox message stands with SMTP.
type OutboxDelivery struct {
	Status      string     `json:"status"`
	Attempts    int        `json:"attempts"`
	LastError   string     `json:"last_error,omitempty"`
	LastAttempt *time.Time `json:"last_attempt,omitempty"`
	NextAttempt *time.Time `json:"next_attempt,omitempty"`
	Sent        *time.Time `json:"sent,omitempty"`
	// Reply is the SMTP server's answer to the message (its 250 line).
	Reply string `json:"smtp_reply,omitempty"`
}

// Done reports whether no further attempt is due (sent or failed for good).
func (d *OutboxDelivery) Done() bool {
	return d != nil && (d.Status == OutboxSent || d.Status == OutboxFailed)
}

func outboxContentKey(account, id string) []byte { return []byte(account + "\x00" + id) }

func putOutboxContent(tx *bolt.Tx, account, id string, content [][]byte) error {
	if len(content) == 0 {
		return nil
	}
	raw, err := json.Marshal(content)
	if err != nil {
		return fmt.Errorf("store: encode outbox attachments: %w", err)
	}
	return tx.Bucket(bucketOutboxContent).Put(outboxContentKey(account, id), raw)
}

// OutboxContent returns the attachments' bytes of message id, in the order of its Attachments;
// nil when none were kept.
func (db *DB) OutboxContent(account, id string) ([][]byte, error) {
	var out [][]byte
	err := db.bolt.View(func(tx *bolt.Tx) error {
		raw := tx.Bucket(bucketOutboxContent).Get(outboxContentKey(account, id))
		if raw == nil {
			return nil
		}
		return json.Unmarshal(raw, &out)
	})
	return out, err
}

// UndeliveredOutbox lists the messages of every account that are neither sent nor failed for
// good, oldest first (ids sort by time).
func (db *DB) UndeliveredOutbox() ([]OutboxMessage, error) {
	var out []OutboxMessage
	err := db.bolt.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketOutbox).ForEachBucket(func(account []byte) error {
			return tx.Bucket(bucketOutbox).Bucket(account).ForEach(func(k, v []byte) error {
				var m OutboxMessage
				if err := decodeRecord("outbox message", k, v, &m); err != nil {
					return err
				}
				if !m.Delivery.Done() {
					out = append(out, m)
				}
				return nil
			})
		})
	})
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, err
}

// SetOutboxDelivery records d on message id of account and returns the message. The write is
// committed (fsynced) before it returns: the sender marks a message sending before it dials and
// sent after the server's answer, so a crash can repeat an attempt but never lose the mark of a
// finished one.
func (db *DB) SetOutboxDelivery(account, id string, d OutboxDelivery) (OutboxMessage, error) {
	var m OutboxMessage
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		var err error
		if m, err = outboxMessage(tx, account, id); err != nil {
			return err
		}
		b := tx.Bucket(bucketOutbox).Bucket([]byte(account))
		m.Delivery = &d
		raw, err := json.Marshal(m)
		if err != nil {
			return fmt.Errorf("store: encode outbox message: %w", err)
		}
		if err := b.Put([]byte(id), raw); err != nil {
			return err
		}
		if d.Status == OutboxSent {
			return tx.Bucket(bucketOutboxContent).Delete(outboxContentKey(account, id))
		}
		return nil
	})
	return m, err
}
