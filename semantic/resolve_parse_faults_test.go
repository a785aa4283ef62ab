package semantic

import "testing"

// TestResolve_ContractionsLeaveNoFragments: a contraction is written out before parsing: "I'm"
// (straight or curly) leaves no "m" to match the size M filter, "let's" no "let".
func TestResolve_ContractionsLeaveNoFragments(t *testing.T) {
	runResolveCases(t, "parse-shop.html", []resolveCase{
		{"I'm looking for the size guide", IntentClick, "", "size-guide"},
		{"I’m looking for the size guide", IntentAny, "", "size-guide"},
		{"let's sort by price", IntentClick, "", "sort"},
	})
}

// TestResolve_SwitchIsAVerb: a leading "switch" is an instruction whose object is the target
// (the Annual radio, the Switch account button), not the switch role; "the X switch" still is.
func TestResolve_SwitchIsAVerb(t *testing.T) {
	runResolveCases(t, "parse-billing.html", []resolveCase{
		{"switch to the annual plan", IntentClick, "", "annual"},
		{"switch to annual billing", IntentAny, "", "annual"},
		// Guards (they pass at main too): a Switch account button is named for the verb, and
		// "the X switch" is still the switch.
		{"switch account", IntentAny, "", "switch-account"},
		{"the annual plan reminder switch", IntentClick, "", "sw-annual"},
	})
}

// TestResolve_ListAndFilterVerbs: "list all open tickets" and "filter to urgent tickets" are
// filters, as "show only" is: the tab or chip named for what is kept, the list's noun saying
// where (not the ticket whose subject says "Filter" or "list").
func TestResolve_ListAndFilterVerbs(t *testing.T) {
	runResolveCases(t, "parse-helpdesk.html", []resolveCase{
		{"list all open tickets", IntentClick, "", "tab-open"},
		{"list the pending tickets", IntentAny, "", "tab-pending"},
		{"filter to urgent tickets", IntentClick, "", "chip-urgent"},
		{"filter to unread tickets", IntentAny, "", "chip-unread"},
	})
}

// TestResolve_ActionOnACharge: an action verb before a money noun ("split the PG&E payment")
// is the action's button in the row that names the payee, not the row's amount read as a
// figure.
func TestResolve_ActionOnACharge(t *testing.T) {
	runResolveCases(t, "parse-bank.html", []resolveCase{
		{"split the PG&E payment", IntentAny, "", "pge-split"},
	})
}

// TestResolve_RoleMenuShowsTheCurrentRole: a member's access is a menu button that shows the
// role they have now ("Viewer ▾"); "change Sam's access" is the menu on Sam's row, not the
// first row's "Owner ▾" or the Access column's header (see choiceSides).
func TestResolve_RoleMenuShowsTheCurrentRole(t *testing.T) {
	runResolveCases(t, "parse-team.html", []resolveCase{
		{"change Sam's access", IntentClick, "", "mem3-menu"},
		{"change Sam's access", IntentAny, "", "mem3-menu"},
		{"change Lena's permissions", IntentClick, "", "mem4-menu"},
		{"Sam's permissions", IntentAny, "", "mem3-menu"},
	})
}

// TestPersonName_NotATeamOrCourse: two capitalized words are not a person's name when both
// are common words of a team's, a course's or a plan's name ("Human Resources", "Applied
// Regression", "Premium Support"); a name with one such word still is ("Dana Hill").
func TestPersonName_NotATeamOrCourse(t *testing.T) {
	for _, c := range []struct {
		t    string
		want bool
	}{
		{"Human Resources", false},
		{"Applied Regression", false},
		{"Premium Support", false},
		{"Customer Success Team", false},
		{"Dara Okafor", true},
		{"Okafor, Ngozi", true},
		{"Dana Hill", true},
		{"Sam Young", true},
		{"Priya Shah (you)", true},
	} {
		if got := personName(c.t); got != c.want {
			t.Errorf("personName(%q) = %v, want %v", c.t, got, c.want)
		}
	}
}
