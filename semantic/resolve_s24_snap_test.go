package semantic

import "testing"

// TestResolve_SelectByOptions: a select is named by what it can be set to when nothing else on
// the page says the words: "choose Express shipping" is the Delivery speed select that offers
// Express, "the select that has Monthly and Annually" the membership one.
func TestResolve_SelectByOptions(t *testing.T) {
	runResolveCases(t, "s24-snap-checkout.html", []resolveCase{
		{"choose Express shipping", IntentClick, "", "speed"},
		{"the dropdown with Overnight", IntentAny, "", "speed"},
		{"the select that has Monthly and Annually", IntentAny, "", "club-billing"},
	})
}
