package server_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/scripts"
)

// script renders a PUT /scripts body.
func script(key, goal string, nodes ...string) string {
	return agent(key, goal, nodes...)
}

func TestScripts_SaveVersionsShowListDelete(t *testing.T) {
	f := newFixture(t)
	r := f.do(t, "PUT", "/scripts/sign%20up", script(f.key, "first", `{"type":"delay","time":0.01}`), "")
	if r.status != 201 || r.body["name"] != "sign up" || r.body["version"] != 1.0 {
		t.Fatalf("first save: %d %s", r.status, r.raw)
	}
	r = f.do(t, "PUT", "/scripts/sign%20up", script(f.key, "second", `{"type":"print","text":"v2 {{data}}"}`), "")
	if r.status != 200 || r.body["version"] != 2.0 {
		t.Fatalf("second save: %d %s", r.status, r.raw)
	}
	// The key may also come as a bearer header.
	r = f.do(t, "PUT", "/scripts/other", script("", "x", `{"type":"delay","time":1}`), f.key)
	if r.status != 201 {
		t.Fatalf("save with a bearer key: %d %s", r.status, r.raw)
	}

	r = f.do(t, "GET", "/scripts/sign%20up", "", f.key)
	if r.status != 200 || r.body["version"] != 2.0 || r.body["goal"] != "second" {
		t.Fatalf("latest: %d %s", r.status, r.raw)
	}
	var nodes []map[string]any
	_ = json.Unmarshal(mustJSON(r.body["json_output"]), &nodes)
	if len(nodes) != 1 || nodes[0]["type"] != "print" || nodes[0]["text"] != "v2 {{data}}" {
		t.Errorf("json_output kept as sent: %s", r.raw)
	}
	r = f.do(t, "GET", "/scripts/sign%20up?version=1", "", f.key)
	if r.status != 200 || r.body["version"] != 1.0 || r.body["goal"] != "first" {
		t.Fatalf("version 1: %d %s", r.status, r.raw)
	}
	checkError(t, f.do(t, "GET", "/scripts/sign%20up?version=3", "", f.key), 404, "not_found", nil)
	checkError(t, f.do(t, "GET", "/scripts/sign%20up?version=x", "", f.key), 400, "invalid_config", []detail{{-1, "version"}})

	r = f.do(t, "GET", "/scripts", "", f.key)
	list, _ := r.body["scripts"].([]any)
	if r.status != 200 || len(list) != 2 {
		t.Fatalf("list: %d %s", r.status, r.raw)
	}
	first := list[0].(map[string]any)
	if first["name"] != "other" || list[1].(map[string]any)["latest_version"] != 2.0 || first["updated"] == nil {
		t.Errorf("list: %s", r.raw)
	}

	r = f.do(t, "DELETE", "/scripts/sign%20up", "", f.key)
	if r.status != 200 || r.body["deleted"] != true {
		t.Fatalf("delete: %d %s", r.status, r.raw)
	}
	checkError(t, f.do(t, "GET", "/scripts/sign%20up", "", f.key), 404, "not_found", nil)
	checkError(t, f.do(t, "GET", "/scripts/sign%20up?version=1", "", f.key), 404, "not_found", nil)
	checkError(t, f.do(t, "DELETE", "/scripts/sign%20up", "", f.key), 404, "not_found", nil)
	if r := f.do(t, "GET", "/scripts", "", f.key); len(r.body["scripts"].([]any)) != 1 {
		t.Errorf("list after delete: %s", r.raw)
	}
}

func TestScripts_ValidationListsEveryProblem(t *testing.T) {
	f := newFixture(t)
	r := f.do(t, "PUT", "/scripts/bad", script(f.key, "g",
		`{"type":"delay","time":"soon"}`, `{"type":"teleport"}`, `{"type":"click"}`, `{"type":"delay","time":1}`), "")
	checkError(t, r, 400, "invalid_config", []detail{{0, "time"}, {1, "type"}, {2, "target"}})
	checkError(t, f.do(t, "PUT", "/scripts/bad", `{"key":"`+f.key+`","json_output":[]}`, ""), 400, "invalid_config", nil)
	checkError(t, f.do(t, "PUT", "/scripts/bad", `{"key":`, ""), 400, "invalid_json", nil)
	checkError(t, f.do(t, "PUT", "/scripts/a%2Fb", script(f.key, "g", `{"type":"delay","time":1}`), ""), 400, "invalid_config", []detail{{-1, "name"}})
	checkError(t, f.do(t, "PUT", "/scripts/"+strings.Repeat("n", 101), script(f.key, "g", `{"type":"delay","time":1}`), ""), 400, "invalid_config", nil)
	checkError(t, f.do(t, "PUT", "/scripts/ok", script("rk_wrong", "g", `{"type":"delay","time":1}`), ""), 401, "invalid_key", nil)
	checkError(t, f.do(t, "GET", "/scripts", "", ""), 401, "invalid_key", nil)
	// Nothing invalid was saved.
	if list, _ := f.db.ListScripts("default"); len(list) != 0 {
		t.Errorf("invalid saves were stored: %+v", list)
	}
}

func TestScripts_AccountsAreIsolated(t *testing.T) {
	f := newFixture(t)
	if r := f.do(t, "PUT", "/scripts/mine", script(f.key, "g", `{"type":"print","text":"{{data}}"}`), ""); r.status != 201 {
		t.Fatalf("save: %d %s", r.status, r.raw)
	}
	checkError(t, f.do(t, "GET", "/scripts/mine", "", f.otherKey), 404, "not_found", nil)
	checkError(t, f.do(t, "DELETE", "/scripts/mine", "", f.otherKey), 404, "not_found", nil)
	checkError(t, f.do(t, "POST", "/triggers/cloud", `{"key":"`+f.otherKey+`","name":"mine","data":"x"}`, ""), 404, "not_found", nil)
	if r := f.do(t, "GET", "/scripts", "", f.otherKey); r.status != 200 || len(r.body["scripts"].([]any)) != 0 {
		t.Errorf("the other account lists %s", r.raw)
	}
	// The other account's own script of the same name is its own.
	if r := f.do(t, "PUT", "/scripts/mine", script(f.otherKey, "theirs", `{"type":"delay","time":0.01}`), ""); r.status != 201 {
		t.Fatalf("other save: %d %s", r.status, r.raw)
	}
	if r := f.do(t, "GET", "/scripts/mine", "", f.key); r.body["goal"] != "g" || r.body["version"] != 1.0 {
		t.Errorf("the first account's script changed: %s", r.raw)
	}
	if len(f.runsOf(t, "other")) != 0 {
		t.Errorf("a refused trigger was stored as a run")
	}
}

func TestTriggerCloud(t *testing.T) {
	f := newFixture(t)
	if r := f.do(t, "PUT", "/scripts/echo", script(f.key, "echo the data", `{"type":"print","text":"got {{data}}"}`), ""); r.status != 201 {
		t.Fatalf("save: %d %s", r.status, r.raw)
	}
	if r := f.do(t, "PUT", "/scripts/echo", script(f.key, "echo the data v2", `{"type":"print","text":"v2 got {{data}}"}`), ""); r.status != 200 {
		t.Fatalf("save v2: %d %s", r.status, r.raw)
	}
	hostile := "{{data}} \"'$(touch x)`id`\n"
	body, _ := json.Marshal(map[string]any{"key": f.key, "name": "echo", "data": hostile, "start": ""})

	// ?wait=true answers the run document, which names the script and version.
	r := f.do(t, "POST", "/triggers/cloud?wait=true", string(body), "")
	var doc scripts.Doc
	if err := json.Unmarshal(r.raw, &doc); err != nil || r.status != 200 {
		t.Fatalf("wait=true: %d %s", r.status, r.raw)
	}
	if doc.Status != "succeeded" || doc.Data["data"] != hostile || doc.Script == nil || doc.Script.Name != "echo" ||
		doc.Script.Version != 2 || doc.Source != "trigger" || doc.Steps[0].Detail["text"] != "v2 got "+hostile {
		t.Fatalf("run: %s", r.raw)
	}

	// Default: 202 at once with a status URL; the stored run names the script too.
	r = f.do(t, "POST", "/triggers/cloud", string(body), "")
	if r.status != 202 || r.body["status"] != "queued" || r.body["status_url"] != "/runs/"+r.body["run_id"].(string) {
		t.Fatalf("202: %d %s", r.status, r.raw)
	}
	id := r.body["run_id"].(string)
	got := finalRun(t, f, id)
	if got.status != 200 || got.body["status"] != "succeeded" || got.body["script"].(map[string]any)["name"] != "echo" {
		t.Errorf("stored run: %s", got.raw)
	}

	// Other data types arrive as their JSON text; no data is "".
	r = f.do(t, "POST", "/triggers/cloud?wait=true", `{"key":"`+f.key+`","name":"echo","data":{"a":1}}`, "")
	if err := json.Unmarshal(r.raw, &doc); err != nil || doc.Data["data"] != `{"a":1}` {
		t.Errorf("object data: %s", r.raw)
	}
	r = f.do(t, "POST", "/triggers/cloud?wait=true", `{"key":"`+f.key+`","name":"echo"}`, "")
	if err := json.Unmarshal(r.raw, &doc); err != nil || doc.Data["data"] != "" {
		t.Errorf("no data: %s", r.raw)
	}

	checkError(t, f.do(t, "POST", "/triggers/cloud", `{"key":"`+f.key+`","name":"nope"}`, ""), 404, "not_found", nil)
	checkError(t, f.do(t, "POST", "/triggers/cloud", `{"key":"`+f.key+`"}`, ""), 400, "invalid_config", []detail{{-1, "name"}})
	checkError(t, f.do(t, "POST", "/triggers/cloud", `{"key":"`+f.key+`","name":"echo","start":"file:///etc/passwd"}`, ""), 400, "invalid_config", []detail{{-1, "start"}})
	checkError(t, f.do(t, "POST", "/triggers/cloud", `{"key":"`+f.key+`","name":"echo","start":"javascript:alert(1)"}`, ""), 400, "invalid_config", nil)
	checkError(t, f.do(t, "POST", "/triggers/cloud", `{"key":"`+f.key+`","name":5}`, ""), 400, "invalid_config", []detail{{-1, "name"}})
	checkError(t, f.do(t, "POST", "/triggers/cloud", `{"key":"`+f.key+`",`, ""), 400, "invalid_json", nil)
	checkError(t, f.do(t, "POST", "/triggers/cloud", `{"key":"rk_nope","name":"echo"}`, ""), 401, "invalid_key", nil)
	// Code from the request is never run: nodes in the body are not a thing the trigger reads.
	r = f.do(t, "POST", "/triggers/cloud?wait=true", `{"key":"`+f.key+`","name":"echo","json_output":[{"type":"delay","time":5}]}`, "")
	if err := json.Unmarshal(r.raw, &doc); err != nil || len(doc.Steps) != 1 || doc.Steps[0].Type != "print" {
		t.Errorf("a trigger with json_output: %s", r.raw)
	}
}

// finalRun polls GET /runs/{id} until the run has a final status.
func finalRun(t *testing.T, f *fixture, id string) response {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		r := f.do(t, "GET", "/runs/"+id, "", f.key)
		if st, _ := r.body["status"].(string); scripts.Final(st) || time.Now().After(deadline) {
			return r
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
