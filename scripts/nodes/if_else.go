package nodes

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
)

// ifElse is the studio's If Else node: it evaluates one variable against a condition and runs
// the `then` or the `else` node list. The step detail says which branch ran and why; it
// verifies that the chosen branch ran to its end (a failing child fails the node, unless the
// child says continue_on_error).
type ifElse struct {
	variable  string
	operator  string
	condition any
	then      []*scripts.Call
	els       []*scripts.Call

	branch string
	ran    int
}

var ifOperators = []string{"includes", "equals", "greater than", "less than", "regex match"}

func init() {
	scripts.Register(scripts.Spec{
		Kind:     "if_else",
		Aliases:  []string{"If Else", "if"},
		Summary:  "Run the `then` nodes when a variable meets a condition, else the `else` nodes.",
		Category: "flow",
		Timeout:  6 * time.Hour, // bounded by its children's own limits and the run's
		Params: []scripts.Param{
			{Name: "variables", Type: scripts.String, Required: true,
				Description: "the variable evaluated (dotted names reach into objects: order.total)", Example: "status"},
			{Name: "operator", Type: scripts.String, Default: "equals", Enum: ifOperators,
				Description: "includes: text contains the condition (an array: has an item equal to it; an object: has that key); equals: same number or same text; greater than / less than: numeric comparison; regex match: the text matches the regular expression",
				Example:     "equals"},
			{Name: "condition", Type: scripts.Any, Required: true, Template: true,
				Description: "what the variable is compared with: text, a number or a regular expression", Example: "paid"},
			{Name: "then", Type: scripts.Nodes,
				Description: "nodes run when the condition holds", Example: []any{map[string]any{"type": "print", "text": "paid"}}},
			{Name: "else", Type: scripts.Nodes,
				Description: "nodes run when it does not", Example: []any{map[string]any{"type": "print", "text": "not paid"}}},
		},
		Examples: []map[string]any{{"type": "if_else", "variables": "status", "operator": "equals", "condition": "paid",
			"then": []any{map[string]any{"type": "print", "text": "paid"}},
			"else": []any{map[string]any{"type": "print", "text": "not paid: {{status}}"}}}},
		Build: func(p *scripts.Params) (scripts.Node, error) {
			name, err := varParam(p, "variables")
			if err != nil {
				return nil, err
			}
			op, err := p.String("operator")
			if err != nil {
				return nil, err
			}
			op = strings.ToLower(strings.Join(strings.Fields(strings.NewReplacer("_", " ", "-", " ").Replace(op)), " "))
			if !hasString(ifOperators, op) {
				return nil, errInvalid("parameter operator: must be one of %s, not %q", strings.Join(ifOperators, ", "), op)
			}
			cond, _ := p.Value("condition")
			n := &ifElse{variable: name, operator: op, condition: cond, then: p.Nodes("then"), els: p.Nodes("else")}
			if op == "regex match" {
				if _, err := compileCondition(cond); err != nil {
					return nil, err
				}
			}
			return n, nil
		},
		Validate: func(p *scripts.Params) error {
			cond, _ := p.Value("condition")
			switch cond.(type) {
			case map[string]any, []any:
				return paramProblem("condition", "must be text, a number or a regular expression, not an object or array")
			}
			op, _ := p.String("operator")
			if strings.EqualFold(strings.TrimSpace(op), "regex match") && !isTemplated(cond) {
				if _, err := compileCondition(cond); err != nil {
					return paramProblem("condition", "%s", strings.TrimPrefix(err.Error(), "parameter condition: "))
				}
			}
			if (strings.EqualFold(op, "greater than") || strings.EqualFold(op, "less than")) && !isTemplated(cond) {
				if _, ok := numberOf(cond); !ok {
					return paramProblem("condition", "%s compares numbers; %s is not a number", op, showValue(cond))
				}
			}
			return nil
		},
	})
}

func compileCondition(cond any) (*regexp.Regexp, error) {
	re, err := regexp.Compile(scripts.Text(cond))
	if err != nil {
		return nil, errs.E(errs.InvalidConfig, "parameter condition: not a valid regular expression: %v", err)
	}
	return re, nil
}

// evaluate decides the branch and says why.
func (n *ifElse) evaluate(env *scripts.Env) (bool, string, error) {
	v, ok := env.Vars.Get(n.variable)
	if !ok {
		return false, "", errs.E(errs.VariableNotSet, "variable %s (evaluated by if_else) is not set", n.variable)
	}
	text, cond := scripts.Text(v), scripts.Text(n.condition)
	show := fmt.Sprintf("%s (%s) %s %s", n.variable, textExcerpt([]byte(text), 80), n.operator, textExcerpt([]byte(cond), 80))
	var result bool
	switch n.operator {
	case "includes":
		switch t := v.(type) {
		case []any:
			for _, item := range t {
				if equalValues(item, n.condition) {
					result = true
					break
				}
			}
		case map[string]any:
			_, result = t[cond]
		default:
			result = strings.Contains(text, cond)
		}
	case "equals":
		result = equalValues(v, n.condition)
	case "greater than", "less than":
		a, aok := numberOf(v)
		b, bok := numberOf(n.condition)
		if !aok {
			return false, show, errs.E(codeInvalidValue, "if_else %s compares numbers; variable %s holds %s", n.operator, n.variable, showValue(v))
		}
		if !bok {
			return false, show, errs.E(codeInvalidValue, "if_else %s compares numbers; the condition %s is not a number", n.operator, showValue(n.condition))
		}
		result = a > b
		if n.operator == "less than" {
			result = a < b
		}
	case "regex match":
		re, err := compileCondition(n.condition)
		if err != nil {
			return false, show, err
		}
		result = re.MatchString(text)
	}
	return result, fmt.Sprintf("%s: %v", show, result), nil
}

// equalValues compares as numbers when both sides are numbers, else as text.
func equalValues(a, b any) bool {
	x, xok := numberOf(a)
	y, yok := numberOf(b)
	if xok && yok {
		return x == y
	}
	return scripts.Text(a) == scripts.Text(b)
}

func (n *ifElse) Run(ctx context.Context, env *scripts.Env) error {
	n.branch, n.ran = "", 0
	ok, why, err := n.evaluate(env)
	if why != "" {
		env.SetDetail("reason", why)
	}
	if err != nil {
		return err
	}
	list := n.els
	n.branch = "else"
	if ok {
		list, n.branch = n.then, "then"
	}
	env.SetDetail("branch", n.branch)
	env.SetDetail("nodes", len(list))
	if err := env.RunList(ctx, list); err != nil {
		return err
	}
	n.ran = len(list)
	return nil
}

func (n *ifElse) Verify(ctx context.Context, env *scripts.Env) ([]scripts.Check, error) {
	return []scripts.Check{{Name: "branch_completed", Passed: n.branch != "",
		Detail: fmt.Sprintf("%s: %d nodes ran", n.branch, n.ran)}}, nil
}

var _ scripts.Verifier = (*ifElse)(nil)
