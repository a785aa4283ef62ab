package server

import (
	"encoding/json"
	"net/url"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/store"
)

// Saved scripts: PUT /scripts/{name} saves a new version (validated exactly like POST /agents),
// GET /scripts lists the account's, GET /scripts/{name}[?version=N] shows one, DELETE removes
// one with all its versions. Another account's script is not_found.

func init() {
	mounts = append(mounts, func(s *Server) {
		s.app.Put("/scripts/:name", s.putScript)
		s.app.Get("/scripts", s.listScripts)
		s.app.Get("/scripts/:name", s.getScript)
		s.app.Delete("/scripts/:name", s.deleteScript)
	})
}

// scriptName is the {name} of the path, percent-decoded ("My%20script").
func scriptName(c *fiber.Ctx) (string, error) {
	name, err := url.PathUnescape(c.Params("name"))
	if err != nil {
		return "", errs.E(errs.InvalidConfig, "the script name in the path is not valid percent-encoding")
	}
	return name, nil
}

// scriptBody is a saved script version as the API shows it.
type scriptBody struct {
	Name       string          `json:"name"`
	Version    int             `json:"version"`
	Goal       string          `json:"goal"`
	JSONOutput json.RawMessage `json:"json_output"`
	Profile    string          `json:"profile,omitempty"`
	Created    time.Time       `json:"created"`
}

func (s *Server) putScript(c *fiber.Ctx) error {
	name, err := scriptName(c)
	if err != nil {
		return err
	}
	req, err := scripts.DecodeRequest(c.Body())
	if err != nil {
		return err
	}
	key, err := s.authenticate(c, req.Key)
	if err != nil {
		return err
	}
	if err := store.ValidScriptName(name); err != nil {
		return err
	}
	script, err := s.cfg.Registry.Compile(req.Goal, req.JSONOutput, nil)
	if err != nil {
		return err
	}
	v, err := s.cfg.Store.SaveScriptVersion(key.Account, store.ScriptVersion{Name: name, Goal: script.Goal, JSONOutput: script.Source, Profile: req.Profile})
	if err != nil {
		return err
	}
	status := fiber.StatusOK
	if v.Version == 1 {
		status = fiber.StatusCreated
	}
	return c.Status(status).JSON(fiber.Map{"name": v.Name, "version": v.Version, "created": v.Created})
}

func (s *Server) listScripts(c *fiber.Ctx) error {
	account, err := s.account(c)
	if err != nil {
		return err
	}
	list, err := s.cfg.Store.ListScripts(account)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"scripts": list})
}

func (s *Server) getScript(c *fiber.Ctx) error {
	account, err := s.account(c)
	if err != nil {
		return err
	}
	name, err := scriptName(c)
	if err != nil {
		return err
	}
	version := 0
	if q := c.Query("version"); q != "" {
		if version, err = strconv.Atoi(q); err != nil || version < 1 {
			return &errs.Error{Code: errs.InvalidConfig, Message: "version must be a whole number from 1",
				Details: []errs.Detail{{Field: "version", Problem: "must be a whole number from 1"}}}
		}
	}
	v, err := s.cfg.Store.GetScript(account, name, version)
	if err != nil {
		return err
	}
	return c.JSON(scriptBody{Name: v.Name, Version: v.Version, Goal: v.Goal, JSONOutput: v.JSONOutput, Profile: v.Profile, Created: v.Created})
}

func (s *Server) deleteScript(c *fiber.Ctx) error {
	account, err := s.account(c)
	if err != nil {
		return err
	}
	name, err := scriptName(c)
	if err != nil {
		return err
	}
	if err := s.cfg.Store.DeleteScript(account, name); err != nil {
		return err
	}
	return c.JSON(fiber.Map{"name": name, "deleted": true})
}

// SavedScript compiles the latest version of the account's saved script name for a trigger:
// data becomes the run variable `data`, and a non-empty start (an http or https URL) is opened
// first by an "open tab" node put in front of the script's own. The triggers never run anything
// but a saved script.
func SavedScript(db *store.DB, reg *scripts.Registry, account, name, start string, data any) (*scripts.Script, *scripts.ScriptRef, error) {
	if name == "" {
		return nil, nil, &errs.Error{Code: errs.InvalidConfig, Message: "name is required: the name of one of your saved scripts",
			Details: []errs.Detail{{Field: "name", Problem: "is required"}}}
	}
	v, err := db.GetScript(account, name, 0)
	if err != nil {
		return nil, nil, err
	}
	var nodes []json.RawMessage
	if err := json.Unmarshal(v.JSONOutput, &nodes); err != nil {
		return nil, nil, errs.E(errs.Internal, "saved script %s: %v", name, err)
	}
	if start != "" {
		u, err := url.Parse(start)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, nil, &errs.Error{Code: errs.InvalidConfig, Message: "start must be an http or https URL (or empty)",
				Details: []errs.Detail{{Field: "start", Problem: "must be an http or https URL (or empty)"}}}
		}
		open, _ := json.Marshal(map[string]any{"type": "open tab", "target": start})
		nodes = append([]json.RawMessage{open}, nodes...)
	}
	script, err := reg.Compile(v.Goal, nodes, map[string]any{"data": data})
	if err != nil {
		return nil, nil, err
	}
	script.Profile = v.Profile
	return script, &scripts.ScriptRef{Name: v.Name, Version: v.Version}, nil
}
