package semantic

import (
	"fmt"
	"reflect"
	"testing"
)

func TestParse_ItemsHeadsAndRewrites(t *testing.T) {
	cases := []struct {
		desc    string
		ord     int
		item    string
		counted string
		head    string
		ctx     []string
	}{
		{"the tenth tea", 10, "", "tea", "tea", nil},
		{"the second step of the method", 2, "", "step", "step", []string{"method"}},
		{"the first suggested topic", 1, "", "topic", "topic", []string{"suggested"}},
		{"the first video in up next", 1, "", "video", "video", []string{"up", "next"}},
		{"the second Add to cart button", 2, "", "", "add", nil},
		{"the Zentra's memory", 0, "", "", "memory", nil},
		{"the price of the JBL headphones", 0, "", "", "", nil}, // the head is the role word
		{"the order total", 0, "", "", "total", nil},
		{"track the kettle order", 0, "", "", "track", nil},
		{"Dismiss the popup with its X", 0, "", "", "dismiss", []string{"dialog"}},
	}
	for _, c := range cases {
		p := Parse(c.desc)
		if p.Ordinal != c.ord || p.Item != c.item || p.Counted != c.counted || p.Head != c.head || !reflect.DeepEqual(p.Context, c.ctx) {
			t.Errorf("Parse(%q): ordinal %d item %q counted %q head %q context %q; want %d %q %q %q %q",
				c.desc, p.Ordinal, p.Item, p.Counted, p.Head, p.Context, c.ord, c.item, c.counted, c.head, c.ctx)
		}
	}
}

// page builds a snapshot from compact rows: tag, role, name, context, shape; interactive roles
// are clickable, textbox ones editable.
func page(rows ...[5]string) *Snapshot {
	s := &Snapshot{URL: "https://example.test/"}
	for i, r := range rows {
		e := Element{ID: i, Tag: r[0], Role: r[1], Name: r[2], Text: r[2], Context: r[3], Shape: r[4], Parent: -1, Visible: true, Enabled: true,
			Selector: fmt.Sprintf("#e%d", i), Box: Box{X: 10, Y: float64(20 * i), W: 100, H: 18}}
		switch r[1] {
		case "button", "link", "checkbox", "radio", "tab", "combobox", "option":
			e.Interactive = true
		case "textbox", "searchbox":
			e.Interactive, e.Editable, e.Text = true, true, ""
		}
		s.Elements = append(s.Elements, e)
	}
	return s
}

func TestRank_Relations(t *testing.T) {
	shop := page(
		[5]string{"a", "link", "Sony WH-1000XM6", "Headphones", "body>ul>div>h2>a"},
		[5]string{"div", "text", "$399.99", "Headphones", "body>ul>div>div"},
		[5]string{"button", "button", "Add to cart", "Headphones", "body>ul>div>button"},
		[5]string{"a", "link", "JBL Tune 770NC", "Headphones", "body>ul>div>h2>a"},
		[5]string{"div", "text", "$129.95", "Headphones", "body>ul>div>div"},
		[5]string{"button", "button", "Add to cart", "Headphones", "body>ul>div>button"},
		[5]string{"dt", "text", "Available balance", "Account", "body>main>dl>dt"},
		[5]string{"dd", "text", "$2,418.73", "Account", "body>main>dl>dd"},
		[5]string{"button", "button", "Subscribe", "Channel", "body>main>button"},
		[5]string{"input", "textbox", "Last name", "Form", "body>form>input"},
	)
	cases := []struct {
		desc   string
		intent Intent
		want   string
	}{
		{"the price of the JBL headphones", IntentRead, "#e4"},
		{"add the Sony headphones to the cart", IntentClick, "#e2"},
		{"available balance", IntentRead, "#e7"},
		{"Subscribe to the channel", IntentClick, "#e8"},
		{"the surname box", IntentType, "#e9"},
		{"the second product", IntentClick, "#e3"},
	}
	for _, c := range cases {
		res, err := Resolve(shop, Query{Description: c.desc, Intent: c.intent})
		if err != nil {
			t.Errorf("%q: %v", c.desc, err)
			continue
		}
		if res.Element.Selector != c.want || res.Confidence < 0.3 {
			t.Errorf("%q -> %s (conf %.2f, %s), want %s", c.desc, describe(&res.Element), res.Confidence, res.Why, c.want)
		}
	}
}

func TestShapeOf(t *testing.T) {
	for desc, want := range map[string]Shape{
		"the order total": ShapeValue, "all product names": ShapeList, "every price on the page": ShapeList,
		"the list of ingredients": ShapeList, "the pricing table": ShapeTable, "the recent transactions table": ShapeTable,
		"the first result's title": ShapeValue,
	} {
		if got := ShapeOf(desc); got != want {
			t.Errorf("ShapeOf(%q) = %s, want %s", desc, got, want)
		}
	}
}

func TestTableFromHTML(t *testing.T) {
	rows, err := TableFromHTML(`<table><thead><tr><th>Plan</th><th>Price</th></tr></thead><tbody><tr><td>Starter</td><td>$0</td></tr><tr><td>Growth</td><td>$49<small>/mo</small></td></tr></tbody></table>`)
	if err != nil || fmt.Sprint(rows) != "[map[Plan:Starter Price:$0] map[Plan:Growth Price:$49/mo]]" {
		t.Fatalf("%v %v", rows, err)
	}
	grid, err := TableFromHTML(`<div role="grid"><div role="row"><div role="columnheader">Number</div><div role="columnheader">Amount</div></div><div role="row"><div role="gridcell">INV-1</div><div role="gridcell">€10</div></div></div>`)
	if err != nil || fmt.Sprint(grid) != "[map[Amount:€10 Number:INV-1]]" {
		t.Fatalf("%v %v", grid, err)
	}
}
