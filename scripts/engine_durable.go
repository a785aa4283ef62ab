package scripts

import (
	"context"
	"encoding/json"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/store"
)

// The engine's queue is durable: every run Enqueue admits to wait for a browser is also kept in
// the store's run_queue (store/queue.go) until it starts or ends, the way the extension hub keeps
// its own queue. At start, RecoverInterrupted leaves those runs queued and ResumeQueued puts them
// back in the queue in their order, before any trigger can add a newer one. A run that had
// started (it left run_queue when it got its browser) still ends "interrupted": its steps may
// have had effects, so running it again is not the engine's call to make.

// keepWaiting stores what it takes to start r after a restart.
func (e *Engine) keepWaiting(r *Run, opt StartOptions, timeout time.Duration) error {
	if e.Store == nil {
		return nil
	}
	d := r.Doc()
	w := store.WaitingRun{ID: r.ID(), Account: r.Account, Source: d.Source, Goal: r.Script.Goal, Nodes: r.Script.Source,
		Data: r.Script.Data, Record: r.Script.Record, Profile: r.Script.Profile, Created: d.Created}
	if opt.Timeout > 0 {
		w.Timeout = timeout
	}
	if d.Script != nil {
		w.ScriptName, w.ScriptVersion = d.Script.Name, d.Script.Version
	}
	if d.Trigger != nil {
		w.TriggerID, w.TriggerSlot = d.Trigger.ID, d.Trigger.Slot
	}
	if err := e.Store.PutWaitingRun(w); err != nil {
		return errs.Wrap(errs.Internal, err)
	}
	return nil
}

// forgetWaiting drops r's entry in the store's queue: it started or ended.
func (e *Engine) forgetWaiting(id string) {
	if e.Store == nil {
		return
	}
	if err := e.Store.DeleteWaitingRun(id); err != nil {
		e.Logger.Error("forget queued run", "run", id, "err", err)
	}
}

// waitingKeeper reads the store's queue once and claims its runs for RecoverInterrupted, keeping
// what it read for ResumeQueued.
func (e *Engine) waitingKeeper() func(string) bool {
	if e.Store == nil {
		return func(string) bool { return false }
	}
	waiting, err := e.Store.WaitingRuns()
	if err != nil {
		e.Logger.Error("read the run queue", "err", err)
	}
	ids := make(map[string]bool, len(waiting))
	for _, w := range waiting {
		ids[w.ID] = true
	}
	e.resumable = waiting
	return func(id string) bool { return ids[id] }
}

// ResumeQueued puts back in the queue, oldest first, the runs that waited for a browser when the
// server stopped (killed or shut down). Call it once, after RecoverInterrupted and before
// triggers start. It returns how many runs it resumed; a run whose nodes no longer compile (a
// node kind was removed) fails with the reason instead.
func (e *Engine) ResumeQueued() int {
	e.mu.Lock()
	waiting := e.resumable
	e.resumable = nil
	e.mu.Unlock()
	n := 0
	for _, w := range waiting {
		s, err := e.compileWaiting(w)
		r := NewRun(w.ID, w.Account, w.Source, s)
		r.doc.Created = w.Created
		if w.ScriptName != "" {
			r.doc.Script = &ScriptRef{Name: w.ScriptName, Version: w.ScriptVersion}
		}
		if w.TriggerID != "" {
			r.doc.Trigger = &TriggerRef{ID: w.TriggerID, Slot: w.TriggerSlot}
		}
		timeout := e.RunTimeout
		if w.Timeout > 0 {
			timeout = min(w.Timeout, e.MaxRunTimeout)
		}
		ctx, cancel := context.WithCancel(e.base)
		q := &queuedRun{run: r, timeout: timeout, ctx: ctx, cancel: cancel}
		e.mu.Lock()
		e.active[r.ID()] = r
		e.wg.Add(1)
		if err == nil {
			e.queue = append(e.queue, q)
		}
		e.mu.Unlock()
		if err != nil {
			cancel()
			_, msg := errs.Public(err)
			e.abandon(q, StatusFailed, errs.E(errs.InvalidConfig, "the queued run could not be resumed: %s", msg))
			continue
		}
		n++
		e.Logger.Info("queued run resumed", "run", r.ID(), "account", r.Account)
	}
	if n > 0 {
		e.dispatchOnce.Do(func() { go e.dispatch() })
		e.kick()
	}
	return n
}

// compileWaiting rebuilds the script of a stored waiting run.
func (e *Engine) compileWaiting(w store.WaitingRun) (*Script, error) {
	var nodes []json.RawMessage
	if err := json.Unmarshal(w.Nodes, &nodes); err != nil {
		return &Script{Goal: w.Goal, Data: w.Data}, err
	}
	s, err := e.Runner.Registry.Compile(w.Goal, nodes, w.Data)
	if err != nil {
		return &Script{Goal: w.Goal, Data: w.Data}, err
	}
	s.Record, s.Profile = w.Record, w.Profile
	return s, nil
}

// shelve takes a queued run out of this process at shutdown without ending it: it stays queued
// in the store, and the next start resumes it.
func (e *Engine) shelve(q *queuedRun) {
	e.mu.Lock()
	delete(e.active, q.run.ID())
	e.mu.Unlock()
	e.releaseProfile(q.run.Account, q.run.Script.Profile, q.run.ID())
	e.wg.Done()
}

// kick wakes the dispatcher (a run was queued, or a profile came free).
func (e *Engine) kick() {
	select {
	case e.wake <- struct{}{}:
	default:
	}
}
