// Package scripts is the agent model and its runner: the node Spec and registry that drive
// validation and the catalogue, variables and {{name}} templating, ordered execution with the
// verification loop, and the run document that is stored and returned. Node kinds live in
// scripts/nodes and register themselves; this package never imports them.
package scripts

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
)

// Type is the JSON type of a node parameter.
type Type string

// Parameter types. Nodes is a list of child nodes (control flow).
const (
	String  Type = "string"
	Number  Type = "number"
	Bool    Type = "boolean"
	Strings Type = "array"
	Object  Type = "object"
	Nodes   Type = "nodes"
	Any     Type = "any"
)

// Param describes one parameter of a node kind. A param with no Default and Required set must be
// present; Template marks text that {{name}} placeholders expand in before the node runs.
type Param struct {
	Name        string   `json:"name"`
	Type        Type     `json:"type"`
	Description string   `json:"description"`
	Required    bool     `json:"required"`
	Default     any      `json:"default,omitempty"`
	Example     any      `json:"example,omitempty"`
	Enum        []string `json:"enum,omitempty"`
	Min         *float64 `json:"min,omitempty"`
	Max         *float64 `json:"max,omitempty"`
	Template    bool     `json:"template,omitempty"`
	// Code names the language of a code param ("python", "bash"): its {{name}} placeholders
	// become literals of that language (see RegisterCodeTemplater), never raw text.
	Code string `json:"code,omitempty"`
}

// Spec is the single source of truth about a node kind: it drives validation, `rodeo nodes`,
// GET /nodes and the docs. Build makes a runnable node from already-templated params.
type Spec struct {
	Kind     string   `json:"type"`
	Aliases  []string `json:"aliases,omitempty"`
	Summary  string   `json:"summary"`
	Category string   `json:"category"`
	Params   []Param  `json:"params"`
	// Browser marks kinds that need a browser page; the runner leases one lazily for them.
	Browser bool `json:"browser"`
	// NeedsModel marks kinds that cannot run without a language model: a script holding one is
	// refused with llm_not_configured before it starts when no model is configured.
	NeedsModel bool `json:"needs_model,omitempty"`
	// Desktop marks kinds that drive the X display (mouse, keys, screen, programs); the runner
	// leases the desktop lazily for them, one run at a time per display.
	Desktop bool `json:"desktop,omitempty"`
	// Uses, when set, decides Browser and Desktop from a node's literal params instead (a click
	// with browser_mode false is a desktop click and needs no browser); DesktopWhen says when in
	// words, for the catalogue.
	Uses        func(raw map[string]any) (browser, desktop bool) `json:"-"`
	DesktopWhen string                                           `json:"desktop_when,omitempty"`
	// Timeout is the default time limit of one execution; the node's `timeout` field overrides it.
	Timeout time.Duration `json:"-"`
	// Attempts is the verification budget: how often Run+Verify may be tried. Default 1.
	Attempts int                           `json:"attempts"`
	Examples []map[string]any              `json:"examples,omitempty"`
	Build    func(p *Params) (Node, error) `json:"-"`
	// Validate, when set, checks a node's literal params at compile time beyond their types
	// (e.g. a regular expression that does not compile, two params that exclude each other), so
	// the mistake is an invalid_config answer instead of a failed run. Values holding {{name}}
	// placeholders are known only at run time: Validate skips them and Build checks them.
	// An *errs.Error with Details reports each detail under its own field.
	Validate func(p *Params) error `json:"-"`
}

// Param returns the named parameter's description.
func (s *Spec) Param(name string) (Param, bool) {
	for _, p := range s.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// Node is one executable step, built from templated params.
type Node interface {
	Run(ctx context.Context, env *Env) error
}

// Verifier is implemented by nodes that check their own effect after Run. Checks that fail make
// the runner try again (Run then Verify) within the kind's Attempts budget. A non-nil error
// names the failure's code (e.g. navigation_failed for a 404); with a nil error, a failed check
// fails the step as verification_failed.
type Verifier interface {
	Verify(ctx context.Context, env *Env) ([]Check, error)
}

// Closer is implemented by nodes holding resources past Run (e.g. held keys).
type Closer interface {
	Close()
}

// Check is one verification of a node's effect.
type Check struct {
	Name   string `json:"name"`
	Passed bool   `json:"passed"`
	Detail string `json:"detail,omitempty"`
}

// Registry maps node kinds (and their aliases) to specs.
type Registry struct {
	mu    sync.RWMutex
	specs map[string]*Spec
	names map[string]string // normalized name or alias -> kind
}

// DefaultRegistry is the registry node kinds add themselves to from their init functions.
var DefaultRegistry = NewRegistry()

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{specs: map[string]*Spec{}, names: map[string]string{}}
}

// Register adds spec to the default registry. It panics on an empty kind, a missing Build, or a
// kind or alias that is already taken: those are programming errors caught at start-up.
func Register(spec Spec) { DefaultRegistry.Register(spec) }

// Register adds spec; see the package-level Register.
func (r *Registry) Register(spec Spec) {
	if spec.Kind == "" || spec.Build == nil {
		panic("scripts: Register with an empty kind or nil Build")
	}
	if spec.Attempts < 1 {
		spec.Attempts = 1
	}
	if spec.Timeout <= 0 {
		spec.Timeout = 30 * time.Second
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.specs[spec.Kind]; dup {
		panic(fmt.Sprintf("scripts: node kind %q is already registered", spec.Kind))
	}
	for _, name := range append([]string{spec.Kind}, spec.Aliases...) {
		n := normalize(name)
		if other, dup := r.names[n]; dup && other != spec.Kind {
			panic(fmt.Sprintf("scripts: node name %q of %q is already registered by %q", name, spec.Kind, other))
		}
		r.names[n] = spec.Kind
	}
	s := spec
	r.specs[spec.Kind] = &s
}

// Lookup finds a kind by its name or an alias, ignoring case and the difference between spaces,
// underscores and hyphens ("open tab", "open_tab", "Open-Tab").
func (r *Registry) Lookup(name string) (*Spec, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	kind, ok := r.names[normalize(name)]
	if !ok {
		return nil, false
	}
	return r.specs[kind], true
}

// All returns every spec sorted by kind.
func (r *Registry) All() []*Spec {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]*Spec, 0, len(r.specs))
	for _, s := range r.specs {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Kind < out[j].Kind })
	return out
}

// Kinds lists the registered kinds, sorted.
func (r *Registry) Kinds() []string {
	var out []string
	for _, s := range r.All() {
		out = append(out, s.Kind)
	}
	return out
}

func normalize(name string) string {
	name = strings.ToLower(strings.TrimSpace(name))
	return strings.NewReplacer("_", " ", "-", " ").Replace(name)
}

// F is a helper for Param.Min and Param.Max.
func F(v float64) *float64 { return &v }
