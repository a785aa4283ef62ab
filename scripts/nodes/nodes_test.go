package nodes_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/browser"
	"github.com/rodeo-run/rodeo/browser/browsertest"
	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
	_ "github.com/rodeo-run/rodeo/scripts/nodes"
)

var (
	poolOnce sync.Once
	pool     *browser.Pool
	poolErr  error
)

// testPool is one real warm pool per test binary.
func testPool(t testing.TB) *browser.Pool {
	t.Helper()
	if testing.Short() {
		t.Skip("browser test: skipped with -short")
	}
	poolOnce.Do(func() {
		pool, poolErr = browser.NewPool(context.Background(), browser.Config{Contexts: 2, Flags: browsertest.OfflineFlags})
	})
	if poolErr != nil {
		t.Fatalf("pool: %v", poolErr)
	}
	return pool
}

func TestMain(m *testing.M) {
	code := m.Run()
	if pool != nil {
		_ = pool.Close()
	}
	stopDesktop()
	os.Exit(code)
}

// run compiles and executes nodes (a JSON array, %s replaced by the fixture server's URL).
func run(t *testing.T, nodes string, data map[string]any) scripts.Doc {
	t.Helper()
	p := testPool(t)
	base := browsertest.Serve(t, "testdata")
	nodes = strings.ReplaceAll(nodes, "BASE", base)
	var raw []json.RawMessage
	if err := json.Unmarshal([]byte(nodes), &raw); err != nil {
		t.Fatalf("test JSON: %v", err)
	}
	s, err := scripts.DefaultRegistry.Compile(t.Name(), raw, data)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	runner := &scripts.Runner{Registry: scripts.DefaultRegistry, Browsers: scripts.LeaserFunc(func(ctx context.Context) (scripts.BrowserSession, error) {
		s, err := p.Lease(ctx)
		if err != nil {
			return nil, err
		}
		return s, nil
	})}
	r := scripts.NewRun("r_"+strings.ReplaceAll(t.Name(), "/", "_"), "test", "test", s)
	runner.Execute(context.Background(), r, scripts.ExecOptions{Timeout: time.Minute})
	return r.Doc()
}

// stepErr returns step i's error code ("" when it passed).
func stepErr(d scripts.Doc, i int) string {
	if i >= len(d.Steps) || d.Steps[i].Error == nil {
		return ""
	}
	return d.Steps[i].Error.Code
}

func hasCheck(s scripts.Step, name string) bool {
	if s.Verification == nil {
		return false
	}
	for _, c := range s.Verification.Checks {
		if c.Name == name && c.Passed {
			return true
		}
	}
	return false
}

func dump(d scripts.Doc) string {
	b, _ := json.MarshalIndent(d, "", " ")
	return string(b)
}

func TestOpenTab(t *testing.T) {
	d := run(t, `[{"type": "open tab", "target": "BASE/actions.html"}]`, nil)
	if d.Status != scripts.StatusSucceeded || !hasCheck(d.Steps[0], "http_status") || !hasCheck(d.Steps[0], "navigation_committed") {
		t.Fatal(dump(d))
	}
	if d.Steps[0].Detail["status"] != 200 {
		t.Fatalf("status detail %v", d.Steps[0].Detail["status"])
	}
}

func TestOpenTab_Failures(t *testing.T) {
	cases := []struct{ name, target, code string }{
		{"404", "BASE/missing.html", errs.NavigationFailed},
		{"refused", "http://127.0.0.1:1/", errs.NavigationFailed},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := run(t, `[{"type": "open tab", "target": "`+c.target+`"}]`, nil)
			if d.Status != scripts.StatusFailed || stepErr(d, 0) != c.code {
				t.Fatal(dump(d))
			}
		})
	}
}

func TestOpenTab_RefusesLocalFiles(t *testing.T) {
	d := run(t, `[{"type": "open tab", "target": "file:///etc/passwd"}]`, nil)
	if stepErr(d, 0) != errs.InvalidConfig || !strings.Contains(d.Steps[0].Error.Message, "only http and https") {
		t.Fatal(dump(d))
	}
}

func TestOpenTab_SecondTabIsNewAndCurrent(t *testing.T) {
	d := run(t, `[{"type": "open tab", "target": "BASE/blank.html"}, {"type": "open tab", "target": "BASE/actions.html"},
		{"type": "semanticScrape", "target": "the main heading", "data": "h"}]`, nil)
	if d.Status != scripts.StatusSucceeded || d.Data["h"] != "Account settings" {
		t.Fatal(dump(d))
	}
}

func TestClick_ChangesThePage(t *testing.T) {
	d := run(t, `[{"type": "open tab", "target": "BASE/actions.html"},
		{"type": "click", "target": "the Display name field"},
		{"type": "keypress", "prompt": "Grace"},
		{"type": "click", "target": "the \"Save changes\" button"},
		{"type": "semanticScrape", "target": "the status message", "data": "status"}]`, nil)
	if d.Status != scripts.StatusSucceeded || d.Data["status"] != "Saved Grace" {
		t.Fatal(dump(d))
	}
	if !hasCheck(d.Steps[1], "focus_changed") || !hasCheck(d.Steps[3], "dom_changed") {
		t.Fatal(dump(d))
	}
	res, _ := d.Steps[3].Detail["resolved"].(map[string]any)
	if res["selector"] != "#save" || res["by"] != "heuristic" {
		t.Fatalf("resolved %v", res)
	}
}

func TestClick_Navigation(t *testing.T) {
	d := run(t, `[{"type": "open tab", "target": "BASE/navigate.html"}, {"type": "click", "target": "the link to the next page"},
		{"type": "semanticScrape", "target": "the paragraph", "data": "p"}]`, nil)
	if d.Status != scripts.StatusSucceeded || !hasCheck(d.Steps[1], "url_changed") || d.Data["p"] != "Nothing to see here." {
		t.Fatal(dump(d))
	}
}

func TestClick_Checkbox(t *testing.T) {
	d := run(t, `[{"type": "open tab", "target": "BASE/actions.html"}, {"type": "click", "target": "the send me news checkbox"}]`, nil)
	if d.Status != scripts.StatusSucceeded || !hasCheck(d.Steps[1], "state_changed") {
		t.Fatal(dump(d))
	}
}

// TestClick_RequestIsAnEffect: a click whose only effect is a request (a beacon, a "ping")
// passes its verification, and the check says which request it saw.
func TestClick_RequestIsAnEffect(t *testing.T) {
	d := run(t, `[{"type": "open tab", "target": "BASE/actions.html"}, {"type": "click", "target": "the Send a ping button"}]`, nil)
	if d.Status != scripts.StatusSucceeded || !hasCheck(d.Steps[1], "request_started") {
		t.Fatal(dump(d))
	}
	for _, c := range d.Steps[1].Verification.Checks {
		if c.Name == "request_started" && !strings.Contains(c.Detail, "blank.html?ping=1") {
			t.Errorf("request_started says %q, not the ping's address", c.Detail)
		}
	}
}

func TestClick_Failures(t *testing.T) {
	cases := []struct {
		name, target, code string
		attempts           int
	}{
		{"not found", "the purple elephant button", errs.TargetNotFound, 3},
		{"changed nothing", "the Do nothing button", errs.VerificationFailed, 3},
		{"ambiguous", "the Item link", errs.AmbiguousTarget, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := run(t, `[{"type": "open tab", "target": "BASE/actions.html"}, {"type": "click", "target": "`+c.target+`"}, {"type": "delay", "time": 0}]`, nil)
			s := d.Steps[1]
			if d.Status != scripts.StatusFailed || stepErr(d, 1) != c.code || s.Verification == nil || s.Verification.Attempts != c.attempts {
				t.Fatal(dump(d))
			}
			if d.Steps[2].Status != scripts.StepSkipped {
				t.Fatalf("the node after a failure must be skipped: %+v", d.Steps[2])
			}
		})
	}
}

func TestClick_MatchPicksAmongTies(t *testing.T) {
	for _, c := range []struct{ match, want string }{{`"first"`, "#item1"}, {`"last"`, "#item2"}, {`2`, "#item2"}} {
		d := run(t, `[{"type": "open tab", "target": "BASE/actions.html"}, {"type": "click", "target": "the Item link", "match": `+c.match+`}]`, nil)
		res, _ := d.Steps[1].Detail["resolved"].(map[string]any)
		if d.Status != scripts.StatusSucceeded || res["selector"] != c.want {
			t.Fatalf("match %s: %s", c.match, dump(d))
		}
	}
}

func TestKeypress(t *testing.T) {
	cases := []struct {
		name, nodes, scrape, want string
	}{
		{"text and enter", `{"type": "click", "target": "the search box"}, {"type": "keypress", "prompt": "dark mode"}, {"type": "keypress", "prompt": "enter"}`,
			"the results", "Results for dark mode"},
		{"unicode", `{"type": "click", "target": "the search box"}, {"type": "keypress", "prompt": "Zoë 東京"}, {"type": "keypress", "prompt": "return"}`,
			"the results", "Results for Zoë 東京"},
		{"special words and backspace", `{"type": "click", "target": "the search box"}, {"type": "keypress", "prompt": "ab"}, {"type": "keypress", "prompt": "backspace"},
			{"type": "keypress", "prompt": "period"}, {"type": "keypress", "prompt": "slash"}, {"type": "keypress", "prompt": "space"}, {"type": "keypress", "prompt": "enter"}`,
			"the results", "Results for a./"},
		{"shift hold", `{"type": "click", "target": "the search box"}, {"type": "keypress", "prompt": "shift"}, {"type": "keypress", "prompt": "x"}, {"type": "keypress", "prompt": "y"}, {"type": "keypress", "prompt": "enter"}`,
			"the results", "Results for Xy"},
		{"combo", `{"type": "click", "target": "the search box"}, {"type": "keypress", "prompt": "ctrl+k"}`,
			"the paragraph with id keys", "palette"},
		{"templated text", `{"type": "click", "target": "the search box"}, {"type": "keypress", "prompt": "{{query}}"}, {"type": "keypress", "prompt": "enter"}`,
			"the results", "Results for from a variable"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := run(t, `[{"type": "open tab", "target": "BASE/actions.html"}, `+c.nodes+`, {"type": "semanticScrape", "target": "`+c.scrape+`", "data": "out"}]`,
				map[string]any{"query": "from a variable"})
			if d.Status != scripts.StatusSucceeded || strings.TrimSpace(fmt.Sprint(d.Data["out"])) != c.want {
				t.Fatal(dump(d))
			}
		})
	}
}

func TestKeypress_TabMovesFocus(t *testing.T) {
	d := run(t, `[{"type": "open tab", "target": "BASE/actions.html"}, {"type": "click", "target": "the Display name field"}, {"type": "keypress", "prompt": "tab"}]`, nil)
	if d.Status != scripts.StatusSucceeded || !hasCheck(d.Steps[2], "focus_changed") {
		t.Fatal(dump(d))
	}
}

func TestKeypress_PasswordIsNotEchoed(t *testing.T) {
	d := run(t, `[{"type": "open tab", "target": "BASE/actions.html"}, {"type": "click", "target": "the password field"}, {"type": "keypress", "prompt": "s3cret-Value"}]`, nil)
	if d.Status != scripts.StatusSucceeded {
		t.Fatal(dump(d))
	}
	if strings.Contains(dump(d), "s3cret-Value") {
		t.Fatalf("the typed password shows in the run document: %s", dump(d))
	}
}

func TestKeypress_NothingFocused(t *testing.T) {
	d := run(t, `[{"type": "open tab", "target": "BASE/actions.html"}, {"type": "keypress", "prompt": "hello"}]`, nil)
	if stepErr(d, 1) != errs.TargetNotFound || !strings.Contains(d.Steps[1].Error.Message, "click a field first") {
		t.Fatal(dump(d))
	}
}

func TestSemanticScrape(t *testing.T) {
	d := run(t, `[{"type": "open tab", "target": "BASE/late.html"}, {"type": "semanticScrape", "target": "the order total", "data": "total"}]`, nil)
	if d.Status != scripts.StatusSucceeded || !strings.Contains(fmt.Sprint(d.Data["total"]), "$42.00") {
		t.Fatal(dump(d))
	}
}

func TestSemanticScrape_NotFound(t *testing.T) {
	d := run(t, `[{"type": "open tab", "target": "BASE/blank.html"}, {"type": "semanticScrape", "target": "the shipping address table", "data": "x"}]`, nil)
	if d.Status != scripts.StatusFailed || stepErr(d, 1) != errs.TargetNotFound {
		t.Fatal(dump(d))
	}
}

func TestScroll(t *testing.T) {
	d := run(t, `[{"type": "open tab", "target": "BASE/actions.html"}, {"type": "scroll", "distance": 500}, {"type": "scroll", "distance": -100000}, {"type": "scroll", "distance": -10}]`, nil)
	if d.Status != scripts.StatusSucceeded || !hasCheck(d.Steps[1], "scrolled") || !hasCheck(d.Steps[2], "scrolled") || !hasCheck(d.Steps[3], "at_end") {
		t.Fatal(dump(d))
	}
}

func TestDelayAndPrint(t *testing.T) {
	start := time.Now()
	d := run(t, `[{"type": "delay", "time": 0.2}, {"type": "print", "variables": ["name", "unset"], "text": "hi {{name}}"}]`, map[string]any{"name": "Ada"})
	if d.Status != scripts.StatusSucceeded || time.Since(start) < 200*time.Millisecond || !hasCheck(d.Steps[0], "paused") {
		t.Fatal(dump(d))
	}
	vals, _ := d.Steps[1].Detail["values"].(map[string]any)
	if vals["name"] != "Ada" || d.Steps[1].Detail["text"] != "hi Ada" {
		t.Fatal(dump(d))
	}
}

func TestBrowserlessScriptLeasesNoBrowser(t *testing.T) {
	p := testPool(t)
	before := p.Stats().Leases
	d := run(t, `[{"type": "delay", "time": 0}]`, nil)
	if d.Status != scripts.StatusSucceeded || p.Stats().Leases != before {
		t.Fatalf("a script without browser nodes leased a browser: %s", dump(d))
	}
}

func TestCrash_FailsTheRunAtOnceAndThePoolHeals(t *testing.T) {
	p := testPool(t)
	base := browsertest.Serve(t, "testdata")
	var raw []json.RawMessage
	_ = json.Unmarshal([]byte(`[{"type": "open tab", "target": "`+base+`/blank.html"}, {"type": "delay", "time": 30}, {"type": "print", "text": "never"}]`), &raw)
	s, err := scripts.DefaultRegistry.Compile("crash", raw, nil)
	if err != nil {
		t.Fatal(err)
	}
	leased := make(chan *browser.Session, 1)
	runner := &scripts.Runner{Registry: scripts.DefaultRegistry, Browsers: scripts.LeaserFunc(func(ctx context.Context) (scripts.BrowserSession, error) {
		s, err := p.Lease(ctx)
		if err != nil {
			return nil, err
		}
		leased <- s
		return s, nil
	})}
	r := scripts.NewRun("r_crash", "test", "test", s)
	go runner.Execute(context.Background(), r, scripts.ExecOptions{Timeout: time.Minute})
	sess := <-leased
	for r.Doc().Steps == nil || len(r.Doc().Steps) < 1 {
		time.Sleep(10 * time.Millisecond)
	}
	killed := time.Now()
	if err := syscall.Kill(sess.PID(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	select {
	case <-r.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the run did not notice its browser died")
	}
	d := r.Doc()
	if d.Status != scripts.StatusFailed || d.Error == nil || d.Error.Code != errs.BrowserCrashed || stepErr(d, 1) != errs.BrowserCrashed || d.Steps[2].Status != scripts.StepSkipped {
		t.Fatal(dump(d))
	}
	t.Logf("run failed %s after the kill", time.Since(killed).Round(time.Millisecond))
	// The next run works on a replacement browser.
	d = run(t, `[{"type": "open tab", "target": "BASE/blank.html"}, {"type": "semanticScrape", "target": "the paragraph", "data": "p"}]`, nil)
	if d.Status != scripts.StatusSucceeded {
		t.Fatal(dump(d))
	}
}
