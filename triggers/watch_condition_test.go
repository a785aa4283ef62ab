package triggers_test

import (
	"strings"
	"testing"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/triggers"
)

func TestParseCondition_TheForms(t *testing.T) {
	cases := []struct {
		in   string
		want triggers.Condition
	}{
		{"the status says Shipped", triggers.Condition{Target: "the status", Op: "says", Text: "Shipped"}},
		{`When the banner reads "Sold out".`, triggers.Condition{Target: "the banner", Op: "says", Text: "Sold out"}},
		{"the status is Delivered", triggers.Condition{Target: "the status", Op: "says", Text: "Delivered"}},
		{"the log contains error", triggers.Condition{Target: "the log", Op: "contains", Text: "error"}},
		{"the price is below 50", triggers.Condition{Target: "the price", Op: "is below", Number: 50}},
		{"the price drops under $1,299.50", triggers.Condition{Target: "the price", Op: "is below", Number: 1299.5}},
		{"if the stock count is more than 3", triggers.Condition{Target: "the stock count", Op: "is above", Number: 3}},
		{"the queue length > 10", triggers.Condition{Target: "the queue length", Op: "is above", Number: 10}},
		{"the Orders table has a row for ACME", triggers.Condition{Target: "the Orders table", Op: "has a row for", Text: "ACME"}},
		{"the orders have a row with ACME Ltd", triggers.Condition{Target: "the orders table", Op: "has a row for", Text: "ACME Ltd"}},
		// "under" followed by no number is not a comparison: the sentence is a "says".
		{"the note is under review", triggers.Condition{Target: "the note", Op: "says", Text: "under review"}},
	}
	for _, c := range cases {
		got, err := triggers.ParseCondition(c.in)
		if err != nil || got != c.want {
			t.Errorf("%q: %+v %v, want %+v", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "Shipped", "the price", "the {{x}} says y"} {
		_, err := triggers.ParseCondition(bad)
		if !errs.Is(err, errs.InvalidConfig) || !strings.Contains(err.Error(), "says X") {
			t.Errorf("%q: %v, want invalid_config naming the forms", bad, err)
		}
	}
}

func TestCondition_Eval(t *testing.T) {
	rows := []any{map[string]any{"Customer": "Globex", "Total": "$10"}, map[string]any{"Customer": "ACME Ltd", "Total": "$12"}}
	cases := []struct {
		cond  string
		value any
		want  bool
		code  string
	}{
		{"the status says Shipped", "Shipped", true, ""},
		{"the status says Shipped", "shipped.", true, ""},
		{"the status says Shipped", "Status: Shipped", true, ""},
		{"the status says Shipped", "Not shipped yet", false, ""},
		{"the log contains error", "3 Errors found", true, ""},
		{"the price is below 50", "$48.20", true, ""},
		{"the price is below 50", "Price: 1,050.00 EUR", false, ""},
		{"the price is above 50", "-3", false, ""},
		{"the price is below 50", "call us", false, triggers.CodeValueUnreadable},
		{"the Orders table has a row for acme", rows, true, ""},
		{"the Orders table has a row for Initech", rows, false, ""},
		{"the Orders table has a row for ACME", "ACME", false, triggers.CodeValueUnreadable},
	}
	for _, c := range cases {
		cond, err := triggers.ParseCondition(c.cond)
		if err != nil {
			t.Fatal(err)
		}
		got, err := cond.Eval(c.value)
		if c.code != "" {
			if !errs.Is(err, c.code) {
				t.Errorf("%q on %v: %v, want %s", c.cond, c.value, err, c.code)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%q on %v: %v %v, want %v", c.cond, c.value, got, err, c.want)
		}
	}
}
