package server_test

import (
	"encoding/json"
	"net/url"
	"slices"
	"testing"
)

// runIDsOf is the run ids of a GET /runs answer, in order, with its next link.
func runIDsOf(t *testing.T, r response) ([]string, string) {
	t.Helper()
	var list struct {
		Runs []struct {
			RunID string `json:"run_id"`
		} `json:"runs"`
		Next string `json:"next"`
	}
	if r.status != 200 || json.Unmarshal(r.raw, &list) != nil {
		t.Fatalf("GET /runs: %d %s", r.status, r.raw)
	}
	ids := make([]string, len(list.Runs))
	for i, run := range list.Runs {
		ids[i] = run.RunID
	}
	return ids, list.Next
}

// TestRuns_Filters: status, script, adhoc and source filter the list on the server, combine,
// page with a next link that keeps the filter, and bad values are refused.
func TestRuns_Filters(t *testing.T) {
	f := newFixture(t)
	if r := f.do(t, "PUT", "/scripts/echo", script(f.key, "echo", `{"type":"print","text":"hi"}`), ""); r.status != 201 {
		t.Fatalf("save: %d %s", r.status, r.raw)
	}
	start := func(body, path string) string {
		t.Helper()
		r := f.do(t, "POST", path, body, "")
		if r.status != 200 {
			t.Fatalf("POST %s: %d %s", path, r.status, r.raw)
		}
		return r.body["run_id"].(string)
	}
	ok1 := start(agent(f.key, "ok one", `{"type":"print","text":"1"}`), "/agents")
	bad := start(agent(f.key, "fails", `{"type":"delay","time":"{{nope}}"}`), "/agents")
	echo1 := start(`{"key":"`+f.key+`","name":"echo","data":""}`, "/triggers/cloud?wait=true")
	ok2 := start(agent(f.key, "ok two", `{"type":"print","text":"2"}`), "/agents")
	echo2 := start(`{"key":"`+f.key+`","name":"echo","data":""}`, "/triggers/cloud?wait=true")
	start(agent(f.otherKey, "not mine", `{"type":"print","text":"x"}`), "/agents")

	for _, tc := range []struct {
		name, query string
		want        []string
	}{
		{"no filter: every run, newest first", "", []string{echo2, ok2, echo1, bad, ok1}},
		{"status", "status=failed", []string{bad}},
		{"statuses", "status=failed,succeeded", []string{echo2, ok2, echo1, bad, ok1}},
		{"script", "script=echo", []string{echo2, echo1}},
		{"unknown script", "script=nope", []string{}},
		{"ad-hoc", "adhoc=true", []string{ok2, bad, ok1}},
		{"source", "source=trigger", []string{echo2, echo1}},
		{"combined", "source=api&status=succeeded", []string{ok2, ok1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := runIDsOf(t, f.do(t, "GET", "/runs?"+tc.query, "", f.key))
			if !slices.Equal(got, tc.want) {
				t.Errorf("GET /runs?%s\n got %v\nwant %v", tc.query, got, tc.want)
			}
		})
	}

	t.Run("paging keeps the filter", func(t *testing.T) {
		page, next := runIDsOf(t, f.do(t, "GET", "/runs?status=succeeded&limit=2", "", f.key))
		if !slices.Equal(page, []string{echo2, ok2}) || next == "" {
			t.Fatalf("first page %v next %q", page, next)
		}
		u, err := url.Parse(next)
		if err != nil || u.Query().Get("status") != "succeeded" || u.Query().Get("before") != ok2 {
			t.Fatalf("next %q does not keep the filter and cursor", next)
		}
		rest, more := runIDsOf(t, f.do(t, "GET", next, "", f.key))
		if !slices.Equal(rest, []string{echo1, ok1}) {
			t.Errorf("second page %v (next %q)", rest, more)
		}
	})

	for _, tc := range []struct{ name, query, field string }{
		{"unknown status", "status=done", "status"},
		{"adhoc not a boolean", "adhoc=yes", "adhoc"},
		{"adhoc with a script", "adhoc=true&script=echo", "adhoc"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkError(t, f.do(t, "GET", "/runs?"+tc.query, "", f.key), 400, "invalid_config", []detail{{node: -1, field: tc.field}})
		})
	}
}
