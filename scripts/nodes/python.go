package nodes

import (
	"context"
	"time"

	"github.com/rodeo-run/rodeo/scripts"
)

// python runs Python code in a python3 subprocess on the guarded code path (code_exec.go): the
// run's variables are graph.global_variables, thread_signals posts events, {{name}} placeholders
// become Python literals. The studio's "Python Code" node is the same kind (python_code).
type python struct {
	code   string
	output string
}

func init() {
	scripts.Register(scripts.Spec{
		Kind:     "python",
		Aliases:  []string{"python_code", "Python Code"},
		Summary:  "Run Python code (python3) with the run's variables as graph.global_variables.",
		Category: "code",
		Timeout:  60 * time.Second,
		Params: []scripts.Param{
			{Name: "code", Type: scripts.String, Required: true, Code: "python",
				Description: "the code; {{name}} becomes a Python literal of the variable (also when written \"{{name}}\"); " +
					"graph.global_variables is a dict of the run's variables (changes are kept when the code succeeds); " +
					"thread_signals.notifications.emit(msg) and thread_signals.chat.emit(msg) add events to the run",
				Example: "graph.global_variables['greeting'] = 'hello ' + {{name}}"},
			{Name: "data", Type: scripts.String,
				Description: "optional: a variable that receives what the code printed (one trailing newline removed)", Example: "out"},
		},
		Examples: []map[string]any{
			{"type": "python", "code": "graph.global_variables['total'] = sum(graph.global_variables['prices'])"},
			{"type": "python_code", "code": "thread_signals.notifications.emit('got ' + {{data}})"},
		},
		Build: func(p *scripts.Params) (scripts.Node, error) {
			code, err := p.String("code")
			if err != nil {
				return nil, err
			}
			out, err := p.String("data")
			if err != nil {
				return nil, err
			}
			return &python{code: code, output: out}, nil
		},
	})
}

func (n *python) Run(ctx context.Context, env *scripts.Env) error {
	res, err := execCode(ctx, env, "python", n.code)
	if err != nil {
		return err
	}
	if n.output != "" {
		env.Vars.Set(n.output, trimNewline(res.stdout))
	}
	return nil
}
