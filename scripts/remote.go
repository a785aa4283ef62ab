package scripts

import (
	"context"
	"time"

	"github.com/rodeo-run/rodeo/errs"
)

// RemoteExecutor runs a run somewhere else (a worker process, package cluster) and mirrors its
// progress onto r: Execute returns when r has finished (r.Complete) or when ctx ends, the
// engine then records r as it is. The engine calls it instead of Runner.Execute when set.
type RemoteExecutor interface {
	Execute(ctx context.Context, r *Run, opt ExecOptions)
}

// OnCancel makes Cancel call f (a remote run: f tells its worker) instead of canceling a local
// execution. A run canceled before OnCancel is called keeps its canceled status.
func (r *Run) OnCancel(f func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cancel = func(error) { f() }
}

// Begin marks the run running on worker at started and publishes the status event; it reports
// false when the run was already final (canceled while it waited).
func (r *Run) Begin(worker string, started time.Time) bool {
	r.mu.Lock()
	if Final(r.doc.Status) {
		r.mu.Unlock()
		return false
	}
	r.doc.Status, r.doc.Worker = StatusRunning, worker
	t := started.UTC()
	r.doc.Started = &t
	r.mu.Unlock()
	r.publish(Event{Type: "status", RunID: r.ID(), Message: StatusRunning})
	return true
}

// AddStep records a step that finished elsewhere and publishes its event; a step that comes
// after the final document (which holds every step) is ignored.
func (r *Run) AddStep(s Step) {
	r.mu.Lock()
	done := r.isDone()
	r.mu.Unlock()
	if !done {
		r.addStep(s)
	}
}

// Publish passes on a message event (print, notification) from elsewhere.
func (r *Run) Publish(ev Event) {
	ev.RunID = r.ID()
	r.publish(ev)
}

// Complete finishes the run with the final document d from where it ran: its status, error,
// data, steps and times replace the live ones. It reports false when the run had already
// finished (a second final document is ignored).
func (r *Run) Complete(d Doc) bool {
	r.mu.Lock()
	if r.isDone() {
		r.mu.Unlock()
		return false
	}
	if d.Steps == nil {
		d.Steps = []Step{}
	}
	r.doc.Steps, r.doc.Started, r.doc.Worker = d.Steps, d.Started, d.Worker
	r.mu.Unlock()
	var err error
	if d.Error != nil { // rendered back unchanged by ErrorOf
		err = &errs.Error{Code: d.Error.Code, Message: d.Error.Message}
	}
	if d.Data == nil {
		d.Data = map[string]any{}
	}
	r.finish(d.Status, err, d.Data)
	r.mu.Lock()
	if d.Finished != nil { // the worker's own clock says when it ended
		r.doc.Finished, r.doc.DurationMS = d.Finished, d.DurationMS
	}
	r.mu.Unlock()
	return true
}

// Fail finishes the run here with status and the error code and message given.
func (r *Run) Fail(status, code, message string) bool {
	return r.Complete(Doc{Status: status, Error: &ErrorBody{Code: code, Message: message}, Steps: r.Doc().Steps, Started: r.Doc().Started, Worker: r.Doc().Worker})
}

// Restore fills a fresh run's document from a document made elsewhere (a worker starting a run
// the server queued): id, references and creation time stay those of the queued run.
func (r *Run) Restore(script *ScriptRef, trigger *TriggerRef, created time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.doc.Script, r.doc.Trigger = script, trigger
	if !created.IsZero() {
		r.doc.Created = created
	}
}

func (r *Run) isDone() bool {
	select {
	case <-r.done:
		return true
	default:
		return false
	}
}
