package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	bolt "go.etcd.io/bbolt"
)

// Schedules: recurring runs of a saved script (or of an agent posted with a `schedule` node).
// Layout:
//
//	schedules  schedule id -> Schedule (JSON): the definition, the last slot claimed and the
//	           last MaxScheduleFires fires
//
// The record carries its own history so that claiming a slot is one read-modify-write of one
// key in one transaction: the slot cursor and the fire that advanced it are written together or
// not at all. That is what makes a slot fire at most once, across restarts and processes.
var bucketSchedules = []byte("schedules")

func init() { featureBuckets = append(featureBuckets, bucketSchedules) }

// MaxScheduleFires is how many fires a schedule keeps (newest first).
const MaxScheduleFires = 20

// Fire statuses.
const (
	// FireClaimed: the slot is claimed and its runs are being started. A fire still claimed
	// when the server starts was interrupted between the claim and its runs (FireInterrupted).
	FireClaimed = "claimed"
	// FireStarted: the fire's runs were admitted (their own statuses are in the run records).
	FireStarted = "started"
	// FireSkipped: the slot passed without runs on purpose (overlap, a deleted script).
	FireSkipped = "skipped"
	// FireMissed: slots that passed while the scheduler could not fire them (the server was
	// down) and that were too old, or not allowed, to run late.
	FireMissed = "missed"
	// FireFailed: the runs could not be admitted (the queue was full, the script no longer
	// compiles).
	FireFailed = "failed"
	// FireInterrupted: the server stopped after the claim and before the runs were admitted.
	// The slot is not fired again.
	FireInterrupted = "interrupted"
)

// ErrSlotClaimed means the slot (or a later one) was already claimed: another process or an
// earlier life of this one fired it.
var ErrSlotClaimed = errors.New("schedule slot already claimed")

// ErrSchedulePaused means the schedule is paused; nothing is claimed.
var ErrSchedulePaused = errors.New("schedule is paused")

// ScheduleAgent is the agent a schedule made by POST /agents runs: its goal, nodes (the
// `schedule` node removed) and variables.
type ScheduleAgent struct {
	Goal       string          `json:"goal"`
	JSONOutput json.RawMessage `json:"json_output"`
	Vars       map[string]any  `json:"vars,omitempty"`
	// Profile is the named browser profile of the agent's runs ("" for none; profiles.go).
	Profile string `json:"profile,omitempty"`
}

// Schedule is a stored schedule. The store checks its identity and bookkeeping; the cron, the
// timezone and the limits are checked by the triggers package before they get here.
type Schedule struct {
	V       int    `json:"v"`
	ID      string `json:"id"`
	Account string `json:"account"`
	// Name is the saved script it runs; empty when Agent is set.
	Name  string         `json:"name,omitempty"`
	Agent *ScheduleAgent `json:"agent,omitempty"`
	// Cron is the five-field cron expression; Every a fixed interval ("15m") counted from
	// Anchor. Exactly one is set. Text is the plain English it was made from, if any.
	Cron      string          `json:"cron,omitempty"`
	Every     string          `json:"every,omitempty"`
	Anchor    time.Time       `json:"anchor"`
	Text      string          `json:"text,omitempty"`
	Timezone  string          `json:"timezone"`
	Data      json.RawMessage `json:"data,omitempty"`
	Instances int             `json:"instances"`
	Overlap   string          `json:"overlap"`
	Missed    string          `json:"missed"`
	Enabled   bool            `json:"enabled"`
	Created   time.Time       `json:"created"`
	Updated   time.Time       `json:"updated"`
	// LastSlot is the latest slot claimed, skipped or recorded missed: no slot at or before it
	// fires again.
	LastSlot *time.Time     `json:"last_slot,omitempty"`
	Fires    []ScheduleFire `json:"fires"`
}

// ScheduleFire is what happened at one slot (or, for FireMissed, a run of consecutive slots).
type ScheduleFire struct {
	Slot   time.Time `json:"slot"`
	At     time.Time `json:"at"`
	Status string    `json:"status"`
	Reason string    `json:"reason,omitempty"`
	Runs   []string  `json:"runs,omitempty"`
	// Count and Until describe a FireMissed record covering several slots: Slot is the first,
	// Until the last.
	Count int        `json:"count,omitempty"`
	Until *time.Time `json:"until,omitempty"`
}

// CreateSchedule stores a new schedule with a fresh id ("s_…") and returns it.
func (db *DB) CreateSchedule(s Schedule) (Schedule, error) {
	if s.Account == "" {
		return Schedule{}, errors.New("store: a schedule needs an account")
	}
	if (s.Name == "") == (s.Agent == nil) {
		return Schedule{}, errors.New("store: a schedule runs either a saved script or an agent")
	}
	now := db.timestamp()
	s.V, s.ID, s.Created, s.Updated = recordVersion, NewID("s"), now, now
	if s.Fires == nil {
		s.Fires = []ScheduleFire{}
	}
	err := db.bolt.Update(func(tx *bolt.Tx) error { return putSchedule(tx, &s) })
	if err != nil {
		return Schedule{}, err
	}
	return s, nil
}

func putSchedule(tx *bolt.Tx, s *Schedule) error {
	data, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("store: encode schedule %s: %w", s.ID, err)
	}
	if err := tx.Bucket(bucketSchedules).Put([]byte(s.ID), data); err != nil {
		return fmt.Errorf("store: put schedule %s: %w", s.ID, err)
	}
	return nil
}

func getSchedule(tx *bolt.Tx, id string) (Schedule, error) {
	data := tx.Bucket(bucketSchedules).Get([]byte(id))
	if data == nil {
		return Schedule{}, notFound("schedule", id)
	}
	var s Schedule
	err := decodeRecord("schedule", []byte(id), data, &s)
	return s, err
}

// GetSchedule returns the account's schedule id. Another account's is ErrNotFound.
func (db *DB) GetSchedule(account, id string) (Schedule, error) {
	var s Schedule
	err := db.bolt.View(func(tx *bolt.Tx) error {
		var err error
		s, err = getSchedule(tx, id)
		if err == nil && s.Account != account {
			return notFound("schedule", id)
		}
		return err
	})
	return s, err
}

// ListSchedules returns the account's schedules, oldest first; account "" lists every
// account's (the scheduler's view).
func (db *DB) ListSchedules(account string) ([]Schedule, error) {
	list := []Schedule{}
	err := db.bolt.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketSchedules).ForEach(func(k, v []byte) error {
			var s Schedule
			if err := decodeRecord("schedule", k, v, &s); err != nil {
				return err
			}
			if account == "" || s.Account == account {
				list = append(list, s)
			}
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	return list, nil
}

// UpdateSchedule applies change to the account's schedule id in one transaction and stores the
// result; an error from change stores nothing. change may not alter the id or the account.
func (db *DB) UpdateSchedule(account, id string, change func(*Schedule) error) (Schedule, error) {
	var s Schedule
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		var err error
		if s, err = getSchedule(tx, id); err != nil {
			return err
		}
		if account != "" && s.Account != account {
			return notFound("schedule", id)
		}
		if err := change(&s); err != nil {
			return err
		}
		s.ID, s.V, s.Updated = id, recordVersion, db.timestamp()
		return putSchedule(tx, &s)
	})
	if err != nil {
		return Schedule{}, err
	}
	return s, nil
}

// DeleteSchedule removes the account's schedule id. A deleted schedule claims nothing more.
func (db *DB) DeleteSchedule(account, id string) error {
	return db.bolt.Update(func(tx *bolt.Tx) error {
		s, err := getSchedule(tx, id)
		if err != nil {
			return err
		}
		if s.Account != account {
			return notFound("schedule", id)
		}
		return tx.Bucket(bucketSchedules).Delete([]byte(id))
	})
}

// ClaimSlot records fire for slot and advances the schedule's cursor to slot, in one
// transaction, before any run of the slot starts. It refuses (and changes nothing) when the
// schedule is gone (ErrNotFound), paused (ErrSchedulePaused) or the slot is not after its last
// one (ErrSlotClaimed). A fire of a saved script that no longer exists is recorded as skipped
// instead: check the returned fire's status before starting runs.
func (db *DB) ClaimSlot(id string, slot time.Time, fire ScheduleFire) (Schedule, ScheduleFire, error) {
	var s Schedule
	slot = slot.UTC()
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		var err error
		if s, err = getSchedule(tx, id); err != nil {
			return err
		}
		if !s.Enabled {
			return ErrSchedulePaused
		}
		if s.LastSlot != nil && !slot.After(*s.LastSlot) {
			return fmt.Errorf("schedule %s slot %s (last %s): %w", id, slot.Format(time.RFC3339), s.LastSlot.Format(time.RFC3339), ErrSlotClaimed)
		}
		fire.Slot = fire.Slot.UTC()
		if fire.Slot.IsZero() {
			fire.Slot = slot
		}
		if fire.At.IsZero() {
			fire.At = db.timestamp()
		}
		if fire.Status == FireClaimed && s.Name != "" && tx.Bucket(bucketScripts).Get(scriptKey(s.Account, s.Name)) == nil {
			fire.Status, fire.Reason, fire.Runs = FireSkipped, fmt.Sprintf("the script %s was deleted", s.Name), nil
		}
		s.LastSlot = &slot
		s.Fires = append([]ScheduleFire{fire}, s.Fires...)
		if len(s.Fires) > MaxScheduleFires {
			s.Fires = s.Fires[:MaxScheduleFires]
		}
		return putSchedule(tx, &s)
	})
	if err != nil {
		return Schedule{}, ScheduleFire{}, err
	}
	return s, fire, nil
}

// UpdateFire changes the recorded fire of slot (its status, reason and runs once they are
// known). A schedule deleted meanwhile, or a fire already pushed out of the history, is fine.
func (db *DB) UpdateFire(id string, slot time.Time, change func(*ScheduleFire)) error {
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		s, err := getSchedule(tx, id)
		if err != nil {
			return err
		}
		for i := range s.Fires {
			if s.Fires[i].Slot.Equal(slot) && s.Fires[i].Count == 0 {
				change(&s.Fires[i])
				return putSchedule(tx, &s)
			}
		}
		return nil
	})
	if errs.Is(err, errs.NotFound) {
		return nil
	}
	return err
}

// SchedulesOfScript lists the account's schedules that run the saved script name.
func (db *DB) SchedulesOfScript(account, name string) ([]Schedule, error) {
	all, err := db.ListSchedules(account)
	if err != nil {
		return nil, err
	}
	out := []Schedule{}
	for _, s := range all {
		if s.Name == name {
			out = append(out, s)
		}
	}
	return out, nil
}
