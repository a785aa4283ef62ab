package extension

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/proto"
	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
)

// Error codes of extension runs (the run document's error.code).
const (
	// CodeDisconnected: the extension's connection dropped while the run was using its tab.
	CodeDisconnected = "extension_disconnected"
	// CodeTabClosed: the run's tab was closed, or its debugging canceled, in the browser.
	CodeTabClosed = "extension_tab_closed"
	// CodeOpenFailed: the extension could not open or attach to the run's tab.
	CodeOpenFailed = "extension_open_failed"
	// CodeNotConnected: a queued run expired with no extension of the account connected.
	CodeNotConnected = "extension_not_connected"
)

// session is a run's tab in a connected extension: a scripts.BrowserSession whose *rod.Page is a
// real rod page speaking the DevTools protocol through the extension's chrome.debugger relay
// (the session is also that rod browser's CDP client). Every browser node runs on it unchanged.
type session struct {
	conn       *conn
	run        string
	tab        int
	target     string
	id         string // the DevTools session id rod uses for the page (local to this relay)
	background bool   // opened blank in the background: Release closes the tab

	browser *rod.Browser
	page    *rod.Page

	mu       sync.Mutex
	queue    []*cdp.Event
	ending   bool // no more events: the pump delivers the queue, then closes events
	lostCode string
	lostMsg  string
	released bool

	wake   chan struct{}
	events chan *cdp.Event
	done   chan struct{} // closed when the tab or the connection is lost
}

// newSession builds the rod browser and page over the relay for a tab the extension opened.
func newSession(c *conn, run string, opened message, background bool) (*session, error) {
	s := &session{conn: c, run: run, tab: opened.Tab, target: opened.Target, id: "ext-" + run, background: background,
		wake: make(chan struct{}, 1), events: make(chan *cdp.Event), done: make(chan struct{})}
	if s.target == "" {
		return nil, fmt.Errorf("the extension did not report the tab's target id")
	}
	if !c.addTab(s) {
		return nil, errLost
	}
	go s.pump()
	b := rod.New().Client(relay{s}).NoDefaultDevice()
	if err := b.Connect(); err != nil {
		s.end()
		return nil, err
	}
	p, err := b.PageFromTarget(proto.TargetTargetID(s.target))
	if err != nil {
		s.end()
		return nil, fmt.Errorf("attach to the run's tab: %w", err)
	}
	s.browser, s.page = b, p
	return s, nil
}

// Page is the run's tab.
func (s *session) Page() *rod.Page { return s.page }

// Browser is the rod browser of the relay; it knows only the run's tab.
func (s *session) Browser() *rod.Browser { return s.browser }

// NewPage answers "open tab" after the first: the run stays in its one tab, which navigates.
func (s *session) NewPage(ctx context.Context) (*rod.Page, error) { return s.page.Context(ctx), nil }

// Crashed reports whether the tab or the connection was lost.
func (s *session) Crashed() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// Done is closed when the tab or the connection is lost; the runner stops the run at once.
func (s *session) Done() <-chan struct{} { return s.done }

// CrashError is the error a run that lost this session should end with: the extension's own
// reason (extension_disconnected, extension_tab_closed), not browser_crashed. (The runner does not
// ask for it yet; until it does, the hub corrects the finished run's document.)
func (s *session) CrashError() error {
	code, msg := s.lost()
	if code == "" {
		return nil
	}
	return errs.E(code, "%s", msg)
}

// lost reports why the session was lost ("" when it was not).
func (s *session) lost() (code, msg string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lostCode, s.lostMsg
}

// Release detaches the debugger from the tab and closes it when the run opened it in the
// background; a tab opened at the trigger's start URL stays open for the user.
func (s *session) Release() {
	s.mu.Lock()
	if s.released {
		s.mu.Unlock()
		return
	}
	s.released = true
	wasLost := s.lostCode != ""
	s.mu.Unlock()
	if !wasLost {
		_ = s.conn.write(message{Type: "close", Tab: s.tab, Close: s.background})
	}
	s.end()
	s.conn.hub.finished(s.conn)
}

// lose marks the session lost (the extension's connection or the tab went away).
func (s *session) lose(code, msg string) {
	s.mu.Lock()
	if s.lostCode != "" {
		s.mu.Unlock()
		return
	}
	s.lostCode, s.lostMsg = code, msg
	s.mu.Unlock()
	s.conn.hub.noteLost(s.run, code, msg)
	close(s.done)
	s.end()
}

// end stops the event stream: rod sees the target detach, then the stream closes.
func (s *session) end() {
	s.conn.removeTab(s)
	s.mu.Lock()
	if s.ending {
		s.mu.Unlock()
		return
	}
	params, _ := json.Marshal(map[string]string{"sessionId": s.id, "targetId": s.target})
	s.queue = append(s.queue, &cdp.Event{Method: "Target.detachedFromTarget", Params: params})
	s.ending = true
	s.mu.Unlock()
	s.signal()
}

func (s *session) push(ev *cdp.Event) {
	s.mu.Lock()
	if s.ending {
		s.mu.Unlock()
		return
	}
	s.queue = append(s.queue, ev)
	s.mu.Unlock()
	s.signal()
}

func (s *session) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// pump hands queued events to rod in order without ever blocking the connection's reader.
func (s *session) pump() {
	defer close(s.events)
	for {
		s.mu.Lock()
		q, ending := s.queue, s.ending
		s.queue = nil
		s.mu.Unlock()
		for _, ev := range q {
			select {
			case s.events <- ev:
			case <-time.After(10 * time.Second): // rod stopped reading: nothing left to serve
				return
			}
		}
		if ending && len(q) == 0 {
			return
		}
		if !ending {
			<-s.wake
		}
	}
}

// relay is the rod.CDPClient of a session: page commands go to the extension, the few
// browser-level Target.* commands rod makes for a page are answered here.
type relay struct{ s *session }

func (r relay) Event() <-chan *cdp.Event { return r.s.events }

func (r relay) Call(ctx context.Context, sessionID, method string, params any) ([]byte, error) {
	s := r.s
	switch method {
	case "Target.setDiscoverTargets", "Target.setAutoAttach", "Target.detachFromTarget":
		return []byte("{}"), nil
	case "Target.attachToTarget":
		return json.Marshal(map[string]string{"sessionId": s.id})
	case "Target.getTargetInfo", "Target.activateTarget", "Target.closeTarget":
		// answered by the extension with the tabs API, for the run's tab only
	default:
		if sessionID != s.id || strings.HasPrefix(method, "Target.") || strings.HasPrefix(method, "Browser.") {
			return nil, &cdp.Error{Code: -32601, Message: method + " is not available through the companion extension"}
		}
	}
	if s.Crashed() {
		_, msg := s.lost()
		return nil, fmt.Errorf("%s: %s", method, msg)
	}
	start := time.Now()
	res, err := s.conn.call(ctx, s.tab, method, params)
	// Only the method is logged: params carry typed text and page data.
	s.conn.hub.log.Debug("relayed", "run", s.run, "method", method, "ms", time.Since(start).Milliseconds(), "failed", err != nil)
	return res, err
}

var (
	_ scripts.BrowserSession = (*session)(nil)
	_ rod.CDPClient          = relay{}
)
