package semantic

import "testing"

// TestResolve_ConceptGroups: words that name one concept stand for each other, so an
// instruction in everyday words finds the control labelled in the trade's: an expert is an
// advisor, a copy of a repository a fork, forks and spoons cutlery, abroad "outside the
// country", Lyft rideshare, a doubled batch 2x.
func TestResolve_ConceptGroups(t *testing.T) {
	runResolveCases(t, "words-bank.html", []resolveCase{
		{"contact an expert about a loan", IntentClick, "", "ask-advisor"},
		{"block international purchases", IntentClick, "", "sw-abroad"},
	})
	runResolveCases(t, "words-devhub.html", []resolveCase{
		{"make my own copy of this repository", IntentClick, "", "fork"},
	})
	runResolveCases(t, "words-takeout.html", []resolveCase{
		{"I need plastic spoons", IntentClick, "", "cutlery"},
		{"double the curry paste", IntentClick, "", "batch-2"},
		{"triple the batch", IntentClick, "", "batch-3"},
	})
	runResolveCases(t, "words-autoquote.html", []resolveCase{
		{"I use it for Lyft", IntentClick, "", "use-rideshare"},
	})
}

// TestResolve_DirectedAlternatives: a description word a page may say otherwise, one way: a
// random or new secret is regenerated, what is sent to me is emailed.
func TestResolve_DirectedAlternatives(t *testing.T) {
	runResolveCases(t, "words-devhub.html", []resolveCase{
		{"make a new random token", IntentClick, "", "regen-token"},
	})
	runResolveCases(t, "words-takeout.html", []resolveCase{
		{"send me the receipt", IntentClick, "", "receipt"},
	})
}

// TestResolve_VocabularyRewrites: "by text message" is SMS, "switch X and Y" swaps them, "not
// full" is what has openings, and a span's count in words is the range picker's figure ("the
// five year chart" is 5Y).
func TestResolve_VocabularyRewrites(t *testing.T) {
	runResolveCases(t, "words-bank.html", []resolveCase{
		{"get alerts by text message instead", IntentClick, "", "ch-sms"},
		{"the five year chart", IntentClick, "", "rng-5y"},
	})
	runResolveCases(t, "words-devhub.html", []resolveCase{
		{"switch the base and compare branches", IntentClick, "", "swap-branches"},
	})
	runResolveCases(t, "words-takeout.html", []resolveCase{
		{"tick the box to only see sessions that aren't full", IntentClick, "", "open-only"},
	})
}

// TestSpanCounts: a time span's count in words becomes digits; other counts stay.
func TestSpanCounts(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"the one year chart", "the 1 year chart"},
		{"show six months", "show 6 months"},
		{"a two-week trial", "a 2-week trial"},
		{"the one with two seats", "the one with two seats"},
		{"someone yearly", "someone yearly"},
	} {
		if got := spanCounts(c.in); got != c.want {
			t.Errorf("spanCounts(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestResolve_MenuShowsOtherChoice: a button that shows the current choice with a menu arrow
// is where the other choices are: "for later" is the "Leave now ▾" menu, "someone else" the
// "For me ▾" one, the payment method the one that shows a masked card.
func TestResolve_MenuShowsOtherChoice(t *testing.T) {
	runResolveCases(t, "words-rides.html", []resolveCase{
		{"schedule the ride for later", IntentClick, "", "when"},
		{"book it for someone else", IntentClick, "", "who"},
		{"change payment method", IntentClick, "", "pay-card"},
	})
}
