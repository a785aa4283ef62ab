package main

// End-to-end tests of the studio: the real rodeo binary serves it, the test drives it in the real
// Chromium through rod (browser/browsertest) like a user would, and checks what the page shows
// against what the API holds.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"
	"github.com/rodeo-run/rodeo/browser/browsertest"
	"github.com/rodeo-run/rodeo/scripts"
)

// studioPage is the studio open in a test Chrome, with everything it logged as an error.
type studioPage struct {
	*rod.Page
	mu     sync.Mutex
	errors []string
	quiet  bool // while set, failed requests (the wrong-key 401) are expected
}

func openStudio(t *testing.T, base string) *studioPage {
	t.Helper()
	p := &studioPage{Page: browsertest.Page(t, "")}
	p.MustSetViewport(1280, 800, 1, false)
	go p.EachEvent(func(e *proto.RuntimeExceptionThrown) {
		p.addError("exception: " + e.ExceptionDetails.Text + " " + e.ExceptionDetails.Exception.Description)
	}, func(e *proto.RuntimeConsoleAPICalled) {
		if e.Type == proto.RuntimeConsoleAPICalledTypeError || e.Type == proto.RuntimeConsoleAPICalledTypeAssert {
			p.addError("console.error: " + p.MustObjectsToJSON(e.Args).String())
		}
	}, func(e *proto.LogEntryAdded) {
		if e.Entry.Level == proto.LogLogEntryLevelError {
			p.mu.Lock()
			quiet := p.quiet && e.Entry.Source == proto.LogLogEntrySourceNetwork
			p.mu.Unlock()
			if !quiet {
				p.addError("log: " + e.Entry.Text + " " + e.Entry.URL)
			}
		}
	})()
	p.MustNavigate(base + "/").MustWaitLoad()
	return p
}

func (p *studioPage) addError(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.errors = append(p.errors, s)
}

func (p *studioPage) checkNoErrors(t *testing.T, view string) {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.errors) > 0 {
		t.Errorf("%s: console errors: %q", view, p.errors)
		p.errors = nil
	}
}

// wait waits up to 30 s for selector to match an element whose text matches re.
func (p *studioPage) wait(t *testing.T, selector, re string) *rod.Element {
	t.Helper()
	el, err := p.Timeout(30*time.Second).ElementR(selector, re)
	if err != nil {
		html, _ := p.Timeout(2 * time.Second).HTML()
		t.Fatalf("no %s matching /%s/: %v\npage:\n%s", selector, re, err, html[:min(len(html), 4000)])
	}
	return el.CancelTimeout()
}

// choose picks value in a <select> as the user's choice does (the change event included).
func choose(el *rod.Element, value string) {
	el.MustEval(`function (v) { this.value = v; this.dispatchEvent(new Event('change', {bubbles: true})); }`, value)
}

// shot saves a screenshot of the page for docs/ when RODEO_STUDIO_SHOTS names a folder.
func (p *studioPage) shot(t *testing.T, name string) {
	dir := os.Getenv("RODEO_STUDIO_SHOTS")
	if dir == "" {
		return
	}
	time.Sleep(300 * time.Millisecond) // let the last render settle for the picture
	p.MustScreenshot(filepath.Join(dir, name+".png"))
}

func TestE2EStudio(t *testing.T) {
	e := newE2E(t)
	s := e.serve(t, filepath.Join(e.root, "data-studio"), "--contexts", "2", "--lease-timeout", "5s")
	if s.key == "" {
		t.Fatal("the first start printed no API key")
	}
	p := openStudio(t, s.base)

	t.Run("SignIn", func(t *testing.T) { studioSignIn(t, p, s.key) })
	t.Run("RunsListAndRunPage", func(t *testing.T) { studioRuns(t, e, s, p) })
	t.Run("RecordedTimeline", func(t *testing.T) { studioRecorded(t, e, s, p) })
	t.Run("LiveView", func(t *testing.T) { studioLive(t, e, s, p) })
	t.Run("ScriptForm", func(t *testing.T) { studioScriptForm(t, e, s, p) })
	t.Run("ScriptTriggers", func(t *testing.T) { studioTriggers(t, s, p) })
	t.Run("RunFilters", func(t *testing.T) { studioFilters(t, s, p) })
	t.Run("ValidationAtTheField", func(t *testing.T) { studioValidation(t, s, p) })
	t.Run("Keys", func(t *testing.T) { studioKeys(t, s, p) })
	t.Run("OtherViews", func(t *testing.T) { studioOtherViews(t, p) })
}

func studioSignIn(t *testing.T, p *studioPage, key string) {
	p.wait(t, "form.signin h1", "studio")
	p.shot(t, "studio-signin")
	p.mu.Lock()
	p.quiet = true // the refused key's 401 is logged by Chrome as a failed request
	p.mu.Unlock()
	p.MustElement("#key").MustInput("rk_" + strings.Repeat("x", 43))
	p.MustElement("form.signin button[type=submit]").MustClick()
	p.wait(t, "#signin-msg.error-box", "not accepted")
	if p.MustEval(`() => sessionStorage.getItem('rodeo.key') !== null`).Bool() {
		t.Error("a refused key stayed in sessionStorage")
	}
	p.mu.Lock()
	p.quiet = false
	p.mu.Unlock()
	p.MustElement("#key").MustSelectAllText().MustInput(key)
	p.MustElement("form.signin button[type=submit]").MustClick()
	p.wait(t, "main h1", "^Runs$")
	if k := p.MustEval(`() => sessionStorage.getItem('rodeo.key')`).Str(); k != key {
		t.Errorf("sessionStorage holds %q, want the key", k)
	}
	if u := p.MustInfo().URL; strings.Contains(u, key) {
		t.Errorf("the key is in the URL: %s", u)
	}
	p.checkNoErrors(t, "sign-in")
}

func studioRuns(t *testing.T, e *e2e, s *rodeoServer, p *studioPage) {
	// Started over the API while the list is open: it shows up and finishes without a reload.
	id := s.startRun(t, "sign up for the newsletter", e.exampleNodes())
	row := `tr[data-run="` + id + `"]`
	p.wait(t, row+" td:nth-child(2)", "sign up for the newsletter")
	p.wait(t, row+" .badge", "succeeded")
	p.shot(t, "studio-runs")
	choose(p.MustElement("#filter-status"), "failed")
	p.wait(t, "main p.hint", "No run matches")
	choose(p.MustElement("#filter-status"), "")
	p.wait(t, row+" .badge", "succeeded")

	p.MustElement(row + " td:nth-child(2) a").MustClick()
	p.wait(t, ".run-head h1", "sign up for the newsletter")
	p.wait(t, ".run-head .badge", "succeeded")
	steps := p.MustElements("ol.steps > li.step")
	if len(steps) != 5 {
		t.Fatalf("%d steps shown, want 5", len(steps))
	}
	for i, want := range []string{"open tab", "click", "keypress", "click", "semanticScrape"} {
		if got := steps[i].MustElement(".step-head strong").MustText(); got != want {
			t.Errorf("step %d shows %q, want %q", i, got, want)
		}
		if st := steps[i].MustElement(".step-head .badge").MustText(); st != "ok" {
			t.Errorf("step %d status %q", i, st)
		}
		if len(steps[i].MustElements("ul.checks li.pass")) == 0 {
			t.Errorf("step %d shows no passed check", i)
		}
	}
	if r := steps[1].MustElement(".resolved").MustText(); !strings.Contains(r, "#email") || !strings.Contains(r, "%") {
		t.Errorf("the click's resolved element shows %q, want #email with its confidence", r)
	}
	p.wait(t, "pre.json", "ada@example.com")
	p.shot(t, "studio-run")
	p.checkNoErrors(t, "runs")
}

// studioRecorded: a run with "record": true keeps a screenshot per browser step, and its page
// steps through them with the arrow keys.
func studioRecorded(t *testing.T, e *e2e, s *rodeoServer, p *studioPage) {
	body := agentBody(s.key, "sign up, recorded", e.exampleNodes())
	body["record"] = true
	st, _, raw := s.post(t, "/agents", body)
	var doc struct {
		RunID  string `json:"run_id"`
		Status string `json:"status"`
		Steps  []struct {
			Detail map[string]any `json:"detail"`
		} `json:"steps"`
	}
	if st != 200 || json.Unmarshal(raw, &doc) != nil || doc.Status != "succeeded" {
		t.Fatalf("POST /agents with record: %d %s", st, raw)
	}
	for i, step := range doc.Steps {
		if shot, _ := step.Detail["screenshot"].(string); !strings.HasPrefix(shot, "/runs/"+doc.RunID+"/artifacts/step-") {
			t.Errorf("step %d names no screenshot: %v", i, step.Detail)
		}
	}
	var arts struct {
		Artifacts []struct {
			Name        string
			ContentType string `json:"content_type"`
			Size        int
		}
	}
	s.getJSON(t, "/runs/"+doc.RunID+"/artifacts", 200, &arts)
	if len(arts.Artifacts) != 5 {
		t.Fatalf("%d artifacts, want a screenshot for each of the 5 browser steps: %+v", len(arts.Artifacts), arts)
	}
	for _, a := range arts.Artifacts {
		if a.ContentType != "image/jpeg" || a.Size == 0 || a.Size > scripts.MaxRecordedShot {
			t.Errorf("artifact %+v: want a JPEG of at most %d bytes", a, scripts.MaxRecordedShot)
		}
	}
	p.MustNavigate(s.base + "/#/runs/" + doc.RunID).MustWaitLoad()
	p.wait(t, ".shots figcaption", "^1 of 5: after step 1$")
	// The picture itself loads (fetched with the key, shown as a blob: URL).
	if err := p.Timeout(20 * time.Second).Wait(rod.Eval(`() => { const i = document.querySelector('.shots img'); return !!i && i.complete && i.naturalWidth > 0; }`)); err != nil {
		t.Fatalf("the first screenshot did not load: %v", err)
	}
	p.MustElement(".shots figure.timeline").MustFocus()
	p.Keyboard.MustType(input.ArrowRight)
	p.wait(t, ".shots figcaption", "^2 of 5: after step 2$")
	p.Keyboard.MustType(input.ArrowRight, input.ArrowRight, input.ArrowRight, input.ArrowRight)
	p.wait(t, ".shots figcaption", "^5 of 5: after step 5$")
	p.Keyboard.MustType(input.ArrowLeft)
	p.wait(t, ".shots figcaption", "^4 of 5")
	p.shot(t, "studio-timeline")
	p.checkNoErrors(t, "recorded run")
}

func studioScriptForm(t *testing.T, e *e2e, s *rodeoServer, p *studioPage) {
	p.MustNavigate(s.base + "/#/scripts").MustWaitLoad()
	p.wait(t, "main h1", "^Scripts$")
	p.MustElement("#new-script").MustClick()
	p.wait(t, "main h1", "New script")
	p.MustElement("#script-name").MustInput("studio signup")
	p.MustElement("#script-goal").MustInput("submit the form and read what it says")
	fill := func(path, field, value string) {
		t.Helper()
		// A parameter the form does not show yet (click's target is required only in the
		// browser) is added from the node's "+ parameter" menu, as a user would.
		if sel := `[data-path="` + path + `"] select.add-param`; p.MustHas(sel) {
			if add := p.MustElement(sel); add.MustEval(`function (f) { return [...this.options].some((o) => o.value === f) }`, field).Bool() {
				choose(add, field)
			}
		}
		p.wait(t, `[data-path="`+path+`"] [data-field="`+field+`"] label`, field)
		el := p.MustElement(`[data-path="` + path + `"] [data-field="` + field + `"] input`)
		el.MustSelectAllText().MustInput(value)
	}
	add := func(kind string) {
		t.Helper()
		choose(p.MustElement(".form-view > .node-list > select.add-node"), kind)
	}
	add("open tab")
	fill("0", "target", e.site+"/form.html")
	add("click")
	fill("1", "target", "the button that says Submit")
	// Duplicate, move and delete work on the list: duplicate the click, move the copy up, drop it.
	p.MustElement(`[data-path="1"] [data-act="dup"]`).MustClick()
	if n := len(p.MustElements(".form-view > .node-list > ol > li.node")); n != 3 {
		t.Fatalf("%d nodes after duplicating, want 3", n)
	}
	p.MustElement(`[data-path="2"] [data-act="up"]`).MustClick()
	p.MustElement(`[data-path="1"] [data-act="del"]`).MustClick()
	add("semanticScrape")
	fill("2", "target", "the confirmation message")
	// The form's defaults come from the spec: semanticScrape's data starts as "scraped"; add it.
	choose(p.MustElement(`[data-path="2"] select.add-param`), "data")
	fill("2", "data", "msg")
	p.shot(t, "studio-script-form")

	// The JSON view shows the same script and round-trips unchanged.
	want := []map[string]any{
		{"type": "open tab", "target": e.site + "/form.html"},
		{"type": "click", "target": "the button that says Submit"},
		{"type": "semanticScrape", "target": "the confirmation message", "data": "msg"},
	}
	p.MustElement("#tab-json").MustClick()
	var shown struct {
		Goal       string           `json:"goal"`
		JSONOutput []map[string]any `json:"json_output"`
	}
	if err := json.Unmarshal([]byte(p.MustElement("#script-json").MustProperty("value").Str()), &shown); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(shown.JSONOutput, want) || shown.Goal != "submit the form and read what it says" {
		t.Fatalf("JSON view: %+v", shown)
	}
	p.MustElement("#tab-form").MustClick()

	p.MustElement("#save-script").MustClick()
	p.wait(t, "main h1", "^studio signup$")
	p.wait(t, ".version-list li[data-version='1']", "v1")
	var saved struct {
		Version    int              `json:"version"`
		JSONOutput []map[string]any `json:"json_output"`
	}
	s.getJSON(t, "/scripts/studio%20signup", 200, &saved)
	if saved.Version != 1 || !reflect.DeepEqual(saved.JSONOutput, want) {
		t.Fatalf("saved script: %+v", saved)
	}
	p.wait(t, "#webhook-url", "/triggers/cloud$")
	p.wait(t, "#webhook-curl", `"name": "studio signup"`)

	p.MustElement("#run-now").MustClick()
	p.wait(t, ".run-head .badge", "succeeded")
	p.wait(t, "pre.json", "Please enter your email")
	if n := len(p.MustElements("ol.steps > li.step-ok")); n != 3 {
		t.Errorf("%d ok steps on the run page, want 3", n)
	}
	p.wait(t, ".run-head dd a", "studio signup \\(version 1\\)")
	p.checkNoErrors(t, "script form")
}

func studioValidation(t *testing.T, s *rodeoServer, p *studioPage) {
	p.MustNavigate(s.base + "/#/scripts/studio%20signup").MustWaitLoad()
	p.wait(t, `[data-path="1"] [data-field="target"] label`, "target")
	// A bad value of a generic field: timeout must be positive.
	choose(p.MustElement(`[data-path="1"] select.add-param`), "timeout")
	p.MustElement(`[data-path="1"] [data-field="timeout"] input`).MustSelectAllText().MustInput("-5")
	// A nested node with a misspelt parameter, written in the JSON view.
	p.MustElement("#tab-json").MustClick()
	var doc map[string]any
	if err := json.Unmarshal([]byte(p.MustElement("#script-json").MustProperty("value").Str()), &doc); err != nil {
		t.Fatal(err)
	}
	nodes := doc["json_output"].([]any)
	doc["json_output"] = append(nodes, map[string]any{"type": "if_else", "variables": "msg", "condition": "x",
		"then": []any{map[string]any{"type": "click", "tagret": "the button"}}})
	raw, _ := json.Marshal(doc)
	p.MustElement("#script-json").MustSelectAllText().MustInput(string(raw))
	p.MustElement("#tab-form").MustClick()
	p.mu.Lock()
	p.quiet = true // the refused save's 400 is logged by Chrome as a failed request
	p.mu.Unlock()
	p.MustElement("#save-script").MustClick()

	p.wait(t, `[data-path="1"] [data-field="timeout"] .field-error`, "between 0 and 86400")
	p.wait(t, `[data-path="3.then.0"] [data-field="tagret"] .field-error`, "unknown parameter")
	p.wait(t, `[data-path="3.then.0"] [data-field="target"] .field-error`, "required")
	p.wait(t, ".top-errors .error-box", "Not saved")
	p.shot(t, "studio-validation")
	p.mu.Lock()
	p.quiet = false
	p.mu.Unlock()
	var latest struct{ Version int }
	s.getJSON(t, "/scripts/studio%20signup", 200, &latest)
	if latest.Version != 1 {
		t.Errorf("an invalid save made version %d", latest.Version)
	}
	p.checkNoErrors(t, "validation")
}

func studioOtherViews(t *testing.T, p *studioPage) {
	for _, v := range []struct{ hash, selector, re string }{
		{"#/nodes", "details.node-doc[data-kind='click'] summary", "click"},
		{"#/sheets", "main p.hint", "No sheets yet"},
		{"#/outbox", "main p.hint", "outbox is empty"},
		{"#/keys", "tr[data-key] .badge", "this studio"},
		{"#/runs", "table.runs tbody tr", "studio signup"},
	} {
		p.MustElement(`header nav a[href="` + v.hash + `"]`).MustClick()
		p.wait(t, v.selector, v.re)
		if v.hash == "#/nodes" {
			p.shot(t, "studio-nodes")
		}
		p.checkNoErrors(t, v.hash)
	}
	// At phone width the list still fits: no horizontal scroll of the page.
	p.MustSetViewport(390, 800, 1, true)
	if w := p.MustEval(`() => document.documentElement.scrollWidth - window.innerWidth`).Int(); w > 0 {
		t.Errorf("at 390 px the page scrolls sideways by %d px", w)
	}
	p.shot(t, "studio-phone")
	// The keys page and a script's page (its schedules and triggers) fit too.
	for _, v := range []struct{ hash, selector, re string }{
		{"#/keys", "tr[data-key] .badge", "this studio"},
		{"#/scripts/studio%20signup", "#schedules p.hint", "No schedule"},
	} {
		p.MustNavigate(p.MustInfo().URL[:strings.Index(p.MustInfo().URL, "#")] + v.hash).MustWaitLoad()
		p.wait(t, v.selector, v.re)
		if w := p.MustEval(`() => document.documentElement.scrollWidth - window.innerWidth`).Int(); w > 0 {
			t.Errorf("%s at 390 px scrolls sideways by %d px", v.hash, w)
		}
	}
	p.MustSetViewport(1280, 800, 1, false)
}
