package scripts

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/rodeo-run/rodeo/errs"
)

// Params are a node's parameters after templating, read through typed getters. Validation has
// already checked types, so getters fail only on values that templating produced at run time
// (e.g. "{{count}}" that expands to "abc" where a number is needed).
type Params struct {
	spec     *Spec
	values   map[string]any
	children map[string][]*Call
}

// NewParams builds params for spec from values as decoded from JSON (tests and nodes that build
// other nodes use it; the runner builds them from a Call).
func NewParams(spec *Spec, values map[string]any, children map[string][]*Call) *Params {
	return &Params{spec: spec, values: values, children: children}
}

func (p *Params) lookup(name string) (any, Param, bool) {
	def, _ := p.spec.Param(name)
	v, ok := p.values[name]
	if !ok || v == nil {
		if def.Default != nil {
			return def.Default, def, true
		}
		return nil, def, false
	}
	return v, def, true
}

// Has reports whether the param was given or has a default.
func (p *Params) Has(name string) bool {
	_, _, ok := p.lookup(name)
	return ok
}

func bad(name, format string, args ...any) error {
	return errs.E(errs.InvalidConfig, "parameter %s: %s", name, fmt.Sprintf(format, args...))
}

// String returns a text param ("" when absent and without default).
func (p *Params) String(name string) (string, error) {
	v, _, ok := p.lookup(name)
	if !ok {
		return "", nil
	}
	switch t := v.(type) {
	case string:
		return t, nil
	case json.Number, float64, bool:
		return Text(t), nil
	}
	return "", bad(name, "must be a string")
}

// Texts returns several text params at once, in the order named.
func (p *Params) Texts(names ...string) ([]string, error) {
	out := make([]string, len(names))
	for i, name := range names {
		v, err := p.String(name)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// Number returns a numeric param; a templated string must parse as a number.
func (p *Params) Number(name string) (float64, error) {
	v, def, ok := p.lookup(name)
	if !ok {
		return 0, nil
	}
	var f float64
	switch t := v.(type) {
	case json.Number:
		var err error
		if f, err = t.Float64(); err != nil {
			return 0, bad(name, "must be a number")
		}
	case float64:
		f = t
	case int:
		f = float64(t)
	case string:
		var err error
		if f, err = strconv.ParseFloat(strings.TrimSpace(t), 64); err != nil {
			return 0, bad(name, "must be a number, got %q", truncate(t, 40))
		}
	default:
		return 0, bad(name, "must be a number")
	}
	if def.Min != nil && f < *def.Min {
		return 0, bad(name, "must be at least %v, not %v", *def.Min, f)
	}
	if def.Max != nil && f > *def.Max {
		return 0, bad(name, "must be at most %v, not %v", *def.Max, f)
	}
	return f, nil
}

// Bool returns a boolean param; templated "true"/"false" parse.
func (p *Params) Bool(name string) (bool, error) {
	v, _, ok := p.lookup(name)
	if !ok {
		return false, nil
	}
	switch t := v.(type) {
	case bool:
		return t, nil
	case string:
		b, err := strconv.ParseBool(strings.TrimSpace(t))
		if err != nil {
			return false, bad(name, "must be true or false, got %q", truncate(t, 40))
		}
		return b, nil
	}
	return false, bad(name, "must be true or false")
}

// Strings returns a list param; a single string is a list of one.
func (p *Params) Strings(name string) ([]string, error) {
	v, _, ok := p.lookup(name)
	if !ok {
		return nil, nil
	}
	switch t := v.(type) {
	case string:
		return []string{t}, nil
	case []string:
		return t, nil
	case []any:
		out := make([]string, len(t))
		for i, x := range t {
			out[i] = Text(x)
		}
		return out, nil
	}
	return nil, bad(name, "must be an array of strings")
}

// Object returns an object param.
func (p *Params) Object(name string) (map[string]any, error) {
	v, _, ok := p.lookup(name)
	if !ok {
		return nil, nil
	}
	m, isMap := v.(map[string]any)
	if !isMap {
		return nil, bad(name, "must be an object")
	}
	return m, nil
}

// Value returns a param as decoded from JSON (after templating), for Any params whose type is the
// node's to interpret (a number or a variable name, a string or an object). Numbers come as
// json.Number or float64.
func (p *Params) Value(name string) (any, bool) {
	v, _, ok := p.lookup(name)
	return v, ok
}

// Templated reports whether any param value holds a {{placeholder}}, i.e. is known only at run time.
func (p *Params) Templated() bool {
	var templated func(v any) bool
	templated = func(v any) bool {
		switch t := v.(type) {
		case string:
			return strings.Contains(t, "{{")
		case []any:
			for _, x := range t {
				if templated(x) {
					return true
				}
			}
		case map[string]any:
			for _, x := range t {
				if templated(x) {
					return true
				}
			}
		}
		return false
	}
	for _, v := range p.values {
		if templated(v) {
			return true
		}
	}
	return false
}

// Nodes returns a child node list of a control-flow param.
func (p *Params) Nodes(name string) []*Call { return p.children[name] }

// expandParams templates the Template params of c from vars, deeply for lists and objects.
func expandParams(c *Call, vars *Vars) (map[string]any, error) {
	out := make(map[string]any, len(c.Raw))
	for name, v := range c.Raw {
		def, _ := c.Spec.Param(name)
		if def.Code != "" {
			code, err := expandCode(def.Code, v, vars)
			if err != nil {
				return nil, fmt.Errorf("parameter %s: %w", name, err)
			}
			out[name] = code
			continue
		}
		if !def.Template && def.Type != Number && def.Type != Bool {
			out[name] = v
			continue
		}
		ev, err := expandValue(v, vars)
		if err != nil {
			return nil, fmt.Errorf("parameter %s: %w", name, err)
		}
		out[name] = ev
	}
	return out, nil
}

// CodeTemplater expands the {{name}} placeholders of code in one language so that every value
// becomes a literal of that language; value looks a variable up.
type CodeTemplater func(code string, value func(name string) (any, bool)) (string, error)

var codeTemplaters sync.Map // language -> CodeTemplater

// RegisterCodeTemplater sets the templater of a Param.Code language (the code nodes do it from
// init). A code param of a language without one fails to run rather than expand as text.
func RegisterCodeTemplater(lang string, t CodeTemplater) { codeTemplaters.Store(lang, t) }

func expandCode(lang string, v any, vars *Vars) (any, error) {
	code, ok := v.(string)
	if !ok {
		return v, nil
	}
	t, ok := codeTemplaters.Load(lang)
	if !ok {
		return nil, errs.E(errs.Internal, "no templater for %s code", lang)
	}
	return t.(CodeTemplater)(code, vars.Get)
}

func expandValue(v any, vars *Vars) (any, error) {
	switch t := v.(type) {
	case string:
		return vars.Expand(t)
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			e, err := expandValue(x, vars)
			if err != nil {
				return nil, err
			}
			out[i] = e
		}
		return out, nil
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			e, err := expandValue(x, vars)
			if err != nil {
				return nil, err
			}
			out[k] = e
		}
		return out, nil
	}
	return v, nil
}
