package semantic

import "testing"

// TestResolve_WhenHeadSaysWhich: "when is the water bill due" asks for the date the page
// labels Due, not a date on a payment row that only says "water bill": a when-question's head
// tells its date when the page says the head somewhere.
func TestResolve_WhenHeadSaysWhich(t *testing.T) {
	runResolveCases(t, "when-account.html", []resolveCase{
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
	runResolveCases(t, "when-claim.html", []resolveCase{
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

// TestResolve_PlayerLine: "what's playing now" on a page that marks nothing as playing is
// the title in the group of the player's Pause control (a player offers to pause only what
// plays), not a Play button that shares the word.
func TestResolve_PlayerLine(t *testing.T) {
	runResolveCases(t, "when-radio.html", []resolveCase{
		{"what's playing now", IntentRead, "", "on-air"},
		{"what song is playing?", IntentRead, "", "on-air"},
	})
}

// TestResolve_PendingIsRequested: "waiting for approval" is a request's pending state, which
// a queue's tab names "Requested": the count on that tab answers how many are waiting.
func TestResolve_PendingIsRequested(t *testing.T) {
	runResolveCases(t, "when-timeoff.html", []resolveCase{
		{"how many requests are waiting for approval", IntentRead, "", "n-req"},
		{"how many time off requests are pending", IntentRead, "", "n-req"},
	})
}

// TestResolve_WhereNow: "where is my package right now" is the place on the step the page marks
// as current, in a list named for the parcel's journey ("package" for "parcel"), not the
// step's title nor the addresses the parcel travels between.
func TestResolve_WhereNow(t *testing.T) {
	runResolveCases(t, "when-courier.html", []resolveCase{
		{"where is my package right now", IntentRead, "", "now-where"},
		{"where is my parcel at the moment?", IntentRead, "", "now-where"},
	})
}

// TestPlaceLike: a place is written as a name, a comma and a capitalized region.
func TestPlaceLike(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"Jun 11, 11:05 PM · Salt Lake City, UT", true},
		{"Lyon, France", true},
		{"In transit", false},
		{"Jun 4, 9:12 PM", false},
		{"Apples, pears and plums", false},
	} {
		if got := placeLike(c.text); got != c.want {
			t.Errorf("placeLike(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}
