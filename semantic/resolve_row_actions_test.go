package semantic

import "testing"

// TestResolve_ActionInto: "SSH into the build box" is the SSH button of the machine's row: the
// box is the machine the action goes into, not a check box or a text box to find.
func TestResolve_ActionInto(t *testing.T) {
	runResolveCases(t, "rowact-servers.html", []resolveCase{
		{"SSH into the build-runner box", IntentClick, "", "ssh-build"},
		{"ssh into the staging box", IntentClick, "", "ssh-staging"},
		{"SSH into the postgres box", IntentAny, "", "ssh-pg"},
		// Typing into a box still finds the box.
		{"type the rota into the team notes box", IntentAny, "", "notes"},
	})
}

// TestResolve_NextStage: moving an item to the next stage of a pipeline is its Advance button.
func TestResolve_NextStage(t *testing.T) {
	runResolveCases(t, "rowact-pipeline.html", []resolveCase{
		{"move Elif Demir to the next stage", IntentClick, "", "adv-elif"},
		{"push Jonas Berg on to the next round", IntentClick, "", "adv-jonas"},
		{"advance Kwame Mensah", IntentClick, "", "adv-kwame"},
	})
}

// TestResolve_OneMoreOfItem: "one more" of a line is its quantity stepper's Increase, "one
// less" its Decrease, the rest of the description naming the line.
func TestResolve_OneMoreOfItem(t *testing.T) {
	runResolveCases(t, "rowact-cart.html", []resolveCase{
		{"one more copy of the harbour print", IntentClick, "", "inc-harbour"},
		{"one more copy of the fern print", IntentClick, "", "inc-fern"},
		{"one less copy of the harbour print", IntentClick, "", "dec-harbour"},
		{"remove the fern photo", IntentClick, "", "rm-fern"},
	})
}

// TestResolve_OfAcronym: a row's document named by what its acronym stands for: the bill of
// lading is the row's BOL button, proof of delivery its POD.
func TestResolve_OfAcronym(t *testing.T) {
	runResolveCases(t, "rowact-freight.html", []resolveCase{
		{"the bill of lading for LF220402", IntentClick, "", "bol3"},
		{"open the proof of delivery for LF220354", IntentClick, "", "pod2"},
		{"proof of delivery for the fourth shipment", IntentClick, "", "pod4"},
	})
}

// TestResolve_MarkHelpful: "mark the first review helpful" (with or without "as") answers the
// review's "Was this review helpful?" with its Yes button.
func TestResolve_MarkHelpful(t *testing.T) {
	runResolveCases(t, "rowact-reviews.html", []resolveCase{
		{"mark the first review helpful", IntentClick, "", "r1-yes"},
		{"mark the second review helpful", IntentClick, "", "r2-yes"},
		{"mark Ingrid's review helpful", IntentClick, "", "r3-yes"},
	})
}

// TestResolve_RestOf: "see the rest of the replies to the budget comment" is that comment's
// "Show 15 more replies": what is not shown yet, a Show more control shows.
func TestResolve_RestOf(t *testing.T) {
	runResolveCases(t, "rowact-thread.html", []resolveCase{
		{"see the rest of the replies to the budget comment", IntentClick, "", "c3-more"},
		{"read the rest of the replies to the deliveries comment", IntentClick, "", "c2-more"},
		{"reply to the budget comment", IntentClick, "", "c3-reply"},
	})
}

// TestNextStageRe: the rewrite takes the item between the verb and "to the next stage".
func TestNextStageRe(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"move Yuki Sato to the next stage", "advance Yuki Sato"},
		{"push the Acme deal on to the next step", "advance the Acme deal"},
		{"move the card to the Done column", "move the card to the Done column"},
	} {
		if got := nextStageRe.ReplaceAllString(c.in, "advance $1"); got != c.want {
			t.Errorf("nextStageRe on %q = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestOfAcronym: an "X of Y" phrase opening a description is written with the O of its "of".
func TestOfAcronym(t *testing.T) {
	for _, c := range []struct{ whole, want string }{
		{"bill of lading for tw480900", "BOL"},
		{"proof of delivery for the 75th shipment", "POD"},
		{"statement of work", "SOW"},
		{"certificate of insurance for unit 4", "COI"},
		{"date of birth field", "DOB"},
		{"price of the blue kettle", ""}, // no word between "of" and the next break
		{"bill lading", ""},
		{"power of attorney", "POA"},
		{"of mice and men", ""},
		{"75th of july", ""},
	} {
		if got := ofAcronym(c.whole); got != c.want {
			t.Errorf("ofAcronym(%q) = %q, want %q", c.whole, got, c.want)
		}
	}
}
