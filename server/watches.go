package server

import (
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/rodeo-run/rodeo/store"
	"github.com/rodeo-run/rodeo/triggers"
)

// Screen-state watches: POST /watches {key, name, url, condition, every?, cooldown?} checks url
// every `every` seconds and runs the saved script name when the English condition turns true;
// GET /watches lists the account's, GET /watches/{id} shows one with its last checks, DELETE
// removes one, POST /watches/{id}/pause and /resume stop and restart its checks.

func init() {
	mounts = append(mounts, func(s *Server) {
		s.app.Post("/watches", s.createWatch)
		s.app.Get("/watches", s.listWatches)
		s.app.Get("/watches/:id", s.getWatch)
		s.app.Delete("/watches/:id", s.deleteWatch)
		s.app.Post("/watches/:id/pause", s.pauseWatch(true))
		s.app.Post("/watches/:id/resume", s.pauseWatch(false))
	})
}

// defaultWatchEvery is the interval of a watch created without one, in seconds.
const defaultWatchEvery = 60

type watchBody struct {
	ID        string              `json:"id"`
	Name      string              `json:"name"`
	URL       string              `json:"url"`
	Condition string              `json:"condition"`
	Reads     *triggers.Condition `json:"reads,omitempty"`
	Every     float64             `json:"every"`
	Cooldown  float64             `json:"cooldown"`
	Paused    bool                `json:"paused"`
	Created   time.Time           `json:"created"`
	// LastResult is the condition's last known truth; Fires counts the runs it started.
	LastResult bool                `json:"last_result"`
	LastFired  *time.Time          `json:"last_fired,omitempty"`
	Fires      int                 `json:"fires"`
	Failures   int                 `json:"failures"`
	NextCheck  *time.Time          `json:"next_check,omitempty"`
	Checks     *[]store.WatchCheck `json:"checks,omitempty"`
	LastCheck  *store.WatchCheck   `json:"last_check,omitempty"`
}

// watchView renders w; full shows every kept check, otherwise only the last one.
func watchView(w store.Watch, full bool) watchBody {
	b := watchBody{ID: w.ID, Name: w.Script, URL: w.URL, Condition: w.Condition, Every: w.Every, Cooldown: w.Cooldown,
		Paused: w.Paused, Created: w.Created, LastResult: w.LastResult, LastFired: w.LastFired, Fires: w.Fires, Failures: w.Failures}
	if c, err := triggers.ParseCondition(w.Condition); err == nil {
		b.Reads = &c
	}
	if !w.Paused {
		next := w.NextCheck
		b.NextCheck = &next
	}
	if full {
		checks := append([]store.WatchCheck{}, w.Checks...)
		b.Checks = &checks
	} else if n := len(w.Checks); n > 0 {
		b.LastCheck = &w.Checks[n-1]
	}
	return b
}

func (s *Server) createWatch(c *fiber.Ctx) error {
	var req struct {
		Key       string   `json:"key"`
		Name      string   `json:"name"`
		URL       string   `json:"url"`
		Condition string   `json:"condition"`
		Every     *float64 `json:"every"`
		Cooldown  float64  `json:"cooldown"`
	}
	if err := decodeBody(c, &req, "{key, name, url, condition, every, cooldown}"); err != nil {
		return err
	}
	key, err := s.authenticate(c, req.Key)
	if err != nil {
		return err
	}
	in, err := s.inbound()
	if err != nil {
		return err
	}
	every := float64(defaultWatchEvery)
	if req.Every != nil {
		every = *req.Every
	}
	w, err := in.CreateWatch(key.Account, triggers.WatchSpec{Script: req.Name, URL: req.URL, Condition: req.Condition,
		Every: every, Cooldown: req.Cooldown})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(watchView(w, true))
}

func (s *Server) listWatches(c *fiber.Ctx) error {
	account, err := s.account(c)
	if err != nil {
		return err
	}
	list, err := s.cfg.Store.ListWatches(account, "")
	if err != nil {
		return err
	}
	out := make([]watchBody, 0, len(list))
	for _, w := range list {
		out = append(out, watchView(w, false))
	}
	return c.JSON(fiber.Map{"watches": out})
}

func (s *Server) getWatch(c *fiber.Ctx) error {
	account, err := s.account(c)
	if err != nil {
		return err
	}
	w, err := s.cfg.Store.GetWatch(account, c.Params("id"))
	if err != nil {
		return err
	}
	return c.JSON(watchView(w, true))
}

func (s *Server) deleteWatch(c *fiber.Ctx) error {
	account, err := s.account(c)
	if err != nil {
		return err
	}
	in, err := s.inbound()
	if err != nil {
		return err
	}
	if err := in.DeleteWatch(account, c.Params("id")); err != nil {
		return err
	}
	return c.JSON(fiber.Map{"id": c.Params("id"), "deleted": true})
}

func (s *Server) pauseWatch(paused bool) fiber.Handler {
	return func(c *fiber.Ctx) error {
		account, err := s.account(c)
		if err != nil {
			return err
		}
		in, err := s.inbound()
		if err != nil {
			return err
		}
		w, err := in.PauseWatch(account, c.Params("id"), paused)
		if err != nil {
			return err
		}
		return c.JSON(watchView(w, false))
	}
}
