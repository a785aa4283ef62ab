package semantic

import "testing"

// TestResolve_ISODates: a date written year first ("2025-05-04") is a date, the answer to
// "when" in the row of the thing asked about.
func TestResolve_ISODates(t *testing.T) {
	runResolveCases(t, "fields.html", []resolveCase{
		{"when was the sourdough starter video uploaded", IntentRead, "", "up-30"},
		{"when was the focaccia video uploaded?", IntentRead, "", "up-29"},
	})
}

// TestValueShape_ISODates: year-first dates are dates; a phone number or a range of years is a figure, no date.
func TestValueShape_ISODates(t *testing.T) {
	for _, c := range []struct {
		text string
		want shape
	}{
		{"2025-05-04", shapeDate},
		{"published 2024-11-30", shapeDate},
		{"2025-05-04t09:30", shapeDate | shapeTime | shapeClock},
		{"555-0142", shapeNumber},
		{"2019-2024", shapeNumber},
	} {
		if got := valueShape(c.text); got != c.want {
			t.Errorf("valueShape(%q) = %b, want %b", c.text, got, c.want)
		}
	}
}

// TestResolve_FieldOfBlock: "the availability of X" is the line of X's list item that says
// available, not the list item that holds it and X's name.
func TestResolve_FieldOfBlock(t *testing.T) {
	runResolveCases(t, "fields.html", []resolveCase{
		{"the availability of the Brompton", IntentAny, "", "avail-brompton"},
		{"the availability of the Trek", IntentAny, "", "avail-fx3"},
	})
}

// TestResolve_EchoToItem: "what did Jonas Berg buy?" best matches the order's "Jonas Berg",
// which only repeats the question; the answer is the order's other field of words.
func TestResolve_EchoToItem(t *testing.T) {
	runResolveCases(t, "fields.html", []resolveCase{
		{"what did Jonas Berg buy?", IntentRead, "", "what-7702"},
		{"what did Aisha Karim order", IntentRead, "", "what-7703"},
	})
}

// TestResolve_SaidKeyValue: "what did the guest say?" is still a question once read as the
// guest's message, so the key that names the message ("Guest request") labels the answer, a
// note longer than a short value.
func TestResolve_SaidKeyValue(t *testing.T) {
	runResolveCases(t, "fields.html", []resolveCase{
		{"what did the guest say?", IntentRead, "", "req-text"},
		{"what did the guest ask", IntentAny, "", "req-text"},
	})
}

// TestResolve_StateOfCard: "is Juniper still free?" reads the room card's status tag. The card's
// title keys no value of its own ("Juniper" over "Queen bed · 2 guests · 18 m²"), and the tag,
// matched by its id, is the status itself, not the label of the rate after it.
func TestResolve_StateOfCard(t *testing.T) {
	runResolveCases(t, "fields.html", []resolveCase{
		{"is Juniper still free?", IntentRead, "", "state-juniper"},
		{"is Rowan available now", IntentRead, "", "state-rowan"},
	})
}

// TestResolve_StateBesideEcho: "is the freezer door online?" best matches the card's name,
// which only repeats the question; the answer is the card's other field (its status). A card
// of a plain div grid is an item as a list item is, and a cell under a column header ("Freezer
// door" in the events table) keys no value beside it.
func TestResolve_StateBesideEcho(t *testing.T) {
	runResolveCases(t, "fields.html", []resolveCase{
		{"is the freezer door online?", IntentRead, "", "st-door"},
		{"is the flour bin scale working", IntentRead, "", "st-scale"},
	})
}

// TestResolve_AbbreviatedClass: "where is Inês based" asks her location, which the page marks
// with class="loc" inside the line of her facts: a class that abbreviates the question's head
// word says what the element is, as a class that spells it does.
func TestResolve_AbbreviatedClass(t *testing.T) {
	runResolveCases(t, "fields.html", []resolveCase{
		{"where is Inês based?", IntentRead, "", "loc-1"},
		{"where is Tobias located", IntentRead, "", "loc-2"},
	})
}
