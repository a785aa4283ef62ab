package nodes

import (
	"context"
	"fmt"
	"strings"

	"github.com/rodeo-run/rodeo/scripts"
)

// print shows variables in the run's events (the studio's console) and in its step detail.
type print struct {
	names []string
	text  string
}

func init() {
	scripts.Register(scripts.Spec{
		Kind:     "print",
		Summary:  "Show variables (or a text) in the run's events and step detail.",
		Category: "flow",
		Params: []scripts.Param{
			{Name: "variables", Type: scripts.Strings, Description: "names of the variables to show (a single name is fine)", Example: []string{"msg"}},
			{Name: "text", Type: scripts.String, Template: true, Description: "a message to show; {{name}} placeholders expand", Example: "total: {{total}}"},
		},
		Examples: []map[string]any{{"type": "print", "variables": []string{"msg"}}},
		Build: func(p *scripts.Params) (scripts.Node, error) {
			names, err := p.Strings("variables")
			if err != nil {
				return nil, err
			}
			text, err := p.String("text")
			if err != nil {
				return nil, err
			}
			if len(names) == 0 && text == "" {
				return nil, errInvalid("print needs `variables` or `text`")
			}
			return &print{names: names, text: text}, nil
		},
	})
}

func (n *print) Run(ctx context.Context, env *scripts.Env) error {
	values := map[string]any{}
	var lines []string
	for _, name := range n.names {
		v, ok := env.Vars.Get(name)
		if !ok {
			lines = append(lines, name+" is not set")
			values[name] = nil
			continue
		}
		values[name] = v
		lines = append(lines, fmt.Sprintf("%s = %s", name, scripts.Text(v)))
	}
	if n.text != "" {
		lines = append(lines, n.text)
		env.SetDetail("text", n.text)
	}
	if len(n.names) > 0 {
		env.SetDetail("values", values)
	}
	env.Emit("print", strings.Join(lines, "\n"))
	return nil
}
