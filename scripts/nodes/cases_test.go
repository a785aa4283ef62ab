package nodes_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/browser/browsertest"
	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/store"
)

// goldenCase is one file of scripts/testdata/cases: an agent and what its run must show.
type goldenCase struct {
	Goal   string            `json:"goal"`
	Data   map[string]any    `json:"data"`
	Nodes  []json.RawMessage `json:"nodes"`
	Expect struct {
		Status string         `json:"status"`
		Error  string         `json:"error"`
		Data   map[string]any `json:"data"`
		// Steps lists every step record in order as [type, status] or [type, status, error code].
		Steps  [][]string `json:"steps"`
		Outbox *int       `json:"outbox"`
	} `json:"expect"`
}

// TestGoldenCases runs every case of scripts/testdata/cases against the fixture site, with a
// real pool, a real store and the outbox.
func TestGoldenCases(t *testing.T) {
	files, _ := filepath.Glob("../testdata/cases/*.json")
	if len(files) == 0 {
		t.Fatal("no golden cases found")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".json"), func(t *testing.T) {
			p := testPool(t)
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			base := browsertest.Serve(t, "testdata")
			var gc goldenCase
			if err := json.Unmarshal([]byte(strings.ReplaceAll(string(raw), "BASE", base)), &gc); err != nil {
				t.Fatalf("case file: %v", err)
			}
			db, err := store.Open(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			s, err := scripts.DefaultRegistry.Compile(gc.Goal, gc.Nodes, gc.Data)
			if err != nil {
				t.Fatalf("compile: %v", err)
			}
			runner := &scripts.Runner{Registry: scripts.DefaultRegistry,
				Services: &scripts.Services{Store: db, WorkDir: t.TempDir(), PublicURL: "http://rodeo.test"},
				Browsers: scripts.LeaserFunc(func(ctx context.Context) (scripts.BrowserSession, error) {
					s, err := p.Lease(ctx)
					if err != nil {
						return nil, err
					}
					return s, nil
				})}
			r := scripts.NewRun(store.NewID("r"), "golden", "test", s)
			runner.Execute(context.Background(), r, scripts.ExecOptions{Timeout: time.Minute})
			d := r.Doc()
			check(t, &gc, d, db)
		})
	}
}

func check(t *testing.T, gc *goldenCase, d scripts.Doc, db *store.DB) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf(format, args...)
	}
	if d.Status != gc.Expect.Status {
		fail("status %s, want %s", d.Status, gc.Expect.Status)
	}
	if gc.Expect.Error != "" && (d.Error == nil || d.Error.Code != gc.Expect.Error) {
		fail("run error %+v, want %s", d.Error, gc.Expect.Error)
	}
	for name, want := range gc.Expect.Data {
		got, _ := json.Marshal(d.Data[name])
		wantJSON, _ := json.Marshal(want)
		var g, w any
		_ = json.Unmarshal(got, &g)
		_ = json.Unmarshal(wantJSON, &w)
		if !reflect.DeepEqual(g, w) {
			fail("data.%s = %s, want %s", name, got, wantJSON)
		}
	}
	if gc.Expect.Steps != nil {
		if len(d.Steps) != len(gc.Expect.Steps) {
			fail("%d steps, want %d", len(d.Steps), len(gc.Expect.Steps))
		}
		for i := 0; i < len(d.Steps) && i < len(gc.Expect.Steps); i++ {
			want, got := gc.Expect.Steps[i], d.Steps[i]
			code := ""
			if got.Error != nil {
				code = got.Error.Code
			}
			if got.Type != want[0] || got.Status != want[1] || (len(want) > 2 && code != want[2]) {
				fail("step %d = [%s %s %s], want %v", i, got.Type, got.Status, code, want)
			}
		}
	}
	if gc.Expect.Outbox != nil {
		msgs, err := db.ListOutbox("golden", 100, "")
		if err != nil || len(msgs) != *gc.Expect.Outbox {
			fail("outbox has %d messages (%v), want %d", len(msgs), err, *gc.Expect.Outbox)
		}
	}
	if t.Failed() {
		t.Log(dump(d))
	}
}
