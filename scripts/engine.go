package scripts

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
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
	Logger        *slog.Logger

	mu        sync.Mutex
	active    map[string]*Run
	observers []func(Doc)
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
	return &Engine{Runner: runner, Store: db, RunTimeout: 10 * time.Minute, MaxRunTimeout: time.Hour,
		Logger: logger, active: map[string]*Run{}, base: base, stop: stop}
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
	session := opt.Session
	if session == nil && NeedsBrowser(s.Nodes) && e.Runner.Browsers != nil {
		var err error
		if session, err = e.Runner.Browsers.Lease(ctx); err != nil {
			return nil, err
		}
	}
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
	if err := e.persist(r); err != nil {
		if session != nil {
			session.Release()
		}
		return nil, err
	}
	e.mu.Lock()
	e.active[r.ID()] = r
	e.wg.Add(1)
	e.mu.Unlock()
	go func() {
		defer e.wg.Done()
		e.Runner.Execute(e.base, r, ExecOptions{Timeout: timeout, Session: session, OnStart: func(Doc) {
			if err := e.persist(r); err != nil {
				e.Logger.Error("persist run", "run", r.ID(), "err", err)
			}
		}})
		if err := e.persist(r); err != nil {
			e.Logger.Error("persist run", "run", r.ID(), "err", err)
		}
		e.mu.Lock()
		delete(e.active, r.ID())
		observers := e.observers
		e.mu.Unlock()
		doc := r.Doc()
		for _, o := range observers {
			o(doc)
		}
		close(r.recorded)
	}()
	return r, nil
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
		if c.Spec.Browser {
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
		r.Cancel()
		select {
		case <-r.recorded:
		case <-time.After(5 * time.Second):
		}
		return r.Doc(), nil
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
	for _, rec := range recs {
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
	return len(recs), nil
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
	e.mu.Lock()
	e.closed = true
	e.mu.Unlock()
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
