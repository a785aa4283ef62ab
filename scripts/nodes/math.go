package nodes

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
)

// mathNode is the studio's Math node: input = input <action> value, where input is a variable
// holding a number and value is a number or the name of a variable holding one. The result is
// stored back into input as a number, and verified there.
type mathNode struct {
	action string
	input  string
	value  any
	result float64
	detail string
}

var mathActions = []string{"add", "subtract", "multiply", "divide"}

func init() {
	scripts.Register(scripts.Spec{
		Kind:     "math",
		Aliases:  []string{"Math"},
		Summary:  "Add, subtract, multiply or divide a variable by a number (or another variable); the result goes back into the variable.",
		Category: "data",
		Params: []scripts.Param{
			{Name: "action", Type: scripts.String, Required: true, Enum: mathActions,
				Description: "the operation", Example: "add"},
			{Name: "input", Type: scripts.String, Required: true,
				Description: "the variable holding the first number; it receives the result", Example: "total"},
			{Name: "value", Type: scripts.Any, Required: true, Template: true,
				Description: "the second number, or the name of a variable holding it", Example: 1},
		},
		Examples: []map[string]any{
			{"type": "math", "action": "add", "input": "total", "value": 1},
			{"type": "math", "action": "multiply", "input": "price", "value": "quantity"},
		},
		Build: func(p *scripts.Params) (scripts.Node, error) {
			action, err := p.String("action")
			if err != nil {
				return nil, err
			}
			input, err := varParam(p, "input")
			if err != nil {
				return nil, err
			}
			v, _ := p.Value("value")
			return &mathNode{action: strings.ToLower(strings.TrimSpace(action)), input: input, value: v}, nil
		},
		Validate: func(p *scripts.Params) error {
			v, _ := p.Value("value")
			switch t := v.(type) {
			case string:
				if strings.TrimSpace(t) == "" {
					return paramProblem("value", "must be a number or a variable name, not empty")
				}
			case map[string]any, []any, bool:
				return paramProblem("value", "must be a number or a variable name")
			}
			if s, ok := rawString(p, "action"); ok && strings.EqualFold(s, "divide") {
				if f, isNum := numberOf(v); isNum && f == 0 {
					return paramProblem("value", "divide by 0 has no result")
				}
			}
			return nil
		},
	})
}

// operand resolves value: a number, numeric text, or a variable name.
func (n *mathNode) operand(env *scripts.Env) (float64, string, error) {
	if f, ok := numberOf(n.value); ok {
		return f, scripts.Text(f), nil
	}
	name, ok := n.value.(string)
	if !ok {
		return 0, "", errs.E(errs.InvalidConfig, "parameter value: must be a number or a variable name")
	}
	name = plainVarName(name)
	v, set := env.Vars.Get(name)
	if !set {
		return 0, "", errs.E(errs.VariableNotSet, "value %q is neither a number nor a set variable", name)
	}
	f, ok := numberOf(v)
	if !ok {
		return 0, "", errs.E(codeInvalidValue, "variable %s holds %s, not a number", name, showValue(v))
	}
	return f, name, nil
}

func (n *mathNode) Run(ctx context.Context, env *scripts.Env) error {
	cur, set := env.Vars.Get(n.input)
	if !set {
		return errs.E(errs.VariableNotSet, "variable %s (the math input) is not set", n.input)
	}
	a, ok := numberOf(cur)
	if !ok {
		return errs.E(codeInvalidValue, "variable %s holds %s, not a number", n.input, showValue(cur))
	}
	b, from, err := n.operand(env)
	if err != nil {
		return err
	}
	var r float64
	var op string
	switch n.action {
	case "add":
		r, op = a+b, "+"
	case "subtract":
		r, op = a-b, "-"
	case "multiply":
		r, op = a*b, "*"
	case "divide":
		if b == 0 {
			return errs.E(codeInvalidValue, "division by zero: %s / %s (%s is 0)", scripts.Text(a), from, from)
		}
		r, op = a/b, "/"
	default:
		return errs.E(errs.InvalidConfig, "parameter action: must be one of %s, not %q", strings.Join(mathActions, ", "), n.action)
	}
	if math.IsInf(r, 0) || math.IsNaN(r) {
		return errs.E(codeInvalidValue, "%s %s %s overflows", scripts.Text(a), op, scripts.Text(b))
	}
	env.Vars.Set(n.input, r)
	n.result = r
	n.detail = fmt.Sprintf("%s %s %s = %s", scripts.Text(a), op, scripts.Text(b), scripts.Text(r))
	env.SetDetail("operation", n.detail)
	env.SetDetail("result", r)
	return nil
}

func (n *mathNode) Verify(ctx context.Context, env *scripts.Env) ([]scripts.Check, error) {
	v, _ := env.Vars.Get(n.input)
	f, ok := v.(float64)
	return []scripts.Check{{Name: "result_stored", Passed: ok && f == n.result,
		Detail: fmt.Sprintf("%s = %s (%s)", n.input, scripts.Text(v), n.detail)}}, nil
}

// describeValue names a value for messages: short text quoted, other kinds by shape.
func showValue(v any) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", textExcerpt([]byte(s), 40))
	}
	return valueKind(v)
}

var _ scripts.Verifier = (*mathNode)(nil)
