// Package server is rodeo's HTTP API (API.md) on Fiber: routes, authentication, body limits,
// one error handler that maps codes to statuses, run events as Server-Sent Events, and
// Prometheus metrics. It starts and reads runs through the scripts engine; it holds no state
// of its own beyond the metrics.
package server

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/recover"
	"github.com/gofiber/fiber/v2/middleware/requestid"
	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/store"
)

// PoolStats is what the server reads of the browser pool for /healthz and /metrics.
type PoolStats struct {
	Browsers int   `json:"browsers"`
	Capacity int   `json:"capacity"`
	InUse    int   `json:"in_use"`
	Idle     int   `json:"idle"`
	Waiting  int   `json:"waiting"`
	Leases   int64 `json:"leases"`
	Crashes  int64 `json:"crashes"`
	Recycles int64 `json:"recycles"`
}

// Config wires the server to the rest of rodeo.
type Config struct {
	Engine   *scripts.Engine
	Registry *scripts.Registry
	Store    *store.DB
	// Pool reports the browser pool; nil when the server has no browser.
	Pool func() PoolStats
	// BodyLimit caps request bodies in bytes. Optional. Default: 2 MiB.
	BodyLimit int
	Logger    *slog.Logger
	// Services are the runner's services (feature routes read the store, model, … from them).
	Services *scripts.Services
	// RateLimit caps requests per minute per API key (429 rate_limited beyond). Optional.
	// Default: 0, no limit.
	RateLimit int
	// Version is shown by /healthz.
	Version string
	// Cluster reports the NATS connection and the workers heard from for /healthz (scale-out,
	// docs/scale-out.md); nil without NATS.
	Cluster func() any
}

// mounts add the routes of feature files (saved scripts, triggers, sheets, outbox, …) from their
// init functions, so each feature keeps its handlers in its own file.
var mounts []func(*Server)

// Server is the HTTP API.
type Server struct {
	cfg     Config
	app     *fiber.App
	log     *slog.Logger
	metrics *metrics

	limiter     *limiter
	openAPIOnce sync.Once
	openAPIDoc  fiber.Map
}

// New builds the Fiber app with every route.
func New(cfg Config) *Server {
	if cfg.BodyLimit <= 0 {
		cfg.BodyLimit = 2 << 20
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Registry == nil {
		cfg.Registry = scripts.DefaultRegistry
	}
	s := &Server{cfg: cfg, log: cfg.Logger, limiter: newLimiter(cfg.RateLimit)}
	s.metrics = newMetrics(cfg.Pool, cfg.Engine)
	s.metrics.addStore(cfg.Store)
	s.app = fiber.New(fiber.Config{
		AppName:               "rodeo",
		BodyLimit:             cfg.BodyLimit,
		DisableStartupMessage: true,
		ErrorHandler:          s.errorHandler,
		ReadTimeout:           60 * time.Second,
		IdleTimeout:           120 * time.Second,
	})
	s.app.Use(requestid.New(requestid.Config{ContextKey: "requestid"}))
	s.app.Use(logRequests(s.log))
	s.app.Use(recover.New())

	s.app.Post("/agents", s.postAgents)
	s.app.Get("/runs", s.listRuns)
	s.app.Get("/runs/:id", s.getRun)
	s.app.Get("/runs/:id/events", s.runEvents)
	s.app.Post("/runs/:id/cancel", s.cancelRun)
	s.app.Get("/nodes", s.nodes)
	s.app.Get("/healthz", s.healthz)
	s.app.Get("/metrics", s.metrics.handler())
	s.app.Get("/openapi.json", s.openAPI)
	for _, mount := range mounts {
		mount(s)
	}
	s.app.Use(func(c *fiber.Ctx) error { return fiber.ErrNotFound })
	return s
}

// App exposes the Fiber app (tests drive it with app.Test).
func (s *Server) App() *fiber.App { return s.app }

// Listen serves on addr until Shutdown.
func (s *Server) Listen(addr string) error { return s.app.Listen(addr) }

// Shutdown stops accepting connections and waits for open requests until ctx ends.
func (s *Server) Shutdown(ctx context.Context) error { return s.app.ShutdownWithContext(ctx) }

// postAgents runs an agent: parse, authenticate, validate, admit, then wait for the document
// (or answer 202 at once with ?wait=false).
func (s *Server) postAgents(c *fiber.Ctx) error {
	req, err := scripts.DecodeRequest(c.Body())
	if err != nil {
		return err
	}
	key, err := s.authenticate(c, req.Key)
	if err != nil {
		return err
	}
	script, err := s.cfg.Registry.Compile(req.Goal, req.JSONOutput, req.Data)
	if req.Timeout < 0 {
		// Listed with the nodes' problems, if any: every problem is reported at once.
		bad := errs.Detail{Field: "timeout", Problem: "must be a positive number of seconds"}
		var e *errs.Error
		if errors.As(err, &e) && e.Code == errs.InvalidConfig {
			details := append([]errs.Detail{bad}, e.Details...)
			return &errs.Error{Code: errs.InvalidConfig, Details: details,
				Message: fmt.Sprintf("invalid agent configuration: %d problems (see details)", len(details))}
		}
		if err == nil {
			return &errs.Error{Code: errs.InvalidConfig, Message: "invalid agent configuration: timeout must be positive",
				Details: []errs.Detail{bad}}
		}
	}
	if err != nil {
		return err
	}
	script.Record = req.Record
	if req.Profile != "" {
		if err := store.ValidProfileName(req.Profile); err != nil {
			return err
		}
		script.Profile = req.Profile
	}
	if top, nested := scheduleNodes(script.Nodes); len(top) > 0 || nested {
		return s.postScheduledAgent(c, key.Account, req, script) // server/schedules.go
	}
	run, err := s.cfg.Engine.Start(c.UserContext(), script, scripts.StartOptions{
		Account: key.Account, Source: "api", Timeout: time.Duration(req.Timeout * float64(time.Second))})
	if err != nil {
		return err
	}
	if c.Query("wait") == "false" {
		return c.Status(fiber.StatusAccepted).JSON(fiber.Map{"run_id": run.ID(), "status": scripts.StatusQueued, "status_url": "/runs/" + run.ID()})
	}
	doc := s.cfg.Engine.Wait(context.Background(), run)
	return c.JSON(doc)
}

// runSummary is one line of GET /runs.
type runSummary struct {
	RunID      string             `json:"run_id"`
	Status     string             `json:"status"`
	Goal       string             `json:"goal"`
	Source     string             `json:"source,omitempty"`
	Script     *scripts.ScriptRef `json:"script,omitempty"`
	Created    time.Time          `json:"created"`
	Finished   *time.Time         `json:"finished,omitempty"`
	DurationMS int64              `json:"duration_ms"`
	Steps      int                `json:"steps"`
	Error      *scripts.ErrorBody `json:"error"`
}

func (s *Server) listRuns(c *fiber.Ctx) error {
	account, err := s.account(c)
	if err != nil {
		return err
	}
	if f, ok, err := parseRunFilter(c); err != nil || ok { // server/runs_filter.go
		if err != nil {
			return err
		}
		return s.listRunsFiltered(c, account, f)
	}
	limit, _ := strconv.Atoi(c.Query("limit"))
	recs, err := s.cfg.Store.ListRuns(account, limit, c.Query("before"))
	if err != nil {
		return err
	}
	out := make([]runSummary, 0, len(recs))
	for _, rec := range recs {
		var d scripts.Doc
		if err := json.Unmarshal(rec.Doc, &d); err != nil {
			return fmt.Errorf("run %s: %w", rec.ID, err)
		}
		if live, ok := s.cfg.Engine.Active(account, rec.ID); ok {
			d = live.Doc()
		}
		out = append(out, summaryOf(d))
	}
	resp := fiber.Map{"runs": out}
	if len(recs) > 0 && (limit <= 0 && len(recs) == store.DefaultRunLimit || limit > 0 && len(recs) == min(limit, store.MaxRunLimit)) {
		resp["next"] = "/runs?before=" + recs[len(recs)-1].ID
	}
	return c.JSON(resp)
}

func (s *Server) getRun(c *fiber.Ctx) error {
	account, err := s.account(c)
	if err != nil {
		return err
	}
	doc, err := s.cfg.Engine.Get(account, c.Params("id"))
	if err != nil {
		return err
	}
	return c.JSON(doc)
}

func (s *Server) cancelRun(c *fiber.Ctx) error {
	account, err := s.account(c)
	if err != nil {
		return err
	}
	doc, err := s.cfg.Engine.Cancel(account, c.Params("id"))
	if err != nil {
		return err
	}
	return c.JSON(doc)
}

// runEvents streams a run's events as Server-Sent Events: every step so far, the live ones,
// then "done" with the final document. A finished run replays its steps from the store.
func (s *Server) runEvents(c *fiber.Ctx) error {
	account, err := s.account(c)
	if err != nil {
		return err
	}
	id := c.Params("id")
	var past []scripts.Event
	var live <-chan scripts.Event
	unsubscribe := func() {}
	if r, ok := s.cfg.Engine.Active(account, id); ok {
		past, live, unsubscribe = r.Subscribe()
	} else {
		doc, err := s.cfg.Engine.Get(account, id)
		if err != nil {
			return err
		}
		for i := range doc.Steps {
			past = append(past, scripts.Event{Type: "step", RunID: id, Step: &doc.Steps[i]})
		}
		past = append(past, scripts.Event{Type: "done", RunID: id, Doc: &doc})
	}
	c.Set(fiber.HeaderContentType, "text/event-stream")
	c.Set(fiber.HeaderCacheControl, "no-cache")
	c.Set(fiber.HeaderConnection, "keep-alive")
	c.Set("X-Accel-Buffering", "no")
	c.Context().SetBodyStreamWriter(func(w *bufio.Writer) {
		defer unsubscribe()
		write := func(ev scripts.Event) bool {
			data, _ := json.Marshal(ev)
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev.Type, data)
			return w.Flush() == nil
		}
		for _, ev := range past {
			if !write(ev) {
				return
			}
		}
		if live == nil {
			return
		}
		keepalive := time.NewTicker(15 * time.Second)
		defer keepalive.Stop()
		for {
			select {
			case ev, ok := <-live:
				if !ok || !write(ev) {
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

func (s *Server) nodes(c *fiber.Ctx) error {
	return c.JSON(fiber.Map{"nodes": s.cfg.Registry.All()})
}

func (s *Server) healthz(c *fiber.Ctx) error {
	body := fiber.Map{"status": "ok", "version": s.cfg.Version, "runs_active": s.cfg.Engine.Running()}
	if s.cfg.Pool != nil {
		body["pool"] = s.cfg.Pool()
	}
	if s.cfg.Cluster != nil {
		body["cluster"] = s.cfg.Cluster()
	}
	return c.JSON(body)
}
