package semantic

import "testing"

// TestResolve_FieldOfRow: a question that names a row by one of its cells and asks for
// another field of it ("who teaches HIST 2150?", "what role does Inès have?") is answered by
// the row's field of the kind asked, not the cell that only repeats the question. A roster
// writes a name "Surname, Given"; a row's table may sit in a card, which is then too large
// to be the item.
func TestResolve_FieldOfRow(t *testing.T) {
	runResolveCases(t, "fieldq-catalogue.html", []resolveCase{
		{"who teaches HIST 2150?", IntentRead, "", "i-hist"},
		{"who teaches PHIL 2310", IntentRead, "", "i-phil"},
	})
	runResolveCases(t, "fieldq-members.html", []resolveCase{
		{"what role does Inès have?", IntentRead, "", "r-ines"},
		{"what role does Kofi have", IntentRead, "", "r-kofi"},
		{"who is the workspace owner?", IntentRead, "", "n-maya"},
	})
}

// TestPersonName_SurnameFirst: "Surname, Given" reads as a name; a comma elsewhere does not.
func TestPersonName_SurnameFirst(t *testing.T) {
	for _, c := range []struct {
		t    string
		want bool
	}{
		{"Okafor, Ngozi", true},
		{"Van Dyke, Anna", false}, // the comma must end the first word
		{"Huang, Wei Ming", true},
		{"Paris, France, Europe", false},
		{"Dana Whitfield", true},
	} {
		if got := personName(c.t); got != c.want {
			t.Errorf("personName(%q) = %v, want %v", c.t, got, c.want)
		}
	}
}

// TestParse_InvertedQuestionHead: in "what role does Dara have" the noun before the
// auxiliary is what is asked for; "has" as the verb of "which plan has the most data" is no
// auxiliary.
func TestParse_InvertedQuestionHead(t *testing.T) {
	for _, c := range []struct{ desc, head string }{
		{"what role does Dara have?", "role"},
		{"which desk have I got on Wednesday?", "desk"},
		{"which plan has the most data", "data"},
	} {
		if p := Parse(c.desc); p.Head != c.head {
			t.Errorf("Parse(%q).Head = %q, want %q", c.desc, p.Head, c.head)
		}
	}
}

// TestResolve_LabelWithRate: "how much VAT" reads the amount beside "VAT (20%)", not the
// label: the rate in brackets makes the label look like a figure but it still labels.
func TestResolve_LabelWithRate(t *testing.T) {
	runResolveCases(t, "fieldq-invoice.html", []resolveCase{
		{"how much VAT", IntentRead, "", "tl3"},
		{"how much VAT is on this invoice?", IntentRead, "", "tl3"},
		{"the early-payment discount", IntentRead, "", "tl2"},
	})
}

// TestWithoutAside: a closing parenthetical after a label's words is dropped; a label that
// is only a figure, or has digits before the brackets, stays as it is.
func TestWithoutAside(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"VAT (20%)", "VAT"},
		{"Items (3)", "Items"},
		{"(20%)", "(20%)"},
		{"Route 66 (west)", "Route 66 (west)"},
		{"Subtotal", "Subtotal"},
	} {
		if got := withoutAside(c.in); got != c.want {
			t.Errorf("withoutAside(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
