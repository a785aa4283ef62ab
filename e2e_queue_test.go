package main

// End-to-end test of the durable run queue over the real binary, Chrome and bbolt file: runs
// that wait for a browser survive a SIGKILL and start, in their order, after the restart.

import (
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/scripts"
)

func TestE2EDurableQueue(t *testing.T) {
	e := newE2E(t)

	data := filepath.Join(e.root, "data-queue")
	flags := []string{"--contexts", "1", "--queue", "10", "--lease-timeout", "300ms"}
	s := e.serve(t, data, flags...)
	put := func(name string, nodes []map[string]any) {
		t.Helper()
		if st, _, raw := s.do(t, "PUT", "/scripts/"+name, agentBody(s.key, name, nodes)); st != 201 {
			t.Fatalf("PUT /scripts/%s: %d %s", name, st, raw)
		}
	}
	put("slow", []map[string]any{{"type": "open tab", "target": e.site + "/form.html"}, {"type": "delay", "time": 60}})
	put("step", []map[string]any{{"type": "open tab", "target": e.site + "/form.html"}, {"type": "delay", "time": 0.3}})
	trigger := func(name string, data any) string {
		t.Helper()
		st, _, raw := s.post(t, "/triggers/cloud", map[string]any{"key": s.key, "name": name, "data": data})
		var acc struct {
			RunID  string `json:"run_id"`
			Status string `json:"status"`
		}
		if err := json.Unmarshal(raw, &acc); err != nil || st != 202 || acc.Status != "queued" {
			t.Fatalf("trigger %s: %d %s", name, st, raw)
		}
		return acc.RunID
	}

	// The pool's one context is busy with a slow run; three more wait for it.
	slow := trigger("slow", "hold")
	s.waitStatus(t, slow, "running")
	var queued []string
	for _, v := range []string{"first", "second", "third"} {
		queued = append(queued, trigger("step", v))
	}
	for _, id := range queued {
		var d scripts.Doc
		if s.getJSON(t, "/runs/"+id, 200, &d); d.Status != "queued" {
			t.Fatalf("run %s is %s before the kill, want queued", id, d.Status)
		}
	}
	s.kill(t)

	s2 := e.serve(t, data, flags...)
	s2.key = s.key
	// The run that was running at the kill ends interrupted; it is not run again.
	var d scripts.Doc
	if s2.getJSON(t, "/runs/"+slow, 200, &d); d.Status != "failed" || d.Error == nil || d.Error.Code != "interrupted" {
		t.Errorf("the run in progress at the kill: %s", dump(d))
	}
	// The queued ones run, in the order they were queued, with their webhook data.
	var docs []scripts.Doc
	for i, id := range queued {
		d := s2.waitFinal(t, id, 60*time.Second)
		if d.Status != "succeeded" {
			t.Fatalf("queued run %d after the restart: %s", i, dump(d))
		}
		if want := []string{"first", "second", "third"}[i]; d.Data["data"] != want {
			t.Errorf("queued run %d has data %v, want %q", i, d.Data["data"], want)
		}
		if d.Script == nil || d.Script.Name != "step" {
			t.Errorf("queued run %d names script %+v", i, d.Script)
		}
		docs = append(docs, d)
	}
	for i := 1; i < len(docs); i++ {
		prev, cur := docs[i-1], docs[i]
		if cur.Started == nil || prev.Finished == nil || cur.Started.Before(*prev.Finished) {
			t.Errorf("queued run %d started at %v, before run %d finished at %v", i, cur.Started, i-1, prev.Finished)
		}
	}
	// d.Finished is when the restart marked the slow run interrupted: the queued runs keep the
	// creation time they had before the kill.
	if d.Finished == nil || !docs[0].Created.Before(*d.Finished) {
		t.Errorf("the resumed run's creation time %v is not the one from before the kill (restart at %v)", docs[0].Created, d.Finished)
	}
}
