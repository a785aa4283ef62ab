package server_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/scripts"
	_ "github.com/rodeo-run/rodeo/scripts/nodes" // registers the node kinds
	"github.com/rodeo-run/rodeo/server"
	"github.com/rodeo-run/rodeo/store"
)

// bodyLimit is the fixture server's request body limit, small so the 413 case stays cheap.
const bodyLimit = 16 << 10

// fixture is a server with a real store on a temp dir and an engine without a browser: it runs
// only non-browser nodes (delay, print), which is all the HTTP contract needs.
type fixture struct {
	srv    *server.Server
	db     *store.DB
	engine *scripts.Engine
	// key and otherKey belong to the accounts "default" and "other".
	key, otherKey string
	logs          *syncBuffer
	base          string // set by listen
}

// syncBuffer is a log sink the server's goroutines may write to while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	db, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	key, _, err := db.CreateKey(store.DefaultAccount)
	if err != nil {
		t.Fatalf("create key: %v", err)
	}
	otherKey, _, err := db.CreateKey("other")
	if err != nil {
		t.Fatalf("create key: %v", err)
	}
	logs := &syncBuffer{}
	log := slog.New(slog.NewTextHandler(logs, nil))
	engine := scripts.NewEngine(&scripts.Runner{Registry: scripts.DefaultRegistry, Logger: log}, db, log)
	srv := server.New(server.Config{Engine: engine, Registry: scripts.DefaultRegistry, Store: db,
		BodyLimit: bodyLimit, Logger: log, Version: "test"})
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := engine.Shutdown(ctx); err != nil {
			t.Errorf("engine shutdown: %v", err)
		}
		_ = db.Close()
	})
	return &fixture{srv: srv, db: db, engine: engine, key: key, otherKey: otherKey, logs: logs}
}

// response is an answer of the app, its body decoded as JSON when it is JSON.
type response struct {
	status int
	header http.Header
	raw    []byte
	body   map[string]any
}

// do sends one request through app.Test. A non-empty bearer goes in the Authorization header.
func (f *fixture) do(t *testing.T, method, path, body, bearer string) response {
	t.Helper()
	var r io.Reader = http.NoBody
	if body != "" {
		r = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, path, r)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	res, err := f.srv.App().Test(req, -1)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("%s %s: read body: %v", method, path, err)
	}
	out := response{status: res.StatusCode, header: res.Header, raw: raw}
	if strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(raw, &out.body); err != nil {
			t.Fatalf("%s %s: JSON answer does not parse: %v\n%s", method, path, err, raw)
		}
	}
	return out
}

// listen serves the app on a real loopback socket (once per fixture) and returns its base URL.
func (f *fixture) listen(t *testing.T) string {
	t.Helper()
	if f.base != "" {
		return f.base
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- f.srv.App().Listener(ln) }()
	t.Cleanup(func() {
		if err := f.srv.Shutdown(context.Background()); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		<-served
	})
	f.base = "http://" + ln.Addr().String()
	return f.base
}

// overSocket sends one request over a real connection.
func (f *fixture) overSocket(t *testing.T, method, path, body string) response {
	t.Helper()
	req, err := http.NewRequest(method, f.listen(t)+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	out := response{status: res.StatusCode, header: res.Header, raw: raw}
	_ = json.Unmarshal(raw, &out.body)
	return out
}

// agent renders a POST /agents body.
func agent(key, goal string, nodes ...string) string {
	b, _ := json.Marshal(map[string]any{"key": key, "goal": goal, "json_output": json.RawMessage("[" + strings.Join(nodes, ",") + "]")})
	return string(b)
}

// apiError is the decoded error body of API.md.
type apiError struct {
	Code      string `json:"code"`
	Message   string `json:"message"`
	RequestID string `json:"request_id"`
	Details   []struct {
		Node    *int   `json:"node"`
		Field   string `json:"field"`
		Problem string `json:"problem"`
	} `json:"details"`
}

func errorOf(t *testing.T, r response) apiError {
	t.Helper()
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("error answer has Content-Type %q, want JSON; body: %s", ct, r.raw)
	}
	var body struct {
		Error *apiError `json:"error"`
	}
	if err := json.Unmarshal(r.raw, &body); err != nil || body.Error == nil {
		t.Fatalf("answer is not an error body (%v): %s", err, r.raw)
	}
	return *body.Error
}

// detail is an expected entry of error.details; node -1 means "no node".
type detail struct {
	node  int
	field string
}

func checkError(t *testing.T, r response, status int, code string, details []detail) {
	t.Helper()
	if r.status != status {
		t.Errorf("status = %d, want %d; body: %s", r.status, status, r.raw)
	}
	e := errorOf(t, r)
	if e.Code != code {
		t.Errorf("error.code = %q, want %q; body: %s", e.Code, code, r.raw)
	}
	if e.Message == "" {
		t.Errorf("error.message is empty")
	}
	if details == nil {
		return
	}
	if len(e.Details) != len(details) {
		t.Fatalf("error.details has %d entries, want %d: %s", len(e.Details), len(details), r.raw)
	}
	for i, want := range details {
		got := e.Details[i]
		switch {
		case want.node < 0 && got.Node != nil:
			t.Errorf("details[%d].node = %d, want none", i, *got.Node)
		case want.node >= 0 && (got.Node == nil || *got.Node != want.node):
			t.Errorf("details[%d].node = %v, want %d: %s", i, got.Node, want.node, r.raw)
		}
		if got.Field != want.field {
			t.Errorf("details[%d].field = %q, want %q", i, got.Field, want.field)
		}
		if got.Problem == "" {
			t.Errorf("details[%d].problem is empty", i)
		}
	}
}

func (f *fixture) runsOf(t *testing.T, account string) []store.RunRecord {
	t.Helper()
	runs, err := f.db.ListRuns(account, 0, "")
	if err != nil {
		t.Fatalf("list runs: %v", err)
	}
	return runs
}

// TestAgents_BadInput: every malformed, unauthenticated or invalid request gets its status, code
// and details, and leaves nothing behind in the store.
func TestAgents_BadInput(t *testing.T) {
	f := newFixture(t)
	revoked, k, err := f.db.CreateKey(store.DefaultAccount)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.db.RevokeKey(k.ID); err != nil {
		t.Fatal(err)
	}
	okNode := `{"type":"print","text":"hi"}`
	cases := []struct {
		name    string
		body    string
		bearer  string
		status  int
		code    string
		details []detail
		socket  bool
	}{
		{name: "malformed JSON", body: `{"key": "` + f.key + `", "goal": "x", "json_output": [`, status: 400, code: "invalid_json"},
		{name: "not an object", body: `"hello"`, status: 400, code: "invalid_config"},
		{name: "missing key", body: agent("", "g", okNode), status: 401, code: "invalid_key"},
		{name: "wrong key", body: agent("rk_this-key-does-not-exist", "g", okNode), status: 401, code: "invalid_key"},
		{name: "revoked key", body: agent(revoked, "g", okNode), status: 401, code: "invalid_key"},
		{name: "revoked key as bearer", body: agent("", "g", okNode), bearer: revoked, status: 401, code: "invalid_key"},
		{name: "wrong key with a bad config", body: agent("rk_nope", "g", `{"type":"teleport"}`), status: 401, code: "invalid_key"},
		{name: "unknown node type", body: agent(f.key, "g", `{"type":"teleport","to":"mars"}`),
			status: 400, code: "invalid_config", details: []detail{{0, "type"}}},
		{name: "wrong parameter type", body: agent(f.key, "g", okNode, `{"type":"delay","time":"abc"}`),
			status: 400, code: "invalid_config", details: []detail{{1, "time"}}},
		{name: "negative delay", body: agent(f.key, "g", `{"type":"delay","time":-1}`),
			status: 400, code: "invalid_config", details: []detail{{0, "time"}}},
		{name: "missing required parameter", body: agent(f.key, "g", `{"type":"delay"}`),
			status: 400, code: "invalid_config", details: []detail{{0, "time"}}},
		{name: "unknown parameter", body: agent(f.key, "g", `{"type":"delay","time":1,"seconds":2}`),
			status: 400, code: "invalid_config", details: []detail{{0, "seconds"}}},
		{name: "three bad nodes are all listed", body: agent(f.key, "g",
			`{"type":"delay","time":"abc"}`, okNode, `{"type":"teleport"}`, `{"type":"delay","time":-5}`),
			status: 400, code: "invalid_config", details: []detail{{0, "time"}, {2, "type"}, {3, "time"}}},
		{name: "missing goal", body: agent(f.key, "", okNode),
			status: 400, code: "invalid_config", details: []detail{{-1, "goal"}}},
		{name: "no nodes", body: agent(f.key, "g"),
			status: 400, code: "invalid_config", details: []detail{{-1, "json_output"}}},
		{name: "json_output not an array", body: `{"key":"` + f.key + `","goal":"g","json_output":{"type":"delay"}}`,
			status: 400, code: "invalid_config", details: []detail{{-1, "json_output"}}},
		{name: "negative run timeout", body: `{"key":"` + f.key + `","goal":"g","timeout":-1,"json_output":[` + okNode + `]}`,
			status: 400, code: "invalid_config", details: []detail{{-1, "timeout"}}},
		{name: "negative run timeout and a bad node", body: `{"key":"` + f.key + `","goal":"g","timeout":-1,"json_output":[{"type":"teleport"}]}`,
			status: 400, code: "invalid_config", details: []detail{{-1, "timeout"}, {0, "type"}}},
		{name: "run timeout not a number", body: `{"key":"` + f.key + `","goal":"g","timeout":"soon","json_output":[` + okNode + `]}`,
			status: 400, code: "invalid_config", details: []detail{{-1, "timeout"}}},
		{name: "body over the limit", body: agent(f.key, strings.Repeat("x", 2*bodyLimit), okNode), status: 413, code: "too_large", socket: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var r response
			if tc.socket { // app.Test cannot see fasthttp's own 413: it reports an error instead
				r = f.overSocket(t, "POST", "/agents", tc.body)
			} else {
				r = f.do(t, "POST", "/agents", tc.body, tc.bearer)
			}
			checkError(t, r, tc.status, tc.code, tc.details)
			for _, account := range []string{store.DefaultAccount, "other"} {
				if runs := f.runsOf(t, account); len(runs) != 0 {
					t.Errorf("a rejected request stored %d run(s) for %s", len(runs), account)
				}
			}
		})
	}
}

// TestAgents_TrailingData: a body with anything after its JSON object is malformed; it must not
// run what the first object says.
func TestAgents_TrailingData(t *testing.T) {
	f := newFixture(t)
	for _, suffix := range []string{"}", "]", `{"x":1}`, "garbage"} {
		t.Run(suffix, func(t *testing.T) {
			r := f.do(t, "POST", "/agents", agent(f.key, "g", `{"type":"print","text":"hi"}`)+suffix, "")
			checkError(t, r, 400, "invalid_json", nil)
		})
	}
	if runs := f.runsOf(t, store.DefaultAccount); len(runs) != 0 {
		t.Errorf("malformed bodies started %d run(s)", len(runs))
	}
}

func TestAgents_BearerKey(t *testing.T) {
	f := newFixture(t)
	r := f.do(t, "POST", "/agents", agent("", "by header", `{"type":"print","text":"hi"}`), f.key)
	if r.status != 200 || r.body["status"] != "succeeded" {
		t.Fatalf("POST /agents with a bearer key: %d %s", r.status, r.raw)
	}
	id, _ := r.body["run_id"].(string)
	if got := f.runsOf(t, store.DefaultAccount); len(got) != 1 || got[0].ID != id {
		t.Fatalf("the run is not stored under the key's account: %+v", got)
	}
	if runs := f.runsOf(t, "other"); len(runs) != 0 {
		t.Errorf("the other account got a run")
	}
	g := f.do(t, "GET", "/runs/"+id, "", f.key)
	if g.status != 200 || g.body["run_id"] != id {
		t.Fatalf("GET /runs/{id} with a bearer key: %d %s", g.status, g.raw)
	}
	// Lower-case scheme, as some clients send it.
	req := httptest.NewRequest("GET", "/runs", nil)
	req.Header.Set("Authorization", "bearer "+f.key)
	res, err := f.srv.App().Test(req, -1)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("GET /runs with \"bearer\": status %d", res.StatusCode)
	}
}

func TestAgents_WaitTrueAnswersTheDocument(t *testing.T) {
	f := newFixture(t)
	body := `{"key":"` + f.key + `","goal":"greet","data":{"name":"Ada"},"json_output":[
		{"type":"print","text":"hello {{name}}"},{"type":"delay","time":0.05}]}`
	r := f.do(t, "POST", "/agents", body, "")
	if r.status != 200 {
		t.Fatalf("status %d: %s", r.status, r.raw)
	}
	var doc scripts.Doc
	if err := json.Unmarshal(r.raw, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Status != "succeeded" || doc.Goal != "greet" || doc.Error != nil || !strings.HasPrefix(doc.RunID, "r_") {
		t.Fatalf("document: %s", r.raw)
	}
	if doc.Data["name"] != "Ada" {
		t.Errorf("data.name = %v, want the initial variable Ada", doc.Data["name"])
	}
	if len(doc.Steps) != 2 {
		t.Fatalf("steps: %s", r.raw)
	}
	for i, st := range doc.Steps {
		if st.Index != i || st.Status != "ok" || st.Error != nil {
			t.Errorf("step %d: %+v", i, st)
		}
	}
	if doc.Steps[0].Detail["text"] != "hello Ada" {
		t.Errorf("print detail = %v, want the templated text", doc.Steps[0].Detail)
	}
	if v := doc.Steps[1].Verification; v == nil || !v.Passed || len(v.Checks) == 0 {
		t.Errorf("delay verification = %+v", v)
	}
}

func TestAgents_WaitFalse(t *testing.T) {
	f := newFixture(t)
	start := time.Now()
	r := f.do(t, "POST", "/agents?wait=false", agent(f.key, "later", `{"type":"delay","time":1.5}`), "")
	if r.status != 202 {
		t.Fatalf("status %d, want 202: %s", r.status, r.raw)
	}
	if time.Since(start) > time.Second {
		t.Errorf("?wait=false took %s: it waited for the run", time.Since(start))
	}
	id, _ := r.body["run_id"].(string)
	if !strings.HasPrefix(id, "r_") || r.body["status"] != "queued" || r.body["status_url"] != "/runs/"+id {
		t.Fatalf("202 body: %s", r.raw)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		g := f.do(t, "GET", r.body["status_url"].(string), "", f.key)
		if g.status != 200 {
			t.Fatalf("GET %s: %d %s", r.body["status_url"], g.status, g.raw)
		}
		st := g.body["status"]
		if st == "succeeded" {
			break
		}
		if st != "queued" && st != "running" || time.Now().After(deadline) {
			t.Fatalf("run status %v: %s", st, g.raw)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestAgents_StoredWhenAnswered: once POST /agents has answered with a finished document, the
// stored record is final too (a client that reads the store, or a crash right after the answer,
// must not see a run still "running").
func TestAgents_StoredWhenAnswered(t *testing.T) {
	f := newFixture(t)
	for i := range 20 {
		r := f.do(t, "POST", "/agents", agent(f.key, "g", `{"type":"print","text":"hi"}`), "")
		if r.status != 200 {
			t.Fatalf("status %d: %s", r.status, r.raw)
		}
		rec, err := f.db.GetRun(store.DefaultAccount, r.body["run_id"].(string))
		if err != nil {
			t.Fatal(err)
		}
		if rec.Status != "succeeded" {
			t.Fatalf("run %d: answered succeeded but stored as %q", i, rec.Status)
		}
	}
}

func TestRuns_NotFound(t *testing.T) {
	f := newFixture(t)
	r := f.do(t, "POST", "/agents", agent(f.otherKey, "theirs", `{"type":"print","text":"secret"}`), "")
	if r.status != 200 {
		t.Fatalf("status %d: %s", r.status, r.raw)
	}
	theirs := r.body["run_id"].(string)
	cases := []struct {
		name, method, path, bearer string
		status                     int
		code                       string
	}{
		{"unknown run", "GET", "/runs/r_00000000000000000000000000", f.key, 404, "not_found"},
		{"another account's run", "GET", "/runs/" + theirs, f.key, 404, "not_found"},
		{"another account's run events", "GET", "/runs/" + theirs + "/events", f.key, 404, "not_found"},
		{"cancel another account's run", "POST", "/runs/" + theirs + "/cancel", f.key, 404, "not_found"},
		{"cancel an unknown run", "POST", "/runs/r_nope/cancel", f.key, 404, "not_found"},
		{"run without a key", "GET", "/runs/" + theirs, "", 401, "invalid_key"},
		{"list without a key", "GET", "/runs", "", 401, "invalid_key"},
		{"unknown route", "GET", "/no/such/thing", f.key, 404, "not_found"},
		{"unknown route without a key", "DELETE", "/agents/x", "", 404, "not_found"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := f.do(t, tc.method, tc.path, "", tc.bearer)
			checkError(t, got, tc.status, tc.code, nil)
			if strings.Contains(string(got.raw), "secret") {
				t.Errorf("the answer leaks the other account's run: %s", got.raw)
			}
		})
	}
	// The other account still sees its own run, and only it.
	l := f.do(t, "GET", "/runs", "", f.key)
	if runs, _ := l.body["runs"].([]any); l.status != 200 || len(runs) != 0 {
		t.Errorf("GET /runs of the default account lists another account's runs: %s", l.raw)
	}
	own := f.do(t, "GET", "/runs/"+theirs, "", f.otherKey)
	if own.status != 200 || own.body["run_id"] != theirs {
		t.Errorf("the owner cannot read its run: %d %s", own.status, own.raw)
	}
}

func TestRuns_ListNewestFirst(t *testing.T) {
	f := newFixture(t)
	var ids []string
	for _, goal := range []string{"first", "second", "third"} {
		r := f.do(t, "POST", "/agents", agent(f.key, goal, `{"type":"print","text":"`+goal+`"}`), "")
		if r.status != 200 {
			t.Fatalf("status %d: %s", r.status, r.raw)
		}
		ids = append(ids, r.body["run_id"].(string))
	}
	r := f.do(t, "GET", "/runs", "", f.key)
	if r.status != 200 {
		t.Fatalf("status %d: %s", r.status, r.raw)
	}
	var list struct {
		Runs []struct {
			RunID  string `json:"run_id"`
			Status string `json:"status"`
			Goal   string `json:"goal"`
			Steps  int    `json:"steps"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(r.raw, &list); err != nil {
		t.Fatal(err)
	}
	want := []string{"third", "second", "first"}
	if len(list.Runs) != 3 {
		t.Fatalf("GET /runs: %s", r.raw)
	}
	for i, run := range list.Runs {
		if run.Goal != want[i] || run.RunID != ids[2-i] || run.Status != "succeeded" || run.Steps != 1 {
			t.Errorf("runs[%d] = %+v, want goal %s, id %s, succeeded with 1 step", i, run, want[i], ids[2-i])
		}
	}
	// Pagination: limit=2 gives the two newest and a link to the rest.
	p := f.do(t, "GET", "/runs?limit=2", "", f.key)
	page, _ := p.body["runs"].([]any)
	next, _ := p.body["next"].(string)
	if len(page) != 2 || next == "" {
		t.Fatalf("GET /runs?limit=2: %s", p.raw)
	}
	rest := f.do(t, "GET", next, "", f.key)
	if runs, _ := rest.body["runs"].([]any); len(runs) != 1 || runs[0].(map[string]any)["run_id"] != ids[0] {
		t.Errorf("GET %s: %s", next, rest.raw)
	}
}

func TestRuns_Cancel(t *testing.T) {
	f := newFixture(t)
	r := f.do(t, "POST", "/agents?wait=false", agent(f.key, "long",
		`{"type":"print","text":"before"}`, `{"type":"delay","time":60}`, `{"type":"print","text":"never"}`), "")
	if r.status != 202 {
		t.Fatalf("status %d: %s", r.status, r.raw)
	}
	id := r.body["run_id"].(string)
	waitSteps(t, f, id, 1)
	time.Sleep(100 * time.Millisecond) // into the delay
	start := time.Now()
	c := f.do(t, "POST", "/runs/"+id+"/cancel", "", f.key)
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("cancel took %s", took)
	}
	if c.status != 200 || c.body["status"] != "canceled" {
		t.Fatalf("POST /runs/{id}/cancel: %d %s", c.status, c.raw)
	}
	var doc scripts.Doc
	if err := json.Unmarshal(c.raw, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Error == nil || doc.Error.Code != "canceled" {
		t.Errorf("run error = %+v, want code canceled", doc.Error)
	}
	if doc.DurationMS > 2000 {
		t.Errorf("the canceled run lasted %dms", doc.DurationMS)
	}
	if len(doc.Steps) != 3 || doc.Steps[0].Status != "ok" || doc.Steps[2].Status != "skipped" {
		t.Fatalf("steps after cancel: %s", c.raw)
	}
	switch d := doc.Steps[1]; d.Status { // the delay was cut short (or, on a very slow machine, never began)
	case "failed":
		if d.Error == nil || d.Error.Code != "canceled" {
			t.Errorf("the canceled delay's error = %+v, want code canceled", d.Error)
		}
	case "skipped":
	default:
		t.Errorf("the canceled delay is %s", d.Status)
	}
	// The stored document says canceled too, and canceling again changes nothing.
	g := f.do(t, "GET", "/runs/"+id, "", f.key)
	if g.body["status"] != "canceled" {
		t.Errorf("GET after cancel: %s", g.raw)
	}
	again := f.do(t, "POST", "/runs/"+id+"/cancel", "", f.key)
	if again.status != 200 || again.body["status"] != "canceled" {
		t.Errorf("second cancel: %d %s", again.status, again.raw)
	}
}

// waitSteps waits until the run's document holds n steps.
func waitSteps(t *testing.T, f *fixture, id string, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		g := f.do(t, "GET", "/runs/"+id, "", f.key)
		if steps, _ := g.body["steps"].([]any); len(steps) >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("run %s never got %d steps: %s", id, n, g.raw)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// sseEvent is one Server-Sent Event.
type sseEvent struct {
	name string
	data string
	at   time.Time
}

// readSSE reads events until the stream ends or ctx does.
func readSSE(t *testing.T, ctx context.Context, url, key string) []sseEvent {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		b, _ := io.ReadAll(res.Body)
		t.Fatalf("GET %s: %d %s: %s", url, res.StatusCode, res.Header.Get("Content-Type"), b)
	}
	var events []sseEvent
	var cur sseEvent
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.name != "" || cur.data != "" {
				cur.at = time.Now()
				events = append(events, cur)
			}
			cur = sseEvent{}
		case strings.HasPrefix(line, "event:"):
			cur.name = strings.TrimSpace(strings.TrimPrefix(line, "event:"))
		case strings.HasPrefix(line, "data:"):
			cur.data += strings.TrimSpace(strings.TrimPrefix(line, "data:"))
		}
	}
	if ctx.Err() != nil {
		t.Fatalf("the event stream did not end: %v (got %d events)", ctx.Err(), len(events))
	}
	return events
}

// checkStepsThenDone asserts one step event per step, in order, then done with the document.
func checkStepsThenDone(t *testing.T, events []sseEvent, id string, steps int) []sseEvent {
	t.Helper()
	var stepEvents []sseEvent
	for i, ev := range events {
		var payload scripts.Event
		if err := json.Unmarshal([]byte(ev.data), &payload); err != nil {
			t.Fatalf("event %d (%s) data is not JSON: %v: %s", i, ev.name, err, ev.data)
		}
		if payload.RunID != id || payload.Type != ev.name {
			t.Errorf("event %d: %s with run %s, type %s", i, ev.name, payload.RunID, payload.Type)
		}
		switch ev.name {
		case "step":
			if payload.Step == nil || payload.Step.Index != len(stepEvents) || payload.Step.Status != "ok" {
				t.Errorf("step event %d: %s", len(stepEvents), ev.data)
			}
			stepEvents = append(stepEvents, ev)
		case "done":
			if i != len(events)-1 {
				t.Errorf("done is event %d of %d: it must be the last", i, len(events))
			}
			if payload.Doc == nil || payload.Doc.Status != "succeeded" || len(payload.Doc.Steps) != steps {
				t.Errorf("done event: %s", ev.data)
			}
		}
	}
	if len(stepEvents) != steps {
		t.Errorf("%d step events, want %d", len(stepEvents), steps)
	}
	if len(events) == 0 || events[len(events)-1].name != "done" {
		t.Fatalf("the stream does not end with done: %+v", events)
	}
	return stepEvents
}

// TestRuns_Events streams a live run over a real socket (app.Test cannot stream), then replays
// the finished run from the store.
func TestRuns_Events(t *testing.T) {
	f := newFixture(t)
	base := f.listen(t)

	r := f.do(t, "POST", "/agents?wait=false", agent(f.key, "stream",
		`{"type":"print","text":"one"}`, `{"type":"delay","time":1}`, `{"type":"print","text":"three"}`), "")
	if r.status != 202 {
		t.Fatalf("status %d: %s", r.status, r.raw)
	}
	id := r.body["run_id"].(string)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	events := readSSE(t, ctx, base+"/runs/"+id+"/events", f.key)
	steps := checkStepsThenDone(t, events, id, 3)
	if len(steps) == 3 {
		// Live: the first step arrived while the one-second delay was still going on.
		if gap := events[len(events)-1].at.Sub(steps[0].at); gap < 700*time.Millisecond {
			t.Errorf("the first step event came only %s before done: events are not streamed as they happen", gap)
		}
	}

	// A finished run replays the same steps from the store.
	replay := readSSE(t, ctx, base+"/runs/"+id+"/events", f.key)
	checkStepsThenDone(t, replay, id, 3)

	// Events need the key of the run's account.
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/runs/"+id+"/events", nil)
	req.Header.Set("Authorization", "Bearer "+f.otherKey)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 404 {
		t.Errorf("another account's events: status %d, want 404", res.StatusCode)
	}
}

func TestNodes(t *testing.T) {
	f := newFixture(t)
	r := f.do(t, "GET", "/nodes", "", "")
	if r.status != 200 {
		t.Fatalf("status %d: %s", r.status, r.raw)
	}
	var cat struct {
		Nodes []scripts.Spec `json:"nodes"`
	}
	if err := json.Unmarshal(r.raw, &cat); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]scripts.Spec{}
	for _, s := range cat.Nodes {
		kinds[s.Kind] = s
	}
	for _, k := range []string{"delay", "print", "click", "keypress", "open tab", "semanticScrape"} {
		if _, ok := kinds[k]; !ok {
			t.Errorf("GET /nodes does not list %q", k)
		}
	}
	delay := kinds["delay"]
	p, ok := delay.Param("time")
	if !ok || p.Type != scripts.Number || !p.Required || p.Description == "" {
		t.Errorf("delay's time param = %+v", p)
	}
	click := kinds["click"]
	// target is required in the browser only (a desktop click, browser_mode false, has x/y).
	if p, ok := click.Param("target"); !ok || p.Type != scripts.String || !click.Browser || click.DesktopWhen == "" {
		t.Errorf("click: %+v", click)
	}
	if p, ok := click.Param("browser_mode"); !ok || p.Default != true {
		t.Errorf("click's browser_mode default = %+v, want true", p)
	}
}

func TestHealthz(t *testing.T) {
	f := newFixture(t)
	r := f.do(t, "GET", "/healthz", "", "")
	if r.status != 200 || r.body["status"] != "ok" || r.body["version"] != "test" || r.body["runs_active"] != float64(0) {
		t.Fatalf("GET /healthz: %d %s", r.status, r.raw)
	}
	f.do(t, "POST", "/agents?wait=false", agent(f.key, "busy", `{"type":"delay","time":30}`), "")
	deadline := time.Now().Add(3 * time.Second)
	for {
		r = f.do(t, "GET", "/healthz", "", "")
		if r.body["runs_active"] == float64(1) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("runs_active never became 1: %s", r.raw)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestMetrics(t *testing.T) {
	f := newFixture(t)
	if r := f.do(t, "POST", "/agents", agent(f.key, "m", `{"type":"print","text":"x"}`), ""); r.status != 200 {
		t.Fatalf("status %d: %s", r.status, r.raw)
	}
	if r := f.do(t, "POST", "/agents", agent(f.key, "m", `{"type":"delay","time":"{{nope}}"}`), ""); r.status != 200 || r.body["status"] != "failed" {
		t.Fatalf("a run with an unset variable: %d %s", r.status, r.raw)
	}
	want := []string{`rodeo_runs_total{status="succeeded"} 1`, `rodeo_runs_total{status="failed"} 1`,
		`rodeo_step_duration_seconds_count{status="ok",type="print"} 1`, "rodeo_runs_active 0"}
	deadline := time.Now().Add(3 * time.Second)
	for {
		r := f.do(t, "GET", "/metrics", "", "")
		if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/plain") {
			t.Fatalf("GET /metrics: %d %s", r.status, r.header.Get("Content-Type"))
		}
		var missing []string
		for _, w := range want {
			if !strings.Contains(string(r.raw), w) {
				missing = append(missing, w)
			}
		}
		if len(missing) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("GET /metrics lacks %q:\n%s", missing, grep(string(r.raw), "rodeo_"))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func grep(text, prefix string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestInternalError: a failure without a code (here the store is gone) shows only "internal
// error" and a request id that is also in the log line, never the cause.
func TestInternalError(t *testing.T) {
	f := newFixture(t)
	if err := f.db.Close(); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/runs", "/runs/r_x"} {
		r := f.do(t, "GET", path, "", f.key)
		checkError(t, r, 500, "internal", nil)
		e := errorOf(t, r)
		if e.Message != "internal error" {
			t.Errorf("message = %q, want just \"internal error\"", e.Message)
		}
		if e.RequestID == "" {
			t.Fatalf("no request_id: %s", r.raw)
		}
		if h := r.header.Get("X-Request-Id"); h != "" && h != e.RequestID {
			t.Errorf("request_id %s differs from the X-Request-ID header %s", e.RequestID, h)
		}
		if len(e.Details) != 0 || strings.Contains(strings.ToLower(string(r.raw)), "database") {
			t.Errorf("the answer shows internals: %s", r.raw)
		}
		logs := f.logs.String()
		if !strings.Contains(logs, e.RequestID) || !strings.Contains(logs, "database not open") {
			t.Errorf("the log has no line with request id %s and the cause:\n%s", e.RequestID, logs)
		}
	}
}

// TestRateLimit_429PerKey: past the per-key limit the API answers 429 rate_limited with
// Retry-After; other keys go on, and a bad key is still 401 (it costs no token).
func TestRateLimit_429PerKey(t *testing.T) {
	f := newFixture(t)
	srv := server.New(server.Config{Engine: f.engine, Registry: scripts.DefaultRegistry, Store: f.db, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), RateLimit: 2})
	f.srv = srv
	for i := 0; i < 2; i++ {
		if r := f.do(t, "GET", "/runs", "", f.key); r.status != 200 {
			t.Fatalf("request %d: %d %s", i, r.status, r.raw)
		}
	}
	r := f.do(t, "GET", "/runs", "", f.key)
	if r.status != 429 || r.header.Get("Retry-After") != "30" || errorOf(t, r).Code != "rate_limited" {
		t.Fatalf("3rd request: %d %v %s", r.status, r.header, r.raw)
	}
	if r := f.do(t, "GET", "/runs", "", f.otherKey); r.status != 200 {
		t.Fatalf("other key: %d %s", r.status, r.raw)
	}
	if r := f.do(t, "GET", "/runs", "", "rk_nope"); r.status != 401 {
		t.Fatalf("bad key: %d %s", r.status, r.raw)
	}
}
