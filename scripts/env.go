package scripts

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/rodeo-run/rodeo/errs"
)

// BrowserSession is one leased, isolated browser context (browser.Session satisfies it).
type BrowserSession interface {
	Page() *rod.Page
	Browser() *rod.Browser
	Crashed() bool
	Release()
}

// Leaser hands out browser sessions; the runner leases one on a run's first browser node.
type Leaser interface {
	Lease(ctx context.Context) (BrowserSession, error)
}

// LeaserFunc adapts a function to Leaser.
type LeaserFunc func(ctx context.Context) (BrowserSession, error)

// Lease calls f.
func (f LeaserFunc) Lease(ctx context.Context) (BrowserSession, error) { return f(ctx) }

// Env is what a node sees of its run: the variables, the browser, its step's detail and the
// run's events. One Env per run; the runner resets the per-step parts.
type Env struct {
	RunID   string
	Goal    string
	Account string
	Vars    *Vars
	Logger  *slog.Logger
	// Attempt is the 1-based attempt of the current node within its verification budget.
	Attempt int

	runner *Runner
	run    *Run
	// cancelRun stops the run with a cause; the crash watcher uses it.
	cancelRun context.CancelCauseFunc
	detail    map[string]any
	// callPath is the path of the node running now (sub-steps are recorded below it).
	callPath string
	browser  browserState
	desktop  desktopState
	// Held keys (keypress "shift"/"ctrl"/"alt") apply to the following key presses.
	Held map[string]bool

	counts struct {
		mu sync.Mutex
		m  map[string]int
	}
	// kept is what nodes remember from one step to a later one of the same run (Keep).
	kept map[string]any
}

// Keep remembers a value for the later steps of the run under a key of the caller's (the page
// as the last action found it, for the semantic engine). A nil value forgets the key.
func (e *Env) Keep(key string, val any) {
	if val == nil {
		delete(e.kept, key)
		return
	}
	if e.kept == nil {
		e.kept = map[string]any{}
	}
	e.kept[key] = val
}

// Kept is the value Keep remembered under key, nil for none.
func (e *Env) Kept(key string) any { return e.kept[key] }

type browserState struct {
	mu      sync.Mutex
	session BrowserSession
	page    *rod.Page
	used    bool // the warm blank page has been navigated by an "open tab"
	// stopWatch ends the crash watcher when the session is released.
	stopWatch chan struct{}
	// profileTried is set once the run's browser profile was looked at; profile is the name
	// of the profile loaded into the session, saved back at release (profile.go).
	profileTried bool
	profile      string
}

// SetDetail records a value in the current step's detail (e.g. "resolved").
func (e *Env) SetDetail(key string, val any) {
	if e.detail == nil {
		e.detail = map[string]any{}
	}
	e.detail[key] = val
}

// Detail returns a value set by SetDetail in the current step.
func (e *Env) Detail(key string) any { return e.detail[key] }

// Emit publishes a message event on the run (print output, notifications).
func (e *Env) Emit(kind, message string) {
	if e.run != nil {
		e.run.publish(Event{Type: kind, RunID: e.RunID, Message: message})
	}
}

// session leases the run's browser session on first use.
func (e *Env) session(ctx context.Context) (BrowserSession, error) {
	e.browser.mu.Lock()
	defer e.browser.mu.Unlock()
	if e.browser.session == nil {
		if e.runner == nil || e.runner.Browsers == nil {
			return nil, errs.E(errs.BrowserUnavailable, "this run has no browser: the server was started without one")
		}
		s, err := e.runner.Browsers.Lease(ctx)
		if err != nil {
			return nil, err
		}
		e.adopt(s)
	}
	if err := e.loadProfile(ctx); err != nil {
		return nil, err
	}
	return e.browser.session, nil
}

// adopt makes s the run's session and, when s can tell that its browser died, stops the run at
// once with errBrowserCrashed (a run sleeping in a delay would otherwise find out much later).
func (e *Env) adopt(s BrowserSession) {
	e.browser.session = s
	e.browser.page = s.Page()
	e.showPage(e.browser.page)
	d, ok := s.(interface{ Done() <-chan struct{} })
	if !ok || e.cancelRun == nil {
		return
	}
	stop := make(chan struct{})
	e.browser.stopWatch = stop
	go func() {
		select {
		case <-d.Done():
			e.cancelRun(errBrowserCrashed)
		case <-stop:
		}
	}()
}

// Page returns the run's current tab, leasing a browser session on first use.
func (e *Env) Page(ctx context.Context) (*rod.Page, error) {
	if _, err := e.session(ctx); err != nil {
		return nil, err
	}
	e.browser.mu.Lock()
	defer e.browser.mu.Unlock()
	return e.browser.page.Context(ctx), nil
}

// NewTab returns a tab for "open tab": the session's warm blank page the first time (it costs
// nothing), afterwards a new page in the same isolated context, which becomes current.
func (e *Env) NewTab(ctx context.Context) (*rod.Page, error) {
	s, err := e.session(ctx)
	if err != nil {
		return nil, err
	}
	e.browser.mu.Lock()
	defer e.browser.mu.Unlock()
	if !e.browser.used {
		e.browser.used = true
		return e.browser.page.Context(ctx), nil
	}
	var p *rod.Page
	if np, ok := s.(interface {
		NewPage(context.Context) (*rod.Page, error)
	}); ok {
		p, err = np.NewPage(ctx) // the pool's pages carry its stealth set-up
	} else {
		p, err = s.Browser().Page(proto.TargetCreateTarget{URL: "about:blank"})
	}
	if err != nil {
		return nil, fmt.Errorf("new tab: %w", err)
	}
	e.browser.page = p
	e.showPage(p)
	return p.Context(ctx), nil
}

// showPage tells the run's watchers which tab is current (nil: none any more).
func (e *Env) showPage(p *rod.Page) {
	if e.run != nil {
		e.run.setPage(p)
	}
}

// crashed reports whether the run's browser died.
func (e *Env) crashed() bool {
	e.browser.mu.Lock()
	defer e.browser.mu.Unlock()
	return e.browser.session != nil && e.browser.session.Crashed()
}

// release gives the browser session back to the pool.
func (e *Env) release() {
	e.browser.mu.Lock()
	defer e.browser.mu.Unlock()
	if e.browser.stopWatch != nil {
		close(e.browser.stopWatch)
		e.browser.stopWatch = nil
	}
	if e.browser.session != nil {
		e.saveProfile()
		e.showPage(nil) // before the release: a watcher must let go of a tab about to close
		e.browser.session.Release()
		e.browser.session = nil
		e.browser.page = nil
	}
}

// HasBrowser reports whether a session is leased (nodes that only read the page use it).
func (e *Env) HasBrowser() bool {
	e.browser.mu.Lock()
	defer e.browser.mu.Unlock()
	return e.browser.session != nil
}

// RunList runs child nodes in order (control flow); it stops at the first failure unless that
// node says continue_on_error, and returns that failure.
// The calling node's own step state (its detail and attempt) is kept: the children's steps
// record their own, and the caller's detail goes on after they ran.
func (e *Env) RunList(ctx context.Context, calls []*Call) error {
	detail, attempt, caller := e.detail, e.Attempt, e.callPath
	defer func() { e.detail, e.Attempt, e.callPath = detail, attempt, caller }()
	return e.runner.runList(ctx, e, calls)
}
