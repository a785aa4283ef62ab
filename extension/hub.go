// Package extension is rodeo's companion browser extension (the Manifest V3 extension in this
// folder, plain JS) and the hub it connects to.
//
// The hub keeps the account's connected extensions (several per account; a run goes to the least
// busy one), queues triggered runs while none is connected (persisted as queued run records until
// one connects or the queue time runs out), and runs each in a tab of the user's browser. The
// run's browser is a real *rod.Page whose DevTools protocol goes through the extension's
// chrome.debugger relay, so the server's runner, its nodes, their verification and the semantic
// engine work on the user's tab exactly as on the server's own browsers. See docs/extension.md.
package extension

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/gofiber/contrib/websocket"
	"github.com/gofiber/fiber/v2"
	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/store"
)

// Source is the run document's source of extension runs.
const Source = "extension"

// DefaultQueueTTL is how long a triggered run waits for an extension by default.
const DefaultQueueTTL = 10 * time.Minute

// Config wires a Hub.
type Config struct {
	Engine *scripts.Engine
	// Store authenticates keys and holds the queued runs' records.
	Store *store.DB
	// QueueTTL is how long a run waits for an extension before it expires. Optional. Default: 10 minutes.
	QueueTTL time.Duration
	// PerExtension caps the runs one connected extension runs at once (one tab each). Optional. Default: 4.
	PerExtension int
	// Logger. Optional. Default: slog.Default().
	Logger *slog.Logger
}

// Hub tracks connected extensions and dispatches extension runs to them.
type Hub struct {
	cfg  Config
	log  *slog.Logger
	base context.Context
	stop context.CancelFunc

	mu      sync.Mutex
	conns   map[string][]*conn   // account -> connected extensions, oldest first
	queue   map[string][]*Ticket // account -> runs waiting for an extension, oldest first
	tickets map[string]*Ticket   // run id -> ticket, until the run's end is recorded
	closed  bool
	handler fiber.Handler
	// pending are the runs the store's queue held at start-up, until Resume takes them.
	pending map[string]store.QueuedRun
}

// New returns a hub for cfg. It watches the engine's finished runs to give runs that lost their
// extension a precise error.
func New(cfg Config) *Hub {
	if cfg.QueueTTL <= 0 {
		cfg.QueueTTL = DefaultQueueTTL
	}
	if cfg.PerExtension <= 0 {
		cfg.PerExtension = 4
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	base, stop := context.WithCancel(context.Background())
	h := &Hub{cfg: cfg, log: cfg.Logger.With("component", "extension-hub"), base: base, stop: stop,
		conns: map[string][]*conn{}, queue: map[string][]*Ticket{}, tickets: map[string]*Ticket{}}
	if cfg.Store != nil {
		pending, err := cfg.Store.QueuedRuns()
		if err != nil {
			h.log.Error("read the extension queue", "err", err)
		}
		h.pending = map[string]store.QueuedRun{}
		for _, q := range pending {
			h.pending[q.ID] = q
		}
	}
	if cfg.Engine != nil {
		cfg.Engine.AddObserver(h.observe)
		cfg.Engine.AddCanceler(h.cancelQueued)
		cfg.Engine.AddKeeper(func(id string) bool { _, ok := h.pending[id]; return ok })
	}
	return h
}

// Resume puts back in the queue the runs that were waiting for an extension when the server
// stopped (the queue is persisted), and expires those whose time ran out meanwhile. Call it once,
// after the engine's RecoverInterrupted.
func (h *Hub) Resume() {
	accounts := map[string]bool{}
	for _, q := range h.pending {
		t := &Ticket{id: q.ID, account: q.Account, background: q.Background, created: q.Created, expires: q.Expires, started: make(chan struct{})}
		if q.ScriptName != "" {
			t.ref = &scripts.ScriptRef{Name: q.ScriptName, Version: q.ScriptVersion}
		}
		var nodes []json.RawMessage
		err := json.Unmarshal(q.Nodes, &nodes)
		if err == nil {
			t.script, err = h.cfg.Engine.Runner.Registry.Compile(q.Goal, nodes, q.Data)
		}
		if err != nil {
			t.script = &scripts.Script{Goal: q.Goal, Data: q.Data}
			code, msg := errs.Public(err)
			h.end(t, scripts.StatusFailed, &scripts.ErrorBody{Code: code, Message: "the queued run could not be resumed: " + msg})
			continue
		}
		if !time.Now().Before(q.Expires) {
			h.expireNow(t)
			continue
		}
		h.mu.Lock()
		h.tickets[t.id] = t
		h.queue[t.account] = append(h.queue[t.account], t)
		t.timer = time.AfterFunc(time.Until(q.Expires), func() { h.expire(t) })
		h.mu.Unlock()
		accounts[t.account] = true
		h.log.Info("extension run resumed in the queue", "run", t.id, "account", t.account)
	}
	h.pending = nil
	for account := range accounts {
		h.kick(account)
	}
}

// Close drops every connection and stops the queue's timers. Runs still queued stay queued in
// the store (the next start marks them interrupted).
func (h *Hub) Close() {
	h.mu.Lock()
	h.closed = true
	var all []*conn
	for _, cs := range h.conns {
		all = append(all, cs...)
	}
	for _, q := range h.queue {
		for _, t := range q {
			t.timer.Stop()
		}
	}
	h.mu.Unlock()
	h.stop()
	for _, c := range all {
		c.shutdown("the server is shutting down")
	}
}

// Connected reports how many extensions of the account are connected.
func (h *Hub) Connected(account string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.conns[account])
}

// Queued reports how many runs of the account wait for an extension.
func (h *Hub) Queued(account string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.queue[account])
}

// Handler serves GET /extension/connect: it upgrades to a WebSocket and runs the protocol.
func (h *Hub) Handler() fiber.Handler {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.handler == nil {
		h.handler = h.newHandler()
	}
	return h.handler
}

func (h *Hub) newHandler() fiber.Handler {
	ws := websocket.New(h.serveWS, websocket.Config{HandshakeTimeout: 10 * time.Second})
	return func(c *fiber.Ctx) error {
		if !websocket.IsWebSocketUpgrade(c) {
			return errs.E("upgrade_required", "GET /extension/connect is the companion extension's WebSocket endpoint")
		}
		return ws(c)
	}
}

// serveWS authenticates the first frame, then serves the connection until it ends.
func (h *Hub) serveWS(ws *websocket.Conn) {
	ws.SetReadLimit(maxFrame)
	_ = ws.SetReadDeadline(time.Now().Add(helloTimeout))
	_, data, err := ws.ReadMessage()
	if err != nil {
		return
	}
	var hello message
	if json.Unmarshal(data, &hello) != nil || hello.Type != "hello" {
		refuse(ws, closeProtocol, "invalid_request", `the first frame must be {"type":"hello","key":"…"}`)
		return
	}
	key, err := h.cfg.Store.Authenticate(strings.TrimSpace(hello.Key))
	if err != nil {
		h.log.Warn("extension refused", "ip", ws.IP(), "error", errs.Code(err))
		refuse(ws, closeAuth, errs.InvalidKey, "invalid or revoked API key")
		return
	}
	h.mu.Lock()
	closed := h.closed
	h.mu.Unlock()
	if closed {
		refuse(ws, websocket.CloseGoingAway, errs.Busy, "the server is shutting down")
		return
	}
	c := newConn(h, store.NewID("x"), key.Account, hello.Version, ws)
	// Counted before the welcome goes out, so whoever reads the welcome sees the connection;
	// runs are handed to it only after the welcome (kick), which the extension expects first.
	h.register(c)
	if err := c.write(message{Type: "welcome", Account: key.Account}); err != nil {
		h.remove(c)
		return
	}
	h.mu.Lock()
	c.welcomed = true
	h.mu.Unlock()
	h.kick(c.account)
	h.log.Info("extension connected", "conn", c.id, "account", c.account, "version", c.version)
	reason := "connection closed"
	if err := c.serve(); !websocket.IsCloseError(err, websocket.CloseNormalClosure, websocket.CloseGoingAway) {
		reason = err.Error()
	}
	c.shutdown(reason)
	c.detach()
	c.mu.Lock()
	reason = c.reason // the first reason wins (a drop by the server, then the read it ended)
	c.mu.Unlock()
	h.log.Info("extension disconnected", "conn", c.id, "account", c.account, "reason", reason)
}

func refuse(ws *websocket.Conn, code int, errCode, msg string) {
	data, _ := json.Marshal(message{Type: "error", Code: errCode, Message: msg})
	_ = ws.SetWriteDeadline(time.Now().Add(writeTimeout))
	_ = ws.WriteMessage(websocket.TextMessage, data)
	_ = ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, msg), time.Now().Add(writeTimeout))
}

func (h *Hub) register(c *conn) {
	h.mu.Lock()
	h.conns[c.account] = append(h.conns[c.account], c)
	h.mu.Unlock()
}

func (h *Hub) remove(c *conn) {
	h.mu.Lock()
	defer h.mu.Unlock()
	cs := h.conns[c.account]
	for i, x := range cs {
		if x == c {
			h.conns[c.account] = append(cs[:i:i], cs[i+1:]...)
			break
		}
	}
	if len(h.conns[c.account]) == 0 {
		delete(h.conns, c.account)
	}
}

// Ticket is a triggered extension run: queued, then started on an extension (or expired).
type Ticket struct {
	id         string
	account    string
	background bool
	script     *scripts.Script
	ref        *scripts.ScriptRef
	created    time.Time
	expires    time.Time
	timer      *time.Timer

	// guarded by Hub.mu
	state    ticketState
	lostCode string
	lostMsg  string

	started chan struct{} // closed once run or final is set
	run     *scripts.Run
	final   scripts.Doc
}

type ticketState int

const (
	stateQueued ticketState = iota
	stateDispatching
	stateStarted
	stateEnded
)

// ID is the run id.
func (t *Ticket) ID() string { return t.id }

// Enqueue queues a run of script (a saved script compiled for a trigger, ref naming it) for the
// account's extensions and returns at once; the run's record (status queued) is in the store
// before Enqueue returns. A background run gets a blank tab in an unfocused window of the
// user's browser; otherwise a new active tab. Either way the script's own nodes navigate it.
func (h *Hub) Enqueue(account string, script *scripts.Script, ref *scripts.ScriptRef, background bool) (*Ticket, error) {
	now := time.Now().UTC()
	t := &Ticket{id: store.NewID("r"), account: account, background: background, script: script, ref: ref, created: now,
		expires: now.Add(h.cfg.QueueTTL), started: make(chan struct{})}
	h.mu.Lock()
	closed := h.closed
	h.mu.Unlock()
	if closed {
		return nil, errs.E(errs.Busy, "the server is shutting down")
	}
	if err := h.persist(t, t.doc(scripts.StatusQueued, nil)); err != nil {
		return nil, err
	}
	if err := h.cfg.Store.PutQueuedRun(t.queued()); err != nil {
		return nil, err
	}
	h.mu.Lock()
	h.tickets[t.id] = t
	h.queue[account] = append(h.queue[account], t)
	t.timer = time.AfterFunc(h.cfg.QueueTTL, func() { h.expire(t) })
	h.mu.Unlock()
	h.log.Info("extension run queued", "run", t.id, "account", account, "background", background)
	h.kick(account)
	return t, nil
}

// Wait blocks until the run has finished (or expired) and returns its document; when ctx ends
// first it returns the document as it is then.
func (h *Hub) Wait(ctx context.Context, t *Ticket) scripts.Doc {
	select {
	case <-t.started:
	case <-ctx.Done():
		if d, err := h.cfg.Engine.Get(t.account, t.id); err == nil {
			return d
		}
		return t.doc(scripts.StatusQueued, nil)
	}
	if t.run == nil {
		return t.final
	}
	d := h.cfg.Engine.Wait(ctx, t.run)
	h.mu.Lock()
	code, msg := t.lostCode, t.lostMsg
	h.mu.Unlock()
	patchLost(&d, code, msg)
	return d
}

// doc is the run document of a run that has not started (queued) or never will (expired, failed).
func (t *Ticket) doc(status string, e *scripts.ErrorBody) scripts.Doc {
	d := scripts.Doc{RunID: t.id, Status: status, Goal: t.script.Goal, Data: map[string]any{}, Steps: []scripts.Step{},
		Error: e, Source: Source, Created: t.created}
	if t.ref != nil {
		ref := *t.ref
		d.Script = &ref
	}
	for k, v := range t.script.Data {
		d.Data[k] = v
	}
	if scripts.Final(status) {
		now := time.Now().UTC()
		d.Finished = &now
	}
	return d
}

func (h *Hub) persist(t *Ticket, d scripts.Doc) error {
	raw, err := json.Marshal(d)
	if err != nil {
		return err
	}
	return h.cfg.Store.PutRun(store.RunRecord{ID: t.id, Account: t.account, Status: d.Status, Created: t.created, Doc: raw})
}

// end records the final document of a run that never started.
func (h *Hub) end(t *Ticket, status string, e *scripts.ErrorBody) {
	d := t.doc(status, e)
	if err := h.persist(t, d); err != nil {
		h.log.Error("persist extension run", "run", t.id, "err", err)
	}
	h.forget(t)
	h.mu.Lock()
	t.state = stateEnded
	t.final = d
	delete(h.tickets, t.id)
	h.mu.Unlock()
	close(t.started)
}

// expire ends a run that is still queued when its time is up.
func (h *Hub) expire(t *Ticket) {
	h.mu.Lock()
	if t.state != stateQueued || h.closed {
		h.mu.Unlock()
		return
	}
	h.unqueue(t)
	t.state = stateEnded
	h.mu.Unlock()
	h.expireNow(t)
}

// expireNow records that t expired without running.
func (h *Hub) expireNow(t *Ticket) {
	h.log.Info("extension run expired", "run", t.id, "account", t.account)
	h.end(t, scripts.StatusExpired, &scripts.ErrorBody{Code: CodeNotConnected,
		Message: fmt.Sprintf("no companion extension of this account connected within %s, so the run expired without running; connect the extension (its options: server URL and API key) and trigger again", h.cfg.QueueTTL)})
}

// cancelQueued cancels a run of the account still waiting for an extension (POST
// /runs/{id}/cancel reaches it through the engine). Runs already dispatched are the engine's.
func (h *Hub) cancelQueued(account, id string) (scripts.Doc, bool) {
	h.mu.Lock()
	t, ok := h.tickets[id]
	if !ok || t.account != account || t.state != stateQueued {
		h.mu.Unlock()
		return scripts.Doc{}, false
	}
	h.unqueue(t)
	if t.timer != nil {
		t.timer.Stop()
	}
	t.state = stateEnded
	h.mu.Unlock()
	h.log.Info("extension run canceled while queued", "run", t.id, "account", t.account)
	h.end(t, scripts.StatusCanceled, &scripts.ErrorBody{Code: errs.Canceled, Message: "run canceled while it waited for an extension"})
	return t.final, true
}

// queued is what the store keeps of a waiting run so that a restart can resume it.
func (t *Ticket) queued() store.QueuedRun {
	q := store.QueuedRun{ID: t.id, Account: t.account, Goal: t.script.Goal, Nodes: t.script.Source, Data: t.script.Data,
		Background: t.background, Created: t.created, Expires: t.expires}
	if t.ref != nil {
		q.ScriptName, q.ScriptVersion = t.ref.Name, t.ref.Version
	}
	return q
}

// forget drops t's persisted queue entry: it started or ended.
func (h *Hub) forget(t *Ticket) {
	if err := h.cfg.Store.DeleteQueuedRun(t.id); err != nil {
		h.log.Error("forget queued extension run", "run", t.id, "err", err)
	}
}

// unqueue removes t from its account's queue (h.mu held).
func (h *Hub) unqueue(t *Ticket) {
	q := h.queue[t.account]
	for i, x := range q {
		if x == t {
			h.queue[t.account] = append(q[:i:i], q[i+1:]...)
			break
		}
	}
	if len(h.queue[t.account]) == 0 {
		delete(h.queue, t.account)
	}
}

// kick dispatches the account's queued runs to its least busy extensions.
func (h *Hub) kick(account string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for !h.closed && len(h.queue[account]) > 0 {
		var best *conn
		for _, c := range h.conns[account] {
			if c.welcomed && c.active < h.cfg.PerExtension && (best == nil || c.active < best.active) {
				best = c
			}
		}
		if best == nil {
			return
		}
		t := h.queue[account][0]
		h.unqueue(t)
		t.state = stateDispatching
		best.active++
		go h.dispatch(best, t)
	}
}

// finished is called when a run's session on c is released.
func (h *Hub) finished(c *conn) {
	h.mu.Lock()
	c.active--
	h.mu.Unlock()
	h.kick(c.account)
}

// dispatch opens the run's tab on c and starts the run there. A connection lost before the run
// started puts the run back at the head of the queue.
func (h *Hub) dispatch(c *conn, t *Ticket) {
	ctx, cancel := context.WithTimeout(h.base, openTimeout)
	defer cancel()
	opened, err := c.open(ctx, t.id, t.background)
	var s *session
	if err == nil {
		if s, err = newSession(c, t.id, opened, t.background); err != nil {
			_ = c.write(message{Type: "close", Tab: opened.Tab, Close: true})
		}
	}
	if err != nil {
		h.mu.Lock()
		c.active--
		requeue := errors.Is(err, errLost) && !h.closed && time.Now().Before(t.expires)
		if requeue {
			t.state = stateQueued
			h.queue[t.account] = append([]*Ticket{t}, h.queue[t.account]...)
		}
		h.mu.Unlock()
		if requeue {
			h.log.Info("extension lost before the run started: run queued again", "run", t.id)
			h.kick(t.account)
			return
		}
		t.timer.Stop()
		if errors.Is(err, errLost) {
			h.end(t, scripts.StatusExpired, &scripts.ErrorBody{Code: CodeNotConnected, Message: "the companion extension disconnected before the run started, and the run's queue time is over"})
		} else {
			h.end(t, scripts.StatusFailed, &scripts.ErrorBody{Code: CodeOpenFailed, Message: err.Error()})
		}
		h.kick(t.account)
		return
	}
	t.timer.Stop()
	run, err := h.cfg.Engine.Start(h.base, t.script, scripts.StartOptions{Account: t.account, Source: Source, Session: s, RunID: t.id, Script: t.ref})
	if err != nil {
		s.Release()
		code, msg := errs.Public(err)
		h.end(t, scripts.StatusFailed, &scripts.ErrorBody{Code: code, Message: msg})
		return
	}
	h.forget(t)
	h.mu.Lock()
	t.state = stateStarted
	t.run = run
	h.mu.Unlock()
	close(t.started)
	h.log.Info("extension run started", "run", t.id, "conn", c.id, "tab", s.tab)
}

// noteLost records why a run's tab was lost, for its final document.
func (h *Hub) noteLost(run, code, msg string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if t := h.tickets[run]; t != nil && t.lostCode == "" {
		t.lostCode, t.lostMsg = code, msg
	}
}

// observe gives a finished extension run that lost its tab or its extension the precise error
// (the runner reports any lost browser as browser_crashed) and stores it. The engine calls it
// before the run's waiters are released.
func (h *Hub) observe(d scripts.Doc) {
	h.mu.Lock()
	t := h.tickets[d.RunID]
	if t == nil || t.account == "" {
		h.mu.Unlock()
		return
	}
	delete(h.tickets, d.RunID)
	code, msg := t.lostCode, t.lostMsg
	h.mu.Unlock()
	if patchLost(&d, code, msg) {
		if err := h.persist(t, d); err != nil {
			h.log.Error("persist extension run", "run", t.id, "err", err)
		}
	}
}

// patchLost replaces browser_crashed errors by the extension's own reason; it reports whether
// anything changed.
func patchLost(d *scripts.Doc, code, msg string) bool {
	if code == "" {
		return false
	}
	changed := false
	if d.Error != nil && d.Error.Code == errs.BrowserCrashed {
		d.Error = &scripts.ErrorBody{Code: code, Message: msg}
		changed = true
	}
	for i := range d.Steps {
		if e := d.Steps[i].Error; e != nil && e.Code == errs.BrowserCrashed {
			d.Steps[i].Error = &scripts.ErrorBody{Code: code, Message: msg}
			changed = true
		}
	}
	return changed
}
