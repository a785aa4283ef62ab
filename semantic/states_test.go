package semantic

import (
	"slices"
	"testing"
)

// TestNamesStateAction: a name that says a state's verb and not the state is the action's
// control; one that says the state, or another verb, is not.
func TestNamesStateAction(t *testing.T) {
	for _, c := range []struct {
		norm   string
		states []string
		want   bool
	}{
		{"publish", []string{"published"}, true},
		{"resolve ticket", []string{"resolved"}, true},
		{"cancel order", []string{"cancelled"}, true},
		{"ship now", []string{"shipped"}, true},
		{"published (7)", []string{"published"}, false},
		{"resolve or mark resolved", []string{"resolved"}, false},
		{"unpublish", []string{"published"}, false},
		{"publisher", []string{"published"}, false},
		{"archive", []string{"published"}, false},
	} {
		if got := namesStateAction(c.norm, c.states); got != c.want {
			t.Errorf("namesStateAction(%q, %q) = %v, want %v", c.norm, c.states, got, c.want)
		}
	}
}

// TestParse_States: the description's past participles are its states.
func TestParse_States(t *testing.T) {
	for desc, want := range map[string][]string{
		"list the published posts":   {"published"},
		"the tickets resolved today": {"resolved"},
		"show the archived projects": {"archived"},
		"publish the spring post":    nil,
		"the mail marked as spam":    {"marked"},
		"the seed packets":           nil,
	} {
		if got := Parse(desc).States; !slices.Equal(got, want) {
			t.Errorf("Parse(%q).States = %q, want %q", desc, got, want)
		}
	}
}
