package scripts

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/rodeo-run/rodeo/errs"
)

// SubStep is one action a node takes through another kind's code (the general node's
// sub-actions): the node is built already, runs with the runner's verification loop and is
// recorded as its own step under Path, so it is verified and shown exactly as that kind is.
type SubStep struct {
	// Name is the step's path below the calling node's: "general.5" under node 2 is recorded
	// as path "2.general.5".
	Name string
	// Kind is the kind whose code Node is; its spec gives the step's type, time limit and
	// browser need (a kind that is no node of its own, such as the general node's "select",
	// is a browser step of 30s). Attempts is always 1: the caller decides what a failed check
	// means.
	Kind string
	Node Node
	// Timeout, when set, replaces the kind's time limit.
	Timeout time.Duration
	// Detail starts the step's detail (the caller's notes, e.g. why the action was taken).
	Detail map[string]any
}

// RunStep runs s and returns its recorded step. The calling node's own step state (its detail
// and attempt) is kept, as RunList keeps it.
func (e *Env) RunStep(ctx context.Context, s SubStep) (Step, error) {
	reg := DefaultRegistry
	if e.runner != nil && e.runner.Registry != nil {
		reg = e.runner.Registry
	}
	one := Spec{Kind: s.Kind, Browser: true, Timeout: 30 * time.Second}
	if spec, ok := reg.Lookup(s.Kind); ok {
		one = *spec
	}
	one.Attempts = 1
	path := e.callPath + "." + s.Name
	c := &Call{Index: topIndex(path), Path: path, Spec: &one, Timeout: s.Timeout}
	detail, attempt, caller := e.detail, e.Attempt, e.callPath
	defer func() { e.detail, e.Attempt, e.callPath = detail, attempt, caller }()
	return e.runner.exec(ctx, e, c, s.Node, s.Detail)
}

// NeedsModel reports whether any node (children included) is of a kind that cannot run without
// a language model.
func NeedsModel(calls []*Call) (*Call, bool) {
	for _, c := range calls {
		if c.Spec.NeedsModel {
			return c, true
		}
		for _, kids := range c.Children {
			if k, ok := NeedsModel(kids); ok {
				return k, true
			}
		}
	}
	return nil, false
}

// checkModel refuses a script that needs a model when none is configured, before anything runs
// or is stored: such a run could only fail at that node, after doing the nodes before it.
func (rn *Runner) checkModel(s *Script) error {
	c, needs := NeedsModel(s.Nodes)
	if !needs || (rn.Services != nil && rn.Services.LLM != nil) {
		return nil
	}
	i := topIndex(c.Path)
	field := "type"
	if strings.Contains(c.Path, ".") {
		field = c.Path + ": type"
	}
	return &errs.Error{Code: errs.LLMNotConfigured,
		Message: fmt.Sprintf("node %s (%s) needs a language model and none is configured: set OPENAI_API_KEY (and OPENAI_BASE_URL for a local or other OpenAI-compatible server, e.g. http://127.0.0.1:11434/v1 for Ollama; RODEO_LLM_MODEL picks the model)", c.Path, c.Spec.Kind),
		Details: []errs.Detail{{Node: &i, Field: field, Problem: "needs a language model: set OPENAI_API_KEY or OPENAI_BASE_URL"}}}
}
