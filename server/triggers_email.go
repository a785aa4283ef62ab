package server

import (
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/rodeo-run/rodeo/store"
	"github.com/rodeo-run/rodeo/triggers"
)

// Email triggers: POST /triggers/email {key, name, from?, subject?} makes an unguessable address
// that runs the saved script name when mail comes to it (through the SMTP listener of
// --smtp-listen); GET /triggers/email lists the account's, GET /triggers/email/{id} shows one
// with its last deliveries, DELETE removes one (its address refuses mail at once).

func init() {
	mounts = append(mounts, func(s *Server) {
		s.app.Post("/triggers/email", s.createEmailTrigger())
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
		b.Deliveries = deliveriesOf(t)
	}
	return b, nil
}

// emailTriggerRequest is the body of POST /triggers/email.
type emailTriggerRequest struct {
	Key     string `json:"key"`
	Name    string `json:"name"`
	From    string `json:"from"`
	Subject string `json:"subject"`
}

func (s *Server) createEmailTrigger() fiber.Handler {
	return createInbound(s, "{key, name, from, subject}", func(r *emailTriggerRequest) string { return r.Key },
		func(in *triggers.Inbound, account string, r *emailTriggerRequest) (store.InboundTrigger, error) {
			return in.CreateEmail(account, r.Name, r.From, r.Subject)
		}, s.emailView)
}
