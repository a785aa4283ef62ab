package semantic

import "testing"

// TestResolve_QualifiedOrdinal: an adjective before the counted noun says which items count
// ("the first sent invoice" skips the drafts and the scheduled one, whose "Sends" is no
// "Sent"), and a row's menu is its More button.
func TestResolve_QualifiedOrdinal(t *testing.T) {
	runResolveCases(t, "ord-invoices.html", []resolveCase{
		{"the menu for the first sent invoice", IntentClick, "", "more-1039"},
		{"the menu for the last sent invoice", IntentClick, "", "more-1037"},
		{"the receipt of the second paid invoice", IntentClick, "", "receipt-1036"},
	})
}

// TestResolve_OrdinalUnderLabel: a label that says the counted noun in the plural names the
// list after it, and the ordinal counts the list, not the label.
func TestResolve_OrdinalUnderLabel(t *testing.T) {
	runResolveCases(t, "ord-article.html", []resolveCase{
		{"open the last topic at the end", IntentClick, "", "t-heritage"},
		{"click the first topic", IntentClick, "", "t-mills"},
	})
}

// TestResolve_OrdinalUnderListHeading: a list headed by a word for a list of the counted things
// ("Directions" for steps) is the one the ordinal counts, not an earlier list of as many items.
func TestResolve_OrdinalUnderListHeading(t *testing.T) {
	runResolveCases(t, "ord-howto.html", []resolveCase{
		{"what does the third step say", IntentRead, "", "d3"},
		{"what does the last step say", IntentRead, "", "d5"},
	})
}

// TestResolve_CountedUnderListHeading: "the last step" alone counts the list under Directions.
func TestResolve_CountedUnderListHeading(t *testing.T) {
	runResolveCases(t, "ord-howto.html", []resolveCase{
		{"the last step", IntentRead, "", "s5"},
	})
}
