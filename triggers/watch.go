package triggers

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/store"
)

// Screen-state watches. Each watch that is not paused has a loop that sleeps until the watch's
// next check, checks, and stores what it saw. A check is a small run of its own that nothing
// stores as a run: an "open tab" of the watch's URL and a semanticScrape of the condition's
// target, in a context leased from the browser pool like any run's, with the same page-load and
// read checks (late content gets the scrape's retries). The script fires on the edge: a check
// whose result is true after one that was false (a watch starts false, so a condition already
// true at the first check fires once). Errors change no state and back the next check off.

// maxBackoff caps the wait after failed checks (never below the watch's own interval).
const maxBackoff = time.Hour

// watchValueVar is the variable a check's scrape writes.
const watchValueVar = "watch_value"

// WatchSpec is a watch being created.
type WatchSpec struct {
	Script    string
	URL       string
	Condition string
	Every     float64 // seconds
	Cooldown  float64 // seconds
}

// CreateWatch validates spec, stores the watch for the account and starts checking it.
func (in *Inbound) CreateWatch(account string, spec WatchSpec) (store.Watch, error) {
	if err := in.validWatch(spec); err != nil {
		return store.Watch{}, err
	}
	if err := in.ensureScript(account, spec.Script); err != nil {
		return store.Watch{}, err
	}
	w, err := in.cfg.Store.CreateWatch(store.Watch{Account: account, Script: spec.Script, URL: strings.TrimSpace(spec.URL),
		Condition: strings.TrimSpace(spec.Condition), Every: spec.Every, Cooldown: spec.Cooldown})
	if err != nil {
		return w, err
	}
	in.watches.sync(w.ID)
	return w, nil
}

func (in *Inbound) validWatch(spec WatchSpec) error {
	var details []errs.Detail
	if u, err := url.Parse(strings.TrimSpace(spec.URL)); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		details = append(details, errs.Detail{Field: "url", Problem: "must be an http or https URL"})
	} else if strings.Contains(spec.URL, "{{") {
		details = append(details, errs.Detail{Field: "url", Problem: "must not hold {{placeholders}}"})
	}
	if _, err := ParseCondition(spec.Condition); err != nil {
		details = append(details, err.(*errs.Error).Details...)
	}
	min := in.cfg.MinWatchEvery.Seconds()
	if !(spec.Every >= min) || math.IsInf(spec.Every, 0) {
		details = append(details, errs.Detail{Field: "every", Problem: fmt.Sprintf("must be a number of seconds, at least %g", min)})
	}
	if !(spec.Cooldown >= 0) || math.IsInf(spec.Cooldown, 0) {
		details = append(details, errs.Detail{Field: "cooldown", Problem: "must be a number of seconds, 0 or more"})
	}
	if len(details) == 0 {
		return nil
	}
	msg := "invalid watch: " + details[0].Field + " " + details[0].Problem
	if len(details) > 1 {
		msg = fmt.Sprintf("invalid watch: %d problems (see details)", len(details))
	}
	return &errs.Error{Code: errs.InvalidConfig, Message: msg, Details: details}
}

// PauseWatch pauses (or with paused false resumes, checking at once) the account's watch id.
func (in *Inbound) PauseWatch(account, id string, paused bool) (store.Watch, error) {
	now := time.Now().UTC()
	w, err := in.cfg.Store.UpdateWatch(account, id, func(w *store.Watch) error {
		if !paused && w.Paused {
			w.NextCheck = now
		}
		w.Paused = paused
		return nil
	})
	if err != nil {
		return w, err
	}
	in.watches.sync(id)
	return w, nil
}

// DeleteWatch removes the account's watch id and stops its checks.
func (in *Inbound) DeleteWatch(account, id string) error {
	if err := in.cfg.Store.DeleteWatch(account, id); err != nil {
		return err
	}
	in.watches.sync(id)
	return nil
}

// Start begins checking every stored watch that is not paused, each at its stored next check
// (a check that came due while the server was down runs at once). Stop with Close.
func (in *Inbound) Start(ctx context.Context) error {
	list, err := in.cfg.Store.ListWatches("", "")
	if err != nil {
		return err
	}
	in.watches.start(ctx)
	for _, w := range list {
		in.watches.sync(w.ID)
	}
	return nil
}

// Close stops every watch loop and waits for checks in progress to end.
func (in *Inbound) Close() { in.watches.close() }

// watcher runs one loop per active watch.
type watcher struct {
	in *Inbound

	mu     sync.Mutex
	ctx    context.Context
	stop   context.CancelFunc
	loops  map[string]context.CancelFunc
	wg     sync.WaitGroup
	closed bool
}

func newWatcher(in *Inbound) *watcher {
	return &watcher{in: in, loops: map[string]context.CancelFunc{}}
}

func (w *watcher) start(ctx context.Context) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.ctx == nil && !w.closed {
		w.ctx, w.stop = context.WithCancel(ctx)
	}
}

func (w *watcher) close() {
	w.mu.Lock()
	w.closed = true
	if w.stop != nil {
		w.stop()
	}
	w.mu.Unlock()
	w.wg.Wait()
}

// sync restarts watch id's loop from what the store holds: stopped when the watch is gone or
// paused, started again otherwise. Before Start nothing runs.
func (w *watcher) sync(id string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if cancel, ok := w.loops[id]; ok {
		cancel()
		delete(w.loops, id)
	}
	if w.ctx == nil || w.closed {
		return
	}
	wt, err := w.in.cfg.Store.GetWatch("", id)
	if err != nil || wt.Paused {
		return
	}
	ctx, cancel := context.WithCancel(w.ctx)
	w.loops[id] = cancel
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		w.loop(ctx, id)
	}()
}

// loop checks watch id until ctx ends or the watch is gone or paused.
func (w *watcher) loop(ctx context.Context, id string) {
	for {
		wt, err := w.in.cfg.Store.GetWatch("", id)
		if err != nil || wt.Paused {
			return
		}
		if wait := time.Until(wt.NextCheck); wait > 0 {
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C:
			}
		}
		if ctx.Err() != nil {
			return
		}
		w.checkOnce(ctx, wt)
	}
}

// checkOnce reads the watch's condition, records the check and fires on an edge. The fire is
// claimed in the same transaction that records the check, before the run is queued: a crash in
// between loses that fire rather than firing twice.
func (w *watcher) checkOnce(ctx context.Context, wt store.Watch) {
	in := w.in
	started := time.Now()
	value, result, cerr := in.readCondition(ctx, wt)
	if ctx.Err() != nil {
		return // stopped, paused or deleted mid-check: record nothing
	}
	now := time.Now().UTC()
	check := store.WatchCheck{At: now, DurationMS: time.Since(started).Milliseconds(), Value: cut(valueText(value), 500)}
	if cerr != nil {
		code, msg := errs.Public(cerr)
		check.Error = &store.CheckError{Code: code, Message: msg}
	} else {
		check.Result = &result
	}
	var runID string
	stored, err := in.cfg.Store.UpdateWatch("", wt.ID, func(s *store.Watch) error {
		runID = ""
		every := time.Duration(s.Every * float64(time.Second))
		if cerr != nil {
			s.Failures++
			s.NextCheck = now.Add(backoff(every, s.Failures))
			s.Checks = append(s.Checks, check)
			return nil
		}
		s.Failures = 0
		s.NextCheck = now.Add(every)
		c := check
		switch {
		case !result:
		case s.LastResult:
			c.Note = "still true: fires only when the condition turns true"
		case s.LastFired != nil && now.Sub(*s.LastFired) < time.Duration(s.Cooldown*float64(time.Second)):
			c.Note = fmt.Sprintf("turned true within the %gs cooldown of the last fire: not fired", s.Cooldown)
		default:
			runID = store.NewID("r")
			c.Fired, c.RunID = true, runID
			s.LastFired, s.Fires = &now, s.Fires+1
		}
		s.LastResult = result
		s.Checks = append(s.Checks, c)
		return nil
	})
	if err != nil {
		if !errs.Is(err, errs.NotFound) {
			in.log.Error("record a watch check", "watch", wt.ID, "err", err)
		}
		return
	}
	if runID == "" {
		return
	}
	vars := map[string]any{"data": valueText(value), "watch": map[string]any{"id": stored.ID, "url": stored.URL,
		"condition": stored.Condition, "value": value, "checked_at": now.Format(time.RFC3339Nano)}}
	if _, err := in.start(stored.Account, stored.Script, "watch", stored.ID, runID, vars); err != nil {
		_, msg := errs.Public(err)
		in.log.Warn("watch run did not start", "watch", stored.ID, "err", err)
		_, _ = in.cfg.Store.UpdateWatch("", stored.ID, func(s *store.Watch) error {
			for i := range s.Checks {
				if s.Checks[i].RunID == runID {
					s.Checks[i].RunID, s.Checks[i].Note = "", "the run could not start: "+msg
				}
			}
			return nil
		})
		return
	}
	in.log.Info("watch fired", "watch", stored.ID, "run", runID)
}

// backoff is the wait after the n-th failed check in a row: the interval doubled per failure,
// at most an hour (or the interval itself when that is longer).
func backoff(every time.Duration, n int) time.Duration {
	d := every
	for i := 0; i < n && d < maxBackoff; i++ {
		d *= 2
	}
	return min(d, max(maxBackoff, every))
}

// readCondition loads the watch's page in a pool context and reads the condition's target with
// the semantic engine (the semanticScrape node), then tests the value.
func (in *Inbound) readCondition(ctx context.Context, wt store.Watch) (any, bool, error) {
	cond, err := ParseCondition(wt.Condition)
	if err != nil {
		return nil, false, err
	}
	nodes := []map[string]any{
		{"type": "open tab", "target": wt.URL},
		{"type": "semanticScrape", "target": cond.Target, "data": watchValueVar},
	}
	raw := make([]json.RawMessage, len(nodes))
	for i, n := range nodes {
		raw[i], _ = json.Marshal(n)
	}
	script, err := in.cfg.Registry.Compile("check watch "+wt.ID, raw, nil)
	if err != nil {
		return nil, false, err
	}
	run := scripts.NewRun(store.NewID("wc"), wt.Account, "watch", script)
	in.cfg.Engine.Runner.Execute(ctx, run, scripts.ExecOptions{Timeout: in.cfg.CheckTimeout})
	doc := run.Doc()
	if doc.Status != scripts.StatusSucceeded {
		if doc.Error != nil {
			return nil, false, &errs.Error{Code: doc.Error.Code, Message: doc.Error.Message}
		}
		return nil, false, errs.E(errs.NodeFailed, "the check ended %s", doc.Status)
	}
	value := doc.Data[watchValueVar]
	ok, err := cond.Eval(value)
	return value, ok, err
}
