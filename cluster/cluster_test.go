package cluster_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/rodeo-run/rodeo/cluster"
	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
	_ "github.com/rodeo-run/rodeo/scripts/nodes"
	"github.com/rodeo-run/rodeo/store"
)

// testNATS runs an embedded nats-server with JetStream on loopback, its store in a temp dir.
func testNATS(t testing.TB) string {
	t.Helper()
	ns, err := natsserver.NewServer(&natsserver.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: t.TempDir(), NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		t.Fatal("nats-server not ready")
	}
	t.Cleanup(ns.Shutdown)
	return ns.ClientURL()
}

func connect(t testing.TB, url string) *nats.Conn {
	t.Helper()
	nc, err := cluster.Connect(url, "test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

type testServer struct {
	engine *scripts.Engine
	db     *store.DB
	d      *cluster.Dispatcher
}

// newServer is a server's engine on a bbolt store whose runs go to the workers.
func newServer(t *testing.T, url string) *testServer {
	t.Helper()
	db, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	log := testLogger()
	engine := scripts.NewEngine(&scripts.Runner{Registry: scripts.DefaultRegistry, Logger: log, Services: &scripts.Services{}}, db, log)
	d, err := cluster.NewDispatcher(context.Background(), connect(t, url), "api", engine, db, log)
	if err != nil {
		t.Fatal(err)
	}
	engine.Remote = d
	t.Cleanup(func() {
		d.Close()
		_ = engine.Shutdown(context.Background())
	})
	return &testServer{engine: engine, db: db, d: d}
}

// startWorker runs a worker without browsers (the nodes here need none) until the test ends.
func startWorker(t *testing.T, url, name string, capacity int) *cluster.Metrics {
	t.Helper()
	m, stop := startWorkerStoppable(t, url, name, capacity)
	t.Cleanup(stop)
	return m
}

// startWorkerStoppable starts a worker and returns its metrics and its stop (which waits for it).
func startWorkerStoppable(t *testing.T, url, name string, capacity int) (*cluster.Metrics, func()) {
	t.Helper()
	m := cluster.NewMetrics(nil)
	runner := &scripts.Runner{Registry: scripts.DefaultRegistry, Logger: testLogger(), Services: &scripts.Services{}}
	w, err := cluster.NewWorker(connect(t, url), cluster.WorkerConfig{Name: name, Capacity: capacity, Runner: runner, AckWait: 2 * time.Second, Metrics: m, Logger: testLogger(), Grace: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = w.Run(ctx); close(done) }()
	var once sync.Once
	return m, func() { once.Do(func() { cancel(); <-done }) }
}

func testLogger() *slog.Logger {
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

func compile(t *testing.T, nodes ...map[string]any) *scripts.Script {
	t.Helper()
	raw := make([][]byte, 0, len(nodes))
	for _, n := range nodes {
		raw = append(raw, mustJSON(n))
	}
	return compileRaw(t, raw)
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func compileRaw(t testing.TB, nodes [][]byte) *scripts.Script {
	t.Helper()
	raw := make([]json.RawMessage, 0, len(nodes))
	for _, n := range nodes {
		raw = append(raw, n)
	}
	s, err := scripts.DefaultRegistry.Compile("test", raw, map[string]any{"n": 1})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func wait(t *testing.T, e *scripts.Engine, r *scripts.Run, limit time.Duration) scripts.Doc {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	d := e.Wait(ctx, r)
	if !scripts.Final(d.Status) {
		t.Fatalf("run %s not final after %s: %+v", r.ID(), limit, d)
	}
	return d
}

// Runs spread over two workers, each run's steps arrive once and in order, the stored document
// is the worker's, and no worker holds more than its capacity.
func TestRunsSpreadOverWorkers(t *testing.T) {
	url := testNATS(t)
	s := newServer(t, url)
	m1 := startWorker(t, url, "w1", 2)
	m2 := startWorker(t, url, "w2", 2)
	nodes := []map[string]any{{"type": "delay", "time": 0.05}, {"type": "print", "text": "n is {{n}}"}, {"type": "delay", "time": 0.05}}
	runs := make([]*scripts.Run, 40)
	for i := range runs {
		r, err := s.engine.Start(context.Background(), compile(t, nodes...), scripts.StartOptions{Account: store.DefaultAccount})
		if err != nil {
			t.Fatal(err)
		}
		runs[i] = r
	}
	per := map[string]int{}
	for _, r := range runs {
		d := wait(t, s.engine, r, 60*time.Second)
		if d.Status != scripts.StatusSucceeded || len(d.Steps) != 3 || d.Steps[0].Index != 0 || d.Steps[2].Index != 2 {
			t.Fatalf("run %s: %+v", r.ID(), d)
		}
		stored, err := s.engine.Get(store.DefaultAccount, r.ID())
		if err != nil || stored.Status != scripts.StatusSucceeded || stored.Worker != d.Worker || len(stored.Steps) != 3 {
			t.Fatalf("stored %s: %+v %v", r.ID(), stored, err)
		}
		per[d.Worker]++
	}
	if per["w1"] == 0 || per["w2"] == 0 {
		t.Errorf("runs per worker: %v", per)
	}
	_ = m1
	_ = m2
}

// Cancel reaches the worker that runs the run, and a run canceled before any worker took it
// never runs.
func TestCancelReachesWorker(t *testing.T) {
	url := testNATS(t)
	s := newServer(t, url)
	startWorker(t, url, "w1", 1)
	long, err := s.engine.Start(context.Background(), compile(t, map[string]any{"type": "delay", "time": 30}), scripts.StartOptions{Account: store.DefaultAccount})
	if err != nil {
		t.Fatal(err)
	}
	waiting, err := s.engine.Start(context.Background(), compile(t, map[string]any{"type": "delay", "time": 30}), scripts.StartOptions{Account: store.DefaultAccount})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for long.Doc().Status != scripts.StatusRunning && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	start := time.Now()
	for _, r := range []*scripts.Run{waiting, long} {
		if _, err := s.engine.Cancel(store.DefaultAccount, r.ID()); err != nil {
			t.Fatal(err)
		}
	}
	d := wait(t, s.engine, long, 10*time.Second)
	if d.Status != scripts.StatusCanceled || d.Worker != "w1" || time.Since(start) > 5*time.Second {
		t.Errorf("canceled running run after %s: %+v", time.Since(start), d)
	}
	if d := wait(t, s.engine, waiting, 10*time.Second); d.Status != scripts.StatusCanceled || d.Worker != "" {
		t.Errorf("canceled queued run: %+v", d)
	}
}

// A worker stopped while a run is still going (past its grace) reports nothing for it: the run is
// delivered again and, as it had recorded no step, runs to its end on another worker, once.
func TestStoppedWorkerLeavesRunToAnother(t *testing.T) {
	url := testNATS(t)
	s := newServer(t, url)
	_, stop := startWorkerStoppable(t, url, "w1", 1)
	r, err := s.engine.Start(context.Background(), compile(t, map[string]any{"type": "delay", "time": 3}, map[string]any{"type": "print", "text": "done"}),
		scripts.StartOptions{Account: store.DefaultAccount})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for r.Doc().Worker != "w1" && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	stop() // grace 1 s < the 3 s delay
	if d := r.Doc(); d.Status != scripts.StatusRunning {
		t.Fatalf("after w1 stopped: %+v", d)
	}
	m2 := startWorker(t, url, "w2", 1)
	d := wait(t, s.engine, r, 60*time.Second)
	if d.Status != scripts.StatusSucceeded || d.Worker != "w2" || len(d.Steps) != 2 {
		t.Errorf("the run w1 left: %+v", d)
	}
	if got := testutil.ToFloat64(m2.Redeliveries); got < 1 {
		t.Errorf("w2 counted %v redeliveries", got)
	}
}

// A worker keeps no store, so a browser run with a named profile is refused at submission with
// invalid_profile instead of running without the cookies it asked for; nothing is stored. A run
// with a profile that needs no browser still runs (nothing would be kept anyway).
func TestProfileRunRefusedOnCluster(t *testing.T) {
	url := testNATS(t)
	s := newServer(t, url)
	startWorker(t, url, "w1", 1)
	browserRun := compile(t, map[string]any{"type": "open tab", "target": "http://127.0.0.1:1/"})
	browserRun.Profile = "shop"
	_, err := s.engine.Start(context.Background(), browserRun, scripts.StartOptions{Account: store.DefaultAccount})
	if !errs.Is(err, errs.InvalidProfile) || !strings.Contains(err.Error(), "cluster workers") {
		t.Fatalf("a profile run on a cluster server: %v, want invalid_profile naming the cluster", err)
	}
	if runs, err := s.db.ListRuns(store.DefaultAccount, 10, ""); err != nil || len(runs) != 0 {
		t.Fatalf("a refused run was stored: %v %v", runs, err)
	}
	plain := compile(t, map[string]any{"type": "print", "text": "no browser"})
	plain.Profile = "shop"
	r, err := s.engine.Start(context.Background(), plain, scripts.StartOptions{Account: store.DefaultAccount})
	if err != nil {
		t.Fatal(err)
	}
	if d := wait(t, s.engine, r, 30*time.Second); d.Status != scripts.StatusSucceeded {
		t.Fatalf("a browserless run with a profile: %s %+v", d.Status, d.Error)
	}
}
