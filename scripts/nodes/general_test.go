package nodes_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/browser/browsertest"
	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/llm"
	"github.com/rodeo-run/rodeo/llm/llmtest"
	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/semantic"
)

// The general node's tests play tasks with a scripted model that reads the observation it is
// sent and finds ids by the names on their lines, as a model would: no test knows a selector or
// an id in advance. What the page shows afterwards proves what happened.

// call is a tool call of the scripted model.
func call(name string, args map[string]any) llmtest.ToolCall {
	b, _ := json.Marshal(args)
	return llmtest.ToolCall{Name: name, Arguments: string(b)}
}

// observation is the step's observation: the request's user message.
func observation(req llmtest.Request) string {
	for _, m := range req.Messages {
		if m.Role == "user" {
			return m.Content
		}
	}
	return ""
}

// idOf finds the id of the element line with that role and name in obs, or -1.
func idOf(obs, role, name string) int {
	m := regexp.MustCompile(`(?m)^\[(\d+)\] ` + regexp.QuoteMeta(role) + ` "` + regexp.QuoteMeta(name) + `"`).FindStringSubmatch(obs)
	if m == nil {
		return -1
	}
	var id int
	fmt.Sscan(m[1], &id)
	return id
}

// lineOf returns the element line with that role and name ("" when absent).
func lineOf(obs, role, name string) string {
	return regexp.MustCompile(`(?m)^\[\d+\] ` + regexp.QuoteMeta(role) + ` "` + regexp.QuoteMeta(name) + `".*$`).FindString(obs)
}

// player is a scripted model: policy gets each request (its observation, and on a retry the
// error said back) and returns the call to make. It records the observations it saw.
type player struct {
	mu   sync.Mutex
	seen []string
}

func (p *player) script(policy func(n int, obs string, req llmtest.Request) llmtest.Reply) llmtest.Script {
	return func(_ int, req llmtest.Request) llmtest.Reply {
		if len(req.Tools) == 0 {
			// The semantic engine asking for help with a description (extract): no opinion.
			return llmtest.Reply{Content: `{"id": null}`}
		}
		obs := observation(req)
		p.mu.Lock()
		n := len(p.seen)
		p.seen = append(p.seen, obs)
		p.mu.Unlock()
		return policy(n, obs, req)
	}
}

// agentCalls are the requests of the general node's loop (those offering tools).
func agentCalls(srv *llmtest.Server) []llmtest.Request {
	var out []llmtest.Request
	for _, c := range srv.Calls() {
		if len(c.Tools) > 0 {
			out = append(out, c)
		}
	}
	return out
}

func (p *player) observations() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.seen...)
}

// generalRun runs nodes with a model scripted by policy, on the node fixtures.
func generalRun(t *testing.T, nodes string, policy func(n int, obs string, req llmtest.Request) llmtest.Reply) (scripts.Doc, *player, *llmtest.Server) {
	t.Helper()
	p := &player{}
	sv, srv := llmServices(t, p.script(policy))
	base := browsertest.Serve(t, "testdata")
	return runWith(t, base, nodes, sv), p, srv
}

func reply(tc llmtest.ToolCall) llmtest.Reply {
	return llmtest.Reply{ToolCalls: []llmtest.ToolCall{tc}}
}

// subSteps returns the steps recorded under the general node at index i.
func subSteps(d scripts.Doc, i int) []scripts.Step {
	var out []scripts.Step
	prefix := fmt.Sprintf("%d.general.", i)
	for _, s := range d.Steps {
		if strings.HasPrefix(s.Path, prefix) {
			out = append(out, s)
		}
	}
	return out
}

// signUp plays the sign-up task by what the observation shows: fill what is empty, choose the
// plan, submit, read the confirmation, give it.
func signUp(n int, obs string, _ llmtest.Request) llmtest.Reply {
	switch {
	case strings.Contains(obs, `status "Thanks`) && !strings.Contains(obs, "Extracted so far"):
		return reply(call("extract", map[string]any{"description": "the confirmation message", "reason": "the confirmation is shown"}))
	case strings.Contains(obs, "Extracted so far"):
		m := regexp.MustCompile(`Extracted so far: "(.*)"`).FindStringSubmatch(obs)
		return reply(call("done", map[string]any{"result": m[1], "reason": "signed up"}))
	case !strings.Contains(lineOf(obs, "textbox", "Full name"), "value="):
		return reply(call("type", map[string]any{"id": idOf(obs, "textbox", "Full name"), "text": "Ada Lovelace", "reason": "the name field is empty"}))
	case !strings.Contains(lineOf(obs, "textbox", "Email"), "value="):
		// the id as a string: models write both
		return reply(call("type", map[string]any{"id": fmt.Sprint(idOf(obs, "textbox", "Email")), "text": "ada@example.com"}))
	case !strings.Contains(lineOf(obs, "combobox", "Plan"), `value="Team"`):
		return reply(call("select", map[string]any{"id": idOf(obs, "combobox", "Plan"), "option": "Team"}))
	}
	return reply(call("click", map[string]any{"id": idOf(obs, "button", "Sign up"), "reason": "the form is filled"}))
}

// TestGeneral_SignsUp: the model fills and submits a form, extracts the confirmation and gives
// it with done; the result is in the variable, every action is a verified sub-step with the
// model's reason and tokens, and the node's detail has the totals.
func TestGeneral_SignsUp(t *testing.T) {
	d, p, srv := generalRun(t, `[{"type": "general", "description": "Sign up as Ada Lovelace, ada@example.com, on the Team plan; give the confirmation", "start_url": "BASE/signup.html", "data": "confirmation"}]`, signUp)
	want := "Thanks, Ada Lovelace! We sent a confirmation to ada@example.com for the Team plan."
	if d.Status != scripts.StatusSucceeded || d.Data["confirmation"] != want {
		t.Fatalf("%s\n%s", dump(d), strings.Join(p.observations(), "\n-----\n"))
	}
	t.Logf("first observation:\n%s", p.observations()[0])
	subs := subSteps(d, 0)
	var tools []string
	for _, s := range subs {
		tools = append(tools, fmt.Sprint(s.Detail["tool"]))
		if s.Status != scripts.StepOK || s.Verification == nil || !s.Verification.Passed {
			t.Errorf("sub-step %s not verified: %s", s.Path, dump(d))
		}
	}
	if got := strings.Join(tools, ","); got != "navigate,type,type,select,click,extract" {
		t.Fatalf("sub-actions %s: %s", got, dump(d))
	}
	if subs[1].Path != "0.general.1" || subs[1].Detail["reason"] != "the name field is empty" || subs[1].Detail["tokens"] == nil {
		t.Fatalf("sub-step record: %s", dump(d))
	}
	top := d.Steps[len(d.Steps)-1]
	if top.Path != "" || top.Type != "general" || top.Detail["model_calls"] != len(agentCalls(srv)) || top.Detail["steps"] != 6 {
		t.Fatalf("node detail: %s", dump(d))
	}
}

// TestGeneral_SearchesAndOpensTheSecondResult: type a query with submit, then open the second
// result by reading the result lines; the book page it lands on is the second one listed.
func TestGeneral_SearchesAndOpensTheSecondResult(t *testing.T) {
	links := regexp.MustCompile(`(?m)^\[(\d+)\] link "([^"]+)"`)
	d, p, _ := generalRun(t, `[{"type": "general", "description": "Search the library for Go and open the second result", "start_url": "BASE/search.html", "data": "opened"},
		{"type": "semanticScrape", "target": "the main heading", "data": "heading"}]`,
		func(n int, obs string, _ llmtest.Request) llmtest.Reply {
			switch {
			case strings.Contains(obs, "/book.html"):
				return reply(call("done", map[string]any{"result": "opened"}))
			case len(links.FindAllStringSubmatch(obs, -1)) >= 2:
				second := links.FindAllStringSubmatch(obs, -1)[1]
				return reply(call("click", map[string]any{"id": second[1], "reason": "the second result is " + second[2]}))
			}
			return reply(call("type", map[string]any{"id": idOf(obs, "searchbox", "Search books"), "text": "go", "submit": true}))
		})
	if d.Status != scripts.StatusSucceeded || d.Data["heading"] != "Go in Action" && d.Data["heading"] != "The Go Programming Language" {
		t.Fatalf("%s\n%s", dump(d), strings.Join(p.observations(), "\n-----\n"))
	}
	// "go" matches Go in Action, The Go Programming Language, Learning Go: the second is the
	// Go Programming Language. Go in Action would mean the first was opened.
	if d.Data["heading"] != "The Go Programming Language" {
		t.Fatalf("opened %v, not the second result", d.Data["heading"])
	}
	var submit bool
	for _, s := range subSteps(d, 0) {
		submit = submit || strings.HasSuffix(s.Path, ".submit")
	}
	if !submit {
		t.Fatalf("no submit sub-step: %s", dump(d))
	}
}

// TestGeneral_PagesThroughTheTable: the value is on the table's third page; the model clicks
// Next until the row shows and gives its stock with done.
func TestGeneral_PagesThroughTheTable(t *testing.T) {
	cell := regexp.MustCompile(`(?m)^\[\d+\] cell "Magnet".*\n\[\d+\] cell "(\d+)"`)
	d, p, _ := generalRun(t, `[{"type": "general", "description": "How many Magnets are in stock?", "start_url": "BASE/inventory.html", "data": "stock"}]`,
		func(n int, obs string, _ llmtest.Request) llmtest.Reply {
			if m := cell.FindStringSubmatch(obs); m != nil {
				return reply(call("done", map[string]any{"result": m[1], "reason": "the Magnet row says " + m[1]}))
			}
			return reply(call("click", map[string]any{"id": idOf(obs, "button", "Next"), "reason": "Magnet is not on this page"}))
		})
	if d.Status != scripts.StatusSucceeded || d.Data["stock"] != "83" {
		t.Fatalf("%s\n%s", dump(d), strings.Join(p.observations(), "\n-----\n"))
	}
	if obs := p.observations(); len(obs) != 3 || !strings.Contains(obs[2], "Page 3 of 3") {
		t.Fatalf("want three observations, the last on page 3:\n%s", strings.Join(obs, "\n-----\n"))
	}
}

// TestGeneral_MalformedCallThenAGoodOne: arguments that are not JSON are said back to the model
// once, as a tool message with the parse error, and its corrected call goes on.
func TestGeneral_MalformedCallThenAGoodOne(t *testing.T) {
	d, _, srv := generalRun(t, `[{"type": "general", "description": "Search for Rust", "start_url": "BASE/search.html"}]`,
		func(n int, obs string, req llmtest.Request) llmtest.Reply {
			switch {
			case n == 0:
				return reply(llmtest.ToolCall{Name: "type", Arguments: `{"id": 1, "text": "rust"`})
			case strings.Contains(obs, `link "Rust in Action"`):
				return reply(call("done", map[string]any{"result": "Rust in Action"}))
			}
			return reply(call("type", map[string]any{"id": idOf(obs, "searchbox", "Search books"), "text": "rust", "submit": true}))
		})
	if d.Status != scripts.StatusSucceeded || d.Data["general_result"] != "Rust in Action" {
		t.Fatal(dump(d))
	}
	calls := agentCalls(srv)
	retry := calls[1].Messages
	last := retry[len(retry)-1]
	if len(calls) != 3 || last.Role != "tool" || !strings.Contains(last.Content, "not a JSON object") || retry[len(retry)-2].Role != "assistant" {
		t.Fatalf("the retry should carry the parse error back: %d calls, %+v", len(calls), last)
	}
	if top := d.Steps[len(d.Steps)-1]; top.Detail["steps"] != 2 || top.Detail["model_calls"] != 3 {
		t.Fatalf("a retry is no step of its own, but a model call: %v", top.Detail)
	}
}

// TestGeneral_MalformedTwiceFails: a second unusable reply fails the node with llm_failed.
func TestGeneral_MalformedTwiceFails(t *testing.T) {
	d, _, srv := generalRun(t, `[{"type": "general", "description": "Search for Rust", "start_url": "BASE/search.html"}]`,
		func(n int, obs string, req llmtest.Request) llmtest.Reply {
			return llmtest.Reply{Content: "I would type rust into the search box."}
		})
	if d.Status != scripts.StatusFailed || stepErr(d, len(d.Steps)-1) != "llm_failed" || len(agentCalls(srv)) != 2 {
		t.Fatal(dump(d))
	}
}

// TestGeneral_UnknownIDIsRefusedBack: an id that is not in the observation is not acted on; the
// next observation says why, and the model goes on.
func TestGeneral_UnknownIDIsRefusedBack(t *testing.T) {
	d, p, _ := generalRun(t, `[{"type": "general", "description": "Sign up", "start_url": "BASE/signup.html"}]`,
		func(n int, obs string, _ llmtest.Request) llmtest.Reply {
			if n == 0 {
				return reply(call("click", map[string]any{"id": 9999}))
			}
			return reply(call("done", map[string]any{"result": "stopped"}))
		})
	obs := p.observations()
	if d.Status != scripts.StatusSucceeded || len(obs) != 2 || !strings.Contains(obs[1], "click [9999] -> refused: there is no [9999]") {
		t.Fatalf("%s\n%s", dump(d), strings.Join(obs, "\n-----\n"))
	}
	if subs := subSteps(d, 0); len(subs) != 1 { // the start_url navigation only
		t.Fatalf("a refused id ran an action: %s", dump(d))
	}
}

// TestGeneral_NoEffectIsReported: a click that changed nothing is a failed sub-step, and the
// model is told so in its next observation.
func TestGeneral_NoEffectIsReported(t *testing.T) {
	d, p, _ := generalRun(t, `[{"type": "general", "description": "Sign up", "start_url": "BASE/signup.html"}]`,
		func(n int, obs string, _ llmtest.Request) llmtest.Reply {
			if n == 0 {
				return reply(call("click", map[string]any{"id": idOf(obs, "button", "Do nothing")}))
			}
			return reply(call("fail", map[string]any{"reason": "the button does nothing"}))
		})
	obs := p.observations()
	subs := subSteps(d, 0)
	if len(obs) != 2 || !regexp.MustCompile(`1\. click \[\d+\] \(button "Do nothing"\) -> FAILED: no effect: the action changed nothing`).MatchString(obs[1]) ||
		!strings.Contains(obs[1], "nothing on the page changed") {
		t.Fatalf("%s\n%s", dump(d), strings.Join(obs, "\n-----\n"))
	}
	if len(subs) != 2 || subs[1].Status != scripts.StepFailed || subs[1].Error.Code != "verification_failed" {
		t.Fatalf("the click's sub-step: %s", dump(d))
	}
	top := d.Steps[len(d.Steps)-1]
	if d.Status != scripts.StatusFailed || top.Error.Code != "agent_failed" || !strings.Contains(top.Error.Message, "the button does nothing") {
		t.Fatalf("fail(reason) fails the node with the reason: %s", dump(d))
	}
}

// TestGeneral_StuckModelIsNudgedThenFails: the same click on the same page is nudged at the
// third choice and fails agent_stuck at the fifth, which is not acted on.
func TestGeneral_StuckModelIsNudgedThenFails(t *testing.T) {
	d, p, srv := generalRun(t, `[{"type": "general", "description": "Sign up", "start_url": "BASE/signup.html"}]`,
		func(n int, obs string, _ llmtest.Request) llmtest.Reply {
			return reply(call("click", map[string]any{"id": idOf(obs, "button", "Do nothing")}))
		})
	obs := p.observations()
	if d.Status != scripts.StatusFailed || stepErr(d, len(d.Steps)-1) != "agent_stuck" || len(agentCalls(srv)) != 5 {
		t.Fatal(dump(d))
	}
	if strings.Contains(obs[2], "You have chosen") || !strings.Contains(obs[3], "You have chosen click") || !strings.Contains(obs[3], "3 times on this same page") {
		t.Fatalf("the nudge belongs in the observation after the third choice:\n%s", strings.Join(obs, "\n-----\n"))
	}
	if subs := subSteps(d, 0); len(subs) != 5 { // start_url and four clicks
		t.Fatalf("want 4 clicks: %s", dump(d))
	}
}

// TestGeneral_StepBudgetKeepsThePartialResult: with max_steps 3 the node fails step_budget, and
// what extract read is kept in the variable.
func TestGeneral_StepBudgetKeepsThePartialResult(t *testing.T) {
	d, _, srv := generalRun(t, `[{"type": "general", "description": "Sign up", "start_url": "BASE/signup.html", "max_steps": 3, "data": "partial"}]`,
		func(n int, obs string, _ llmtest.Request) llmtest.Reply {
			if n == 0 {
				return reply(call("extract", map[string]any{"description": "the main heading"}))
			}
			return reply(call("scroll", map[string]any{"direction": "down"}))
		})
	top := d.Steps[len(d.Steps)-1]
	if d.Status != scripts.StatusFailed || top.Error.Code != "step_budget" || len(agentCalls(srv)) != 3 || d.Data["partial"] != "Create your account" {
		t.Fatal(dump(d))
	}
}

// TestGeneral_TokenBudget: the calls' tokens reach max_tokens and the node stops, before acting
// on the call that reached it.
func TestGeneral_TokenBudget(t *testing.T) {
	d, _, srv := generalRun(t, `[{"type": "general", "description": "Sign up", "start_url": "BASE/signup.html", "max_tokens": 1000}]`,
		func(n int, obs string, _ llmtest.Request) llmtest.Reply {
			r := reply(call("scroll", map[string]any{"direction": "down"}))
			r.PromptTokens, r.CompletionTokens = 550, 20
			return r
		})
	top := d.Steps[len(d.Steps)-1]
	if d.Status != scripts.StatusFailed || top.Error.Code != "token_budget" || len(agentCalls(srv)) != 2 || top.Detail["prompt_tokens"] != 1100 {
		t.Fatal(dump(d))
	}
	if subs := subSteps(d, 0); len(subs) != 2 { // start_url and one scroll
		t.Fatalf("the call over budget must not act: %s", dump(d))
	}
}

// TestGeneral_TimeBudget: a slow model runs the node out of its timeout: time_budget, not the
// runner's generic timeout, with the steps it made.
func TestGeneral_TimeBudget(t *testing.T) {
	d, _, _ := generalRun(t, `[{"type": "general", "description": "Sign up", "start_url": "BASE/signup.html", "timeout": 4}]`,
		func(n int, obs string, _ llmtest.Request) llmtest.Reply {
			r := reply(call("scroll", map[string]any{"direction": "down"}))
			r.Delay = 1500 * time.Millisecond
			return r
		})
	top := d.Steps[len(d.Steps)-1]
	if d.Status != scripts.StatusFailed || top.Error.Code != "time_budget" || top.DurationMS > 4000 {
		t.Fatal(dump(d))
	}
}

// TestGeneral_CancelStopsTheLoop: a run canceled while the model thinks makes no further call.
func TestGeneral_CancelStopsTheLoop(t *testing.T) {
	p := testPool(t)
	base := browsertest.Serve(t, "testdata")
	var run atomic.Pointer[scripts.Run]
	srv := llmtest.New(t, func(n int, req llmtest.Request) llmtest.Reply {
		if n == 1 {
			run.Load().Cancel()
			return llmtest.Reply{Delay: 300 * time.Millisecond, ToolCalls: []llmtest.ToolCall{call("scroll", map[string]any{"direction": "down"})}}
		}
		return reply(call("scroll", map[string]any{"direction": "down"}))
	})
	s, err := scripts.DefaultRegistry.Compile(t.Name(), []json.RawMessage{json.RawMessage(`{"type": "general", "description": "Scroll forever", "start_url": "` + base + `/actions.html"}`)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	runner := &scripts.Runner{Registry: scripts.DefaultRegistry, Services: &scripts.Services{LLM: llm.New(srv.Config())},
		Browsers: scripts.LeaserFunc(func(ctx context.Context) (scripts.BrowserSession, error) { return p.Lease(ctx) })}
	r := scripts.NewRun("r_cancel_general", "acct_test", "test", s)
	run.Store(r)
	runner.Execute(context.Background(), r, scripts.ExecOptions{Timeout: time.Minute})
	time.Sleep(200 * time.Millisecond) // a call made after the cancel would arrive by now
	d := r.Doc()
	if d.Status != scripts.StatusCanceled || len(srv.Calls()) != 2 {
		t.Fatalf("%d calls: %s", len(srv.Calls()), dump(d))
	}
	// Each sub-step was published as it ended, before the node's own step.
	past, _, _ := r.Subscribe()
	var paths []string
	for _, ev := range past {
		if ev.Type == "step" {
			paths = append(paths, ev.Step.Path+"/"+ev.Step.Type)
		}
	}
	if got := strings.Join(paths, " "); got != "0.general.0/open tab 0.general.1/scroll /general" {
		t.Fatalf("step events: %s", got)
	}
}

// TestGeneral_NoModelIsRefusedBeforeTheRun: without a model, a script holding any of the three
// kinds is refused at admission with llm_not_configured naming what to set; nothing runs.
func TestGeneral_NoModelIsRefusedBeforeTheRun(t *testing.T) {
	engine := scripts.NewEngine(&scripts.Runner{Registry: scripts.DefaultRegistry, Services: &scripts.Services{}}, nil, nil)
	defer engine.Shutdown(context.Background())
	for _, node := range []string{
		`{"type": "general", "description": "Sign up"}`,
		`{"type": "Generalized Agent", "prompt": "Sign up"}`,
		`{"type": "General (Project Atlas)", "prompt": "Sign up"}`,
		`{"type": "loop", "loop_total_runs": 2, "do": [{"type": "general_atlas", "prompt": "Sign up"}]}`,
	} {
		s, err := scripts.DefaultRegistry.Compile("g", []json.RawMessage{json.RawMessage(`{"type": "print", "text": "before"}`), json.RawMessage(node)}, nil)
		if err != nil {
			t.Fatalf("%s: %v", node, err)
		}
		r, err := engine.Start(context.Background(), s, scripts.StartOptions{Account: "a"})
		var e *errs.Error
		if r != nil || !errors.As(err, &e) || e.Code != errs.LLMNotConfigured || !strings.Contains(e.Message, "OPENAI_API_KEY") ||
			len(e.Details) != 1 || *e.Details[0].Node != 1 {
			t.Fatalf("%s: %v %+v", node, r, err)
		}
	}
}

// TestGeneral_PromptTokensPerStep measures what a step costs on a 2,000-element page: the
// test server's count of each loop request's prompt (messages, tool calls and tool
// definitions at four characters a token) over ten mixed steps, against the page's raw HTML
// as a prompt. The bound: a median step prompt of at most 1,500 tokens.
func TestGeneral_PromptTokensPerStep(t *testing.T) {
	p := testPool(t)
	base := browsertest.Serve(t, "testdata")
	s, err := p.Lease(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	page := s.Page()
	if err := page.Navigate(base + "/catalog.html"); err != nil {
		t.Fatal(err)
	}
	_ = page.WaitLoad()
	snap, err := semantic.Snap(context.Background(), page)
	if err != nil {
		t.Fatal(err)
	}
	html := page.MustEval(`() => document.documentElement.outerHTML.length`).Int()
	s.Release()
	if len(snap.Elements) < 2000 {
		t.Fatalf("the fixture has %d snapshot elements, want 2,000 or more", len(snap.Elements))
	}

	moves := []func(obs string) llmtest.ToolCall{
		func(obs string) llmtest.ToolCall {
			return call("type", map[string]any{"id": idOf(obs, "searchbox", "Search products"), "text": "magnet"})
		},
		func(obs string) llmtest.ToolCall {
			return call("select", map[string]any{"id": idOf(obs, "combobox", "Category"), "option": "Tools"})
		},
		func(obs string) llmtest.ToolCall {
			return call("click", map[string]any{"id": idOf(obs, "checkbox", "Magnet tag")})
		},
		func(obs string) llmtest.ToolCall { return call("scroll", map[string]any{"direction": "down"}) },
		func(obs string) llmtest.ToolCall {
			return call("click", map[string]any{"id": idOf(obs, "button", "Edit")})
		},
		func(obs string) llmtest.ToolCall { return call("scroll", map[string]any{"direction": "down"}) },
		func(obs string) llmtest.ToolCall {
			return call("extract", map[string]any{"description": "the price of Magnet pro 12"})
		},
		func(obs string) llmtest.ToolCall { return call("scroll", map[string]any{"direction": "up"}) },
		func(obs string) llmtest.ToolCall {
			return call("click", map[string]any{"id": idOf(obs, "checkbox", "Bolt tag")})
		},
		func(obs string) llmtest.ToolCall { return call("done", map[string]any{"result": "measured"}) },
	}
	d, pl, srv := generalRun(t, `[{"type": "general", "description": "Find the price of Magnet pro 12 in the tools category", "start_url": "BASE/catalog.html"}]`,
		func(n int, obs string, _ llmtest.Request) llmtest.Reply {
			return reply(moves[min(n, len(moves)-1)](obs))
		})
	if d.Status != scripts.StatusSucceeded {
		t.Fatalf("%s\n%s", dump(d), strings.Join(pl.observations(), "\n-----\n"))
	}
	top := d.Steps[len(d.Steps)-1]
	prompts := top.Detail["step_prompt_tokens"].([]int)
	if len(prompts) != len(moves) || len(agentCalls(srv)) != len(moves) {
		t.Fatalf("want %d model calls, got %v", len(moves), prompts)
	}
	sorted := append([]int(nil), prompts...)
	sort.Ints(sorted)
	sum := 0
	for _, n := range prompts {
		sum += n
	}
	median := (sorted[len(sorted)/2-1] + sorted[len(sorted)/2]) / 2
	t.Logf("2,000-element page (%d snapshot elements, raw HTML %d characters = %d tokens): step prompts %v; median %d, mean %d, max %d tokens",
		len(snap.Elements), html, html/4, prompts, median, sum/len(prompts), sorted[len(sorted)-1])
	t.Logf("the sixth observation:\n%s", pl.observations()[5])
	if median > 1500 {
		t.Fatalf("median step prompt %d tokens, over the 1,500 bound; the first observation:\n%s", median, pl.observations()[0])
	}
}

// TestGeneral_AtlasSeesItsInputs: the studio's General (Project Atlas) is the same loop with its
// goal as prompt (templated); the variables it names are shown, and done's object result is
// stored as it is.
func TestGeneral_AtlasSeesItsInputs(t *testing.T) {
	p := &player{}
	sv, _ := llmServices(t, p.script(func(n int, obs string, _ llmtest.Request) llmtest.Reply {
		if !strings.Contains(obs, "Goal: Greet Ada\n") || !strings.Contains(obs, `Input customer: {"name":"Ada"}`) {
			return reply(call("fail", map[string]any{"reason": "no input"}))
		}
		return reply(call("done", map[string]any{"result": map[string]any{"greeted": "Ada", "ok": true}}))
	}))
	base := browsertest.Serve(t, "testdata")
	nodes := `[{"type": "General (Project Atlas)", "prompt": "Greet {{who}}", "input": ["customer"], "start_url": "BASE/blank.html", "data": "out"}]`
	pool := testPool(t)
	var raw []json.RawMessage
	_ = json.Unmarshal([]byte(strings.ReplaceAll(nodes, "BASE", base)), &raw)
	s, err := scripts.DefaultRegistry.Compile(t.Name(), raw, map[string]any{"who": "Ada", "customer": map[string]any{"name": "Ada"}})
	if err != nil {
		t.Fatal(err)
	}
	runner := &scripts.Runner{Registry: scripts.DefaultRegistry, Services: sv,
		Browsers: scripts.LeaserFunc(func(ctx context.Context) (scripts.BrowserSession, error) { return pool.Lease(ctx) })}
	r := scripts.NewRun("r_atlas_inputs", "acct_test", "test", s)
	runner.Execute(context.Background(), r, scripts.ExecOptions{Timeout: time.Minute})
	d := r.Doc()
	out, _ := d.Data["out"].(map[string]any)
	if d.Status != scripts.StatusSucceeded || out["greeted"] != "Ada" || out["ok"] != true || d.Steps[len(d.Steps)-1].Type != "general_atlas" {
		t.Fatalf("%s\n%s", dump(d), strings.Join(p.observations(), "\n-----\n"))
	}
}

// TestGeneral_NavigateStaysOnTheWeb: navigate refuses a file: URL (said back to the model, no
// sub-step), and resolves a path against the page it is on.
func TestGeneral_NavigateStaysOnTheWeb(t *testing.T) {
	d, p, _ := generalRun(t, `[{"type": "general", "description": "Open the Dune page", "start_url": "BASE/search.html"},
		{"type": "semanticScrape", "target": "the main heading", "data": "heading"}]`,
		func(n int, obs string, _ llmtest.Request) llmtest.Reply {
			switch n {
			case 0:
				return reply(call("navigate", map[string]any{"url": "file:///etc/passwd"}))
			case 1:
				return reply(call("navigate", map[string]any{"url": "/book.html?title=Dune"}))
			}
			return reply(call("done", map[string]any{"result": "opened"}))
		})
	obs := p.observations()
	if d.Status != scripts.StatusSucceeded || d.Data["heading"] != "Dune" || len(obs) != 3 ||
		!strings.Contains(obs[1], "FAILED: invalid_config: target: only http and https URLs can be opened") {
		t.Fatalf("%s\n%s", dump(d), strings.Join(obs, "\n-----\n"))
	}
	if subs := subSteps(d, 0); len(subs) != 2 || subs[1].Type != "open tab" || !strings.HasSuffix(fmt.Sprint(subs[1].Detail["url"]), "/book.html?title=Dune") {
		t.Fatalf("want start_url and one navigation: %s", dump(d))
	}
}
