package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/errs"
)

func newSchedule(t *testing.T, db *DB, account string) Schedule {
	t.Helper()
	if _, err := db.SaveScript(account, "job", "job", json.RawMessage(`[{"type":"print","text":"x"}]`)); err != nil {
		t.Fatal(err)
	}
	s, err := db.CreateSchedule(Schedule{Account: account, Name: "job", Cron: "* * * * *", Timezone: "UTC", Instances: 1, Enabled: true})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestClaimSlot(t *testing.T) {
	dir := t.TempDir()
	db, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	s := newSchedule(t, db, DefaultAccount)
	slot := time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)
	_, f, err := db.ClaimSlot(s.ID, slot, ScheduleFire{Status: FireClaimed, Runs: []string{"r_1"}})
	if err != nil || f.Status != FireClaimed || !f.Slot.Equal(slot) {
		t.Fatalf("claim: %+v %v", f, err)
	}
	// The same slot, or an earlier one, again: refused, saying why, and nothing recorded.
	for _, again := range []time.Time{slot, slot.Add(-time.Minute)} {
		_, _, err := db.ClaimSlot(s.ID, again, ScheduleFire{Status: FireClaimed})
		if !errors.Is(err, ErrSlotClaimed) || !strings.Contains(err.Error(), "already claimed") {
			t.Errorf("second claim of %s: %v", again, err)
		}
	}
	// The claim is durable: after a reopen the slot is still taken.
	_ = db.Close()
	if db, err = Open(dir); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, _, err := db.ClaimSlot(s.ID, slot, ScheduleFire{Status: FireClaimed}); !errors.Is(err, ErrSlotClaimed) {
		t.Errorf("claim after reopen: %v", err)
	}
	if err := db.UpdateFire(s.ID, slot, func(f *ScheduleFire) { f.Status = FireStarted }); err != nil {
		t.Fatal(err)
	}
	got, _ := db.GetSchedule(DefaultAccount, s.ID)
	if len(got.Fires) != 1 || got.Fires[0].Status != FireStarted || got.Fires[0].Runs[0] != "r_1" || !got.LastSlot.Equal(slot) {
		t.Errorf("stored: %+v", got)
	}

	// Paused: nothing claimed. Script deleted: recorded skipped. Deleted: not found.
	if _, err := db.UpdateSchedule(DefaultAccount, s.ID, func(s *Schedule) error { s.Enabled = false; return nil }); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.ClaimSlot(s.ID, slot.Add(time.Minute), ScheduleFire{Status: FireClaimed}); !errors.Is(err, ErrSchedulePaused) {
		t.Errorf("claim while paused: %v", err)
	}
	_, _ = db.UpdateSchedule(DefaultAccount, s.ID, func(s *Schedule) error { s.Enabled = true; return nil })
	_ = db.DeleteScript(DefaultAccount, "job")
	_, f, err = db.ClaimSlot(s.ID, slot.Add(time.Minute), ScheduleFire{Status: FireClaimed, Runs: []string{"r_2"}})
	if err != nil || f.Status != FireSkipped || len(f.Runs) != 0 || !strings.Contains(f.Reason, "job was deleted") {
		t.Errorf("claim of a deleted script's schedule: %+v %v", f, err)
	}
	if err := db.DeleteSchedule("other", s.ID); !errs.Is(err, errs.NotFound) {
		t.Errorf("another account deleted it: %v", err)
	}
	if err := db.DeleteSchedule(DefaultAccount, s.ID); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.ClaimSlot(s.ID, slot.Add(2*time.Minute), ScheduleFire{Status: FireClaimed}); !errs.Is(err, errs.NotFound) {
		t.Errorf("claim of a deleted schedule: %v", err)
	}
}

func TestScheduleFiresAreCapped(t *testing.T) {
	db, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s := newSchedule(t, db, DefaultAccount)
	slot := time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)
	for i := range MaxScheduleFires + 5 {
		if _, _, err := db.ClaimSlot(s.ID, slot.Add(time.Duration(i)*time.Minute), ScheduleFire{Status: FireClaimed, Reason: fmt.Sprint(i)}); err != nil {
			t.Fatal(err)
		}
	}
	got, _ := db.GetSchedule(DefaultAccount, s.ID)
	if len(got.Fires) != MaxScheduleFires || got.Fires[0].Reason != fmt.Sprint(MaxScheduleFires+4) {
		t.Errorf("%d fires, newest %q", len(got.Fires), got.Fires[0].Reason)
	}
	if _, err := db.GetSchedule("other", s.ID); !errs.Is(err, errs.NotFound) {
		t.Errorf("another account read it: %v", err)
	}
	if l, _ := db.ListSchedules("other"); len(l) != 0 {
		t.Errorf("another account lists %d", len(l))
	}
}
