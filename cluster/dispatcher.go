package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/store"
)

// CodeInterrupted is the error code of a run that a worker left after it had acted.
const CodeInterrupted = "interrupted"

// workerSeenFor is how long after its last heartbeat a worker is listed as alive.
const workerSeenFor = 10 * time.Second

// Dispatcher is the server's side: it is the engine's RemoteExecutor, publishing each run as a
// job and mirroring what the workers report onto the live run and the store.
type Dispatcher struct {
	nc     *nats.Conn
	js     jetstream.JetStream
	engine *scripts.Engine
	db     *store.DB
	log    *slog.Logger
	name   string

	// storeMu serializes the read-modify-writes of stored documents (updateStored).
	storeMu sync.Mutex
	mu      sync.Mutex
	runs    map[string]*remoteRun
	workers map[string]Heartbeat
	// ended holds the runs that ended here lately: their late events (which can come after the
	// final document, on another subject) must not touch the stored document.
	ended  map[string]time.Time
	subs   []*nats.Subscription
	closed chan struct{}
	once   sync.Once
}

// remoteRun is a live run on the engine that a worker executes.
type remoteRun struct {
	run     *scripts.Run
	onStart func(scripts.Doc)
}

// NewDispatcher ensures the runs stream and answers the workers' requests on nc, addressed to
// name: keep it across restarts (a restarted server answers for the runs it queued before).
func NewDispatcher(ctx context.Context, nc *nats.Conn, name string, engine *scripts.Engine, db *store.DB, log *slog.Logger) (*Dispatcher, error) {
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	if _, err := ensureStream(ctx, js); err != nil {
		return nil, err
	}
	d := &Dispatcher{nc: nc, js: js, name: name, engine: engine, db: db, log: log, runs: map[string]*remoteRun{},
		workers: map[string]Heartbeat{}, ended: map[string]time.Time{}, closed: make(chan struct{})}
	for _, s := range []struct {
		subject, queue string
		h              nats.MsgHandler
	}{
		{to(SubjectStart, name), serverQueue, async(d.onStart)},
		{to(SubjectDone, name), serverQueue, async(d.onDone)},
		{to(SubjectEvents, name), serverQueue, d.onEvent},
		{SubjectHeartbeat, "", d.onHeartbeat},
	} {
		sub, err := nc.QueueSubscribe(s.subject, s.queue, s.h)
		if err != nil {
			d.Close()
			return nil, fmt.Errorf("nats subscribe %s: %w", s.subject, err)
		}
		d.subs = append(d.subs, sub)
	}
	return d, nil
}

// async answers each request on its own goroutine: storing a document must not hold up the
// answers to other runs' requests (their askers time out and ask again).
func async(h nats.MsgHandler) nats.MsgHandler {
	return func(m *nats.Msg) { go h(m) }
}

// Close stops answering and lets every Execute return: runs on workers go on, and their
// documents are stored by the next server to answer (this one after a restart).
func (d *Dispatcher) Close() {
	d.once.Do(func() {
		close(d.closed)
		for _, s := range d.subs {
			_ = s.Unsubscribe()
		}
	})
}

// Execute publishes r as a job and waits for its worker's final document (Complete), or for the
// dispatcher to close. A job that cannot be published fails the run queue_unavailable.
func (d *Dispatcher) Execute(ctx context.Context, r *scripts.Run, opt scripts.ExecOptions) {
	rr := &remoteRun{run: r, onStart: opt.OnStart}
	d.mu.Lock()
	d.runs[r.ID()] = rr
	d.mu.Unlock()
	defer func() {
		d.mu.Lock()
		delete(d.runs, r.ID())
		d.endedLocked(r.ID())
		d.mu.Unlock()
	}()
	r.OnCancel(func() { d.cancel(r) })
	if scripts.Final(r.Doc().Status) { // canceled before it was published
		r.Fail(scripts.StatusCanceled, errs.Canceled, "run canceled before a worker started it")
		return
	}
	doc := r.Doc()
	job := Job{RunID: r.ID(), Account: r.Account, Source: doc.Source, Goal: r.Script.Goal, Nodes: r.Script.Source,
		Data: r.Script.Data, Record: r.Script.Record, TimeoutMS: opt.Timeout.Milliseconds(), Script: doc.Script,
		Trigger: doc.Trigger, Created: doc.Created, Server: d.name}
	raw, err := json.Marshal(job)
	if err == nil {
		pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		_, err = d.js.Publish(pctx, SubjectJobs, raw, jetstream.WithMsgID(r.ID()))
		cancel()
	}
	if err != nil {
		d.log.Error("cluster: publish run", "run", r.ID(), "err", err)
		r.Fail(scripts.StatusFailed, errs.QueueUnavailable, "the run could not be queued for a worker: NATS did not take it")
		return
	}
	select {
	case <-r.Done():
	case <-d.closed:
	case <-ctx.Done():
	}
}

// cancel tells the workers to stop r; a run no worker has started ends canceled here at once.
func (d *Dispatcher) cancel(r *scripts.Run) {
	raw, _ := json.Marshal(cancelMsg{RunID: r.ID()})
	if err := d.nc.Publish(SubjectCancel, raw); err != nil {
		d.log.Warn("cluster: publish cancel", "run", r.ID(), "err", err)
	}
	if r.Doc().Status == scripts.StatusQueued {
		r.Fail(scripts.StatusCanceled, errs.Canceled, "run canceled before a worker started it")
	}
}

// endedLocked notes that run id ended here, forgetting runs that ended over 10 minutes ago.
func (d *Dispatcher) endedLocked(id string) {
	now := time.Now()
	if len(d.ended) > 1000 {
		for k, at := range d.ended {
			if now.Sub(at) > 10*time.Minute {
				delete(d.ended, k)
			}
		}
	}
	d.ended[id] = now
}

func (d *Dispatcher) endedHere(id string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	_, ok := d.ended[id]
	return ok
}

func (d *Dispatcher) live(id string) *remoteRun {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.runs[id]
}

// onStart decides whether a worker may start a run: not when it is final, and not when it
// already recorded a step on a worker (it acted: it fails interrupted rather than act twice).
func (d *Dispatcher) onStart(m *nats.Msg) {
	var req startRequest
	if err := json.Unmarshal(m.Data, &req); err != nil || req.RunID == "" {
		reply(m, startReply{Reason: "malformed start request"})
		return
	}
	d.touch(req.Worker)
	d.log.Debug("cluster: start", "run", req.RunID, "worker", req.Worker, "delivered", req.Delivered)
	if rr := d.live(req.RunID); rr != nil {
		doc := rr.run.Doc()
		switch {
		case scripts.Final(doc.Status):
			reply(m, startReply{Reason: "the run is already " + doc.Status})
		case doc.Status == scripts.StatusRunning && doc.Worker == req.Worker: // the same worker asking again
			reply(m, startReply{Go: true})
		case doc.Status == scripts.StatusRunning && d.alive(doc.Worker):
			reply(m, startReply{Retry: true, Reason: "worker " + doc.Worker + " still runs it"})
		case len(doc.Steps) > 0:
			rr.run.Fail(scripts.StatusFailed, CodeInterrupted, interruptedMessage(doc))
			d.engine.Wait(context.Background(), rr.run)
			reply(m, startReply{Reason: "the run had acted on a worker that stopped"})
		default:
			rr.run.Begin(req.Worker, time.Now())
			if rr.onStart != nil {
				rr.onStart(rr.run.Doc())
			}
			reply(m, startReply{Go: true})
		}
		return
	}
	// Not live here (this server restarted since it queued the run): decide on the stored document.
	var answer startReply
	err := d.updateStored(req.Account, req.RunID, func(doc *scripts.Doc) bool {
		switch {
		case scripts.Final(doc.Status):
			answer.Reason = "the run is already " + doc.Status
			return false
		case doc.Status == scripts.StatusRunning && doc.Worker == req.Worker:
			answer.Go = true
			return false
		case doc.Status == scripts.StatusRunning && d.alive(doc.Worker):
			answer = startReply{Retry: true, Reason: "worker " + doc.Worker + " still runs it"}
			return false
		case len(doc.Steps) > 0:
			finishDoc(doc, scripts.StatusFailed, CodeInterrupted, interruptedMessage(*doc))
			answer.Reason = "the run had acted on a worker that stopped"
		default:
			now := time.Now().UTC()
			doc.Status, doc.Worker, doc.Started = scripts.StatusRunning, req.Worker, &now
			answer.Go = true
		}
		return true
	})
	if err != nil {
		answer = startReply{Reason: "the run is unknown to the server: " + errs.Code(err)}
		d.log.Warn("cluster: start of a run the store does not hold", "run", req.RunID, "err", err)
	}
	reply(m, answer)
}

func interruptedMessage(doc scripts.Doc) string {
	return fmt.Sprintf("worker %s stopped after this run had done %d step(s); it is not run again, so that its actions are not repeated", doc.Worker, len(doc.Steps))
}

// onDone stores a final document and answers once it is stored.
func (d *Dispatcher) onDone(m *nats.Msg) {
	var req doneRequest
	if err := json.Unmarshal(m.Data, &req); err != nil || req.Doc.RunID == "" || !scripts.Final(req.Doc.Status) {
		reply(m, doneReply{Error: "malformed done request"})
		return
	}
	d.touch(req.Worker)
	d.log.Debug("cluster: done", "run", req.Doc.RunID, "worker", req.Worker, "status", req.Doc.Status)
	if rr := d.live(req.Doc.RunID); rr != nil {
		rr.run.Complete(req.Doc) // false: already final here (canceled, interrupted): that one stays
		d.engine.Wait(context.Background(), rr.run)
		reply(m, doneReply{Stored: true})
		return
	}
	err := d.updateStored(req.Account, req.Doc.RunID, func(doc *scripts.Doc) bool {
		if scripts.Final(doc.Status) {
			return false
		}
		*doc = req.Doc
		return true
	})
	if err != nil && !errs.Is(err, errs.NotFound) {
		reply(m, doneReply{Error: err.Error()})
		return
	}
	reply(m, doneReply{Stored: true})
}

// onEvent mirrors a worker's event onto the live run (SSE), or records a step on the stored
// document of a run this server no longer holds live.
func (d *Dispatcher) onEvent(m *nats.Msg) {
	var ev eventMsg
	if err := json.Unmarshal(m.Data, &ev); err != nil {
		return
	}
	d.touch(ev.Worker)
	rr := d.live(ev.Event.RunID)
	d.log.Debug("cluster: event", "run", ev.Event.RunID, "worker", ev.Worker, "type", ev.Event.Type, "live", rr != nil)
	switch {
	case rr != nil && ev.Event.Type == "step" && ev.Event.Step != nil:
		rr.run.AddStep(*ev.Event.Step)
	case rr != nil && ev.Event.Type != "step" && ev.Event.Type != "status" && ev.Event.Type != "done":
		rr.run.Publish(ev.Event)
	case rr == nil && ev.Event.Type == "step" && ev.Event.Step != nil && !d.endedHere(ev.Event.RunID):
		err := d.updateStored(ev.Account, ev.Event.RunID, func(doc *scripts.Doc) bool {
			if scripts.Final(doc.Status) {
				return false
			}
			doc.Steps = append(doc.Steps, *ev.Event.Step)
			return true
		})
		if err != nil {
			d.log.Warn("cluster: step of a run the store does not hold", "run", ev.Event.RunID, "err", err)
		}
	}
}

func (d *Dispatcher) onHeartbeat(m *nats.Msg) {
	var hb Heartbeat
	if json.Unmarshal(m.Data, &hb) != nil || hb.Worker == "" {
		return
	}
	hb.At = time.Now().UTC()
	d.mu.Lock()
	d.workers[hb.Worker] = hb
	d.mu.Unlock()
}

// alive reports whether worker was heard from lately (its heartbeats come every 2 s).
func (d *Dispatcher) alive(worker string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	hb, ok := d.workers[worker]
	return ok && time.Since(hb.At) < workerSeenFor
}

// touch notes that worker was heard from (any message counts, not only heartbeats).
func (d *Dispatcher) touch(worker string) {
	if worker == "" {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	hb := d.workers[worker]
	hb.Worker, hb.At = worker, time.Now().UTC()
	d.workers[worker] = hb
}

// updateStored applies f to the stored document of the account's run id and stores it when f
// says so.
func (d *Dispatcher) updateStored(account, id string, f func(*scripts.Doc) bool) error {
	d.storeMu.Lock()
	defer d.storeMu.Unlock()
	rec, err := d.db.GetRun(account, id)
	if err != nil {
		return err
	}
	var doc scripts.Doc
	if err := json.Unmarshal(rec.Doc, &doc); err != nil {
		return err
	}
	if !f(&doc) {
		return nil
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	rec.Status, rec.Doc = doc.Status, raw
	return d.db.PutRun(rec)
}

func finishDoc(doc *scripts.Doc, status, code, message string) {
	now := time.Now().UTC()
	doc.Status, doc.Error, doc.Finished = status, &scripts.ErrorBody{Code: code, Message: message}, &now
	if doc.Started != nil {
		doc.DurationMS = now.Sub(*doc.Started).Milliseconds()
	}
}

// WorkerView is one worker in /healthz.
type WorkerView struct {
	Worker   string    `json:"worker"`
	Capacity int       `json:"capacity"`
	InFlight int       `json:"in_flight"`
	LastSeen time.Time `json:"last_seen"`
	Alive    bool      `json:"alive"`
}

// Health is the cluster part of /healthz: the NATS connection and the workers heard from.
type Health struct {
	NATS    string       `json:"nats"`
	Workers []WorkerView `json:"workers"`
	// Alive counts the workers heard from within the last 10 seconds.
	Alive int `json:"workers_alive"`
}

// Health reports the NATS connection's state and the workers heard from.
func (d *Dispatcher) Health() Health {
	h := Health{NATS: natsState(d.nc), Workers: []WorkerView{}}
	now := time.Now()
	d.mu.Lock()
	for _, hb := range d.workers {
		alive := now.Sub(hb.At) < workerSeenFor
		if alive {
			h.Alive++
		}
		h.Workers = append(h.Workers, WorkerView{Worker: hb.Worker, Capacity: hb.Capacity, InFlight: hb.InFlight, LastSeen: hb.At, Alive: alive})
	}
	d.mu.Unlock()
	sort.Slice(h.Workers, func(i, j int) bool { return h.Workers[i].Worker < h.Workers[j].Worker })
	return h
}

func natsState(nc *nats.Conn) string {
	switch nc.Status() {
	case nats.CONNECTED:
		return "connected"
	case nats.RECONNECTING:
		return "reconnecting"
	default:
		return "disconnected"
	}
}

// KeepUnfinished returns the engine keeper of a server on NATS: runs left queued or running by
// the last stop belong to the queue (their jobs wait in the stream, or a worker runs them), so
// recovery must not mark them interrupted. Extension runs are not the queue's.
func KeepUnfinished(db *store.DB, extensionSource string) (func(id string) bool, error) {
	recs, err := db.UnfinishedRuns()
	if err != nil {
		return nil, err
	}
	keep := map[string]bool{}
	for _, rec := range recs {
		var doc scripts.Doc
		if json.Unmarshal(rec.Doc, &doc) == nil && doc.Source != extensionSource {
			keep[rec.ID] = true
		}
	}
	return func(id string) bool { return keep[id] }, nil
}
