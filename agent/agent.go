// Package agent is the general node's loop: a language model reaches an open-ended goal on a
// page by a state machine, observe -> decide -> act -> verify, until it calls done or fail or a
// budget runs out. The model sees the page as the semantic engine's compact element lines, acts
// with tool calls on those lines' ids, and is told after each action what its verification
// found; the actions themselves are run by an Actor (scripts/nodes runs them through the click,
// keypress, open tab and semanticScrape nodes' own code, so they are verified as those are).
package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/llm"
	"github.com/rodeo-run/rodeo/semantic"
)

// Error codes of the loop, beyond errs' shared ones.
const (
	// CodeStuck: the model chose the same action on the same page StuckAt times.
	CodeStuck = "agent_stuck"
	// CodeStepBudget: the step budget ran out before done.
	CodeStepBudget = "step_budget"
	// CodeTokenBudget: the model's tokens reached the token budget before done.
	CodeTokenBudget = "token_budget"
	// CodeTimeBudget: the time budget ran out before done.
	CodeTimeBudget = "time_budget"
	// CodeFailed: the model called fail(reason).
	CodeFailed = "agent_failed"
)

// Loop detection: the same action on the same page this many times gets a nudge, and then fails.
const (
	NudgeAt = 3
	StuckAt = 5
)

// historyShown is how many of the last actions each observation repeats.
const historyShown = 5

// timeMargin is kept back from the caller's deadline, so that the loop reports time_budget with
// its partial result instead of being cut off by the caller's own time limit.
const timeMargin = 1500 * time.Millisecond

// Config is one task.
type Config struct {
	Goal string
	// Inputs are the run's variables the node names, shown to the model as "name: value".
	Inputs map[string]string
	// MaxSteps bounds the model's decisions (a refused id or a no-effect action counts).
	MaxSteps int
	// MaxTokens bounds prompt plus completion tokens over all calls; 0 means no bound.
	MaxTokens int
	// ElementTokens is the budget of the element lines (0: DefaultElementTokens).
	ElementTokens int
	Model         *llm.Client
	Actor         Actor
}

// Actor observes the page and performs actions on it.
type Actor interface {
	// Observe snapshots the current page.
	Observe(ctx context.Context) (*semantic.Snapshot, error)
	// Act performs one page action (never done or fail) and reports its verified outcome.
	Act(ctx context.Context, a Act) Outcome
}

// Act is one action to perform, with what it is known by.
type Act struct {
	// Step is the 1-based step that decided it.
	Step   int
	Action Action
	// Snap and Element are the observation it was chosen in and, for click, type and select,
	// the element its id names there.
	Snap    *semantic.Snapshot
	Element *semantic.Element
	// Tokens is what the model call that chose it cost.
	Tokens Tokens
}

// Outcome is what an action did, as its verification saw it.
type Outcome struct {
	// OK is true when the action ran and every check passed.
	OK bool
	// Effect says what the checks saw ("url_changed: a -> b"), or why it failed.
	Effect string
	// Value is what extract read.
	Value any
	// Fatal stops the loop with this error (the run was canceled, the browser died).
	Fatal error
}

// Tokens is what model calls cost.
type Tokens struct {
	Prompt     int `json:"prompt"`
	Completion int `json:"completion"`
	Calls      int `json:"calls"`
}

// Extract is one value extract read.
type Extract struct {
	Description string `json:"description"`
	Value       any    `json:"value"`
}

// Result is how the loop ended. It is filled on error too: the partial result is kept.
type Result struct {
	// Value is done's result, or what extract read when done gave none or the loop failed.
	Value     any       `json:"value"`
	Extracted []Extract `json:"extracted,omitempty"`
	// Reason is the model's reason for done or fail.
	Reason string `json:"reason,omitempty"`
	Steps  int    `json:"steps"`
	Tokens Tokens `json:"tokens"`
	// StepPrompts are the prompt tokens of each model call, in order (the cost per step).
	StepPrompts []int `json:"step_prompts"`
}

// entry is one step in the model's history.
type entry struct {
	step   int
	action string
	result string
}

// loop is one run of the state machine.
type loop struct {
	cfg      Config
	deadline time.Time
	res      Result
	history  []entry
	seen     map[string]int // page fingerprint + action -> times chosen
	nudge    string
	prev     *view
	// the current step's state, passed from one state to the next
	snap   *semantic.Snapshot
	view   *view
	action Action
	tokens Tokens
	out    Outcome
}

type state int

const (
	observing state = iota
	deciding
	acting
	verifying
	finished
)

// Run works on cfg's goal until the model calls done (nil error) or fail, or a budget runs out,
// the loop is stuck, or ctx ends. The Result holds what was reached either way.
func Run(ctx context.Context, cfg Config) (Result, error) {
	if cfg.Model == nil {
		return Result{}, llm.NotConfigured()
	}
	l := &loop{cfg: cfg, seen: map[string]int{}}
	if d, ok := ctx.Deadline(); ok {
		l.deadline = d.Add(-min(timeMargin, time.Until(d)/10))
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, l.deadline)
		defer cancel()
	}
	var err error
	for st := observing; st != finished; {
		switch st {
		case observing:
			st, err = l.observe(ctx)
		case deciding:
			st, err = l.decide(ctx)
		case acting:
			st = l.act(ctx)
		case verifying:
			st, err = l.verify()
		}
		if err != nil {
			l.res.Value = l.partial()
			return l.res, l.timeBudget(ctx, err)
		}
	}
	return l.res, nil
}

// observe checks the step and time budgets and snapshots the page.
func (l *loop) observe(ctx context.Context) (state, error) {
	if l.res.Steps >= l.cfg.MaxSteps {
		return finished, errs.E(CodeStepBudget, "the goal was not reached within %d steps (the partial result is kept)", l.cfg.MaxSteps)
	}
	if err := ctx.Err(); err != nil {
		return finished, err
	}
	snap, err := l.cfg.Actor.Observe(ctx)
	if err != nil {
		return finished, err
	}
	l.snap = snap
	l.view = observe(snap, l.prev, l.cfg.ElementTokens)
	return deciding, nil
}

// decide asks the model for the step's action. A reply that cannot be used is said back to
// the model once; an id that is not in the observation is refused back as the step's outcome.
func (l *loop) decide(ctx context.Context) (state, error) {
	l.res.Steps++
	l.tokens = Tokens{}
	msgs := []llm.ToolMessage{{Role: "system", Content: systemPrompt}, {Role: "user", Content: l.prompt()}}
	a, err := l.ask(ctx, msgs)
	if err != nil {
		return finished, err
	}
	l.action = a
	switch {
	case a.Tool == ToolDone:
		l.res.Reason = a.Reason
		l.res.Value = a.Result
		if isEmpty(a.Result) {
			l.res.Value = l.partial()
		}
		return finished, nil
	case a.Tool == ToolFail:
		l.res.Reason = a.Reason
		return finished, errs.E(CodeFailed, "the model gave up: %s", clip(a.Reason, 300))
	case l.overTokens():
		return finished, l.tokenBudget()
	case a.hasID() && !l.view.shown[a.ID]:
		l.record(fmt.Sprintf("refused: there is no [%d] in the element list; use an id from the list of this step", a.ID))
		l.prev = l.view
		return observing, nil
	}
	key := l.view.fingerprint + " " + a.String()
	l.seen[key]++
	switch n := l.seen[key]; {
	case n >= StuckAt:
		return finished, errs.E(CodeStuck, "the model chose %s %d times on the same page without progress", a.String(), n)
	case n >= NudgeAt:
		l.nudge = fmt.Sprintf("You have chosen %s %d times on this same page and it did not get you closer. Do something else, or call fail if the goal cannot be reached.", a.String(), n)
	}
	return acting, nil
}

// ask makes the model call and parses its first tool call, retrying once with the problem.
func (l *loop) ask(ctx context.Context, msgs []llm.ToolMessage) (Action, error) {
	for try := 0; ; try++ {
		rep, err := l.cfg.Model.ChatTools(ctx, llm.ToolRequest{Messages: msgs, Tools: Tools, MaxTokens: 400})
		if err != nil {
			return Action{}, err
		}
		for _, t := range []*Tokens{&l.tokens, &l.res.Tokens} { // the step's (a retry included) and the loop's
			t.Prompt += rep.PromptTokens
			t.Completion += rep.CompletionTokens
			t.Calls++
		}
		l.res.StepPrompts = append(l.res.StepPrompts, rep.PromptTokens)
		var a Action
		var problem error
		if len(rep.Calls) == 0 {
			problem = fmt.Errorf("the reply had no tool call: answer with exactly one tool call")
		} else if a, problem = parseCall(rep.Calls[0]); problem == nil {
			return a, nil
		}
		if l.overTokens() {
			return a, l.tokenBudget()
		}
		if try == 1 {
			return a, errs.E(llm.CodeFailed, "the model's reply could not be used, twice: %v", problem)
		}
		asst := llm.ToolMessage{Role: "assistant", Content: rep.Text, ToolCalls: rep.Calls[:min(len(rep.Calls), 1)]}
		msgs = append(msgs, asst)
		if len(asst.ToolCalls) > 0 {
			msgs = append(msgs, llm.ToolMessage{Role: "tool", ToolCallID: asst.ToolCalls[0].ID, Content: "error: " + problem.Error() + ". Call a tool again with valid arguments."})
		} else {
			msgs = append(msgs, llm.ToolMessage{Role: "user", Content: problem.Error()})
		}
	}
}

// act performs the action through the actor.
func (l *loop) act(ctx context.Context) state {
	a := Act{Step: l.res.Steps, Action: l.action, Snap: l.snap, Tokens: l.tokens}
	if l.action.hasID() {
		a.Element = &l.snap.Elements[l.action.ID]
	}
	l.out = l.cfg.Actor.Act(ctx, a)
	return verifying
}

// verify tells the model's history what the action's checks saw; a value extracted joins the
// result.
func (l *loop) verify() (state, error) {
	if l.out.Fatal != nil {
		return finished, l.out.Fatal
	}
	if l.action.Tool == ToolExtract && l.out.OK {
		l.res.Extracted = append(l.res.Extracted, Extract{Description: l.action.Description, Value: l.out.Value})
	}
	result := "ok: " + l.out.Effect
	if !l.out.OK {
		result = "FAILED: " + l.out.Effect
	}
	l.record(result)
	l.prev = l.view
	return observing, nil
}

func (l *loop) record(result string) {
	act := l.action.String()
	if l.action.hasID() && l.snap != nil && l.action.ID < len(l.snap.Elements) && l.view.shown[l.action.ID] {
		e := &l.snap.Elements[l.action.ID]
		act += fmt.Sprintf(" (%s %q)", e.Role, clip(e.Name, 40))
	}
	l.history = append(l.history, entry{step: l.res.Steps, action: act, result: clip(result, 140)})
}

func (l *loop) tokenBudget() error {
	return errs.E(CodeTokenBudget, "the model used %d tokens, reaching the %d-token budget, before the goal was reached (the partial result is kept)",
		l.res.Tokens.Prompt+l.res.Tokens.Completion, l.cfg.MaxTokens)
}

func (l *loop) overTokens() bool {
	return l.cfg.MaxTokens > 0 && l.res.Tokens.Prompt+l.res.Tokens.Completion >= l.cfg.MaxTokens
}

// timeBudget turns the loop's own deadline into time_budget; the caller's cancellation stays
// what it is.
func (l *loop) timeBudget(ctx context.Context, err error) error {
	if !l.deadline.IsZero() && !time.Now().Before(l.deadline) && (ctx.Err() != nil || errs.Is(err, errs.Timeout) || errors.Is(err, context.DeadlineExceeded)) {
		return errs.E(CodeTimeBudget, "the goal was not reached within the node's time limit, after %d steps (the partial result is kept)", l.res.Steps)
	}
	return err
}

// partial is the result so far: what extract read (one value as it is, several by description).
func (l *loop) partial() any {
	switch len(l.res.Extracted) {
	case 0:
		return nil
	case 1:
		return l.res.Extracted[0].Value
	}
	m := map[string]any{}
	for _, x := range l.res.Extracted {
		m[x.Description] = x.Value
	}
	return m
}

func isEmpty(v any) bool {
	if v == nil {
		return true
	}
	s, ok := v.(string)
	return ok && strings.TrimSpace(s) == ""
}

const systemPrompt = `You operate a web browser to reach the user's goal. Each turn you see the page as element lines "[id] role "name" ...", grouped under "@" lines saying where they are, and call exactly one tool (reason: why, briefly). Use only ids of the current list. You are told what each action's verification saw: an action that changed nothing did not work, so try another. When the goal is reached call done with the result it asks for; if it cannot be, call fail.`

// prompt is the step's observation: goal, inputs, budget, history, changes and elements.
func (l *loop) prompt() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Goal: %s\n", l.cfg.Goal)
	if len(l.cfg.Inputs) > 0 {
		names := make([]string, 0, len(l.cfg.Inputs))
		for k := range l.cfg.Inputs {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			fmt.Fprintf(&b, "Input %s: %s\n", k, clip(l.cfg.Inputs[k], 300))
		}
	}
	fmt.Fprintf(&b, "Step %d of %d.", l.res.Steps, l.cfg.MaxSteps)
	if l.cfg.MaxTokens > 0 {
		fmt.Fprintf(&b, " Tokens used %d of %d.", l.res.Tokens.Prompt+l.res.Tokens.Completion, l.cfg.MaxTokens)
	}
	b.WriteByte('\n')
	if len(l.res.Extracted) > 0 {
		x, _ := json.Marshal(l.partial())
		fmt.Fprintf(&b, "Extracted so far: %s\n", clip(string(x), 400))
	}
	if len(l.history) > 0 {
		b.WriteString("Last actions:\n")
		for _, h := range l.history[max(0, len(l.history)-historyShown):] {
			fmt.Fprintf(&b, "%d. %s -> %s\n", h.step, h.action, h.result)
		}
	}
	if l.nudge != "" {
		b.WriteString(l.nudge + "\n")
		l.nudge = ""
	}
	fmt.Fprintf(&b, "Page: %q %s\n", clip(l.view.title, 80), l.view.url)
	if l.view.changes != "" {
		b.WriteString("Changed since the last action: " + l.view.changes)
	}
	b.WriteString(l.view.elements)
	return b.String()
}
