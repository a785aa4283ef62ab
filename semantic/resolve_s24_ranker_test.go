package semantic

import "testing"

// TestResolve_ControlOfStopsAtItsItem: a product card that puts its Add to cart button on the
// image, above the title, has no control after its title; "order a Blue Mug" is that card's
// button, not the next card's, which is the first control after the title in document order.
func TestResolve_ControlOfStopsAtItsItem(t *testing.T) {
	runResolveCases(t, "s24-ranker-shop.html", []resolveCase{
		{"order a Blue Mug", IntentClick, "", "atc-2"},
		{"Blue Mug", IntentClick, "", "atc-2"},
		{"buy the Espresso Cup Set", IntentClick, "", "atc-3"},
		{"I want the stoneware mug", IntentClick, "", "atc-1"},
	})
}

// TestResolve_OutsiderNamesAnotherItem: a banner above a class list that says "Power Yoga with
// Sam" is about the Power Yoga card that says so, not the first card under it (nothing alike
// sits between the banner and that card, so the two passed for one item).
func TestResolve_OutsiderNamesAnotherItem(t *testing.T) {
	runResolveCases(t, "s24-ranker-classes.html", []resolveCase{
		{"book Power Yoga with Sam", IntentClick, "", "s-1800"},
		{"book power yoga with Sam on Tuesday", IntentClick, "", "s-1800"},
		{"book a spot in Sam's power yoga", IntentAny, "", "s-1800"},
	})
}
