// Package cluster spreads runs over worker processes with NATS JetStream (docs/scale-out.md).
//
// The server publishes each run as a job on a work-queue stream (the run id is the message id,
// so a retried publish is one job). Workers pull jobs within their free capacity, ask the server
// before they start one (the server refuses a run that already acted on a worker that died: it
// fails "interrupted" instead of repeating its actions), publish the run's events, and send the
// final document as a request the server answers once it has stored it; only then does the
// worker acknowledge the job. A worker that dies leaves its job unacknowledged, and JetStream
// delivers it again after the ack wait. Schedules claim their slots in a JetStream KV bucket.
package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/rodeo-run/rodeo/scripts"
)

// The names rodeo uses on NATS.
const (
	// StreamName is the work-queue stream of runs; SubjectJobs its subject.
	StreamName  = "RODEO_RUNS"
	SubjectJobs = "rodeo.runs.jobs"
	// ConsumerName is the durable pull consumer every worker shares.
	ConsumerName = "rodeo-workers"
	// SubjectStart.<server> is the request a worker sends before it starts a run.
	SubjectStart = "rodeo.runs.start"
	// SubjectDone.<server> carries a run's final document; the server answers once it is stored.
	SubjectDone = "rodeo.runs.done"
	// SubjectEvents.<server> carries a run's step and message events (the SSE stream's source).
	SubjectEvents = "rodeo.runs.events"
	// SubjectCancel tells the workers to cancel a run.
	SubjectCancel = "rodeo.runs.cancel"
	// SubjectHeartbeat is where workers say they are alive, with their capacity.
	SubjectHeartbeat = "rodeo.workers.heartbeat"
	// SlotBucket is the KV bucket of claimed schedule slots.
	SlotBucket = "rodeo_schedule_slots"
	// serverQueue is the queue group of servers answering requests: one answers each.
	serverQueue = "rodeo-servers"
)

// DefaultAckWait is how long a job may go without a sign of life from its worker before
// JetStream delivers it to another one. Workers signal every AckWait/3 while they run it.
const DefaultAckWait = 30 * time.Second

// dedupWindow is the stream's duplicate window: a job published twice with the same run id
// within it is stored once.
const dedupWindow = 10 * time.Minute

// Job is one run as it travels to a worker: the script as the user sent it (the worker compiles
// it again with its own registry), its variables and the run's references.
type Job struct {
	RunID     string              `json:"run_id"`
	Account   string              `json:"account"`
	Source    string              `json:"source"`
	Goal      string              `json:"goal"`
	Nodes     json.RawMessage     `json:"json_output"`
	Data      map[string]any      `json:"data,omitempty"`
	Record    bool                `json:"record,omitempty"`
	TimeoutMS int64               `json:"timeout_ms,omitempty"`
	Script    *scripts.ScriptRef  `json:"script,omitempty"`
	Trigger   *scripts.TriggerRef `json:"trigger,omitempty"`
	Created   time.Time           `json:"created"`
	// Server names the server that queued the run: the worker's requests and events go to it
	// (the one with that name after a restart), not to another server on the same NATS.
	Server string `json:"server"`
}

// startRequest asks the server whether a worker may start a run; Delivered counts JetStream's
// deliveries of the job (1 the first time).
type startRequest struct {
	RunID     string `json:"run_id"`
	Account   string `json:"account"`
	Worker    string `json:"worker"`
	Delivered uint64 `json:"delivered"`
}

// startReply is the server's answer: Go, or why not (the run is final, or it already acted).
type startReply struct {
	Go bool `json:"go"`
	// Retry: another worker that is alive holds the run (a delivery that came too early); the
	// job is handed back to be delivered again later.
	Retry  bool   `json:"retry,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// doneRequest carries the final document; doneReply says it is stored.
type doneRequest struct {
	Account string      `json:"account"`
	Worker  string      `json:"worker"`
	Doc     scripts.Doc `json:"doc"`
}

type doneReply struct {
	Stored bool   `json:"stored"`
	Error  string `json:"error,omitempty"`
}

// eventMsg is one event of a run on a worker.
type eventMsg struct {
	Account string        `json:"account"`
	Worker  string        `json:"worker"`
	Event   scripts.Event `json:"event"`
}

// cancelMsg names a run to cancel.
type cancelMsg struct {
	RunID string `json:"run_id"`
}

// Heartbeat is what a worker publishes every few seconds.
type Heartbeat struct {
	Worker   string    `json:"worker"`
	Capacity int       `json:"capacity"`
	InFlight int       `json:"in_flight"`
	At       time.Time `json:"at"`
}

// ensureStream creates the work-queue stream of runs unless it exists; the server and the
// workers both call it, so either may start first. An existing stream is left as it is, with
// any limits an operator set on it.
func ensureStream(ctx context.Context, js jetstream.JetStream) (jetstream.Stream, error) {
	st, err := js.CreateStream(ctx, jetstream.StreamConfig{
		Name:       StreamName,
		Subjects:   []string{SubjectJobs},
		Retention:  jetstream.WorkQueuePolicy,
		Storage:    jetstream.FileStorage,
		Duplicates: dedupWindow,
	})
	if errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
		st, err = js.Stream(ctx, StreamName)
	}
	if err != nil {
		return nil, fmt.Errorf("nats: the runs stream %s: %w", StreamName, err)
	}
	return st, nil
}

// Connect dials url with reconnects for ever (a NATS restart is waited out) and names the
// connection after role.
func Connect(url, role string) (*nats.Conn, error) {
	nc, err := nats.Connect(url, nats.Name("rodeo "+role), nats.MaxReconnects(-1), nats.ReconnectWait(500*time.Millisecond))
	if err != nil {
		return nil, fmt.Errorf("nats %s: %w", url, err)
	}
	return nc, nil
}

// request sends v on subject and decodes the answer into out, retrying until an answer comes or
// ctx ends (no server answering: it is restarting).
func request(ctx context.Context, nc *nats.Conn, subject string, v, out any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	for {
		rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		msg, err := nc.RequestWithContext(rctx, subject, raw)
		cancel()
		if err == nil {
			return json.Unmarshal(msg.Data, out)
		}
		if ctx.Err() != nil {
			return fmt.Errorf("%s: %w", subject, ctx.Err())
		}
		select { // no responder yet (the server restarts): try again shortly
		case <-time.After(250 * time.Millisecond):
		case <-ctx.Done():
			return fmt.Errorf("%s: %w", subject, ctx.Err())
		}
	}
}

// to is subject addressed to the server named server.
func to(subject, server string) string { return subject + "." + Token(server) }

// Token makes name usable as one subject token (no dots, spaces or wildcards).
func Token(name string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '.', ' ', '*', '>', '\t', '\n', '\r':
			return '_'
		}
		return r
	}, name)
}

func reply(m *nats.Msg, v any) {
	raw, _ := json.Marshal(v)
	_ = m.Respond(raw)
}
