package cluster_test

import (
	"context"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/cluster"
	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/store"
)

// BenchmarkRunLatency is the time of one five-step run that needs no browser, started and
// waited for one after another: on the engine's own runner (local), and through the queue to a
// worker in process over an embedded nats-server (nats). The difference is what the queue adds
// to each run: publish, pull, the start request, events and the stored final document.
func BenchmarkRunLatency(b *testing.B) {
	nodes := []map[string]any{}
	for i := range 5 {
		nodes = append(nodes, map[string]any{"type": "print", "text": "step {{n}}", "id": "p" + string(rune('a'+i))})
	}
	for _, mode := range []string{"local", "nats"} {
		b.Run(mode, func(b *testing.B) {
			engine := benchEngine(b, mode)
			script := compileB(b, nodes)
			b.ResetTimer()
			for range b.N {
				r, err := engine.Start(context.Background(), script, scripts.StartOptions{Account: store.DefaultAccount})
				if err != nil {
					b.Fatal(err)
				}
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				d := engine.Wait(ctx, r)
				cancel()
				if d.Status != scripts.StatusSucceeded {
					b.Fatalf("run: %+v", d)
				}
			}
		})
	}
}

func benchEngine(b *testing.B, mode string) *scripts.Engine {
	b.Helper()
	db, err := store.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	log := testLogger()
	engine := scripts.NewEngine(&scripts.Runner{Registry: scripts.DefaultRegistry, Logger: log, Services: &scripts.Services{}}, db, log)
	b.Cleanup(func() { _ = engine.Shutdown(context.Background()) })
	if mode == "local" {
		return engine
	}
	url := testNATS(b)
	d, err := cluster.NewDispatcher(context.Background(), connect(b, url), "api", engine, db, log)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(d.Close)
	engine.Remote = d
	runner := &scripts.Runner{Registry: scripts.DefaultRegistry, Logger: log, Services: &scripts.Services{}}
	w, err := cluster.NewWorker(connect(b, url), cluster.WorkerConfig{Name: "w1", Capacity: 1, Runner: runner, Logger: log, Grace: time.Second})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = w.Run(ctx); close(done) }()
	b.Cleanup(func() { cancel(); <-done })
	return engine
}

func compileB(b *testing.B, nodes []map[string]any) *scripts.Script {
	b.Helper()
	raw := make([][]byte, 0, len(nodes))
	for _, n := range nodes {
		raw = append(raw, mustJSON(n))
	}
	return compileRaw(b, raw)
}
