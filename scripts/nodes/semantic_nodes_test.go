package nodes_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/browser/browsertest"
	"github.com/rodeo-run/rodeo/llm"
	"github.com/rodeo-run/rodeo/llm/llmtest"
	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/store"
)

// runWith is run with services (a model, a store), a fixed account and the fixture server at
// base (one per test, so that repeated runs see the same site).
func runWith(t *testing.T, base, nodes string, sv *scripts.Services) scripts.Doc {
	t.Helper()
	p := testPool(t)
	nodes = strings.ReplaceAll(nodes, "BASE", base)
	var raw []json.RawMessage
	if err := json.Unmarshal([]byte(nodes), &raw); err != nil {
		t.Fatalf("test JSON: %v", err)
	}
	s, err := scripts.DefaultRegistry.Compile(t.Name(), raw, nil)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	runner := &scripts.Runner{Registry: scripts.DefaultRegistry, Services: sv, Browsers: scripts.LeaserFunc(func(ctx context.Context) (scripts.BrowserSession, error) {
		return p.Lease(ctx)
	})}
	r := scripts.NewRun(fmt.Sprintf("r_%s_%d", strings.ReplaceAll(t.Name(), "/", "_"), time.Now().UnixNano()), "acct_test", "test", s)
	runner.Execute(context.Background(), r, scripts.ExecOptions{Timeout: time.Minute})
	return r.Doc()
}

func resolvedBy(st scripts.Step) string {
	r, _ := st.Detail["resolved"].(map[string]any)
	by, _ := r["by"].(string)
	return by
}

// TestClick_RetriesTheRunnerUp: the best match for "Continue" is a styled div that does nothing;
// the verification loop's second attempt clicks the runner-up, which works.
func TestClick_RetriesTheRunnerUp(t *testing.T) {
	d := run(t, `[{"type": "open tab", "target": "BASE/runnerup.html"}, {"type": "click", "target": "Continue"}]`, nil)
	if d.Status != scripts.StatusSucceeded {
		t.Fatal(dump(d))
	}
	st := d.Steps[1]
	if st.Verification == nil || st.Verification.Attempts != 2 {
		t.Fatalf("want 2 attempts: %s", dump(d))
	}
	ru, _ := st.Detail["runner_up"].(map[string]any)
	if ru["selector"] != "#real" {
		t.Fatalf("runner_up detail %v", st.Detail)
	}
}

// oracle answers a rank prompt with the candidate whose line mentions word.
func oracle(word string) llmtest.Script {
	line := regexp.MustCompile(`(?m)^(\d+) .*` + regexp.QuoteMeta(word))
	return func(_ int, req llmtest.Request) llmtest.Reply {
		if m := line.FindStringSubmatch(req.Messages[len(req.Messages)-1].Content); m != nil {
			id, _ := strconv.Atoi(m[1])
			return llmtest.Reply{Content: fmt.Sprintf("```json\n{\"id\": \"%d\"}\n```", id)}
		}
		return llmtest.Reply{Content: `{"id": null}`}
	}
}

// TestClick_ModelThenCache: a description the heuristic cannot place goes to the model (the step
// records by "llm" and the tokens); the same script again resolves from the store's cache with
// no model call.
func TestClick_ModelThenCache(t *testing.T) {
	srv := llmtest.New(t, oracle(`"Bold"`))
	db, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sv := &scripts.Services{LLM: llm.New(srv.Config()), Store: db}
	script := `[{"type": "open tab", "target": "BASE/runnerup.html"}, {"type": "click", "target": "the button that makes text fat"}]`
	base := browsertest.Serve(t, "testdata")
	d := runWith(t, base, script, sv)
	if d.Status != scripts.StatusSucceeded || resolvedBy(d.Steps[1]) != "llm" {
		t.Fatal(dump(d))
	}
	r := d.Steps[1].Detail["resolved"].(map[string]any)
	if tok, _ := r["tokens"].(map[string]any); tok == nil || tok["prompt"].(int) <= 0 {
		t.Fatalf("no tokens in %v", r)
	}
	calls := len(srv.Calls())
	d = runWith(t, base, script, sv)
	if d.Status != scripts.StatusSucceeded || resolvedBy(d.Steps[1]) != "cache" {
		t.Fatal(dump(d))
	}
	if n := len(srv.Calls()); n != calls {
		t.Fatalf("second run made %d model calls", n-calls)
	}
}

func TestSemanticScrape_ListTableValue(t *testing.T) {
	d := run(t, `[{"type": "open tab", "target": "BASE/semantic-scrape.html"},
		{"type": "semanticScrape", "target": "all product names", "data": "names"},
		{"type": "semanticScrape", "target": "the shipping rates table", "data": "rates"},
		{"type": "semanticScrape", "target": "the order total", "data": "total"},
		{"type": "semanticScrape", "target": "the upload progress", "data": "progress"},
		{"type": "semanticScrape", "target": "the volume", "data": "volume"}]`, nil)
	if d.Status != scripts.StatusSucceeded {
		t.Fatal(dump(d))
	}
	if got := fmt.Sprint(d.Data["names"]); got != "[Sencha Matcha Gyokuro]" {
		t.Errorf("names = %s", got)
	}
	rows, _ := d.Data["rates"].([]any)
	if len(rows) != 2 || fmt.Sprint(rows[1]) != "map[Express:$25.00 Standard:$12.00 Zone:International]" {
		t.Errorf("rates = %v", d.Data["rates"])
	}
	if d.Data["total"] != "$49.75" {
		t.Errorf("total = %v", d.Data["total"])
	}
	// A progress bar's and a slider's value is their state, not their text.
	if d.Data["progress"] != "40%" || d.Data["volume"] != "7 of 10" {
		t.Errorf("progress = %v, volume = %v", d.Data["progress"], d.Data["volume"])
	}
}
