package nodes

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/store"
)

// spreadsheetRows is how many Row N fields the studio's spreadsheet node offers here.
const spreadsheetRows = 50

// spreadsheet is the studio's spreadsheet node: one node that reads or writes a sheet. Writing
// appends its row_1…row_N (in order, all in one transaction); reading takes row numbers and
// ranges from them and stores the rows in `data`.
type spreadsheet struct {
	urlRef, nameRef string
	write           bool
	out             string
	rows            []rowParam // the given row_N, in order of N

	sheet   store.Sheet
	written [][]string
	read    [][]string
	missing []string
}

// rowParam is one row_N as given: a single text, or a list of texts.
type rowParam struct {
	n      int
	values []string
	list   bool
}

func init() {
	params := []scripts.Param{
		{Name: "url", Type: scripts.String, Required: true, Template: true,
			Description: "the sheet: its URL or id, or a variable holding it (sheets_create writes one)", Example: "sheet_url"},
		{Name: "read_write", Type: scripts.String, Required: true, Enum: []string{"read", "write"},
			Description: "read rows into `data`, or write (append) the rows", Example: "write"},
		{Name: "sheet_name", Type: scripts.String, Template: true,
			Description: "the sheet's name, or a variable holding it; the URL decides the sheet, a different name is noted in the step detail", Example: "Leads"},
		{Name: "data", Type: scripts.String,
			Description: "reading: the variable that receives the rows read (required to read)", Example: "rows"},
	}
	for i := 1; i <= spreadsheetRows; i++ {
		p := scripts.Param{Name: fmt.Sprintf("row_%d", i), Type: scripts.Any,
			Description: fmt.Sprintf("row %d: writing, a variable holding the row (a list is one cell per item) or a list of values/variable names; reading, a row number or range such as \"2-5\" or \"all\"", i)}
		if i == 1 {
			p.Example = []string{"name", "price"}
		}
		params = append(params, p)
	}
	scripts.Register(scripts.Spec{
		Kind:     "spreadsheet",
		Summary:  "Read rows from or write rows to a sheet (the studio's spreadsheet node).",
		Category: "data",
		Timeout:  30 * time.Second,
		Params:   params,
		Examples: []map[string]any{
			{"type": "spreadsheet", "url": "sheet_url", "read_write": "write", "row_1": "first_row", "row_2": []string{"total", "sum"}},
			{"type": "spreadsheet", "url": "sheet_url", "read_write": "read", "row_1": "1", "row_2": "3-5", "data": "rows"},
		},
		Build:    buildSpreadsheet,
		Validate: validateByBuilding(buildSpreadsheet),
	})
}

func buildSpreadsheet(p *scripts.Params) (scripts.Node, error) {
	n := &spreadsheet{}
	var err error
	if n.urlRef, err = p.String("url"); err != nil {
		return nil, err
	}
	if n.nameRef, err = p.String("sheet_name"); err != nil {
		return nil, err
	}
	mode, err := p.String("read_write")
	if err != nil {
		return nil, err
	}
	switch strings.ToLower(strings.TrimSpace(mode)) {
	case "write":
		n.write = true
	case "read":
	default:
		return nil, errInvalid("read_write must be \"read\" or \"write\", not %q", mode)
	}
	if n.out, err = p.String("data"); err != nil {
		return nil, err
	}
	n.out = strings.TrimSpace(n.out)
	for i := 1; i <= spreadsheetRows; i++ {
		name := fmt.Sprintf("row_%d", i)
		if !p.Has(name) {
			continue
		}
		r := rowParam{n: i}
		if s, err := p.String(name); err == nil {
			r.values = []string{s}
		} else if r.values, err = p.Strings(name); err != nil {
			return nil, errInvalid("%s must be a text, a number or a list of texts", name)
		} else {
			r.list = true
		}
		n.rows = append(n.rows, r)
	}
	switch {
	case n.write && len(n.rows) == 0:
		return nil, errInvalid("writing needs at least one row_N (row_1 … row_%d)", spreadsheetRows)
	case !n.write && n.out == "":
		return nil, errInvalid("reading needs `data`, the variable that receives the rows")
	}
	return n, nil
}

func (n *spreadsheet) Run(ctx context.Context, env *scripts.Env) error {
	sheet, db, err := resolveSheet(env, "url", n.urlRef, n.nameRef)
	if err != nil {
		return err
	}
	if n.write {
		return n.runWrite(ctx, env, db, sheet)
	}
	return n.runRead(env, db, sheet)
}

func (n *spreadsheet) runWrite(ctx context.Context, env *scripts.Env, db *store.DB, sheet store.Sheet) error {
	n.written = nil
	for _, r := range n.rows {
		var cells []string
		var err error
		if r.list {
			cells, err = rowCells(env, r.values, false)
		} else {
			// One text: a variable holding the row (a list spreads into cells), or one literal cell.
			cells, err = rowCells(env, r.values, true)
		}
		if err != nil {
			return fmt.Errorf("row_%d: %w", r.n, err)
		}
		n.written = append(n.written, cells)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	var err error
	if n.sheet, err = db.AppendRows(env.Account, sheet.ID, n.written...); err != nil {
		return err
	}
	first := n.sheet.Rows - len(n.written) + 1
	env.SetDetail("rows_written", len(n.written))
	env.SetDetail("first_row", first)
	return nil
}

// rowSpan is a range of 1-based data row numbers; open means "to the last row".
type rowSpan struct {
	from, to int
	open     bool
	text     string
}

func parseRowSpan(text string) (rowSpan, error) {
	t := strings.ToLower(strings.TrimSpace(text))
	if t == "all" || t == "*" || t == "" {
		return rowSpan{from: 1, open: true, text: "all"}, nil
	}
	a, b, isRange := strings.Cut(strings.ReplaceAll(t, ":", "-"), "-")
	from, err := strconv.Atoi(strings.TrimSpace(a))
	if err != nil || from < 1 {
		return rowSpan{}, fmt.Errorf("%q is not a row number (1, 2, …), a range such as \"2-5\" or \"all\"", text)
	}
	if !isRange {
		return rowSpan{from: from, to: from, text: t}, nil
	}
	if strings.TrimSpace(b) == "" {
		return rowSpan{from: from, open: true, text: t}, nil
	}
	to, err := strconv.Atoi(strings.TrimSpace(b))
	if err != nil || to < from {
		return rowSpan{}, fmt.Errorf("%q is not a range of rows such as \"2-5\"", text)
	}
	return rowSpan{from: from, to: to, text: t}, nil
}

func (n *spreadsheet) runRead(env *scripts.Env, db *store.DB, sheet store.Sheet) error {
	var spans []rowSpan
	for _, r := range n.rows {
		for _, v := range r.values {
			val, _, err := varOrLiteral(env, v)
			if err != nil {
				return fmt.Errorf("row_%d: %w", r.n, err)
			}
			span, err := parseRowSpan(scripts.Text(val))
			if err != nil {
				return errs.E(errs.InvalidConfig, "row_%d: %v", r.n, err)
			}
			spans = append(spans, span)
		}
	}
	if len(spans) == 0 {
		spans = []rowSpan{{from: 1, open: true, text: "all"}}
	}
	n.read, n.missing = [][]string{}, nil
	for _, sp := range spans {
		limit := store.MaxReadLimit - len(n.read)
		if !sp.open {
			limit = min(limit, sp.to-sp.from+1)
		}
		if limit <= 0 {
			return errs.E(errs.InvalidConfig, "one read takes at most %d rows; read in several nodes", store.MaxReadLimit)
		}
		s, rows, err := db.ReadRows(env.Account, sheet.ID, sp.from-1, limit)
		if err != nil {
			return err
		}
		n.sheet = s
		// A row past the end is missing; a closed range that runs past the end is cut short.
		if sp.from > s.Rows && !(sp.open && sp.from == 1) {
			n.missing = append(n.missing, sp.text)
		}
		n.read = append(n.read, rows...)
	}
	env.Vars.Set(n.out, rowsValue(n.read))
	env.SetDetail("rows_read", len(n.read))
	env.SetDetail("rows_total", n.sheet.Rows)
	if len(n.missing) > 0 {
		env.SetDetail("missing_rows", n.missing)
	}
	if len(n.sheet.Header) > 0 {
		env.SetDetail("header", n.sheet.Header)
	}
	return nil
}

func (n *spreadsheet) Verify(ctx context.Context, env *scripts.Env) ([]scripts.Check, error) {
	if !n.write {
		c := scripts.Check{Name: "rows_read", Passed: len(n.missing) == 0,
			Detail: fmt.Sprintf("read %d rows of %d into %s", len(n.read), n.sheet.Rows, n.out)}
		if len(n.missing) > 0 {
			c.Detail += fmt.Sprintf("; the sheet has no row %s", strings.Join(n.missing, ", "))
		}
		return []scripts.Check{c}, nil
	}
	db, err := sheetsStore(env)
	if err != nil {
		return nil, err
	}
	first := n.sheet.Rows - len(n.written) + 1
	grew := scripts.Check{Name: "row_count_grew", Passed: first >= 1,
		Detail: fmt.Sprintf("%d -> %d rows", first-1, n.sheet.Rows)}
	return []scripts.Check{grew, checkRowsStored(db, env.Account, n.sheet, first, n.written)}, nil
}

var _ scripts.Verifier = (*spreadsheet)(nil)
