package nodes_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/llm"
	"github.com/rodeo-run/rodeo/llm/llmtest"
	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/store"
)

// codeRun compiles nodes and runs them without a browser, with code nodes allowed (or not) and
// the given model, and returns the run (for its events) and its document.
func codeRun(t *testing.T, services *scripts.Services, nodes []map[string]any, data map[string]any) (*scripts.Run, scripts.Doc) {
	t.Helper()
	if services == nil {
		services = &scripts.Services{CodeNodes: true}
	}
	if services.WorkDir == "" {
		services.WorkDir = t.TempDir()
	}
	raw := make([]json.RawMessage, len(nodes))
	for i, n := range nodes {
		raw[i], _ = json.Marshal(n)
	}
	s, err := scripts.DefaultRegistry.Compile(t.Name(), raw, data)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	runner := &scripts.Runner{Registry: scripts.DefaultRegistry, Services: services}
	r := scripts.NewRun("r_"+strings.NewReplacer("/", "_", " ", "_").Replace(t.Name()), "test", "test", s)
	runner.Execute(context.Background(), r, scripts.ExecOptions{Timeout: time.Minute})
	return r, r.Doc()
}

// hostile is webhook data built to break out of every kind of quoting.
const hostile = "He said \"hi\" & 'bye'\n$(touch MARK) `touch MARK` ; touch MARK; rm -rf MARKDIR # \\ \\n {x} {{data}}\n" +
	"__import__('os').system('touch MARK')\r\n\"\"\"'''\t${HOME} $'x' \\x27 \\' ünïcødé 😀\u2028 end\\"

func TestCodeInjection(t *testing.T) {
	mark := filepath.Join(t.TempDir(), "pwned")
	data := strings.ReplaceAll(hostile, "MARK", mark)
	py := func(expr string) map[string]any {
		return map[string]any{"type": "python", "code": "graph.global_variables['out'] = " + expr}
	}
	sh := func(cmd string) map[string]any { return map[string]any{"type": "bash", "command": cmd, "data": "out"} }
	cases := []struct {
		name string
		node map[string]any
		want string
	}{
		{"python bare", py("{{data}}"), data},
		{"python double quoted", py(`"{{data}}"`), data},
		{"python single quoted", py(`'{{data}}'`), data},
		{"python triple quoted", py(`"""{{data}}"""`), data},
		{"python f-string", py(`f"{{data}}"`), data},
		{"python raw bytes prefix", py(`rb'{{ data }}'`), data},
		{"python inside a string", py(`"pre:{{data}}:post"`), "pre:" + data + ":post"},
		{"python inside a single-quoted string", py(`'pre:{{data}}:post'`), "pre:" + data + ":post"},
		{"python inside an f-string", py(`f"pre:{{data}}:{1+1}"`), "pre:" + data + ":2"},
		{"python comment", map[string]any{"type": "python", "code": "# {{data}}\ngraph.global_variables['out'] = 'c'"}, "c"},
		{"python_code alias", map[string]any{"type": "python_code", "code": "graph.global_variables['out'] = \"{{data}}\""}, data},
		{"bash bare", sh(`printf '%s' {{data}}`), data},
		{"bash double quoted", sh(`printf '%s' "{{data}}"`), data},
		{"bash single quoted", sh(`printf '%s' '{{data}}'`), data},
		{"bash ansi quoted", sh(`printf '%s' $'{{data}}'`), data},
		{"bash inside double quotes", sh(`printf '%s' "pre:{{data}}:post"`), "pre:" + data + ":post"},
		{"bash inside single quotes", sh(`printf '%s' 'pre:{{data}}:post'`), "pre:" + data + ":post"},
		{"bash assignment", sh(`x={{data}}; printf '%s' "$x"`), data},
		{"bash command substitution", sh(`printf '%s' "$(printf '%s' "{{data}}")"`), data},
		{"bash comment", sh("# {{data}}\nprintf done"), "done"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, doc := codeRun(t, nil, []map[string]any{tc.node}, map[string]any{"data": data})
			if doc.Status != scripts.StatusSucceeded {
				t.Fatalf("run %s: %s", doc.Status, dump(doc))
			}
			if got := doc.Data["out"]; got != tc.want {
				t.Errorf("the value changed on its way:\n got %q\nwant %q", got, tc.want)
			}
			if _, err := os.Stat(mark); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("the data ran as code: %s exists", mark)
			}
		})
	}
}

func TestCodeInjection_UnsafeContextsRefused(t *testing.T) {
	cases := []struct{ name, typ, code string }{
		{"python raw string part", "python", `x = r"a{{data}}b"`},
		{"python bytes string part", "python", `x = b"a{{data}}b"`},
		{"bash here-document", "bash", "cat <<EOF\n{{data}}\nEOF"},
		{"bash quoted here-document", "bash", "cat <<'EOF'\na {{data}}\nEOF"},
		{"bash backquotes", "bash", "echo `echo {{data}}`"},
		{"bash parameter expansion", "bash", `echo "${x:-{{data}}}"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			param := "code"
			if tc.typ == "bash" {
				param = "command"
			}
			_, doc := codeRun(t, nil, []map[string]any{{"type": tc.typ, param: tc.code}}, map[string]any{"data": "$(id)"})
			if stepErr(doc, 0) != "invalid_config" || doc.Steps[0].Detail["exit_code"] != nil {
				t.Fatalf("want invalid_config before anything ran: %s", dump(doc))
			}
		})
	}
	// A missing variable is named, as for text parameters.
	_, doc := codeRun(t, nil, []map[string]any{{"type": "bash", "command": "echo {{nope}}"}}, nil)
	if stepErr(doc, 0) != "variable_not_set" || !strings.Contains(doc.Steps[0].Error.Message, "nope") {
		t.Fatal(dump(doc))
	}
}

func TestCodeLiterals_Values(t *testing.T) {
	data := map[string]any{"s": "plain text", "n": 42, "neg": -2.5, "t": true, "f": false, "z": nil,
		"obj": map[string]any{"k": []any{1, "two", nil, true}, "q": "it's \"x\""}}
	code := `g = graph.global_variables
g['out'] = [{{n}}, 2**{{neg}} == 2**-2.5, {{t}}, {{f}}, {{z}}, {{obj}}, f"{ {{s}} }"]`
	_, doc := codeRun(t, nil, []map[string]any{{"type": "python", "code": code}}, data)
	if doc.Status != scripts.StatusSucceeded {
		t.Fatal(dump(doc))
	}
	got, _ := json.Marshal(doc.Data["out"])
	want := `[42,true,true,false,null,{"k":[1,"two",null,true],"q":"it's \"x\""},"plain text"]`
	if string(got) != want {
		t.Errorf("literals:\n got %s\nwant %s", got, want)
	}
}

func TestPython_GlobalVariablesRoundTrip(t *testing.T) {
	code := `g = graph.global_variables
g['n2'] = g['n'] * 21
g['obj']['added'] = None
g['new'] = {"list": [1.5, "x"], "ok": True}
g['text'] = g['text'].upper()
print("done")`
	_, doc := codeRun(t, nil, []map[string]any{{"type": "python", "code": code, "data": "printed"}},
		map[string]any{"n": 2, "obj": map[string]any{"k": "v"}, "text": "héllo"})
	if doc.Status != scripts.StatusSucceeded {
		t.Fatal(dump(doc))
	}
	got, _ := json.Marshal(doc.Data)
	want := `{"n":2,"n2":42,"new":{"list":[1.5,"x"],"ok":true},"obj":{"added":null,"k":"v"},"printed":"done","text":"HÉLLO"}`
	if string(got) != want {
		t.Errorf("variables:\n got %s\nwant %s", got, want)
	}
	if set, _ := doc.Steps[0].Detail["variables_set"].([]string); strings.Join(set, ",") != "n2,new,obj,text" {
		t.Errorf("variables_set = %v", doc.Steps[0].Detail["variables_set"])
	}
	// A failing script changes nothing.
	_, doc = codeRun(t, nil, []map[string]any{{"type": "python", "code": "graph.global_variables['n'] = 99\nraise SystemExit(3)"}},
		map[string]any{"n": 2})
	if stepErr(doc, 0) != "code_failed" || scripts.Text(doc.Data["n"]) != "2" || doc.Steps[0].Detail["exit_code"] != 3 {
		t.Fatal(dump(doc))
	}
}

func TestPython_ThreadSignals(t *testing.T) {
	code := `thread_signals.notifications.emit("hello " + {{who}})
thread_signals.chat.emit({"not": "a string"})
print("out")`
	r, doc := codeRun(t, nil, []map[string]any{{"type": "python", "code": code}}, map[string]any{"who": "ada"})
	if doc.Status != scripts.StatusSucceeded {
		t.Fatal(dump(doc))
	}
	events, _, _ := r.Subscribe()
	var got []string
	for _, ev := range events {
		if ev.Type == "notification" || ev.Type == "chat" {
			got = append(got, ev.Type+": "+ev.Message)
		}
	}
	if want := "notification: hello ada|chat: {'not': 'a string'}"; strings.Join(got, "|") != want {
		t.Errorf("events %q, want %q", strings.Join(got, "|"), want)
	}
	if kept, _ := doc.Steps[0].Detail["signals"].([]map[string]string); len(kept) != 2 || kept[0]["message"] != "hello ada" {
		t.Errorf("signals in the step detail: %v", doc.Steps[0].Detail["signals"])
	}
}

func TestCode_Failures(t *testing.T) {
	_, doc := codeRun(t, nil, []map[string]any{{"type": "bash", "command": "echo to-out; echo boom >&2; exit 7"}}, nil)
	st := doc.Steps[0]
	if stepErr(doc, 0) != "code_failed" || st.Detail["exit_code"] != 7 || st.Detail["stdout"] != "to-out\n" ||
		st.Detail["stderr"] != "boom\n" || !strings.Contains(st.Error.Message, "boom") {
		t.Fatal(dump(doc))
	}
	// Output is capped at 64 KiB; over 16 KiB, the step keeps it as an artifact with a link.
	db, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r, doc := codeRun(t, &scripts.Services{CodeNodes: true, Store: db}, []map[string]any{{"type": "python", "code": "import sys\nsys.stdout.write('x' * 200000)"}}, nil)
	st = doc.Steps[0]
	link, _ := st.Detail["stdout"].(map[string]any)
	if doc.Status != scripts.StatusSucceeded || link["bytes"] != 64<<10 || link["artifact"] != store.ArtifactPath(r.ID(), "step-0-stdout.txt") || st.Detail["output_truncated"] == nil {
		t.Fatalf("stdout %.300v, truncated %v", st.Detail["stdout"], st.Detail["output_truncated"])
	}
	if a, err := db.GetArtifact("test", r.ID(), "step-0-stdout.txt"); err != nil || string(a.Data) != strings.Repeat("x", 64<<10) {
		t.Fatalf("stdout artifact: %d bytes, %v", len(a.Data), err)
	}
}

func TestCode_Disabled(t *testing.T) {
	llmSrv := llmtest.New(t, func(int, llmtest.Request) llmtest.Reply { return llmtest.Reply{Content: "print(1)"} })
	services := &scripts.Services{CodeNodes: false, LLM: llm.New(llmSrv.Config())}
	mark := filepath.Join(t.TempDir(), "ran")
	for _, node := range []map[string]any{
		{"type": "python", "code": "open(" + strconv.Quote(mark) + ", 'w')"},
		{"type": "bash", "command": "touch " + mark},
		{"type": "gpt4", "input": "write code", "type_output": true},
	} {
		_, doc := codeRun(t, services, []map[string]any{node}, nil)
		if stepErr(doc, 0) != "code_disabled" || !strings.Contains(doc.Steps[0].Error.Message, "RODEO_CODE_NODES") {
			t.Errorf("%s: %s", node["type"], dump(doc))
		}
	}
	if _, err := os.Stat(mark); err == nil {
		t.Error("code ran although code nodes are disabled")
	}
	if n := len(llmSrv.Calls()); n != 0 {
		t.Errorf("gpt4 asked the model %d times for code it could not run", n)
	}
}

func TestCode_TimeoutKillsTheProcessGroup(t *testing.T) {
	services := &scripts.Services{CodeNodes: true, WorkDir: t.TempDir()}
	begin := time.Now()
	r, doc := codeRun(t, services, []map[string]any{{"type": "bash", "timeout": 1,
		"command": "sleep 61.4242 & echo $! > child.pid; python3 -c 'import time; time.sleep(60)'"}}, nil)
	if took := time.Since(begin); took > 8*time.Second {
		t.Errorf("the run took %s with a 1s node time limit", took)
	}
	if stepErr(doc, 0) != "timeout" {
		t.Fatal(dump(doc))
	}
	if _, err := os.ReadFile(filepath.Join(services.WorkDir, r.ID(), "child.pid")); err != nil {
		t.Fatal(err)
	}
	// The child's pid is the sandbox's own (a PID namespace): look for it by its command line.
	deadline := time.Now().Add(3 * time.Second)
	for {
		pid := findProcess("61.4242")
		if pid == 0 {
			break
		}
		if time.Now().After(deadline) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the background child %d outlived the time limit", pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
	_ = r
}

// findProcess returns a live process whose command line contains s, or 0.
func findProcess(s string) int {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmd, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && strings.Contains(string(cmd), s) && alive(pid) {
			return pid
		}
	}
	return 0
}

// alive reports whether pid runs (a zombie waiting for its reaper counts as dead).
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

func TestCode_NoInheritedSecrets(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-fake-secret-123")
	t.Setenv("RODEO_API_KEY", "rk_fake_secret_456")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "aws-fake-secret-789")
	services := &scripts.Services{CodeNodes: true, WorkDir: t.TempDir()}
	r, doc := codeRun(t, services, []map[string]any{
		{"type": "python", "code": "import os\ngraph.global_variables['pyenv'] = dict(os.environ)"},
		{"type": "bash", "command": "tr '\\0' '\\n' < /proc/$$/environ", "data": "shenv"},
	}, nil)
	if doc.Status != scripts.StatusSucceeded {
		t.Fatal(dump(doc))
	}
	all, _ := json.Marshal(doc)
	for _, secret := range []string{"sk-fake-secret", "rk_fake_secret", "aws-fake-secret", "OPENAI_API_KEY", "RODEO_"} {
		if strings.Contains(string(all), secret) {
			t.Errorf("the code saw %s", secret)
		}
	}
	env, _ := doc.Data["pyenv"].(map[string]any)
	work := filepath.Join(services.WorkDir, r.ID())
	if env["HOME"] != work || env["TMPDIR"] != work {
		t.Errorf("HOME/TMPDIR = %v/%v, want the run's folder %s", env["HOME"], env["TMPDIR"], work)
	}
	// What the process was started with (interpreters add their own, e.g. SHLVL; the sandbox
	// adds PWD, the run's folder).
	var names []string
	for _, kv := range strings.Split(doc.Data["shenv"].(string), "\n") {
		name, _, _ := strings.Cut(kv, "=")
		if name != "PWD" {
			names = append(names, name)
		}
	}
	if strings.Join(names, ",") != "PATH,HOME,LANG,TMPDIR" {
		t.Errorf("the code's environment has %v, want only PATH, HOME, LANG, TMPDIR", names)
	}
	if fi, err := os.Stat(work); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("work folder: %v %v", fi.Mode(), err)
	}
}

func TestGPT4(t *testing.T) {
	var answer string
	srv := llmtest.New(t, func(n int, req llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Content: answer, PromptTokens: 11, CompletionTokens: 7}
	})
	services := func(code bool) *scripts.Services {
		return &scripts.Services{CodeNodes: code, LLM: llm.New(srv.Config())}
	}

	answer = "  a plain answer \n"
	_, doc := codeRun(t, services(true), []map[string]any{{"type": "gpt4", "input": "say {{what}}", "automation_input": "page",
		"webhook_input": true, "data": "ans"}}, map[string]any{"what": "hi", "page": "PAGE TEXT", "data": "HOOK DATA"})
	if doc.Status != scripts.StatusSucceeded || doc.Data["ans"] != "a plain answer" {
		t.Fatal(dump(doc))
	}
	if tok, _ := doc.Steps[0].Detail["tokens"].(map[string]int); tok["prompt"] != 11 || tok["completion"] != 7 {
		t.Errorf("tokens detail %v", doc.Steps[0].Detail["tokens"])
	}
	calls := srv.Calls()
	if last := calls[len(calls)-1].Messages; !strings.Contains(last[len(last)-1].Content, "say hi") ||
		!strings.Contains(last[len(last)-1].Content, "PAGE TEXT") || !strings.Contains(last[len(last)-1].Content, "HOOK DATA") {
		t.Errorf("prompt sent: %+v", last)
	}

	// type_output: the fenced code runs on the guarded path; its output is the variable.
	answer = "Here you go:\n```python\ng = graph.global_variables\nprint(g['a'] * 6)\ng['seen'] = True\n```\nEnjoy."
	_, doc = codeRun(t, services(true), []map[string]any{{"type": "gpt4", "input": "compute", "type_output": true}},
		map[string]any{"a": 7})
	if doc.Status != scripts.StatusSucceeded || doc.Data["gpt4"] != "42" || doc.Data["seen"] != true ||
		!strings.Contains(doc.Steps[0].Detail["code"].(string), "print(g['a'] * 6)") {
		t.Fatal(dump(doc))
	}

	// Without a model: llm_not_configured.
	_, doc = codeRun(t, &scripts.Services{CodeNodes: true}, []map[string]any{{"type": "gpt4", "input": "x"}}, nil)
	if stepErr(doc, 0) != "llm_not_configured" {
		t.Fatal(dump(doc))
	}
}
