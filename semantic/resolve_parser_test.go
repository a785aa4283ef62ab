package semantic

import "testing"

// TestResolve_PronounsSayNothing: a pronoun ("she", "they", "his") stands for someone named
// before, and no element says it; the noun before a subject pronoun heads the description ("the
// budget spreadsheet she shared" is a spreadsheet, not the "Shared with me" folder); "mark it
// as read" is the open message's "Mark as read" button, not a Read check box of an item named
// "it" (which a "Read more" link stood in for).
func TestResolve_PronounsSayNothing(t *testing.T) {
	runResolveCases(t, "parser-mail.html", []resolveCase{
		{"the budget spreadsheet she shared", IntentClick, "", "f2"},
		// The verb of a pronoun's clause says how the thing came from the person, which the
		// page shows by the name (the sender), not by the Sent folder.
		{"open the contract he sent", IntentClick, "", "m4"},
		{"the contract he sent", IntentAny, "", "m4"},
		{"mark it as read", IntentClick, "", "mark-read"},
		{"mark it as read", IntentAny, "", "mark-read"},
	})
}

// TestResolve_BackAfterMotion: "back" after a verb of motion says where to ("the flight that
// lands back in Boston" is the return leg, not the Back button); "go back" alone is the Back
// button (not the Return date field, which "back" also stands for).
func TestResolve_BackAfterMotion(t *testing.T) {
	runResolveCases(t, "parser-flights.html", []resolveCase{
		{"the flight that lands back in Boston", IntentAny, "", "ret-lands"},
		{"go back", IntentAny, "", "back"},
		{"go back", IntentClick, "", "back"},
		// Back to a place the page names is that place; back to the cart, the link that says so.
		{"go back to step 2", IntentClick, "", "step-seats"},
		{"go back to the seats step", IntentClick, "", "step-seats"},
		{"go back to the cart", IntentClick, "", "back-cart"},
	})
}

// TestResolve_StateNotAction: a past participle names a state ("published posts"), which the
// Published filter shows; a row's Publish button only shares its stem.
func TestResolve_StateNotAction(t *testing.T) {
	runResolveCases(t, "parser-posts.html", []resolveCase{
		{"go to published posts", IntentClick, "", "f-published"},
		{"view published posts", IntentClick, "", "f-published"},
		{"see the published posts", IntentClick, "", "f-published"},
		{"published", IntentClick, "", "f-published"},
	})
}

// TestResolve_GetAControl: "get directions" is the "Get directions" link, not the Directions
// heading: "get" reads a value only when its object names one ("get the order total").
func TestResolve_GetAControl(t *testing.T) {
	runResolveCases(t, "parser-shop.html", []resolveCase{
		{"get directions", IntentAny, "", "directions"},
		{"get directions to the Ashford store", IntentAny, "", "directions"},
		{"get the order total for LH-20544", IntentAny, "", "o2-total"},
	})
}

// TestResolve_SwitchTheCities: "switch the cities" swaps the two ends of a trip, the form's
// swap button; no switch control is meant.
func TestResolve_SwitchTheCities(t *testing.T) {
	runResolveCases(t, "parser-flights.html", []resolveCase{
		{"switch the cities", IntentAny, "", "swap"},
		{"switch the airports", IntentClick, "", "swap"},
		{"flip the two airports", IntentAny, "", "swap"},
		{"switch account", IntentClick, "", "acct-switch"},
	})
}
