package scripts

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/rodeo-run/rodeo/errs"
)

// Vars are a run's variables (the agent's data). Nodes of one run execute in order, but
// control-flow and code nodes may touch them from helper goroutines, so access is locked.
type Vars struct {
	mu sync.RWMutex
	m  map[string]any
}

// NewVars returns variables holding a copy of initial.
func NewVars(initial map[string]any) *Vars {
	v := &Vars{m: map[string]any{}}
	for k, val := range initial {
		v.m[k] = normalizeJSON(val)
	}
	return v
}

// Get returns a variable; dotted names reach into objects and arrays ("result.items.0.title").
func (v *Vars) Get(name string) (any, bool) {
	v.mu.RLock()
	defer v.mu.RUnlock()
	name = strings.TrimSpace(name)
	if val, ok := v.m[name]; ok {
		return val, true
	}
	parts := strings.Split(name, ".")
	cur, ok := v.m[parts[0]]
	if !ok {
		return nil, false
	}
	for _, p := range parts[1:] {
		switch t := cur.(type) {
		case map[string]any:
			if cur, ok = t[p]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(p)
			if err != nil || i < 0 || i >= len(t) {
				return nil, false
			}
			cur = t[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// Set stores a variable.
func (v *Vars) Set(name string, val any) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.m[name] = normalizeJSON(val)
}

// Snapshot returns a shallow copy of all variables, for the run document.
func (v *Vars) Snapshot() map[string]any {
	v.mu.RLock()
	defer v.mu.RUnlock()
	out := make(map[string]any, len(v.m))
	for k, val := range v.m {
		out[k] = val
	}
	return out
}

// placeholder matches {{ name }} with dotted names.
var placeholder = regexp.MustCompile(`\{\{\s*([A-Za-z_][A-Za-z0-9_.\-]*)\s*\}\}`)

// Expand replaces {{name}} placeholders in s with the variables' values as text. A placeholder
// naming no variable is an error: a silently empty value sends wrong data to a real page.
func (v *Vars) Expand(s string) (string, error) {
	if !strings.Contains(s, "{{") {
		return s, nil
	}
	var missing []string
	out := placeholder.ReplaceAllStringFunc(s, func(m string) string {
		name := placeholder.FindStringSubmatch(m)[1]
		val, ok := v.Get(name)
		if !ok {
			missing = append(missing, name)
			return m
		}
		return Text(val)
	})
	if len(missing) > 0 {
		return "", errs.E(errs.VariableNotSet, "variable %s is not set (used as {{%s}})", strings.Join(missing, ", "), missing[0])
	}
	return out, nil
}

// Text renders a variable's value as text: strings as they are, everything else as JSON.
func Text(val any) string {
	switch t := val.(type) {
	case nil:
		return ""
	case string:
		return t
	case json.Number:
		return t.String()
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(t)
	}
	b, err := json.Marshal(val)
	if err != nil {
		return fmt.Sprint(val)
	}
	return string(b)
}

// normalizeJSON turns json.Number into float64 (or int64-safe float) so that variables compare
// and marshal the same whichever path set them.
func normalizeJSON(val any) any {
	switch t := val.(type) {
	case json.Number:
		if f, err := t.Float64(); err == nil {
			return f
		}
		return t.String()
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = normalizeJSON(x)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = normalizeJSON(x)
		}
		return out
	}
	return val
}
