package store

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/errs"
)

func runIDs(runs []RunRecord) []string {
	ids := make([]string, len(runs))
	for i, r := range runs {
		ids[i] = r.ID
	}
	return ids
}

func assertRunEqual(t *testing.T, got, want RunRecord) {
	t.Helper()
	if got.V != want.V || got.ID != want.ID || got.Account != want.Account || got.Status != want.Status ||
		!got.Created.Equal(want.Created) || !got.Updated.Equal(want.Updated) || !jsonEqual(got.Doc, want.Doc) {
		t.Errorf("run\n got %+v (doc %s)\nwant %+v (doc %s)", got, got.Doc, want, want.Doc)
	}
}

func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return string(ja) == string(jb)
}

// putRuns stores n runs of account with increasing ids and returns the ids, oldest first.
func putRuns(t *testing.T, db *DB, account string, n int) []string {
	t.Helper()
	ids := make([]string, n)
	for i := range ids {
		ids[i] = NewID("r")
		if err := db.PutRun(RunRecord{ID: ids[i], Account: account, Status: "succeeded", Doc: json.RawMessage(`{}`)}); err != nil {
			t.Fatal(err)
		}
	}
	return ids
}

func TestPutRun_GetRun(t *testing.T) {
	db := openTestDB(t, "")
	t0 := time.Date(2030, 5, 6, 7, 8, 9, 0, time.UTC)
	db.now = fakeClock(t0, time.Second)

	id := NewID("r")
	doc := json.RawMessage(`{"run_id":"` + id + `","status":"queued","steps":[]}`)
	if err := db.PutRun(RunRecord{V: 7, ID: id, Account: "acme", Status: StatusQueued, Doc: doc}); err != nil {
		t.Fatal(err)
	}
	got, err := db.GetRun("acme", id)
	if err != nil {
		t.Fatal(err)
	}
	first := t0.Add(time.Second)
	assertRunEqual(t, got, RunRecord{V: 1, ID: id, Account: "acme", Status: StatusQueued, Created: first, Updated: first, Doc: doc})

	// Update: Created stays, whatever the caller passes; Updated moves.
	doc2 := json.RawMessage(`{"run_id":"` + id + `","status":"succeeded","steps":[{"ok":true}]}`)
	if err := db.PutRun(RunRecord{ID: id, Account: "acme", Status: "succeeded", Created: t0.Add(-time.Hour), Doc: doc2}); err != nil {
		t.Fatal(err)
	}
	got, err = db.GetRun("acme", id)
	if err != nil {
		t.Fatal(err)
	}
	assertRunEqual(t, got, RunRecord{V: 1, ID: id, Account: "acme", Status: "succeeded", Created: first, Updated: t0.Add(2 * time.Second), Doc: doc2})
}

func TestPutRun_CreatedFromCaller(t *testing.T) {
	db := openTestDB(t, "")
	created := time.Date(2029, 1, 1, 0, 0, 0, 0, time.UTC)
	id := NewID("r")
	if err := db.PutRun(RunRecord{ID: id, Account: "acme", Status: StatusQueued, Created: created}); err != nil {
		t.Fatal(err)
	}
	got, err := db.GetRun("acme", id)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Created.Equal(created) {
		t.Errorf("created %v, want the caller's %v on the first put", got.Created, created)
	}
	if string(got.Doc) != "null" {
		t.Errorf("doc of a run without one: %s", got.Doc)
	}
}

func TestPutRun_Rejects(t *testing.T) {
	for _, tc := range []struct {
		name string
		run  RunRecord
	}{
		{"no id", RunRecord{Account: "acme", Status: StatusQueued}},
		{"no account", RunRecord{ID: "r_1", Status: StatusQueued}},
		{"bad account", RunRecord{ID: "r_1", Account: "a/b", Status: StatusQueued}},
		{"bad doc", RunRecord{ID: "r_1", Account: "acme", Status: StatusQueued, Doc: json.RawMessage(`{"a":`)}},
		{"other account's run", RunRecord{ID: "r_taken", Account: "evil", Status: "succeeded", Doc: json.RawMessage(`{}`)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := openTestDB(t, "")
			taken := RunRecord{ID: "r_taken", Account: "acme", Status: StatusRunning, Doc: json.RawMessage(`{"mine":true}`)}
			if err := db.PutRun(taken); err != nil {
				t.Fatal(err)
			}
			if err := db.PutRun(tc.run); err == nil {
				t.Fatal("PutRun accepted it")
			}
			// Nothing changed.
			got, err := db.GetRun("acme", "r_taken")
			if err != nil || got.Status != StatusRunning || !jsonEqual(got.Doc, taken.Doc) {
				t.Errorf("existing run after a rejected put: %+v, %v", got, err)
			}
			if _, err := db.GetRun(tc.run.Account, tc.run.ID); !errors.Is(err, ErrNotFound) && tc.run.ID != "r_taken" {
				t.Errorf("rejected run is readable: %v", err)
			}
		})
	}
}

func TestGetRun_NotFound(t *testing.T) {
	db := openTestDB(t, "")
	id := putRuns(t, db, "acme", 1)[0]
	for _, tc := range []struct{ name, account, id string }{
		{"unknown id", "acme", NewID("r")},
		{"other account", "other", id},
		{"empty account", "", id},
		{"empty id", "acme", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := db.GetRun(tc.account, tc.id)
			if !errors.Is(err, ErrNotFound) || errs.Code(err) != errs.NotFound {
				t.Fatalf("error %v, want ErrNotFound", err)
			}
			if strings.Contains(err.Error(), "acme") {
				t.Errorf("error %q names the owner", err)
			}
			if r.ID != "" {
				t.Errorf("returned %+v with the error", r)
			}
		})
	}
}

func TestListRuns_NewestFirstPaging(t *testing.T) {
	db := openTestDB(t, "")
	ids := putRuns(t, db, "acme", 7)
	putRuns(t, db, "other", 3)
	newest := slices.Clone(ids)
	slices.Reverse(newest)

	// Page through three at a time.
	var got []string
	before := ""
	for page := 0; ; page++ {
		runs, err := db.ListRuns("acme", 3, before)
		if err != nil {
			t.Fatal(err)
		}
		if len(runs) == 0 {
			break
		}
		if page > 5 {
			t.Fatal("paging does not end")
		}
		for _, r := range runs {
			if r.Account != "acme" {
				t.Errorf("run %s of account %s listed for acme", r.ID, r.Account)
			}
		}
		got = append(got, runIDs(runs)...)
		before = runs[len(runs)-1].ID
	}
	if !slices.Equal(got, newest) {
		t.Errorf("paged ids\n got %v\nwant %v", got, newest)
	}

	for _, tc := range []struct {
		name, before string
		want         []string
	}{
		{"no cursor", "", newest},
		{"cursor is newest", ids[6], newest[1:]},
		{"cursor in the middle", ids[3], newest[4:]},
		{"cursor is oldest", ids[0], nil},
		{"cursor after all", "r_ZZZZ", newest},
		{"cursor before all", "r_", nil},
		{"cursor between ids", ids[3] + "0", newest[3:]},
		{"cursor from another account", NewID("r"), newest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runs, err := db.ListRuns("acme", 0, tc.before)
			if err != nil {
				t.Fatal(err)
			}
			if got := runIDs(runs); !slices.Equal(got, tc.want) {
				t.Errorf("ids\n got %v\nwant %v", got, tc.want)
			}
		})
	}
}

func TestListRuns_Limit(t *testing.T) {
	db := openTestDB(t, "")
	db.bolt.NoSync = true // 510 commits; durability is not what this test is about
	ids := putRuns(t, db, "acme", MaxRunLimit+10)
	slices.Reverse(ids)
	for _, tc := range []struct{ limit, want int }{
		{-1, DefaultRunLimit},
		{0, DefaultRunLimit},
		{1, 1},
		{DefaultRunLimit + 1, DefaultRunLimit + 1},
		{MaxRunLimit, MaxRunLimit},
		{MaxRunLimit + 1, MaxRunLimit},
		{1 << 30, MaxRunLimit},
	} {
		runs, err := db.ListRuns("acme", tc.limit, "")
		if err != nil {
			t.Fatal(err)
		}
		if got := runIDs(runs); !slices.Equal(got, ids[:tc.want]) {
			t.Errorf("limit %d: %d runs, want the newest %d", tc.limit, len(got), tc.want)
		}
	}
}

func TestListRuns_Empty(t *testing.T) {
	db := openTestDB(t, "")
	putRuns(t, db, "acme", 2)
	for _, account := range []string{"nobody", ""} {
		runs, err := db.ListRuns(account, 10, "")
		if err != nil {
			t.Fatal(err)
		}
		if runs == nil || len(runs) != 0 {
			t.Errorf("ListRuns(%q) = %#v, want an empty, non-nil list (it marshals as [])", account, runs)
		}
	}
}

func TestUnfinishedRuns_Statuses(t *testing.T) {
	db := openTestDB(t, "")
	want := map[string]bool{}
	for i, status := range []string{StatusQueued, "succeeded", StatusRunning, "failed", "canceled", "timed_out", StatusRunning, ""} {
		r := RunRecord{ID: NewID("r"), Account: []string{"a", "b"}[i%2], Status: status, Doc: json.RawMessage(`{}`)}
		if err := db.PutRun(r); err != nil {
			t.Fatal(err)
		}
		if status == StatusQueued || status == StatusRunning {
			want[r.ID] = true
		}
	}
	check := func(step string) {
		t.Helper()
		runs, err := db.UnfinishedRuns()
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		for _, r := range runs {
			got[r.ID] = true
			if r.Status != StatusQueued && r.Status != StatusRunning {
				t.Errorf("%s: run %s is %s", step, r.ID, r.Status)
			}
		}
		if len(got) != len(want) || len(runs) != len(want) {
			t.Errorf("%s: unfinished %v, want %v", step, runIDs(runs), want)
		}
		for id := range want {
			if !got[id] {
				t.Errorf("%s: run %s missing", step, id)
			}
		}
		if !slices.IsSorted(runIDs(runs)) {
			t.Errorf("%s: not oldest first: %v", step, runIDs(runs))
		}
	}
	check("initial")

	// Marking them interrupted, as the server does at start, empties the list.
	runs, _ := db.UnfinishedRuns()
	for i, r := range runs {
		if i == 0 {
			r.Status = StatusRunning // queued -> running keeps it unfinished
		} else {
			r.Status = "failed"
			delete(want, r.ID)
		}
		if err := db.PutRun(r); err != nil {
			t.Fatal(err)
		}
	}
	check("after finishing all but one")

	// A finished run put back to queued (a retry) is unfinished again.
	r := runs[1]
	r.Status = StatusQueued
	if err := db.PutRun(r); err != nil {
		t.Fatal(err)
	}
	want[r.ID] = true
	check("after requeue")
}
