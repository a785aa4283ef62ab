package server

import (
	"fmt"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/rodeo-run/rodeo/store"
)

// The outbox: GET /outbox lists the account's messages kept by email nodes while no SMTP server
// is configured, newest first (?limit=, ?before= pages); GET /outbox/{id} is one message.

func init() {
	mounts = append(mounts, func(s *Server) {
		s.app.Get("/outbox", s.listOutbox)
		s.app.Get("/outbox/:id", s.getOutbox)
	})
}

func (s *Server) listOutbox(c *fiber.Ctx) error {
	account, err := s.account(c)
	if err != nil {
		return err
	}
	limit, _ := strconv.Atoi(c.Query("limit"))
	list, err := s.cfg.Store.ListOutbox(account, limit, c.Query("before"))
	if err != nil {
		return err
	}
	resp := fiber.Map{"messages": list}
	page := store.DefaultOutboxLimit
	if limit > 0 {
		page = min(limit, store.MaxOutboxLimit)
	}
	if n := len(list); n > 0 && n == page {
		resp["next"] = fmt.Sprintf("/outbox?before=%s&limit=%d", list[n-1].ID, page)
	}
	return c.JSON(resp)
}

func (s *Server) getOutbox(c *fiber.Ctx) error {
	account, err := s.account(c)
	if err != nil {
		return err
	}
	m, err := s.cfg.Store.GetOutbox(account, c.Params("id"))
	if err != nil {
		return err
	}
	return c.JSON(m)
}
