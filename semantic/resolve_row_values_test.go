package semantic

import "testing"

// TestResolve_RateFigures: a rate is written after its figure ("$2,150/mo", "7.12p per kWh"),
// and that says which of an item's figures is "the monthly rent" or "the price per kWh" when no
// label does; a figure per another unit ("per day") is not it.
func TestResolve_RateFigures(t *testing.T) {
	runResolveCases(t, "rowval-rentals.html", []resolveCase{
		{"the estimated monthly rent for the Alder Court Townhouse", IntentAny, "", "rent-2"},
		{"monthly rent of the Hawthorne Studio", IntentRead, "", "rent-3"},
		{"the price per kWh for gas", IntentAny, "", "gas-rate"},
	})
}

// TestResolve_AbbreviatedField: a card's field may say what it is only by its class or id, in
// the page's abbreviation ("pts" for story points).
func TestResolve_AbbreviatedField(t *testing.T) {
	runResolveCases(t, "rowval-board.html", []resolveCase{
		{"story points for the webhook retries", IntentAny, "", "pts-152"},
		{"story points for the image upload move", IntentRead, "", "pts-133"},
	})
}

// TestDescRate: the unit of the rate a description asks for.
func TestDescRate(t *testing.T) {
	for _, c := range []struct{ desc, want string }{
		{"the monthly payment", "month"},
		{"price per kWh for electricity", "kwh"},
		{"how much does it cost a night", "night"},
		{"cost per item", "item"},
		{"annual fee", "year"},
		{"a month ago", ""},
		{"the payment", ""},
	} {
		if got := descRate(rawWords(c.desc)); got != c.want {
			t.Errorf("descRate(%q) = %q, want %q", c.desc, got, c.want)
		}
	}
}

// TestFigureRate: the unit of the rate a text writes after its figure.
func TestFigureRate(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"est. $389/mo", "month"},
		{"$909/mo", "month"},
		{"24.50p per kwh", "kwh"},
		{"60.10p per day", "day"},
		{"$45 a night", "night"},
		{"$1,140 / yr", "year"},
		{"120 km/h", "hour"},
		{"3/14/2025", ""},
		{"1/2 cup", ""},
		{"£14.62 · 8% less than last week", ""},
		{"$45 a box", ""},
		{"$389", ""},
	} {
		if got := figureRate(c.text); got != c.want {
			t.Errorf("figureRate(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// TestResolve_AmountOwed: what one owes is the balance due, whatever dates are due beside it.
func TestResolve_AmountOwed(t *testing.T) {
	runResolveCases(t, "rowval-account.html", []resolveCase{
		{"how much do I owe in late fees?", IntentRead, "", "fees-total"},
	})
}

// TestResolve_PriceOfRow: "how much was the February invoice?" names a row (the invoice of
// February) and asks its price: the amount cell of that row, which says neither word.
func TestResolve_PriceOfRow(t *testing.T) {
	runResolveCases(t, "rowval-account.html", []resolveCase{
		{"how much was the February invoice?", IntentRead, "", "amt-feb"},
		{"how much was the January invoice", IntentRead, "", "amt-jan"},
	})
}

// TestResolve_QuantityBeforeConversion: an ingredient line leads with its quantity and may
// restate it in brackets in other units; "how much" is the quantity it leads with.
func TestResolve_QuantityBeforeConversion(t *testing.T) {
	runResolveCases(t, "rowval-recipe.html", []resolveCase{
		{"how much bread flour do I need?", IntentRead, "", "q-flour"},
		{"how much brown sugar goes in?", IntentRead, "", "q-sugar"},
	})
}
