package nodes

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/rodeo-run/rodeo/agent"
	"github.com/rodeo-run/rodeo/scripts"
)

// general reaches an open-ended goal with the configured language model: the agent package's
// loop observes the page, the model picks one action per step by tool call, and each action is
// run here through the click, keypress, scroll, open tab and semanticScrape nodes' own code as a
// sub-step of this node (path "2.general.5"), verified as those nodes are. done(result) stores
// the result in the data variable; fail(reason), a budget running out and a stuck loop fail the
// node with the partial result kept.
type general struct {
	goal      string
	variable  string
	inputs    []string
	maxSteps  int
	maxTokens int
	startURL  string

	res     agent.Result
	actions int // sub-actions run
	passed  int // of which verified
}

// generalKinds are the spec's kind and the studio's two others, all the same loop; the studio's
// take their goal as prompt.
var generalKinds = []struct {
	kind, goalParam, summary string
	aliases                  []string
}{
	{"general", "description", "Reach an open-ended goal on the page with the configured language model: it observes, acts by tool call and is told each action's verification, until done.", nil},
	{"generalized_agent", "prompt", "The studio's Generalized Agent: the general node with its goal as prompt.", []string{"Generalized Agent"}},
	{"general_atlas", "prompt", "The studio's General (Project Atlas): the general node with its goal as prompt.", []string{"General (Project Atlas)", "project atlas"}},
}

func init() {
	for _, k := range generalKinds {
		goalParam := k.goalParam
		scripts.Register(scripts.Spec{
			Kind:       k.kind,
			Aliases:    k.aliases,
			Summary:    k.summary,
			Category:   "ai",
			Browser:    true,
			NeedsModel: true,
			Timeout:    5 * time.Minute,
			Params: []scripts.Param{
				{Name: goalParam, Type: scripts.String, Required: true, Template: true,
					Description: "the goal, in English: what to do and what result to give", Example: "Sign up with the name Ada Lovelace and the email ada@example.com, then give the confirmation message"},
				{Name: "data", Type: scripts.String, Default: "general_result",
					Description: "the variable that receives the result: done's result, else what extract read (also when the node fails: the partial result)", Example: "signup"},
				{Name: "max_steps", Type: scripts.Number, Default: 25, Min: scripts.F(1), Max: scripts.F(200),
					Description: "the most model decisions (actions, refused ids and no-effect actions included); then the node fails step_budget", Example: 25},
				{Name: "max_tokens", Type: scripts.Number, Min: scripts.F(0), Max: scripts.F(1e8),
					Description: "the most prompt plus completion tokens over all model calls (none: no bound); then the node fails token_budget", Example: 20000},
				{Name: "timeout", Type: scripts.Number, Default: 300, Min: scripts.F(1), Max: scripts.F(86400),
					Description: "seconds the whole loop may take; then the node fails time_budget", Example: 120},
				{Name: "start_url", Type: scripts.String, Template: true,
					Description: "a URL to open first (optional: without it the loop starts on the run's current page)", Example: "https://example.com/signup"},
				{Name: "input", Type: scripts.Strings,
					Description: "names of run variables the model is shown (name: value), e.g. the data to fill in", Example: []string{"customer"}},
			},
			Examples: []map[string]any{{"type": k.kind, goalParam: "Find the price of the Pro plan and give it", "start_url": "https://example.com/pricing", "data": "price"}},
			Build: func(p *scripts.Params) (scripts.Node, error) {
				return buildGeneral(p, goalParam)
			},
		})
	}
}

func buildGeneral(p *scripts.Params, goalParam string) (scripts.Node, error) {
	goal, err := p.String(goalParam)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(goal) == "" {
		return nil, errInvalid("%s: the goal must not be empty", goalParam)
	}
	n := &general{goal: goal}
	if n.variable, err = varParam(p, "data"); err != nil {
		return nil, err
	}
	if n.variable == "" {
		return nil, errInvalid("data: the variable name must not be empty")
	}
	steps, err := p.Number("max_steps")
	if err != nil {
		return nil, err
	}
	tokens, err := p.Number("max_tokens")
	if err != nil {
		return nil, err
	}
	n.maxSteps, n.maxTokens = int(steps), int(tokens)
	if n.startURL, err = p.String("start_url"); err != nil {
		return nil, err
	}
	if strings.TrimSpace(n.startURL) != "" {
		if n.startURL, err = normalizeURL(n.startURL); err != nil {
			return nil, err
		}
	}
	if n.inputs, err = p.Strings("input"); err != nil {
		return nil, err
	}
	return n, nil
}

func (n *general) Run(ctx context.Context, env *scripts.Env) error {
	n.res, n.actions, n.passed = agent.Result{}, 0, 0
	inputs := map[string]string{}
	for _, name := range n.inputs {
		name = plainVarName(name)
		if v, ok := env.Vars.Get(name); ok {
			inputs[name] = scripts.Text(v)
		}
	}
	act := &pageActor{env: env, node: n}
	if n.startURL != "" {
		st, err := env.RunStep(ctx, scripts.SubStep{Name: "general.0", Kind: "open tab", Node: &openTab{url: n.startURL},
			Detail: map[string]any{"tool": agent.ToolNavigate, "reason": "start_url"}})
		if err != nil {
			return err
		}
		act.count(st)
	}
	res, err := agent.Run(ctx, agent.Config{Goal: n.goal, Inputs: inputs, MaxSteps: n.maxSteps, MaxTokens: n.maxTokens,
		Model: env.Services().LLM, Actor: act})
	n.res = res
	if res.Value != nil {
		env.Vars.Set(n.variable, res.Value)
	} else if err == nil {
		env.Vars.Set(n.variable, "") // done with no result: the variable says so rather than keep an old value
	}
	env.SetDetail("variable", n.variable)
	env.SetDetail("steps", res.Steps)
	env.SetDetail("actions", n.actions)
	env.SetDetail("actions_verified", n.passed)
	env.SetDetail("model_calls", res.Tokens.Calls)
	env.SetDetail("prompt_tokens", res.Tokens.Prompt)
	env.SetDetail("completion_tokens", res.Tokens.Completion)
	env.SetDetail("step_prompt_tokens", res.StepPrompts)
	if res.Reason != "" {
		env.SetDetail("reason", res.Reason)
	}
	if len(res.Extracted) > 0 {
		env.SetDetail("extracted", res.Extracted)
	}
	if res.Value != nil {
		env.SetDetail("result", truncateText(scripts.Text(res.Value), 200))
	}
	return err
}

func (n *general) Verify(ctx context.Context, env *scripts.Env) ([]scripts.Check, error) {
	return []scripts.Check{
		{Name: "done", Passed: true, Detail: fmt.Sprintf("the model called done after %d steps: %s", n.res.Steps, truncateText(n.res.Reason, 120))},
		{Name: "actions_verified", Passed: true, Detail: fmt.Sprintf("%d of %d sub-actions had a verified effect", n.passed, n.actions)},
	}, nil
}

var _ scripts.Verifier = (*general)(nil)
