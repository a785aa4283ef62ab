package cluster

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// DefaultSlotTTL is how long a claimed slot is remembered: longer than any gap between a
// schedule's slots that a restarted or standby scheduler could still fire late (the missed-slot
// grace), so a slot is never claimed twice.
const DefaultSlotTTL = 7 * 24 * time.Hour

// SlotClaims claims schedule slots in a JetStream KV bucket with Create, which succeeds for one
// caller only: a scheduler restarted inside a slot, or a standby server holding the same
// schedules, finds the slot taken and does not fire it again.
type SlotClaims struct {
	kv    jetstream.KeyValue
	owner string
}

// NewSlotClaims opens (or creates) the slots bucket; owner is written as the claim's value.
func NewSlotClaims(ctx context.Context, nc *nats.Conn, owner string, ttl time.Duration) (*SlotClaims, error) {
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	if ttl <= 0 {
		ttl = DefaultSlotTTL
	}
	kv, err := js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: SlotBucket, TTL: ttl, History: 1,
		Description: "rodeo: schedule slots already fired"})
	if err != nil {
		return nil, fmt.Errorf("nats: the schedule slots bucket: %w", err)
	}
	return &SlotClaims{kv: kv, owner: owner}, nil
}

// ClaimSlot claims the schedule's slot; false means another scheduler (or this one before a
// restart) claimed it already.
func (c *SlotClaims) ClaimSlot(ctx context.Context, scheduleID string, slot time.Time) (bool, error) {
	_, err := c.kv.Create(ctx, SlotKey(scheduleID, slot), []byte(c.owner))
	if errors.Is(err, jetstream.ErrKeyExists) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("nats: claim slot: %w", err)
	}
	return true, nil
}

// SlotKey is the KV key of a schedule's slot: schedule id and the slot in UTC seconds.
func SlotKey(scheduleID string, slot time.Time) string {
	return scheduleID + "." + slot.UTC().Format("20060102T150405Z")
}
