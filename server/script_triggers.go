package server

import (
	"github.com/gofiber/fiber/v2"
)

// GET /scripts/{name}/triggers lists what can start a saved script: its schedules, and the
// other trigger kinds that register here. The webhooks (POST /triggers/cloud, /triggers/extension)
// take any script by name and are not listed.

// scriptTriggerKind is one kind of trigger that names saved scripts. List returns the account's
// triggers of the script (their API views); each kind adds itself from its file's init.
type scriptTriggerKind struct {
	Kind string
	List func(s *Server, account, name string) ([]any, error)
}

var scriptTriggerKinds []scriptTriggerKind

func init() {
	mounts = append(mounts, func(s *Server) {
		s.app.Get("/scripts/:name/triggers", s.scriptTriggers)
	})
	operations = append(operations, operation{"GET", "/scripts/{name}/triggers", "What can start a saved script: its schedules (and the other trigger kinds that name it)", true, "", 200, "", []int{401, 404}})
}

// scriptTriggers answers {"name", "triggers": [{"kind", …the trigger's view}]}; each trigger's
// view is nested under "trigger".
func (s *Server) scriptTriggers(c *fiber.Ctx) error {
	account, err := s.account(c)
	if err != nil {
		return err
	}
	name, err := scriptName(c)
	if err != nil {
		return err
	}
	out := []fiber.Map{}
	for _, k := range scriptTriggerKinds {
		list, err := k.List(s, account, name)
		if err != nil {
			return err
		}
		for _, t := range list {
			out = append(out, fiber.Map{"kind": k.Kind, "trigger": t})
		}
	}
	if len(out) == 0 {
		// A deleted script's triggers are still listed; a name that has neither is not found.
		if _, err := s.cfg.Store.GetScript(account, name, 0); err != nil {
			return err
		}
	}
	return c.JSON(fiber.Map{"name": name, "triggers": out})
}
