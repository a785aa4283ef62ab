package semantic

import "testing"

func TestValueShape(t *testing.T) {
	cases := []struct {
		text string
		want shape
	}{
		{"25 min", shapeTime},
		{"1h 20m", shapeTime},
		{"9:14 am–9:38 am", shapeTime | shapeClock},
		{"may 3, 12:40 pm", shapeTime | shapeClock | shapeDate},
		{"07:05", shapeTime | shapeClock},
		{"4h 45m direct", shapeTime},
		{"aug 14, 2025 · iphone 15 pro", shapeDate},
		{"yesterday", shapeDate},
		{"3/14/2025", shapeDate},
		{"(+2.04%)", shapePercent},
		{"912.40", shapeNumber},
		{"1998", shapeNumber | shapeDate}, // a year alone
		{"2150", shapeNumber},
		{"1,204", shapeNumber},
		{"$24.00", shapeNumber},
		{"may i help you", 0},
		{"12 results", 0},
		{"room 114", 0},
		{"", 0},
		{"ssw 18 mph", shapeMeasure},
		{"66°/47°", shapeMeasure},
		{"2.4 km", shapeMeasure},
		{"3 working days", shapeTime},
		{"5–7 business days", shapeTime},
		{"2 working groups", 0},
		{"3 full am", 0},
	}
	for _, c := range cases {
		if got := valueShape(c.text); got != c.want {
			t.Errorf("valueShape(%q) = %b, want %b", c.text, got, c.want)
		}
	}
}

// TestValueShape_Magnitudes: a capital K, M or B after a figure is thousands, millions or
// billions, which a lowercased text would read as minutes; the page's own lowercase is kept.
func TestValueShape_Magnitudes(t *testing.T) {
	for raw, want := range map[string]shape{
		"1.42M":      shapeNumber,
		"1.42M / 2M": shapeNumber,
		"$3.1B":      shapeNumber,
		"12K":        shapeNumber,
		"2m":         shapeTime, // "2m ago"
		"1h 20m":     shapeTime,
		"2M events":  0,
		"5 MB":       shapeMeasure, // a data size, not 5 millions
		"1.42M · 5m": shapeTime,    // the page's minutes stay minutes
	} {
		for _, named := range []bool{true, false} {
			if got := newNormTok(raw, named).valueShape(); got != want {
				t.Errorf("shape of %q (named %v) = %b, want %b", raw, named, got, want)
			}
		}
	}
}

func TestKindOf(t *testing.T) {
	for desc, want := range map[string]string{
		"the cook time":                     "time",
		"the due date of the passport task": "date",
		"when the photo was taken":          "date",
		"the percent change":                "percent",
		"the wind speed":                    "measure",
		"the order total":                   "figure",
		"the price of the socks":            "price",
		"the Submit button":                 "",
	} {
		if got := Parse(desc).Kind; got != want {
			t.Errorf("%q: kind %q, want %q", desc, got, want)
		}
	}
}

// TestWordWeights: a word many elements carry counts less in a partial match than the head noun
// no other element has ("the ticket status" on a helpdesk page is the status, not a ticket
// control).
func TestWordWeights(t *testing.T) {
	s := &Snapshot{Title: "Ticket #48213 · Helpdesk", Elements: []Element{
		{ID: 0, Role: "searchbox", Tag: "input", Name: "Search tickets", Placeholder: "Search tickets", Interactive: true, Editable: true, Visible: true, Enabled: true, Parent: -1},
		{ID: 1, Role: "button", Tag: "button", Name: "+ New ticket", Text: "+ New ticket", Interactive: true, Visible: true, Enabled: true, Parent: -1},
		{ID: 2, Role: "heading", Tag: "h1", Name: "Printer offline", Text: "Printer offline", Visible: true, Enabled: true, Parent: -1},
		{ID: 3, Role: "text", Tag: "span", Name: "Open", Text: "Open", IDAttr: "status-pill", Class: "status", Visible: true, Enabled: true, Parent: -1},
	}}
	res, err := Resolve(s, Query{Description: "the ticket status", Intent: IntentRead})
	if err != nil {
		t.Fatal(err)
	}
	if res.Element.ID != 3 {
		t.Fatalf("got %s, want the status pill", describe(&res.Element))
	}
}

// TestPlurals: a heading that names a collection ("Hotels") or a count of things ("17 bids") is
// not one of the things.
func TestPlurals(t *testing.T) {
	cases := []struct {
		name, word     string
		plural, counts bool
	}{
		{"hotels", "hotel", true, false},
		{"suggested topics", "topic", true, false},
		{"[ 17 bids ]", "bid", true, true},
		{"12 branches", "branch", true, true},
		{"hotel gracery shinjuku", "hotel", false, false},
		{"current bid: us $142.50", "bid", false, false},
		{"bids and bid history", "bid", false, false},
	}
	for _, c := range cases {
		if got := namesPlural(c.name, c.word); got != c.plural {
			t.Errorf("namesPlural(%q, %q) = %v", c.name, c.word, got)
		}
		if got := countsPlural(c.name, c.word); got != c.counts {
			t.Errorf("countsPlural(%q, %q) = %v", c.name, c.word, got)
		}
	}
}
