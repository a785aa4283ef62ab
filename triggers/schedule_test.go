package triggers

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/scripts"
	_ "github.com/rodeo-run/rodeo/scripts/nodes"
	"github.com/rodeo-run/rodeo/store"
)

// fakeClock is a clock the test moves by hand.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Set(t time.Time) {
	c.mu.Lock()
	c.now = t
	c.mu.Unlock()
}

// After never fires on its own: the tests call Check after moving the clock.
func (c *fakeClock) After(time.Duration) <-chan time.Time { return make(chan time.Time) }

// schedEnv is a scheduler over a real store and engine (runs of non-browser nodes really run).
type schedEnv struct {
	t      *testing.T
	dir    string
	db     *store.DB
	engine *scripts.Engine
	clock  *fakeClock
	sc     *Scheduler
}

const acct = store.DefaultAccount

func newSchedEnv(t *testing.T, start time.Time) *schedEnv {
	t.Helper()
	e := &schedEnv{t: t, dir: t.TempDir(), clock: &fakeClock{now: start}}
	e.open()
	return e
}

// open (re)opens the store and builds a fresh engine and scheduler on it, as a restart does.
func (e *schedEnv) open() {
	e.t.Helper()
	db, err := store.Open(e.dir)
	if err != nil {
		e.t.Fatal(err)
	}
	e.db = db
	e.engine = scripts.NewEngine(&scripts.Runner{Registry: scripts.DefaultRegistry}, db, nil)
	e.sc = NewScheduler(SchedulerConfig{Store: db, Engine: e.engine, Clock: e.clock, MinEvery: time.Second})
	if err := e.sc.recoverClaimed(); err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(e.close)
}

// close stops the engine (waiting for its runs) and closes the store. Calling it twice is fine.
func (e *schedEnv) close() {
	if e.db == nil {
		return
	}
	_ = e.engine.Shutdown(context.Background())
	_ = e.db.Close()
	e.db = nil
}

func (e *schedEnv) reopen() {
	e.close()
	e.open()
}

func (e *schedEnv) saveScript(name string, nodes ...map[string]any) {
	e.t.Helper()
	raw, _ := json.Marshal(nodes)
	if _, err := e.db.SaveScript(acct, name, "scheduled "+name, raw); err != nil {
		e.t.Fatal(err)
	}
}

func str(s string) *string { return &s }

func (e *schedEnv) create(in ScheduleInput) ScheduleView {
	e.t.Helper()
	v, err := e.sc.Create(acct, in)
	if err != nil {
		e.t.Fatalf("create: %v", err)
	}
	return v
}

// checkAt moves the clock to t, lets the scheduler fire what is due and waits for the runs to
// end (on the fake clock, slots come faster than runs finish).
func (e *schedEnv) checkAt(t time.Time) time.Time {
	next := e.checkOnly(t)
	for deadline := time.Now().Add(10 * time.Second); e.engine.Running() > 0 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	return next
}

// checkOnly is checkAt without waiting for the runs.
func (e *schedEnv) checkOnly(t time.Time) time.Time {
	e.clock.Set(t)
	return e.sc.Check(context.Background())
}

func (e *schedEnv) fires(id string) []store.ScheduleFire {
	e.t.Helper()
	s, err := e.db.GetSchedule(acct, id)
	if err != nil {
		e.t.Fatal(err)
	}
	return s.Fires
}

// runsOf lists the stored runs started by schedule id, oldest first, waiting for them to end.
func (e *schedEnv) runsOf(id string) []scripts.Doc {
	e.t.Helper()
	var out []scripts.Doc
	deadline := time.Now().Add(10 * time.Second)
	recs, err := e.db.ListRuns(acct, 200, "")
	if err != nil {
		e.t.Fatal(err)
	}
	for i := len(recs) - 1; i >= 0; i-- {
		d, err := e.engine.Get(acct, recs[i].ID)
		for err == nil && !scripts.Final(d.Status) && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
			d, err = e.engine.Get(acct, recs[i].ID)
		}
		if err != nil {
			e.t.Fatal(err)
		}
		if d.Trigger != nil && d.Trigger.ID == id {
			out = append(out, d)
		}
	}
	return out
}

var nineAM = time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)

func TestScheduleFiresOncePerSlot(t *testing.T) {
	e := newSchedEnv(t, nineAM.Add(-90*time.Second))
	e.saveScript("report", map[string]any{"type": "print", "text": "slot {{schedule.slot}} #{{schedule.instance}} data {{data}}"})
	v := e.create(ScheduleInput{Name: str("report"), Cron: str("* * * * *"), Timezone: str("UTC"), Data: json.RawMessage(`"hello"`)})
	if len(v.Next) != 5 || !v.Next[0].Equal(nineAM.Add(-time.Minute)) || !v.Next[4].Equal(nineAM.Add(3*time.Minute)) {
		t.Fatalf("next = %v", v.Next)
	}
	// The loop's own rhythm: Check answers the next slot, the clock is moved just past it.
	next := e.checkAt(nineAM.Add(-90 * time.Second))
	for i := 0; i < 3; i++ {
		next = e.checkAt(next.Add(200 * time.Millisecond))
	}
	// Checking again at the same moment, and after a restart, fires nothing more.
	e.checkAt(e.clock.Now())
	e.reopen()
	e.checkAt(e.clock.Now())

	runs := e.runsOf(v.ID)
	if len(runs) != 3 {
		t.Fatalf("%d runs, want 3 (one per slot): %+v", len(runs), e.fires(v.ID))
	}
	for i, d := range runs {
		slot := nineAM.Add(time.Duration(i-1) * time.Minute)
		if d.Status != "succeeded" || d.Source != "schedule" || d.Trigger.Slot == nil || !d.Trigger.Slot.Equal(slot) {
			t.Errorf("run %d: %s source %s trigger %+v, want the slot %s", i, d.Status, d.Source, d.Trigger, slot)
		}
		if d.Script == nil || d.Script.Name != "report" {
			t.Errorf("run %d names script %+v", i, d.Script)
		}
		if got := d.Steps[0].Detail["text"]; !strings.Contains(stringOf(got), "#1 data hello") || !strings.Contains(stringOf(got), slot.Format(time.RFC3339)) {
			t.Errorf("run %d printed %v", i, got)
		}
	}
	fires := e.fires(v.ID)
	if len(fires) != 3 || fires[0].Status != store.FireStarted || fires[0].At.Sub(fires[0].Slot) > time.Second {
		t.Errorf("fires: %+v", fires)
	}
}

func stringOf(v any) string {
	s, _ := v.(string)
	return s
}

func TestScheduleMissedSlots(t *testing.T) {
	cases := []struct {
		name    string
		missed  string
		downFor time.Duration // after 09:00, the scheduler's next check (slots every 15 minutes)
		runs    int
		missedN int
	}{
		{"within the grace runs the latest once", MissedOnce, 34*time.Minute + 30*time.Second, 1, 2},
		{"beyond the grace runs nothing", MissedOnce, 44 * time.Minute, 0, 3},
		{"missed skip runs nothing late", MissedSkip, 34*time.Minute + 30*time.Second, 0, 3},
		{"on time is not missed", MissedSkip, 30*time.Minute + 2*time.Second, 1, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newSchedEnv(t, nineAM.Add(-30*time.Second))
			e.saveScript("job", map[string]any{"type": "print", "text": "x"})
			v := e.create(ScheduleInput{Name: str("job"), Cron: str("*/15 * * * *"), Timezone: str("UTC"), Missed: str(tc.missed)})
			// The server is down from before 09:00 until downFor after it.
			e.reopen()
			e.checkAt(nineAM.Add(tc.downFor))
			e.checkAt(nineAM.Add(tc.downFor)) // and a second look changes nothing
			runs := e.runsOf(v.ID)
			if len(runs) != tc.runs {
				t.Fatalf("%d runs, want %d: %+v", len(runs), tc.runs, e.fires(v.ID))
			}
			fires := e.fires(v.ID)
			var missed int
			for _, f := range fires {
				if f.Status == store.FireMissed {
					missed += f.Count
				}
			}
			if missed != tc.missedN {
				t.Errorf("%d slots recorded missed, want %d: %+v", missed, tc.missedN, fires)
			}
			if tc.runs == 1 {
				latest := nineAM.Add(tc.downFor).Truncate(15 * time.Minute)
				if !runs[0].Trigger.Slot.Equal(latest) {
					t.Errorf("ran slot %s, want the latest %s", runs[0].Trigger.Slot, latest)
				}
			}
		})
	}
}

func TestScheduleOverlap(t *testing.T) {
	for _, overlap := range []string{OverlapSkip, OverlapAllow} {
		t.Run(overlap, func(t *testing.T) {
			e := newSchedEnv(t, nineAM.Add(-time.Second))
			e.saveScript("slow", map[string]any{"type": "delay", "time": 1})
			v := e.create(ScheduleInput{Name: str("slow"), Every: str("2s"), Timezone: str("UTC"), Overlap: str(overlap)})
			first := e.checkOnly(e.clock.Now().Add(2100 * time.Millisecond))
			e.checkOnly(first.Add(100 * time.Millisecond)) // the first run's delay is still going
			fires := e.fires(v.ID)
			if len(fires) != 2 {
				t.Fatalf("fires: %+v", fires)
			}
			want := map[string]string{OverlapSkip: store.FireSkipped, OverlapAllow: store.FireStarted}[overlap]
			if fires[0].Status != want {
				t.Errorf("the overlapping fire is %s (%s), want %s", fires[0].Status, fires[0].Reason, want)
			}
			if overlap == OverlapSkip && !strings.Contains(fires[0].Reason, "still running") {
				t.Errorf("reason %q", fires[0].Reason)
			}
			if n := len(e.runsOf(v.ID)); n != map[string]int{OverlapSkip: 1, OverlapAllow: 2}[overlap] {
				t.Errorf("%d runs", n)
			}
		})
	}
}

func TestScheduleFiresNothing(t *testing.T) {
	cases := []struct {
		name   string
		stop   func(e *schedEnv, id string)
		status string // the recorded fire, "" for none
	}{
		{"paused", func(e *schedEnv, id string) {
			if _, err := e.sc.SetEnabled(acct, id, false); err != nil {
				e.t.Fatal(err)
			}
		}, ""},
		{"deleted", func(e *schedEnv, id string) {
			if err := e.sc.Delete(acct, id); err != nil {
				e.t.Fatal(err)
			}
		}, ""},
		{"script deleted", func(e *schedEnv, id string) {
			if err := e.db.DeleteScript(acct, "job"); err != nil {
				e.t.Fatal(err)
			}
		}, store.FireSkipped},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newSchedEnv(t, nineAM.Add(-30*time.Second))
			e.saveScript("job", map[string]any{"type": "print", "text": "x"})
			v := e.create(ScheduleInput{Name: str("job"), Cron: str("* * * * *"), Timezone: str("UTC")})
			tc.stop(e, v.ID)
			e.checkAt(nineAM.Add(time.Second))
			e.reopen() // and after a restart
			e.checkAt(nineAM.Add(time.Minute + time.Second))
			if runs := e.runsOf(v.ID); len(runs) != 0 {
				t.Fatalf("%d runs", len(runs))
			}
			s, err := e.db.GetSchedule(acct, v.ID)
			if tc.name == "deleted" {
				if err == nil {
					t.Fatal("the deleted schedule is back")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range s.Fires {
				if f.Status != tc.status || len(f.Runs) != 0 {
					t.Errorf("fire %+v, want status %q and no runs", f, tc.status)
				}
			}
			if tc.status != "" && (len(s.Fires) != 2 || !strings.Contains(s.Fires[0].Reason, "job was deleted")) {
				t.Errorf("fires %+v", s.Fires)
			}
		})
	}
}

func TestScheduleResumeDoesNotMakeUp(t *testing.T) {
	e := newSchedEnv(t, nineAM.Add(-30*time.Second))
	e.saveScript("job", map[string]any{"type": "print", "text": "x"})
	v := e.create(ScheduleInput{Name: str("job"), Cron: str("* * * * *"), Timezone: str("UTC")})
	if _, err := e.sc.SetEnabled(acct, v.ID, false); err != nil {
		t.Fatal(err)
	}
	e.clock.Set(nineAM.Add(3*time.Minute + 10*time.Second))
	r, err := e.sc.SetEnabled(acct, v.ID, true)
	if err != nil || !r.Enabled || !r.Next[0].Equal(nineAM.Add(4*time.Minute)) {
		t.Fatalf("resume: %+v %v", r, err)
	}
	e.checkAt(nineAM.Add(3*time.Minute + 20*time.Second))
	if n := len(e.runsOf(v.ID)); n != 0 {
		t.Errorf("%d runs made up for the pause", n)
	}
	e.checkAt(nineAM.Add(4*time.Minute + 100*time.Millisecond))
	if n := len(e.runsOf(v.ID)); n != 1 {
		t.Errorf("%d runs after the resume's first slot, want 1", n)
	}
}

func TestScheduleInstances(t *testing.T) {
	e := newSchedEnv(t, nineAM.Add(-30*time.Second))
	e.saveScript("fan", map[string]any{"type": "print", "text": "{{schedule.instance}}/{{schedule.instances}}"})
	n := 7
	v := e.create(ScheduleInput{Name: str("fan"), Cron: str("* * * * *"), Timezone: str("UTC"), Instances: &n})
	e.checkAt(nineAM.Add(100 * time.Millisecond))
	runs := e.runsOf(v.ID)
	if len(runs) != n {
		t.Fatalf("%d runs, want %d", len(runs), n)
	}
	seen := map[string]bool{}
	for _, d := range runs {
		seen[stringOf(d.Steps[0].Detail["text"])] = true
		if d.Status != "succeeded" || !d.Trigger.Slot.Equal(nineAM) {
			t.Errorf("run %s %s %+v", d.RunID, d.Status, d.Trigger)
		}
	}
	if len(seen) != n || !seen["1/7"] || !seen["7/7"] {
		t.Errorf("instances printed %v", seen)
	}
	if f := e.fires(v.ID); len(f) != 1 || len(f[0].Runs) != n {
		t.Errorf("fires %+v", f)
	}
	for _, bad := range []int{0, 51} {
		if _, err := e.sc.Create(acct, ScheduleInput{Name: str("fan"), Cron: str("* * * * *"), Instances: &bad}); err == nil {
			t.Errorf("instances %d accepted", bad)
		}
	}
}

// TestScheduleDST walks the scheduler through both daylight-saving nights of New York the way
// its loop does (to each next slot) and counts what fired.
func TestScheduleDST(t *testing.T) {
	ny := mustLoc(t, "America/New_York")
	cases := []struct {
		name, cron string
		from, to   string
		want       []string
	}{
		{"spring forward: the skipped 02:30 fires at 03:30", "30 2 * * *", "2026-03-07 12:00 -0500", "2026-03-09 12:00 -0400",
			[]string{"2026-03-08 03:30 -0400", "2026-03-09 02:30 -0400"}},
		{"fall back: the repeated 01:30 fires once", "30 1 * * *", "2026-10-31 12:00 -0400", "2026-11-02 12:00 -0500",
			[]string{"2026-11-01 01:30 -0400", "2026-11-02 01:30 -0500"}},
		{"fall back: every 30 minutes runs through both passes", "*/30 * * * *", "2026-11-01 00:50 -0400", "2026-11-01 02:10 -0500",
			[]string{"2026-11-01 01:00 -0400", "2026-11-01 01:30 -0400", "2026-11-01 01:00 -0500", "2026-11-01 01:30 -0500", "2026-11-01 02:00 -0500"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newSchedEnv(t, at(t, ny, tc.from))
			e.saveScript("job", map[string]any{"type": "print", "text": "x"})
			v := e.create(ScheduleInput{Name: str("job"), Cron: str(tc.cron), Timezone: str("America/New_York")})
			end := at(t, ny, tc.to)
			for next := e.checkAt(e.clock.Now()); !next.IsZero() && next.Before(end); {
				next = e.checkAt(next.Add(300 * time.Millisecond))
			}
			runs := e.runsOf(v.ID)
			if len(runs) != len(tc.want) {
				t.Fatalf("%d runs, want %d: %+v", len(runs), len(tc.want), e.fires(v.ID))
			}
			for i, w := range tc.want {
				if !runs[i].Trigger.Slot.Equal(at(t, ny, w)) {
					t.Errorf("run %d for slot %s, want %s", i, runs[i].Trigger.Slot.In(ny).Format("2006-01-02 15:04 -0700"), w)
				}
			}
		})
	}
}

// TestScheduleInterruptedClaim: a claim whose runs never started (the server died in between)
// is recorded as interrupted at the next start and is not fired again.
func TestScheduleInterruptedClaim(t *testing.T) {
	e := newSchedEnv(t, nineAM.Add(-30*time.Second))
	e.saveScript("job", map[string]any{"type": "print", "text": "x"})
	v := e.create(ScheduleInput{Name: str("job"), Cron: str("* * * * *"), Timezone: str("UTC")})
	if _, _, err := e.db.ClaimSlot(v.ID, nineAM, store.ScheduleFire{Status: store.FireClaimed, Runs: []string{store.NewID("r")}}); err != nil {
		t.Fatal(err)
	}
	e.reopen()
	e.checkAt(nineAM.Add(5 * time.Second))
	got, err := e.sc.Get(acct, v.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Fires) != 1 || got.Fires[0].Status != store.FireInterrupted || got.Fires[0].Runs[0].Status != "not_started" {
		t.Errorf("fires %+v", got.Fires)
	}
	if n := len(e.runsOf(v.ID)); n != 0 {
		t.Errorf("%d runs for an interrupted slot", n)
	}
}

// TestScheduleLoopOnTime runs the real loop on the real clock: every second, fires land within
// a second of their slot.
func TestScheduleLoopOnTime(t *testing.T) {
	dir := t.TempDir()
	db, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	engine := scripts.NewEngine(&scripts.Runner{Registry: scripts.DefaultRegistry}, db, nil)
	defer func() { _ = engine.Shutdown(context.Background()) }()
	raw, _ := json.Marshal([]map[string]any{{"type": "print", "text": "tick"}})
	if _, err := db.SaveScript(acct, "tick", "tick", raw); err != nil {
		t.Fatal(err)
	}
	sc := NewScheduler(SchedulerConfig{Store: db, Engine: engine, MinEvery: time.Second})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { sc.Run(ctx); close(done) }()
	v, err := sc.Create(acct, ScheduleInput{Name: str("tick"), Every: str("1s")})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(3500 * time.Millisecond)
	cancel()
	<-done
	s, _ := db.GetSchedule(acct, v.ID)
	if len(s.Fires) < 3 {
		t.Fatalf("%d fires in 3.5s of every 1s: %+v", len(s.Fires), s.Fires)
	}
	var late []string
	for _, f := range s.Fires {
		if f.Status != store.FireStarted || f.At.Sub(f.Slot) > time.Second || f.At.Before(f.Slot) {
			t.Errorf("fire %+v: %s after its slot", f, f.At.Sub(f.Slot))
		}
		late = append(late, f.At.Sub(f.Slot).String())
	}
	t.Logf("%d fires, each this long after its slot: %s", len(s.Fires), strings.Join(late, " "))
}

// TestScheduleTwoSchedulersOneStore: two schedulers (each with its own engine, as two servers
// would have) checking the same store at the same slot fire it once between them: the claim
// decides, whoever comes second finds the slot taken.
func TestScheduleTwoSchedulersOneStore(t *testing.T) {
	e := newSchedEnv(t, nineAM.Add(-30*time.Second))
	e.saveScript("job", map[string]any{"type": "print", "text": "x"})
	v := e.create(ScheduleInput{Name: str("job"), Cron: str("* * * * *"), Timezone: str("UTC")})
	other := scripts.NewEngine(&scripts.Runner{Registry: scripts.DefaultRegistry}, e.db, nil)
	defer func() { _ = other.Shutdown(context.Background()) }()
	second := NewScheduler(SchedulerConfig{Store: e.db, Engine: other, Clock: e.clock})
	for i := range 5 {
		e.clock.Set(nineAM.Add(time.Duration(i)*time.Minute + 100*time.Millisecond))
		var wg sync.WaitGroup
		for _, sc := range []*Scheduler{e.sc, second} {
			wg.Add(1)
			go func() { defer wg.Done(); sc.Check(context.Background()) }()
		}
		wg.Wait()
		for deadline := time.Now().Add(5 * time.Second); other.Running()+e.engine.Running() > 0 && time.Now().Before(deadline); {
			time.Sleep(5 * time.Millisecond)
		}
	}
	runs := e.runsOf(v.ID)
	slots := map[time.Time]int{}
	for _, d := range runs {
		slots[*d.Trigger.Slot]++
	}
	if len(runs) != 5 || len(slots) != 5 {
		t.Errorf("%d runs over %d slots, want 5 and 5: %v", len(runs), len(slots), slots)
	}
}

// TestScheduleFailedFires: runs the engine refuses, and an agent that no longer compiles, are
// recorded as failed fires with the reason; the slot is not retried.
func TestScheduleFailedFires(t *testing.T) {
	e := newSchedEnv(t, nineAM.Add(-30*time.Second))
	e.saveScript("job", map[string]any{"type": "print", "text": "x"})
	v := e.create(ScheduleInput{Name: str("job"), Cron: str("* * * * *"), Timezone: str("UTC")})
	broken, err := e.sc.CreateAgent(acct, store.ScheduleAgent{Goal: "old", JSONOutput: json.RawMessage(`[{"type":"no such kind"}]`)},
		ScheduleInput{Cron: str("* * * * *"), Timezone: str("UTC")})
	if err != nil {
		t.Fatal(err)
	}
	_ = e.engine.Shutdown(context.Background()) // the engine admits nothing more
	e.checkAt(nineAM.Add(100 * time.Millisecond))
	e.checkAt(nineAM.Add(200 * time.Millisecond))
	for id, says := range map[string]string{v.ID: "not admitted: the server is shutting down", broken.ID: "does not compile"} {
		f := e.fires(id)
		if len(f) != 1 || f[0].Status != store.FireFailed || !strings.Contains(f[0].Reason, says) || len(f[0].Runs) != 0 {
			t.Errorf("schedule %s fires %+v, want one failed saying %q", id, f, says)
		}
	}
}
