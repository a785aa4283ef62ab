package server

import (
	"github.com/gofiber/fiber/v2"
	"github.com/rodeo-run/rodeo/store"
	"github.com/rodeo-run/rodeo/triggers"
)

// inboundRoutes mounts GET list, GET one (with its last deliveries) and DELETE of one kind of
// inbound trigger under path; view renders a record as the API shows it. Email addresses and
// phone webhooks differ only in their views and how they are created.
func inboundRoutes[B any](s *Server, path, kind string, view func(store.InboundTrigger, bool) (B, error)) {
	s.app.Get(path, func(c *fiber.Ctx) error {
		account, err := s.account(c)
		if err != nil {
			return err
		}
		list, err := s.cfg.Store.ListInboundTriggers(account, kind, "")
		if err != nil {
			return err
		}
		out := make([]B, 0, len(list))
		for _, t := range list {
			b, err := view(t, false)
			if err != nil {
				return err
			}
			out = append(out, b)
		}
		return c.JSON(fiber.Map{"triggers": out})
	})
	s.app.Get(path+"/:id", func(c *fiber.Ctx) error {
		account, err := s.account(c)
		if err != nil {
			return err
		}
		t, err := s.cfg.Store.GetInboundTrigger(account, kind, c.Params("id"))
		if err != nil {
			return err
		}
		b, err := view(t, true)
		if err != nil {
			return err
		}
		return c.JSON(b)
	})
	s.app.Delete(path+"/:id", func(c *fiber.Ctx) error {
		account, err := s.account(c)
		if err != nil {
			return err
		}
		if err := s.cfg.Store.DeleteInboundTrigger(account, kind, c.Params("id")); err != nil {
			return err
		}
		return c.JSON(fiber.Map{"id": c.Params("id"), "deleted": true})
	})
}

// createInbound is the POST handler of one kind of inbound trigger: it decodes the body into a
// Req (shape names its fields for the error), authenticates its key, makes the trigger with
// make and answers 201 with its view.
func createInbound[Req any, B any](s *Server, shape string, keyOf func(*Req) string,
	make func(in *triggers.Inbound, account string, req *Req) (store.InboundTrigger, error),
	view func(store.InboundTrigger, bool) (B, error)) fiber.Handler {
	return func(c *fiber.Ctx) error {
		var req Req
		if err := decodeBody(c, &req, shape); err != nil {
			return err
		}
		key, err := s.authenticate(c, keyOf(&req))
		if err != nil {
			return err
		}
		in, err := s.inbound()
		if err != nil {
			return err
		}
		t, err := make(in, key.Account, &req)
		if err != nil {
			return err
		}
		b, err := view(t, false)
		if err != nil {
			return err
		}
		return c.Status(fiber.StatusCreated).JSON(b)
	}
}

// deliveriesOf is a trigger's last deliveries for the one-trigger view (a copy: the view
// outlives the record).
func deliveriesOf(t store.InboundTrigger) *[]store.Delivery {
	d := append([]store.Delivery{}, t.Deliveries...)
	return &d
}
