package nodes

import (
	"context"
	"time"

	"github.com/rodeo-run/rodeo/scripts"
)

// bash runs a shell command in a bash subprocess on the guarded code path (code_exec.go):
// {{name}} placeholders become single-quoted shell words, so a variable is always one argument
// and never code.
type bash struct {
	command string
	output  string
}

func init() {
	scripts.Register(scripts.Spec{
		Kind:     "bash",
		Aliases:  []string{"shell"},
		Summary:  "Run a bash command in the run's working folder.",
		Category: "code",
		Timeout:  60 * time.Second,
		Params: []scripts.Param{
			{Name: "command", Type: scripts.String, Required: true, Code: "bash",
				Description: "the command; {{name}} becomes one single-quoted shell word holding the variable (also when written \"{{name}}\" or '{{name}}')",
				Example:     "printf '%s' {{data}} | wc -c"},
			{Name: "data", Type: scripts.String,
				Description: "optional: a variable that receives what the command printed (one trailing newline removed)", Example: "out"},
		},
		Examples: []map[string]any{{"type": "bash", "command": "date -u +%Y-%m-%d", "data": "today"}},
		Build: func(p *scripts.Params) (scripts.Node, error) {
			cmd, err := p.String("command")
			if err != nil {
				return nil, err
			}
			out, err := p.String("data")
			if err != nil {
				return nil, err
			}
			return &bash{command: cmd, output: out}, nil
		},
	})
}

func (n *bash) Run(ctx context.Context, env *scripts.Env) error {
	res, err := execCode(ctx, env, "bash", n.command)
	if err != nil {
		return err
	}
	if n.output != "" {
		env.Vars.Set(n.output, trimNewline(res.stdout))
	}
	return nil
}
