package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
)

// WorkerConfig wires a worker.
type WorkerConfig struct {
	Name string
	// Capacity is the most runs the worker holds at once: its pool's contexts. Required.
	Capacity int
	Runner   *scripts.Runner
	Registry *scripts.Registry
	// AckWait is the consumer's ack wait (DefaultAckWait when 0): a job whose worker gives no
	// sign of life for this long is delivered again.
	AckWait time.Duration
	// Grace is how long runs in flight may finish after ctx ends before the worker leaves them
	// (unacknowledged: they are delivered again). Default 30 s.
	Grace time.Duration
	// Ready, when set, says how many runs the worker can start at once (the pool's warm
	// contexts): it pulls no more than that, so a pulled run does not wait for a context to warm.
	Ready   func() int
	Metrics *Metrics
	Logger  *slog.Logger
}

// Worker pulls jobs and runs them.
type Worker struct {
	cfg WorkerConfig
	nc  *nats.Conn
	log *slog.Logger

	mu   sync.Mutex
	runs map[string]*scripts.Run
	// canceled holds cancels that came before their run was registered.
	canceled map[string]bool
	inFlight int
	// leaving is set when the grace after a stop has passed: the runs still going are stopped,
	// and their jobs left unacknowledged (delivered again) instead of reported canceled.
	leaving atomic.Bool
}

// NewWorker returns a worker on nc; Run starts it.
func NewWorker(nc *nats.Conn, cfg WorkerConfig) (*Worker, error) {
	if cfg.Capacity < 1 {
		return nil, errs.E(errs.InvalidConfig, "a worker needs at least one browser context (capacity %d)", cfg.Capacity)
	}
	if cfg.AckWait <= 0 {
		cfg.AckWait = DefaultAckWait
	}
	if cfg.AckWait < time.Second {
		return nil, errs.E(errs.InvalidConfig, "the ack wait must be at least 1s (got %s): workers signal progress every third of it", cfg.AckWait)
	}
	if cfg.Grace <= 0 {
		cfg.Grace = 30 * time.Second
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Metrics == nil {
		cfg.Metrics = NewMetrics(nil)
	}
	if cfg.Registry == nil {
		cfg.Registry = scripts.DefaultRegistry
	}
	return &Worker{cfg: cfg, nc: nc, log: cfg.Logger.With("worker", cfg.Name), runs: map[string]*scripts.Run{}, canceled: map[string]bool{}}, nil
}

// Run pulls and runs jobs until ctx ends, then waits up to Grace for the runs in flight.
func (w *Worker) Run(ctx context.Context) error {
	js, err := jetstream.New(w.nc)
	if err != nil {
		return err
	}
	if _, err := ensureStream(ctx, js); err != nil {
		return err
	}
	cons, err := js.CreateOrUpdateConsumer(ctx, StreamName, jetstream.ConsumerConfig{
		Durable: ConsumerName, AckPolicy: jetstream.AckExplicitPolicy, AckWait: w.cfg.AckWait, MaxDeliver: -1,
	})
	if err != nil {
		return fmt.Errorf("nats: the workers' consumer: %w", err)
	}
	sub, err := w.nc.Subscribe(SubjectCancel, w.onCancel)
	if err != nil {
		return err
	}
	defer func() { _ = sub.Unsubscribe() }()
	// Runs live on their own context: a stop lets them finish within the grace.
	runCtx, stopRuns := context.WithCancel(context.Background())
	defer stopRuns()
	var wg sync.WaitGroup
	go w.heartbeat(ctx)
	slots := make(chan struct{}, w.cfg.Capacity)
	w.log.Info("worker pulling runs", "capacity", w.cfg.Capacity, "ack_wait", w.cfg.AckWait.String())
	for ctx.Err() == nil {
		taken := w.acquire(ctx, slots)
		if taken == 0 {
			break
		}
		n := w.ready(ctx, taken)
		for range taken - n {
			<-slots
		}
		if n == 0 {
			break
		}
		batch, err := cons.Fetch(n, jetstream.FetchMaxWait(2*time.Second))
		got := 0
		if err == nil {
			for msg := range batch.Messages() {
				got++
				w.cfg.Metrics.Pulls.Inc()
				wg.Add(1)
				go func() {
					defer wg.Done()
					defer func() { <-slots }()
					w.handle(runCtx, msg)
				}()
			}
		} else if ctx.Err() == nil && !errors.Is(err, context.Canceled) {
			w.log.Warn("worker: fetch", "err", err)
			time.Sleep(500 * time.Millisecond)
		}
		for range n - got {
			<-slots
		}
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(w.cfg.Grace):
		w.log.Warn("worker: runs still in flight after the grace are left to be delivered again")
		w.leaving.Store(true)
	}
	return nil
}

// ready waits until the pool has a warm context, then returns min(n, warm); 0 when ctx ended.
func (w *Worker) ready(ctx context.Context, n int) int {
	if w.cfg.Ready == nil {
		return n
	}
	for {
		if r := w.cfg.Ready(); r > 0 {
			return min(n, r)
		}
		select {
		case <-time.After(50 * time.Millisecond):
		case <-ctx.Done():
			return 0
		}
	}
}

// acquire takes one free slot (waiting for it) and then every other free one; it returns how
// many it took, 0 when ctx ended.
func (w *Worker) acquire(ctx context.Context, slots chan struct{}) int {
	select {
	case slots <- struct{}{}:
	case <-ctx.Done():
		return 0
	}
	n := 1
	for n < cap(slots) {
		select {
		case slots <- struct{}{}:
			n++
		default:
			return n
		}
	}
	return n
}

// handle runs one job: ask the server, run, send the document, and only then acknowledge.
func (w *Worker) handle(ctx context.Context, msg jetstream.Msg) {
	var delivered uint64 = 1
	if meta, err := msg.Metadata(); err == nil {
		delivered = meta.NumDelivered
	}
	if delivered > 1 {
		w.cfg.Metrics.Redeliveries.Inc()
	}
	var job Job
	if err := json.Unmarshal(msg.Data(), &job); err != nil || job.RunID == "" {
		w.log.Error("worker: a job that is not a run is dropped", "err", err)
		_ = msg.Term()
		return
	}
	log := w.log.With("run", job.RunID, "delivery", delivered)
	stopProgress := w.keepAlive(msg)
	defer stopProgress()
	w.track(+1)
	defer w.track(-1)

	r, compileErr := w.prepare(job)
	w.mu.Lock()
	w.runs[job.RunID] = r
	canceled := w.canceled[job.RunID]
	delete(w.canceled, job.RunID)
	w.mu.Unlock()
	defer func() {
		w.mu.Lock()
		delete(w.runs, job.RunID)
		w.mu.Unlock()
	}()

	var answer startReply
	if err := request(ctx, w.nc, to(SubjectStart, job.Server), startRequest{RunID: job.RunID, Account: job.Account, Worker: w.cfg.Name, Delivered: delivered}, &answer); err != nil {
		log.Warn("worker: no answer to start; the job is left to be delivered again", "err", err)
		return
	}
	if answer.Retry {
		log.Info("worker: another worker holds the run; handed back", "reason", answer.Reason)
		_ = msg.NakWithDelay(w.cfg.AckWait)
		return
	}
	if !answer.Go {
		log.Info("worker: the server says not to run it", "reason", answer.Reason)
		_ = msg.Ack()
		return
	}
	if canceled {
		r.Cancel()
	}
	doc := w.execute(ctx, r, job, compileErr)
	if w.leaving.Load() {
		return
	}
	doc.Worker = w.cfg.Name
	w.cfg.Metrics.Runs.WithLabelValues(doc.Status).Inc()
	var stored doneReply
	if err := request(ctx, w.nc, to(SubjectDone, job.Server), doneRequest{Account: job.Account, Worker: w.cfg.Name, Doc: doc}, &stored); err != nil || !stored.Stored {
		log.Error("worker: the server did not store the document; the job is left to be delivered again", "err", err, "reason", stored.Error)
		return
	}
	actx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := msg.DoubleAck(actx); err != nil {
		log.Warn("worker: ack", "err", err)
	}
}

// prepare compiles the job's script; a script this worker cannot compile still gets a run,
// which fails with the compile error.
func (w *Worker) prepare(job Job) (*scripts.Run, error) {
	var nodes []json.RawMessage
	err := json.Unmarshal(job.Nodes, &nodes)
	var script *scripts.Script
	if err == nil {
		script, err = w.cfg.Registry.Compile(job.Goal, nodes, job.Data)
	}
	if err != nil {
		script = &scripts.Script{Goal: job.Goal, Data: job.Data, Source: job.Nodes}
	} else {
		script.Record = job.Record
	}
	r := scripts.NewRun(job.RunID, job.Account, job.Source, script)
	r.Restore(job.Script, job.Trigger, job.Created)
	return r, err
}

// execute runs r here, forwarding its events to the server, and returns the final document.
func (w *Worker) execute(ctx context.Context, r *scripts.Run, job Job, compileErr error) scripts.Doc {
	if compileErr != nil {
		r.Begin(w.cfg.Name, time.Now())
		r.Fail(scripts.StatusFailed, errs.Code(compileErr), "the worker could not compile the script: "+compileErr.Error())
		return r.Doc()
	}
	_, events, stop := r.Subscribe()
	defer stop()
	forwarded := make(chan struct{})
	go func() {
		defer close(forwarded)
		for ev := range events {
			if w.leaving.Load() { // what a run does as it is stopped is not its record
				continue
			}
			raw, err := json.Marshal(eventMsg{Account: job.Account, Worker: w.cfg.Name, Event: ev})
			if err == nil {
				_ = w.nc.Publish(to(SubjectEvents, job.Server), raw)
			}
		}
	}()
	w.cfg.Runner.Execute(ctx, r, scripts.ExecOptions{Timeout: time.Duration(job.TimeoutMS) * time.Millisecond})
	<-forwarded
	_ = w.nc.Flush() // the steps reach NATS before the document
	return r.Doc()
}

// keepAlive tells JetStream the job is in progress every third of the ack wait, so it is not
// delivered to another worker while this one lives; the returned function stops it.
func (w *Worker) keepAlive(msg jetstream.Msg) func() {
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(w.cfg.AckWait / 3)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				_ = msg.InProgress()
			case <-done:
				return
			}
		}
	}()
	return func() { close(done) }
}

func (w *Worker) onCancel(m *nats.Msg) {
	var c cancelMsg
	if json.Unmarshal(m.Data, &c) != nil {
		return
	}
	w.mu.Lock()
	r := w.runs[c.RunID]
	if r == nil {
		w.canceled[c.RunID] = true
		if len(w.canceled) > 10000 { // cancels of runs other workers hold: keep it bounded
			w.canceled = map[string]bool{c.RunID: true}
		}
	}
	w.mu.Unlock()
	if r != nil {
		r.Cancel()
	}
}

func (w *Worker) track(d int) {
	w.mu.Lock()
	w.inFlight += d
	n := w.inFlight
	w.mu.Unlock()
	w.cfg.Metrics.InFlight.Set(float64(n))
}

// heartbeat publishes the worker's capacity and load every 2 s until ctx ends.
func (w *Worker) heartbeat(ctx context.Context) {
	t := time.NewTicker(2 * time.Second)
	defer t.Stop()
	for {
		w.mu.Lock()
		hb := Heartbeat{Worker: w.cfg.Name, Capacity: w.cfg.Capacity, InFlight: w.inFlight, At: time.Now().UTC()}
		w.mu.Unlock()
		if raw, err := json.Marshal(hb); err == nil {
			_ = w.nc.Publish(SubjectHeartbeat, raw)
		}
		select {
		case <-t.C:
		case <-ctx.Done():
			return
		}
	}
}
