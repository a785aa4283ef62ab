package server

import (
	"github.com/gofiber/fiber/v2"
)

// GET /scripts/{name}/triggers lists what can start a saved script besides the API and the
// webhooks (which can start any script): its schedules, email addresses, phone webhooks and
// watches. Each kind contributes a lister from its own file's init (scriptTriggerListers), so
// the kinds stay in their features' files; the list is in the order the listers were added.

// ScriptTrigger is one thing that starts a script: its kind ("schedule", "email", "phone",
// "watch"), its id, and the fields that say how it fires (an address, URLs, a URL and a
// condition, …).
type ScriptTrigger map[string]any

// scriptTriggerListers list the account's triggers of one kind that run the script name.
var scriptTriggerListers []func(s *Server, account, name string) ([]ScriptTrigger, error)

func init() {
	mounts = append(mounts, func(s *Server) {
		s.app.Get("/scripts/:name/triggers", s.scriptTriggers)
	})
}

func (s *Server) scriptTriggers(c *fiber.Ctx) error {
	account, err := s.account(c)
	if err != nil {
		return err
	}
	name, err := scriptName(c)
	if err != nil {
		return err
	}
	if _, err := s.cfg.Store.GetScript(account, name, 0); err != nil {
		return err
	}
	out := []ScriptTrigger{}
	for _, list := range scriptTriggerListers {
		ts, err := list(s, account, name)
		if err != nil {
			return err
		}
		out = append(out, ts...)
	}
	return c.JSON(fiber.Map{"name": name, "triggers": out})
}
