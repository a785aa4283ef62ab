package semantic

import (
	"slices"
	"testing"
)

// TestResolve_FreeTextBox: "where do I mention my allergy", "write back to the sender": prose is typed
// in a multi-line box (a textarea, a contenteditable composer), whatever its label says, and
// not in a search box whose name shares a word with the description.
func TestResolve_FreeTextBox(t *testing.T) {
	runResolveCases(t, "input-booking.html", []resolveCase{
		{"where do I mention my peanut allergy?", IntentType, "", "notes"},
		{"where I can explain that we have a dog", IntentType, "", "notes"},
	})
	runResolveCases(t, "input-mail.html", []resolveCase{
		{"where I write the email", IntentType, "", "reply-body"},
		{"write back to the sender", IntentType, "", "reply-body"},
	})
}

// TestFreeText: the descriptions that write prose.
func TestFreeText(t *testing.T) {
	for _, c := range []struct {
		desc string
		want bool
	}{
		{"where do I mention my nut allergy?", true},
		{"where I can explain my reason", true},
		{"write a new post", true},
		{"Describe the damage", true},
		{"where is the office", false},
		{"the email field", false},
		{"enter my email", false},
		{"rewrite the title", false},
	} {
		if got := freeText(c.desc); got != c.want {
			t.Errorf("freeText(%q) = %v, want %v", c.desc, got, c.want)
		}
	}
}

// TestResolve_FieldCaption: a form of divs captions its fields with a text before each ("Tax
// ID", "From", "To") and names them only by a placeholder that shows a format: the caption
// names the field, "number" stands for an ID, and "the To date" keeps its To.
func TestResolve_FieldCaption(t *testing.T) {
	runResolveCases(t, "input-divform.html", []resolveCase{
		{"enter our tax number", IntentType, "", "q2"},
		{"the To date", IntentType, "", "q4"},
		{"the From date", IntentType, "", "q3"},
		{"the company name", IntentType, "", "q1"},
	})
}

// TestNamedPrep: "to" and "from" after "the" and before a noun name a field.
func TestNamedPrep(t *testing.T) {
	for _, c := range []struct {
		desc  string
		words []string
	}{
		{"the To date", []string{"to", "date"}},
		{"the from field", []string{"from"}},
		{"the flight to Oslo", []string{"flight", "oslo"}},
		{"send it to the team", []string{"send", "team"}},
	} {
		if got := Parse(c.desc).Words; !slices.Equal(got, c.words) {
			t.Errorf("Parse(%q).Words = %q, want %q", c.desc, got, c.words)
		}
	}
}

// TestResolve_FormAbbreviations: forms label fields with short forms a description spells out
// (CVV is the security code, Apt the apartment), and a placeholder that is a URL's scheme says
// the field takes a URL.
func TestResolve_FormAbbreviations(t *testing.T) {
	runResolveCases(t, "input-checkout.html", []resolveCase{
		{"the security code field", IntentType, "", "sec"},
		{"the apartment number", IntentType, "", "line2"},
		{"the Behance URL", IntentType, "", "bh"},
	})
}

// TestResolve_TypedCount: "how many miles I drive a year", typed, asks for the field the count
// goes in, which is empty: no value shape counts against it, and a distance driven is mileage.
func TestResolve_TypedCount(t *testing.T) {
	runResolveCases(t, "input-vanquote.html", []resolveCase{
		{"how many miles I drive per year", IntentType, "", "usage"},
		{"how many miles does the van do a year", IntentType, "", "usage"},
	})
}
