package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"sync"

	"github.com/gofiber/fiber/v2"
	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/triggers"
)

// inbounds maps an engine to its inbound triggers (email addresses, phone webhooks, watches):
// the routes of a server built on that engine use them. Config stays as it is; the triggers are
// wired by AttachInbound, as the extension hub is.
var inbounds sync.Map // *scripts.Engine -> *triggers.Inbound

// AttachInbound makes the servers of engine e serve /triggers/email, /triggers/phone and
// /watches with in. A nil in detaches.
func AttachInbound(e *scripts.Engine, in *triggers.Inbound) {
	if in == nil {
		inbounds.Delete(e)
		return
	}
	inbounds.Store(e, in)
}

func (s *Server) inbound() (*triggers.Inbound, error) {
	if in, ok := inbounds.Load(s.cfg.Engine); ok {
		return in.(*triggers.Inbound), nil
	}
	return nil, errs.E(errs.BrowserUnavailable, "this server runs no inbound triggers")
}

// decodeBody decodes a JSON object body into v; a value of the wrong type is invalid_config
// naming the field.
func decodeBody(c *fiber.Ctx, v any, shape string) error {
	dec := json.NewDecoder(bytes.NewReader(c.Body()))
	if err := dec.Decode(v); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			problem := "must be a " + typeErr.Type.String()
			if typeErr.Type.String() == "float64" {
				problem = "must be a number"
			}
			return &errs.Error{Code: errs.InvalidConfig, Message: "invalid request: " + typeErr.Field + " " + problem,
				Details: []errs.Detail{{Field: typeErr.Field, Problem: problem}}}
		}
		return errs.E(errs.InvalidJSON, "the body must be a JSON object %s: %v", shape, err)
	}
	return nil
}
