package scripts

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/go-rod/rod"
	"github.com/rodeo-run/rodeo/errs"
)

// Runner executes scripts. It holds no per-run state; one Runner serves every run.
type Runner struct {
	Registry *Registry
	// Browsers leases browser sessions; nil runs only non-browser nodes.
	Browsers Leaser
	Logger   *slog.Logger
	// Services are the non-browser facilities (store, model, mail, code policy).
	Services *Services
	// Desktops leases the X display for desktop nodes; nil: desktop nodes fail
	// desktop_unavailable.
	Desktops DesktopLeaser
}

// Event is published on a run as it progresses: "step" when a step finishes, "print" and
// "notification" messages from nodes, "done" with the final document.
type Event struct {
	Type    string `json:"type"`
	RunID   string `json:"run_id"`
	Step    *Step  `json:"step,omitempty"`
	Doc     *Doc   `json:"doc,omitempty"`
	Message string `json:"message,omitempty"`
}

// Run is one execution of a script: its live document, its events and its cancellation.
type Run struct {
	Account string
	Script  *Script

	mu     sync.Mutex
	doc    Doc
	events []Event
	subs   map[chan Event]struct{}
	done   chan struct{}
	cancel context.CancelCauseFunc
	// recorded is closed by the engine once the final document is stored and observed, so an
	// answer never gets ahead of what a restart would show.
	recorded chan struct{}
	// page is the tab the run is on now, for watchers (the studio's live view); pageMoved is
	// closed and replaced whenever it changes, so a watcher can follow a new tab.
	page      *rod.Page
	pageMoved chan struct{}
}

var (
	errCanceledByUser = errors.New("canceled by request")
	errRunTimedOut    = errors.New("run time limit reached")
	errBrowserCrashed = errors.New("the browser crashed")
)

// NewRun prepares a queued run of s.
func NewRun(id, account, source string, s *Script) *Run {
	return &Run{
		Account: account, Script: s,
		doc: Doc{RunID: id, Status: StatusQueued, Goal: s.Goal, Data: map[string]any{}, Steps: []Step{}, Source: source, Created: time.Now().UTC(),
			Profile: s.Profile},
		subs:     map[chan Event]struct{}{},
		done:     make(chan struct{}),
		recorded: make(chan struct{}),
	}
}

// Page is the browser tab the run is on now (nil before its first browser node and after its
// session is released) and a channel closed when that changes. Watchers may read the page (a
// screencast) but must stop when the channel closes: the tab is then gone or no longer current.
func (r *Run) Page() (*rod.Page, <-chan struct{}) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.pageMoved == nil {
		r.pageMoved = make(chan struct{})
	}
	return r.page, r.pageMoved
}

// setPage records the run's current tab and wakes the watchers of the old one.
func (r *Run) setPage(p *rod.Page) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if p == r.page {
		return
	}
	r.page = p
	if r.pageMoved != nil {
		close(r.pageMoved)
	}
	r.pageMoved = make(chan struct{})
}

// ID is the run id.
func (r *Run) ID() string { return r.doc.RunID }

// Doc returns a copy of the run document as it is now.
func (r *Run) Doc() Doc {
	r.mu.Lock()
	defer r.mu.Unlock()
	d := r.doc
	d.Steps = append([]Step(nil), r.doc.Steps...)
	return d
}

// Done is closed when the run has finished.
func (r *Run) Done() <-chan struct{} { return r.done }

// Cancel asks the run to stop; it finishes with status canceled. Safe to call at any time.
func (r *Run) Cancel() {
	r.mu.Lock()
	cancel := r.cancel
	if cancel == nil && r.doc.Status == StatusQueued {
		// Not started yet: it will see the cancel when it starts.
		r.doc.Status = StatusCanceled
	}
	r.mu.Unlock()
	if cancel != nil {
		cancel(errCanceledByUser)
	}
}

// Subscribe returns the events so far and a channel of the following ones, closed after "done".
// Call the returned function to unsubscribe early.
func (r *Run) Subscribe() ([]Event, <-chan Event, func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	past := append([]Event(nil), r.events...)
	ch := make(chan Event, 64)
	select {
	case <-r.done:
		close(ch)
		return past, ch, func() {}
	default:
	}
	r.subs[ch] = struct{}{}
	return past, ch, func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		if _, ok := r.subs[ch]; ok {
			delete(r.subs, ch)
			close(ch)
		}
	}
}

func (r *Run) publish(ev Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, ev)
	for ch := range r.subs {
		select {
		case ch <- ev:
		default: // a slow subscriber loses live events but can re-read the document
		}
	}
}

func (r *Run) addStep(s Step) {
	r.mu.Lock()
	r.doc.Steps = append(r.doc.Steps, s)
	r.mu.Unlock()
	r.publish(Event{Type: "step", RunID: r.ID(), Step: &s})
}

func (r *Run) finish(status string, runErr error, data map[string]any) {
	r.mu.Lock()
	now := time.Now().UTC()
	r.doc.Status = status
	r.doc.Error = ErrorOf(runErr)
	r.doc.Data = data
	r.doc.Finished = &now
	if r.doc.Started != nil {
		r.doc.DurationMS = now.Sub(*r.doc.Started).Milliseconds()
	}
	d := r.doc
	d.Steps = append([]Step(nil), r.doc.Steps...)
	r.mu.Unlock()
	r.publish(Event{Type: "done", RunID: r.ID(), Doc: &d})
	r.mu.Lock()
	for ch := range r.subs {
		close(ch)
	}
	r.subs = map[chan Event]struct{}{}
	r.mu.Unlock()
	close(r.done)
}

// ExecOptions tune one execution.
type ExecOptions struct {
	// Timeout bounds the whole run; 0 means no limit beyond ctx.
	Timeout time.Duration
	// Session is a browser session leased before the run (admission control); the run owns and
	// releases it.
	Session BrowserSession
	// OnStart is called once the run is marked running (the engine persists it).
	OnStart func(Doc)
}

// Execute runs r to its end and fills its document. It returns when the run is finished, with
// the browser session released whatever happened.
func (rn *Runner) Execute(ctx context.Context, r *Run, opt ExecOptions) {
	logger := rn.Logger
	if logger == nil {
		logger = slog.Default()
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	if opt.Timeout > 0 {
		var stop context.CancelFunc
		ctx, stop = context.WithTimeoutCause(ctx, opt.Timeout, errRunTimedOut)
		defer stop()
	}
	env := &Env{RunID: r.ID(), Goal: r.Script.Goal, Account: r.Account, Vars: NewVars(r.Script.Data),
		Logger: logger.With("run", r.ID()), runner: rn, run: r, Held: map[string]bool{}, cancelRun: cancel}
	if opt.Session != nil {
		env.adopt(opt.Session)
	}
	defer env.release()
	defer env.releaseDesktop()

	r.mu.Lock()
	if r.doc.Status == StatusCanceled { // canceled while queued
		r.mu.Unlock()
		r.finish(StatusCanceled, errs.E(errs.Canceled, "run canceled before it started"), env.Vars.Snapshot())
		return
	}
	now := time.Now().UTC()
	r.doc.Status = StatusRunning
	r.doc.Started = &now
	r.cancel = cancel
	r.mu.Unlock()
	if opt.OnStart != nil {
		opt.OnStart(r.Doc())
	}
	r.publish(Event{Type: "status", RunID: r.ID(), Message: StatusRunning})

	err := rn.runList(ctx, env, r.Script.Nodes)
	status := StatusSucceeded
	switch {
	case err == nil:
	case errors.Is(context.Cause(ctx), errCanceledByUser):
		status, err = StatusCanceled, errs.E(errs.Canceled, "run canceled")
	case errors.Is(context.Cause(ctx), errRunTimedOut):
		status, err = StatusTimedOut, errs.E(errs.Timeout, "run took longer than its %s time limit", opt.Timeout)
	case errors.Is(context.Cause(ctx), errBrowserCrashed):
		status, err = StatusFailed, crashError(env)
	default:
		status = StatusFailed
	}
	if err != nil {
		env.Logger.Info("run finished", "status", status, "error", errs.Code(err))
	} else {
		env.Logger.Info("run finished", "status", status)
	}
	r.finish(status, err, env.Vars.Snapshot())
}

// runList runs calls in order. A failure stops the list (and is returned) unless the failing
// node has continue_on_error; nodes after a stop are recorded as skipped at the top level.
func (rn *Runner) runList(ctx context.Context, env *Env, calls []*Call) error {
	var firstErr error
	for i, c := range calls {
		if firstErr != nil {
			if c.Path == fmt.Sprint(c.Index) { // top level: one step per node in the document
				env.run.addStep(Step{Index: c.Index, Type: c.Spec.Kind, Status: StepSkipped, Detail: map[string]any{}})
			}
			continue
		}
		if err := ctx.Err(); err != nil {
			firstErr = err
			for _, rest := range calls[i:] {
				if rest.Path == fmt.Sprint(rest.Index) {
					env.run.addStep(Step{Index: rest.Index, Type: rest.Spec.Kind, Status: StepSkipped, Detail: map[string]any{}})
				}
			}
			break
		}
		if err := rn.runCall(ctx, env, c); err != nil && !c.ContinueOnError {
			firstErr = err
		}
	}
	return firstErr
}

// runCall executes one node with its verification loop and records its step.
func (rn *Runner) runCall(ctx context.Context, env *Env, c *Call) error {
	_, err := rn.exec(ctx, env, c, nil, nil)
	return err
}

// exec runs c (built from its params, or the node given already built) with its verification
// loop, records its step (detail starting as a copy of detail) and returns it.
func (rn *Runner) exec(ctx context.Context, env *Env, c *Call, built Node, detail map[string]any) (step Step, err error) {
	start := time.Now()
	step = Step{Index: c.Index, Type: c.Spec.Kind, Status: StepOK}
	if c.Path != fmt.Sprint(c.Index) {
		step.Path = c.Path
	}
	env.detail = map[string]any{}
	env.callPath = c.Path
	for k, v := range detail {
		env.detail[k] = v
	}
	env.Attempt = 0
	env.countRun(c)
	var checks []Check
	attempts := 0
	defer func() {
		if p := recover(); p != nil {
			env.Logger.Error("node panicked", "node", c.Path, "type", c.Spec.Kind, "panic", p)
			err = errs.E(errs.Internal, "internal error in node %s", c.Spec.Kind)
		}
		step.DurationMS = time.Since(start).Milliseconds()
		step.Detail = env.detail
		env.recordStep(ctx, c, &step)
		env.boundDetail(&step, env.run.stepCount())
		if checks != nil || attempts > 0 {
			step.Verification = &Verification{Passed: err == nil && allPassed(checks), Attempts: max(attempts, 1), Checks: checks}
			if step.Verification.Checks == nil {
				step.Verification.Checks = []Check{}
			}
		}
		if err != nil {
			step.Status = StepFailed
			step.Error = ErrorOf(err)
			env.Logger.Info("step failed", "node", c.Path, "type", c.Spec.Kind, "code", step.Error.Code)
		}
		env.run.addStep(step)
	}()

	timeout := c.Spec.Timeout
	if c.Timeout > 0 {
		timeout = c.Timeout
	}
	nctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	node := built
	if node == nil {
		values, err := expandParams(c, env.Vars)
		if err != nil {
			return step, err
		}
		if node, err = c.Spec.Build(NewParams(c.Spec, values, c.Children)); err != nil {
			return step, errs.Wrap(errs.InvalidConfig, err)
		}
	}
	if cl, ok := node.(Closer); ok {
		defer cl.Close()
	}
	if c.NeedsBrowser() {
		if _, err := env.session(nctx); err != nil {
			return step, rn.classify(ctx, nctx, env, timeout, err)
		}
	}
	if c.NeedsDesktop() {
		if _, err := env.Desktop(nctx); err != nil {
			return step, rn.classify(ctx, nctx, env, timeout, err)
		}
	}
	verifier, verifies := node.(Verifier)
	var history []map[string]any
	for attempt := 1; attempt <= c.Spec.Attempts; attempt++ {
		attempts, env.Attempt = attempt, attempt
		runErr := node.Run(nctx, env)
		if runErr == nil && verifies {
			checks, runErr = verifier.Verify(nctx, env)
			if runErr == nil && !allPassed(checks) {
				runErr = errs.E(errs.VerificationFailed, "%s", failedSummary(c.Spec.Kind, checks))
			}
		}
		if runErr == nil {
			err = nil
			break
		}
		err = rn.classify(ctx, nctx, env, timeout, runErr)
		if attempt > 1 || c.Spec.Attempts > 1 {
			history = append(history, map[string]any{"attempt": attempt, "error": ErrorOf(err)})
		}
		if !retryable(err) || attempt == c.Spec.Attempts {
			break
		}
		select { // a short, growing pause lets late content appear before the next attempt
		case <-time.After(time.Duration(attempt) * 150 * time.Millisecond):
		case <-nctx.Done():
			err = rn.classify(ctx, nctx, env, timeout, nctx.Err())
			attempt = c.Spec.Attempts
		}
	}
	if len(history) > 0 {
		env.SetDetail("attempts", history)
	}
	return step, err
}

// classify turns a node error into the code the user should see: the run's own cancellation or
// time limit, the node's time limit, a crashed browser, or the node's error as it is.
func (rn *Runner) classify(runCtx, nodeCtx context.Context, env *Env, limit time.Duration, err error) error {
	switch {
	case errors.Is(context.Cause(runCtx), errBrowserCrashed) || (err != nil && env.crashed()):
		return crashError(env)
	case runCtx.Err() != nil:
		return errs.E(errs.Canceled, "stopped: %v", context.Cause(runCtx))
	case nodeCtx.Err() != nil:
		return errs.E(errs.Timeout, "node did not finish within its %s time limit", limit)
	}
	return err
}

// crashError is the error of a run whose browser went away. A session that knows better (the
// extension: its tab was closed, its connection dropped) supplies its own.
func crashError(env *Env) error {
	env.browser.mu.Lock()
	s := env.browser.session
	env.browser.mu.Unlock()
	if ce, ok := s.(interface{ CrashError() error }); ok {
		if err := ce.CrashError(); err != nil {
			return err
		}
	}
	return errs.E(errs.BrowserCrashed, "the browser running this run crashed; the pool replaces it, so a new run will work")
}

func retryable(err error) bool {
	switch errs.Code(err) {
	case errs.TargetNotFound, errs.VerificationFailed, errs.Internal:
		return true
	}
	return false
}

func allPassed(checks []Check) bool {
	for _, c := range checks {
		if !c.Passed {
			return false
		}
	}
	return true
}

func failedSummary(kind string, checks []Check) string {
	msg := kind + " had no verified effect:"
	for _, c := range checks {
		if !c.Passed {
			msg += " " + c.Name
			if c.Detail != "" {
				msg += " (" + c.Detail + ")"
			}
			msg += ";"
		}
	}
	return msg[:len(msg)-1]
}
