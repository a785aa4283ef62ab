package server_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/server"
	"github.com/rodeo-run/rodeo/store"
)

// sheetServer is a server on a real socket with a store, an engine whose runner has the store
// as a service, and keys of the accounts "default" and "other".
type sheetServer struct {
	base          string
	db            *store.DB
	key, otherKey string
}

func newSheetServer(t *testing.T) *sheetServer {
	t.Helper()
	db, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	key, _, err := db.CreateKey(store.DefaultAccount)
	if err != nil {
		t.Fatal(err)
	}
	otherKey, _, err := db.CreateKey("other")
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc := &scripts.Services{Store: db, PublicURL: base, WorkDir: t.TempDir()}
	engine := scripts.NewEngine(&scripts.Runner{Registry: scripts.DefaultRegistry, Logger: log, Services: svc}, db, log)
	srv := server.New(server.Config{Engine: engine, Registry: scripts.DefaultRegistry, Store: db, Logger: log, Services: svc, Version: "test"})
	done := make(chan struct{})
	go func() { defer close(done); _ = srv.App().Listener(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = engine.Shutdown(ctx)
		_ = srv.Shutdown(ctx)
		<-done
		_ = db.Close()
	})
	return &sheetServer{base: base, db: db, key: key, otherKey: otherKey}
}

func (s *sheetServer) get(t *testing.T, path, key string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, s.base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

func errorCode(body []byte) string {
	var e struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	_ = json.Unmarshal(body, &e)
	return e.Error.Code
}

// tricky rows: separators, quotes, line breaks, non-ASCII, a formula-looking text, empty cells.
var trickyRows = [][]string{
	{"tea, green", `say "hi"`, "line1\nline2"},
	{"Grüße ✓", "=1+1", ""},
	{"only one"},
}

func TestSheetsHTTP_Exports(t *testing.T) {
	s := newSheetServer(t)
	sheet, err := s.db.CreateSheet(store.DefaultAccount, "Prices: Q1/Q2", []string{"item", "note", "more"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.AppendRows(store.DefaultAccount, sheet.ID, trickyRows...); err != nil {
		t.Fatal(err)
	}

	resp, body := s.get(t, "/sheets", s.key)
	var list struct {
		Sheets []struct{ ID, Name, URL string }
	}
	if err := json.Unmarshal(body, &list); resp.StatusCode != 200 || err != nil || len(list.Sheets) != 1 ||
		list.Sheets[0].ID != sheet.ID || list.Sheets[0].URL != s.base+"/sheets/"+sheet.ID {
		t.Fatalf("list %d %s", resp.StatusCode, body)
	}

	resp, body = s.get(t, "/sheets/"+sheet.ID, s.key)
	var doc struct {
		ID, Name  string
		Header    []string
		Rows      [][]string
		TotalRows int `json:"total_rows"`
	}
	if err := json.Unmarshal(body, &doc); resp.StatusCode != 200 || err != nil || doc.Name != "Prices: Q1/Q2" || doc.TotalRows != 3 ||
		len(doc.Header) != 3 || len(doc.Rows) != 3 || doc.Rows[0][2] != "line1\nline2" {
		t.Fatalf("json %d %s", resp.StatusCode, body)
	}

	resp, body = s.get(t, "/sheets/"+sheet.ID+".csv", s.key)
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/csv") ||
		!strings.Contains(resp.Header.Get("Content-Disposition"), "attachment") {
		t.Fatalf("csv %d %v %s", resp.StatusCode, resp.Header, body)
	}
	r := csv.NewReader(bytes.NewReader(body))
	r.FieldsPerRecord = -1
	records, err := r.ReadAll()
	if err != nil {
		t.Fatalf("csv does not parse: %v\n%s", err, body)
	}
	want := append([][]string{{"item", "note", "more"}}, trickyRows...)
	if !equalRows(records, want) {
		t.Fatalf("csv rows %q", records)
	}

	resp, body = s.get(t, "/sheets/"+sheet.ID+".xlsx", s.key)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" {
		t.Fatalf("xlsx %d %v", resp.StatusCode, resp.Header)
	}
	f, err := excelize.OpenReader(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("xlsx does not open: %v", err)
	}
	defer f.Close()
	sheets := f.GetSheetList()
	if len(sheets) != 1 || sheets[0] != "Prices_ Q1_Q2" {
		t.Fatalf("worksheets %q", sheets)
	}
	xrows, err := f.GetRows(sheets[0])
	if err != nil {
		t.Fatal(err)
	}
	// GetRows drops trailing empty cells, as spreadsheets do.
	want[2] = []string{"Grüße ✓", "=1+1"}
	if !equalRows(xrows, want) {
		t.Fatalf("xlsx rows %q", xrows)
	}
	if formula, _ := f.GetCellFormula(sheets[0], "B3"); formula != "" {
		t.Fatalf("a text became a formula: %q", formula)
	}
}

func equalRows(a, b [][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if strings.Join(a[i], "\x00") != strings.Join(b[i], "\x00") || len(a[i]) != len(b[i]) {
			return false
		}
	}
	return true
}

func TestSheetsHTTP_AccessAndErrors(t *testing.T) {
	s := newSheetServer(t)
	sheet, err := s.db.CreateSheet(store.DefaultAccount, "Mine", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, suffix := range []string{"", ".csv", ".xlsx"} {
		resp, body := s.get(t, "/sheets/"+sheet.ID+suffix, s.otherKey)
		if resp.StatusCode != 404 || errorCode(body) != "not_found" {
			t.Errorf("another account's sheet%s: %d %s", suffix, resp.StatusCode, body)
		}
		resp, body = s.get(t, "/sheets/s_00000000000000000000000000"+suffix, s.key)
		if resp.StatusCode != 404 || errorCode(body) != "not_found" {
			t.Errorf("unknown sheet%s: %d %s", suffix, resp.StatusCode, body)
		}
		resp, body = s.get(t, "/sheets/"+sheet.ID+suffix+"?key="+s.key, "")
		if resp.StatusCode != 401 || errorCode(body) != "invalid_key" {
			t.Errorf("?key= is not a way in%s: %d %s", suffix, resp.StatusCode, body)
		}
	}
	if resp, body := s.get(t, "/sheets", s.otherKey); resp.StatusCode != 200 || !strings.Contains(string(body), `"sheets":[]`) {
		t.Errorf("other's list: %d %s", resp.StatusCode, body)
	}
	if resp, _ := s.get(t, "/sheets", ""); resp.StatusCode != 401 {
		t.Errorf("no key: %d", resp.StatusCode)
	}
	if resp, body := s.get(t, "/sheets/"+sheet.ID+"?limit=-1", s.key); resp.StatusCode != 400 {
		t.Errorf("bad limit: %d %s", resp.StatusCode, body)
	}
}

func TestSheetsHTTP_Paging(t *testing.T) {
	s := newSheetServer(t)
	sheet, err := s.db.CreateSheet(store.DefaultAccount, "Long", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"1", "2", "3", "4", "5"} {
		if _, err := s.db.AppendRows(store.DefaultAccount, sheet.ID, []string{v}); err != nil {
			t.Fatal(err)
		}
	}
	var page struct {
		Rows [][]string
		Next string
	}
	_, body := s.get(t, "/sheets/"+sheet.ID+"?limit=2", s.key)
	if err := json.Unmarshal(body, &page); err != nil || len(page.Rows) != 2 || page.Next != "/sheets/"+sheet.ID+"?offset=2&limit=2" {
		t.Fatalf("page 1 %s", body)
	}
	_, body = s.get(t, page.Next, s.key)
	page.Next = ""
	if err := json.Unmarshal(body, &page); err != nil || page.Rows[0][0] != "3" || page.Next == "" {
		t.Fatalf("page 2 %s", body)
	}
	_, body = s.get(t, "/sheets/"+sheet.ID+"?offset=4&limit=2", s.key)
	page.Next = ""
	if err := json.Unmarshal(body, &page); err != nil || len(page.Rows) != 1 || page.Next != "" {
		t.Fatalf("last page %s", body)
	}
}

// An agent creates a sheet and fills it through POST /agents; the URL it wrote is the export's.
func TestSheetsHTTP_AgentThenExport(t *testing.T) {
	s := newSheetServer(t)
	body := `{"key": "` + s.key + `", "goal": "collect", "data": {"title": "Tea", "price": "3.50"}, "json_output": [
		{"type": "sheets_create", "URL": "url", "Sheet_Name": "name", "name": "Shop", "header": ["title", "price"]},
		{"type": "sheets_add_row", "URL": "url", "Sheet_Name": "name", "data": ["title", "price"]},
		{"type": "spreadsheet", "url": "url", "read_write": "write", "row_1": ["Coffee", "4.20"]}]}`
	resp, err := http.Post(s.base+"/agents", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var doc scripts.Doc
	if err := json.Unmarshal(raw, &doc); err != nil || doc.Status != scripts.StatusSucceeded {
		t.Fatalf("agent: %s", raw)
	}
	url, _ := doc.Data["url"].(string)
	if !strings.HasPrefix(url, s.base+"/sheets/s_") {
		t.Fatalf("url %q", url)
	}
	r, csvBody := s.get(t, strings.TrimPrefix(url, s.base)+".csv", s.key)
	if r.StatusCode != 200 || strings.ReplaceAll(string(csvBody), "\r\n", "\n") != "title,price\nTea,3.50\nCoffee,4.20\n" {
		t.Fatalf("csv %d %q", r.StatusCode, csvBody)
	}
}
