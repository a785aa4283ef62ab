package server_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/server"
	"github.com/rodeo-run/rodeo/triggers"
)

// scheduled is the fixture with a scheduler attached (not running: these tests check the API).
func scheduled(t *testing.T) *fixture {
	f := newFixture(t)
	sc := triggers.NewScheduler(triggers.SchedulerConfig{Store: f.db, Engine: f.engine, Timezone: "UTC"})
	server.AttachScheduler(f.engine, sc)
	t.Cleanup(func() { server.AttachScheduler(f.engine, nil) })
	if r := f.do(t, "PUT", "/scripts/report", agent(f.key, "report", `{"type":"print","text":"hi {{data}}"}`), ""); r.status != 201 {
		t.Fatalf("save script: %d %s", r.status, r.raw)
	}
	return f
}

func scheduleBody(key string, fields map[string]any) string {
	fields["key"] = key
	b, _ := json.Marshal(fields)
	return string(b)
}

func TestSchedules_CRUD(t *testing.T) {
	f := scheduled(t)
	r := f.do(t, "POST", "/schedules", scheduleBody(f.key, map[string]any{"name": "report", "text": "every weekday at 9am",
		"timezone": "America/New_York", "data": map[string]any{"to": "ops"}, "instances": 3}), "")
	if r.status != 201 {
		t.Fatalf("POST /schedules: %d %s", r.status, r.raw)
	}
	var v triggers.ScheduleView
	_ = json.Unmarshal(r.raw, &v)
	if !strings.HasPrefix(v.ID, "s_") || v.Cron != "0 9 * * 1-5" || v.Text != "every weekday at 9am" || v.Instances != 3 ||
		v.Overlap != "skip" || v.Missed != "once" || !v.Enabled || len(v.Next) != 5 {
		t.Fatalf("created: %s", r.raw)
	}
	for _, n := range v.Next {
		if _, off := n.Zone(); n.Hour() != 9 || n.Weekday() == time.Saturday || n.Weekday() == time.Sunday || (off != -4*3600 && off != -5*3600) {
			t.Errorf("next time %s is not a weekday 9am in New York", n)
		}
	}
	// The other account sees nothing of it.
	if r := f.do(t, "GET", "/schedules/"+v.ID, "", f.otherKey); r.status != 404 {
		t.Errorf("another account's GET: %d", r.status)
	}
	if r := f.do(t, "GET", "/schedules", "", f.key); r.status != 200 || !strings.Contains(string(r.raw), v.ID) {
		t.Errorf("GET /schedules: %d %s", r.status, r.raw)
	}
	r = f.do(t, "PATCH", "/schedules/"+v.ID, scheduleBody(f.key, map[string]any{"every": "week", "on": []string{"mon", "thu"}, "at": "09:30", "overlap": "allow"}), "")
	if r.status != 200 || !strings.Contains(string(r.raw), `"cron":"30 9 * * 1,4"`) || !strings.Contains(string(r.raw), `"overlap":"allow"`) || strings.Contains(string(r.raw), `"text"`) {
		t.Errorf("PATCH: %d %s", r.status, r.raw)
	}
	r = f.do(t, "POST", "/schedules/"+v.ID+"/pause", "", f.key)
	if r.status != 200 || !strings.Contains(string(r.raw), `"enabled":false`) || !strings.Contains(string(r.raw), `"next":[]`) {
		t.Errorf("pause: %d %s", r.status, r.raw)
	}
	r = f.do(t, "POST", "/schedules/"+v.ID+"/resume", "", f.key)
	if r.status != 200 || !strings.Contains(string(r.raw), `"enabled":true`) {
		t.Errorf("resume: %d %s", r.status, r.raw)
	}
	r = f.do(t, "GET", "/scripts/report/triggers", "", f.key)
	if r.status != 200 || !strings.Contains(string(r.raw), `"kind":"schedule"`) || !strings.Contains(string(r.raw), v.ID) {
		t.Errorf("GET /scripts/report/triggers: %d %s", r.status, r.raw)
	}
	if r := f.do(t, "DELETE", "/schedules/"+v.ID, "", f.key); r.status != 200 {
		t.Errorf("DELETE: %d %s", r.status, r.raw)
	}
	if r := f.do(t, "GET", "/schedules/"+v.ID, "", f.key); r.status != 404 {
		t.Errorf("GET after DELETE: %d", r.status)
	}
	if r := f.do(t, "GET", "/scripts/nope/triggers", "", f.key); r.status != 404 {
		t.Errorf("triggers of an unknown script: %d", r.status)
	}
}

func TestSchedules_BadInput(t *testing.T) {
	f := scheduled(t)
	cases := []struct {
		name   string
		fields map[string]any
		status int
		code   string
		field  string
		says   string
	}{
		{"unreadable text names the forms", map[string]any{"name": "report", "text": "whenever the moon is full"}, 400, "invalid_config", "text", "every weekday at 9:30am"},
		{"bad cron", map[string]any{"name": "report", "cron": "0 25 * * *"}, 400, "invalid_config", "cron", "five-field"},
		{"cron that never fires", map[string]any{"name": "report", "cron": "0 0 30 2 *"}, 400, "invalid_config", "cron", "no time"},
		{"two timings", map[string]any{"name": "report", "cron": "* * * * *", "every": "5m"}, 400, "invalid_config", "", "not several"},
		{"no timing", map[string]any{"name": "report"}, 400, "invalid_config", "cron", "needs its times"},
		{"every too short", map[string]any{"name": "report", "every": "5s"}, 400, "invalid_config", "every", "from 1m0s"},
		{"bad timezone", map[string]any{"name": "report", "cron": "* * * * *", "timezone": "Mars/Olympus"}, 400, "invalid_config", "timezone", "IANA"},
		{"too many instances", map[string]any{"name": "report", "cron": "* * * * *", "instances": 51}, 400, "invalid_config", "instances", "1 to 50"},
		{"bad overlap", map[string]any{"name": "report", "cron": "* * * * *", "overlap": "queue"}, 400, "invalid_config", "overlap", "allow"},
		{"unknown field", map[string]any{"name": "report", "cron": "* * * * *", "crons": "x"}, 400, "invalid_config", "crons", "unknown"},
		{"wrong type", map[string]any{"name": "report", "cron": 5}, 400, "invalid_config", "cron", "string"},
		{"unknown script", map[string]any{"name": "nope", "cron": "* * * * *"}, 404, "not_found", "", "nope"},
		{"no name", map[string]any{"cron": "* * * * *"}, 400, "invalid_config", "name", "required"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := f.do(t, "POST", "/schedules", scheduleBody(f.key, tc.fields), "")
			checkError(t, r, tc.status, tc.code, nil)
			e := errorOf(t, r)
			text := e.Message
			for _, d := range e.Details {
				text += " " + d.Field + ": " + d.Problem
			}
			if !strings.Contains(text, tc.says) {
				t.Errorf("error %s does not say %q", r.raw, tc.says)
			}
			if tc.field != "" && tc.field != "name" && tc.field != "crons" && (len(e.Details) == 0 || !strings.HasPrefix(e.Details[0].Field, tc.field)) {
				t.Errorf("details %+v, want field %s", e.Details, tc.field)
			}
		})
	}
	list, _ := f.db.ListSchedules("")
	if len(list) != 0 {
		t.Errorf("bad input stored %d schedules", len(list))
	}
}

// TestAgents_ScheduleNode: POST /agents with a schedule node answers 201 with the schedule and
// runs nothing now, unless run_now says so.
func TestAgents_ScheduleNode(t *testing.T) {
	f := scheduled(t)
	body := func(extra map[string]any, nodes ...string) string {
		m := map[string]any{}
		_ = json.Unmarshal([]byte(agent(f.key, "hourly report", nodes...)), &m)
		for k, v := range extra {
			m[k] = v
		}
		b, _ := json.Marshal(m)
		return string(b)
	}
	r := f.do(t, "POST", "/agents", body(nil, `{"type":"schedule","cron":"0 * * * *","timezone":"Asia/Tokyo"}`, `{"type":"print","text":"tick"}`), "")
	if r.status != 201 || r.body["cron"] != "0 * * * *" || r.body["timezone"] != "Asia/Tokyo" || len(r.body["next"].([]any)) != 5 || r.body["run_id"] != nil {
		t.Fatalf("POST /agents with a schedule: %d %s", r.status, r.raw)
	}
	if a, _ := r.body["agent"].(map[string]any); a["goal"] != "hourly report" || a["nodes"] != float64(1) {
		t.Errorf("agent: %v", r.body["agent"])
	}
	time.Sleep(50 * time.Millisecond)
	if runs := f.runsOf(t, "default"); len(runs) != 0 {
		t.Errorf("%d runs started by a scheduled agent without run_now", len(runs))
	}
	r = f.do(t, "POST", "/agents", body(map[string]any{"run_now": true}, `{"type":"schedule","text":"every day at 9am"}`, `{"type":"print","text":"now"}`), "")
	if r.status != 201 || r.body["cron"] != "0 9 * * *" || r.body["timezone"] != "UTC" {
		t.Fatalf("run_now: %d %s", r.status, r.raw)
	}
	id, _ := r.body["run_id"].(string)
	doc, err := f.engine.Get("default", id)
	for i := 0; err == nil && doc.Status != "succeeded" && i < 100; i++ {
		time.Sleep(20 * time.Millisecond)
		doc, err = f.engine.Get("default", id)
	}
	if err != nil || doc.Status != "succeeded" || doc.Source != "schedule" || doc.Trigger == nil || doc.Trigger.ID != r.body["id"] || len(doc.Steps) != 1 {
		t.Errorf("the run_now run: %v %+v", err, doc)
	}
	r = f.do(t, "POST", "/agents", body(nil, `{"type":"schedule","every":"week","on":["mon","thu"],"at":"09:30","instances":2,"overlap":"allow"}`, `{"type":"print","text":"x"}`), "")
	if r.status != 201 || r.body["cron"] != "30 9 * * 1,4" || r.body["instances"] != float64(2) || r.body["overlap"] != "allow" {
		t.Errorf("the dropdown form in a schedule node: %d %s", r.status, r.raw)
	}
	cases := []struct {
		name  string
		nodes []string
		field string
	}{
		{"bad cron", []string{`{"type":"schedule","cron":"every day"}`, `{"type":"print","text":"x"}`}, "cron"},
		{"bad text", []string{`{"type":"schedule","text":"at teatime"}`, `{"type":"print","text":"x"}`}, "text"},
		{"no timing", []string{`{"type":"schedule"}`, `{"type":"print","text":"x"}`}, "cron"},
		{"at without every", []string{`{"type":"schedule","cron":"* * * * *","at":"9am"}`, `{"type":"print","text":"x"}`}, "every"},
		{"bad dropdown", []string{`{"type":"schedule","every":"week","at":"9am"}`, `{"type":"print","text":"x"}`}, "every"},
		{"nested", []string{`{"type":"if_else","variables":"x","operator":"equals","condition":"1","then":[{"type":"schedule","cron":"* * * * *"}]}`, `{"type":"print","text":"x"}`}, "json_output"},
		{"nothing else", []string{`{"type":"schedule","cron":"* * * * *"}`}, ""},
		{"two schedules", []string{`{"type":"schedule","cron":"* * * * *"}`, `{"type":"schedule","cron":"0 * * * *"}`, `{"type":"print","text":"x"}`}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := f.do(t, "POST", "/agents", body(nil, tc.nodes...), "")
			checkError(t, r, 400, "invalid_config", nil)
			if e := errorOf(t, r); tc.field != "" && (len(e.Details) == 0 || e.Details[0].Field != tc.field) {
				t.Errorf("details %+v, want field %s", e.Details, tc.field)
			}
		})
	}
}
