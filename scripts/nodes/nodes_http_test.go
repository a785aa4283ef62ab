package nodes_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
)

// dataRun compiles and runs nodes (a JSON array) with svc and no browser, as account "test".
// Placeholders: API is replaced by api's URL when api is set.
func dataRun(t *testing.T, svc *scripts.Services, nodes string, data map[string]any) scripts.Doc {
	t.Helper()
	var raw []json.RawMessage
	if err := json.Unmarshal([]byte(nodes), &raw); err != nil {
		t.Fatalf("test JSON: %v\n%s", err, nodes)
	}
	s, err := scripts.DefaultRegistry.Compile(t.Name(), raw, data)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	if svc == nil {
		svc = &scripts.Services{WorkDir: t.TempDir(), CodeNodes: true}
	}
	runner := &scripts.Runner{Registry: scripts.DefaultRegistry, Services: svc}
	r := scripts.NewRun("r_"+strings.NewReplacer("/", "_", " ", "_").Replace(t.Name()), "test", "test", s)
	runner.Execute(context.Background(), r, scripts.ExecOptions{Timeout: time.Minute})
	return r.Doc()
}

// compileErr compiles nodes and returns the invalid_config error's details as text.
func compileErr(t *testing.T, nodes string) string {
	t.Helper()
	var raw []json.RawMessage
	if err := json.Unmarshal([]byte(nodes), &raw); err != nil {
		t.Fatalf("test JSON: %v", err)
	}
	_, err := scripts.DefaultRegistry.Compile(t.Name(), raw, nil)
	if err == nil {
		return ""
	}
	e, ok := err.(*errs.Error)
	if !ok || e.Code != errs.InvalidConfig {
		t.Fatalf("compile error %v is not invalid_config", err)
	}
	b, _ := json.Marshal(e.Details)
	return string(b)
}

// apiPeer is a real HTTP API for the tests: it echoes requests as JSON and serves the failure
// cases by path.
func apiPeer(t *testing.T) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		out := map[string]any{"method": r.Method, "query": r.URL.RawQuery, "content_type": r.Header.Get("Content-Type"),
			"auth": r.Header.Get("Authorization"), "x_trace": r.Header.Get("X-Trace"), "body": string(body)}
		var parsed any
		if json.Unmarshal(body, &parsed) == nil {
			out["json"] = parsed
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(out)
	})
	mux.HandleFunc("/list", func(w http.ResponseWriter, r *http.Request) {
		// JSON without a JSON content type still lands as data
		fmt.Fprint(w, `[{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]`)
	})
	mux.HandleFunc("/text", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "hello there")
	})
	mux.HandleFunc("/status/", func(w http.ResponseWriter, r *http.Request) {
		var code int
		fmt.Sscanf(strings.TrimPrefix(r.URL.Path, "/status/"), "%d", &code)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		fmt.Fprintf(w, `{"error": "thing %d happened"}`, code)
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(5 * time.Second):
		case <-r.Context().Done():
		}
		fmt.Fprint(w, "late")
	})
	mux.HandleFunc("/huge", func(w http.ResponseWriter, r *http.Request) {
		chunk := bytes.Repeat([]byte("x"), 64<<10)
		for i := 0; i < 11*16; i++ { // 11 MiB, past the 10 MiB default
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	mux.HandleFunc("/badjson", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"a": `)
	})
	mux.HandleFunc("/file/report.bin", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Token") != "s3cret" {
			http.Error(w, "no token", http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Length", "3000")
		_, _ = w.Write(bytes.Repeat([]byte{7}, 3000))
	})
	mux.HandleFunc("/file/short", func(w http.ResponseWriter, r *http.Request) {
		// announces more than it sends: the connection is cut
		w.Header().Set("Content-Length", "5000")
		_, _ = w.Write(bytes.Repeat([]byte{1}, 100))
		if hj, ok := w.(http.Hijacker); ok {
			conn, _, _ := hj.Hijack()
			conn.Close()
		}
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

func obj(t *testing.T, v any) map[string]any {
	t.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%T %v is not an object", v, v)
	}
	return m
}

func TestAPI_JSONInAndOut(t *testing.T) {
	base := apiPeer(t)
	d := dataRun(t, nil, `[{"type": "api", "URL": "`+base+`/echo?api_key=abc", "headers": {"Authorization": "Bearer {{token}}", "X-Trace": "t1", "Accept": "application/json"},
		"body": {"name": "{{name}}", "n": 2, "nested": {"k": "{{name}}"}}, "output": "res"}]`,
		map[string]any{"token": "tok-123", "name": "Ada"})
	if d.Status != scripts.StatusSucceeded {
		t.Fatal(dump(d))
	}
	res := obj(t, d.Data["res"])
	if res["method"] != "POST" || res["auth"] != "Bearer tok-123" || res["x_trace"] != "t1" || res["content_type"] != "application/json" {
		t.Fatalf("echo %v", res)
	}
	sent := obj(t, res["json"])
	if sent["name"] != "Ada" || sent["n"] != 2.0 || obj(t, sent["nested"])["k"] != "Ada" {
		t.Fatalf("sent %v", sent)
	}
	// the detail never shows header values nor the key in the query
	raw, _ := json.Marshal(d.Steps[0].Detail)
	if strings.Contains(string(raw), "tok-123") || strings.Contains(string(raw), "abc") || strings.Contains(string(raw), "t1") {
		t.Fatalf("detail leaks a secret: %s", raw)
	}
	if !strings.Contains(string(raw), `"Accept":"application/json"`) {
		t.Fatalf("harmless headers are shown: %s", raw)
	}
	if !hasCheck(d.Steps[0], "status_2xx") || !hasCheck(d.Steps[0], "output_stored") {
		t.Fatal(dump(d))
	}
}

func TestAPI_MethodsAndData(t *testing.T) {
	base := apiPeer(t)
	cases := []struct {
		name, node  string
		data        map[string]any
		method, ct  string
		body        string
		wantJSONKey string
	}{
		{"get by default", `{"type": "api", "URL": "BASE/echo", "output": "res"}`, nil, "GET", "", "", ""},
		{"data object as JSON", `{"type": "api", "URL": "BASE/echo", "data": "order", "output": "res"}`,
			map[string]any{"order": map[string]any{"id": 7.0}}, "POST", "application/json", `{"id":7}`, "id"},
		{"data JSON text as JSON", `{"type": "api", "URL": "BASE/echo", "data": "{{order}}", "output": "res"}`,
			map[string]any{"order": `{"id": 8}`}, "POST", "application/json", `{"id": 8}`, "id"},
		{"data text as text", `{"type": "api", "URL": "BASE/echo", "data": "note", "method": "PUT", "output": "res"}`,
			map[string]any{"note": "just words"}, "PUT", "text/plain; charset=utf-8", "just words", ""},
		{"body and data object merge", `{"type": "api", "URL": "BASE/echo", "body": {"a": 1}, "data": "extra", "output": "res"}`,
			map[string]any{"extra": map[string]any{"b": 2.0}}, "POST", "application/json", `{"a":1,"b":2}`, "b"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := dataRun(t, nil, "["+strings.ReplaceAll(c.node, "BASE", base)+"]", c.data)
			if d.Status != scripts.StatusSucceeded {
				t.Fatal(dump(d))
			}
			res := obj(t, d.Data["res"])
			if res["method"] != c.method || res["content_type"] != c.ct || res["body"] != c.body {
				t.Fatalf("echo %v", res)
			}
		})
	}
}

func TestAPI_Answers(t *testing.T) {
	base := apiPeer(t)
	d := dataRun(t, nil, `[{"type": "api", "URL": "`+base+`/list", "output": "list"}, {"type": "api", "URL": "`+base+`/text", "output": "txt"}]`, nil)
	if d.Status != scripts.StatusSucceeded {
		t.Fatal(dump(d))
	}
	list, ok := d.Data["list"].([]any)
	if !ok || len(list) != 2 || obj(t, list[1])["name"] != "b" {
		t.Fatalf("list %#v", d.Data["list"])
	}
	if d.Data["txt"] != "hello there" {
		t.Fatalf("txt %#v", d.Data["txt"])
	}
}

func TestAPI_Failures(t *testing.T) {
	base := apiPeer(t)
	cases := []struct{ name, node, code, inMessage string }{
		{"404", `{"type": "api", "URL": "BASE/status/404"}`, "http_error", "HTTP 404"},
		{"500", `{"type": "api", "URL": "BASE/status/500", "body": {"a": 1}}`, "http_error", "thing 500 happened"},
		{"slow", `{"type": "api", "URL": "BASE/slow", "timeout": 0.3}`, errs.Timeout, "300ms"},
		{"huge", `{"type": "api", "URL": "BASE/huge", "output": "x"}`, errs.TooLarge, "10 MiB"},
		{"small limit", `{"type": "api", "URL": "BASE/text", "max_bytes": 5}`, errs.TooLarge, "5 bytes"},
		{"bad json", `{"type": "api", "URL": "BASE/badjson", "output": "x"}`, "invalid_file", "does not parse"},
		{"refused", `{"type": "api", "URL": "http://127.0.0.1:1/x"}`, "request_failed", "no answer"},
		{"data not set", `{"type": "api", "URL": "BASE/echo", "data": "missing"}`, errs.VariableNotSet, "missing"},
		{"get with body", `{"type": "api", "URL": "BASE/echo", "method": "GET", "body": {"a": 1}}`, errs.InvalidConfig, "no body"},
		{"templated URL not http", `{"type": "api", "URL": "{{u}}"}`, errs.InvalidConfig, "not an http"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			d := dataRun(t, nil, "["+strings.ReplaceAll(c.node, "BASE", base)+"]", map[string]any{"u": "ftp://x"})
			if d.Status != scripts.StatusFailed || stepErr(d, 0) != c.code || !strings.Contains(d.Steps[0].Error.Message, c.inMessage) {
				t.Fatal(dump(d))
			}
			if time.Since(start) > 4*time.Second {
				t.Fatalf("took %s", time.Since(start))
			}
		})
	}
	// a failed answer keeps its status and an excerpt in the detail
	d := dataRun(t, nil, `[{"type": "api", "URL": "`+base+`/status/422"}]`, nil)
	if d.Steps[0].Detail["status"] != 422 || !strings.Contains(fmt.Sprint(d.Steps[0].Detail["response_excerpt"]), "thing 422") {
		t.Fatal(dump(d))
	}
}

func TestAPI_Validation(t *testing.T) {
	if p := compileErr(t, `[{"type": "api", "URL": "not a url"}]`); !strings.Contains(p, "URL") {
		t.Fatalf("problems %s", p)
	}
	if p := compileErr(t, `[{"type": "api", "URL": "https://x", "method": "FETCH"}]`); !strings.Contains(p, "method") {
		t.Fatalf("problems %s", p)
	}
	if p := compileErr(t, `[{"type": "api", "URL": "https://x", "headers": "Bearer x"}]`); !strings.Contains(p, "headers") {
		t.Fatalf("problems %s", p)
	}
}

func TestSendData(t *testing.T) {
	base := apiPeer(t)
	d := dataRun(t, nil, `[{"type": "send_data", "URL": "`+base+`/echo", "body_key_1": "name", "body_value_1": "{{name}}",
		"body_key_2": "n", "body_value_2": 3, "body_key_20": "last", "body_value_20": "z", "pairs": {"p": "q"},
		"headers": {"Authorization": "Bearer zzz"}, "output": "res"},
		{"type": "send_data", "URL": "`+base+`/echo", "request": "GET", "body_key_1": "q", "body_value_1": "a b", "output": "get"}]`,
		map[string]any{"name": "Ada"})
	if d.Status != scripts.StatusSucceeded {
		t.Fatal(dump(d))
	}
	res := obj(t, d.Data["res"])
	sent := obj(t, res["json"])
	if res["method"] != "POST" || sent["name"] != "Ada" || sent["n"] != 3.0 || sent["last"] != "z" || sent["p"] != "q" || res["auth"] != "Bearer zzz" {
		t.Fatalf("echo %v", res)
	}
	if get := obj(t, d.Data["get"]); get["method"] != "GET" || get["query"] != "q=a+b" {
		t.Fatalf("get %v", get)
	}
	if p := compileErr(t, `[{"type": "send_data", "URL": "https://x", "body_value_3": "v"}]`); !strings.Contains(p, "body_value_3") {
		t.Fatalf("problems %s", p)
	}
	if p := compileErr(t, `[{"type": "send_data", "URL": "https://x", "body_key_21": "k"}]`); !strings.Contains(p, "body_key_21") {
		t.Fatalf("a 21st pair must be unknown: %s", p)
	}
	d = dataRun(t, nil, `[{"type": "send_data", "URL": "`+base+`/status/503", "body_key_1": "a", "body_value_1": "b"}]`, nil)
	if stepErr(d, 0) != "http_error" {
		t.Fatal(dump(d))
	}
}

func TestGetData(t *testing.T) {
	base := apiPeer(t)
	work := t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "orders.json"), []byte(`{"orders": [1, 2]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	svc := &scripts.Services{WorkDir: t.TempDir(), CodeNodes: true}
	d := dataRun(t, svc, `[{"type": "get_data", "url_or_file_path": "`+base+`/echo", "headers": "{\"Authorization\": \"Bearer k\"}"},
		{"type": "get_data", "url_or_file_path": "`+filepath.Join(work, "orders.json")+`", "data": "orders"},
		{"type": "get_data", "url_or_file_path": "`+base+`/file/report.bin", "headers": {"X-Token": "s3cret"}, "data": "bin", "continue_on_error": true}]`, nil)
	if d.Steps[0].Status != scripts.StepOK || d.Steps[1].Status != scripts.StepOK {
		t.Fatal(dump(d))
	}
	if res := obj(t, d.Data["data"]); res["method"] != "GET" || res["auth"] != "Bearer k" {
		t.Fatalf("data %v", d.Data["data"])
	}
	if orders := obj(t, d.Data["orders"])["orders"].([]any); len(orders) != 2 {
		t.Fatalf("orders %v", d.Data["orders"])
	}
	// binary answers are not text: the message points to download
	if stepErr(d, 2) != "invalid_value" || !strings.Contains(d.Steps[2].Error.Message, "download") {
		t.Fatal(dump(d))
	}
	d = dataRun(t, svc, `[{"type": "get_data", "url_or_file_path": "nope.json"}]`, nil)
	if stepErr(d, 0) != errs.NotFound {
		t.Fatal(dump(d))
	}
}

func TestDownload(t *testing.T) {
	base := apiPeer(t)
	work := t.TempDir()
	svc := &scripts.Services{WorkDir: work, CodeNodes: true}
	d := dataRun(t, svc, `[{"type": "download", "url_or_file": "`+base+`/file/report.bin", "download_location": "dl/", "headers": {"X-Token": "s3cret"}},
		{"type": "download", "url_or_file": "`+base+`/file/report.bin", "download_location": "dl/named.bin", "headers": {"X-Token": "s3cret"}}]`, nil)
	if d.Status != scripts.StatusSucceeded || !hasCheck(d.Steps[0], "file_written") || !hasCheck(d.Steps[0], "expected_size") {
		t.Fatal(dump(d))
	}
	runDir := filepath.Join(work, d.RunID)
	for _, name := range []string{"dl/report.bin", "dl/named.bin"} {
		st, err := os.Stat(filepath.Join(runDir, name))
		if err != nil || st.Size() != 3000 {
			t.Fatalf("%s: %v %v", name, st, err)
		}
	}
	if strings.Contains(fmt.Sprint(d.Steps[0].Detail), "s3cret") {
		t.Fatalf("detail leaks the token: %v", d.Steps[0].Detail)
	}
	// a local file is copied
	src := filepath.Join(t.TempDir(), "in.txt")
	if err := os.WriteFile(src, []byte("copy me"), 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out.txt")
	d = dataRun(t, svc, `[{"type": "download", "url_or_file": "`+src+`", "download_location": "`+out+`"}]`, nil)
	if b, err := os.ReadFile(out); d.Status != scripts.StatusSucceeded || string(b) != "copy me" {
		t.Fatalf("%s %v\n%s", b, err, dump(d))
	}

	cases := []struct{ name, node, code string }{
		{"401", `{"type": "download", "url_or_file": "BASE/file/report.bin", "download_location": "x.bin"}`, "http_error"},
		{"cut off", `{"type": "download", "url_or_file": "BASE/file/short", "download_location": "short.bin"}`, "request_failed"},
		{"too large", `{"type": "download", "url_or_file": "BASE/huge", "download_location": "huge.bin", "max_bytes": 1000}`, errs.TooLarge},
		{"announced too large", `{"type": "download", "url_or_file": "BASE/file/report.bin", "headers": {"X-Token": "s3cret"}, "download_location": "big.bin", "max_bytes": 1000}`, errs.TooLarge},
		{"escapes", `{"type": "download", "url_or_file": "BASE/text", "download_location": "../../etc/x"}`, errs.InvalidConfig},
		{"missing file", `{"type": "download", "url_or_file": "/nonexistent/file.txt", "download_location": "m.txt"}`, errs.NotFound},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := t.TempDir()
			d := dataRun(t, &scripts.Services{WorkDir: w, CodeNodes: true}, "["+strings.ReplaceAll(c.node, "BASE", base)+"]", nil)
			if stepErr(d, 0) != c.code {
				t.Fatal(dump(d))
			}
			// no partial file is left under any name
			entries, _ := os.ReadDir(filepath.Join(w, d.RunID))
			if len(entries) != 0 {
				t.Fatalf("left files behind: %v", entries)
			}
		})
	}
}

func TestFilePaths_ConfinedWithoutCodeNodes(t *testing.T) {
	src := filepath.Join(t.TempDir(), "a.txt")
	if err := os.WriteFile(src, []byte("hi"), 0o600); err != nil {
		t.Fatal(err)
	}
	d := dataRun(t, &scripts.Services{WorkDir: t.TempDir(), CodeNodes: false}, `[{"type": "add_data", "target": "x", "data": "`+src+`"}]`, nil)
	if stepErr(d, 0) != errs.InvalidConfig || !strings.Contains(d.Steps[0].Error.Message, "outside the working folder") {
		t.Fatal(dump(d))
	}
}
