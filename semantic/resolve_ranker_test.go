package semantic

import "testing"

// TestResolve_ControlOfStopsAtItsItem: a product card that puts its Add to cart button on the
// image, above the title, has no control after its title; "order a Blue Mug" is that card's
// button, not the next card's, which is the first control after the title in document order.
func TestResolve_ControlOfStopsAtItsItem(t *testing.T) {
	runResolveCases(t, "ranker-shop.html", []resolveCase{
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
	runResolveCases(t, "ranker-classes.html", []resolveCase{
		{"book Power Yoga with Sam", IntentClick, "", "s-1800"},
		{"book power yoga with Sam on Tuesday", IntentClick, "", "s-1800"},
		{"book a spot in Sam's power yoga", IntentAny, "", "s-1800"},
	})
}

// TestResolve_DaySpanAnswersWhen: "when is the conference" and "the conference dates" ask when
// it runs from and to, which the hero's "Thu 12 – Sat 14 March 2026" says; its length made it
// tie with (or lose to) the short lone dates of the deadlines and the trip below.
func TestResolve_DaySpanAnswersWhen(t *testing.T) {
	runResolveCases(t, "ranker-event.html", []resolveCase{
		{"when is the conference", IntentRead, "", "d-hero"},
		{"what are the conference dates", IntentRead, "", "d-hero"},
		{"the dates of the conference", IntentRead, "", "d-hero"},
	})
}

// TestValueShape_DaySpan: a span of days is two dates, or a day number and a date, joined by a
// dash or a word; a day's hours, an ISO date and a line of years are none.
func TestValueShape_DaySpan(t *testing.T) {
	for _, c := range []struct {
		text string
		span bool
	}{
		{"12–14 march 2026", true},
		{"thu 12 – sat 14 march 2026", true},
		{"wed 11 mar – sun 15 mar", true},
		{"mar 12 – mar 14, 2026", true},
		{"march 12-14", true},
		{"jun 1 – 7", true},
		{"3/12/2026 - 3/14/2026", true},
		{"2026-03-12 to 2026-03-14", true},
		{"from 12 march until 14 march", true},
		{"12 march", false},
		{"2026-03-12", false},
		{"tue 9:00 – 17:00", false},
		{"jun 13, 2 – 3 pm", false},
		{"sep 2024 – present", false},
		{"2019 – 2023", false},
	} {
		if got := valueShape(c.text)&shapeSpan != 0; got != c.span {
			t.Errorf("valueShape(%q) span = %v, want %v", c.text, got, c.span)
		}
	}
}

// TestSpanOf: what a date description asks of a span of days.
func TestSpanOf(t *testing.T) {
	for _, c := range []struct {
		desc string
		want int
	}{
		{"the dates of the trip", spanAsked},
		{"when does the sale run from and to", spanAsked},
		{"when does the festival run", spanAsked},
		{"when is the conference", spanMaybeAsked},
		{"what day do I fly out", oneDayAsked},
		{"the start date of the conference", oneDayAsked},
		{"when is the water bill due", oneDayAsked},
		{"when does the exhibition open", spanMaybeAsked},
		{"when is the pool open", spanMaybeAsked},
		{"what date does the exhibition close", oneDayAsked},
		{"the price of the trip", 0},
	} {
		p := Parse(c.desc)
		if got := spanOf(&p); got != c.want {
			t.Errorf("spanOf(%q) = %d, want %d (kind %q)", c.desc, got, c.want, p.Kind)
		}
	}
}

// TestResolve_RowsOfTheirOwnGrid: invoice rows that each lay out their cells with one CSS grid
// template, the header row one of them: "the status of the second invoice" is the pill under
// Status in the second row under the header (not the first row, the header counted), and the
// rows after the first have their columns too.
func TestResolve_RowsOfTheirOwnGrid(t *testing.T) {
	runResolveCases(t, "ranker-invoices.html", []resolveCase{
		{"the status of the second invoice", IntentRead, "", "s2"},
		{"the status of the last invoice", IntentRead, "", "s4"},
		{"the status of the Lumen Dental invoice", IntentRead, "", "s2"},
		{"what is the status of INV-2043", IntentRead, "", "s3"},
		{"when was the Tessellate Studio invoice issued", IntentRead, "", "d4"},
	})
}
