package nodes

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/semantic"
)

// effectWindow is how long a click or key press may take to show an effect. Most effects are
// synchronous and seen at the first reading; this bounds the wait for one that is not.
const effectWindow = 1500 * time.Millisecond

// click clicks the element an English description names and verifies that something a user
// could notice changed (DOM, URL, focus, form state, a request). A click that changed nothing
// fails; the runner retries it with a fresh resolution within the kind's budget.
type click struct {
	description string
	match       string
	// button and count make the click type (right click, double click); the zero values are a
	// single left click.
	button proto.InputMouseButton
	count  int
	// desk, when set, makes this a desktop click at its point (browser_mode false).
	desk   *desktopClick
	t      *target
	change change
	// clicked is set once this attempt's click went through; tried holds the selectors of
	// elements clicked without effect, so that a retry clicks the best untried candidate.
	clicked bool
	tried   []string
	// pinned is an element chosen already (the general node's click on an observation id):
	// it is clicked as it is, with no resolution and no runner-up.
	pinned *target
}

func init() {
	scripts.Register(scripts.Spec{
		Kind:        "click",
		Summary:     "Click the element an English description names, e.g. \"the button that says Submit\".",
		Category:    "browser",
		Browser:     true,
		Uses:        desktopWhenBrowserModeFalse,
		DesktopWhen: "browser_mode is false",
		Attempts:    3,
		Timeout:     30 * time.Second,
		Params: []scripts.Param{
			{Name: "target", Type: scripts.String, Template: true,
				Description: "the element, in English (required in the browser)", Example: "the button that says Submit"},
			{Name: "browser_mode", Type: scripts.Bool, Default: true,
				Description: "true: click in the run's browser page; false: a desktop click at x/y on the X display", Example: true},
			{Name: "match", Type: scripts.Any,
				Description: "which of several equally good matches to click: \"first\", \"last\" or a 1-based number", Example: "first"},
			paramClickType,
			withDesc(paramX, "with browser_mode false: the X coordinate of the desktop click"),
			withDesc(paramY, "with browser_mode false: the Y coordinate of the desktop click"),
		},
		Examples: []map[string]any{
			{"type": "click", "target": "the button that says Submit", "browser_mode": true},
			{"type": "click", "browser_mode": false, "x": 640, "y": 400},
		},
		Build:    buildClick,
		Validate: validateByBuilding(buildClick),
	})
}

// withDesc returns p with another description.
func withDesc(p scripts.Param, desc string) scripts.Param {
	p.Description = desc
	return p
}

func buildClick(p *scripts.Params) (scripts.Node, error) {
	desc, err := p.String("target")
	if err != nil {
		return nil, err
	}
	match, err := matchParam(p)
	if err != nil {
		return nil, err
	}
	kind, err := clickTypeParam(p)
	if err != nil {
		return nil, err
	}
	inBrowser, err := p.Bool("browser_mode")
	if err != nil {
		return nil, err
	}
	if !inBrowser {
		at, ok, err := pointParam(p, "x", "y")
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, errInvalid("a click with browser_mode false is a desktop click: give its x and y (pixels); an English target is clicked only in the browser")
		}
		if kind == clickDrag {
			return nil, errInvalid("click_type Drag on the desktop needs to_x/to_y: use magic_clicker")
		}
		return &click{desk: &desktopClick{at: at, kind: kind}}, nil
	}
	if strings.TrimSpace(desc) == "" {
		return nil, &errs.Error{Code: errs.InvalidConfig, Message: "click needs a target",
			Details: []errs.Detail{{Field: "target", Problem: "is required (string): the element, in English (or browser_mode false with x/y for a desktop click)"}}}
	}
	if kind == clickDrag {
		return nil, errInvalid("click_type Drag needs a drop target: use magic_clicker with drop_target")
	}
	c := &click{description: desc, match: match}
	c.button, c.count = browserButton(kind)
	return c, nil
}

// browserButton is the CDP button and click count of a click type.
func browserButton(kind string) (proto.InputMouseButton, int) {
	switch kind {
	case clickSingleRight:
		return proto.InputMouseButtonRight, 1
	case clickDouble:
		return proto.InputMouseButtonLeft, 2
	}
	return proto.InputMouseButtonLeft, 1
}

// matchParam reads the First/Last choice: "first", "last" or a positive number.
func matchParam(p *scripts.Params) (string, error) {
	if !p.Has("match") {
		return "", nil
	}
	m, err := p.String("match")
	if err != nil {
		return "", err
	}
	m = strings.ToLower(strings.TrimSpace(m))
	if m == "" || m == "first" || m == "last" {
		return m, nil
	}
	if n, err := strconv.Atoi(m); err == nil && n > 0 {
		return m, nil
	}
	return "", errInvalid("match: must be \"first\", \"last\" or a positive number, not %q", m)
}

func (n *click) Run(ctx context.Context, env *scripts.Env) error {
	if n.desk != nil {
		return n.desk.run(ctx, env)
	}
	if env.Attempt > 1 && n.clicked && n.t != nil && !n.change.any() {
		// The last click changed nothing: that element is not it (a label beside the real
		// control, a look-alike). Forget it, and click the best candidate not tried yet.
		n.tried = append(n.tried, n.t.res.Element.Selector)
		n.t.eng.Forget(n.t.snap, n.t.q)
	}
	n.clicked, n.change = false, change{}
	t, err := n.pinned, error(nil)
	if t == nil {
		t, err = resolveTarget(ctx, env, n.description, semantic.IntentClick, n.match)
	}
	if err != nil {
		return err
	}
	if len(n.tried) > 0 && n.pinned == nil {
		if t, err = n.runnerUp(ctx, env, t); err != nil {
			return err
		}
	}
	n.t = t
	obs, err := observe(ctx, t.page)
	if err != nil {
		return err
	}
	// rod waits for the element to be interactable; a covered element (a modal on top) would make
	// it wait for the whole node budget, so bound it.
	clickCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if n.button == "" {
		n.button, n.count = proto.InputMouseButtonLeft, 1
	}
	if err := t.el.Context(clickCtx).Click(n.button, n.count); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if errors.Is(err, context.DeadlineExceeded) {
			return errs.E(errs.VerificationFailed, "%q (%s) could not be clicked: it stayed covered or not interactable for 5s", n.description, t.res.Element.Selector)
		}
		return fmt.Errorf("click %s: %w", t.res.Element.Selector, err)
	}
	n.clicked = true
	n.change = obs.wait(ctx, effectWindow)
	return nil
}

// runnerUpMargin is how far below the best a runner-up may score and still be clicked after the
// best changed nothing: "Continue" beside "Continue to payment" yes, "Save changes" for "the Do
// nothing button" no.
const runnerUpMargin = 0.35

// runnerUp swaps t's element for the best candidate not clicked yet when t's element was
// already clicked without effect: eligible, not nested in or around a tried element, and scoring
// within runnerUpMargin of the best. With none, t stands (the page may simply have been slow).
func (n *click) runnerUp(ctx context.Context, env *scripts.Env, t *target) (*target, error) {
	if !n.wasTried(t.snap, t.res.Element.ID) {
		return t, nil
	}
	cands := semantic.Rank(t.snap, t.q)
	if len(cands) == 0 {
		return t, nil
	}
	top := cands[0].Score
	for _, c := range cands {
		e := c.Element
		if c.Score < top-runnerUpMargin || c.Score <= 0 {
			break // not a plausible reading of the description: clicking it would be a guess
		}
		if !e.Visible || !e.Enabled || n.wasTried(t.snap, e.ID) {
			continue
		}
		el, err := t.snap.Handle(ctx, t.page, e.ID)
		if err != nil {
			return nil, err
		}
		res := t.res
		res.Element, res.Why = e, fmt.Sprintf("runner-up (score %.2f) after a click on %s changed nothing; %s", c.Score, n.tried[len(n.tried)-1], c.Why)
		env.SetDetail("resolved", resolvedDetail(res))
		env.SetDetail("runner_up", map[string]any{"selector": e.Selector, "tried": append([]string(nil), n.tried...)})
		return &target{el: el, page: t.page, res: res, snap: t.snap, eng: t.eng, q: t.q}, nil
	}
	return t, nil
}

// wasTried reports whether element id of s is, contains or sits in an element already clicked
// without effect.
func (n *click) wasTried(s *semantic.Snapshot, id int) bool {
	for _, sel := range n.tried {
		for j := range s.Elements {
			if s.Elements[j].Selector == sel && (j == id || s.Related(j, id)) {
				return true
			}
		}
	}
	return false
}

func (n *click) Verify(ctx context.Context, env *scripts.Env) ([]scripts.Check, error) {
	if n.desk != nil {
		return n.desk.verify(), nil
	}
	e := n.t.res.Element
	checks := []scripts.Check{
		{Name: "target_visible", Passed: e.Visible, Detail: fmt.Sprintf("%s at %.0f,%.0f %.0fx%.0f", e.Selector, e.Box.X, e.Box.Y, e.Box.W, e.Box.H)},
		{Name: "target_enabled", Passed: e.Enabled},
	}
	for _, c := range n.change.checks(effectWindow) {
		checks = append(checks, scripts.Check{Name: c.name, Passed: c.passed, Detail: c.detail})
	}
	return checks, nil
}

var _ scripts.Verifier = (*click)(nil)
