package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
)

// POST /triggers/cloud runs a saved script of the key's account in the server's browser pool.
// The run is queued when every browser is busy (the engine's bounded queue; 503 busy when that
// is full too) and answers 202 at once, or with ?wait=true the run document when it ends.

func init() {
	mounts = append(mounts, func(s *Server) {
		s.app.Post("/triggers/cloud", s.triggerCloud)
	})
}

// cloudTrigger is the body of POST /triggers/cloud.
type cloudTrigger struct {
	Start string          `json:"start"`
	Key   string          `json:"key"`
	Name  string          `json:"name"`
	Data  json.RawMessage `json:"data"`
}

// triggerData is the run variable `data`: the string as sent; another JSON value as its JSON
// text; "" when absent or null. It is only ever a value.
func triggerData(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if raw[0] == '"' {
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", errs.E(errs.InvalidJSON, "data: %v", err)
		}
		return s, nil
	}
	return string(raw), nil
}

// triggered is a trigger request resolved to the saved script it runs.
type triggered struct {
	account string
	start   string
	script  *scripts.Script
	ref     *scripts.ScriptRef
}

// resolveTrigger decodes a trigger body {start, key, name, data}, authenticates it and compiles
// the account's saved script with data as the variable `data` (both triggers share these rules).
func (s *Server) resolveTrigger(c *fiber.Ctx) (triggered, error) {
	var req cloudTrigger
	dec := json.NewDecoder(bytes.NewReader(c.Body()))
	if err := dec.Decode(&req); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return triggered{}, &errs.Error{Code: errs.InvalidConfig, Message: "invalid trigger: " + typeErr.Field + " must be a string",
				Details: []errs.Detail{{Field: typeErr.Field, Problem: "must be a string"}}}
		}
		return triggered{}, errs.E(errs.InvalidJSON, "the body must be a JSON object {start, key, name, data}: %v", err)
	}
	key, err := s.authenticate(c, req.Key)
	if err != nil {
		return triggered{}, err
	}
	data, err := triggerData(req.Data)
	if err != nil {
		return triggered{}, err
	}
	start := strings.TrimSpace(req.Start)
	script, ref, err := SavedScript(s.cfg.Store, s.cfg.Registry, key.Account, req.Name, start, data)
	if err != nil {
		return triggered{}, err
	}
	return triggered{account: key.Account, start: start, script: script, ref: ref}, nil
}

func (s *Server) triggerCloud(c *fiber.Ctx) error {
	tr, err := s.resolveTrigger(c)
	if err != nil {
		return err
	}
	run, err := s.cfg.Engine.Enqueue(tr.script, scripts.StartOptions{Account: tr.account, Source: "trigger", Script: tr.ref})
	if err != nil {
		return err
	}
	if c.Query("wait") == "true" {
		return c.JSON(s.cfg.Engine.Wait(context.Background(), run))
	}
	return c.Status(fiber.StatusAccepted).JSON(fiber.Map{"run_id": run.ID(), "status": scripts.StatusQueued, "status_url": "/runs/" + run.ID()})
}
