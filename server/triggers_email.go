package server

import (
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/rodeo-run/rodeo/store"
)

// Email triggers: POST /triggers/email {key, name, from?, subject?} makes an unguessable address
// that runs the saved script name when mail comes to it (through the SMTP listener of
// --smtp-listen); GET /triggers/email lists the account's, GET /triggers/email/{id} shows one
// with its last deliveries, DELETE removes one (its address refuses mail at once).

func init() {
	mounts = append(mounts, func(s *Server) {
		s.app.Post("/triggers/email", s.createEmailTrigger)
		inboundRoutes(s, "/triggers/email", store.InboundEmail, s.emailView)
	})
}

type emailTriggerBody struct {
	ID      string    `json:"id"`
	Address string    `json:"address"`
	Name    string    `json:"name"`
	From    string    `json:"from,omitempty"`
	Subject string    `json:"subject,omitempty"`
	Created time.Time `json:"created"`
	// Deliveries are shown by GET /triggers/email/{id} only.
	Deliveries *[]store.Delivery `json:"deliveries,omitempty"`
}

func (s *Server) emailView(t store.InboundTrigger, deliveries bool) (emailTriggerBody, error) {
	in, err := s.inbound()
	if err != nil {
		return emailTriggerBody{}, err
	}
	b := emailTriggerBody{ID: t.ID, Address: in.Address(t.Token), Name: t.Script, From: t.From, Subject: t.Subject, Created: t.Created}
	if deliveries {
		d := append([]store.Delivery{}, t.Deliveries...)
		b.Deliveries = &d
	}
	return b, nil
}

func (s *Server) createEmailTrigger(c *fiber.Ctx) error {
	var req struct {
		Key     string `json:"key"`
		Name    string `json:"name"`
		From    string `json:"from"`
		Subject string `json:"subject"`
	}
	if err := decodeBody(c, &req, "{key, name, from, subject}"); err != nil {
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
	t, err := in.CreateEmail(key.Account, req.Name, req.From, req.Subject)
	if err != nil {
		return err
	}
	b, err := s.emailView(t, false)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(b)
}
