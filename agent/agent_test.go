package agent

import (
	"strings"
	"testing"

	"github.com/rodeo-run/rodeo/llm"
	"github.com/rodeo-run/rodeo/semantic"
)

func TestParseCall(t *testing.T) {
	cases := []struct {
		name, tool, args string
		want             Action
		problem          string // part of the error said back, "" for none
	}{
		{"id as a number", "click", `{"id": 12, "reason": "submit"}`, Action{Tool: "click", ID: 12, Reason: "submit"}, ""},
		{"id as a string", "click", `{"id": "12"}`, Action{Tool: "click", ID: 12}, ""},
		{"id as the list shows it", "Click", `{"id": "[12]"}`, Action{Tool: "click", ID: 12}, ""},
		{"type with submit", "type", `{"id": 4, "text": "ada", "submit": true}`, Action{Tool: "type", ID: 4, Text: "ada", Submit: true}, ""},
		{"type of nothing clears", "type", `{"id": 4, "text": ""}`, Action{Tool: "type", ID: 4}, ""},
		{"done with a number", "done", `{"result": 83}`, Action{Tool: "done", Result: "83"}, ""},
		{"wait is capped", "wait", `{"seconds": 60}`, Action{Tool: "wait", Seconds: maxWait}, ""},
		{"broken JSON", "click", `{"id": 12`, Action{}, "not a JSON object"},
		{"no id", "click", `{}`, Action{}, `"id" is required`},
		{"a word for an id", "click", `{"id": "Submit"}`, Action{}, "must be an element id"},
		{"type without text", "type", `{"id": 4}`, Action{}, `type needs "text"`},
		{"scroll sideways", "scroll", `{"direction": "left"}`, Action{}, `"down" or "up"`},
		{"fail without a reason", "fail", `{}`, Action{}, `fail needs "reason"`},
		{"an unknown tool", "hover", `{"id": 1}`, Action{}, `there is no tool "hover"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := parseCall(llm.ToolCall{Name: c.tool, Arguments: c.args})
			if c.problem != "" {
				if err == nil || !strings.Contains(err.Error(), c.problem) {
					t.Fatalf("want a problem with %q, got %v", c.problem, err)
				}
				return
			}
			if err != nil || got.String() != c.want.String() || got.Reason != c.want.Reason || got.Result != c.want.Result {
				t.Fatalf("got %+v, %v; want %+v", got, err, c.want)
			}
		})
	}
}

func el(id int, role, name, context string, y float64) semantic.Element {
	return semantic.Element{ID: id, Role: role, Name: name, Context: context, Visible: true, Enabled: true, Parent: -1,
		Interactive: role == "button" || role == "link" || role == "textbox", Editable: role == "textbox", Box: semantic.Box{Y: y, H: 20}}
}

// TestObserve: lines begin with the id in brackets and carry the name in quotes, context is
// said once above the lines sharing it, a label that repeats its control is left out, and the
// next view says what appeared and went away.
func TestObserve(t *testing.T) {
	s := &semantic.Snapshot{URL: "http://127.0.0.1/a", Title: "Sign up", Elements: []semantic.Element{
		el(0, "heading", "Sign up", "", 10),
		el(1, "label", "Email", "form | Sign up", 40),
		el(2, "textbox", "Email", "form | Sign up", 60),
		el(3, "button", "Sign up", "form | Sign up", 90),
	}}
	v := observe(s, nil, 0)
	want := "Elements (3 of 3 listed):\n[0] heading \"Sign up\"\n@form | Sign up\n[2] textbox \"Email\"\n[3] button \"Sign up\"\n"
	if v.elements != want || v.shown[1] || !v.shown[2] {
		t.Fatalf("got\n%s\nwant\n%s", v.elements, want)
	}
	s2 := &semantic.Snapshot{URL: "http://127.0.0.1/b", Title: "Welcome", Elements: []semantic.Element{el(0, "status", "Thanks, Ada", "", 10)}}
	v2 := observe(s2, v, 0)
	if !strings.Contains(v2.changes, "URL: http://127.0.0.1/a -> http://127.0.0.1/b") || !strings.Contains(v2.changes, "[0] status \"Thanks, Ada\"") ||
		!strings.Contains(v2.changes, "3 elements gone") || v2.fingerprint == v.fingerprint {
		t.Fatalf("changes:\n%s", v2.changes)
	}
	if again := observe(s2, v2, 0); again.changes != "nothing on the page changed\n" || again.fingerprint != v2.fingerprint {
		t.Fatalf("same page: %q", again.changes)
	}
}

// TestObserve_Budget: a long page is cut to the budget, what is in view first, and says so.
func TestObserve_Budget(t *testing.T) {
	s := &semantic.Snapshot{URL: "http://127.0.0.1/long"}
	for i := 0; i < 2000; i++ {
		s.Elements = append(s.Elements, el(i, "link", "Result number "+strings.Repeat("x", i%7), "list Results", float64(i*20)))
	}
	v := observe(s, nil, 300)
	if n := len(v.elements) / 4; n > 300 || len(v.shown) < 20 || !v.shown[0] || v.shown[1999] {
		t.Fatalf("%d tokens, %d shown", n, len(v.shown))
	}
	if !strings.Contains(v.elements, "of 2000 listed; scroll to see others") {
		t.Fatal(v.elements[:200])
	}
}
