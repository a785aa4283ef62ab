package nodes

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/store"
)

// sheetsRead reads a sheet's rows into a variable as a list of rows (each a list of texts).
// Its URL and Sheet_Name follow the variable-or-literal rule (spec 2.2 rule 3 leaves open which
// one is meant): a value naming a variable is that variable's value, anything else is literal.
type sheetsRead struct {
	urlRef, nameRef string
	out             string
	offset, limit   int
	sheet           store.Sheet
	rows            [][]string
}

func init() {
	scripts.Register(scripts.Spec{
		Kind:     "sheets_read",
		Summary:  "Read a sheet's rows into a variable (a list of rows, each a list of texts).",
		Category: "data",
		Timeout:  30 * time.Second,
		Params: []scripts.Param{
			{Name: "URL", Type: scripts.String, Required: true, Template: true,
				Description: "the sheet: a variable holding its URL, or the URL (or id) itself", Example: "sheet_url"},
			{Name: "Sheet_Name", Type: scripts.String, Template: true,
				Description: "the sheet's name, or a variable holding it; the URL decides the sheet, a different name is noted in the step detail", Example: "sheet_name"},
			{Name: "data", Type: scripts.String, Required: true,
				Description: "the variable that receives the rows (the header row is not included; it is in the step detail)", Example: "rows"},
			{Name: "offset", Type: scripts.Number, Default: 0, Min: scripts.F(0),
				Description: "rows to skip from the top", Example: 0},
			{Name: "limit", Type: scripts.Number, Default: store.DefaultReadLimit, Min: scripts.F(1), Max: scripts.F(store.MaxReadLimit),
				Description: "at most this many rows are read", Example: 100},
		},
		Examples: []map[string]any{{"type": "sheets_read", "URL": "sheet_url", "Sheet_Name": "sheet_name", "data": "rows"}},
		Build: func(p *scripts.Params) (scripts.Node, error) {
			texts, err := p.Texts("URL", "Sheet_Name", "data")
			if err != nil {
				return nil, err
			}
			urlRef, nameRef, out := texts[0], texts[1], texts[2]
			offset, err := p.Number("offset")
			if err != nil {
				return nil, err
			}
			limit, err := p.Number("limit")
			if err != nil {
				return nil, err
			}
			if out = strings.TrimSpace(out); out == "" {
				return nil, errInvalid("data must name the variable that receives the rows")
			}
			return &sheetsRead{urlRef: urlRef, nameRef: nameRef, out: out, offset: int(offset), limit: int(limit)}, nil
		},
	})
}

func (n *sheetsRead) Run(ctx context.Context, env *scripts.Env) error {
	sheet, db, err := resolveSheet(env, "URL", n.urlRef, n.nameRef)
	if err != nil {
		return err
	}
	if n.sheet, n.rows, err = db.ReadRows(env.Account, sheet.ID, n.offset, n.limit); err != nil {
		return err
	}
	env.Vars.Set(n.out, rowsValue(n.rows))
	env.SetDetail("rows_read", len(n.rows))
	env.SetDetail("rows_total", n.sheet.Rows)
	if len(n.sheet.Header) > 0 {
		env.SetDetail("header", n.sheet.Header)
	}
	return nil
}

func (n *sheetsRead) Verify(ctx context.Context, env *scripts.Env) ([]scripts.Check, error) {
	want := min(n.limit, max(n.sheet.Rows-n.offset, 0))
	read := scripts.Check{Name: "rows_read", Passed: len(n.rows) == want,
		Detail: fmt.Sprintf("read %d of the sheet's %d rows (offset %d, limit %d) into %s", len(n.rows), n.sheet.Rows, n.offset, n.limit, n.out)}
	return []scripts.Check{{Name: "sheet_exists", Passed: true, Detail: n.sheet.ID}, read}, nil
}

var _ scripts.Verifier = (*sheetsRead)(nil)
