package scripts

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/errs"
)

// testRegistry holds small real node kinds that exercise the runner's semantics.
func testRegistry() *Registry {
	r := NewRegistry()
	r.Register(Spec{Kind: "set", Summary: "set a variable", Params: []Param{
		{Name: "name", Type: String, Required: true},
		{Name: "value", Type: String, Template: true, Default: ""},
	}, Build: func(p *Params) (Node, error) {
		name, _ := p.String("name")
		val, _ := p.String("value")
		return nodeFunc(func(ctx context.Context, env *Env) error { env.Vars.Set(name, val); return nil }), nil
	}})
	r.Register(Spec{Kind: "fail", Summary: "fail with a code", Params: []Param{
		{Name: "code", Type: String, Default: errs.NodeFailed},
	}, Build: func(p *Params) (Node, error) {
		code, _ := p.String("code")
		return nodeFunc(func(ctx context.Context, env *Env) error { return errs.E(code, "failed on purpose") }), nil
	}})
	r.Register(Spec{Kind: "sleep", Summary: "sleep", Timeout: time.Minute, Params: []Param{
		{Name: "ms", Type: Number, Required: true, Min: F(0)},
	}, Build: func(p *Params) (Node, error) {
		ms, err := p.Number("ms")
		if err != nil {
			return nil, err
		}
		return nodeFunc(func(ctx context.Context, env *Env) error {
			select {
			case <-time.After(time.Duration(ms) * time.Millisecond):
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}), nil
	}})
	r.Register(Spec{Kind: "flaky", Summary: "verifies on the given attempt", Attempts: 3, Params: []Param{
		{Name: "ok_on", Type: Number, Required: true},
	}, Build: func(p *Params) (Node, error) {
		n, _ := p.Number("ok_on")
		return &flaky{okOn: int(n)}, nil
	}})
	r.Register(Spec{Kind: "panic", Summary: "panics", Build: func(p *Params) (Node, error) {
		return nodeFunc(func(ctx context.Context, env *Env) error { panic("boom") }), nil
	}})
	r.Register(Spec{Kind: "group", Summary: "runs children", Params: []Param{{Name: "do", Type: Nodes, Required: true}},
		Build: func(p *Params) (Node, error) {
			kids := p.Nodes("do")
			return nodeFunc(func(ctx context.Context, env *Env) error { return env.RunList(ctx, kids) }), nil
		}})
	return r
}

type nodeFunc func(ctx context.Context, env *Env) error

func (f nodeFunc) Run(ctx context.Context, env *Env) error { return f(ctx, env) }

type flaky struct {
	okOn  int
	count int
}

func (f *flaky) Run(ctx context.Context, env *Env) error { f.count = env.Attempt; return nil }
func (f *flaky) Verify(ctx context.Context, env *Env) ([]Check, error) {
	return []Check{{Name: "worked", Passed: f.count >= f.okOn}}, nil
}

func compile(t *testing.T, r *Registry, nodes string) (*Script, error) {
	t.Helper()
	var raw []json.RawMessage
	if err := json.Unmarshal([]byte(nodes), &raw); err != nil {
		t.Fatalf("bad test JSON: %v", err)
	}
	return r.Compile("test goal", raw, nil)
}

func execute(t *testing.T, r *Registry, nodes string, timeout time.Duration) Doc {
	t.Helper()
	s, err := compile(t, r, nodes)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	run := NewRun("r_test", "acct", "test", s)
	(&Runner{Registry: r}).Execute(context.Background(), run, ExecOptions{Timeout: timeout})
	return run.Doc()
}

func TestCompile_ReportsEveryProblem(t *testing.T) {
	r := testRegistry()
	_, err := compile(t, r, `[
		{"type": "set", "name": "a"},
		{"type": "nope"},
		{"type": "sleep", "ms": "abc"},
		{"type": "sleep", "ms": -1},
		{"type": "set"},
		{"type": "set", "name": "b", "nmae": "typo"},
		{"no_type": true},
		{"type": "group", "do": [{"type": "sleep"}]},
		"not an object",
		{"type": "sleep", "ms": 5, "timeout": -2}
	]`)
	var e *errs.Error
	if !errors.As(err, &e) || e.Code != errs.InvalidConfig {
		t.Fatalf("want invalid_config, got %v", err)
	}
	want := []struct {
		node  int
		field string
		has   string
	}{
		{1, "type", "unknown node type \"nope\""},
		{2, "ms", "must be a number"},
		{3, "ms", "at least 0"},
		{4, "name", "is required"},
		{5, "nmae", "unknown parameter"},
		{6, "type", "is required"},
		{7, "7.do.0: ms", "is required"},
		{8, "", "must be an object"},
		{9, "timeout", "between 0 and 86400"},
	}
	if len(e.Details) != len(want) {
		t.Fatalf("want %d problems, got %d: %+v", len(want), len(e.Details), e.Details)
	}
	for i, w := range want {
		d := e.Details[i]
		if d.Node == nil || *d.Node != w.node || d.Field != w.field || !strings.Contains(d.Problem, w.has) {
			t.Errorf("problem %d = node %v field %q %q; want node %d field %q containing %q", i, d.Node, d.Field, d.Problem, w.node, w.field, w.has)
		}
	}
}

func TestCompile_GoalAndNodesRequired(t *testing.T) {
	r := testRegistry()
	_, err := r.Compile(" ", nil, nil)
	var e *errs.Error
	if !errors.As(err, &e) || len(e.Details) != 2 || e.Details[0].Field != "goal" || e.Details[1].Field != "json_output" {
		t.Fatalf("want goal and json_output problems, got %+v", err)
	}
}

func TestCompile_TypeNamesAreForgiving(t *testing.T) {
	r := testRegistry()
	for _, name := range []string{"sleep", "Sleep", " SLEEP "} {
		if _, err := compile(t, r, `[{"type": "`+name+`", "ms": 1}]`); err != nil {
			t.Errorf("%q: %v", name, err)
		}
	}
}

func TestRegister_PanicsOnDuplicate(t *testing.T) {
	r := testRegistry()
	defer func() {
		if recover() == nil {
			t.Fatal("want a panic for a duplicate kind")
		}
	}()
	r.Register(Spec{Kind: "SET", Build: func(p *Params) (Node, error) { return nil, nil }})
}

func TestDecodeRequest_Errors(t *testing.T) {
	cases := []struct {
		body, code string
	}{
		{`{"goal": "x", "json_output": [`, errs.InvalidJSON},
		{`not json`, errs.InvalidJSON},
		{`{"goal": 5, "json_output": []}`, errs.InvalidConfig},
		{`{"goal": "x", "json_output": {}}`, errs.InvalidConfig},
		{`{"goal": "x"} {"again": 1}`, errs.InvalidJSON},
	}
	for _, c := range cases {
		_, err := DecodeRequest([]byte(c.body))
		if errs.Code(err) != c.code {
			t.Errorf("%s: got %v, want %s", c.body, err, c.code)
		}
	}
}

func TestExpand(t *testing.T) {
	v := NewVars(map[string]any{"name": "Ada", "n": json.Number("3"), "obj": map[string]any{"items": []any{"x", map[string]any{"t": "deep"}}}})
	cases := []struct{ in, want, code string }{
		{"hello {{name}}", "hello Ada", ""},
		{"{{ name }} has {{n}}", "Ada has 3", ""},
		{"{{obj.items.1.t}}", "deep", ""},
		{"{{obj.items}}", `["x",{"t":"deep"}]`, ""},
		{"no placeholders {x}", "no placeholders {x}", ""},
		{"{{missing}}", "", errs.VariableNotSet},
	}
	for _, c := range cases {
		got, err := v.Expand(c.in)
		if c.code != "" {
			if errs.Code(err) != c.code {
				t.Errorf("%q: want %s, got %v", c.in, c.code, err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%q = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

func TestRunner_OrderVariablesAndSkips(t *testing.T) {
	d := execute(t, testRegistry(), `[
		{"type": "set", "name": "a", "value": "1"},
		{"type": "set", "name": "b", "value": "{{a}}-2"},
		{"type": "fail", "code": "target_not_found", "continue_on_error": true},
		{"type": "fail"},
		{"type": "set", "name": "c", "value": "never"}
	]`, 0)
	if d.Status != StatusFailed || d.Error == nil || d.Error.Code != errs.NodeFailed {
		t.Fatalf("status %s error %+v", d.Status, d.Error)
	}
	if d.Data["b"] != "1-2" || d.Data["c"] != nil {
		t.Fatalf("data %v", d.Data)
	}
	wantStatus := []string{StepOK, StepOK, StepFailed, StepFailed, StepSkipped}
	if len(d.Steps) != len(wantStatus) {
		t.Fatalf("steps %+v", d.Steps)
	}
	for i, s := range d.Steps {
		if s.Status != wantStatus[i] || s.Index != i {
			t.Errorf("step %d: %s (index %d), want %s", i, s.Status, s.Index, wantStatus[i])
		}
	}
}

func TestRunner_MissingVariableFailsTheStep(t *testing.T) {
	d := execute(t, testRegistry(), `[{"type": "set", "name": "a", "value": "{{nope}}"}]`, 0)
	if d.Steps[0].Error == nil || d.Steps[0].Error.Code != errs.VariableNotSet {
		t.Fatalf("%+v", d.Steps[0])
	}
}

func TestRunner_VerificationLoop(t *testing.T) {
	d := execute(t, testRegistry(), `[{"type": "flaky", "ok_on": 2}]`, 0)
	v := d.Steps[0].Verification
	if d.Status != StatusSucceeded || v == nil || !v.Passed || v.Attempts != 2 {
		t.Fatalf("status %s verification %+v", d.Status, v)
	}
	d = execute(t, testRegistry(), `[{"type": "flaky", "ok_on": 9}]`, 0)
	v = d.Steps[0].Verification
	if d.Steps[0].Error == nil || d.Steps[0].Error.Code != errs.VerificationFailed || v.Attempts != 3 || v.Passed {
		t.Fatalf("step %+v", d.Steps[0])
	}
	if hist, _ := d.Steps[0].Detail["attempts"].([]map[string]any); len(hist) != 3 {
		t.Fatalf("attempt history %v", d.Steps[0].Detail["attempts"])
	}
}

func TestRunner_TimeLimits(t *testing.T) {
	d := execute(t, testRegistry(), `[{"type": "sleep", "ms": 5000, "timeout": 0.1}]`, 0)
	if d.Status != StatusFailed || d.Steps[0].Error.Code != errs.Timeout {
		t.Fatalf("node limit: %s %+v", d.Status, d.Steps[0].Error)
	}
	d = execute(t, testRegistry(), `[{"type": "sleep", "ms": 5000}, {"type": "sleep", "ms": 1}]`, 100*time.Millisecond)
	if d.Status != StatusTimedOut || d.Error.Code != errs.Timeout || d.Steps[1].Status != StepSkipped {
		t.Fatalf("run limit: %s %+v %+v", d.Status, d.Error, d.Steps)
	}
}

func TestRunner_Cancel(t *testing.T) {
	r := testRegistry()
	s, _ := compile(t, r, `[{"type": "sleep", "ms": 10000}]`)
	run := NewRun("r_c", "acct", "test", s)
	done := make(chan struct{})
	go func() { (&Runner{Registry: r}).Execute(context.Background(), run, ExecOptions{}); close(done) }()
	for run.Doc().Status != StatusRunning {
		time.Sleep(time.Millisecond)
	}
	run.Cancel()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		t.Fatal("cancel did not stop the run")
	}
	if d := run.Doc(); d.Status != StatusCanceled || d.Error.Code != errs.Canceled {
		t.Fatalf("%s %+v", d.Status, d.Error)
	}
}

func TestRunner_PanicIsInternal(t *testing.T) {
	d := execute(t, testRegistry(), `[{"type": "panic"}]`, 0)
	if d.Status != StatusFailed || d.Steps[0].Error.Code != errs.Internal {
		t.Fatalf("%s %+v", d.Status, d.Steps[0].Error)
	}
}

func TestRunner_ChildStepsCarryTheirPath(t *testing.T) {
	d := execute(t, testRegistry(), `[{"type": "group", "do": [{"type": "set", "name": "x", "value": "1"}, {"type": "fail"}]}, {"type": "set", "name": "y"}]`, 0)
	if len(d.Steps) != 4 {
		t.Fatalf("steps %+v", d.Steps)
	}
	if d.Steps[0].Path != "0.do.0" || d.Steps[1].Path != "0.do.1" || d.Steps[2].Type != "group" || d.Steps[2].Status != StepFailed || d.Steps[3].Status != StepSkipped {
		t.Fatalf("steps %+v", d.Steps)
	}
}

func TestRun_SubscribeSeesEveryStepThenDone(t *testing.T) {
	r := testRegistry()
	s, _ := compile(t, r, `[{"type": "sleep", "ms": 20}, {"type": "sleep", "ms": 20}]`)
	run := NewRun("r_e", "acct", "test", s)
	past, live, _ := run.Subscribe()
	var steps int32
	go (&Runner{Registry: r}).Execute(context.Background(), run, ExecOptions{})
	var done bool
	for ev := range live {
		switch ev.Type {
		case "step":
			atomic.AddInt32(&steps, 1)
		case "done":
			done = ev.Doc != nil && ev.Doc.Status == StatusSucceeded
		}
	}
	if len(past) != 0 || steps != 2 || !done {
		t.Fatalf("past %d steps %d done %v", len(past), steps, done)
	}
}
