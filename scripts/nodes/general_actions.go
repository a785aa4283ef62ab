package nodes

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/go-rod/rod"
	"github.com/rodeo-run/rodeo/agent"
	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/semantic"
)

// scrollStep is how far scroll(direction) moves: most of a viewport, so that what was at the
// bottom stays in sight.
const scrollStep = 600

// pageActor runs the general node's actions as sub-steps through the other nodes' code.
type pageActor struct {
	env  *scripts.Env
	node *general
}

func (p *pageActor) Observe(ctx context.Context) (*semantic.Snapshot, error) {
	page, err := p.env.Page(ctx)
	if err != nil {
		return nil, err
	}
	return semantic.Snap(ctx, page)
}

// Act runs one action. What went wrong on the page (a gone element, no effect, a bad URL) is
// the model's to hear; only the run's end (canceled, time up, the browser gone) stops the loop.
func (p *pageActor) Act(ctx context.Context, a agent.Act) agent.Outcome {
	name := fmt.Sprintf("general.%d", a.Step)
	detail := map[string]any{"tool": a.Action.Tool, "action": a.Action.String(), "agent_step": a.Step,
		"tokens": map[string]int{"prompt": a.Tokens.Prompt, "completion": a.Tokens.Completion}}
	if a.Action.Reason != "" {
		detail["reason"] = a.Action.Reason
	}
	sub := func(kind string, node scripts.Node) agent.Outcome {
		st, err := p.env.RunStep(ctx, scripts.SubStep{Name: name, Kind: kind, Node: node, Detail: detail})
		return p.outcome(ctx, st, err)
	}
	switch a.Action.Tool {
	case agent.ToolClick:
		t, out := p.pin(ctx, a)
		if t == nil {
			return out
		}
		return sub("click", &click{description: a.Action.String(), pinned: t})
	case agent.ToolType:
		return p.typeInto(ctx, a, sub)
	case agent.ToolSelect:
		if a.Element.Tag != "select" {
			return agent.Outcome{Effect: fmt.Sprintf("[%d] is a %s, not a select: click it, then click the option", a.Action.ID, a.Element.Role)}
		}
		t, out := p.pin(ctx, a)
		if t == nil {
			return out
		}
		return sub("select", &selectOption{el: t.el, page: t.page, option: a.Action.Option})
	case agent.ToolPress:
		k := &keypress{prompt: a.Action.Key}
		if err := k.plan(p.env); err != nil || k.label == "text" {
			return agent.Outcome{Effect: fmt.Sprintf("%q is not a key: press takes enter, tab, escape, backspace, arrow keys, page keys or a combo like ctrl+a; type writes text", a.Action.Key)}
		}
		return sub("keypress", k)
	case agent.ToolScroll:
		d := float64(scrollStep)
		if a.Action.Direction == "up" {
			d = -d
		}
		return sub("scroll", &scroll{distance: d})
	case agent.ToolNavigate:
		u, err := normalizeURL(relativeTo(a.Snap.URL, a.Action.URL))
		if err != nil {
			return agent.Outcome{Effect: errText(err)}
		}
		return sub("open tab", &openTab{url: u, sameTab: true})
	case agent.ToolExtract:
		out := sub("semanticScrape", &semanticScrape{description: a.Action.Description, variable: p.node.variable})
		if out.OK {
			out.Value, _ = p.env.Vars.Get(p.node.variable)
		}
		return out
	case agent.ToolWait:
		return sub("delay", &delay{d: time.Duration(a.Action.Seconds * float64(time.Second))})
	}
	return agent.Outcome{Effect: "unknown action " + a.Action.Tool}
}

// pin fetches the live element an observation id names. A gone element is an outcome, not an
// error: the page moved on since the observation, and the model should look again.
func (p *pageActor) pin(ctx context.Context, a agent.Act) (*target, agent.Outcome) {
	page, err := p.env.Page(ctx)
	if err != nil {
		return nil, p.outcome(ctx, scripts.Step{}, err)
	}
	el, err := a.Snap.Handle(ctx, page, a.Action.ID)
	if err != nil {
		if ctx.Err() != nil {
			return nil, agent.Outcome{Fatal: ctx.Err()}
		}
		return nil, agent.Outcome{Effect: fmt.Sprintf("[%d] is no longer on the page: look again", a.Action.ID)}
	}
	res := semantic.Resolution{Element: *a.Element, Confidence: 1, By: "agent", Why: "the model chose [" + fmt.Sprint(a.Action.ID) + "]"}
	p.env.SetDetail("last_target", a.Element.Selector)
	return &target{el: el, page: page, res: res, snap: a.Snap}, agent.Outcome{}
}

// typeInto focuses the field, selects what it holds so that typing replaces it, types the text
// with the keypress node's code (verified in the field's value) and, with submit, presses Enter
// as a second sub-step.
func (p *pageActor) typeInto(ctx context.Context, a agent.Act, sub func(string, scripts.Node) agent.Outcome) agent.Outcome {
	t, out := p.pin(ctx, a)
	if t == nil {
		return out
	}
	if !a.Element.Editable && a.Element.Role != "combobox" {
		return agent.Outcome{Effect: fmt.Sprintf("[%d] is a %s, not a field: type needs a textbox", a.Action.ID, a.Element.Role)}
	}
	if err := t.el.Focus(); err != nil {
		return agent.Outcome{Effect: fmt.Sprintf("[%d] could not be focused: %v", a.Action.ID, err)}
	}
	_, _ = t.el.Eval(`function () {
		if (typeof this.select === 'function') this.select();
		else if (this.isContentEditable) document.getSelection().selectAllChildren(this);
	}`)
	k := &keypress{prompt: a.Action.Text, text: a.Action.Text, literal: true}
	if a.Action.Text == "" {
		k = &keypress{prompt: "backspace"} // the selection goes: the field is cleared
	}
	out = sub("keypress", k)
	if !out.OK || !a.Action.Submit || out.Fatal != nil {
		return out
	}
	st, err := p.env.RunStep(ctx, scripts.SubStep{Name: fmt.Sprintf("general.%d.submit", a.Step), Kind: "keypress",
		Node: &keypress{prompt: "enter"}, Detail: map[string]any{"tool": agent.ToolType, "action": "press \"enter\" (submit)", "agent_step": a.Step}})
	sub2 := p.outcome(ctx, st, err)
	sub2.Effect = "typed; then enter: " + sub2.Effect
	return sub2
}

// outcome reads a sub-step as the model is told it: what its checks saw, or its error.
func (p *pageActor) outcome(ctx context.Context, st scripts.Step, err error) agent.Outcome {
	p.count(st)
	if ctx.Err() != nil || errs.Is(err, errs.Canceled) || errs.Is(err, errs.BrowserCrashed) || errs.Is(err, errs.BrowserUnavailable) {
		if err == nil {
			err = ctx.Err()
		}
		return agent.Outcome{Fatal: err}
	}
	var seen []string
	if st.Verification != nil {
		for _, c := range st.Verification.Checks {
			if c.Passed == (err == nil) && !strings.HasPrefix(c.Name, "target_") { // the target's state is no effect
				s := c.Name
				if c.Detail != "" && len(c.Detail) <= 60 {
					s += " (" + c.Detail + ")"
				}
				seen = append(seen, s)
			}
		}
	}
	if err != nil {
		msg := errText(err)
		if errs.Is(err, errs.VerificationFailed) {
			msg = "no effect: the action changed nothing on the page"
			if len(seen) > 0 {
				msg += " (" + strings.Join(seen, "; ") + ")"
			}
		}
		return agent.Outcome{Effect: msg}
	}
	return agent.Outcome{OK: true, Effect: strings.Join(seen, "; ")}
}

// count tallies a sub-step for the node's detail.
func (p *pageActor) count(st scripts.Step) {
	if st.Type == "" {
		return
	}
	p.node.actions++
	if st.Status == scripts.StepOK {
		p.node.passed++
	}
}

// relativeTo resolves a link the page itself would resolve ("/pricing", "?page=2") against the
// page's address; anything else is left to normalizeURL.
func relativeTo(base, ref string) string {
	ref = strings.TrimSpace(ref)
	if !strings.HasPrefix(ref, "/") && !strings.HasPrefix(ref, ".") && !strings.HasPrefix(ref, "?") && !strings.HasPrefix(ref, "#") {
		return ref
	}
	b, err := url.Parse(base)
	r, rerr := url.Parse(ref)
	if err != nil || rerr != nil || b.Host == "" {
		return ref
	}
	return b.ResolveReference(r).String()
}

func errText(err error) string {
	code, msg := errs.Public(err)
	return code + ": " + msg
}

// selectOption chooses a select's option by its text and verifies it, with the change observer
// the click and keypress nodes use: the option is chosen, and the page saw the change.
type selectOption struct {
	el     *rod.Element
	page   *rod.Page
	option string
	chosen string
	change change
}

func (n *selectOption) Run(ctx context.Context, env *scripts.Env) error {
	obs, err := observe(ctx, n.page)
	if err != nil {
		return err
	}
	if err := n.el.Context(ctx).Select([]string{n.option}, true, rod.SelectorTypeText); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return errs.E(errs.TargetNotFound, "the select has no option %q", n.option)
	}
	n.change = obs.wait(ctx, effectWindow)
	res, err := n.el.Eval(`function () { const o = this.selectedOptions && this.selectedOptions[0]; return o ? o.text.trim() : ''; }`)
	if err == nil {
		n.chosen = res.Value.String()
	}
	env.SetDetail("chosen", n.chosen)
	return nil
}

func (n *selectOption) Verify(ctx context.Context, env *scripts.Env) ([]scripts.Check, error) {
	checks := []scripts.Check{{Name: "option_selected", Passed: strings.Contains(strings.ToLower(n.chosen), strings.ToLower(strings.TrimSpace(n.option))), Detail: fmt.Sprintf("%q is chosen", n.chosen)}}
	for _, c := range n.change.checks(effectWindow) {
		checks = append(checks, scripts.Check{Name: c.name, Passed: c.passed, Detail: c.detail})
	}
	return checks, nil
}

var _ scripts.Verifier = (*selectOption)(nil)
