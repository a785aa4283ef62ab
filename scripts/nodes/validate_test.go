package nodes_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
)

// TestValidate_LiteralMistakesAreRejectedUpFront: configurations that can never run are a 400 with
// the request (invalid_config naming the node), not a failed step later; templated params wait.
func TestValidate_LiteralMistakesAreRejectedUpFront(t *testing.T) {
	cases := []struct {
		node, want string
	}{
		{`{"type": "email", "subject": "no recipient"}`, "needs a recipient"},
		{`{"type": "spreadsheet", "url": "s_1", "read_write": "write"}`, "at least one row_N"},
		{`{"type": "spreadsheet", "url": "s_1", "read_write": "read"}`, "reading needs `data`"},
		{`{"type": "spreadsheet", "url": "s_1", "read_write": "sideways", "data": "x"}`, "must be one of read, write"},
	}
	for _, c := range cases {
		_, err := scripts.DefaultRegistry.Compile("g", []json.RawMessage{json.RawMessage(c.node)}, nil)
		var e *errs.Error
		if !errs.Is(err, errs.InvalidConfig) || !asErr(err, &e) || len(e.Details) != 1 || e.Details[0].Node == nil ||
			!strings.Contains(e.Details[0].Problem, c.want) {
			t.Errorf("%s: got %v, want invalid_config mentioning %q", c.node, err, c.want)
		}
	}
	for _, ok := range []string{
		`{"type": "email", "to": "ops@example.com"}`,
		`{"type": "spreadsheet", "url": "s_1", "read_write": "{{mode}}", "data": "rows"}`,
	} {
		if _, err := scripts.DefaultRegistry.Compile("g", []json.RawMessage{json.RawMessage(ok)}, nil); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
}

func asErr(err error, e **errs.Error) bool {
	x, ok := err.(*errs.Error)
	*e = x
	return ok
}
