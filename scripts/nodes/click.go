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
	t           *target
	change      change
}

func init() {
	scripts.Register(scripts.Spec{
		Kind:     "click",
		Summary:  "Click the element an English description names, e.g. \"the button that says Submit\".",
		Category: "browser",
		Browser:  true,
		Attempts: 3,
		Timeout:  30 * time.Second,
		Params: []scripts.Param{
			{Name: "target", Type: scripts.String, Required: true, Template: true,
				Description: "the element, in English", Example: "the button that says Submit"},
			{Name: "browser_mode", Type: scripts.Bool, Default: true,
				Description: "click in the run's browser page (desktop clicks are the magic_clicker node's)", Example: true},
			{Name: "match", Type: scripts.Any,
				Description: "which of several equally good matches to click: \"first\", \"last\" or a 1-based number", Example: "first"},
		},
		Examples: []map[string]any{{"type": "click", "target": "the button that says Submit", "browser_mode": true}},
		Build: func(p *scripts.Params) (scripts.Node, error) {
			desc, err := p.String("target")
			if err != nil {
				return nil, err
			}
			match, err := matchParam(p)
			if err != nil {
				return nil, err
			}
			return &click{description: desc, match: match}, nil
		},
	})
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
	t, err := resolveTarget(ctx, env, n.description, semantic.IntentClick, n.match)
	if err != nil {
		return err
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
	if err := t.el.Context(clickCtx).Click(proto.InputMouseButtonLeft, 1); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if errors.Is(err, context.DeadlineExceeded) {
			return errs.E(errs.VerificationFailed, "%q (%s) could not be clicked: it stayed covered or not interactable for 5s", n.description, t.res.Element.Selector)
		}
		return fmt.Errorf("click %s: %w", t.res.Element.Selector, err)
	}
	n.change = obs.wait(ctx, effectWindow)
	return nil
}

func (n *click) Verify(ctx context.Context, env *scripts.Env) ([]scripts.Check, error) {
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
