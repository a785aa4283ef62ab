package semantic

import (
	"testing"

	"github.com/rodeo-run/rodeo/errs"
)

func TestResolve_RoleOnlyDescriptionOfAUniqueRoleIsConfident(t *testing.T) {
	el := func(id int, tag, role, text string) Element {
		return Element{ID: id, Tag: tag, Role: role, Name: text, Text: text, Visible: true, Enabled: true, Parent: -1, Box: Box{W: 100, H: 20}}
	}
	one := &Snapshot{Elements: []Element{el(0, "h1", "heading", "Account settings"), el(1, "p", "paragraph", "Nothing to see here.")}}
	for _, desc := range []string{"the paragraph", "the main heading"} {
		res, err := Resolve(one, Query{Description: desc, Intent: IntentRead})
		if err != nil || res.Confidence < 0.5 {
			t.Errorf("%q: %+v conf %.2f err %v", desc, res.Element, res.Confidence, err)
		}
	}
	two := &Snapshot{Elements: append(one.Elements, el(2, "p", "paragraph", "Another line of text."))}
	if _, err := Resolve(two, Query{Description: "the paragraph", Intent: IntentRead}); !errs.Is(err, errs.AmbiguousTarget) {
		t.Errorf("two paragraphs: want ambiguous_target, got %v", err)
	}
	// A partial word overlap with the wrong thing stays weak (the caller treats it as not found).
	partial := &Snapshot{Elements: []Element{el(0, "h1", "heading", "Order status")}}
	if res, err := Resolve(partial, Query{Description: "the order total", Intent: IntentRead}); err == nil && res.Confidence >= MinConfidence() {
		t.Errorf("order total -> %q with confidence %.2f", res.Element.Name, res.Confidence)
	}
}
