package nodes_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/llm"
	"github.com/rodeo-run/rodeo/llm/llmtest"
	"github.com/rodeo-run/rodeo/scripts"
	"github.com/xuri/excelize/v2"
)

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func writeXLSX(t *testing.T, path string, sheets map[string][][]any) {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	// Sheets are created in name order: a map's order is random, and the workbook's sheet order
	// decides the default sheet and the order error messages list them in.
	names := make([]string, 0, len(sheets))
	for name := range sheets {
		names = append(names, name)
	}
	sort.Strings(names)
	first := true
	for _, name := range names {
		rows := sheets[name]
		if first {
			if err := f.SetSheetName("Sheet1", name); err != nil {
				t.Fatal(err)
			}
			first = false
		} else if _, err := f.NewSheet(name); err != nil {
			t.Fatal(err)
		}
		for i, row := range rows {
			cell, _ := excelize.CoordinatesToCellName(1, i+1)
			if err := f.SetSheetRow(name, cell, &row); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := f.SaveAs(path); err != nil {
		t.Fatal(err)
	}
}

func TestAddData_Formats(t *testing.T) {
	work := t.TempDir()
	svc := &scripts.Services{WorkDir: work, CodeNodes: true}
	dir := t.TempDir()
	csvPath := writeFile(t, dir, "people.csv", "\xef\xbb\xbfname,age,name\nAda,36,x\n\nGrace,45\nLin,1,y,extra\n")
	tsvPath := writeFile(t, dir, "t.tsv", "a\tb\n1\t2\n")
	jsonPath := writeFile(t, dir, "d.json", `{"items": [1, 2, 3], "ok": true}`)
	txtPath := writeFile(t, dir, "note.txt", "line one\nline two")
	xlsxPath := filepath.Join(dir, "book.xlsx")
	writeXLSX(t, xlsxPath, map[string][][]any{"People": {{"name", "score"}, {"Ada", 9}, {"Grace", 10}}})

	d := dataRun(t, svc, `[
		{"type": "add_data", "target": "people", "data": "`+csvPath+`"},
		{"type": "add_data", "target": "raw", "data": "`+csvPath+`", "raw": true},
		{"type": "add_data", "target": "tsv", "data": "`+tsvPath+`"},
		{"type": "add_data", "target": "doc", "data": "`+jsonPath+`"},
		{"type": "add_data", "target": "note", "data": "`+txtPath+`"},
		{"type": "add_data", "target": "book", "data": "`+xlsxPath+`"}]`, nil)
	if d.Status != scripts.StatusSucceeded {
		t.Fatal(dump(d))
	}
	want := []any{
		map[string]any{"name": "Ada", "age": "36", "column_3": "x", "column_4": ""},
		map[string]any{"name": "Grace", "age": "45", "column_3": "", "column_4": ""},
		map[string]any{"name": "Lin", "age": "1", "column_3": "y", "column_4": "extra"},
	}
	if !reflect.DeepEqual(d.Data["people"], want) {
		t.Fatalf("people %#v", d.Data["people"])
	}
	if raw := d.Data["raw"].([]any); len(raw) != 4 || !reflect.DeepEqual(raw[0], []any{"name", "age", "name"}) {
		t.Fatalf("raw %#v", d.Data["raw"])
	}
	if !reflect.DeepEqual(d.Data["tsv"], []any{map[string]any{"a": "1", "b": "2"}}) {
		t.Fatalf("tsv %#v", d.Data["tsv"])
	}
	if doc := obj(t, d.Data["doc"]); doc["ok"] != true || len(doc["items"].([]any)) != 3 {
		t.Fatalf("doc %#v", d.Data["doc"])
	}
	if d.Data["note"] != "line one\nline two" {
		t.Fatalf("note %#v", d.Data["note"])
	}
	wantBook := []any{map[string]any{"name": "Ada", "score": "9"}, map[string]any{"name": "Grace", "score": "10"}}
	if !reflect.DeepEqual(d.Data["book"], wantBook) {
		t.Fatalf("book %#v", d.Data["book"])
	}
	if !hasCheck(d.Steps[0], "data_stored") || d.Steps[0].Detail["file"].(map[string]any)["rows"] != 3 {
		t.Fatal(dump(d))
	}
	if d.Steps[5].Detail["file"].(map[string]any)["sheet"] != "People" {
		t.Fatal(dump(d))
	}
}

func TestAddData_RelativeAndSheet(t *testing.T) {
	work := t.TempDir()
	svc := &scripts.Services{WorkDir: work, CodeNodes: false}
	runID := "r_TestAddData_RelativeAndSheet"
	writeFile(t, filepath.Join(work, runID), "in/list.csv", "k\nv\n")
	xlsx := filepath.Join(work, runID, "two.xlsx")
	writeXLSX(t, xlsx, map[string][][]any{"A": {{"x"}, {"1"}}, "B": {{"y"}, {"2"}, {"3"}}})
	d := dataRun(t, svc, `[{"type": "add_data", "target": "l", "data": "in/list.csv"},
		{"type": "add_data", "target": "b", "data": "two.xlsx", "sheet": "B"},
		{"type": "add_data", "target": "c", "data": "two.xlsx", "sheet": "C"}]`, nil)
	if d.Steps[0].Status != scripts.StepOK || d.Steps[1].Status != scripts.StepOK || len(d.Data["b"].([]any)) != 2 {
		t.Fatal(dump(d))
	}
	if stepErr(d, 2) != errs.NotFound || !strings.Contains(d.Steps[2].Error.Message, "A, B") {
		t.Fatal(dump(d))
	}
}

func TestAddData_Errors(t *testing.T) {
	dir := t.TempDir()
	broken := writeFile(t, dir, "broken.xlsx", "PK\x03\x04 this is no zip")
	badJSON := writeFile(t, dir, "bad.json", `{"a": 1,`)
	badCSV := writeFile(t, dir, "bad.csv", "a,b\n\"unterminated,1\n")
	big := writeFile(t, dir, "big.txt", strings.Repeat("x", 2000))
	cases := []struct{ name, node, code, inMessage string }{
		{"missing", `{"type": "add_data", "target": "x", "data": "` + filepath.Join(dir, "nope.csv") + `"}`, errs.NotFound, "does not exist"},
		{"broken xlsx", `{"type": "add_data", "target": "x", "data": "` + broken + `"}`, "invalid_file", "XLSX"},
		{"bad json", `{"type": "add_data", "target": "x", "data": "` + badJSON + `"}`, "invalid_file", "JSON"},
		{"bad csv", `{"type": "add_data", "target": "x", "data": "` + badCSV + `"}`, "invalid_file", "CSV"},
		{"too large", `{"type": "add_data", "target": "x", "data": "` + big + `", "max_bytes": 1000}`, errs.TooLarge, "limit"},
		{"templated unknown extension", `{"type": "add_data", "target": "x", "data": "{{f}}"}`, errs.InvalidConfig, ".pdf"},
		{"folder", `{"type": "add_data", "target": "x", "data": "` + dir + `/sub.txt"}`, "invalid_file", "folder"},
	}
	if err := os.Mkdir(filepath.Join(dir, "sub.txt"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := dataRun(t, nil, "["+c.node+"]", map[string]any{"f": "/tmp/x.pdf"})
			if stepErr(d, 0) != c.code || !strings.Contains(d.Steps[0].Error.Message, c.inMessage) {
				t.Fatal(dump(d))
			}
		})
	}
	// a literal unknown extension is a configuration error before the run
	if p := compileErr(t, `[{"type": "add_data", "target": "x", "data": "report.pdf"}]`); !strings.Contains(p, ".pdf") || !strings.Contains(p, ".xlsx") {
		t.Fatalf("problems %s", p)
	}
}

func TestMath(t *testing.T) {
	cases := []struct {
		name, action string
		input        any
		value        string
		want         float64
		code         string
	}{
		{"add", "add", 2.0, `3`, 5, ""},
		{"subtract", "subtract", 2.0, `3.5`, -1.5, ""},
		{"multiply text input", "multiply", "4", `2.5`, 10, ""},
		{"divide", "divide", 9.0, `2`, 4.5, ""},
		{"value from variable", "multiply", 3.0, `"qty"`, 21, ""},
		{"value placeholder", "add", 3.0, `"{{qty}}"`, 10, ""},
		{"value numeric text", "subtract", 10.0, `"4"`, 6, ""},
		{"divide by zero variable", "divide", 1.0, `"zero"`, 0, "invalid_value"},
		{"input not a number", "add", "abc", `1`, 0, "invalid_value"},
		{"value variable not a number", "add", 1.0, `"word"`, 0, "invalid_value"},
		{"value not set", "add", 1.0, `"nothing"`, 0, errs.VariableNotSet},
		{"overflow", "multiply", 1e308, `10`, 0, "invalid_value"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := dataRun(t, nil, fmt.Sprintf(`[{"type": "math", "action": %q, "input": "n", "value": %s}]`, c.action, c.value),
				map[string]any{"n": c.input, "qty": 7.0, "zero": 0.0, "word": "many"})
			if stepErr(d, 0) != c.code {
				t.Fatal(dump(d))
			}
			if c.code == "" && (d.Data["n"] != c.want || !hasCheck(d.Steps[0], "result_stored")) {
				t.Fatalf("n = %#v, want %v\n%s", d.Data["n"], c.want, dump(d))
			}
			if c.code != "" && !reflect.DeepEqual(d.Data["n"], c.input) {
				t.Fatalf("a failed operation changed n to %#v", d.Data["n"])
			}
		})
	}
	d := dataRun(t, nil, `[{"type": "math", "action": "divide", "input": "n", "value": "zero"}]`, map[string]any{"n": 1.0, "zero": 0.0})
	if !strings.Contains(d.Steps[0].Error.Message, "division by zero") {
		t.Fatal(dump(d))
	}
	d = dataRun(t, nil, `[{"type": "math", "action": "add", "input": "missing", "value": 1}]`, nil)
	if stepErr(d, 0) != errs.VariableNotSet {
		t.Fatal(dump(d))
	}
	for _, bad := range []string{
		`[{"type": "math", "action": "divide", "input": "n", "value": 0}]`,
		`[{"type": "math", "action": "power", "input": "n", "value": 2}]`,
		`[{"type": "math", "action": "add", "input": "n", "value": {"a": 1}}]`,
		`[{"type": "math", "action": "add", "input": "n"}]`,
	} {
		if p := compileErr(t, bad); p == "" {
			t.Errorf("%s compiled", bad)
		}
	}
}

func TestIfElse_Operators(t *testing.T) {
	vars := map[string]any{"s": "order 42 paid", "n": 12.0, "ns": "7", "list": []any{"a", 3.0}, "o": map[string]any{"k": 1.0}}
	cases := []struct {
		variable, operator, condition string
		then                          bool
	}{
		{"s", "includes", `"paid"`, true},
		{"s", "includes", `"refund"`, false},
		{"list", "includes", `"a"`, true},
		{"list", "includes", `3`, true},
		{"list", "includes", `"b"`, false},
		{"o", "includes", `"k"`, true},
		{"o", "includes", `"z"`, false},
		{"s", "equals", `"order 42 paid"`, true},
		{"s", "equals", `"order 42"`, false},
		{"n", "equals", `12`, true},
		{"n", "equals", `"12.0"`, true},
		{"ns", "equals", `7`, true},
		{"n", "greater than", `10`, true},
		{"n", "greater than", `12`, false},
		{"ns", "greater than", `"6.5"`, true},
		{"n", "less than", `12.5`, true},
		{"n", "less than", `3`, false},
		{"s", "regex match", `"^order \\d+ (paid|open)$"`, true},
		{"s", "regex match", `"^paid"`, false},
		{"o.k", "equals", `1`, true},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s %s %s", c.variable, c.operator, c.condition), func(t *testing.T) {
			d := dataRun(t, nil, fmt.Sprintf(`[{"type": "if_else", "variables": %q, "operator": %q, "condition": %s,
				"then": [{"type": "print", "text": "yes"}], "else": [{"type": "print", "text": "no"}, {"type": "print", "text": "no2"}]}]`,
				c.variable, c.operator, c.condition), vars)
			if d.Status != scripts.StatusSucceeded {
				t.Fatal(dump(d))
			}
			last := d.Steps[len(d.Steps)-1]
			if last.Type != "if_else" {
				t.Fatalf("the if_else step comes after its children: %s", dump(d))
			}
			branch := "else"
			if c.then {
				branch = "then"
			}
			if last.Detail["branch"] != branch || !strings.Contains(fmt.Sprint(last.Detail["reason"]), fmt.Sprint(c.then)) {
				t.Fatalf("detail %v", last.Detail)
			}
			wantSteps := 3
			if c.then {
				wantSteps = 2
			}
			if len(d.Steps) != wantSteps || !strings.HasPrefix(d.Steps[0].Path, "0."+branch+".") {
				t.Fatal(dump(d))
			}
		})
	}
}

func TestIfElse_Errors(t *testing.T) {
	if p := compileErr(t, `[{"type": "if_else", "variables": "s", "operator": "regex match", "condition": "(unclosed"}]`); !strings.Contains(p, "condition") || !strings.Contains(p, "regular expression") {
		t.Fatalf("problems %s", p)
	}
	if p := compileErr(t, `[{"type": "if_else", "variables": "s", "operator": "greater than", "condition": "ten"}]`); !strings.Contains(p, "condition") {
		t.Fatalf("problems %s", p)
	}
	if p := compileErr(t, `[{"type": "if_else", "variables": "s", "operator": "similar", "condition": "x"}]`); !strings.Contains(p, "operator") {
		t.Fatalf("problems %s", p)
	}
	if p := compileErr(t, `[{"type": "if_else", "variables": "s", "condition": "x", "then": [{"type": "nope"}]}]`); !strings.Contains(p, "0.then.0") {
		t.Fatalf("problems %s", p)
	}
	cases := []struct{ name, node, code string }{
		{"templated bad regex", `{"type": "if_else", "variables": "s", "operator": "regex match", "condition": "{{re}}"}`, errs.InvalidConfig},
		{"variable not set", `{"type": "if_else", "variables": "missing", "condition": "x"}`, errs.VariableNotSet},
		{"not a number", `{"type": "if_else", "variables": "s", "operator": "less than", "condition": 3}`, "invalid_value"},
		{"child fails", `{"type": "if_else", "variables": "s", "condition": "a", "then": [{"type": "math", "action": "add", "input": "s", "value": 1}, {"type": "print", "text": "after"}]}`, "invalid_value"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := dataRun(t, nil, "["+c.node+`, {"type": "print", "text": "next"}]`, map[string]any{"s": "a", "re": "(x"})
			last := len(d.Steps) - 1
			if d.Status != scripts.StatusFailed || d.Steps[last].Status != scripts.StepSkipped || stepErr(d, last-1) != c.code {
				t.Fatal(dump(d))
			}
		})
	}
	// a child with continue_on_error does not stop the branch
	d := dataRun(t, nil, `[{"type": "if_else", "variables": "s", "condition": "a", "then": [
		{"type": "math", "action": "add", "input": "s", "value": 1, "continue_on_error": true}, {"type": "print", "text": "after"}]}]`, map[string]any{"s": "a"})
	if d.Status != scripts.StatusSucceeded || len(d.Steps) != 3 || d.Steps[0].Status != scripts.StepFailed || d.Steps[1].Status != scripts.StepOK {
		t.Fatal(dump(d))
	}
}

func TestLoop_TotalRuns(t *testing.T) {
	d := dataRun(t, nil, `[{"type": "loop", "loop_total_runs": 4, "do": [{"type": "math", "action": "add", "input": "sum", "value": "loop_index"}]}]`,
		map[string]any{"sum": 0.0})
	if d.Status != scripts.StatusSucceeded || d.Data["sum"] != 6.0 || len(d.Steps) != 5 {
		t.Fatal(dump(d))
	}
	loop := d.Steps[4]
	if loop.Detail["iterations"] != 4 || !hasCheck(loop, "iterations_completed") {
		t.Fatal(dump(d))
	}
	d = dataRun(t, nil, `[{"type": "loop", "loop_total_runs": 0, "do": [{"type": "print", "text": "x"}]}]`, nil)
	if d.Status != scripts.StatusSucceeded || len(d.Steps) != 1 {
		t.Fatal(dump(d))
	}
	d = dataRun(t, nil, `[{"type": "loop", "loop_total_runs": "{{n}}", "do": [{"type": "print", "text": "x"}]}]`, map[string]any{"n": "3"})
	if d.Status != scripts.StatusSucceeded || len(d.Steps) != 4 {
		t.Fatal(dump(d))
	}
}

func TestLoop_NodeRuns(t *testing.T) {
	// "fetch" runs three times in the first loop; the second loop repeats as often.
	d := dataRun(t, nil, `[
		{"type": "loop", "loop_total_runs": 3, "do": [{"type": "print", "id": "fetch", "text": "fetch {{loop_index}}"}]},
		{"type": "loop", "loop_node_runs": "fetch", "loop_index": "i", "do": [{"type": "math", "action": "add", "input": "count", "value": 1}]},
		{"type": "loop", "loop_node_runs": "0", "do": [{"type": "math", "action": "add", "input": "count", "value": 100}]},
		{"type": "loop", "loop_node_runs": "never", "do": [{"type": "math", "action": "add", "input": "count", "value": 1000}]}]`,
		map[string]any{"count": 0.0})
	if d.Status != scripts.StatusSucceeded || d.Data["count"] != 103.0 || d.Data["i"] != 2.0 {
		t.Fatal(dump(d))
	}
}

func TestLoop_Nested(t *testing.T) {
	d := dataRun(t, nil, `[{"type": "loop", "loop_total_runs": 3, "loop_index": "i", "do": [
		{"type": "loop", "loop_total_runs": 4, "loop_index": "j", "do": [{"type": "math", "action": "add", "input": "cells", "value": 1}]},
		{"type": "math", "action": "add", "input": "rows", "value": 1}]}]`, map[string]any{"cells": 0.0, "rows": 0.0})
	if d.Status != scripts.StatusSucceeded || d.Data["cells"] != 12.0 || d.Data["rows"] != 3.0 || d.Data["i"] != 2.0 || d.Data["j"] != 3.0 {
		t.Fatal(dump(d))
	}
	paths := map[string]bool{}
	for _, s := range d.Steps {
		paths[s.Path] = true
	}
	if !paths["0.do.0.do.0"] || !paths["0.do.1"] {
		t.Fatalf("paths %v", paths)
	}
}

func TestLoop_BoundsAndErrors(t *testing.T) {
	for _, bad := range []string{
		`[{"type": "loop", "loop_total_runs": 10001, "do": []}]`,
		`[{"type": "loop", "loop_total_runs": 2.5, "do": []}]`,
		`[{"type": "loop", "loop_total_runs": -1, "do": []}]`,
		`[{"type": "loop", "do": [{"type": "print", "text": "x"}]}]`,
		`[{"type": "loop", "loop_total_runs": 2, "loop_node_runs": "a", "do": []}]`,
		`[{"type": "loop", "loop_total_runs": 2}]`,
	} {
		if p := compileErr(t, bad); p == "" {
			t.Errorf("%s compiled", bad)
		}
	}
	d := dataRun(t, nil, `[{"type": "loop", "loop_total_runs": "{{n}}", "do": [{"type": "print", "text": "x"}]}]`, map[string]any{"n": "20000"})
	if stepErr(d, 0) != errs.InvalidConfig || !strings.Contains(d.Steps[0].Error.Message, "10000") {
		t.Fatal(dump(d))
	}
	// a failing child stops the loop at that iteration
	d = dataRun(t, nil, `[{"type": "loop", "loop_total_runs": 5, "do": [
		{"type": "if_else", "variables": "loop_index", "operator": "equals", "condition": 2, "then": [{"type": "math", "action": "divide", "input": "x", "value": "zero"}]}]}]`,
		map[string]any{"x": 1.0, "zero": 0.0})
	last := d.Steps[len(d.Steps)-1]
	if d.Status != scripts.StatusFailed || last.Type != "loop" || last.Detail["failed_iteration"] != 2 || last.Detail["iterations"] != 2 || last.Error.Code != "invalid_value" {
		t.Fatal(dump(d))
	}
	// with continue_on_error on the child, every iteration runs
	d = dataRun(t, nil, `[{"type": "loop", "loop_total_runs": 3, "do": [
		{"type": "math", "action": "divide", "input": "x", "value": "zero", "continue_on_error": true},
		{"type": "math", "action": "add", "input": "y", "value": 1}]}]`, map[string]any{"x": 1.0, "zero": 0.0, "y": 0.0})
	if d.Status != scripts.StatusSucceeded || d.Data["y"] != 3.0 {
		t.Fatal(dump(d))
	}
}

func llmServices(t *testing.T, script llmtest.Script) (*scripts.Services, *llmtest.Server) {
	srv := llmtest.New(t, script)
	return &scripts.Services{LLM: llm.New(srv.Config()), WorkDir: t.TempDir()}, srv
}

func TestLLM4_Answer(t *testing.T) {
	svc, srv := llmServices(t, func(n int, req llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Content: "  A short summary.  ", PromptTokens: 31, CompletionTokens: 5}
	})
	d := dataRun(t, svc, `[{"type": "llm4", "prompt": "Summarize for {{who}}.", "input": ["review", "{{meta}}"], "data": "summary"}]`,
		map[string]any{"who": "a buyer", "review": "Great\nproduct", "meta": map[string]any{"stars": 5.0}})
	if d.Status != scripts.StatusSucceeded || d.Data["summary"] != "A short summary." || !hasCheck(d.Steps[0], "answer_stored") {
		t.Fatal(dump(d))
	}
	calls := srv.Calls()
	if len(calls) != 1 || len(calls[0].Messages) != 2 {
		t.Fatalf("calls %+v", calls)
	}
	if m := calls[0].Messages[0]; m.Role != "system" || m.Content != "Summarize for a buyer." {
		t.Fatalf("system %+v", m)
	}
	if m := calls[0].Messages[1]; m.Role != "user" || m.Content != "review:\nGreat\nproduct\n\nmeta: {\"stars\":5}" {
		t.Fatalf("user %q", m.Content)
	}
	det := d.Steps[0].Detail
	if det["model"] != "test-model" || det["llm_attempts"] != 1 || !reflect.DeepEqual(det["tokens"], map[string]int{"prompt": 31, "completion": 5}) {
		t.Fatalf("detail %v", det)
	}
}

func TestLLM4_RetriesAndJSON(t *testing.T) {
	svc, srv := llmServices(t, func(n int, req llmtest.Request) llmtest.Reply {
		if n == 0 {
			return llmtest.Reply{Status: 429, Body: `{"error": {"message": "slow down", "type": "rate_limit"}}`}
		}
		return llmtest.Reply{Content: "```json\n{\"sentiment\": \"positive\", \"score\": 0.9}\n```"}
	})
	d := dataRun(t, svc, `[{"type": "llm4", "prompt": "Classify.", "input": "review", "data": "c", "json": true}]`, map[string]any{"review": "ok"})
	if d.Status != scripts.StatusSucceeded || obj(t, d.Data["c"])["sentiment"] != "positive" || d.Steps[0].Detail["llm_attempts"] != 2 {
		t.Fatal(dump(d))
	}
	if calls := srv.Calls(); len(calls) != 2 || calls[1].ResponseFormat == nil || calls[1].ResponseFormat.Type != "json_object" {
		t.Fatalf("calls %+v", calls)
	}
}

func TestLLM4_Failures(t *testing.T) {
	t.Run("not configured", func(t *testing.T) {
		d := dataRun(t, &scripts.Services{}, `[{"type": "llm4", "prompt": "x", "data": "y"}]`, nil)
		if stepErr(d, 0) != errs.LLMNotConfigured || !strings.Contains(d.Steps[0].Error.Message, "OPENAI_API_KEY") {
			t.Fatal(dump(d))
		}
	})
	t.Run("malformed answer", func(t *testing.T) {
		svc, _ := llmServices(t, func(n int, req llmtest.Request) llmtest.Reply { return llmtest.Reply{Body: `{"choices": [ nope`} })
		d := dataRun(t, svc, `[{"type": "llm4", "prompt": "x", "data": "y"}]`, nil)
		if stepErr(d, 0) != llm.CodeFailed {
			t.Fatal(dump(d))
		}
	})
	t.Run("not JSON when asked", func(t *testing.T) {
		svc, _ := llmServices(t, func(n int, req llmtest.Request) llmtest.Reply { return llmtest.Reply{Content: "sure! here it is"} })
		d := dataRun(t, svc, `[{"type": "llm4", "prompt": "x", "data": "y", "json": true}]`, nil)
		if stepErr(d, 0) != llm.CodeFailed || !strings.Contains(d.Steps[0].Error.Message, "JSON") {
			t.Fatal(dump(d))
		}
	})
	t.Run("empty answer asked again", func(t *testing.T) {
		svc, srv := llmServices(t, func(n int, req llmtest.Request) llmtest.Reply { return llmtest.Reply{Content: " "} })
		d := dataRun(t, svc, `[{"type": "llm4", "prompt": "x", "data": "y"}]`, nil)
		if stepErr(d, 0) != errs.VerificationFailed || d.Steps[0].Verification.Attempts != 2 || len(srv.Calls()) != 2 {
			t.Fatal(dump(d))
		}
		if _, set := d.Data["y"]; set {
			t.Fatal("an empty answer must not be stored")
		}
	})
	t.Run("input not set", func(t *testing.T) {
		svc, srv := llmServices(t, func(n int, req llmtest.Request) llmtest.Reply { return llmtest.Reply{Content: "x"} })
		d := dataRun(t, svc, `[{"type": "llm4", "prompt": "x", "input": ["nope"], "data": "y"}]`, nil)
		if stepErr(d, 0) != errs.VariableNotSet || len(srv.Calls()) != 0 {
			t.Fatal(dump(d))
		}
	})
	t.Run("no input sends the prompt as the user message", func(t *testing.T) {
		svc, srv := llmServices(t, func(n int, req llmtest.Request) llmtest.Reply { return llmtest.Reply{Content: "hi"} })
		d := dataRun(t, svc, `[{"type": "llm4", "prompt": "Say hi", "data": "y"}]`, nil)
		calls := srv.Calls()
		if d.Status != scripts.StatusSucceeded || len(calls) != 1 || len(calls[0].Messages) != 1 || calls[0].Messages[0].Content != "Say hi" {
			t.Fatalf("%+v\n%s", calls, dump(d))
		}
	})
}
