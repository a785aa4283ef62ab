package nodes

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
)

// maxLoopRuns bounds the iterations of one loop node (a loop inside a loop multiplies). A
// runaway count is a mistake far more often than a need, and every iteration adds steps to the
// run document.
const maxLoopRuns = 10000

// loop repeats its `do` nodes: a fixed number of times (the studio's Loop Total Runs), or as
// many times as another node has run so far (Loop Node Runs; counted when the loop starts). The
// 0-based iteration number is in a variable (loop_index unless renamed) for the children's
// {{placeholders}}. A failing child stops the loop (and fails it) unless that child says
// continue_on_error. It verifies that every planned iteration ran.
type loop struct {
	total    int
	nodeRuns string
	over     string // a list variable: one iteration per item (for each)
	item     string
	index    string
	do       []*scripts.Call

	planned, done int
}

func init() {
	scripts.Register(scripts.Spec{
		Kind:     "loop",
		Aliases:  []string{"repeat"},
		Summary:  "Repeat the `do` nodes a fixed number of times, as many times as another node has run, or once for each item of a list.",
		Category: "flow",
		Timeout:  6 * time.Hour, // bounded by its children's own limits and the run's
		Params: []scripts.Param{
			{Name: "do", Type: scripts.Nodes, Required: true,
				Description: "the nodes repeated, in order", Example: []any{map[string]any{"type": "print", "text": "round {{loop_index}}"}}},
			{Name: "loop_total_runs", Type: scripts.Number, Min: scripts.F(0), Max: scripts.F(maxLoopRuns),
				Description: fmt.Sprintf("Loop Total Runs: how many times to repeat (a whole number, at most %d)", maxLoopRuns), Example: 3},
			{Name: "loop_node_runs", Type: scripts.String, Template: true,
				Description: "Loop Node Runs: the `id` (or path, e.g. \"2\" or \"4.do.0\") of a node; repeat as many times as it has run so far in this run",
				Example:     "fetch_page"},
			{Name: "loop_over", Type: scripts.String,
				Description: "a variable holding a list (e.g. rows scraped from a table): repeat once per item, the item in loop_item", Example: "products"},
			{Name: "loop_item", Type: scripts.String, Default: "loop_item",
				Description: "with loop_over, the variable holding the current item (objects reach their fields as {{loop_item.Name}})", Example: "product"},
			{Name: "loop_index", Type: scripts.String, Default: "loop_index",
				Description: "the variable holding the 0-based iteration number (give nested loops different names)", Example: "i"},
		},
		Examples: []map[string]any{
			{"type": "loop", "loop_total_runs": 3, "do": []any{map[string]any{"type": "print", "text": "round {{loop_index}}"}}},
			{"type": "loop", "loop_node_runs": "fetch", "loop_index": "i",
				"do": []any{map[string]any{"type": "print", "text": "page {{i}}"}}},
			{"type": "loop", "loop_over": "products", "loop_item": "product",
				"do": []any{map[string]any{"type": "print", "text": "{{product.Name}}"}}},
		},
		Build: func(p *scripts.Params) (scripts.Node, error) {
			n := &loop{do: p.Nodes("do"), total: -1}
			var err error
			if n.index, err = varParam(p, "loop_index"); err != nil {
				return nil, err
			}
			if n.nodeRuns, err = p.String("loop_node_runs"); err != nil {
				return nil, err
			}
			n.nodeRuns = strings.TrimSpace(n.nodeRuns)
			if n.over, err = varParam(p, "loop_over"); err != nil {
				return nil, err
			}
			if n.item, err = varParam(p, "loop_item"); err != nil {
				return nil, err
			}
			if p.Has("loop_total_runs") {
				f, err := p.Number("loop_total_runs")
				if err != nil {
					return nil, err
				}
				if f != float64(int(f)) {
					return nil, errInvalid("parameter loop_total_runs: must be a whole number, not %v", f)
				}
				n.total = int(f)
			}
			if count(n.total >= 0, n.nodeRuns != "", n.over != "") != 1 {
				return nil, errInvalid("loop needs exactly one of loop_total_runs, loop_node_runs and loop_over")
			}
			if n.index == "" {
				return nil, errInvalid("parameter loop_index: the variable name is empty")
			}
			return n, nil
		},
		Validate: func(p *scripts.Params) error {
			total, nodeRuns, over := p.Has("loop_total_runs"), p.Has("loop_node_runs"), p.Has("loop_over")
			if count(total, nodeRuns, over) != 1 {
				return paramProblem("loop_total_runs", "give exactly one of loop_total_runs (a count), loop_node_runs (a node id) and loop_over (a list variable)")
			}
			if total {
				if v, _ := p.Value("loop_total_runs"); !isTemplated(v) {
					if f, err := p.Number("loop_total_runs"); err == nil && f != float64(int(f)) {
						return paramProblem("loop_total_runs", "must be a whole number, not %v", f)
					}
				}
			}
			return nil
		},
	})
}

func (n *loop) Run(ctx context.Context, env *scripts.Env) error {
	n.done = 0
	n.planned = n.total
	if n.nodeRuns != "" {
		n.planned = env.NodeRuns(n.nodeRuns)
		env.SetDetail("node_runs_of", n.nodeRuns)
		if n.planned > maxLoopRuns {
			return errs.E(errs.InvalidConfig, "node %s has run %d times; a loop repeats at most %d times", n.nodeRuns, n.planned, maxLoopRuns)
		}
	}
	var items []any
	if n.over != "" {
		v, ok := env.Vars.Get(n.over)
		if !ok {
			return errs.E(errs.VariableNotSet, "loop_over: variable %s is not set", n.over)
		}
		if items, ok = v.([]any); !ok {
			return errs.E(errs.InvalidConfig, "loop_over: variable %s holds %s, not a list", n.over, kindOf(v))
		}
		if len(items) > maxLoopRuns {
			return errs.E(errs.InvalidConfig, "loop_over: %s has %d items; a loop repeats at most %d times", n.over, len(items), maxLoopRuns)
		}
		n.planned = len(items)
		env.SetDetail("over", n.over)
	}
	env.SetDetail("planned", n.planned)
	env.SetDetail("index_variable", n.index)
	defer func() { env.SetDetail("iterations", n.done) }()
	for i := 0; i < n.planned; i++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		env.Vars.Set(n.index, float64(i))
		if items != nil {
			env.Vars.Set(n.item, items[i])
		}
		if err := env.RunList(ctx, n.do); err != nil {
			env.SetDetail("failed_iteration", i)
			return err
		}
		n.done++
	}
	return nil
}

func (n *loop) Verify(ctx context.Context, env *scripts.Env) ([]scripts.Check, error) {
	return []scripts.Check{{Name: "iterations_completed", Passed: n.done == n.planned,
		Detail: fmt.Sprintf("%d of %d iterations", n.done, n.planned)}}, nil
}

var _ scripts.Verifier = (*loop)(nil)

// count reports how many of bs are true.
func count(bs ...bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// kindOf names a variable's JSON kind for messages.
func kindOf(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case string:
		return "a text"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "nothing"
	}
	return fmt.Sprintf("%T", v)
}
