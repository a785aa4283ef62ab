// Package triggers starts saved scripts on their own: on a schedule (cron, an interval, plain
// English), and on inbound events. Each run records what started it (scripts.TriggerRef).
//
// A schedule fires at most once per slot. The slot is claimed in the store, in the same bbolt
// transaction that records the fire, before any of its runs starts; a restart, a crash or
// another process can therefore never fire it again (and the data directory's lock keeps a
// second server off the store in the first place).
package triggers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/store"
)

// ScheduleClock is the scheduler's time: the real one in the server, a hand-moved one in tests.
type ScheduleClock interface {
	Now() time.Time
	After(d time.Duration) <-chan time.Time
}

type realClock struct{}

func (realClock) Now() time.Time                         { return time.Now() }
func (realClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// SchedulerConfig wires the scheduler.
type SchedulerConfig struct {
	Store    *store.DB
	Engine   *scripts.Engine
	Registry *scripts.Registry
	Logger   *slog.Logger
	// Clock defaults to the real one.
	Clock ScheduleClock
	// Grace is how late a slot missed while the server was down may still run (once).
	// Default DefaultScheduleGrace.
	Grace time.Duration
	// MinEvery is the shortest `every` accepted. Default DefaultScheduleMinEvery; tests go lower.
	MinEvery time.Duration
	// Timezone is the IANA zone of schedules that name none. Default UTC.
	Timezone string
	// Claims, when set, claims each slot outside the store too (a JetStream KV bucket, package
	// cluster) before it fires, so schedulers on several servers fire it once. Default: the
	// store's claim alone.
	Claims SlotClaimer
}

// SlotClaimer claims a schedule's slot across processes: false means it was claimed already.
type SlotClaimer interface {
	ClaimSlot(ctx context.Context, scheduleID string, slot time.Time) (bool, error)
}

// onTime is how late the scheduler may reach a slot and still count it on time: a slot reached
// later than this (the server was down, suspended or starved) is a missed slot, which runs
// only within the grace and only with missed "once".
const onTime = 10 * time.Second

// maxSleep bounds the scheduler's sleep, so a wall clock that jumps (NTP, a suspended machine)
// is noticed within it.
const maxSleep = 30 * time.Second

// maxCountedSlots bounds the slots counted as missed after a long stop (every minute for 10
// weeks); beyond, the scheduler jumps to the last day before now.
const maxCountedSlots = 100_000

// Scheduler fires the stored schedules.
type Scheduler struct {
	cfg   SchedulerConfig
	log   *slog.Logger
	clock ScheduleClock
	wake  chan struct{}
	// mu serializes Check, so the loop and a test (or two wakes) never evaluate at once.
	mu sync.Mutex
}

// NewScheduler returns a scheduler; Run starts it.
func NewScheduler(cfg SchedulerConfig) *Scheduler {
	if cfg.Clock == nil {
		cfg.Clock = realClock{}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Registry == nil {
		cfg.Registry = scripts.DefaultRegistry
	}
	if cfg.Grace <= 0 {
		cfg.Grace = DefaultScheduleGrace
	}
	if cfg.MinEvery <= 0 {
		cfg.MinEvery = DefaultScheduleMinEvery
	}
	if _, err := loadZone(cfg.Timezone); err != nil {
		cfg.Timezone = "UTC"
	}
	return &Scheduler{cfg: cfg, log: cfg.Logger, clock: cfg.Clock, wake: make(chan struct{}, 1)}
}

// Changed wakes the scheduler after a schedule was created, changed or removed.
func (sc *Scheduler) Changed() {
	select {
	case sc.wake <- struct{}{}:
	default:
	}
}

// Run fires schedules until ctx ends. It first marks fires that a stop interrupted between
// their claim and their runs.
func (sc *Scheduler) Run(ctx context.Context) {
	if err := sc.recoverClaimed(); err != nil {
		sc.log.Error("schedules: recover interrupted fires", "err", err)
	}
	for {
		next := sc.Check(ctx)
		wait := maxSleep
		if !next.IsZero() {
			wait = min(max(next.Sub(sc.clock.Now()), 0), maxSleep)
		}
		select {
		case <-sc.clock.After(wait):
		case <-sc.wake:
		case <-ctx.Done():
			return
		}
	}
}

// recoverClaimed marks fires still "claimed" (the server stopped between a claim and its runs)
// as interrupted. Their slots stay claimed: they are not fired again.
func (sc *Scheduler) recoverClaimed() error {
	list, err := sc.cfg.Store.ListSchedules("")
	if err != nil {
		return err
	}
	for _, s := range list {
		for _, f := range s.Fires {
			if f.Status != store.FireClaimed {
				continue
			}
			err := sc.cfg.Store.UpdateFire(s.ID, f.Slot, func(f *store.ScheduleFire) {
				f.Status, f.Reason = store.FireInterrupted, "the server stopped after claiming the slot and before its runs started; the slot is not fired again"
			})
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// Check fires every due slot of every enabled schedule and returns the earliest next slot
// (zero when there is none).
func (sc *Scheduler) Check(ctx context.Context) time.Time {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	list, err := sc.cfg.Store.ListSchedules("")
	if err != nil {
		sc.log.Error("schedules: list", "err", err)
		return sc.clock.Now().Add(maxSleep)
	}
	var earliest time.Time
	for _, s := range list {
		if ctx.Err() != nil {
			break
		}
		if !s.Enabled {
			continue
		}
		next, err := sc.checkOne(s)
		if err != nil {
			sc.log.Error("schedules: check", "schedule", s.ID, "err", err)
			continue
		}
		if !next.IsZero() && (earliest.IsZero() || next.Before(earliest)) {
			earliest = next
		}
	}
	return earliest
}

// cursor is the instant after which a schedule's slots are still to come.
func cursor(s store.Schedule) time.Time {
	if s.LastSlot != nil {
		return *s.LastSlot
	}
	return s.Anchor
}

// checkOne handles one schedule's due slots: only the latest can run; older ones are
// recorded as missed. It returns the schedule's next slot.
func (sc *Scheduler) checkOne(s store.Schedule) (time.Time, error) {
	ts, err := sc.times(s)
	if err != nil {
		return time.Time{}, err
	}
	now := sc.clock.Now()
	first := ts.Next(cursor(s))
	if first.IsZero() || first.After(now) {
		return first, nil
	}
	latest, before, n := first, time.Time{}, 1
	for {
		nx := ts.Next(latest)
		if nx.IsZero() || nx.After(now) {
			break
		}
		before, latest = latest, nx
		if n++; n > maxCountedSlots {
			// Count no further: resume a day before now.
			nx = ts.Next(now.Add(-24 * time.Hour))
			if nx.After(latest) && !nx.After(now) {
				before, latest = latest, nx
			}
		}
	}
	late := now.Sub(latest)
	run := late <= onTime || s.Missed == MissedOnce && late <= sc.cfg.Grace
	missedN, lastMissed := n-1, before
	if !run {
		missedN, lastMissed = n, latest
	}
	if missedN > 0 {
		reason := fmt.Sprintf("the server was not running at these slots, and they are older than the %s grace", sc.cfg.Grace)
		if s.Missed == MissedSkip {
			reason = "the server was not running at these slots (missed: skip)"
		}
		if run {
			reason = "the server was not running at these slots; only the latest, within the grace, runs late"
		}
		f := store.ScheduleFire{Slot: first, At: now.UTC(), Status: store.FireMissed, Reason: reason, Count: missedN}
		if missedN > 1 {
			u := lastMissed.UTC()
			f.Until = &u
		}
		if _, _, err := sc.cfg.Store.ClaimSlot(s.ID, lastMissed, f); err != nil {
			return time.Time{}, sc.ignoreClaimRace(err)
		}
	}
	if run {
		if err := sc.fire(s, latest, late); err != nil {
			return time.Time{}, err
		}
	}
	return ts.Next(latest), nil
}

// ignoreClaimRace treats a schedule deleted, paused or fired meanwhile as nothing to do. A
// slot claimed by someone else should not happen in one process, so it is said out loud.
func (sc *Scheduler) ignoreClaimRace(err error) error {
	if errors.Is(err, store.ErrSlotClaimed) {
		sc.log.Warn("schedules: slot already claimed, not fired again", "err", err)
		return nil
	}
	if errors.Is(err, store.ErrSchedulePaused) || errs.Is(err, errs.NotFound) {
		return nil
	}
	return err
}

// fire claims slot and starts the schedule's runs (one per instance), unless the previous
// fire still runs and overlap is "skip".
func (sc *Scheduler) fire(s store.Schedule, slot time.Time, late time.Duration) error {
	now := sc.clock.Now().UTC()
	if s.Overlap != OverlapAllow {
		if busy := sc.stillRunning(s); busy != "" {
			f := store.ScheduleFire{At: now, Status: store.FireSkipped, Reason: "the previous fire's run " + busy + " is still running (overlap: skip)"}
			_, _, err := sc.cfg.Store.ClaimSlot(s.ID, slot, f)
			return sc.ignoreClaimRace(err)
		}
	}
	if taken, err := sc.claimedElsewhere(s, slot, now); taken || err != nil {
		return err
	}
	compiled, ref, compileErr := sc.compileInstances(s, slot)
	f := store.ScheduleFire{At: now, Status: store.FireClaimed}
	if late > onTime {
		f.Reason = fmt.Sprintf("ran %s late: the slot passed while the server was not running", late.Round(time.Second))
	}
	switch {
	case compileErr != nil && !errs.Is(compileErr, errs.NotFound):
		f.Status, f.Reason = store.FireFailed, "the script does not compile: "+publicMessage(compileErr)
	default:
		for range compiled {
			f.Runs = append(f.Runs, store.NewID("r"))
		}
	}
	// A deleted script (NotFound) is claimed too: the claim records it skipped.
	_, f, err := sc.cfg.Store.ClaimSlot(s.ID, slot, f)
	if err != nil || f.Status != store.FireClaimed {
		return sc.ignoreClaimRace(err)
	}
	if compileErr != nil { // the script was deleted after the claim's check: nothing to run
		return sc.cfg.Store.UpdateFire(s.ID, f.Slot, func(f *store.ScheduleFire) {
			f.Status, f.Reason, f.Runs = store.FireSkipped, publicMessage(compileErr), nil
		})
	}
	return sc.startRuns(s, slot, f, compiled, ref)
}

// claimedElsewhere claims slot with cfg.Claims; when another scheduler had it, the fire is
// recorded skipped and it reports true. An error (NATS unreachable) fires nothing: the slot is
// tried again at the next check, and counts missed past its time.
func (sc *Scheduler) claimedElsewhere(s store.Schedule, slot, now time.Time) (bool, error) {
	if sc.cfg.Claims == nil {
		return false, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ok, err := sc.cfg.Claims.ClaimSlot(ctx, s.ID, slot)
	if err != nil {
		return true, err
	}
	if ok {
		return false, nil
	}
	f := store.ScheduleFire{At: now, Status: store.FireSkipped, Reason: "another scheduler (or this one before a restart) already fired this slot"}
	_, _, err = sc.cfg.Store.ClaimSlot(s.ID, slot, f)
	return true, sc.ignoreClaimRace(err)
}

// compileInstances compiles the schedule's script once per instance (each has its own
// `schedule` variable); on an error it stops and returns it.
func (sc *Scheduler) compileInstances(s store.Schedule, slot time.Time) ([]*scripts.Script, *scripts.ScriptRef, error) {
	instances := max(s.Instances, 1)
	compiled := make([]*scripts.Script, 0, instances)
	var ref *scripts.ScriptRef
	for i := range instances {
		script, r, err := sc.compile(s, slot, i+1, instances)
		if err != nil {
			return nil, nil, err
		}
		compiled, ref = append(compiled, script), r
	}
	return compiled, ref, nil
}

// startRuns admits the claimed fire's runs, with the run ids the claim recorded, and records
// which were admitted.
func (sc *Scheduler) startRuns(s store.Schedule, slot time.Time, f store.ScheduleFire, compiled []*scripts.Script, ref *scripts.ScriptRef) error {
	slotUTC := slot.UTC()
	var started []string
	var failure error
	for i, script := range compiled {
		_, err := sc.cfg.Engine.Enqueue(script, scripts.StartOptions{Account: s.Account, Source: "schedule", Script: ref,
			Trigger: &scripts.TriggerRef{ID: s.ID, Slot: &slotUTC}, RunID: f.Runs[i]})
		if err != nil {
			failure = err
			continue
		}
		started = append(started, f.Runs[i])
	}
	return sc.cfg.Store.UpdateFire(s.ID, f.Slot, func(f *store.ScheduleFire) {
		f.Status, f.Runs = store.FireStarted, started
		if failure != nil {
			f.Reason = strings.TrimSpace(fmt.Sprintf("%s %d of %d runs were not admitted: %s", f.Reason, len(compiled)-len(started), len(compiled), publicMessage(failure)))
			if len(started) == 0 {
				f.Status = store.FireFailed
			}
		}
	})
}

// stillRunning returns the id of a run of the schedule's last started fire that has not
// finished ("" when none).
func (sc *Scheduler) stillRunning(s store.Schedule) string {
	for _, f := range s.Fires {
		if f.Status != store.FireStarted && f.Status != store.FireClaimed {
			continue
		}
		for _, id := range f.Runs {
			if d, err := sc.cfg.Engine.Get(s.Account, id); err == nil && !scripts.Final(d.Status) {
				return id
			}
		}
		return ""
	}
	return ""
}

// compile builds one instance's script: the saved script's latest version (or the schedule's
// own agent) with the variables data (the schedule's data, as a webhook's) and schedule (id,
// slot, instance, instances).
func (sc *Scheduler) compile(s store.Schedule, slot time.Time, instance, instances int) (*scripts.Script, *scripts.ScriptRef, error) {
	vars := map[string]any{}
	goal, nodes := "", []json.RawMessage(nil)
	var ref *scripts.ScriptRef
	profile := "" // a saved script's browser profile
	if s.Agent != nil {
		for k, v := range s.Agent.Vars {
			vars[k] = v
		}
		goal, profile = s.Agent.Goal, s.Agent.Profile
		if err := json.Unmarshal(s.Agent.JSONOutput, &nodes); err != nil {
			return nil, nil, errs.E(errs.Internal, "schedule %s: its agent: %v", s.ID, err)
		}
	} else {
		v, err := sc.cfg.Store.GetScript(s.Account, s.Name, 0)
		if err != nil {
			return nil, nil, err
		}
		if err := json.Unmarshal(v.JSONOutput, &nodes); err != nil {
			return nil, nil, errs.E(errs.Internal, "saved script %s: %v", s.Name, err)
		}
		goal, ref, profile = v.Goal, &scripts.ScriptRef{Name: v.Name, Version: v.Version}, v.Profile
	}
	if s.Agent == nil || len(s.Data) > 0 {
		vars["data"] = scheduleData(s.Data)
	}
	vars["schedule"] = map[string]any{"id": s.ID, "slot": slot.UTC().Format(time.RFC3339), "instance": instance, "instances": instances}
	script, err := sc.cfg.Registry.Compile(goal, WithoutScheduleNodes(nodes), vars)
	if err == nil {
		script.Profile = profile
	}
	return script, ref, err
}

// scheduleData is the run variable `data`, as webhooks make it: a string as it is, another JSON
// value as its JSON text, "" when absent. It is only ever a value.
func scheduleData(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// WithoutScheduleNodes drops top-level `schedule` nodes: they say when the agent runs, and are
// not a step of it.
func WithoutScheduleNodes(nodes []json.RawMessage) []json.RawMessage {
	out := make([]json.RawMessage, 0, len(nodes))
	for _, raw := range nodes {
		var n struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(raw, &n) == nil && strings.EqualFold(strings.TrimSpace(n.Type), "schedule") {
			continue
		}
		out = append(out, raw)
	}
	return out
}

// publicMessage is err's message as a user may see it.
func publicMessage(err error) string {
	_, msg := errs.Public(err)
	return msg
}
