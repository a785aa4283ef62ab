package server

import (
	"context"
	"sync"

	"github.com/gofiber/fiber/v2"
	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/extension"
	"github.com/rodeo-run/rodeo/scripts"
)

// extensionHubs maps an engine to its companion-extension hub: the routes of a server built on
// that engine use it. (Config stays as it is; the hub is wired by AttachExtensionHub.)
var extensionHubs sync.Map // *scripts.Engine -> *extension.Hub

// AttachExtensionHub makes the servers of engine e serve GET /extension/connect and
// POST /triggers/extension with h. A nil h detaches.
func AttachExtensionHub(e *scripts.Engine, h *extension.Hub) {
	if h == nil {
		extensionHubs.Delete(e)
		return
	}
	extensionHubs.Store(e, h)
}

func init() {
	mounts = append(mounts, func(s *Server) {
		s.app.Get("/extension/connect", s.extensionConnect)
		s.app.Post("/triggers/extension", s.triggerExtension)
	})
}

func (s *Server) extensionHub() (*extension.Hub, error) {
	if h, ok := extensionHubs.Load(s.cfg.Engine); ok {
		return h.(*extension.Hub), nil
	}
	return nil, errs.E(errs.BrowserUnavailable, "this server has no companion-extension hub")
}

func (s *Server) extensionConnect(c *fiber.Ctx) error {
	h, err := s.extensionHub()
	if err != nil {
		return err
	}
	return h.Handler()(c)
}

// triggerExtension queues a saved script of the key's account for the account's companion
// extension, with the cloud trigger's rules (SavedScript: data becomes the variable `data`, a
// non-empty start is opened by a first "open tab" node, in a new tab of the user's browser; a
// blank start runs in the background): 202 {run_id, status: queued, status_url} at once, or
// with ?wait=true the run document once the run has finished or expired.
func (s *Server) triggerExtension(c *fiber.Ctx) error {
	tr, err := s.resolveTrigger(c)
	if err != nil {
		return err
	}
	h, err := s.extensionHub()
	if err != nil {
		return err
	}
	t, err := h.Enqueue(tr.account, tr.script, tr.ref, tr.start == "")
	if err != nil {
		return err
	}
	if c.Query("wait") == "true" {
		return c.JSON(h.Wait(context.Background(), t))
	}
	return c.Status(fiber.StatusAccepted).JSON(fiber.Map{"run_id": t.ID(), "status": scripts.StatusQueued, "status_url": "/runs/" + t.ID()})
}
