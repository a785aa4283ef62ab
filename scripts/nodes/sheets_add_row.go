package nodes

import (
	"context"
	"fmt"
	"time"

	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/store"
)

// sheetsAddRow appends one row to a sheet. The append is one store transaction, so parallel
// runs appending to the same sheet never lose a row.
type sheetsAddRow struct {
	urlRef, nameRef string
	entries         []string
	sheet           store.Sheet // as it was right after the append
	cells           []string
}

func init() {
	scripts.Register(scripts.Spec{
		Kind:     "sheets_add_row",
		Summary:  "Append a row to a sheet; each value is a literal or the name of a variable.",
		Category: "data",
		Timeout:  30 * time.Second,
		Params: []scripts.Param{
			{Name: "URL", Type: scripts.String, Required: true, Template: true,
				Description: "the variable holding the sheet's URL (as sheets_create wrote it); a literal sheet URL or id works too", Example: "sheet_url"},
			{Name: "Sheet_Name", Type: scripts.String, Template: true,
				Description: "the variable holding the sheet's name (or the name itself); the URL decides the sheet, a different name is noted in the step detail", Example: "sheet_name"},
			{Name: "data", Type: scripts.Strings, Required: true,
				Description: "the row's values in column order; an entry naming a variable is that variable's value, anything else is literal; {{name}} expands; a single entry naming a list variable is the whole row",
				Example:     []string{"name", "price", "in stock"}},
		},
		Examples: []map[string]any{{"type": "sheets_add_row", "URL": "sheet_url", "Sheet_Name": "sheet_name", "data": []string{"title", "price"}}},
		Build: func(p *scripts.Params) (scripts.Node, error) {
			texts, err := p.Texts("URL", "Sheet_Name")
			if err != nil {
				return nil, err
			}
			urlRef, nameRef := texts[0], texts[1]
			entries, err := p.Strings("data")
			if err != nil {
				return nil, err
			}
			return &sheetsAddRow{urlRef: urlRef, nameRef: nameRef, entries: entries}, nil
		},
	})
}

func (n *sheetsAddRow) Run(ctx context.Context, env *scripts.Env) error {
	sheet, db, err := resolveSheet(env, "URL", n.urlRef, n.nameRef)
	if err != nil {
		return err
	}
	if n.cells, err = rowCells(env, n.entries, true); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if n.sheet, err = db.AppendRows(env.Account, sheet.ID, n.cells); err != nil {
		return err
	}
	env.SetDetail("row", n.sheet.Rows)
	env.SetDetail("values", n.cells)
	return nil
}

func (n *sheetsAddRow) Verify(ctx context.Context, env *scripts.Env) ([]scripts.Check, error) {
	db, err := sheetsStore(env)
	if err != nil {
		return nil, err
	}
	// The append and its row number come from one transaction: before it the sheet had
	// Rows-1 rows. Other runs may have appended since, so the count is not re-read here.
	grew := scripts.Check{Name: "row_count_grew", Passed: n.sheet.Rows >= 1,
		Detail: fmt.Sprintf("%d -> %d rows", n.sheet.Rows-1, n.sheet.Rows)}
	return []scripts.Check{grew, checkRowsStored(db, env.Account, n.sheet, n.sheet.Rows, [][]string{n.cells})}, nil
}

var _ scripts.Verifier = (*sheetsAddRow)(nil)
