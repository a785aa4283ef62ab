package triggers

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/semantic"
)

// A watch's condition is one English sentence: a target (what to read, in the words of a
// semanticScrape target) and a test of what is read. The forms, tried in this order:
//
//	<table> has a row for X     (also "with", "containing", "mentioning"): a table is read; true
//	                            when a cell of some row contains X, ignoring case
//	<target> says X             (also "reads", "shows", "displays"): the value is X, ignoring
//	                            case, surrounding spaces and punctuation, or a "Label: X" line's X
//	<target> contains X         (also "mentions", "includes"): the value contains X, ignoring case
//	<target> is below N         (also "under", "less than", "lower than", "<"): the first number
//	                            in the value is below N (a form whose N is no number is skipped)
//	<target> is above N         (also "over", "more than", "greater than", "higher than", ">")
//	<target> is X               (also "equals"): as "says"
//
// A leading "when" or "if" and a trailing full stop are ignored; X may be quoted.

// Condition operators.
const (
	opRow      = "has a row for"
	opBelow    = "is below"
	opAbove    = "is above"
	opContains = "contains"
	opSays     = "says"
)

// CodeValueUnreadable is a check's error when the value read cannot be tested (no number for a
// comparison, no table for a row test).
const CodeValueUnreadable = "value_unreadable"

// Condition is a parsed watch condition.
type Condition struct {
	Target string  `json:"target"`
	Op     string  `json:"op"`
	Text   string  `json:"text,omitempty"`
	Number float64 `json:"number,omitempty"`
}

var conditionForms = []struct {
	op string
	re *regexp.Regexp
}{
	{opRow, regexp.MustCompile(`(?i)^(.+?)\s+(?:has|have|contains|shows)\s+(?:a|an|any|some)\s+rows?\s+(?:for|with|containing|mentioning|about)\s+(.+)$`)},
	{opSays, regexp.MustCompile(`(?i)^(.+?)\s+(?:says|reads|shows|displays)\s+(.+)$`)},
	{opContains, regexp.MustCompile(`(?i)^(.+?)\s+(?:contains|mentions|includes)\s+(.+)$`)},
	{opBelow, regexp.MustCompile(`(?i)^(.+?)\s+(?:is\s+|are\s+|drops\s+|falls\s+|goes\s+)?(?:below|under|less\s+than|lower\s+than|<)\s*(.+)$`)},
	{opAbove, regexp.MustCompile(`(?i)^(.+?)\s+(?:is\s+|are\s+|rises\s+|goes\s+)?(?:above|over|more\s+than|greater\s+than|higher\s+than|>)\s*(.+)$`)},
	{opSays, regexp.MustCompile(`(?i)^(.+?)\s+(?:is|equals)\s+(.+)$`)},
}

// conditionHelp is named in the error for a sentence none of the forms reads.
const conditionHelp = `write one of: "<target> says X", "<target> contains X", "<target> is below N", "<target> is above N", "<the … table> has a row for X" (e.g. "the status says Shipped", "the price is below 50", "the Orders table has a row for ACME")`

// ParseCondition reads an English condition. One it cannot read is invalid_config naming the forms.
func ParseCondition(s string) (Condition, error) {
	text := strings.Join(strings.Fields(s), " ")
	text = strings.TrimRight(text, ".")
	for _, lead := range []string{"when ", "if ", "once "} {
		if len(text) > len(lead) && strings.EqualFold(text[:len(lead)], lead) {
			text = text[len(lead):]
		}
	}
	for _, f := range conditionForms {
		m := f.re.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		c := Condition{Target: strings.TrimSpace(m[1]), Op: f.op, Text: unquote(strings.TrimSpace(m[2]))}
		if c.Target == "" || c.Text == "" {
			continue
		}
		switch c.Op {
		case opBelow, opAbove:
			n, ok := firstNumber(c.Text)
			if !ok { // "the note is under review": not a comparison; a later form may read it
				continue
			}
			c.Number, c.Text = n, ""
		case opRow:
			if semantic.ShapeOf(c.Target) != semantic.ShapeTable {
				c.Target += " table"
			}
		}
		if strings.Contains(c.Target, "{{") {
			return Condition{}, conditionError("the target must not hold {{placeholders}}")
		}
		return c, nil
	}
	return Condition{}, conditionError("cannot read " + strconv.Quote(s))
}

func conditionError(problem string) error {
	return &errs.Error{Code: errs.InvalidConfig, Message: "condition: " + problem + "; " + conditionHelp,
		Details: []errs.Detail{{Field: "condition", Problem: problem + "; " + conditionHelp}}}
}

func unquote(s string) string {
	for _, q := range []string{`"`, `'`, "“”", "‘’"} {
		open, close := q[:len(q)/2], q[len(q)/2:]
		if len(q) == 1 {
			open, close = q, q
		}
		if len(s) >= len(open)+len(close) && strings.HasPrefix(s, open) && strings.HasSuffix(s, close) {
			return s[len(open) : len(s)-len(close)]
		}
	}
	return s
}

// numberRe finds a number written with optional thousands separators and decimals.
var numberRe = regexp.MustCompile(`-?\d[\d,]*(?:\.\d+)?|-?\.\d+`)

// firstNumber is the first number in s ("$1,234.50 incl. VAT" -> 1234.5).
func firstNumber(s string) (float64, bool) {
	m := numberRe.FindString(s)
	if m == "" {
		return 0, false
	}
	n, err := strconv.ParseFloat(strings.ReplaceAll(m, ",", ""), 64)
	return n, err == nil
}

// String is the condition as the API shows what it understood.
func (c Condition) String() string {
	switch c.Op {
	case opBelow, opAbove:
		return fmt.Sprintf("%s %s %s", c.Target, c.Op, strconv.FormatFloat(c.Number, 'f', -1, 64))
	}
	return fmt.Sprintf("%s %s %q", c.Target, c.Op, c.Text)
}

// Eval tests the value read for the target (a string, or a table's rows). An unusable value is a
// value_unreadable error.
func (c Condition) Eval(value any) (bool, error) {
	if c.Op == opRow {
		rows, ok := value.([]any)
		if !ok {
			return false, errs.E(CodeValueUnreadable, "%q did not read as a table", c.Target)
		}
		want := strings.ToLower(c.Text)
		for _, r := range rows {
			for _, cell := range cellsOf(r) {
				if strings.Contains(strings.ToLower(cell), want) {
					return true, nil
				}
			}
		}
		return false, nil
	}
	text := valueText(value)
	switch c.Op {
	case opBelow, opAbove:
		n, ok := firstNumber(text)
		if !ok {
			return false, errs.E(CodeValueUnreadable, "the value %q of %q holds no number", cut(text, 80), c.Target)
		}
		if c.Op == opBelow {
			return n < c.Number, nil
		}
		return n > c.Number, nil
	case opContains:
		return strings.Contains(strings.ToLower(text), strings.ToLower(c.Text)), nil
	}
	return says(text, c.Text), nil
}

// says reports whether text is want, ignoring case, spaces and punctuation around it; a
// "Label: value" text is tested on its value too.
func says(text, want string) bool {
	norm := func(s string) string {
		return strings.ToLower(strings.Trim(strings.Join(strings.Fields(s), " "), " .,;:!?\"'()[]"))
	}
	w := norm(want)
	if norm(text) == w {
		return true
	}
	if _, after, ok := strings.Cut(text, ":"); ok && norm(after) == w {
		return true
	}
	return false
}

func cellsOf(row any) []string {
	switch r := row.(type) {
	case map[string]any:
		out := make([]string, 0, len(r))
		for _, v := range r {
			out = append(out, valueText(v))
		}
		return out
	case []any:
		out := make([]string, 0, len(r))
		for _, v := range r {
			out = append(out, valueText(v))
		}
		return out
	}
	return []string{valueText(row)}
}

// valueText renders a value read off the page: a string as it is, anything else as JSON.
func valueText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	if v == nil {
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}
