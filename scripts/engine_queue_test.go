package scripts

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/store"
)

// fakePool is a browser pool of n contexts without a browser: Lease waits a little for a free
// context and then answers busy, like the real pool's lease timeout.
type fakePool struct{ slots chan struct{} }

type fakeSession struct {
	pool *fakePool
	once sync.Once
}

func (s *fakeSession) Page() *rod.Page       { return nil }
func (s *fakeSession) Browser() *rod.Browser { return nil }
func (s *fakeSession) Crashed() bool         { return false }
func (s *fakeSession) Release()              { s.once.Do(func() { <-s.pool.slots }) }

func (p *fakePool) Lease(ctx context.Context) (BrowserSession, error) {
	select {
	case p.slots <- struct{}{}:
		return &fakeSession{pool: p}, nil
	case <-ctx.Done():
		return nil, errs.E(errs.Canceled, "waiting for a browser context: canceled")
	case <-time.After(30 * time.Millisecond):
		return nil, errs.E(errs.Busy, "all browser contexts are busy")
	}
}

// holdNode is a browser node that records its start and holds the browser until released.
type holdNode struct{ q *queueTest }

func (n *holdNode) Run(ctx context.Context, env *Env) error {
	n.q.mu.Lock()
	n.q.started = append(n.q.started, env.RunID)
	release := n.q.release
	n.q.mu.Unlock()
	select {
	case <-release:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

type queueTest struct {
	mu      sync.Mutex
	started []string
	release chan struct{}
}

func (q *queueTest) order() []string {
	q.mu.Lock()
	defer q.mu.Unlock()
	return append([]string(nil), q.started...)
}

func newQueueEngine(t *testing.T, contexts, queue int) (*Engine, *Script, *queueTest, *store.DB) {
	t.Helper()
	q := &queueTest{release: make(chan struct{})}
	reg := NewRegistry()
	reg.Register(Spec{Kind: "hold", Browser: true, Timeout: time.Minute,
		Build: func(*Params) (Node, error) { return &holdNode{q: q}, nil }})
	s, err := reg.Compile("hold the browser", []json.RawMessage{json.RawMessage(`{"type":"hold"}`)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	e := NewEngine(&Runner{Registry: reg, Browsers: &fakePool{slots: make(chan struct{}, contexts)}, Logger: log}, db, log)
	e.QueueSize = queue
	return e, s, q, db
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func storedStatus(t *testing.T, db *store.DB, id string) string {
	t.Helper()
	rec, err := db.GetRun("acct", id)
	if err != nil {
		t.Fatal(err)
	}
	return rec.Status
}

func TestEngine_QueueFIFOCancelAndFull(t *testing.T) {
	e, s, q, db := newQueueEngine(t, 1, 3)
	opt := StartOptions{Account: "acct", Source: "trigger", Script: &ScriptRef{Name: "hold", Version: 4}}
	first, err := e.Enqueue(s, opt)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the first run to hold the browser", func() bool { return len(q.order()) == 1 })
	var waiting []*Run
	for range 3 {
		r, err := e.Enqueue(s, opt)
		if err != nil {
			t.Fatal(err)
		}
		waiting = append(waiting, r)
	}
	// Queued runs are stored as queued at once (a restart marks them interrupted).
	for _, r := range waiting {
		if st := storedStatus(t, db, r.ID()); st != StatusQueued || r.Doc().Status != StatusQueued {
			t.Errorf("run %s is %s/%s, want queued", r.ID(), st, r.Doc().Status)
		}
	}
	if d := waiting[0].Doc(); d.Script == nil || d.Script.Name != "hold" || d.Script.Version != 4 {
		t.Errorf("the run does not name its script: %+v", d.Script)
	}
	// A full queue is busy, and nothing is stored for the refused run.
	if _, err := e.Enqueue(s, opt); errs.Code(err) != errs.Busy {
		t.Fatalf("a fifth run with 1 context and a queue of 3: %v, want busy", err)
	}
	if recs, _ := db.ListRuns("acct", 0, ""); len(recs) != 4 {
		t.Errorf("%d runs stored, want 4", len(recs))
	}
	if e.Queued() != 3 {
		t.Errorf("Queued() = %d, want 3", e.Queued())
	}
	// Canceling a queued run ends it at once; it never starts.
	doc, err := e.Cancel("acct", waiting[1].ID())
	if err != nil || doc.Status != StatusCanceled || doc.Error == nil || doc.Error.Code != errs.Canceled {
		t.Fatalf("cancel of a queued run: %+v %v", doc, err)
	}
	if st := storedStatus(t, db, waiting[1].ID()); st != StatusCanceled {
		t.Errorf("stored as %s", st)
	}
	// Releasing the browser lets the queue drain in order.
	close(q.release)
	for _, r := range []*Run{first, waiting[0], waiting[2]} {
		if d := e.Wait(t.Context(), r); d.Status != StatusSucceeded {
			t.Errorf("run %s: %s %+v", r.ID(), d.Status, d.Error)
		}
	}
	want := []string{first.ID(), waiting[0].ID(), waiting[2].ID()}
	if got := q.order(); len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("start order %v, want %v", got, want)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := e.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestEngine_ShutdownKeepsQueuedRunsForTheNextStart(t *testing.T) {
	e, s, q, db := newQueueEngine(t, 1, 5)
	opt := StartOptions{Account: "acct"}
	running, _ := e.Enqueue(s, opt)
	waitFor(t, "the first run to start", func() bool { return len(q.order()) == 1 })
	onProfile := *s
	onProfile.Profile, onProfile.Data = "p", map[string]any{"data": "kept"}
	queued, err := e.Enqueue(&onProfile, StartOptions{Account: "acct", Source: "schedule", Timeout: 42 * time.Second,
		Script: &ScriptRef{Name: "hold", Version: 3}, Trigger: &TriggerRef{ID: "sc_1"}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := e.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if d := e.Wait(t.Context(), running); d.Status != StatusCanceled {
		t.Errorf("running run after the grace: %s", d.Status)
	}
	if st := storedStatus(t, db, queued.ID()); st != StatusQueued {
		t.Errorf("queued run stored as %s after a shutdown, want it still queued", st)
	}
	if len(q.order()) != 1 {
		t.Errorf("a queued run started during shutdown: %v", q.order())
	}
	if _, err := e.Enqueue(s, opt); errs.Code(err) != errs.Busy {
		t.Errorf("Enqueue after Shutdown: %v, want busy", err)
	}
	// The next engine on the same store resumes it.
	next := restartQueueEngine(t, e, db, 1)
	if n, err := next.RecoverInterrupted(); err != nil || n != 0 {
		t.Fatalf("RecoverInterrupted = %d, %v; want 0 (the queued run is resumed, not interrupted)", n, err)
	}
	if n := next.ResumeQueued(); n != 1 {
		t.Fatalf("ResumeQueued = %d, want 1", n)
	}
	close(q.release)
	r, ok := next.Active("acct", queued.ID())
	if !ok {
		t.Fatal("the resumed run is not active")
	}
	d := next.Wait(t.Context(), r)
	if d.Status != StatusSucceeded || d.Profile != "p" || d.Data["data"] != "kept" || d.Source != "schedule" ||
		d.Script == nil || d.Script.Version != 3 || d.Trigger == nil || d.Trigger.ID != "sc_1" || !d.Created.Equal(queued.Doc().Created) {
		t.Errorf("resumed run lost what it was queued with: %+v", d)
	}
	if got := q.order(); len(got) != 2 || got[1] != queued.ID() {
		t.Errorf("start order %v", got)
	}
}

// restartQueueEngine is a new engine on db with e's registry and a fresh pool, as after a restart.
func restartQueueEngine(t *testing.T, e *Engine, db *store.DB, contexts int) *Engine {
	t.Helper()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	next := NewEngine(&Runner{Registry: e.Runner.Registry, Browsers: &fakePool{slots: make(chan struct{}, contexts)}, Logger: log}, db, log)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = next.Shutdown(ctx)
	})
	return next
}

func TestEngine_EnqueueWithoutBrowserStartsAtOnce(t *testing.T) {
	e, _, _, _ := newQueueEngine(t, 1, 1)
	reg := NewRegistry()
	reg.Register(Spec{Kind: "noop", Build: func(*Params) (Node, error) { return noopNode{}, nil }})
	s, err := reg.Compile("g", []json.RawMessage{json.RawMessage(`{"type":"noop"}`)}, map[string]any{"data": "x"})
	if err != nil {
		t.Fatal(err)
	}
	e.Runner.Registry = reg
	for range 3 { // more than the queue holds: they do not wait for a browser
		r, err := e.Enqueue(s, StartOptions{Account: "acct"})
		if err != nil {
			t.Fatal(err)
		}
		if d := e.Wait(t.Context(), r); d.Status != StatusSucceeded || d.Data["data"] != "x" {
			t.Fatalf("%+v", d)
		}
	}
}

type noopNode struct{}

func (noopNode) Run(context.Context, *Env) error { return nil }

func TestEngine_QueuedRunsWaitForTheirProfileOthersGoAhead(t *testing.T) {
	e, s, q, _ := newQueueEngine(t, 2, 5)
	withProfile := func(name string) *Script { c := *s; c.Profile = name; return &c }
	opt := StartOptions{Account: "acct", Source: "trigger"}
	a, _ := e.Enqueue(withProfile("p"), opt)
	b, _ := e.Enqueue(withProfile("p"), opt)
	c, err := e.Enqueue(withProfile(""), opt)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "two runs to hold the two contexts", func() bool { return len(q.order()) == 2 })
	time.Sleep(50 * time.Millisecond) // b would have started by now if the profile let it
	// a and c run side by side on the two contexts, so either may record its start first.
	if got := q.order(); len(got) != 2 || !slices.Contains(got, a.ID()) || !slices.Contains(got, c.ID()) || slices.Contains(got, b.ID()) {
		t.Fatalf("started %v, want %s (profile p) and %s (no profile), with %s waiting for p", got, a.ID(), c.ID(), b.ID())
	}
	if holder, ok := e.ProfileInUse("acct", "p"); !ok || holder != a.ID() {
		t.Errorf("ProfileInUse = %q %v, want %s", holder, ok, a.ID())
	}
	if _, err := e.Start(t.Context(), withProfile("p"), StartOptions{Account: "acct"}); errs.Code(err) != errs.Busy {
		t.Errorf("a direct run on a profile in use: %v, want busy", err)
	}
	close(q.release)
	da, db := e.Wait(t.Context(), a), e.Wait(t.Context(), b)
	if da.Status != StatusSucceeded || db.Status != StatusSucceeded || db.Started.Before(*da.Finished) {
		t.Errorf("b started %v before a finished %v (%s, %s)", db.Started, da.Finished, da.Status, db.Status)
	}
	if _, ok := e.ProfileInUse("acct", "p"); ok {
		t.Error("the profile is still held after its runs ended")
	}
}
