package scripts

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/store"
)

// Engine starts runs, keeps the active ones for events and cancellation, and persists every
// run document in the store. Runs live on the engine's context, not on the request that
// started them, so `?wait=false` runs and disconnected clients do not stop them.
type Engine struct {
	Runner *Runner
	Store  *store.DB
	// RunTimeout is the default time limit of a run. Default 10 minutes.
	RunTimeout time.Duration
	// MaxRunTimeout caps a request's own timeout. Default 1 hour.
	MaxRunTimeout time.Duration
	// QueueSize bounds the runs Enqueue keeps waiting for a browser; a full queue answers busy.
	// Default 100; 0 or less makes Enqueue admit like Start (no waiting line).
	QueueSize int
	Logger    *slog.Logger
	// Remote, when set, executes the runs that bring no session of their own somewhere else
	// (worker processes over NATS, package cluster) instead of on this process's Runner.
	Remote RemoteExecutor

	// queue holds the runs waiting for a browser, oldest first; the dispatcher starts them.
	queue        []*queuedRun
	wake         chan struct{}
	dispatchOnce sync.Once
	// profiles maps a claimed browser profile (profileKey) to the id of the run holding it:
	// one run at a time per profile (engine_profiles.go).
	profiles map[string]string
	// resumable are the runs the store's queue held at start, until ResumeQueued takes them.
	resumable []store.WaitingRun

	mu        sync.Mutex
	active    map[string]*Run
	observers []func(Doc)
	cancelers []func(account, id string) (Doc, bool)
	keepers   []func(id string) bool
	wg        sync.WaitGroup
	base      context.Context
	stop      context.CancelFunc
	closed    bool
}

// NewEngine returns an engine ready to start runs.
func NewEngine(runner *Runner, db *store.DB, logger *slog.Logger) *Engine {
	if logger == nil {
		logger = slog.Default()
	}
	base, stop := context.WithCancel(context.Background())
	return &Engine{Runner: runner, Store: db, RunTimeout: 10 * time.Minute, MaxRunTimeout: time.Hour, QueueSize: 100,
		Logger: logger, active: map[string]*Run{}, profiles: map[string]string{}, base: base, stop: stop, wake: make(chan struct{}, 1)}
}

// StartOptions describe a run to start.
type StartOptions struct {
	Account string
	Source  string // "api", "cli", "trigger", …
	// Timeout is the run's own limit (capped by MaxRunTimeout); 0 = the engine default.
	Timeout time.Duration
	// Session, when set, is the browser the run uses instead of leasing one from the pool (a
	// connected extension's tab). The run releases it at its end.
	Session BrowserSession
	// RunID, when set, is the id to use (a run that was queued and stored before it started).
	RunID string
	// Script, when set, names the saved script (and version) the run runs; the run document
	// shows it.
	Script *ScriptRef
	// Trigger, when set, names the schedule, address, number or watch that started the run.
	Trigger *TriggerRef
}

// Start admits and starts a run of s. Admission leases a browser first when the script needs
// one, so a saturated pool answers busy at once instead of queueing without bound; nothing is
// stored for a run that was not admitted.
func (e *Engine) Start(ctx context.Context, s *Script, opt StartOptions) (*Run, error) {
	e.mu.Lock()
	closed := e.closed
	e.mu.Unlock()
	if closed {
		return nil, errs.E(errs.Busy, "the server is shutting down")
	}
	if err := e.Runner.checkModel(s); err != nil {
		return nil, err
	}
	if err := e.profileKept(s, opt); err != nil {
		return nil, err
	}
	if opt.RunID == "" {
		opt.RunID = store.NewID("r")
	}
	if err := e.claimProfile(opt.Account, s.Profile, opt.RunID); err != nil {
		return nil, err
	}
	session := opt.Session
	if session == nil && NeedsBrowser(s.Nodes) && e.Runner.Browsers != nil {
		var err error
		if session, err = e.Runner.Browsers.Lease(ctx); err != nil {
			e.releaseProfile(opt.Account, s.Profile, opt.RunID)
			return nil, err
		}
	}
	r, timeout, err := e.prepare(s, opt)
	if err != nil {
		e.releaseProfile(opt.Account, s.Profile, opt.RunID)
		if session != nil {
			session.Release()
		}
		return nil, err
	}
	e.mu.Lock()
	e.active[r.ID()] = r
	e.wg.Add(1)
	e.mu.Unlock()
	e.launch(r, session, timeout)
	return r, nil
}

// prepare makes and stores the queued run of s.
func (e *Engine) prepare(s *Script, opt StartOptions) (*Run, time.Duration, error) {
	timeout := e.RunTimeout
	if opt.Timeout > 0 {
		timeout = min(opt.Timeout, e.MaxRunTimeout)
	}
	source := opt.Source
	if source == "" {
		source = "api"
	}
	id := opt.RunID
	if id == "" {
		id = store.NewID("r")
	}
	r := NewRun(id, opt.Account, source, s)
	if opt.Script != nil {
		ref := *opt.Script
		r.doc.Script = &ref
	}
	if opt.Trigger != nil {
		ref := *opt.Trigger
		r.doc.Trigger = &ref
	}
	if err := e.persist(r); err != nil {
		return nil, 0, err
	}
	return r, timeout, nil
}

// launch executes r (already active and counted in wg) on the engine's context.
func (e *Engine) launch(r *Run, session BrowserSession, timeout time.Duration) {
	go func() {
		defer e.wg.Done()
		opt := ExecOptions{Timeout: timeout, Session: session, OnStart: func(Doc) {
			if err := e.persist(r); err != nil {
				e.Logger.Error("persist run", "run", r.ID(), "err", err)
			}
		}}
		if e.Remote != nil && session == nil {
			e.Remote.Execute(e.base, r, opt)
		} else {
			e.Runner.Execute(e.base, r, opt)
		}
		e.record(r)
	}()
}

// record stores a finished run, retires it and tells the observers.
func (e *Engine) record(r *Run) {
	if err := e.persist(r); err != nil {
		e.Logger.Error("persist run", "run", r.ID(), "err", err)
	}
	e.mu.Lock()
	delete(e.active, r.ID())
	observers := e.observers
	e.mu.Unlock()
	e.releaseProfile(r.Account, r.Script.Profile, r.ID())
	doc := r.Doc()
	for _, o := range observers {
		o(doc)
	}
	close(r.recorded)
}

// queuedRun is a run waiting in the engine's queue for a browser.
type queuedRun struct {
	run     *Run
	timeout time.Duration
	// ctx ends when the run is canceled while it waits (it stops a lease in progress).
	ctx    context.Context
	cancel context.CancelFunc
}

// Enqueue admits a run of s that waits for a browser instead of failing when the pool is busy
// (webhook triggers): the run is stored as queued at once and starts, oldest first, when a
// browser context frees up. When QueueSize runs already wait it answers busy and stores
// nothing. A run that needs no browser (or brings its own session) starts at once.
func (e *Engine) Enqueue(s *Script, opt StartOptions) (*Run, error) {
	if err := e.Runner.checkModel(s); err != nil {
		return nil, err
	}
	if opt.Session != nil || e.Runner.Browsers == nil || !NeedsBrowser(s.Nodes) {
		return e.Start(e.base, s, opt)
	}
	if e.QueueSize <= 0 {
		return e.Start(e.base, s, opt)
	}
	e.mu.Lock()
	closed, full := e.closed, len(e.queue) >= e.QueueSize
	e.mu.Unlock()
	if closed {
		return nil, errs.E(errs.Busy, "the server is shutting down")
	}
	if full {
		return nil, errs.E(errs.Busy, "every browser is busy and %d runs are already waiting; try again later", e.QueueSize)
	}
	r, timeout, err := e.prepare(s, opt)
	if err != nil {
		return nil, err
	}
	if err := e.keepWaiting(r, opt, timeout); err != nil {
		r.finish(StatusFailed, err, r.Script.Data)
		e.record(r)
		return nil, err
	}
	ctx, cancel := context.WithCancel(e.base)
	q := &queuedRun{run: r, timeout: timeout, ctx: ctx, cancel: cancel}
	e.mu.Lock()
	if e.closed || len(e.queue) >= e.QueueSize { // lost a race with Shutdown or another Enqueue
		e.mu.Unlock()
		cancel()
		e.forgetWaiting(r.ID())
		r.finish(StatusCanceled, errs.E(errs.Busy, "not admitted: the queue filled up"), r.Script.Data)
		if err := e.persist(r); err != nil {
			e.Logger.Error("persist run", "run", r.ID(), "err", err)
		}
		return nil, errs.E(errs.Busy, "every browser is busy and %d runs are already waiting; try again later", e.QueueSize)
	}
	e.queue = append(e.queue, q)
	e.active[r.ID()] = r
	e.wg.Add(1)
	e.mu.Unlock()
	e.dispatchOnce.Do(func() { go e.dispatch() })
	select {
	case e.wake <- struct{}{}:
	default:
	}
	return r, nil
}

// Queued counts the runs waiting for a browser.
func (e *Engine) Queued() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.queue)
}

// dispatch starts queued runs in order as browsers free up. One dispatcher keeps the order:
// the oldest run whose browser profile is free (runs without one always are) waits for a lease,
// the others wait behind it.
func (e *Engine) dispatch() {
	for {
		head := e.nextQueued()
		if head == nil {
			select {
			case <-e.wake:
				continue
			case <-e.base.Done():
				return
			}
		}
		session, err := e.Runner.Browsers.Lease(head.ctx)
		e.mu.Lock()
		i := slices.Index(e.queue, head)
		still := i >= 0
		if still && (err == nil || head.ctx.Err() == nil && !errs.Is(err, errs.Busy)) {
			e.queue = slices.Delete(e.queue, i, i+1)
		}
		e.mu.Unlock()
		switch {
		case !still: // canceled (or drained by Shutdown) while it waited
			if session != nil {
				session.Release()
			}
		case err == nil:
			head.cancel()
			e.forgetWaiting(head.run.ID())
			e.launch(head.run, session, head.timeout)
		case head.ctx.Err() != nil:
			// Canceled: Cancel or Shutdown takes it out of the queue; wait for that.
			time.Sleep(10 * time.Millisecond)
		case errs.Is(err, errs.Busy):
			// The pool's lease time limit passed with every context still taken: wait on.
			select {
			case <-time.After(20 * time.Millisecond):
			case <-e.base.Done():
				return
			}
		default: // the browser is unavailable for good: the run fails with the pool's reason
			head.cancel()
			e.abandon(head, StatusFailed, err)
		}
	}
}

// abandon ends a queued run that never started.
func (e *Engine) abandon(q *queuedRun, status string, err error) {
	e.forgetWaiting(q.run.ID())
	q.run.finish(status, err, q.run.Script.Data)
	e.record(q.run)
	e.wg.Done()
}

// unqueue removes r from the queue; it reports whether r was waiting there.
func (e *Engine) unqueue(r *Run) (*queuedRun, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for i, q := range e.queue {
		if q.run == r {
			e.queue = append(e.queue[:i:i], e.queue[i+1:]...)
			return q, true
		}
	}
	return nil, false
}

// AddCanceler registers f to cancel runs queued outside the engine (the extension hub's queue):
// f answers the run's final document and true when it held and canceled the run.
func (e *Engine) AddCanceler(f func(account, id string) (Doc, bool)) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.cancelers = append(e.cancelers, f)
}

// AddKeeper registers f to claim unfinished runs that RecoverInterrupted must leave alone because
// their owner resumes them (the extension hub's persisted queue).
func (e *Engine) AddKeeper(f func(id string) bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.keepers = append(e.keepers, f)
}

// AddObserver registers f to be called with every finished run's document (metrics).
func (e *Engine) AddObserver(f func(Doc)) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.observers = append(e.observers, f)
}

// NeedsBrowser reports whether any node (children included) needs a browser page.
func NeedsBrowser(calls []*Call) bool {
	for _, c := range calls {
		if c.NeedsBrowser() {
			return true
		}
		for _, kids := range c.Children {
			if NeedsBrowser(kids) {
				return true
			}
		}
	}
	return false
}

func (e *Engine) persist(r *Run) error {
	if e.Store == nil {
		return nil
	}
	d := r.Doc()
	raw, err := json.Marshal(d)
	if err != nil {
		return err
	}
	return e.Store.PutRun(store.RunRecord{ID: d.RunID, Account: r.Account, Status: d.Status, Created: d.Created, Doc: raw})
}

// Wait blocks until r has finished and its final document is stored (or ctx ends), and returns
// the document as it is then.
func (e *Engine) Wait(ctx context.Context, r *Run) Doc {
	select {
	case <-r.recorded:
	case <-ctx.Done():
	}
	return r.Doc()
}

// Active returns the account's active run with id, if any.
func (e *Engine) Active(account, id string) (*Run, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	r, ok := e.active[id]
	if !ok || r.Account != account {
		return nil, false
	}
	return r, true
}

// Get returns a run document of the account: live when active, else from the store.
func (e *Engine) Get(account, id string) (Doc, error) {
	if r, ok := e.Active(account, id); ok {
		return r.Doc(), nil
	}
	if e.Store == nil {
		return Doc{}, errs.E(errs.NotFound, "run %s not found", id)
	}
	rec, err := e.Store.GetRun(account, id)
	if err != nil {
		if errs.Is(err, errs.NotFound) {
			return Doc{}, errs.E(errs.NotFound, "run %s not found", id)
		}
		return Doc{}, err
	}
	var d Doc
	if err := json.Unmarshal(rec.Doc, &d); err != nil {
		return Doc{}, err
	}
	return d, nil
}

// Cancel cancels an active run of the account. A finished run is left as it is.
func (e *Engine) Cancel(account, id string) (Doc, error) {
	if r, ok := e.Active(account, id); ok {
		if q, queued := e.unqueue(r); queued {
			q.cancel()
			e.abandon(q, StatusCanceled, errs.E(errs.Canceled, "run canceled while it waited for a browser"))
			return r.Doc(), nil
		}
		r.Cancel()
		select {
		case <-r.recorded:
		case <-time.After(5 * time.Second):
		}
		return r.Doc(), nil
	}
	e.mu.Lock()
	cancelers := e.cancelers
	e.mu.Unlock()
	for _, c := range cancelers {
		if d, ok := c(account, id); ok {
			return d, nil
		}
	}
	return e.Get(account, id)
}

// RecoverInterrupted marks runs that were queued or running when the process died as failed
// with code "interrupted", so no run stays "running" forever after a crash.
func (e *Engine) RecoverInterrupted() (int, error) {
	if e.Store == nil {
		return 0, nil
	}
	recs, err := e.Store.UnfinishedRuns()
	if err != nil {
		return 0, err
	}
	e.mu.Lock()
	keepers := append([]func(string) bool{e.waitingKeeper()}, e.keepers...)
	e.mu.Unlock()
	n := 0
recs:
	for _, rec := range recs {
		for _, keep := range keepers {
			if keep(rec.ID) {
				continue recs
			}
		}
		n++
		var d Doc
		if err := json.Unmarshal(rec.Doc, &d); err != nil {
			continue
		}
		now := time.Now().UTC()
		d.Status = StatusFailed
		d.Finished = &now
		d.Error = &ErrorBody{Code: "interrupted", Message: "the server stopped while this run was in progress"}
		raw, _ := json.Marshal(d)
		rec.Status, rec.Doc = d.Status, raw
		if err := e.Store.PutRun(rec); err != nil {
			return 0, err
		}
	}
	return n, nil
}

// Running counts active runs.
func (e *Engine) Running() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.active)
}

// Shutdown stops admitting runs, waits for active ones until ctx ends, then cancels the rest
// and waits for them to record their end.
func (e *Engine) Shutdown(ctx context.Context) error {
	defer e.stop() // ends the queue's dispatcher
	e.mu.Lock()
	e.closed = true
	waiting := e.queue
	e.queue = nil
	e.mu.Unlock()
	// Runs still waiting for a browser stay queued in the store for the next start (they are
	// durable); without a store they end canceled, and say why.
	for _, q := range waiting {
		q.cancel()
		if e.Store != nil {
			e.shelve(q)
			continue
		}
		e.abandon(q, StatusCanceled, errs.E(errs.Canceled, "the server shut down before this run got a browser"))
	}
	done := make(chan struct{})
	go func() { e.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
	}
	e.mu.Lock()
	for _, r := range e.active {
		r.Cancel()
	}
	e.mu.Unlock()
	e.stop()
	select {
	case <-done:
		return nil
	case <-time.After(10 * time.Second):
		return errors.New("runs did not stop within 10s of cancellation")
	}
}
