package main

// End-to-end tests: the real rodeo binary as a subprocess, the real Debian Chromium, real bbolt
// files, real HTTP. One top-level test builds the binary once and shares it (and one main server)
// across subtests; every process it starts, Chrome included, is found by its private HOME/TMPDIR
// and killed at the end, and a process that outlives its server fails the test.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/store"
)

// offlineFlag keeps the tests' Chrome off the network: only loopback resolves.
const offlineFlag = "host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost,EXCLUDE 127.0.0.1"

// e2e is the shared state of TestE2E.
type e2e struct {
	root string // everything of this test lives here
	bin  string // the rodeo binary
	site string // base URL of testdata/site
	seq  int
}

// builtRodeo is the rodeo binary built once for every end-to-end test of this run, in
// builtDir (removed by TestMain); each test runs its own hard link of it inside its root, so
// the processes a test starts still name that root and reap finds them.
var (
	buildOnce  sync.Once
	builtDir   string
	builtRodeo string
	buildErr   error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if builtDir != "" {
		os.RemoveAll(builtDir)
	}
	os.Exit(code)
}

// newE2E is what every end-to-end test starts from: Chrome present, the rodeo binary in the
// test's own root, the testdata/site server, and a last cleanup that kills whatever the test
// started and left running.
func newE2E(t *testing.T) *e2e {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end tests start Chrome; skipped with -short")
	}
	if _, err := exec.LookPath("chromium"); err != nil && os.Getenv("RODEO_CHROME") == "" {
		t.Fatal("no chromium on PATH: `make test` installs it (apt-get install chromium), or set RODEO_CHROME")
	}
	buildOnce.Do(func() {
		if builtDir, buildErr = os.MkdirTemp("", "rodeo-e2e-"); buildErr != nil {
			return
		}
		builtRodeo = filepath.Join(builtDir, "rodeo")
		if out, err := exec.Command("go", "build", "-o", builtRodeo, ".").CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	e := &e2e{root: t.TempDir()}
	e.bin = filepath.Join(e.root, "rodeo")
	if err := os.Link(builtRodeo, e.bin); err != nil {
		t.Fatalf("link the rodeo binary: %v", err)
	}
	site := httptest.NewServer(http.FileServer(http.Dir("testdata/site")))
	t.Cleanup(site.Close)
	e.site = site.URL
	// Last line of defense: nothing this test started may survive it.
	t.Cleanup(func() {
		if pids := reap(e.root, 5*time.Second); len(pids) > 0 {
			t.Errorf("processes outlived the test and were killed: %v", pids)
		}
	})
	return e
}

func TestE2E(t *testing.T) {
	e := newE2E(t)

	main := e.serve(t, filepath.Join(e.root, "data-main"), "--contexts", "2", "--lease-timeout", "500ms")
	if !strings.HasPrefix(main.key, "rk_") {
		t.Fatalf("the first start printed no API key; stdout:\n%s", main.stdout.String())
	}

	t.Run("Example", func(t *testing.T) { e.testExample(t, main) })
	t.Run("FailureCodes", func(t *testing.T) { e.testFailureCodes(t, main) })
	t.Run("Isolation", func(t *testing.T) { e.testIsolation(t, main) })
	t.Run("BrowserCrash", func(t *testing.T) { e.testCrash(t, main) })
	t.Run("SaturationAndDurability", e.testSaturationAndDurability)
	t.Run("RunCommand", e.testRunCommand)
	t.Run("NodesCommand", e.testNodesCommand)
	t.Run("KeysAndGracefulShutdown", e.testKeysAndShutdown)
}

// ---- the scripts ----

// exampleNodes is the example: sign up on the fixture form and read the confirmation.
func (e *e2e) exampleNodes() []map[string]any {
	return []map[string]any{
		{"type": "open tab", "target": e.site + "/form.html"},
		{"type": "click", "target": "the email field"},
		{"type": "keypress", "prompt": "ada@example.com"},
		{"type": "click", "target": "the button that says Submit"},
		{"type": "semanticScrape", "target": "the confirmation message", "data": "msg"},
	}
}

func (e *e2e) testExample(t *testing.T, s *rodeoServer) {
	doc := s.run(t, "sign up for the newsletter", e.exampleNodes())
	if doc.Status != "succeeded" || doc.Error != nil {
		t.Fatalf("run %s: %s", doc.Status, dump(doc))
	}
	if msg, _ := doc.Data["msg"].(string); !strings.Contains(msg, "ada@example.com") {
		t.Errorf("data.msg = %q, want the confirmation naming ada@example.com", msg)
	}
	if len(doc.Steps) != 5 {
		t.Fatalf("%d steps, want 5: %s", len(doc.Steps), dump(doc))
	}
	for i, st := range doc.Steps {
		if st.Index != i || st.Status != "ok" || st.Error != nil {
			t.Errorf("step %d (%s): %s %+v", i, st.Type, st.Status, st.Error)
		}
		if st.Verification == nil || !st.Verification.Passed || len(st.Verification.Checks) == 0 {
			t.Errorf("step %d (%s) has no passed verification with checks: %+v", i, st.Type, st.Verification)
		}
	}
	if r, _ := doc.Steps[1].Detail["resolved"].(map[string]any); r == nil || r["selector"] != "#email" {
		t.Errorf("\"the email field\" resolved to %v, want #email", doc.Steps[1].Detail["resolved"])
	}
	// The answer is also what GET /runs/{id} keeps.
	var stored scripts.Doc
	s.getJSON(t, "/runs/"+doc.RunID, 200, &stored)
	if stored.Status != "succeeded" || len(stored.Steps) != 5 || stored.Data["msg"] != doc.Data["msg"] {
		t.Errorf("GET /runs/%s: %s", doc.RunID, dump(stored))
	}
}

func (e *e2e) testFailureCodes(t *testing.T, s *rodeoServer) {
	never := map[string]any{"type": "print", "text": "must not run"}
	cases := []struct {
		name     string
		nodes    []map[string]any
		failed   int // index of the failing step
		code     string
		attempts int // at least this many attempts of the failing step
	}{
		{"target not found", []map[string]any{
			{"type": "open tab", "target": e.site + "/form.html"},
			{"type": "click", "target": "the purple elephant button"},
			never,
		}, 1, "target_not_found", 1},
		{"navigation to a 404", []map[string]any{
			{"type": "open tab", "target": e.site + "/no-such-page.html"},
			{"type": "semanticScrape", "target": "the heading", "data": "h"},
			never,
		}, 0, "navigation_failed", 1},
		{"click without effect", []map[string]any{
			{"type": "open tab", "target": e.site + "/noop.html"},
			{"type": "click", "target": "the button that says Do nothing"},
			never,
		}, 1, "verification_failed", 2},
		{"typing with nothing focused", []map[string]any{
			{"type": "open tab", "target": e.site + "/noop.html"},
			{"type": "keypress", "prompt": "hello"},
			never,
		}, 1, "target_not_found", 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			doc := s.run(t, tc.name, tc.nodes)
			if doc.Status != "failed" {
				t.Fatalf("run %s, want failed: %s", doc.Status, dump(doc))
			}
			if doc.Error == nil || doc.Error.Code != tc.code {
				t.Errorf("run error = %+v, want code %s", doc.Error, tc.code)
			}
			if len(doc.Steps) != len(tc.nodes) {
				t.Fatalf("%d steps for %d nodes: %s", len(doc.Steps), len(tc.nodes), dump(doc))
			}
			for i, st := range doc.Steps {
				switch {
				case i < tc.failed && st.Status != "ok":
					t.Errorf("step %d before the failure: %s %+v", i, st.Status, st.Error)
				case i == tc.failed:
					if st.Status != "failed" || st.Error == nil || st.Error.Code != tc.code || st.Error.Message == "" {
						t.Errorf("step %d: %s %+v, want failed with %s", i, st.Status, st.Error, tc.code)
					}
					if st.Verification == nil || st.Verification.Passed || st.Verification.Attempts < tc.attempts {
						t.Errorf("step %d verification = %+v, want not passed after >= %d attempts", i, st.Verification, tc.attempts)
					}
				case i > tc.failed && (st.Status != "skipped" || st.Error != nil):
					t.Errorf("step %d after the failure: %s, want skipped", i, st.Status)
				}
			}
		})
	}
}

// testIsolation: what one run leaves in its browser (cookies, localStorage) is gone for the next.
func (e *e2e) testIsolation(t *testing.T, s *rodeoServer) {
	nodes := []map[string]any{
		{"type": "open tab", "target": e.site + "/storage.html"},
		{"type": "semanticScrape", "target": "the earlier visit", "data": "earlier"},
		{"type": "semanticScrape", "target": "the text that says Remembered now", "data": "remembered"},
	}
	// Three runs on two contexts: a pool that reused a context would hand one back by the third.
	for i := range 3 {
		doc := s.run(t, fmt.Sprintf("visit %d", i+1), nodes)
		if doc.Status != "succeeded" {
			t.Fatalf("run %d: %s", i+1, dump(doc))
		}
		earlier, _ := doc.Data["earlier"].(string)
		remembered, _ := doc.Data["remembered"].(string)
		if !strings.Contains(remembered, "visitor=ada") || !strings.Contains(remembered, "ada-in-storage") {
			t.Fatalf("run %d: the page did not store its cookie and localStorage (remembered = %q)", i+1, remembered)
		}
		if !strings.Contains(earlier, "nothing") || strings.Contains(earlier, "ada") {
			t.Errorf("run %d found what an earlier run stored: %q", i+1, earlier)
		}
	}
}

// testCrash kills the Chrome of a running run: the run fails with browser_crashed at once, and
// the pool's replacement serves the next run.
func (e *e2e) testCrash(t *testing.T, s *rodeoServer) {
	id := s.startRun(t, "crash", []map[string]any{
		{"type": "open tab", "target": e.site + "/form.html"},
		{"type": "delay", "time": 10},
	})
	s.waitSteps(t, id, 1)
	// A helper Chrome has just forked and not yet exec'd looks like a second browser (same
	// name, same command line) for the moment a loaded machine takes to exec it.
	chromes := mainChromes(s.cmd.Process.Pid)
	for deadline := time.Now().Add(3 * time.Second); len(chromes) > 1 && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
		chromes = mainChromes(s.cmd.Process.Pid)
	}
	if len(chromes) != 1 {
		t.Fatalf("want the server's one browser process, found %v:\n%s", chromes, describeProcs(chromes))
	}
	if err := syscall.Kill(chromes[0], syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	doc := s.waitFinal(t, id, 15*time.Second)
	took := time.Since(killed)
	if doc.Status != "failed" {
		t.Errorf("run %s after its browser was killed, want failed (%s later): %s", doc.Status, took.Round(time.Millisecond), dump(doc))
	}
	crashed := false
	for _, st := range doc.Steps {
		crashed = crashed || st.Error != nil && st.Error.Code == "browser_crashed"
	}
	if !crashed {
		t.Errorf("no step failed with browser_crashed: %s", dump(doc))
	}
	if took > 5*time.Second {
		t.Errorf("the run took %s to notice its browser died", took.Round(time.Millisecond))
	}

	// The next run gets the replacement browser (a 503 while it starts is fine: retry as told).
	next := s.runRetrying(t, "after the crash", e.exampleNodes(), 30*time.Second)
	if next.Status != "succeeded" {
		t.Errorf("the run after the crash: %s", dump(next))
	}
	if after := mainChromes(s.cmd.Process.Pid); len(after) == 0 || slices.Contains(after, chromes[0]) {
		t.Errorf("browser processes after the crash: %v (killed %d)\n%s", after, chromes[0], describeProcs(after))
	}
	if m := s.metrics(t); !strings.Contains(m, "rodeo_pool_crashes_total 1") {
		t.Errorf("/metrics does not count the crash:\n%s", grepLines(m, "rodeo_pool"))
	}
}

func (e *e2e) testSaturationAndDurability(t *testing.T) {
	data := filepath.Join(e.root, "data-one")
	s := e.serve(t, data, "--contexts", "1", "--lease-timeout", "500ms")

	// Saturation: the only context is taken by a long run; a second browser run is refused.
	long := s.startRun(t, "hold the browser", []map[string]any{
		{"type": "open tab", "target": e.site + "/form.html"},
		{"type": "delay", "time": 5},
	})
	s.waitSteps(t, long, 1)
	begin := time.Now()
	st, hdr, raw := s.post(t, "/agents", agentBody(s.key, "one too many", []map[string]any{
		{"type": "open tab", "target": e.site + "/form.html"},
	}))
	if st != 503 {
		t.Fatalf("a second browser run on a full pool: %d %s, want 503", st, raw)
	}
	if took := time.Since(begin); took > 3*time.Second {
		t.Errorf("the 503 took %s (lease timeout 500ms)", took)
	}
	if code := errorCode(raw); code != "busy" {
		t.Errorf("error code %q, want busy: %s", code, raw)
	}
	if ra, err := strconv.Atoi(hdr.Get("Retry-After")); err != nil || ra < 1 {
		t.Errorf("Retry-After = %q, want a number of seconds", hdr.Get("Retry-After"))
	}
	// A run that needs no browser is not held up by the full pool.
	if doc := s.run(t, "no browser needed", []map[string]any{{"type": "delay", "time": 0.1}}); doc.Status != "succeeded" {
		t.Errorf("a non-browser run on a full pool: %s", dump(doc))
	}
	var list struct {
		Runs []struct {
			Goal string `json:"goal"`
		} `json:"runs"`
	}
	s.getJSON(t, "/runs", 200, &list)
	for _, r := range list.Runs {
		if r.Goal == "one too many" {
			t.Errorf("the refused run was stored")
		}
	}
	s.postOK(t, "/runs/"+long+"/cancel")
	if doc := s.waitFinal(t, long, 10*time.Second); doc.Status != "canceled" {
		t.Errorf("canceled run: %s", dump(doc))
	}

	// Durability: a finished run survives a SIGKILL of the server, and a run in progress comes
	// back failed with code interrupted.
	finished := s.runRetrying(t, "finished before the kill", e.exampleNodes(), 20*time.Second)
	if finished.Status != "succeeded" {
		t.Fatalf("run before the kill: %s", dump(finished))
	}
	var before map[string]any
	s.getJSON(t, "/runs/"+finished.RunID, 200, &before)
	inflight := s.startRun(t, "in flight at the kill", []map[string]any{{"type": "delay", "time": 60}})
	s.waitStatus(t, inflight, "running")
	s.kill(t)

	s2 := e.serve(t, data, "--contexts", "1", "--lease-timeout", "500ms")
	if s2.key != "" {
		t.Errorf("a restart printed an API key again")
	}
	s2.key = s.key
	var after map[string]any
	s2.getJSON(t, "/runs/"+finished.RunID, 200, &after)
	if !reflect.DeepEqual(before, after) {
		t.Errorf("the run document changed across the restart:\nbefore %v\nafter  %v", before, after)
	}
	var interrupted scripts.Doc
	s2.getJSON(t, "/runs/"+inflight, 200, &interrupted)
	if interrupted.Status != "failed" || interrupted.Error == nil || interrupted.Error.Code != "interrupted" || interrupted.Finished == nil {
		t.Errorf("the run in flight at the kill: %s", dump(interrupted))
	}
	// The restarted server works.
	if doc := s2.runRetrying(t, "after the restart", e.exampleNodes(), 20*time.Second); doc.Status != "succeeded" {
		t.Errorf("run after the restart: %s", dump(doc))
	}
}

func (e *e2e) testRunCommand(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cli := func(t *testing.T, stdin string, args ...string) (int, string, string) {
		t.Helper()
		args = append(args, "--chrome-flag", offlineFlag, "--data", filepath.Join(dir, "data"))
		return e.cli(t, stdin, args...)
	}
	t.Run("succeeded", func(t *testing.T) {
		file := write("ok.json", map[string]any{"goal": "sign up", "json_output": e.exampleNodes()})
		code, out, errOut := cli(t, "", "run", file)
		if code != 0 {
			t.Fatalf("exit %d, want 0\nstdout: %s\nstderr: %s", code, out, errOut)
		}
		var doc scripts.Doc
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("stdout is not the run document: %v\n%s", err, out)
		}
		if doc.Status != "succeeded" || len(doc.Steps) != 5 || !strings.Contains(fmt.Sprint(doc.Data["msg"]), "ada@example.com") {
			t.Errorf("document: %s", out)
		}
	})
	t.Run("failed", func(t *testing.T) {
		file := write("fail.json", map[string]any{"goal": "broken link", "json_output": []map[string]any{
			{"type": "open tab", "target": e.site + "/gone.html"}, {"type": "print", "text": "x"}}})
		code, out, errOut := cli(t, "", "run", file)
		if code != 1 {
			t.Fatalf("exit %d, want 1\nstdout: %s\nstderr: %s", code, out, errOut)
		}
		var doc scripts.Doc
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("stdout is not the run document: %v\n%s", err, out)
		}
		if doc.Status != "failed" || doc.Error == nil || doc.Error.Code != "navigation_failed" || doc.Steps[1].Status != "skipped" {
			t.Errorf("document: %s", out)
		}
	})
	t.Run("stdin without a browser", func(t *testing.T) {
		code, out, errOut := cli(t, `{"goal":"g","data":{"who":"Ada"},"json_output":[{"type":"print","text":"hi {{who}}"}]}`, "run", "-")
		if code != 0 || !strings.Contains(out, `"hi Ada"`) {
			t.Errorf("exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
		}
	})
	t.Run("invalid config", func(t *testing.T) {
		file := write("bad.json", map[string]any{"goal": "g", "json_output": []map[string]any{
			{"type": "teleport"}, {"type": "delay", "time": "soon"}}})
		code, out, errOut := cli(t, "", "run", file)
		if code != 2 {
			t.Fatalf("exit %d, want 2\nstdout: %s\nstderr: %s", code, out, errOut)
		}
		if strings.TrimSpace(out) != "" {
			t.Errorf("an invalid configuration printed a document: %s", out)
		}
		for _, want := range []string{"node 0", "teleport", "node 1", "time"} {
			if !strings.Contains(errOut, want) {
				t.Errorf("stderr does not mention %q: %s", want, errOut)
			}
		}
	})
	t.Run("a model threshold out of range", func(t *testing.T) {
		file := write("print.json", map[string]any{"goal": "g", "json_output": []map[string]any{{"type": "print", "text": "hi"}}})
		for _, v := range []string{"1.5", "0", "often"} {
			code, out, errOut := cli(t, "", "run", file, "--llm-below", v)
			if code != 2 || strings.TrimSpace(out) != "" || !strings.Contains(errOut, "RODEO_LLM_BELOW") || !strings.Contains(errOut, v) {
				t.Errorf("--llm-below %s: exit %d, want 2 and a message naming the setting and the value\nstdout: %s\nstderr: %s", v, code, out, errOut)
			}
		}
		if code, out, errOut := cli(t, "", "run", file, "--llm-below", "0.5"); code != 0 {
			t.Errorf("--llm-below 0.5: exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
		}
	})
	t.Run("malformed JSON", func(t *testing.T) {
		if code, _, errOut := cli(t, `{"goal":`, "run", "-"); code != 2 {
			t.Errorf("exit %d, want 2: %s", code, errOut)
		}
	})
	t.Run("missing file", func(t *testing.T) {
		if code, _, errOut := cli(t, "", "run", filepath.Join(dir, "nope.json")); code != 2 {
			t.Errorf("exit %d, want 2: %s", code, errOut)
		}
	})
}

func (e *e2e) testNodesCommand(t *testing.T) {
	code, out, errOut := e.cli(t, "", "nodes", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var specs []scripts.Spec
	if err := json.Unmarshal([]byte(out), &specs); err != nil {
		t.Fatalf("rodeo nodes --json does not parse: %v\n%s", err, out)
	}
	var click *scripts.Spec
	for i := range specs {
		if specs[i].Kind == "click" {
			click = &specs[i]
		}
	}
	if click == nil {
		t.Fatalf("rodeo nodes --json does not list click")
	}
	// target is required in the browser only (click's Validate): a desktop click has x/y.
	if p, ok := click.Param("target"); !ok || p.Type != scripts.String {
		t.Errorf("click's target: %+v", p)
	}
	if click.DesktopWhen == "" {
		t.Errorf("click is not marked as a desktop node with browser_mode false: %+v", click)
	}
	code, out, _ = e.cli(t, "", "nodes")
	if code != 0 || !strings.Contains(out, "click") || !strings.Contains(out, "target:string") {
		t.Errorf("rodeo nodes: exit %d\n%s", code, out)
	}
}

// testKeysAndShutdown manages keys on a stopped data directory, checks them against a server,
// then stops that server with SIGTERM while a run is in flight.
func (e *e2e) testKeysAndShutdown(t *testing.T) {
	data := filepath.Join(e.root, "data-keys")
	keys := func(t *testing.T, args ...string) (int, string, string) {
		t.Helper()
		return e.cli(t, "", append(append([]string{"keys"}, args...), "--data", data)...)
	}
	created := func(out string) (secret, id string) {
		for _, l := range strings.Split(out, "\n") {
			if v, ok := strings.CutPrefix(l, "api key: "); ok {
				secret = v
			}
			if v, ok := strings.CutPrefix(l, "id: "); ok {
				id = v
			}
		}
		return secret, id
	}
	code, out, errOut := keys(t, "create", "--account", "acme")
	acmeKey, acmeID := created(out)
	if code != 0 || !strings.HasPrefix(acmeKey, "rk_") || !strings.HasPrefix(acmeID, "k_") || !strings.Contains(out, "account: acme") {
		t.Fatalf("keys create: exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ = keys(t, "create")
	defaultKey, defaultID := created(out)
	if code != 0 || defaultKey == "" || !strings.Contains(out, "account: default") {
		t.Fatalf("keys create: exit %d\n%s", code, out)
	}
	code, out, _ = keys(t, "create", "--account", "acme")
	revokedKey, revokedID := created(out)
	if code != 0 || revokedKey == "" {
		t.Fatalf("keys create: exit %d\n%s", code, out)
	}
	code, out, errOut = keys(t, "revoke", revokedID)
	if code != 0 || !strings.Contains(out, "revoked "+revokedID) {
		t.Fatalf("keys revoke: exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ = keys(t, "list")
	if code != 0 {
		t.Fatalf("keys list: exit %d", code)
	}
	state := map[string]string{}
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) >= 5 && strings.HasPrefix(f[0], "k_") {
			state[f[0]] = f[1] + " " + f[len(f)-1]
			if strings.Contains(l, acmeKey) || strings.Contains(l, revokedKey) {
				t.Errorf("keys list shows a whole secret: %s", l)
			}
		}
	}
	want := map[string]string{acmeID: "acme active", defaultID: "default active", revokedID: "acme revoked"}
	if !reflect.DeepEqual(state, want) {
		t.Errorf("keys list = %v, want %v\n%s", state, want, out)
	}
	if code, _, errOut := keys(t, "revoke", "k_000000000000"); code != 1 || !strings.Contains(errOut, "not found") {
		t.Errorf("revoking an unknown key: exit %d: %s", code, errOut)
	}
	if code, _, _ := keys(t, "rotate"); code != 2 {
		t.Errorf("an unknown keys command: exit %d, want 2", code)
	}

	s := e.serve(t, data, "--contexts", "1", "--shutdown-grace", "20s")
	if s.key != "" {
		t.Errorf("the server printed a new key although the store has keys")
	}
	s.key = acmeKey
	as := func(key string) *rodeoServer { c := *s; c.key = key; return &c }
	if st, _, raw := as(revokedKey).post(t, "/agents", agentBody(revokedKey, "g", []map[string]any{{"type": "print", "text": "x"}})); st != 401 || errorCode(raw) != "invalid_key" {
		t.Errorf("a revoked key: %d %s", st, raw)
	}
	if st, _, raw := as(revokedKey).get(t, "/runs"); st != 401 {
		t.Errorf("a revoked bearer key: %d %s", st, raw)
	}
	mine := as(acmeKey).run(t, "acme's", []map[string]any{{"type": "print", "text": "x"}})
	if mine.Status != "succeeded" {
		t.Fatalf("acme's run: %s", dump(mine))
	}
	if st, _, _ := as(defaultKey).get(t, "/runs/"+mine.RunID); st != 404 {
		t.Errorf("the default account reads acme's run: %d", st)
	}

	// Graceful shutdown: SIGTERM lets the run in flight finish and be stored, then exits 0.
	id := s.startRun(t, "finish me", []map[string]any{
		{"type": "open tab", "target": e.site + "/form.html"},
		{"type": "delay", "time": 1.5},
		{"type": "semanticScrape", "target": "the heading that says Join the Acme newsletter", "data": "heading"},
	})
	s.waitSteps(t, id, 1)
	begin := time.Now()
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-s.exited:
	case <-time.After(25 * time.Second):
		t.Fatalf("the server did not exit within its 20s grace")
	}
	if code := s.cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("exit code %d after SIGTERM, want 0; stderr:\n%s", code, s.stderrTail())
	}
	t.Logf("stopped in %s", time.Since(begin).Round(time.Millisecond))
	if pids := reap(s.home, 5*time.Second); len(pids) > 0 {
		t.Errorf("processes outlived the stopped server: %v", pids)
	}
	db, err := store.Open(data)
	if err != nil {
		t.Fatalf("open the store after the stop: %v", err)
	}
	defer db.Close()
	rec, err := db.GetRun("acme", id)
	if err != nil {
		t.Fatal(err)
	}
	var doc scripts.Doc
	if err := json.Unmarshal(rec.Doc, &doc); err != nil {
		t.Fatal(err)
	}
	if rec.Status != "succeeded" || doc.Status != "succeeded" || len(doc.Steps) != 3 || doc.Data["heading"] == "" {
		t.Errorf("the run in flight at SIGTERM was stored as %s: %s", rec.Status, dump(doc))
	}
}

// ---- processes ----

// rodeoServer is one `rodeo serve` subprocess.
type rodeoServer struct {
	cmd    *exec.Cmd
	home   string // its HOME and TMPDIR: every process it starts has this path in its command line
	base   string // http://host:port
	key    string // the key it printed on start, "" when it printed none
	stdout *lockedBuffer
	stderr *lockedBuffer
	exited chan struct{}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// env is the environment of a subprocess: no RODEO_* of the caller's, a private HOME and TMPDIR
// (Chrome's profile, crash database and rod's leakless helper land there), offline Chrome.
func (e *e2e) env(home string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "RODEO_") || strings.HasPrefix(kv, "HOME=") || strings.HasPrefix(kv, "TMPDIR=") || strings.HasPrefix(kv, "XDG_") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "HOME="+home, "TMPDIR="+home, "RODEO_LOG_LEVEL=info")
}

func (e *e2e) newHome(t *testing.T) string {
	e.seq++
	home := filepath.Join(e.root, fmt.Sprintf("proc%d", e.seq))
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	return home
}

// serve starts `rodeo serve` on a random port and waits until it listens.
func (e *e2e) serve(t *testing.T, data string, args ...string) *rodeoServer {
	t.Helper()
	home := e.newHome(t)
	args = append([]string{"serve", "--addr", "127.0.0.1:0", "--data", data, "--chrome-flag", offlineFlag}, args...)
	cmd := exec.Command(e.bin, args...)
	cmd.Env = e.env(home)
	// The server dies with the test process even if the test is killed before its cleanups
	// (Chrome then dies with the server: rod's leakless guard).
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	s := &rodeoServer{cmd: cmd, home: home, stderr: &lockedBuffer{}, stdout: &lockedBuffer{}, exited: make(chan struct{})}
	cmd.Stderr = s.stderr
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		s.kill(t)
		if t.Failed() {
			t.Logf("server %s stderr (tail):\n%s", home, s.stderrTail())
		}
	})
	listening := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			line := sc.Text()
			fmt.Fprintln(s.stdout, line)
			if v, ok := strings.CutPrefix(line, "api key: "); ok {
				s.key = v // written before listening is sent, read after it is received
			}
			if v, ok := strings.CutPrefix(line, "rodeo listening on "); ok {
				listening <- v
			}
		}
		_ = cmd.Wait()
		close(s.exited)
	}()
	select {
	case s.base = <-listening:
	case <-s.exited:
		t.Fatalf("rodeo serve exited with %v before listening; stderr:\n%s", cmd.ProcessState, s.stderrTail())
	case <-time.After(90 * time.Second):
		t.Fatalf("rodeo serve did not listen within 90s; stderr:\n%s", s.stderrTail())
	}
	t.Logf("rodeo serve %s up in %s", s.base, time.Since(start).Round(time.Millisecond))
	return s
}

// kill SIGKILLs the server and makes sure nothing it started survives it.
func (s *rodeoServer) kill(t *testing.T) {
	t.Helper()
	_ = s.cmd.Process.Signal(syscall.SIGKILL)
	select {
	case <-s.exited:
	case <-time.After(10 * time.Second):
		t.Errorf("server %d did not die", s.cmd.Process.Pid)
	}
	// rod's leakless guard ends Chrome once its parent is gone; give it a moment.
	if pids := reap(s.home, 5*time.Second); len(pids) > 0 {
		t.Errorf("processes outlived their killed server: %v", pids)
	}
}

func (s *rodeoServer) stderrTail() string {
	lines := strings.Split(strings.TrimRight(s.stderr.String(), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-40):], "\n")
}

// cli runs one rodeo command to its end and returns its exit code and output.
func (e *e2e) cli(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	home := e.newHome(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, e.bin, args...)
	cmd.Env = e.env(home)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if pids := reap(home, 5*time.Second); len(pids) > 0 {
		t.Errorf("rodeo %s left processes behind: %v", strings.Join(args, " "), pids)
	}
	if ctx.Err() != nil {
		t.Fatalf("rodeo %s did not finish in time", strings.Join(args, " "))
	}
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatalf("rodeo %s: %v", strings.Join(args, " "), err)
	}
	return cmd.ProcessState.ExitCode(), out.String(), errOut.String()
}

// procsMentioning lists the processes whose command line contains s (this process excluded).
func procsMentioning(s string) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, ent := range entries {
		pid, err := strconv.Atoi(ent.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", ent.Name(), "cmdline"))
		if err == nil && bytes.Contains(cmdline, []byte(s)) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// reap waits up to grace for the processes mentioning dir to end by themselves, then kills the
// rest and returns their ids (a leak: nothing should need this).
func reap(dir string, grace time.Duration) []int {
	deadline := time.Now().Add(grace)
	for {
		pids := procsMentioning(dir)
		if len(pids) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			for _, pid := range pids {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
			return pids
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// procStat is the parent and command name of a process, from /proc/PID/stat.
func procStat(pid int) (ppid int, comm string, ok bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, "", false
	}
	s := string(b)
	open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || end < open {
		return 0, "", false
	}
	f := strings.Fields(s[end+1:])
	if len(f) < 2 {
		return 0, "", false
	}
	ppid, err = strconv.Atoi(f[1])
	return ppid, s[open+1 : end], err == nil
}

// mainChromes returns the browser processes (not renderers, zygotes or helpers) descending
// from pid.
func mainChromes(pid int) []int {
	parent := map[int]int{}
	comm := map[int]string{}
	entries, _ := os.ReadDir("/proc")
	for _, ent := range entries {
		p, err := strconv.Atoi(ent.Name())
		if err != nil {
			continue
		}
		if pp, c, ok := procStat(p); ok {
			parent[p], comm[p] = pp, c
		}
	}
	descends := func(p int) bool {
		for range 16 {
			p = parent[p]
			if p == pid {
				return true
			}
			if p <= 1 {
				return false
			}
		}
		return false
	}
	var out []int
	for p, c := range comm {
		if !strings.HasPrefix(c, "chrom") || !descends(p) {
			continue
		}
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p))
		if !bytes.Contains(cmdline, []byte("--type=")) {
			out = append(out, p)
		}
	}
	return out
}

func describeProcs(pids []int) string {
	var b strings.Builder
	for _, p := range pids {
		ppid, comm, _ := procStat(p)
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p))
		fmt.Fprintf(&b, "%d (parent %d, %s): %.300s\n", p, ppid, comm, bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '}))
	}
	return b.String()
}

// ---- HTTP ----

var client = &http.Client{Timeout: 90 * time.Second}

func agentBody(key, goal string, nodes []map[string]any) map[string]any {
	return map[string]any{"key": key, "goal": goal, "json_output": nodes}
}

func (s *rodeoServer) do(t *testing.T, method, path string, body any) (int, http.Header, []byte) {
	t.Helper()
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, s.base+path, r)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if s.key != "" {
		req.Header.Set("Authorization", "Bearer "+s.key)
	}
	res, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	return res.StatusCode, res.Header, raw
}

func (s *rodeoServer) post(t *testing.T, path string, body any) (int, http.Header, []byte) {
	t.Helper()
	return s.do(t, "POST", path, body)
}

func (s *rodeoServer) get(t *testing.T, path string) (int, http.Header, []byte) {
	t.Helper()
	return s.do(t, "GET", path, nil)
}

func (s *rodeoServer) getJSON(t *testing.T, path string, status int, v any) {
	t.Helper()
	st, _, raw := s.get(t, path)
	if st != status {
		t.Fatalf("GET %s: %d, want %d: %s", path, st, status, raw)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("GET %s: %v: %s", path, err, raw)
	}
}

func (s *rodeoServer) postOK(t *testing.T, path string) {
	t.Helper()
	if st, _, raw := s.post(t, path, nil); st != 200 {
		t.Fatalf("POST %s: %d %s", path, st, raw)
	}
}

// run posts an agent, waits for it and returns the document. It is a client that honours 503
// busy + Retry-After for a while: the servers here run a 500 ms lease timeout, and on a loaded
// machine a released context's replacement can take longer than that to start.
func (s *rodeoServer) run(t *testing.T, goal string, nodes []map[string]any) scripts.Doc {
	t.Helper()
	return s.runRetrying(t, goal, nodes, 20*time.Second)
}

// runRetrying is run for a client that honours 503 busy + Retry-After for up to limit.
func (s *rodeoServer) runRetrying(t *testing.T, goal string, nodes []map[string]any, limit time.Duration) scripts.Doc {
	t.Helper()
	st, raw := s.postAgent(t, "/agents", goal, nodes, limit)
	if st != 200 {
		t.Fatalf("POST /agents: %d %s", st, raw)
	}
	var doc scripts.Doc
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("POST /agents: %v: %s", err, raw)
	}
	return doc
}

// postAgent posts an agent to path as a client that honours 503 busy + Retry-After for up to
// limit would: a context released by the last run is warmed again in the background.
func (s *rodeoServer) postAgent(t *testing.T, path, goal string, nodes []map[string]any, limit time.Duration) (int, []byte) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		st, hdr, raw := s.post(t, path, agentBody(s.key, goal, nodes))
		if st != 503 || !time.Now().Before(deadline) {
			return st, raw
		}
		wait, _ := strconv.Atoi(hdr.Get("Retry-After"))
		time.Sleep(time.Duration(max(wait, 1)) * time.Second)
	}
}

// startRun posts an agent with ?wait=false (retrying busy, as run does) and returns its run id.
func (s *rodeoServer) startRun(t *testing.T, goal string, nodes []map[string]any) string {
	t.Helper()
	st, raw := s.postAgent(t, "/agents?wait=false", goal, nodes, 20*time.Second)
	var acc struct {
		RunID     string `json:"run_id"`
		StatusURL string `json:"status_url"`
	}
	if st != 202 || json.Unmarshal(raw, &acc) != nil || acc.StatusURL != "/runs/"+acc.RunID {
		t.Fatalf("POST /agents?wait=false: %d %s", st, raw)
	}
	return acc.RunID
}

func (s *rodeoServer) poll(t *testing.T, id string, limit time.Duration, what string, done func(scripts.Doc) bool) scripts.Doc {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		var doc scripts.Doc
		s.getJSON(t, "/runs/"+id, 200, &doc)
		if done(doc) {
			return doc
		}
		if time.Now().After(deadline) {
			t.Fatalf("run %s: %s not reached within %s: %s", id, what, limit, dump(doc))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (s *rodeoServer) waitSteps(t *testing.T, id string, n int) {
	t.Helper()
	s.poll(t, id, 30*time.Second, fmt.Sprintf("%d steps", n), func(d scripts.Doc) bool { return len(d.Steps) >= n })
}

func (s *rodeoServer) waitStatus(t *testing.T, id, status string) {
	t.Helper()
	s.poll(t, id, 30*time.Second, status, func(d scripts.Doc) bool { return d.Status == status })
}

func (s *rodeoServer) waitFinal(t *testing.T, id string, limit time.Duration) scripts.Doc {
	t.Helper()
	return s.poll(t, id, limit, "a final status", func(d scripts.Doc) bool { return scripts.Final(d.Status) })
}

func (s *rodeoServer) metrics(t *testing.T) string {
	t.Helper()
	st, _, raw := s.get(t, "/metrics")
	if st != 200 {
		t.Fatalf("GET /metrics: %d", st)
	}
	return string(raw)
}

func errorCode(raw []byte) string {
	var body struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	_ = json.Unmarshal(raw, &body)
	return body.Error.Code
}

func dump(v any) string {
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}

func grepLines(text, prefix string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
