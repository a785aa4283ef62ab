package nodes

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/llm"
	"github.com/rodeo-run/rodeo/scripts"
)

// llm4 asks the configured language model: `prompt` is the system message, the `input`
// variables form the user message (one labelled "name: value" block each), and the answer goes
// into the `data` variable. With json set the model is asked for a JSON object, which is stored
// as data. It verifies that a non-empty answer was stored; an empty one is asked again within
// the kind's attempts. Tokens, model and call attempts go into the step detail.
type llm4 struct {
	prompt string
	inputs []string
	output string
	json   bool
	answer any
}

func init() {
	scripts.Register(scripts.Spec{
		Kind:     "llm4",
		Summary:  "Ask the configured language model: a system prompt plus labelled input variables; the answer goes into a variable.",
		Category: "ai",
		Timeout:  3 * time.Minute,
		Attempts: 2,
		Params: []scripts.Param{
			{Name: "prompt", Type: scripts.String, Required: true, Template: true,
				Description: "the system message: what the model should do with the input", Example: "Summarize the review in one sentence."},
			{Name: "input", Type: scripts.Strings,
				Description: "names of the variables whose values form the user message, each labelled \"name: value\" (with none, the prompt is sent as the user message)",
				Example:     []string{"review"}},
			{Name: "data", Type: scripts.String, Required: true,
				Description: "the variable that receives the answer", Example: "summary"},
			{Name: "json", Type: scripts.Bool, Default: false,
				Description: "ask for a JSON object answer and store it as data (an answer that is not JSON fails with llm_failed)", Example: true},
		},
		Examples: []map[string]any{{"type": "llm4", "prompt": "Summarize the review in one sentence.", "input": []string{"review"}, "data": "summary"}},
		Build: func(p *scripts.Params) (scripts.Node, error) {
			prompt, err := p.String("prompt")
			if err != nil {
				return nil, err
			}
			inputs, err := p.Strings("input")
			if err != nil {
				return nil, err
			}
			out, err := varParam(p, "data")
			if err != nil {
				return nil, err
			}
			asJSON, err := p.Bool("json")
			if err != nil {
				return nil, err
			}
			for i := range inputs {
				inputs[i] = plainVarName(inputs[i])
			}
			return &llm4{prompt: prompt, inputs: inputs, output: out, json: asJSON}, nil
		},
	})
}

// message builds the user message from the input variables.
func (n *llm4) message(env *scripts.Env) (string, error) {
	var b strings.Builder
	for _, name := range n.inputs {
		if name == "" {
			continue
		}
		v, ok := env.Vars.Get(name)
		if !ok {
			return "", errs.E(errs.VariableNotSet, "variable %s (an input of llm4) is not set", name)
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		text := scripts.Text(v)
		if strings.Contains(text, "\n") {
			fmt.Fprintf(&b, "%s:\n%s", name, text)
		} else {
			fmt.Fprintf(&b, "%s: %s", name, text)
		}
	}
	return b.String(), nil
}

func (n *llm4) Run(ctx context.Context, env *scripts.Env) error {
	n.answer = nil
	model := env.Services().LLM
	if model == nil {
		return llm.NotConfigured()
	}
	user, err := n.message(env)
	if err != nil {
		return err
	}
	req := llm.Request{System: n.prompt, JSON: n.json}
	if user == "" {
		req.System = ""
		user = n.prompt
	}
	req.Messages = []llm.Message{{Role: "user", Content: user}}
	reply, err := model.Chat(ctx, req)
	env.SetDetail("model", reply.Model)
	env.SetDetail("tokens", reply.Tokens())
	env.SetDetail("llm_attempts", reply.Attempts)
	if err != nil {
		return err
	}
	text := strings.TrimSpace(reply.Text)
	env.SetDetail("answer_chars", len(text))
	if text == "" {
		return nil // Verify fails and the runner asks again
	}
	var answer any = text
	if n.json {
		v, err := parseJSON([]byte(stripFence(text)))
		if err != nil {
			return errs.E(llm.CodeFailed, "the model (%s) was asked for JSON but answered something else: %v; answer begins %q", reply.Model, err, textExcerpt([]byte(text), 120))
		}
		answer = v
	}
	env.Vars.Set(n.output, answer)
	n.answer = answer
	return nil
}

// stripFence removes a Markdown code fence some models wrap JSON in.
func stripFence(s string) string {
	if !strings.HasPrefix(s, "```") {
		return s
	}
	s = strings.TrimPrefix(s, "```")
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "```"))
}

func (n *llm4) Verify(ctx context.Context, env *scripts.Env) ([]scripts.Check, error) {
	v, ok := env.Vars.Get(n.output)
	passed := ok && n.answer != nil && strings.TrimSpace(scripts.Text(v)) != ""
	detail := fmt.Sprintf("%s holds %s", n.output, valueKind(v))
	if n.answer == nil {
		detail = "the model answered with empty text"
	}
	return []scripts.Check{{Name: "answer_stored", Passed: passed, Detail: detail}}, nil
}

var _ scripts.Verifier = (*llm4)(nil)
