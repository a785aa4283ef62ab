package main

// End-to-end test of schedules over the real binary, Chrome and bbolt files: a schedule really
// runs a saved script in Chrome on its slots, survives a SIGKILL without firing a slot twice,
// runs the slot missed while it was down once, keeps a second server off its data, and fires
// nothing while paused or once deleted, also after a restart. It reuses e2e_test.go's helpers.

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/triggers"
)

func TestE2ESchedules(t *testing.T) {
	e := newE2E(t)
	data := filepath.Join(e.root, "data-schedules")
	flags := []string{"--contexts", "2", "--schedule-min-every", "1s"}
	s := e.serve(t, data, flags...)
	key := s.key

	st, _, raw := s.do(t, "PUT", "/scripts/signup", agentBody(key, "sign up with the schedule's address", []map[string]any{
		{"type": "open tab", "target": e.site + "/form.html"},
		{"type": "click", "target": "the email field"},
		{"type": "keypress", "prompt": "{{data}}"},
		{"type": "click", "target": "the button that says Submit"},
		{"type": "semanticScrape", "target": "the confirmation message", "data": "msg"},
	}))
	if st != 201 {
		t.Fatalf("PUT /scripts/signup: %d %s", st, raw)
	}
	st, _, raw = s.post(t, "/schedules", map[string]any{"key": key, "name": "signup", "every": "2s", "data": "sched@example.com", "timezone": "Europe/Berlin"})
	var v triggers.ScheduleView
	if st != 201 || json.Unmarshal(raw, &v) != nil || len(v.Next) != 5 || v.Next[1].Sub(v.Next[0]) != 2*time.Second || v.Timezone != "Europe/Berlin" {
		t.Fatalf("POST /schedules: %d %s", st, raw)
	}

	// It really runs the script in Chrome, on time.
	got := waitFires(t, s, v.ID, 20*time.Second, func(f []triggers.FireView) bool { return countSucceeded(f) >= 2 })
	for _, f := range got {
		if f.Status == "started" && f.Reason == "" && (f.At.Sub(f.Slot) > time.Second || f.At.Before(f.Slot)) {
			t.Errorf("fire for %s at %s: %s after its slot, want within 1s", f.Slot, f.At, f.At.Sub(f.Slot))
		}
	}
	runID := firstSucceeded(got)
	var doc scripts.Doc
	s.getJSON(t, "/runs/"+runID, 200, &doc)
	if msg, _ := doc.Data["msg"].(string); !strings.Contains(msg, "sched@example.com") || doc.Source != "schedule" ||
		doc.Trigger == nil || doc.Trigger.ID != v.ID || doc.Trigger.Slot == nil || doc.Script == nil || doc.Script.Name != "signup" {
		t.Fatalf("the scheduled run: %s", dump(doc))
	}
	st, _, raw = s.get(t, "/scripts/signup/triggers")
	if st != 200 || !strings.Contains(string(raw), v.ID) {
		t.Errorf("GET /scripts/signup/triggers: %d %s", st, raw)
	}

	// SIGKILL between slots, down for a few of them, then a restart on the same data.
	waitFires(t, s, v.ID, 10*time.Second, func(f []triggers.FireView) bool { return len(f) > len(got) })
	s.kill(t)
	killed := time.Now()
	time.Sleep(5 * time.Second)
	s = e.serve(t, data, flags...)
	s.key = key
	up := time.Now()
	after := waitFires(t, s, v.ID, 20*time.Second, func(f []triggers.FireView) bool {
		for _, x := range f {
			if x.At.After(killed) && x.Status == "started" {
				return true
			}
		}
		return false
	})
	slots := map[time.Time]bool{}
	var missed int
	var resumed *triggers.FireView
	for i := len(after) - 1; i >= 0; i-- {
		f := after[i]
		if slots[f.Slot] {
			t.Errorf("slot %s has two fires: %+v", f.Slot, after)
		}
		slots[f.Slot] = true
		if f.Status == "missed" {
			missed += f.Count
		}
		if resumed == nil && f.Status == "started" && f.Slot.After(killed) {
			resumed = &after[i]
		}
	}
	if resumed == nil || !resumed.Slot.Before(up) {
		t.Fatalf("no slot missed while the server was down ran at its start: %+v", after)
	}
	t.Logf("killed at %s, up again at %s; the fires: %s", killed.Format(time.StampMilli), up.Format(time.StampMilli), dump(after))
	if missed < 1 {
		t.Errorf("the slots of the downtime before the one that ran are not recorded missed: %+v", after)
	}
	// Runs of this schedule: one per slot, also across the kill.
	runSlots := map[time.Time]string{}
	for _, f := range after {
		for _, r := range f.Runs {
			var d scripts.Doc
			s.getJSON(t, "/runs/"+r.RunID, 200, &d)
			if prev, dup := runSlots[*d.Trigger.Slot]; dup {
				t.Errorf("slot %s ran twice: %s and %s", d.Trigger.Slot, prev, d.RunID)
			}
			runSlots[*d.Trigger.Slot] = d.RunID
		}
	}

	// A second server on the same data cannot start, so it cannot fire either.
	code, _, errOut := e.cli(t, "", "serve", "--addr", "127.0.0.1:0", "--data", data)
	if code == 0 || !strings.Contains(errOut, "in use by another rodeo process") {
		t.Errorf("a second server on the same data: exit %d: %s", code, errOut)
	}

	// A schedule made by POST /agents runs its agent, in Chrome, on its own slots.
	st, _, raw = s.post(t, "/agents", map[string]any{"key": key, "goal": "read the form's heading", "json_output": []map[string]any{
		{"type": "schedule", "every": "2s"},
		{"type": "open tab", "target": e.site + "/form.html"},
		{"type": "semanticScrape", "target": "the main heading", "data": "h"},
	}})
	var agentSched triggers.ScheduleView
	if st != 201 || json.Unmarshal(raw, &agentSched) != nil || len(agentSched.Next) != 5 || agentSched.Agent == nil {
		t.Fatalf("POST /agents with a schedule node: %d %s", st, raw)
	}
	af := waitFires(t, s, agentSched.ID, 20*time.Second, func(f []triggers.FireView) bool { return countSucceeded(f) >= 1 })
	s.getJSON(t, "/runs/"+firstSucceeded(af), 200, &doc)
	if len(doc.Steps) != 2 || doc.Data["h"] == nil {
		t.Errorf("the scheduled agent's run: %s", dump(doc))
	}
	if st, _, raw := s.do(t, "DELETE", "/schedules/"+agentSched.ID, nil); st != 200 {
		t.Errorf("DELETE: %d %s", st, raw)
	}

	// Paused, it fires nothing; deleted, nothing either, also after a restart.
	st, _, raw = s.post(t, "/schedules/"+v.ID+"/pause", map[string]any{"key": key})
	if st != 200 || !strings.Contains(string(raw), `"enabled":false`) {
		t.Fatalf("pause: %d %s", st, raw)
	}
	before := len(fires(t, s, v.ID))
	time.Sleep(4500 * time.Millisecond)
	if n := len(fires(t, s, v.ID)); n != before {
		t.Errorf("a paused schedule fired: %d fires, then %d", before, n)
	}
	s.kill(t)
	s = e.serve(t, data, flags...)
	s.key = key
	time.Sleep(4500 * time.Millisecond)
	if n := len(fires(t, s, v.ID)); n != before {
		t.Errorf("a paused schedule fired after a restart: %d fires, then %d", before, n)
	}
	if st, _, raw := s.do(t, "DELETE", "/schedules/"+v.ID, nil); st != 200 {
		t.Fatalf("DELETE: %d %s", st, raw)
	}
	s.kill(t)
	s = e.serve(t, data, flags...)
	s.key = key
	final := time.Now()
	time.Sleep(4500 * time.Millisecond)
	var list struct {
		Runs []struct {
			RunID   string    `json:"run_id"`
			Source  string    `json:"source"`
			Created time.Time `json:"created"`
		} `json:"runs"`
	}
	s.getJSON(t, "/runs?limit=100", 200, &list)
	for _, r := range list.Runs {
		if r.Source == "schedule" && r.Created.After(final) {
			t.Errorf("a run %s started after its schedule was deleted", r.RunID)
		}
	}
	var all struct {
		Schedules []triggers.ScheduleView `json:"schedules"`
	}
	s.getJSON(t, "/schedules", 200, &all)
	if len(all.Schedules) != 0 {
		t.Errorf("schedules after deleting them: %+v", all.Schedules)
	}
}

func fires(t *testing.T, s *rodeoServer, id string) []triggers.FireView {
	t.Helper()
	var v triggers.ScheduleView
	s.getJSON(t, "/schedules/"+id, 200, &v)
	return v.Fires
}

// waitFires polls the schedule until done holds for its fires.
func waitFires(t *testing.T, s *rodeoServer, id string, limit time.Duration, done func([]triggers.FireView) bool) []triggers.FireView {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		f := fires(t, s, id)
		if done(f) {
			return f
		}
		if time.Now().After(deadline) {
			t.Fatalf("schedule %s: not there after %s; fires: %s", id, limit, dump(f))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func countSucceeded(f []triggers.FireView) int {
	n := 0
	for _, x := range f {
		for _, r := range x.Runs {
			if r.Status == "succeeded" {
				n++
			}
		}
	}
	return n
}

func firstSucceeded(f []triggers.FireView) string {
	for _, x := range f {
		for _, r := range x.Runs {
			if r.Status == "succeeded" {
				return r.RunID
			}
		}
	}
	return ""
}
