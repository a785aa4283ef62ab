package triggers_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/scripts"
	_ "github.com/rodeo-run/rodeo/scripts/nodes" // registers the node kinds
	"github.com/rodeo-run/rodeo/store"
	"github.com/rodeo-run/rodeo/triggers"
)

// fixture is the inbound triggers over a real store on a temp dir and an engine; browser is nil
// unless the test gives one (email and phone scripts need none).
type fixture struct {
	in     *triggers.Inbound
	db     *store.DB
	engine *scripts.Engine
	work   string
}

func newFixture(t *testing.T, cfg triggers.Config, browsers scripts.Leaser) *fixture {
	t.Helper()
	db, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	work := t.TempDir()
	log := slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	runner := &scripts.Runner{Registry: scripts.DefaultRegistry, Browsers: browsers, Logger: log,
		Services: &scripts.Services{Store: db, CodeNodes: true, WorkDir: work}}
	engine := scripts.NewEngine(runner, db, log)
	cfg.Engine, cfg.Store, cfg.Logger = engine, db, log
	in := triggers.New(cfg)
	t.Cleanup(func() {
		in.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := engine.Shutdown(ctx); err != nil {
			t.Errorf("engine shutdown: %v", err)
		}
		_ = db.Close()
	})
	return &fixture{in: in, db: db, engine: engine, work: work}
}

// testWriter sends the server's log lines to the test's log.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Helper()
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// save stores a script for the default account.
func (f *fixture) save(t *testing.T, name string, nodes ...map[string]any) {
	t.Helper()
	raw, _ := json.Marshal(nodes)
	if _, err := f.db.SaveScript(store.DefaultAccount, name, "inbound "+name, raw); err != nil {
		t.Fatalf("save script %s: %v", name, err)
	}
}

// waitRun polls until the run is final and returns its document.
func (f *fixture) waitRun(t *testing.T, id string) scripts.Doc {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		d, err := f.engine.Get(store.DefaultAccount, id)
		if err == nil && scripts.Final(d.Status) {
			if _, active := f.engine.Active(store.DefaultAccount, id); !active {
				return d
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("run %s did not finish: %+v (%v)", id, d, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// runsOf lists the default account's stored runs.
func (f *fixture) runsOf(t *testing.T) []scripts.Doc {
	t.Helper()
	recs, err := f.db.ListRuns(store.DefaultAccount, 100, "")
	if err != nil {
		t.Fatalf("list runs: %v", err)
	}
	out := make([]scripts.Doc, 0, len(recs))
	for _, r := range recs {
		var d scripts.Doc
		if err := json.Unmarshal(r.Doc, &d); err != nil {
			t.Fatalf("run %s: %v", r.ID, err)
		}
		out = append(out, d)
	}
	return out
}
