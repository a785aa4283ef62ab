package scripts

import (
	"context"
	"sync"

	"github.com/rodeo-run/rodeo/errs"
)

// DesktopSession is one run's hold on the X display (desktop.Session satisfies it). Nodes reach
// its input, screen and programs by asserting to the desktop package's type; the runner only
// needs to give it back.
type DesktopSession interface {
	Release()
}

// DesktopLeaser hands out the desktop; the runner leases it on a run's first desktop node and
// releases it when the run ends (which stops the programs the run started).
type DesktopLeaser interface {
	LeaseDesktop(ctx context.Context) (DesktopSession, error)
}

// DesktopLeaserFunc adapts a function to DesktopLeaser.
type DesktopLeaserFunc func(ctx context.Context) (DesktopSession, error)

// LeaseDesktop calls f.
func (f DesktopLeaserFunc) LeaseDesktop(ctx context.Context) (DesktopSession, error) { return f(ctx) }

type desktopState struct {
	mu      sync.Mutex
	session DesktopSession
}

// NeedsBrowser reports whether the node needs a browser page before it runs.
func (c *Call) NeedsBrowser() bool {
	if c.Spec.Uses != nil {
		b, _ := c.Spec.Uses(c.Raw)
		return b
	}
	return c.Spec.Browser
}

// NeedsDesktop reports whether the node drives the desktop.
func (c *Call) NeedsDesktop() bool {
	if c.Spec.Uses != nil {
		_, d := c.Spec.Uses(c.Raw)
		return d
	}
	return c.Spec.Desktop
}

// NeedsDesktop reports whether any node (children included) drives the desktop.
func NeedsDesktop(calls []*Call) bool {
	for _, c := range calls {
		if c.NeedsDesktop() {
			return true
		}
		for _, kids := range c.Children {
			if NeedsDesktop(kids) {
				return true
			}
		}
	}
	return false
}

// DesktopKinds lists the kinds that need an X display, always or with some params (for the
// start-up message of a server without one).
func (r *Registry) DesktopKinds() []string {
	var out []string
	for _, s := range r.All() {
		if s.Desktop || s.DesktopWhen != "" {
			out = append(out, s.Kind)
		}
	}
	return out
}

// Desktop returns the run's desktop session, leasing it on first use. It waits while another
// run holds the display, within ctx.
func (e *Env) Desktop(ctx context.Context) (DesktopSession, error) {
	e.desktop.mu.Lock()
	defer e.desktop.mu.Unlock()
	if e.desktop.session != nil {
		return e.desktop.session, nil
	}
	if e.runner == nil || e.runner.Desktops == nil {
		return nil, errs.E(errs.DesktopUnavailable, "this server has no X display: start it with DISPLAY or --display set to run desktop nodes")
	}
	s, err := e.runner.Desktops.LeaseDesktop(ctx)
	if err != nil {
		return nil, err
	}
	e.desktop.session = s
	return s, nil
}

// HasDesktop reports whether the runner can lease a desktop at all (a display is configured).
func (e *Env) HasDesktop() bool { return e.runner != nil && e.runner.Desktops != nil }

// CanBrowse reports whether the run has or can lease a browser page.
func (e *Env) CanBrowse() bool {
	return e.HasBrowser() || (e.runner != nil && e.runner.Browsers != nil)
}

// releaseDesktop gives the desktop back at the run's end.
func (e *Env) releaseDesktop() {
	e.desktop.mu.Lock()
	defer e.desktop.mu.Unlock()
	if e.desktop.session != nil {
		e.desktop.session.Release()
		e.desktop.session = nil
	}
}
