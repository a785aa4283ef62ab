package nodes

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/store"
)

// sheetsCreate creates a sheet of the run's account in rodeo's embedded sheet store and writes
// its URL and name into the variables its URL and Sheet_Name parameters name.
type sheetsCreate struct {
	urlVar, nameVar string
	name            string
	header          []string
	sheet           store.Sheet
}

func init() {
	scripts.Register(scripts.Spec{
		Kind:     "sheets_create",
		Summary:  "Create a sheet (rodeo's embedded spreadsheet) and store its URL and name in variables.",
		Category: "data",
		Timeout:  30 * time.Second,
		Params: []scripts.Param{
			{Name: "URL", Type: scripts.String, Required: true,
				Description: "name of the variable that receives the new sheet's URL (<public URL>/sheets/<id>)", Example: "sheet_url"},
			{Name: "Sheet_Name", Type: scripts.String,
				Description: "name of the variable that receives the sheet's name", Example: "sheet_name"},
			{Name: "name", Type: scripts.String, Template: true,
				Description: "the sheet's title; default: the goal and the date", Example: "Leads {{day}}"},
			{Name: "header", Type: scripts.Strings, Template: true,
				Description: "an optional header row (column titles), shown first in the CSV and XLSX exports", Example: []string{"name", "email"}},
		},
		Examples: []map[string]any{{"type": "sheets_create", "URL": "sheet_url", "Sheet_Name": "sheet_name"}},
		Build: func(p *scripts.Params) (scripts.Node, error) {
			texts, err := p.Texts("URL", "Sheet_Name", "name")
			if err != nil {
				return nil, err
			}
			urlVar, nameVar, name := texts[0], texts[1], texts[2]
			header, err := p.Strings("header")
			if err != nil {
				return nil, err
			}
			urlVar, nameVar = strings.TrimSpace(urlVar), strings.TrimSpace(nameVar)
			if urlVar == "" {
				return nil, errInvalid("URL must name the variable that receives the sheet's URL")
			}
			return &sheetsCreate{urlVar: urlVar, nameVar: nameVar, name: name, header: header}, nil
		},
	})
}

func (n *sheetsCreate) Run(ctx context.Context, env *scripts.Env) error {
	db, err := sheetsStore(env)
	if err != nil {
		return err
	}
	name := strings.TrimSpace(n.name)
	if name == "" {
		name = defaultSheetName(env.Goal, time.Now())
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	n.sheet, err = db.CreateSheet(env.Account, name, n.header)
	if err != nil {
		return err
	}
	url := sheetURL(env, n.sheet.ID)
	env.Vars.Set(n.urlVar, url)
	if n.nameVar != "" {
		env.Vars.Set(n.nameVar, n.sheet.Name)
	}
	env.SetDetail("sheet", map[string]any{"id": n.sheet.ID, "name": n.sheet.Name, "url": url})
	return nil
}

func (n *sheetsCreate) Verify(ctx context.Context, env *scripts.Env) ([]scripts.Check, error) {
	db, err := sheetsStore(env)
	if err != nil {
		return nil, err
	}
	s, err := db.GetSheet(env.Account, n.sheet.ID)
	exists := scripts.Check{Name: "sheet_exists", Passed: err == nil && s.Name == n.sheet.Name}
	if exists.Passed {
		exists.Detail = fmt.Sprintf("sheet %s %q is stored", s.ID, s.Name)
	} else if err != nil {
		exists.Detail = err.Error()
	}
	v, _ := env.Vars.Get(n.urlVar)
	set := scripts.Check{Name: "url_variable_set", Passed: v == sheetURL(env, n.sheet.ID),
		Detail: fmt.Sprintf("%s = %s", n.urlVar, scripts.Text(v))}
	return []scripts.Check{exists, set}, nil
}

var _ scripts.Verifier = (*sheetsCreate)(nil)
