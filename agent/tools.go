package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/rodeo-run/rodeo/llm"
)

// Tool names: what the model may do in one step.
const (
	ToolClick    = "click"
	ToolType     = "type"
	ToolSelect   = "select"
	ToolPress    = "press"
	ToolScroll   = "scroll"
	ToolNavigate = "navigate"
	ToolExtract  = "extract"
	ToolWait     = "wait"
	ToolDone     = "done"
	ToolFail     = "fail"
)

// Action is one parsed tool call. Only the fields of its tool are set.
type Action struct {
	Tool string `json:"tool"`
	// ID is the element of click, type and select: an id of the observation it was chosen in.
	ID          int     `json:"id,omitempty"`
	Text        string  `json:"text,omitempty"`
	Submit      bool    `json:"submit,omitempty"`
	Option      string  `json:"option,omitempty"`
	Key         string  `json:"key,omitempty"`
	Direction   string  `json:"direction,omitempty"`
	URL         string  `json:"url,omitempty"`
	Description string  `json:"description,omitempty"`
	Seconds     float64 `json:"seconds,omitempty"`
	// Result is done's answer as the model wrote it (text, a number, an object).
	Result any `json:"result,omitempty"`
	// Reason is why the model took the action (fail's reason is the failure).
	Reason string `json:"reason,omitempty"`
}

// hasID reports whether the action acts on an element of the observation.
func (a Action) hasID() bool {
	return a.Tool == ToolClick || a.Tool == ToolType || a.Tool == ToolSelect
}

// String is the action as the model's history shows it: `type [4] "ada@example.com" submit`.
func (a Action) String() string {
	var b strings.Builder
	b.WriteString(a.Tool)
	if a.hasID() {
		fmt.Fprintf(&b, " [%d]", a.ID)
	}
	for _, s := range []string{a.Text, a.Option, a.Key, a.Direction, a.URL, a.Description} {
		if s != "" {
			fmt.Fprintf(&b, " %q", clip(s, 60))
		}
	}
	if a.Submit {
		b.WriteString(" submit")
	}
	if a.Tool == ToolWait {
		fmt.Fprintf(&b, " %gs", a.Seconds)
	}
	return b.String()
}

// maxWait caps wait(seconds): waiting longer is not progress a model should buy with a step.
const maxWait = 10

var (
	idParam     = map[string]any{"type": []string{"integer", "string"}}
	stringParam = map[string]any{"type": "string"}
)

// schema is a tool's parameters: the named ones, all strings unless given, and the optional
// reason every tool takes.
func schema(required []string, typed map[string]any) map[string]any {
	props := map[string]any{"reason": stringParam}
	for _, name := range required {
		props[name] = stringParam
	}
	for name, t := range typed {
		props[name] = t
	}
	return map[string]any{"type": "object", "properties": props, "required": required}
}

// Tools are the functions the model is offered each step. Descriptions are terse: they are
// sent with every step (about 330 tokens in all).
var Tools = []llm.Tool{
	{Name: ToolClick, Description: "Click element id.", Parameters: schema([]string{"id"}, map[string]any{"id": idParam})},
	{Name: ToolType, Description: "Replace a field's text; submit: press Enter after.", Parameters: schema([]string{"id", "text"}, map[string]any{
		"id": idParam, "submit": map[string]any{"type": "boolean"}})},
	{Name: ToolSelect, Description: "Choose a select's option by its text.", Parameters: schema([]string{"id", "option"}, map[string]any{"id": idParam})},
	{Name: ToolPress, Description: "Press a key: enter, tab, escape, arrowdown, ctrl+a...", Parameters: schema([]string{"key"}, nil)},
	{Name: ToolScroll, Description: "Scroll to see more elements.", Parameters: schema([]string{"direction"}, map[string]any{
		"direction": map[string]any{"type": "string", "enum": []string{"down", "up"}}})},
	{Name: ToolNavigate, Description: "Open a URL in this tab.", Parameters: schema([]string{"url"}, nil)},
	{Name: ToolExtract, Description: "Read what description names (a value, a list, a table) into the result.", Parameters: schema([]string{"description"}, nil)},
	{Name: ToolWait, Description: "Wait for the page.", Parameters: schema([]string{"seconds"}, map[string]any{"seconds": map[string]any{"type": "number"}})},
	{Name: ToolDone, Description: "Goal reached: give its result.", Parameters: schema([]string{"result"}, map[string]any{"result": map[string]any{}})},
	{Name: ToolFail, Description: "Goal unreachable: say why.", Parameters: map[string]any{"type": "object",
		"properties": map[string]any{"reason": stringParam}, "required": []string{"reason"}}},
}

// parseCall reads a tool call into an Action. Its errors are said to the model as they are, so
// they name what was wrong in its terms.
func parseCall(tc llm.ToolCall) (Action, error) {
	a := Action{Tool: strings.ToLower(strings.TrimSpace(tc.Name))}
	args := map[string]any{}
	if strings.TrimSpace(tc.Arguments) != "" {
		dec := json.NewDecoder(bytes.NewReader([]byte(tc.Arguments)))
		dec.UseNumber()
		if err := dec.Decode(&args); err != nil {
			return a, fmt.Errorf("the arguments of %s are not a JSON object: %v", tc.Name, err)
		}
	}
	str := func(name string, required bool) (string, error) {
		v, ok := args[name]
		if !ok || v == nil {
			if required {
				return "", fmt.Errorf("%s needs %q", a.Tool, name)
			}
			return "", nil
		}
		switch t := v.(type) {
		case string:
			if required && strings.TrimSpace(t) == "" {
				return "", fmt.Errorf("%s needs a non-empty %q", a.Tool, name)
			}
			return t, nil
		case json.Number:
			return t.String(), nil
		}
		return "", fmt.Errorf("%s: %q must be a string", a.Tool, name)
	}
	var err error
	if a.Reason, err = str("reason", a.Tool == ToolFail); err != nil {
		return a, err
	}
	switch a.Tool {
	case ToolClick, ToolType, ToolSelect:
		if a.ID, err = parseID(args["id"]); err != nil {
			return a, fmt.Errorf("%s: %v", a.Tool, err)
		}
		if a.Tool == ToolType {
			if a.Text, err = str("text", false); err != nil {
				return a, err
			}
			if _, has := args["text"]; !has {
				return a, fmt.Errorf("type needs \"text\"")
			}
			switch v := args["submit"].(type) {
			case nil:
			case bool:
				a.Submit = v
			case string:
				a.Submit = v == "true"
			default:
				return a, fmt.Errorf("type: \"submit\" must be true or false")
			}
		}
		if a.Tool == ToolSelect {
			a.Option, err = str("option", true)
		}
	case ToolPress:
		a.Key, err = str("key", true)
	case ToolScroll:
		a.Direction, err = str("direction", true)
		a.Direction = strings.ToLower(strings.TrimSpace(a.Direction))
		if err == nil && a.Direction != "down" && a.Direction != "up" {
			err = fmt.Errorf("scroll: direction must be \"down\" or \"up\", not %q", a.Direction)
		}
	case ToolNavigate:
		a.URL, err = str("url", true)
	case ToolExtract:
		a.Description, err = str("description", true)
	case ToolWait:
		a.Seconds, err = parseSeconds(args["seconds"])
	case ToolDone:
		a.Result = args["result"]
		if n, ok := a.Result.(json.Number); ok {
			a.Result = n.String()
		}
	case ToolFail:
	default:
		return a, fmt.Errorf("there is no tool %q; the tools are click, type, select, press, scroll, navigate, extract, wait, done and fail", tc.Name)
	}
	return a, err
}

// parseID accepts an id as a number (12), a string ("12") or as the list shows it ("[12]").
func parseID(v any) (int, error) {
	var s string
	switch t := v.(type) {
	case nil:
		return 0, fmt.Errorf("\"id\" is required: an element id from the list")
	case json.Number:
		s = t.String()
	case string:
		s = t
	default:
		return 0, fmt.Errorf("\"id\" must be a number, not %v", v)
	}
	s = strings.Trim(strings.TrimSpace(s), "[]")
	id, err := strconv.Atoi(s)
	if err != nil || id < 0 {
		return 0, fmt.Errorf("\"id\" must be an element id from the list, not %q", s)
	}
	return id, nil
}

func parseSeconds(v any) (float64, error) {
	var f float64
	var err error
	switch t := v.(type) {
	case json.Number:
		f, err = t.Float64()
	case string:
		f, err = strconv.ParseFloat(strings.TrimSpace(t), 64)
	default:
		err = fmt.Errorf("missing")
	}
	if err != nil || f < 0 {
		return 0, fmt.Errorf("wait needs \"seconds\": a number from 0 to %d", maxWait)
	}
	return min(f, maxWait), nil
}
