package scripts

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/rodeo-run/rodeo/errs"
)

// Script is a validated agent: a goal, its nodes and optional initial variables.
type Script struct {
	Goal  string         `json:"goal"`
	Nodes []*Call        `json:"-"`
	Data  map[string]any `json:"data,omitempty"`
	// Source is the json_output as sent, kept for saved scripts and records.
	Source json.RawMessage `json:"json_output"`
	// Record keeps a screenshot after each browser step (the request's "record"; record.go).
	Record bool `json:"-"`
	// Profile names the account's browser profile whose cookies and local storage the run
	// loads at lease and saves at its end (profile.go); "" is a fresh incognito context.
	Profile string `json:"-"`
}

// Call is one node of a script: its spec, its raw (untemplated) params and the generic fields
// every node accepts. Control-flow kinds hold their child lists in Children.
type Call struct {
	Index    int
	Path     string // "3", or "3.then.0" inside control flow
	Spec     *Spec
	Raw      map[string]any
	Children map[string][]*Call
	// ID is the node's optional `id` field (loops refer to nodes by it).
	ID string
	// Timeout overrides Spec.Timeout when > 0.
	Timeout time.Duration
	// ContinueOnError lets the list go on after this node fails.
	ContinueOnError bool
}

// genericFields are accepted on every node besides its kind's params.
var genericFields = map[string]string{
	"type":              "the node kind",
	"id":                "an optional name for the node",
	"comment":           "free text",
	"timeout":           "seconds this node may take",
	"continue_on_error": "go on with the next node when this one fails",
}

// Request is the body of POST /agents (and of `rodeo run`).
type Request struct {
	Key        string            `json:"key"`
	Goal       string            `json:"goal"`
	JSONOutput []json.RawMessage `json:"json_output"`
	Data       map[string]any    `json:"data"`
	// Timeout bounds the whole run, in seconds (optional; the server's default applies).
	Timeout float64 `json:"timeout"`
	// Record keeps a screenshot after each browser step as a run artifact (record.go).
	Record bool `json:"record"`
	// Profile names a browser profile kept between runs (profile.go); optional.
	Profile string `json:"profile"`
}

// DecodeRequest parses an agent request strictly enough to give useful errors: malformed JSON is
// invalid_json; the fields' types and every node's problems are invalid_config with details.
func DecodeRequest(body []byte) (*Request, error) {
	var req Request
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&req); err != nil {
		var typeErr *json.UnmarshalTypeError
		if asTypeErr(err, &typeErr) {
			return nil, &errs.Error{Code: errs.InvalidConfig, Message: "invalid agent configuration",
				Details: []errs.Detail{{Field: typeErr.Field, Problem: fmt.Sprintf("must be %s, not %s", jsonTypeName(typeErr.Type.Kind().String()), typeErr.Value)}}}
		}
		return nil, errs.E(errs.InvalidJSON, "malformed JSON body: %v", err)
	}
	// More() is false before a stray "}" or "]", so ask for the next token: only EOF is clean.
	if _, err := dec.Token(); err != io.EOF {
		return nil, errs.E(errs.InvalidJSON, "malformed JSON body: trailing data after the object")
	}
	return &req, nil
}

// Compile validates a request's nodes against the registry and returns the script. It reports
// every problem at once, each with its node index and field.
func (r *Registry) Compile(goal string, nodes []json.RawMessage, data map[string]any) (*Script, error) {
	var problems []errs.Detail
	if strings.TrimSpace(goal) == "" {
		problems = append(problems, errs.Detail{Field: "goal", Problem: "is required: a free-text description of the agent's goal"})
	}
	if nodes == nil {
		problems = append(problems, errs.Detail{Field: "json_output", Problem: "is required: an array of nodes"})
	} else if len(nodes) == 0 {
		problems = append(problems, errs.Detail{Field: "json_output", Problem: "has no nodes"})
	}
	calls := r.compileList(nodes, "", &problems)
	if len(problems) > 0 {
		return nil, &errs.Error{Code: problemsCode(problems), Message: summarize(problems), Details: problems}
	}
	src, _ := json.Marshal(nodes)
	return &Script{Goal: goal, Nodes: calls, Data: data, Source: src}, nil
}

const maxNodes = 1000

func (r *Registry) compileList(nodes []json.RawMessage, prefix string, problems *[]errs.Detail) []*Call {
	if len(nodes) > maxNodes {
		*problems = append(*problems, errs.Detail{Field: "json_output", Problem: fmt.Sprintf("has %d nodes; at most %d are allowed", len(nodes), maxNodes)})
		return nil
	}
	calls := make([]*Call, 0, len(nodes))
	for i, raw := range nodes {
		c := r.compileOne(i, prefix+fmt.Sprint(i), raw, problems)
		if c != nil {
			calls = append(calls, c)
		}
	}
	return calls
}

func (r *Registry) compileOne(index int, path string, raw json.RawMessage, problems *[]errs.Detail) *Call {
	add := func(field, format string, args ...any) {
		i := index
		if strings.Contains(path, ".") {
			field = path + ": " + field
			i = topIndex(path)
		}
		*problems = append(*problems, errs.Detail{Node: &i, Field: field, Problem: fmt.Sprintf(format, args...)})
	}
	var obj map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&obj); err != nil || obj == nil {
		add("", "must be an object with a \"type\"")
		return nil
	}
	typ, ok := obj["type"].(string)
	if !ok || strings.TrimSpace(typ) == "" {
		add("type", "is required: one of %s", strings.Join(r.Kinds(), ", "))
		return nil
	}
	spec, ok := r.Lookup(typ)
	if !ok {
		add("type", "unknown node type %q; known types: %s", typ, strings.Join(r.Kinds(), ", "))
		return nil
	}
	c := &Call{Index: index, Path: path, Spec: spec, Raw: map[string]any{}, Children: map[string][]*Call{}}
	before := len(*problems)
	if v, has := obj["timeout"]; has {
		f, ok := toFloat(v)
		if !ok || f <= 0 || f > 24*3600 {
			add("timeout", "must be a number of seconds between 0 and 86400")
		} else {
			c.Timeout = time.Duration(f * float64(time.Second))
		}
	}
	if v, has := obj["id"]; has {
		id, ok := v.(string)
		if !ok {
			add("id", "must be a string")
		}
		c.ID = id
	}
	if v, has := obj["continue_on_error"]; has {
		b, ok := v.(bool)
		if !ok {
			add("continue_on_error", "must be a boolean")
		}
		c.ContinueOnError = b
	}
	// Unknown fields are reported: a typo silently ignored is a bug the user hunts for hours.
	var unknown []string
	for name := range obj {
		if _, generic := genericFields[name]; generic {
			continue
		}
		if _, known := spec.Param(name); !known {
			unknown = append(unknown, name)
		}
	}
	sort.Strings(unknown)
	genericBad := len(*problems) > before
	for _, name := range unknown {
		add(name, "unknown parameter of %q; its parameters are: %s", spec.Kind, paramNames(spec))
	}
	// Validate sees the known parameters, so a misspelt one does not hide what else is wrong.
	known := len(*problems)
	for _, p := range spec.Params {
		v, has := obj[p.Name]
		if !has || v == nil {
			if p.Required {
				add(p.Name, "is required (%s): %s", p.Type, p.Description)
			}
			continue
		}
		if p.Type == Nodes {
			list, ok := v.([]any)
			if !ok {
				add(p.Name, "must be an array of nodes")
				continue
			}
			raws := make([]json.RawMessage, len(list))
			for i, item := range list {
				raws[i], _ = json.Marshal(item)
			}
			c.Children[p.Name] = r.compileList(raws, path+"."+p.Name+".", problems)
			continue
		}
		if msg := checkValue(p, v); msg != "" {
			add(p.Name, "%s", msg)
			continue
		}
		c.Raw[p.Name] = v
	}
	if spec.Validate != nil && !genericBad && len(*problems) == known {
		if err := spec.Validate(NewParams(spec, c.Raw, c.Children)); err != nil {
			var e *errs.Error
			if errors.As(err, &e) && len(e.Details) > 0 {
				for _, d := range e.Details {
					add(d.Field, "%s", d.Problem)
				}
			} else {
				add("", "%s", err.Error())
				if c := errs.Code(err); c == errs.IntegrationNotConfigured {
					(*problems)[len(*problems)-1].Code = c
				}
			}
		}
	}
	return c
}

// checkValue returns a problem with v for param p, or "".
func checkValue(p Param, v any) string {
	templated := func() bool { s, ok := v.(string); return ok && strings.Contains(s, "{{") }
	switch p.Type {
	case String:
		s, ok := v.(string)
		if !ok {
			return fmt.Sprintf("must be a string, not %s", describe(v))
		}
		if p.Required && strings.TrimSpace(s) == "" {
			return "must not be empty"
		}
		if len(p.Enum) > 0 && !templated() && !containsFold(p.Enum, s) {
			return fmt.Sprintf("must be one of %s, not %q", strings.Join(p.Enum, ", "), s)
		}
	case Number:
		if templated() {
			return ""
		}
		f, ok := toFloat(v)
		if !ok {
			return fmt.Sprintf("must be a number, not %s", describe(v))
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return "must be a finite number"
		}
		if p.Min != nil && f < *p.Min {
			return fmt.Sprintf("must be at least %v, not %v", *p.Min, f)
		}
		if p.Max != nil && f > *p.Max {
			return fmt.Sprintf("must be at most %v, not %v", *p.Max, f)
		}
	case Bool:
		if _, ok := v.(bool); !ok && !templated() {
			return fmt.Sprintf("must be true or false, not %s", describe(v))
		}
	case Strings:
		switch t := v.(type) {
		case []any:
			for i, item := range t {
				switch item.(type) {
				case string, json.Number, bool:
				default:
					return fmt.Sprintf("item %d must be a string, not %s", i, describe(item))
				}
			}
		case string: // a single name is accepted as a list of one
		default:
			return fmt.Sprintf("must be an array of strings, not %s", describe(v))
		}
	case Object:
		if _, ok := v.(map[string]any); !ok {
			return fmt.Sprintf("must be an object, not %s", describe(v))
		}
	}
	return ""
}

func summarize(problems []errs.Detail) string {
	if len(problems) == 1 {
		p := problems[0]
		where := ""
		if p.Node != nil {
			where = fmt.Sprintf("node %d: ", *p.Node)
		}
		if p.Field != "" {
			where += p.Field + " "
		}
		return "invalid agent configuration: " + where + p.Problem
	}
	return fmt.Sprintf("invalid agent configuration: %d problems (see details)", len(problems))
}

func paramNames(s *Spec) string {
	if len(s.Params) == 0 {
		return "(none)"
	}
	names := make([]string, len(s.Params))
	for i, p := range s.Params {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}

func topIndex(path string) int {
	var i int
	fmt.Sscanf(path, "%d", &i)
	return i
}

func toFloat(v any) (float64, bool) {
	switch t := v.(type) {
	case json.Number:
		f, err := t.Float64()
		return f, err == nil
	case float64:
		return t, true
	case int:
		return float64(t), true
	}
	return 0, false
}

func describe(v any) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case string:
		return fmt.Sprintf("the string %q", truncate(t, 40))
	case json.Number, float64, int:
		return fmt.Sprintf("the number %v", t)
	case bool:
		return fmt.Sprintf("%v", t)
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

func jsonTypeName(kind string) string {
	switch kind {
	case "slice":
		return "an array"
	case "map", "struct":
		return "an object"
	case "float64", "int":
		return "a number"
	}
	return "a " + kind
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// problemsCode is invalid_config, unless every problem is a missing integration: then the
// request is fine and the server lacks a service (integration_not_configured).
func problemsCode(problems []errs.Detail) string {
	for _, p := range problems {
		if p.Code != errs.IntegrationNotConfigured {
			return errs.InvalidConfig
		}
	}
	return errs.IntegrationNotConfigured
}
