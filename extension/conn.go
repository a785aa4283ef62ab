package extension

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/fasthttp/websocket"
	"github.com/go-rod/rod/lib/cdp"
)

// Timeouts of a connection.
const (
	// helloTimeout is how long a new connection may take to authenticate.
	helloTimeout = 10 * time.Second
	// idleTimeout drops a connection that sent nothing for this long (the extension pings every 20 s).
	idleTimeout = 75 * time.Second
	// writeTimeout bounds one frame's write.
	writeTimeout = 10 * time.Second
	// openTimeout bounds opening a run's tab.
	openTimeout = 20 * time.Second
	// maxFrame is the largest frame read (a page snapshot or a screenshot crosses as one result).
	maxFrame = 64 << 20
)

// wsConn is the part of a WebSocket connection a conn uses (gofiber/contrib/websocket's Conn).
type wsConn interface {
	ReadMessage() (int, []byte, error)
	WriteMessage(int, []byte) error
	SetReadDeadline(time.Time) error
	SetWriteDeadline(time.Time) error
	SetReadLimit(int64)
	WriteControl(messageType int, data []byte, deadline time.Time) error
}

// errLost is the error of a call on a connection that is gone.
var errLost = errors.New("the companion extension disconnected")

// conn is one connected, authenticated extension.
type conn struct {
	hub       *Hub
	id        string
	account   string
	version   string
	connected time.Time
	ws        wsConn

	wmu    sync.Mutex // one writer at a time
	wsGone bool       // set under wmu once the handler returned: the socket is recycled by then

	mu       sync.Mutex
	nextID   int64
	calls    map[int64]chan message
	opens    map[string]chan message // by run id
	tabs     map[int]*session
	active   int  // runs dispatched to it, opening or running (guarded by Hub.mu)
	welcomed bool // the welcome frame went out; runs may be dispatched (guarded by Hub.mu)
	closed   bool
	reason   string

	done chan struct{}
}

func newConn(h *Hub, id, account, version string, ws wsConn) *conn {
	return &conn{hub: h, id: id, account: account, version: version, connected: time.Now(), ws: ws,
		calls: map[int64]chan message{}, opens: map[string]chan message{}, tabs: map[int]*session{}, done: make(chan struct{})}
}

// write sends one frame.
func (c *conn) write(m message) error {
	data, err := json.Marshal(m)
	if err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.wsGone {
		return errLost
	}
	_ = c.ws.SetWriteDeadline(time.Now().Add(writeTimeout))
	return c.ws.WriteMessage(websocket.TextMessage, data)
}

// call sends one DevTools command for a tab and waits for its answer.
func (c *conn) call(ctx context.Context, tab int, method string, params any) ([]byte, error) {
	var raw json.RawMessage
	if params != nil {
		var err error
		if raw, err = json.Marshal(params); err != nil {
			return nil, err
		}
	}
	ch := make(chan message, 1)
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, errLost
	}
	c.nextID++
	id := c.nextID
	c.calls[id] = ch
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.calls, id)
		c.mu.Unlock()
	}()
	if err := c.write(message{Type: "cdp", ID: id, Tab: tab, Method: method, Params: raw}); err != nil {
		return nil, fmt.Errorf("%w: %v", errLost, err)
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			return nil, &cdp.Error{Code: m.Error.Code, Message: m.Error.Message, Data: m.Error.dataString()}
		}
		if len(m.Result) == 0 {
			return []byte("{}"), nil
		}
		return m.Result, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.done:
		return nil, errLost
	}
}

// open asks the extension to open the run's blank tab (in an unfocused window for a background
// run) and attach to it.
func (c *conn) open(ctx context.Context, run string, background bool) (message, error) {
	ch := make(chan message, 1)
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return message{}, errLost
	}
	c.opens[run] = ch
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.opens, run)
		c.mu.Unlock()
	}()
	if err := c.write(message{Type: "open", Run: run, Background: background}); err != nil {
		return message{}, fmt.Errorf("%w: %v", errLost, err)
	}
	select {
	case m := <-ch:
		if m.Type == "open_failed" {
			return m, fmt.Errorf("the extension could not open the run's tab: %s", m.Message)
		}
		return m, nil
	case <-ctx.Done():
		return message{}, fmt.Errorf("the extension did not open the run's tab in time: %w", ctx.Err())
	case <-c.done:
		return message{}, errLost
	}
}

// serve reads frames until the connection ends.
func (c *conn) serve() error {
	for {
		_ = c.ws.SetReadDeadline(time.Now().Add(idleTimeout))
		_, data, err := c.ws.ReadMessage()
		if err != nil {
			return err
		}
		var m message
		if err := json.Unmarshal(data, &m); err != nil {
			c.hub.log.Warn("extension sent a malformed frame", "conn", c.id, "err", err)
			continue
		}
		c.handle(m)
	}
}

func (c *conn) handle(m message) {
	switch m.Type {
	case "ping":
		_ = c.write(message{Type: "pong"})
	case "result":
		c.mu.Lock()
		ch := c.calls[m.ID]
		c.mu.Unlock()
		if ch != nil {
			select {
			case ch <- m:
			default:
			}
		}
	case "event":
		c.mu.Lock()
		s := c.tabs[m.Tab]
		c.mu.Unlock()
		if s != nil {
			s.push(&cdp.Event{SessionID: s.id, Method: m.Method, Params: m.Params})
		}
	case "detached":
		c.mu.Lock()
		s := c.tabs[m.Tab]
		c.mu.Unlock()
		if s != nil {
			s.lose(CodeTabClosed, fmt.Sprintf("the run's tab was closed or its debugging was canceled in the browser (%s)", m.Reason))
		}
	case "opened", "open_failed":
		c.mu.Lock()
		ch := c.opens[m.Run]
		c.mu.Unlock()
		if ch != nil {
			select {
			case ch <- m:
			default:
			}
		}
	}
}

// addTab registers a run's tab session (its events and detach notices route to it).
func (c *conn) addTab(s *session) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return false
	}
	c.tabs[s.tab] = s
	return true
}

func (c *conn) removeTab(s *session) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tabs[s.tab] == s {
		delete(c.tabs, s.tab)
	}
}

// shutdown ends the connection: pending calls fail, every run on it loses its browser.
func (c *conn) shutdown(reason string) {
	c.hub.remove(c) // no new run goes to it
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	c.reason = reason
	tabs := make([]*session, 0, len(c.tabs))
	for _, s := range c.tabs {
		tabs = append(tabs, s)
	}
	c.mu.Unlock()
	close(c.done)
	for _, s := range tabs {
		s.lose(CodeDisconnected, "the companion extension disconnected during the run ("+reason+")")
	}
	// Closing a hijacked fasthttp connection is left to its handler: say goodbye, then wake the
	// handler's read so that it returns.
	c.wmu.Lock()
	if !c.wsGone {
		_ = c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseGoingAway, truncate(reason, 120)), time.Now().Add(time.Second))
		_ = c.ws.SetReadDeadline(time.Now())
	}
	c.wmu.Unlock()
}

// detach waits for writes in flight and stops all later ones: the WebSocket library recycles the
// connection once its handler returns.
func (c *conn) detach() {
	c.wmu.Lock()
	c.wsGone = true
	c.wmu.Unlock()
}

// truncate cuts s to n bytes at most (a close frame's reason must stay under 123 bytes).
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
