package nodes_test

import (
	"testing"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
)

func TestLoopOver(t *testing.T) {
	d := dataRun(t, nil, `[{"type": "loop", "loop_over": "xs", "loop_item": "x", "do": [
		{"type": "math", "action": "add", "input": "sum", "value": "{{x.n}}"}]}]`,
		map[string]any{"sum": 0, "xs": []any{map[string]any{"n": 1}, map[string]any{"n": 2}, map[string]any{"n": 4}}})
	if d.Status != scripts.StatusSucceeded || d.Data["sum"] != float64(7) || d.Steps[len(d.Steps)-1].Detail["iterations"] != 3 {
		t.Fatal(dump(d))
	}
	cases := []struct {
		data map[string]any
		code string
	}{
		{map[string]any{"sum": 0}, errs.VariableNotSet},
		{map[string]any{"sum": 0, "xs": "not a list"}, errs.InvalidConfig},
	}
	for _, c := range cases {
		d := dataRun(t, nil, `[{"type": "loop", "loop_over": "xs", "do": [{"type": "print", "text": "x"}]}]`, c.data)
		if stepErr(d, 0) != c.code {
			t.Errorf("%v: %s", c.data, dump(d))
		}
	}
	if msg := compileErr(t, `[{"type": "loop", "loop_over": "xs", "loop_total_runs": 2, "do": []}]`); msg == "" {
		t.Error("loop_over with loop_total_runs must be refused")
	}
}
