package semantic

import "testing"

// TestResolve_SizeSuperlatives: "the biggest", "the smallest" compare the choices by what they
// measure: a unit's dimensions by its volume, a garment by its letter size.
func TestResolve_SizeSuperlatives(t *testing.T) {
	runResolveCases(t, "sup-storage.html", []resolveCase{
		{"choose the biggest unit", IntentClick, "", "unit-l"},
		{"pick the smallest unit size", IntentClick, "", "unit-s"},
		{"the largest T-shirt", IntentClick, "", "tee-xl"},
	})
}

// TestResolve_Altogether: "altogether" asks for the sum of the parts, the figure labelled Total.
func TestResolve_Altogether(t *testing.T) {
	runResolveCases(t, "sup-storage.html", []resolveCase{
		{"how long does the move take altogether?", IntentRead, "", "plan-total"},
	})
}

// TestResolve_ItemSuperlative: a superlative picks the item by one of its values, the rest of
// the description the field of that item: the distance of the route that takes least time,
// the rating on the cheapest hotel's card.
func TestResolve_ItemSuperlative(t *testing.T) {
	runResolveCases(t, "sup-routes.html", []resolveCase{
		{"how far is the fastest route?", IntentRead, "", "dist-blvd"},
		{"how far is the slowest route", IntentRead, "", "dist-520"},
		{"the rating of the cheapest hotel", IntentRead, "", "stars-parkside"},
	})
}

// TestDurationIn: a duration adds up its parts, in minutes; the figure after it is no part.
func TestDurationIn(t *testing.T) {
	for _, c := range []struct {
		text string
		want float64
		ok   bool
	}{
		{"1 hr 50 mins", 110, true},
		{"1h 38m", 98, true},
		{"4m 30s", 4.5, true},
		{"38 min · 27.8 miles", 38, true},
		{"2 days", 2880, true},
		{"27.8 miles", 0, false},
	} {
		if got, ok := durationIn(c.text); got != c.want || ok != c.ok {
			t.Errorf("durationIn(%q) = %v, %v; want %v, %v", c.text, got, ok, c.want, c.ok)
		}
	}
}

// TestResolve_TotalIncluding: "the total including taxes" is a total, the taxes say which; the
// figure is the one labelled Total, not the taxes nor the total before them.
func TestResolve_TotalIncluding(t *testing.T) {
	runResolveCases(t, "sup-booking.html", []resolveCase{
		{"what's the grand total including taxes", IntentRead, "", "grand-total"},
		{"the total including taxes", IntentRead, "", "grand-total"},
		{"how much is the total including taxes?", IntentRead, "", "grand-total"},
		{"total incl taxes", IntentRead, "", "grand-total"},
		{"the total excluding taxes", IntentRead, "", "pre-tax"},
	})
}

// TestResolve_RowSuperlative: in a comparison table whose columns are the things compared, a
// superlative reads the row its field names; a cell costs the first price it shows, not the
// price it was or the saving.
func TestResolve_RowSuperlative(t *testing.T) {
	runResolveCases(t, "sup-compare.html", []resolveCase{
		{"the price of the cheapest phone", IntentRead, "", "price-kite"},
		{"the price of the most expensive phone", IntentRead, "", "price-nova"},
	})
}
