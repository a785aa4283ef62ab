package semantic

import (
	"strings"
	"testing"
)

// TestCandidateLine_OptionsAndCurrent: the model sees what a select can be set to and which
// element the page marks as current, as the heuristic does.
func TestCandidateLine_OptionsAndCurrent(t *testing.T) {
	sel := &Element{ID: 4, Role: "combobox", Name: "Delivery speed", Value: "Standard", Options: "Standard\nExpress\nOvernight", Visible: true, Enabled: true}
	if got := candidateLine(sel); !strings.Contains(got, ` options="Standard | Express | Overnight"`) {
		t.Errorf("a select: %s", got)
	}
	step := &Element{ID: 9, Role: "listitem", Name: "Shipping", Current: "step", Visible: true, Enabled: true}
	if got := candidateLine(step); !strings.Contains(got, " current=step") {
		t.Errorf("the current step: %s", got)
	}
}

// TestCandidateLine_Color: the model sees the colour an element shows, for "the red button".
func TestCandidateLine_Color(t *testing.T) {
	e := &Element{ID: 7, Role: "button", Name: "Cancel", Color: "red", Visible: true, Enabled: true}
	if got := candidateLine(e); !strings.Contains(got, " color=red") {
		t.Errorf("a red button: %s", got)
	}
}
