package semantic

import "testing"

// accEl builds a visible, enabled snapshot element for the ranking cases below.
func accEl(id, parent int, tag, role, text, idAttr, ctx string, y float64) Element {
	return Element{ID: id, Parent: parent, Tag: tag, Role: role, Name: text, Text: text, IDAttr: idAttr, Context: ctx,
		Visible: true, Enabled: true, Interactive: tag == "a" || tag == "button" || tag == "input",
		Editable: tag == "input" && role == "textbox", Box: Box{X: 10, Y: y, W: 100, H: 20}}
}

// TestRankAccuracyMechanisms covers the general ranking mechanisms, one case each.
func TestRankAccuracyMechanisms(t *testing.T) {
	cases := []struct {
		name, desc string
		intent     Intent
		els        []Element
		want       string // id attribute of the expected element
	}{{
		// The exact name beats the same word in brackets ("[edit]" section links).
		name: "exact name over decorated", desc: "the Edit tab", intent: IntentClick,
		els: []Element{
			accEl(0, -1, "a", "link", "Edit", "ca-edit", "navigation Views", 0),
			accEl(1, -1, "a", "link", "[edit]", "edit-1", "Etymology", 100),
		},
		want: "ca-edit",
	}, {
		// A trailing question mark is part of the name, not a decoration.
		name: "question mark", desc: "forgot password", intent: IntentClick,
		els: []Element{
			accEl(0, -1, "a", "link", "Forgot password?", "forgot", "", 0),
			accEl(1, -1, "a", "link", "[forgot password]", "other", "", 100),
		},
		want: "forgot",
	}, {
		// Description words the element lacks but its section carries tell look-alikes apart.
		name: "context words", desc: "the billing zip code", intent: IntentType,
		els: []Element{
			accEl(0, -1, "input", "textbox", "ZIP code", "s-zip", "Shipping address | form Contact", 0),
			accEl(1, -1, "input", "textbox", "ZIP code", "b-zip", "Billing address | form Contact", 100),
		},
		want: "b-zip",
	}, {
		// A row header with digits in its name still labels the row's first value.
		name: "header with digits", desc: "the S&P 500 value", intent: IntentRead,
		els: []Element{
			accEl(0, -1, "th", "rowheader", "S&P 500", "", "table", 0),
			accEl(1, -1, "td", "cell", "5,214.08", "spx", "table", 0),
			accEl(2, -1, "td", "cell", "+0.4%", "spx-chg", "table", 0),
		},
		want: "spx",
	}, {
		// "the order total" is the total's figure; a heading that says "order" is not its anchor.
		name: "figure head word", desc: "the order total", intent: IntentRead,
		els: []Element{
			accEl(0, -1, "h2", "heading", "Order summary", "", "", 0),
			accEl(1, -1, "dt", "term", "Subtotal", "", "Order summary", 20),
			accEl(2, -1, "dd", "definition", "$149.84", "sub", "Order summary", 20),
			accEl(3, -1, "dt", "term", "Total", "", "Order summary", 40),
			accEl(4, -1, "dd", "definition", "$159.84", "total", "Order summary", 40),
		},
		want: "total",
	}, {
		// A price inside a product card: the price itself, not the card that holds it.
		name: "price not its card", desc: "the price of the Jasmine Pearls", intent: IntentRead,
		els: []Element{
			accEl(0, -1, "li", "listitem", "Jasmine Pearls £12.00 / 100g Add", "", "", 0),
			accEl(1, 0, "a", "link", "Jasmine Pearls", "tea6", "", 0),
			accEl(2, 0, "span", "text", "£12.00 / 100g", "price6", "", 0),
			accEl(3, 0, "button", "button", "Add", "add6", "", 0),
		},
		want: "price6",
	}, {
		// A label that opens a line ("Error:") names the line: reading it returns the line.
		name: "leading label", desc: "the error message", intent: IntentRead,
		els: []Element{
			accEl(0, -1, "p", "paragraph", "Error: Enter a registration number in the correct format", "reg-err", "", 0),
			accEl(1, 0, "span", "text", "Error:", "", "", 0),
		},
		want: "reg-err",
	}, {
		// "the first paragraph" counts paragraphs, not a caption that could stand in for one.
		name: "ordinal over the exact role", desc: "the first paragraph", intent: IntentRead,
		els: []Element{
			accEl(0, -1, "caption", "text", "Western honey bee", "cap", "", 0),
			accEl(1, -1, "p", "paragraph", "A honey bee is a eusocial flying insect.", "p1", "", 100),
			accEl(2, -1, "p", "paragraph", "Honey bees are known for their wax nests.", "p2", "", 200),
		},
		want: "p1",
	}, {
		// A thumb's direction is its meaning.
		name: "thumbs up is like", desc: "the thumbs up", intent: IntentClick,
		els: []Element{
			accEl(0, -1, "button", "button", "like this video along with 21,304 other people", "like", "", 0),
			accEl(1, -1, "button", "button", "Dislike this video", "dislike", "", 0),
		},
		want: "like",
	}, {
		// "done" is what a page calls complete.
		name: "done is complete", desc: "mark Renew passport as done", intent: IntentClick,
		els: []Element{
			accEl(0, -1, "li", "listitem", "Renew passport Yesterday", "t2", "", 0),
			accEl(1, 0, "input", "checkbox", "Complete: Renew passport", "cb2", "", 0),
			accEl(2, 0, "span", "text", "Renew passport", "t2title", "", 0),
			accEl(3, 0, "span", "text", "Yesterday", "t2due", "", 0),
		},
		want: "cb2",
	}, {
		// "the article title" with no heading that says "article": the page's only h1.
		name: "page title", desc: "the article title", intent: IntentRead,
		els: []Element{
			accEl(0, -1, "h1", "heading", "Honey bee", "firstHeading", "", 0),
			accEl(1, -1, "h2", "heading", "Contents", "", "", 100),
			accEl(2, -1, "h2", "heading", "Etymology", "", "", 200),
		},
		want: "firstHeading",
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := &Snapshot{Elements: c.els}
			res, err := Resolve(s, Query{Description: c.desc, Intent: c.intent})
			if err != nil {
				t.Fatalf("%q: %v", c.desc, err)
			}
			if res.Element.IDAttr != c.want {
				t.Errorf("%q -> %s, want #%s (%s)", c.desc, describe(&res.Element), c.want, res.Why)
			}
		})
	}
}
