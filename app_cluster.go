package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/rodeo-run/rodeo/browser"
	"github.com/rodeo-run/rodeo/cluster"
	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/extension"
	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/server"
	"github.com/rodeo-run/rodeo/store"
)

// clusterFlags configure scale-out over NATS JetStream (docs/scale-out.md), for serve and worker.
type clusterFlags struct {
	url     string
	ackWait time.Duration
	name    string
	// set by startCluster: the cluster part of /healthz, and the stop of the in-process worker
	// and the dispatcher (before the engine shuts down, so runs on workers are not canceled).
	health func() any
	stop   func()
}

// addClusterFlags adds the NATS flags; a server's default name is the host's (stable across
// restarts: workers address a run's documents to the server that queued it), a worker's adds
// its pid.
func (a *App) addClusterFlags(fs *flag.FlagSet, cf *clusterFlags, role string) {
	fs.StringVar(&cf.url, "nats-url", a.env("RODEO_NATS_URL", ""), "NATS server with JetStream, e.g. nats://127.0.0.1:4222: serve queues its runs there for `rodeo worker`s (env RODEO_NATS_URL); unset: one machine")
	fs.DurationVar(&cf.ackWait, "nats-ack-wait", a.envDuration("RODEO_NATS_ACK_WAIT", cluster.DefaultAckWait), "how long a run's worker may go silent before its run is delivered to another worker (env RODEO_NATS_ACK_WAIT)")
	host, _ := os.Hostname()
	if role == "worker" {
		fs.StringVar(&cf.name, "name", a.env("RODEO_WORKER_NAME", fmt.Sprintf("%s-%d", host, os.Getpid())), "this worker's name, shown as a run's worker (env RODEO_WORKER_NAME)")
		return
	}
	fs.StringVar(&cf.name, "nats-name", a.env("RODEO_NATS_NAME", host), "this server's name on NATS, the same after a restart; servers sharing a NATS need different ones (env RODEO_NATS_NAME)")
}

// localPool starts the server's own browser pool, except on NATS with --browsers 0 (nil: the
// workers have the browsers).
func (cf *clusterFlags) localPool(ctx context.Context, cfg browser.Config, browsers int) (*browser.Pool, error) {
	if cf.url != "" && browsers == 0 {
		return nil, nil
	}
	return browser.NewPool(ctx, cfg)
}

func closePool(p *browser.Pool) {
	if p != nil {
		_ = p.Close()
	}
}

func poolStats(p *browser.Pool) func() server.PoolStats {
	if p == nil {
		return nil
	}
	return func() server.PoolStats { return server.PoolStats(p.Stats()) }
}

// startCluster puts a server on NATS: the engine hands its runs to the dispatcher, runs left
// unfinished by the last stop stay the queue's, schedules claim their slots in JetStream KV,
// and a local pool (--browsers > 0) serves as one more worker in process. Without --nats-url it
// does nothing. Call it before RecoverInterrupted and startScheduler.
func (a *App) startCluster(ctx context.Context, cf *clusterFlags, engine *scripts.Engine, runner *scripts.Runner, pool *browser.Pool,
	db *store.DB, schedf *scheduleFlags, log *slog.Logger) error {
	cf.stop = func() {}
	if cf.url == "" {
		return nil
	}
	nc, err := cluster.Connect(cf.url, "serve")
	if err != nil {
		return errs.Wrap(errs.InvalidConfig, err)
	}
	d, err := cluster.NewDispatcher(ctx, nc, cf.name, engine, db, log)
	if err != nil {
		nc.Close()
		return err
	}
	keep, err := cluster.KeepUnfinished(db, extension.Source)
	if err != nil {
		d.Close()
		nc.Close()
		return err
	}
	engine.AddKeeper(keep)
	claims, err := cluster.NewSlotClaims(ctx, nc, cf.name, 0)
	if err != nil {
		d.Close()
		nc.Close()
		return err
	}
	schedf.claims = claims
	engine.Remote = d
	stopWorker := func() {}
	if pool != nil { // this server's own browsers are one more worker
		wr := *runner
		wr.Browsers = leaser(pool)
		w, err := cluster.NewWorker(nc, cluster.WorkerConfig{Name: cf.name + "-local", Capacity: pool.Stats().Capacity, Runner: &wr, AckWait: cf.ackWait, Logger: log,
			Ready: func() int { return pool.Stats().Idle }})
		if err != nil {
			d.Close()
			nc.Close()
			return err
		}
		wctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { _ = w.Run(wctx); close(done) }()
		stopWorker = func() { cancel(); <-done }
	}
	runner.Browsers = nil // every run goes through the queue
	cf.health = func() any { return d.Health() }
	stopped := false
	cf.stop = func() {
		if stopped {
			return
		}
		stopped = true
		stopWorker()
		d.Close()
		nc.Close()
	}
	log.Info("runs go to workers over NATS", "nats", cf.url, "local_worker", pool != nil)
	return nil
}

// worker is `rodeo worker`: a browser pool that pulls runs from NATS, with no store.
func (a *App) worker(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("worker", flag.ContinueOnError)
	fs.SetOutput(a.Stderr)
	data := fs.String("data", a.env("RODEO_DATA", "./data"), "working folder of the runs' files (env RODEO_DATA); the worker keeps no store")
	metricsAddr := fs.String("metrics-addr", a.env("RODEO_METRICS_ADDR", "127.0.0.1:9464"), "address of the worker's /metrics and /healthz (env RODEO_METRICS_ADDR)")
	grace := fs.Duration("shutdown-grace", a.envDuration("RODEO_SHUTDOWN_GRACE", 30*time.Second), "on shutdown, how long runs in flight may finish; the rest are delivered to another worker (env RODEO_SHUTDOWN_GRACE)")
	logLevel := fs.String("log-level", a.env("RODEO_LOG_LEVEL", "info"), "debug, info, warn or error (env RODEO_LOG_LEVEL)")
	logFormat := fs.String("log-format", a.env("RODEO_LOG_FORMAT", "text"), "text or json (env RODEO_LOG_FORMAT)")
	var cf clusterFlags
	a.addClusterFlags(fs, &cf, "worker")
	var bf browserFlags
	a.addBrowserFlags(fs, &bf, 4)
	var sf serviceFlags
	a.addServiceFlags(fs, &sf)
	display := a.addDisplayFlag(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if cf.url == "" {
		return errs.E(errs.InvalidConfig, "rodeo worker needs --nats-url (or RODEO_NATS_URL): the NATS server the API queues its runs on")
	}
	if cf.ackWait < time.Second {
		return errs.E(errs.InvalidConfig, "--nats-ack-wait / RODEO_NATS_ACK_WAIT must be at least 1s, got %s", cf.ackWait)
	}
	log := a.logger(*logLevel, *logFormat).With("worker", cf.name)
	nc, err := cluster.Connect(cf.url, "worker "+cf.name) // first: a wrong URL fails before Chrome starts
	if err != nil {
		return errs.Wrap(errs.InvalidConfig, err)
	}
	defer nc.Close()
	bcfg := bf.config(log, a.Getenv)
	stopProxy, err := sf.guardBrowsers(&bcfg, log)
	if err != nil {
		return err
	}
	defer stopProxy()
	pool, err := browser.NewPool(ctx, bcfg)
	if err != nil {
		return fmt.Errorf("browser pool: %w", err)
	}
	defer pool.Close()
	services, err := a.services(&sf, nil, "", *data, log)
	if err != nil {
		return err
	}
	runner := &scripts.Runner{Registry: scripts.DefaultRegistry, Browsers: leaser(pool), Logger: log, Services: services}
	runner.Desktops = a.desktops(*display, a.Stderr, log)
	metrics := cluster.NewMetrics(nil)
	capacity := pool.Stats().Capacity
	w, err := cluster.NewWorker(nc, cluster.WorkerConfig{Name: cf.name, Capacity: capacity, Runner: runner, AckWait: cf.ackWait,
		Grace: *grace, Metrics: metrics, Logger: log, Ready: func() int { return pool.Stats().Idle }})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *metricsAddr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", *metricsAddr, err)
	}
	hs := &http.Server{Handler: workerMux(metrics, nc.IsConnected, cf.name, capacity), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	defer hs.Close()
	fmt.Fprintf(a.Stdout, "rodeo worker %s pulling runs from %s, capacity %d, metrics on http://%s\n", cf.name, cf.url, capacity, ln.Addr())
	if err := w.Run(ctx); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	log.Info("stopped")
	return nil
}

// workerMux serves a worker's /metrics and /healthz.
func workerMux(m *cluster.Metrics, connected func() bool, name string, capacity int) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/metrics", m.Handler())
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) {
		status, code := "ok", http.StatusOK
		nats := "connected"
		if !connected() {
			status, code, nats = "degraded", http.StatusServiceUnavailable, "disconnected"
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		_ = json.NewEncoder(w).Encode(map[string]any{"status": status, "worker": name, "capacity": capacity, "nats": nats, "version": version})
	})
	return mux
}
