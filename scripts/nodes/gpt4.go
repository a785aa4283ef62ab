package nodes

import (
	"context"
	"regexp"
	"strings"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/llm"
	"github.com/rodeo-run/rodeo/scripts"
)

// gpt4 is the studio's GPT-4 node: a prompt (plus an automation-input variable and, on request,
// the webhook's data) goes to the configured model and the answer into a variable. With
// type_output the answer is Python code: it is taken from its ```python fence and runs on the
// same guarded path as a python node (so only when the server allows code nodes), and the
// variable receives what it printed. The model's answer is never templated.
type gpt4 struct {
	input      string
	automation string
	webhook    bool
	code       bool
	output     string
}

func init() {
	scripts.Register(scripts.Spec{
		Kind:     "gpt4",
		Aliases:  []string{"GPT-4", "gpt_4"},
		Summary:  "Ask the configured language model; with type_output its answer is Python code that runs on the guarded code path.",
		Category: "ai",
		Timeout:  3 * time.Minute,
		Params: []scripts.Param{
			{Name: "input", Type: scripts.String, Required: true, Template: true,
				Description: "the prompt; {{name}} placeholders expand", Example: "Write a haiku about {{topic}}"},
			{Name: "automation_input", Type: scripts.String,
				Description: "optional: a variable whose value is added to the prompt", Example: "page_text"},
			{Name: "webhook_input", Type: scripts.Bool, Default: false,
				Description: "add the webhook trigger's `data` variable to the prompt", Example: true},
			{Name: "type_output", Type: scripts.Bool, Default: false,
				Description: "the answer is Python code: run it (needs code nodes enabled) and store what it printed", Example: false},
			{Name: "data", Type: scripts.String, Default: "gpt4",
				Description: "the variable that receives the answer (or the code's output)", Example: "answer"},
		},
		Examples: []map[string]any{{"type": "gpt4", "input": "Summarize: {{msg}}", "data": "summary"}},
		Build: func(p *scripts.Params) (scripts.Node, error) {
			n := &gpt4{}
			var err error
			if n.input, err = p.String("input"); err != nil {
				return nil, err
			}
			if n.automation, err = p.String("automation_input"); err != nil {
				return nil, err
			}
			if n.webhook, err = p.Bool("webhook_input"); err != nil {
				return nil, err
			}
			if n.code, err = p.Bool("type_output"); err != nil {
				return nil, err
			}
			if n.output, err = p.String("data"); err != nil {
				return nil, err
			}
			n.automation = strings.TrimSpace(strings.Trim(strings.TrimSpace(n.automation), "{}"))
			if strings.TrimSpace(n.output) == "" {
				n.output = "gpt4"
			}
			return n, nil
		},
	})
}

func (n *gpt4) prompt(env *scripts.Env) (string, error) {
	parts := []string{n.input}
	if n.automation != "" {
		v, ok := env.Vars.Get(n.automation)
		if !ok {
			return "", errs.E(errs.VariableNotSet, "variable %s (the automation_input of gpt4) is not set", n.automation)
		}
		parts = append(parts, scripts.Text(v))
	}
	if n.webhook {
		v, ok := env.Vars.Get("data")
		if !ok {
			return "", errs.E(errs.VariableNotSet, "webhook_input is set but the run has no `data` variable (it comes from a webhook trigger)")
		}
		parts = append(parts, "Webhook data:\n"+scripts.Text(v))
	}
	return strings.Join(parts, "\n\n"), nil
}

const gpt4CodeSystem = "Answer with Python 3 code only, in one ```python fenced block. The code runs as a script: " +
	"the run's variables are the dict graph.global_variables; print the result."

func (n *gpt4) Run(ctx context.Context, env *scripts.Env) error {
	if n.code {
		// Refuse before spending tokens on code that may not run.
		if err := checkCodeAllowed(env); err != nil {
			return err
		}
	}
	model := env.Services().LLM
	if model == nil {
		return llm.NotConfigured()
	}
	prompt, err := n.prompt(env)
	if err != nil {
		return err
	}
	req := llm.Request{Messages: []llm.Message{{Role: "user", Content: prompt}}}
	if n.code {
		req.System = gpt4CodeSystem
	}
	reply, err := model.Chat(ctx, req)
	env.SetDetail("model", reply.Model)
	env.SetDetail("tokens", reply.Tokens())
	env.SetDetail("llm_attempts", reply.Attempts)
	if err != nil {
		return err
	}
	if !n.code {
		env.Vars.Set(n.output, strings.TrimSpace(reply.Text))
		return nil
	}
	code := pythonFromAnswer(reply.Text)
	env.SetDetail("code", code)
	if strings.TrimSpace(code) == "" {
		return errs.E(errs.CodeFailed, "the model answered no code")
	}
	res, err := execCode(ctx, env, "python", code)
	if err != nil {
		return err
	}
	env.Vars.Set(n.output, trimNewline(res.stdout))
	return nil
}

var fence = regexp.MustCompile("(?s)```[ \t]*([A-Za-z0-9_+-]*)[ \t]*\r?\n(.*?)```")

// pythonFromAnswer takes the code of a model's answer: the first ```python (or py) fence, else
// the first fence, else the whole answer.
func pythonFromAnswer(text string) string {
	matches := fence.FindAllStringSubmatch(text, -1)
	for _, m := range matches {
		if lang := strings.ToLower(m[1]); lang == "python" || lang == "py" || lang == "python3" {
			return m[2]
		}
	}
	if len(matches) > 0 {
		return matches[0][2]
	}
	return strings.TrimSpace(text)
}
