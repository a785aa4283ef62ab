package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/rodeo-run/rodeo/browser"
	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
)

// GET /runs/{id}/live streams what a running run's browser tab shows, as Server-Sent Events of
// JPEG frames from Chrome's screencast (docs/studio.md, "Live view"). Every viewer of a run
// shares one screencast, started by the first and stopped when the last leaves or the run ends.

// Bounds of the live view: frames fit 1280×800 at JPEG quality 60, at most 4 a second, and a run
// has at most maxLiveViewers viewers at once.
var liveOptions = browser.ScreencastOptions{MaxWidth: 1280, MaxHeight: 800, Quality: 60, MinInterval: 250 * time.Millisecond}

const (
	maxLiveViewers = 8
	// liveKeepalive is how often an idle stream writes a comment: a viewer that left is noticed
	// (and its share of the screencast given up) within two of these: the first write after it
	// left usually still succeeds.
	liveKeepalive = 2 * time.Second
)

// liveEvent is one event of the stream: "frame" (a picture), "waiting" (the run has no tab yet,
// or none any more) or "end" (the run finished; the stream closes).
type liveEvent struct {
	Type   string    `json:"-"`
	JPEG   []byte    `json:"jpeg,omitempty"` // base64 in JSON
	Width  int       `json:"width,omitempty"`
	Height int       `json:"height,omitempty"`
	At     time.Time `json:"at,omitzero"`
	Status string    `json:"status,omitempty"` // "end": the run's final status
	Reason string    `json:"reason,omitempty"` // "waiting": why there is nothing to show
}

// liveHub keeps one cast per watched run.
type liveHub struct {
	mu    sync.Mutex
	casts map[string]*liveCast
	log   *slog.Logger
}

// liveCast is one run's screencast and its viewers. Each viewer's channel holds the newest
// event only: a slow viewer skips frames instead of slowing the others or the run.
type liveCast struct {
	viewers map[chan liveEvent]struct{}
	last    *liveEvent // the newest frame, for a viewer who joins a still page
	stop    context.CancelFunc
}

func init() {
	mounts = append(mounts, func(s *Server) {
		hub := &liveHub{casts: map[string]*liveCast{}, log: s.log}
		s.app.Get("/runs/:id/live", func(c *fiber.Ctx) error { return s.runLive(c, hub) })
	})
	operations = append(operations, operation{"GET", "/runs/{id}/live",
		"Server-Sent Events of a running run's browser tab: frame (a JPEG, base64), waiting, end", true, "", 200, "", []int{401, 404, 503}})
}

func (s *Server) runLive(c *fiber.Ctx, hub *liveHub) error {
	account, err := s.account(c)
	if err != nil {
		return err
	}
	id := c.Params("id")
	var events <-chan liveEvent
	leave := func() {}
	if r, ok := s.cfg.Engine.Active(account, id); ok {
		if events, leave, err = hub.join(r); err != nil {
			return err
		}
	} else {
		doc, err := s.cfg.Engine.Get(account, id)
		if err != nil {
			return err
		}
		// Finished: say so. Unfinished but not on this server's engine (queued for the companion
		// extension, or on another worker): nothing here can be watched; the stream closes.
		once := make(chan liveEvent, 1)
		if doc.Status == scripts.StatusQueued || doc.Status == scripts.StatusRunning {
			once <- liveEvent{Type: "waiting", Reason: "the run is not in this server's browsers"}
		} else {
			once <- liveEvent{Type: "end", Status: doc.Status}
		}
		close(once)
		events = once
	}
	c.Set(fiber.HeaderContentType, "text/event-stream")
	c.Set(fiber.HeaderCacheControl, "no-cache")
	c.Set("X-Accel-Buffering", "no")
	c.Context().SetBodyStreamWriter(func(w *bufio.Writer) {
		defer leave()
		// Answer at once: a client sees the stream open before the first frame is ready.
		if _, err := w.WriteString(": live\n\n"); err != nil || w.Flush() != nil {
			return
		}
		keepalive := time.NewTicker(liveKeepalive)
		defer keepalive.Stop()
		for {
			select {
			case ev, ok := <-events:
				if !ok {
					return
				}
				data, _ := json.Marshal(ev)
				fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev.Type, data)
				if w.Flush() != nil || ev.Type == "end" {
					return
				}
			case <-keepalive.C:
				if _, err := w.WriteString(": keepalive\n\n"); err != nil || w.Flush() != nil {
					return
				}
			}
		}
	})
	return nil
}

// join adds a viewer of r, starting r's cast if it is the first; leave must be called once.
func (h *liveHub) join(r *scripts.Run) (<-chan liveEvent, func(), error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	cast := h.casts[r.ID()]
	if cast == nil {
		ctx, stop := context.WithCancel(context.Background())
		cast = &liveCast{viewers: map[chan liveEvent]struct{}{}, stop: stop}
		h.casts[r.ID()] = cast
		go h.follow(ctx, r, cast)
	}
	if len(cast.viewers) >= maxLiveViewers {
		return nil, nil, errs.E(errs.Busy, "this run already has %d live viewers", maxLiveViewers)
	}
	ch := make(chan liveEvent, 1)
	cast.viewers[ch] = struct{}{}
	if cast.last != nil {
		ch <- *cast.last
	}
	var once sync.Once
	return ch, func() { once.Do(func() { h.leave(r.ID(), cast, ch) }) }, nil
}

func (h *liveHub) leave(id string, cast *liveCast, ch chan liveEvent) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(cast.viewers, ch)
	if len(cast.viewers) == 0 && h.casts[id] == cast {
		delete(h.casts, id)
		cast.stop()
	}
}

// send gives ev to every viewer of cast, replacing an event a viewer has not read yet.
func (h *liveHub) send(cast *liveCast, ev liveEvent) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if ev.Type == "frame" {
		cast.last = &ev
	}
	for ch := range cast.viewers {
		select {
		case <-ch:
		default:
		}
		ch <- ev
	}
}

// follow screencasts r's current tab, moving to each new tab the run opens, until ctx ends (the
// last viewer left) or the run finishes.
func (h *liveHub) follow(ctx context.Context, r *scripts.Run, cast *liveCast) {
	var retry <-chan time.Time // set after a failed start: nil blocks in the select below
	for {
		page, moved := r.Page()
		select {
		case <-r.Done():
			h.end(r, cast)
			return
		default:
		}
		if page == nil {
			h.send(cast, liveEvent{Type: "waiting", Reason: "the run has no browser tab open"})
		} else {
			pageCtx, cancel := context.WithCancel(ctx)
			go func() {
				select {
				case <-moved:
				case <-r.Done():
				case <-pageCtx.Done():
				}
				cancel()
			}()
			err := browser.Screencast(pageCtx, page, liveOptions, func(f browser.Frame) {
				h.send(cast, liveEvent{Type: "frame", JPEG: f.JPEG, Width: f.Width, Height: f.Height, At: f.At})
			})
			cancel()
			if err != nil && ctx.Err() == nil {
				// The tab may be between pages or busy; try again shortly unless it moved.
				h.log.Warn("live view: screencast failed", "run", r.ID(), "err", err)
				h.send(cast, liveEvent{Type: "waiting", Reason: "the run's tab is not ready to be watched"})
				retry = time.After(time.Second)
			}
		}
		select {
		case <-retry:
			retry = nil
		case <-moved:
		case <-r.Done():
			h.end(r, cast)
			return
		case <-ctx.Done():
			return
		}
	}
}

// end tells cast's viewers that r finished and retires the cast, so a viewer arriving later
// starts a new one that ends at once.
func (h *liveHub) end(r *scripts.Run, cast *liveCast) {
	h.send(cast, liveEvent{Type: "end", Status: r.Doc().Status})
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.casts[r.ID()] == cast {
		delete(h.casts, r.ID())
	}
	cast.stop()
}
