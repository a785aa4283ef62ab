package main

// End-to-end tests of saved scripts, POST /triggers/cloud, its queue and code nodes over the
// real binary, Chrome and bbolt files; they reuse the helpers of e2e_test.go.

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/scripts"
)

func TestE2ETriggers(t *testing.T) {
	e := newE2E(t)
	// The server has model credentials in its environment (the model answers 400 at once, so
	// nothing waits on it); code nodes must not see them.
	model := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"error":{"message":"no model here","type":"invalid_request_error"}}`))
	}))
	t.Cleanup(model.Close)
	t.Setenv("OPENAI_API_KEY", "sk-e2e-fake-secret")
	t.Setenv("OPENAI_BASE_URL", model.URL+"/v1")

	data := filepath.Join(e.root, "data-triggers")
	s := e.serve(t, data, "--contexts", "1", "--queue", "1", "--lease-timeout", "300ms")
	if s.key == "" {
		t.Fatal("the first start printed no API key")
	}
	mark := filepath.Join(e.root, "pwned")

	put := func(s *rodeoServer, name, goal string, nodes []map[string]any) {
		t.Helper()
		st, _, raw := s.do(t, "PUT", "/scripts/"+name, agentBody(s.key, goal, nodes))
		if st != 201 && st != 200 {
			t.Fatalf("PUT /scripts/%s: %d %s", name, st, raw)
		}
	}
	trigger := func(s *rodeoServer, query string, body map[string]any) (int, http.Header, []byte) {
		t.Helper()
		body["key"] = s.key
		return s.post(t, "/triggers/cloud"+query, body)
	}

	// The webhook's data drives a browser node and code nodes, bare and author-quoted.
	put(s, "signup", "sign up with the webhook's address", []map[string]any{
		{"type": "click", "target": "the email field"},
		{"type": "keypress", "prompt": "{{data}}"},
		{"type": "click", "target": "the button that says Submit"},
		{"type": "semanticScrape", "target": "the confirmation message", "data": "msg"},
		{"type": "python", "code": "g = graph.global_variables\ng['py_bare'] = {{data}}\ng['py_quoted'] = \"{{data}}\"\nthread_signals.notifications.emit('signed up ' + {{data}})"},
		{"type": "bash", "command": "printf '%s' '{{data}}'", "data": "sh_quoted"},
		{"type": "bash", "command": "tr '\\0' '\\n' < /proc/$$/environ", "data": "env"},
	})
	t.Run("TriggerWithData", func(t *testing.T) {
		// Every character a valid address allows that a shell or Python would care about.
		email := "o'brien`id`$HOME|x&y{z}#~@example.com"
		st, _, raw := trigger(s, "?wait=true", map[string]any{"name": "signup", "start": e.site + "/form.html", "data": email})
		var doc scripts.Doc
		if st != 200 || json.Unmarshal(raw, &doc) != nil {
			t.Fatalf("trigger ?wait=true: %d %s", st, raw)
		}
		if doc.Status != "succeeded" || len(doc.Steps) != 8 || doc.Steps[0].Type != "open tab" {
			t.Fatalf("run: %s", dump(doc))
		}
		if msg, _ := doc.Data["msg"].(string); !strings.Contains(msg, email) {
			t.Errorf("the page got %q, want the confirmation naming %q", msg, email)
		}
		for _, v := range []string{"data", "py_bare", "py_quoted", "sh_quoted"} {
			if doc.Data[v] != email {
				t.Errorf("%s = %q, want %q", v, doc.Data[v], email)
			}
		}
		if doc.Script == nil || doc.Script.Name != "signup" || doc.Script.Version != 1 || doc.Source != "trigger" {
			t.Errorf("the run does not name its script: %+v", doc.Script)
		}
		env, _ := doc.Data["env"].(string)
		if strings.Contains(env, "sk-e2e-fake-secret") || strings.Contains(env, "OPENAI") || strings.Contains(env, "RODEO_") {
			t.Errorf("the code's environment holds the server's secrets:\n%s", env)
		}
		// thread_signals messages are events of the run: follow a second run's event stream live.
		st, _, raw = trigger(s, "", map[string]any{"name": "signup", "start": e.site + "/form.html", "data": email})
		var acc struct {
			RunID string `json:"run_id"`
		}
		if st != 202 || json.Unmarshal(raw, &acc) != nil {
			t.Fatalf("trigger: %d %s", st, raw)
		}
		st, _, raw = s.get(t, "/runs/"+acc.RunID+"/events")
		if st != 200 || !strings.Contains(string(raw), "event: notification") || !strings.Contains(string(raw), `signed up o'brien`) {
			t.Errorf("no notification among the run's events (%d): %.3000s", st, raw)
		}
		if _, err := os.Stat(mark); !errors.Is(err, os.ErrNotExist) {
			t.Fatal("the webhook's data ran as code")
		}
	})

	t.Run("HostileDataThroughCode", func(t *testing.T) {
		put(s, "inject", "echo hostile data", []map[string]any{
			{"type": "python", "code": "g = graph.global_variables\ng['a'] = {{data}}\ng['b'] = '{{data}}'\ng['c'] = \"pre {{data}} post\""},
			{"type": "bash", "command": "printf '%s' {{data}}", "data": "d"},
			{"type": "bash", "command": "printf '%s' \"{{data}}\"", "data": "e"},
		})
		hostile := "\"'\n$(touch " + mark + ") `touch " + mark + "`; touch " + mark + " # __import__('os').system('touch " + mark + "')\\"
		st, _, raw := trigger(s, "?wait=true", map[string]any{"name": "inject", "data": hostile})
		var doc scripts.Doc
		if st != 200 || json.Unmarshal(raw, &doc) != nil || doc.Status != "succeeded" {
			t.Fatalf("trigger: %d %s", st, raw)
		}
		for _, v := range []string{"a", "b", "d", "e"} {
			if doc.Data[v] != hostile {
				t.Errorf("%s = %q, want %q", v, doc.Data[v], hostile)
			}
		}
		if doc.Data["c"] != "pre "+hostile+" post" {
			t.Errorf("c = %q", doc.Data["c"])
		}
		if _, err := os.Stat(mark); !errors.Is(err, os.ErrNotExist) {
			t.Fatal("the webhook's data ran as code")
		}
	})

	t.Run("QueueThenBusy", func(t *testing.T) {
		put(s, "hold", "hold the only browser", []map[string]any{{"type": "delay", "time": 1.5}})
		start := e.site + "/form.html"
		accepted := func(st int, raw []byte) string {
			t.Helper()
			var acc struct{ RunID, Status, StatusURL string }
			if err := json.Unmarshal(raw, &struct {
				RunID     *string `json:"run_id"`
				Status    *string `json:"status"`
				StatusURL *string `json:"status_url"`
			}{&acc.RunID, &acc.Status, &acc.StatusURL}); err != nil || st != 202 || acc.Status != "queued" || acc.StatusURL != "/runs/"+acc.RunID {
				t.Fatalf("trigger: %d %s", st, raw)
			}
			return acc.RunID
		}
		st, _, raw := trigger(s, "", map[string]any{"name": "hold", "start": start})
		first := accepted(st, raw)
		s.waitStatus(t, first, "running")
		st, _, raw = trigger(s, "", map[string]any{"name": "hold", "start": start})
		second := accepted(st, raw)
		var d scripts.Doc
		s.getJSON(t, "/runs/"+second, 200, &d)
		if d.Status != "queued" {
			t.Errorf("the second run is %s, want queued", d.Status)
		}
		st, hdr, raw := trigger(s, "", map[string]any{"name": "hold", "start": start})
		if st != 503 || errorCode(raw) != "busy" {
			t.Fatalf("a third trigger with 1 context and a queue of 1: %d %s", st, raw)
		}
		if ra, err := strconv.Atoi(hdr.Get("Retry-After")); err != nil || ra < 1 {
			t.Errorf("Retry-After = %q", hdr.Get("Retry-After"))
		}
		a := s.waitFinal(t, first, 20*time.Second)
		b := s.waitFinal(t, second, 20*time.Second)
		if a.Status != "succeeded" || b.Status != "succeeded" {
			t.Fatalf("queued runs: %s / %s", dump(a), dump(b))
		}
		if b.Started == nil || a.Finished == nil || b.Started.Before(*a.Finished) {
			t.Errorf("the queued run started at %v, before the first finished at %v", b.Started, a.Finished)
		}
	})

	t.Run("UnknownScript", func(t *testing.T) {
		st, _, raw := trigger(s, "", map[string]any{"name": "nope"})
		if st != 404 || errorCode(raw) != "not_found" {
			t.Errorf("unknown script: %d %s", st, raw)
		}
	})

	// A SIGKILL keeps the saved scripts; the CLI manages them while no server runs.
	s.kill(t)
	code, out, errOut := e.cli(t, "", "scripts", "list", "--data", data, "--key", s.key)
	if code != 0 || !strings.Contains(out, "signup") || !strings.Contains(out, "inject") || !strings.Contains(out, "hold") {
		t.Fatalf("scripts list after SIGKILL: %d\n%s%s", code, out, errOut)
	}
	file := filepath.Join(e.root, "echo.json")
	body, _ := json.Marshal(map[string]any{"goal": "echo", "json_output": []map[string]any{
		{"type": "python", "code": "print({{data}})", "data": "out"}}})
	if err := os.WriteFile(file, body, 0o600); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := e.cli(t, "", "scripts", "save", "echo", file, "--data", data, "--key", s.key); code != 0 || !strings.Contains(out, "version 1") {
		t.Fatalf("scripts save: %d %s%s", code, out, errOut)
	}
	bad := filepath.Join(e.root, "bad.json")
	_ = os.WriteFile(bad, []byte(`{"goal":"x","json_output":[{"type":"delay"},{"type":"nope"}]}`), 0o600)
	if code, _, errOut := e.cli(t, "", "scripts", "save", "bad", bad, "--data", data, "--key", s.key); code != 2 || !strings.Contains(errOut, "node 1") {
		t.Errorf("scripts save of an invalid file: exit %d: %s", code, errOut)
	}
	if code, out, _ := e.cli(t, "", "scripts", "show", "echo", "--data", data, "--key", s.key); code != 0 || !strings.Contains(out, "print({{data}})") {
		t.Errorf("scripts show: %d %s", code, out)
	}
	if code, out, _ := e.cli(t, "", "scripts", "delete", "hold", "--data", data, "--key", s.key); code != 0 || !strings.Contains(out, "deleted hold") {
		t.Errorf("scripts delete: %d %s", code, out)
	}
	if code, _, errOut := e.cli(t, "", "scripts", "list", "--data", data, "--key", "rk_wrong"); code == 0 {
		t.Errorf("scripts list with a wrong key succeeded: %s", errOut)
	}

	// The restarted server, with code nodes off: the saved scripts are there, code is refused.
	s2 := e.serve(t, data, "--contexts", "1", "--code-nodes=false")
	s2.key = s.key
	if st, _, raw := s2.get(t, "/scripts/hold"); st != 404 {
		t.Errorf("the deleted script: %d %s", st, raw)
	}
	st, _, raw := trigger(s2, "?wait=true", map[string]any{"name": "echo", "data": "x"})
	var doc scripts.Doc
	if st != 200 || json.Unmarshal(raw, &doc) != nil || doc.Status != "failed" || doc.Error == nil || doc.Error.Code != "code_disabled" {
		t.Errorf("code node on a server without code nodes: %d %s", st, raw)
	}
	if doc.Script == nil || doc.Script.Name != "echo" {
		t.Errorf("run script: %+v", doc.Script)
	}
	var list struct {
		Scripts []struct {
			Name    string `json:"name"`
			Version int    `json:"latest_version"`
		} `json:"scripts"`
	}
	s2.getJSON(t, "/scripts", 200, &list)
	if len(list.Scripts) != 3 {
		t.Errorf("scripts after the restart: %+v", list.Scripts)
	}
}
