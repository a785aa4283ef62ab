package semantic

import "testing"

// TestResolve_WhenHeadSaysWhich: "when is the water bill due" asks for the date the page
// labels Due, not a date on a payment row that only says "water bill": a when-question's head
// tells its date when the page says the head somewhere.
func TestResolve_WhenHeadSaysWhich(t *testing.T) {
	runResolveCases(t, "s23-when-account.html", []resolveCase{
		{"when is the water bill due", IntentRead, "", "bill-due"},
	})
}

// TestParse_WhenOfNth: "when is the second showing task due" counts tasks ("showing" says
// which); "due" is what is asked of the second one, not the noun counted.
func TestParse_WhenOfNth(t *testing.T) {
	for _, c := range []struct{ desc, item, head string }{
		{"when is the second showing task due", "task", "due"},
		{"when does the third yoga class start?", "class", "start"},
	} {
		p := Parse(c.desc)
		if p.Ordinal == 0 || p.Item != c.item || p.Head != c.head {
			t.Errorf("Parse(%q): ordinal %d, item %q, head %q; want item %q, head %q", c.desc, p.Ordinal, p.Item, p.Head, c.item, c.head)
		}
	}
}

// TestResolve_WhenDidItHappen: "when did the accident happen" asks for the date of the
// accident, which an insurer labels "Date of loss"; "happen" says nothing of which date.
func TestResolve_WhenDidItHappen(t *testing.T) {
	runResolveCases(t, "s23-when-claim.html", []resolveCase{
		{"when did the accident happen?", IntentRead, "", "dol"},
		{"when did the crash occur", IntentRead, "", "dol"},
	})
}

// TestWhenOfNth: the rest of a when-question about the Nth of something puts its predicate
// before the thing; other rests stay as they are.
func TestWhenOfNth(t *testing.T) {
	for _, c := range []struct{ aux, rest, want string }{
		{"is", "the second showing task due", "due of the second showing task"},
		{"does", "the third class start", "start of the third class"},
		{"was", "the first invoice issued", "issued of the first invoice"},
		{"is", "the maintenance window", "the maintenance window"},
		{"is", "the second showing", "the second showing"},
		{"was", "the csv export article last updated", "the csv export article last updated"},
		{"does", "my lease end", "my lease end"},
	} {
		if got := whenOfNth(c.aux, c.rest); got != c.want {
			t.Errorf("whenOfNth(%q, %q) = %q, want %q", c.aux, c.rest, got, c.want)
		}
	}
}
