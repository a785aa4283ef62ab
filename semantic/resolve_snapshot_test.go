package semantic

import "testing"

// TestResolve_SelectByOptions: a select is named by what it can be set to when nothing else on
// the page says the words: "choose Express shipping" is the Delivery speed select that offers
// Express, "the select that has Monthly and Annually" the membership one.
func TestResolve_SelectByOptions(t *testing.T) {
	runResolveCases(t, "snap-checkout.html", []resolveCase{
		{"choose Express shipping", IntentClick, "", "speed"},
		{"the dropdown with Overnight", IntentAny, "", "speed"},
		{"the select that has Monthly and Annually", IntentAny, "", "club-billing"},
	})
}

// TestResolve_CurrentPage: "the current page" of a pagination, a sidebar or the main
// navigation is the one the page marks with aria-current, chosen among those by the words.
func TestResolve_CurrentPage(t *testing.T) {
	runResolveCases(t, "snap-docs.html", []resolveCase{
		{"the current page in the pagination", IntentAny, "", "pg-3"},
		{"the active nav item", IntentAny, "", "top-changelog"},
		{"the current page in the sidebar", IntentClick, "", "side-releases"},
		{"the page I'm on in the breadcrumb", IntentRead, "", "crumb-current"},
	})
}

// TestResolve_CurrentStepAndDate: "which step am I on" is the step marked aria-current="step",
// "today in the calendar" the day marked aria-current="date" (not the chosen day).
func TestResolve_CurrentStepAndDate(t *testing.T) {
	runResolveCases(t, "snap-wizard.html", []resolveCase{
		{"which step am I on", IntentRead, "", "st-when"},
		{"the current step", IntentRead, "", "st-when"},
		{"today's date in the calendar", IntentAny, "", "d17"},
		{"click today in the calendar", IntentClick, "", "d17"},
	})
}

// TestResolve_StageMarkedCurrent: "what stage is my booking at" asks the present stage, which
// the page marks with aria-current alone (no class or id says so): the marked step's line.
func TestResolve_StageMarkedCurrent(t *testing.T) {
	runResolveCases(t, "snap-wizard.html", []resolveCase{
		{"what stage is my booking at", IntentRead, "", "st-when-n"},
	})
}

// TestResolve_OptionIsNoValue: a select's options are what it can be set to, not values it
// shows: "the overnight price" is not the Delivery speed select that offers "Overnight —
// $29.00" (reading it reads its chosen option).
func TestResolve_OptionIsNoValue(t *testing.T) {
	_, s := snapFixture(t, "snap-checkout.html")
	for _, d := range []string{"the overnight price"} {
		if res, err := Resolve(s, Query{Description: d}); err == nil && res.Element.Options != "" {
			t.Errorf("Resolve(%q) = %s (%s), a select by its options", d, describe(&res.Element), res.Why)
		}
	}
}
