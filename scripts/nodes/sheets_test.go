package nodes_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/store"
)

// serviceRig runs agents of non-browser nodes with real services: a store on a temp dir, an
// optional mailer, a working folder. No browser is configured, so a browser node would fail.
type serviceRig struct {
	db     *store.DB
	svc    *scripts.Services
	runner *scripts.Runner
}

func newServiceRig(t *testing.T, mailer scripts.Mailer, publicURL string) *serviceRig {
	t.Helper()
	db, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	svc := &scripts.Services{Store: db, PublicURL: publicURL, WorkDir: t.TempDir(), CodeNodes: false}
	if mailer != nil {
		svc.Mailer = mailer
	}
	return &serviceRig{db: db, svc: svc, runner: &scripts.Runner{Registry: scripts.DefaultRegistry, Services: svc,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}}
}

// exec runs nodes (a JSON array) as account with the initial data; it is safe from goroutines.
func (r *serviceRig) exec(account, runID, nodes string, data map[string]any) (scripts.Doc, error) {
	var raw []json.RawMessage
	if err := json.Unmarshal([]byte(nodes), &raw); err != nil {
		return scripts.Doc{}, fmt.Errorf("test JSON: %w", err)
	}
	s, err := scripts.DefaultRegistry.Compile("collect prices", raw, data)
	if err != nil {
		return scripts.Doc{}, fmt.Errorf("compile: %w", err)
	}
	if runID == "" {
		runID = store.NewID("r")
	}
	run := scripts.NewRun(runID, account, "test", s)
	r.runner.Execute(context.Background(), run, scripts.ExecOptions{Timeout: 30 * time.Second})
	return run.Doc(), nil
}

func (r *serviceRig) run(t *testing.T, account, nodes string, data map[string]any) scripts.Doc {
	t.Helper()
	d, err := r.exec(account, "", nodes, data)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func passedChecks(s scripts.Step) string {
	if s.Verification == nil {
		return ""
	}
	var names []string
	for _, c := range s.Verification.Checks {
		if c.Passed {
			names = append(names, c.Name)
		}
	}
	return strings.Join(names, ",")
}

func TestSheets_CreateAddRead(t *testing.T) {
	rig := newServiceRig(t, nil, "http://rodeo.test:8080/")
	d := rig.run(t, "acme", `[
		{"type": "sheets_create", "URL": "url", "Sheet_Name": "name", "name": "Prices", "header": ["item", "price"]},
		{"type": "sheets_add_row", "URL": "url", "Sheet_Name": "name", "data": ["item", "price"]},
		{"type": "sheets_add_row", "URL": "url", "data": ["literal text", "{{price}} EUR", 7]},
		{"type": "sheets_add_row", "URL": "url", "data": ["row"]},
		{"type": "sheets_read", "URL": "url", "Sheet_Name": "name", "data": "rows"}]`,
		map[string]any{"item": "tea", "price": 3.5, "row": []any{"a", "b", "c"}})
	if d.Status != scripts.StatusSucceeded {
		t.Fatal(dump(d))
	}
	url, _ := d.Data["url"].(string)
	if !strings.HasPrefix(url, "http://rodeo.test:8080/sheets/s_") || d.Data["name"] != "Prices" {
		t.Fatalf("variables %v", d.Data)
	}
	if passedChecks(d.Steps[0]) != "sheet_exists,url_variable_set" || passedChecks(d.Steps[1]) != "row_count_grew,rows_stored" {
		t.Fatal(dump(d))
	}
	rows, _ := json.Marshal(d.Data["rows"])
	if string(rows) != `[["tea","3.5"],["literal text","3.5 EUR","7"],["a","b","c"]]` {
		t.Fatalf("rows %s", rows)
	}
	if d.Steps[4].Detail["header"] == nil || passedChecks(d.Steps[4]) != "sheet_exists,rows_read" {
		t.Fatal(dump(d))
	}
	id := url[strings.LastIndex(url, "/")+1:]
	sheet, err := rig.db.GetSheet("acme", id)
	if err != nil || sheet.Rows != 3 || sheet.Name != "Prices" {
		t.Fatalf("stored %+v %v", sheet, err)
	}
}

func TestSheets_CreateDefaultNameAndRelativeURL(t *testing.T) {
	rig := newServiceRig(t, nil, "")
	d := rig.run(t, "acme", `[{"type": "sheets_create", "URL": "u", "Sheet_Name": "n"}]`, nil)
	if d.Status != scripts.StatusSucceeded {
		t.Fatal(dump(d))
	}
	u, _ := d.Data["u"].(string)
	n, _ := d.Data["n"].(string)
	if !strings.HasPrefix(u, "/sheets/s_") || !strings.HasPrefix(n, "collect prices "+time.Now().UTC().Format("2006-01-02")) {
		t.Fatalf("variables %v", d.Data)
	}
}

// Twenty runs appending to one sheet at the same time lose no row.
func TestSheets_TwentyParallelRuns(t *testing.T) {
	rig := newServiceRig(t, nil, "http://rodeo.test")
	d := rig.run(t, "acme", `[{"type": "sheets_create", "URL": "url", "Sheet_Name": "name"}]`, nil)
	if d.Status != scripts.StatusSucceeded {
		t.Fatal(dump(d))
	}
	url, name := d.Data["url"], d.Data["name"]
	const n = 20
	var wg sync.WaitGroup
	docs := make([]scripts.Doc, n)
	errsOf := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			docs[i], errsOf[i] = rig.exec("acme", "", `[{"type": "sheets_add_row", "URL": "url", "Sheet_Name": "name", "data": ["worker", "i", "fixed"]}]`,
				map[string]any{"url": url, "name": name, "worker": fmt.Sprint("w", i), "i": i})
		}()
	}
	wg.Wait()
	for i := range n {
		if errsOf[i] != nil || docs[i].Status != scripts.StatusSucceeded {
			t.Fatalf("run %d: %v %s", i, errsOf[i], dump(docs[i]))
		}
	}
	// Read back through the node, once by variable and once by literal URL.
	for _, ref := range []string{`"url"`, fmt.Sprintf("%q", url)} {
		d := rig.run(t, "acme", `[{"type": "sheets_read", "URL": `+ref+`, "Sheet_Name": "name", "data": "rows"}]`,
			map[string]any{"url": url, "name": name})
		rows, ok := d.Data["rows"].([]any)
		if d.Status != scripts.StatusSucceeded || !ok || len(rows) != n {
			t.Fatalf("read with %s: %s", ref, dump(d))
		}
		var got []string
		for _, r := range rows {
			cells := r.([]any)
			if len(cells) != 3 || cells[2] != "fixed" || cells[0] != "w"+fmt.Sprint(cells[1]) {
				t.Fatalf("row %v", cells)
			}
			got = append(got, cells[0].(string))
		}
		sort.Strings(got)
		for i := 1; i < len(got); i++ {
			if got[i] == got[i-1] {
				t.Fatalf("row %s appears twice: %v", got[i], got)
			}
		}
		if from := d.Steps[0].Detail["sheet"].(map[string]any)["url_from"]; ref == `"url"` && from != "variable url" || ref != `"url"` && from != "literal" {
			t.Fatalf("url_from %v for %s", from, ref)
		}
	}
}

func TestSheets_OtherAccountsSheetIsNotFound(t *testing.T) {
	rig := newServiceRig(t, nil, "")
	d := rig.run(t, "acme", `[{"type": "sheets_create", "URL": "url"}]`, nil)
	url := d.Data["url"]
	for _, nodes := range []string{
		`[{"type": "sheets_add_row", "URL": "url", "data": ["x"]}]`,
		`[{"type": "sheets_read", "URL": "url", "data": "rows"}]`,
		`[{"type": "spreadsheet", "url": "url", "read_write": "read", "data": "rows"}]`,
	} {
		d := rig.run(t, "mallory", nodes, map[string]any{"url": url})
		if d.Status != scripts.StatusFailed || stepErr(d, 0) != errs.NotFound || d.Data["rows"] != nil {
			t.Fatalf("%s: %s", nodes, dump(d))
		}
	}
	id := url.(string)[len("/sheets/"):]
	if s, _ := rig.db.GetSheet("acme", id); s.Rows != 0 {
		t.Fatalf("another account appended: %+v", s)
	}
}

func TestSheets_BadReferences(t *testing.T) {
	rig := newServiceRig(t, nil, "")
	cases := []struct{ nodes, code string }{
		// Neither a variable nor a sheet URL.
		{`[{"type": "sheets_read", "URL": "nothing_here", "data": "rows"}]`, errs.VariableNotSet},
		// A variable that holds something else than a sheet URL.
		{`[{"type": "sheets_read", "URL": "greeting", "data": "rows"}]`, errs.InvalidConfig},
		// A well-formed id of no sheet.
		{`[{"type": "sheets_add_row", "URL": "http://x/sheets/s_00000000000000000000000000", "data": ["a"]}]`, errs.NotFound},
		{`[{"type": "sheets_read", "URL": "{{missing}}", "data": "rows"}]`, errs.VariableNotSet},
	}
	for _, c := range cases {
		d := rig.run(t, "acme", c.nodes, map[string]any{"greeting": "hello"})
		if stepErr(d, 0) != c.code {
			t.Errorf("%s: want %s\n%s", c.nodes, c.code, dump(d))
		}
	}
}

func TestSheets_NameMismatchIsNotedNotFatal(t *testing.T) {
	rig := newServiceRig(t, nil, "")
	d := rig.run(t, "acme", `[{"type": "sheets_create", "URL": "url", "name": "Real"},
		{"type": "sheets_add_row", "URL": "url", "Sheet_Name": "Sheet1", "data": ["a"]}]`, nil)
	if d.Status != scripts.StatusSucceeded {
		t.Fatal(dump(d))
	}
	if note, _ := d.Steps[1].Detail["sheet"].(map[string]any)["name_note"].(string); !strings.Contains(note, `"Sheet1"`) {
		t.Fatal(dump(d))
	}
}

func TestSheets_ReadLimits(t *testing.T) {
	rig := newServiceRig(t, nil, "")
	d := rig.run(t, "acme", `[{"type": "sheets_create", "URL": "url"},
		{"type": "spreadsheet", "url": "url", "read_write": "write", "row_1": ["1"], "row_2": ["2"], "row_3": ["3"], "row_4": ["4"], "row_5": ["5"]},
		{"type": "sheets_read", "URL": "url", "data": "page", "offset": 1, "limit": 2}]`, nil)
	if d.Status != scripts.StatusSucceeded {
		t.Fatal(dump(d))
	}
	if b, _ := json.Marshal(d.Data["page"]); string(b) != `[["2"],["3"]]` {
		t.Fatalf("page %s", b)
	}
	if _, err := rig.exec("acme", "", `[{"type": "sheets_read", "URL": "url", "data": "rows", "limit": 20000}]`, nil); err == nil ||
		!strings.Contains(err.Error(), "limit must be at most 10000") {
		t.Fatalf("limit above the maximum: %v", err)
	}
}

func TestSpreadsheet_WriteThenRead(t *testing.T) {
	rig := newServiceRig(t, nil, "")
	d := rig.run(t, "acme", `[{"type": "sheets_create", "URL": "url", "Sheet_Name": "name"},
		{"type": "spreadsheet", "url": "url", "sheet_name": "name", "read_write": "write",
		 "row_1": "first", "row_2": ["who", "literal", "{{n}}"], "row_4": "plain text"},
		{"type": "spreadsheet", "url": "{{url}}", "read_write": "read", "row_1": "3", "row_2": "1-2", "data": "picked"},
		{"type": "spreadsheet", "url": "url", "read_write": "Read", "data": "all"}]`,
		map[string]any{"first": []any{"a", "b"}, "who": "Ada", "n": 42})
	if d.Status != scripts.StatusSucceeded {
		t.Fatal(dump(d))
	}
	if passedChecks(d.Steps[1]) != "row_count_grew,rows_stored" || d.Steps[1].Detail["rows_written"] != 3 {
		t.Fatal(dump(d))
	}
	if b, _ := json.Marshal(d.Data["picked"]); string(b) != `[["plain text"],["a","b"],["Ada","literal","42"]]` {
		t.Fatalf("picked %s", b)
	}
	if b, _ := json.Marshal(d.Data["all"]); string(b) != `[["a","b"],["Ada","literal","42"],["plain text"]]` {
		t.Fatalf("all %s", b)
	}
	// A row past the end fails the verification, and says which.
	d = rig.run(t, "acme", `[{"type": "spreadsheet", "url": "url", "read_write": "read", "row_1": 2, "row_2": "9", "data": "x"}]`,
		map[string]any{"url": d.Data["url"]})
	if stepErr(d, 0) != errs.VerificationFailed || !strings.Contains(dump(d), "the sheet has no row 9") {
		t.Fatal(dump(d))
	}
}

func TestSpreadsheet_BadConfig(t *testing.T) {
	rig := newServiceRig(t, nil, "")
	cases := []string{
		`[{"type": "spreadsheet", "url": "u", "read_write": "read", "row_1": "two", "data": "x"}]`,
		`[{"type": "spreadsheet", "url": "u", "read_write": "read", "row_1": "5-2", "data": "x"}]`,
	}
	d := rig.run(t, "acme", `[{"type": "sheets_create", "URL": "u"}]`, nil)
	for _, nodes := range cases {
		d := rig.run(t, "acme", nodes, map[string]any{"u": d.Data["u"]})
		if stepErr(d, 0) != errs.InvalidConfig {
			t.Errorf("%s: %s", nodes, dump(d))
		}
	}
	// Compile-time checks: an unknown mode and a missing URL are 400-style problems.
	for _, nodes := range []string{`[{"type": "spreadsheet", "url": "u", "read_write": "append"}]`, `[{"type": "sheets_add_row", "data": ["a"]}]`,
		`[{"type": "spreadsheet", "url": "u", "read_write": "write"}]`, `[{"type": "spreadsheet", "url": "u", "read_write": "read"}]`} {
		if _, err := rig.exec("acme", "", nodes, nil); err == nil || !strings.Contains(err.Error(), "compile") {
			t.Errorf("%s compiled: %v", nodes, err)
		}
	}
}

func TestSheets_NoStore(t *testing.T) {
	runner := &scripts.Runner{Registry: scripts.DefaultRegistry, Services: &scripts.Services{}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	var raw []json.RawMessage
	_ = json.Unmarshal([]byte(`[{"type": "sheets_create", "URL": "u"}]`), &raw)
	s, err := scripts.DefaultRegistry.Compile("g", raw, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := scripts.NewRun("r_nostore", "acme", "test", s)
	runner.Execute(context.Background(), r, scripts.ExecOptions{Timeout: 10 * time.Second})
	d := r.Doc()
	if stepErr(d, 0) != errs.NodeFailed || !strings.Contains(d.Steps[0].Error.Message, "data directory") {
		t.Fatal(dump(d))
	}
}
