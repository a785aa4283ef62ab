package nodes

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/rodeo-run/rodeo/desktop"
	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/semantic"
)

// magicClicker is the studio's Magic Clicker: a click of a chosen type, on the desktop at x/y
// (mode desktop) or in the browser on an element described in English (mode browser), repeated
// loop_total_runs times or as often as another node has run. Every click is verified: on the
// desktop by a change on screen around the point or a focus move, in the browser as click's.
type magicClicker struct {
	mode     string
	kind     string
	at, to   desktop.Point
	target   string
	drop     string
	match    string
	variable string
	total    int
	nodeRuns string

	clicks []scripts.Node
}

const (
	modeDesktop = "desktop"
	modeBrowser = "browser"
	maxClicks   = 1000
)

func init() {
	scripts.Register(scripts.Spec{
		Kind:        "magic_clicker",
		Aliases:     []string{"Magic Clicker"},
		Summary:     "Click on the desktop at x/y or in the browser on an English target: single left, single right, double click or drag.",
		Category:    "desktop",
		Uses:        magicClickerUses,
		DesktopWhen: "mode is desktop",
		Attempts:    3,
		Timeout:     60 * time.Second,
		Params: []scripts.Param{
			{Name: "mode", Type: scripts.String, Enum: []string{"desktop", "browser", "Desktop", "Browser"},
				Description: "Mode: desktop clicks at x/y on the X display, browser clicks the target in English in the run's page; default desktop when x/y are given, else browser", Example: "desktop"},
			paramX, paramY, paramClickType,
			{Name: "to_x", Type: scripts.Number, Min: scripts.F(0), Description: "Drag on the desktop: where the drag ends (X)", Example: 900},
			{Name: "to_y", Type: scripts.Number, Min: scripts.F(0), Description: "Drag on the desktop: where the drag ends (Y)", Example: 500},
			{Name: "target", Type: scripts.String, Template: true, Description: "Target In English: the element to click in browser mode", Example: "the button that says Submit"},
			{Name: "drop_target", Type: scripts.String, Template: true, Description: "Drag in browser mode: the element to drop on, in English", Example: "the Done column"},
			{Name: "match", Type: scripts.Any, Description: "First/Last: which of several equal matches to click in browser mode (\"first\", \"last\" or a number)", Example: "last"},
			{Name: "automation_input", Type: scripts.String,
				Description: "a variable whose value is the target (browser mode) or \"x,y\" (desktop mode), e.g. phone_transcript, email_transcript or sms_transcript that a trigger filled", Example: "sms_transcript"},
			{Name: "loop_total_runs", Type: scripts.Number, Min: scripts.F(1), Max: scripts.F(maxClicks), Description: "Loop Total Runs: click this many times, each verified", Example: 3},
			{Name: "loop_node_runs", Type: scripts.String, Description: "Loop Node Runs: click as many times as the node with this `id` (or path) has run so far", Example: "next_page"},
		},
		Examples: []map[string]any{
			{"type": "magic_clicker", "mode": "desktop", "x": 640, "y": 400, "click_type": "Double Click"},
			{"type": "magic_clicker", "mode": "desktop", "x": 140, "y": 440, "to_x": 440, "to_y": 540, "click_type": "Drag"},
			{"type": "magic_clicker", "mode": "browser", "target": "the Save button", "click_type": "Single Right Click", "match": "last"},
		},
		Build:    buildMagicClicker,
		Validate: validateByBuilding(buildMagicClicker),
	})
}

// magicClickerUses: desktop mode (explicit, or x/y without a target) needs the desktop, browser
// mode the browser; with only automation_input the mode is decided at run time.
func magicClickerUses(raw map[string]any) (bool, bool) {
	switch mode, _ := raw["mode"].(string); strings.ToLower(mode) {
	case modeDesktop:
		return false, true
	case modeBrowser:
		return true, false
	}
	_, hasX := raw["x"]
	_, hasTarget := raw["target"]
	if hasX && !hasTarget {
		return false, true
	}
	return hasTarget, false
}

func buildMagicClicker(p *scripts.Params) (scripts.Node, error) {
	n := &magicClicker{total: 1}
	var err error
	vals, err := p.Texts("mode", "target", "drop_target", "automation_input", "loop_node_runs")
	if err != nil {
		return nil, err
	}
	n.mode, n.target, n.drop, n.variable, n.nodeRuns = strings.ToLower(vals[0]), vals[1], vals[2], vals[3], strings.TrimSpace(vals[4])
	if n.kind, err = clickTypeParam(p); err != nil {
		return nil, err
	}
	if n.match, err = matchParam(p); err != nil {
		return nil, err
	}
	at, hasAt, err := pointParam(p, "x", "y")
	if err != nil {
		return nil, err
	}
	to, hasTo, err := pointParam(p, "to_x", "to_y")
	if err != nil {
		return nil, err
	}
	n.at, n.to = at, to
	if n.mode == "" {
		n.mode = modeBrowser
		if hasAt && n.target == "" {
			n.mode = modeDesktop
		}
	}
	if p.Has("loop_total_runs") {
		f, err := p.Number("loop_total_runs")
		if err != nil {
			return nil, err
		}
		if f != float64(int(f)) || f < 1 || f > maxClicks {
			return nil, errInvalid("loop_total_runs: a whole number from 1 to %d", maxClicks)
		}
		n.total = int(f)
	}
	if n.nodeRuns != "" && p.Has("loop_total_runs") {
		return nil, errInvalid("give loop_total_runs or loop_node_runs, not both")
	}
	switch {
	case n.mode == modeDesktop && !hasAt && n.variable == "":
		return nil, errInvalid("mode desktop clicks at x/y: give x and y (pixels), or automation_input naming a variable that holds \"x,y\"")
	case n.mode == modeDesktop && n.kind == clickDrag && !hasTo:
		return nil, errInvalid("a desktop Drag needs to_x and to_y: where the drag ends")
	case n.mode == modeBrowser && n.target == "" && n.variable == "":
		return nil, errInvalid("mode browser clicks an element: give target (in English) or automation_input")
	case n.mode == modeBrowser && n.kind == clickDrag && n.drop == "":
		return nil, errInvalid("a browser Drag needs drop_target: the element to drop on, in English")
	}
	return n, nil
}

// plan works out the clicks of this run: the repeat count and, from automation_input, the
// point or the target.
func (n *magicClicker) plan(env *scripts.Env) error {
	count := n.total
	if n.nodeRuns != "" {
		count = env.NodeRuns(n.nodeRuns)
		if count > maxClicks {
			return errInvalid("loop_node_runs: %s ran %d times; at most %d clicks", n.nodeRuns, count, maxClicks)
		}
	}
	at, target := n.at, n.target
	if n.variable != "" {
		v, ok := env.Vars.Get(n.variable)
		if !ok {
			return errs.E(errs.VariableNotSet, "automation_input: variable %s is not set", n.variable)
		}
		text := strings.TrimSpace(scripts.Text(v))
		if n.mode == modeDesktop {
			p, ok := parsePoint(text)
			if !ok {
				return errInvalid("automation_input: %s holds %q; desktop mode needs \"x,y\" pixels", n.variable, truncateText(text, 40))
			}
			at = p
		} else {
			target = text
		}
	}
	n.clicks = n.clicks[:0]
	for i := 0; i < count; i++ {
		if n.mode == modeDesktop {
			n.clicks = append(n.clicks, &click{desk: &desktopClick{at: at, to: n.to, kind: n.kind}})
			continue
		}
		if n.kind == clickDrag {
			n.clicks = append(n.clicks, &browserDrag{from: target, to: n.drop, match: n.match})
			continue
		}
		c := &click{description: target, match: n.match}
		c.button, c.count = browserButton(n.kind)
		n.clicks = append(n.clicks, c)
	}
	env.SetDetail("mode", n.mode)
	env.SetDetail("clicks", count)
	return nil
}

// parsePoint reads "x,y" (spaces allowed).
func parsePoint(s string) (desktop.Point, bool) {
	xs, ys, ok := strings.Cut(s, ",")
	x, err1 := strconv.Atoi(strings.TrimSpace(xs))
	y, err2 := strconv.Atoi(strings.TrimSpace(ys))
	if !ok || err1 != nil || err2 != nil || x < 0 || y < 0 {
		return desktop.Point{}, false
	}
	return desktop.Point{X: x, Y: y}, true
}

func (n *magicClicker) Run(ctx context.Context, env *scripts.Env) error {
	if err := n.plan(env); err != nil {
		return err
	}
	for i, c := range n.clicks {
		if err := c.Run(ctx, env); err != nil {
			return err
		}
		if i < len(n.clicks)-1 { // each click but the last is verified here, the last by Verify
			checks, err := c.(scripts.Verifier).Verify(ctx, env)
			if err != nil {
				return err
			}
			for _, ch := range checks {
				if !ch.Passed {
					return errs.E(errs.VerificationFailed, "click %d of %d had no verified effect: %s (%s)", i+1, len(n.clicks), ch.Name, ch.Detail)
				}
			}
		}
	}
	return nil
}

func (n *magicClicker) Verify(ctx context.Context, env *scripts.Env) ([]scripts.Check, error) {
	if len(n.clicks) == 0 {
		return []scripts.Check{{Name: "clicked", Passed: true, Detail: "no clicks planned (loop_node_runs: the node has not run)"}}, nil
	}
	return n.clicks[len(n.clicks)-1].(scripts.Verifier).Verify(ctx, env)
}

// browserDrag drags the element from describes onto the one to describes with real mouse
// events, verified by the page's change as a click is.
type browserDrag struct {
	from, to, match string
	change          change
}

func (n *browserDrag) Run(ctx context.Context, env *scripts.Env) error {
	src, err := resolveTarget(ctx, env, n.from, semantic.IntentClick, n.match)
	if err != nil {
		return err
	}
	// The drop target is a place (a column, a bin, a folder), not a control: resolved as one to
	// click, a region named "Done column" loses to anything clickable and is refused as weak.
	dst, err := resolveTarget(ctx, env, n.to, semantic.IntentAny, "")
	if err != nil {
		return err
	}
	// Mouse events land in the viewport: bring the drop target, then the source, into view and
	// read where they are now (both must be visible at once; a drop target off screen fails).
	from, err := viewportCenter(ctx, dst)
	if err == nil {
		from, err = viewportCenter(ctx, src)
	}
	if err != nil {
		return err
	}
	to, err := viewportCenter(ctx, dst)
	if err != nil {
		return err
	}
	obs, err := observe(ctx, src.page)
	if err != nil {
		return err
	}
	m := src.page.Mouse
	if err := m.MoveTo(from); err != nil {
		return fmt.Errorf("drag: %w", err)
	}
	if err := m.Down(proto.InputMouseButtonLeft, 1); err != nil {
		return fmt.Errorf("drag: %w", err)
	}
	err = m.MoveLinear(to, 12)
	if uerr := m.Up(proto.InputMouseButtonLeft, 1); err == nil {
		err = uerr
	}
	if err != nil {
		return fmt.Errorf("drag: %w", err)
	}
	env.SetDetail("drag", map[string]string{"from": src.res.Element.Selector, "to": dst.res.Element.Selector})
	n.change = obs.wait(ctx, effectWindow)
	return nil
}

// viewportCenter scrolls t's element into view and returns its centre in viewport pixels.
func viewportCenter(ctx context.Context, t *target) (proto.Point, error) {
	el := t.el.Context(ctx)
	if err := el.ScrollIntoView(); err != nil {
		return proto.Point{}, fmt.Errorf("drag: scroll %s into view: %w", t.res.Element.Selector, err)
	}
	shape, err := el.Shape()
	if err != nil || shape.Box() == nil {
		return proto.Point{}, errs.E(errs.TargetNotFound, "drag: %s has no box on the page", t.res.Element.Selector)
	}
	b := shape.Box()
	return proto.Point{X: b.X + b.Width/2, Y: b.Y + b.Height/2}, nil
}

func (n *browserDrag) Verify(ctx context.Context, env *scripts.Env) ([]scripts.Check, error) {
	var checks []scripts.Check
	for _, c := range n.change.checks(effectWindow) {
		checks = append(checks, scripts.Check{Name: c.name, Passed: c.passed, Detail: c.detail})
	}
	return checks, nil
}

var (
	_ scripts.Verifier = (*magicClicker)(nil)
	_ scripts.Verifier = (*browserDrag)(nil)
)
