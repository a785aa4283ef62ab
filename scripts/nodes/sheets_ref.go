package nodes

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/store"
)

// Helpers shared by the sheets_create, sheets_add_row, sheets_read and spreadsheet nodes.
//
// The variable-or-literal rule (spec 2.2 rule 3 leaves it open): a sheet parameter that names an
// existing variable means that variable's value; otherwise the parameter is taken literally. It
// lets `"URL": "sheet_url"` (the variable sheets_create wrote) and
// `"URL": "http://host/sheets/s_…"` both work, in every sheet node.

// sheetIDPattern is a sheet id as store.NewID("s") makes them.
var sheetIDPattern = regexp.MustCompile(`^s_[0-9A-HJKMNP-TV-Z]{26}$`)

// sheetURL is the link written into variables: <PublicURL>/sheets/<id>, or /sheets/<id>.
func sheetURL(env *scripts.Env, id string) string {
	return strings.TrimRight(env.Services().PublicURL, "/") + "/sheets/" + id
}

// parseSheetRef finds the sheet id in a sheet URL (any host: the server may be reached under
// several names; a .csv, .xlsx or .json suffix, a query or a fragment is ignored) or a bare id.
func parseSheetRef(ref string) (string, bool) {
	ref = strings.TrimSpace(ref)
	if i := strings.LastIndex(ref, "/sheets/"); i >= 0 {
		ref = ref[i+len("/sheets/"):]
		if j := strings.IndexAny(ref, "/?#"); j >= 0 {
			ref = ref[:j]
		}
		for _, ext := range []string{".csv", ".xlsx", ".json"} {
			ref = strings.TrimSuffix(ref, ext)
		}
	}
	return ref, sheetIDPattern.MatchString(ref)
}

// sheetsStore is the run's store, or an error saying why sheets are unavailable.
func sheetsStore(env *scripts.Env) (*store.DB, error) {
	db := env.Services().Store
	if db == nil {
		return nil, errs.E(errs.NodeFailed, "sheets need rodeo's data directory, which this run has not got (is a server holding it? run the agent through that server)")
	}
	if env.Account == "" {
		return nil, errs.E(errs.NodeFailed, "this run belongs to no account, and sheets belong to accounts")
	}
	return db, nil
}

// varOrLiteral applies the variable-or-literal rule to one text: {{placeholders}} expand to a
// literal; a text naming an existing variable is that variable's value; anything else is itself.
func varOrLiteral(env *scripts.Env, text string) (val any, fromVar bool, err error) {
	if strings.Contains(text, "{{") {
		s, err := env.Vars.Expand(text)
		return s, false, err
	}
	if strings.TrimSpace(text) != "" {
		if v, ok := env.Vars.Get(text); ok {
			return v, true, nil
		}
	}
	return text, false, nil
}

// resolveSheet finds the sheet a URL parameter (and optionally a sheet-name parameter) points
// at, for the run's account. param names the URL parameter in messages.
func resolveSheet(env *scripts.Env, param, ref, nameRef string) (store.Sheet, *store.DB, error) {
	db, err := sheetsStore(env)
	if err != nil {
		return store.Sheet{}, nil, err
	}
	val, fromVar, err := varOrLiteral(env, ref)
	if err != nil {
		return store.Sheet{}, nil, err
	}
	text := scripts.Text(val)
	id, ok := parseSheetRef(text)
	switch {
	case !ok && fromVar:
		return store.Sheet{}, nil, errs.E(errs.InvalidConfig, "%s: variable %s holds %q, which is not a sheet URL (…/sheets/s_…) or id",
			param, strings.TrimSpace(ref), truncateText(text, 80))
	case !ok:
		return store.Sheet{}, nil, errs.E(errs.VariableNotSet, "%s: %q is neither a variable nor a sheet URL (…/sheets/s_…); sheets_create writes the URL into the variable it names",
			param, truncateText(text, 80))
	}
	sheet, err := db.GetSheet(env.Account, id)
	if err != nil {
		if errs.Is(err, errs.NotFound) {
			return store.Sheet{}, nil, errs.E(errs.NotFound, "sheet %s not found (it may belong to another account)", id)
		}
		return store.Sheet{}, nil, err
	}
	detail := map[string]any{"id": sheet.ID, "name": sheet.Name, "url": sheetURL(env, sheet.ID)}
	if fromVar {
		detail["url_from"] = "variable " + strings.TrimSpace(ref)
	} else {
		detail["url_from"] = "literal"
	}
	if strings.TrimSpace(nameRef) != "" {
		nv, _, err := varOrLiteral(env, nameRef)
		if err != nil {
			return store.Sheet{}, nil, err
		}
		// A sheet is identified by its URL; a different name is reported, not fatal (the
		// studio's default tab names, such as "Sheet1", would otherwise fail every node).
		if name := strings.TrimSpace(scripts.Text(nv)); name != "" && name != sheet.Name {
			detail["name_note"] = fmt.Sprintf("the sheet is named %q, not %q; the URL decides which sheet is used", sheet.Name, name)
		}
	}
	env.SetDetail("sheet", detail)
	return sheet, db, nil
}

// rowCells turns entries of a row (sheets_add_row `data`, a spreadsheet row given as an array)
// into cells by the variable-or-literal rule. spread lets a single entry naming a variable that
// holds a list become the whole row.
func rowCells(env *scripts.Env, entries []string, spread bool) ([]string, error) {
	if spread && len(entries) == 1 {
		v, fromVar, err := varOrLiteral(env, entries[0])
		if err != nil {
			return nil, err
		}
		if list, ok := v.([]any); ok && fromVar {
			cells := make([]string, len(list))
			for i, x := range list {
				cells[i] = scripts.Text(x)
			}
			return cells, nil
		}
	}
	cells := make([]string, len(entries))
	for i, e := range entries {
		v, _, err := varOrLiteral(env, e)
		if err != nil {
			return nil, err
		}
		cells[i] = scripts.Text(v)
	}
	return cells, nil
}

// rowsValue is rows as a variable value (lists of lists, so "rows.0.1" reaches a cell).
func rowsValue(rows [][]string) []any {
	out := make([]any, len(rows))
	for i, r := range rows {
		cells := make([]any, len(r))
		for j, c := range r {
			cells[j] = c
		}
		out[i] = cells
	}
	return out
}

// checkRowsStored verifies that rows are stored as rows first…first+len(rows)-1 of the sheet.
func checkRowsStored(db *store.DB, account string, sheet store.Sheet, first int, rows [][]string) scripts.Check {
	_, got, err := db.ReadRows(account, sheet.ID, first-1, len(rows))
	if err != nil {
		return scripts.Check{Name: "rows_stored", Detail: err.Error()}
	}
	ok := len(got) == len(rows)
	for i := 0; ok && i < len(rows); i++ {
		ok = strings.Join(got[i], "\x00") == strings.Join(rows[i], "\x00") && len(got[i]) == len(rows[i])
	}
	last := first + len(rows) - 1
	span := fmt.Sprintf("row %d", first)
	if last != first {
		span = fmt.Sprintf("rows %d-%d", first, last)
	}
	if !ok {
		return scripts.Check{Name: "rows_stored", Detail: fmt.Sprintf("%s of sheet %s do not hold the appended values", span, sheet.ID)}
	}
	return scripts.Check{Name: "rows_stored", Passed: true, Detail: fmt.Sprintf("%s of sheet %s hold the appended values", span, sheet.ID)}
}

// defaultSheetName names a sheet after the run's goal and the date.
func defaultSheetName(goal string, now time.Time) string {
	goal = strings.Join(strings.Fields(goal), " ")
	if goal == "" {
		return "Sheet " + now.UTC().Format("2006-01-02 15:04:05")
	}
	return truncateText(goal, 80) + " " + now.UTC().Format("2006-01-02 15:04")
}
