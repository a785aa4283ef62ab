package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/store"
)

// Keys over HTTP (docs/API.md, "Keys"): POST /keys, GET /keys, DELETE /keys/{id}.
//
// Decision — a key manages its own account's keys, and only those: it can create keys of its
// account, list them (never a secret) and revoke them. Another account's key is not found, as
// everywhere in the API. Revoking the key that makes the request needs ?self=true, so a studio
// or a script does not lock itself out by mistake. Accounts themselves are made with the CLI
// (`rodeo keys create --account NAME`), on the server.
func init() {
	mounts = append(mounts, func(s *Server) {
		s.app.Post("/keys", s.createKey)
		s.app.Get("/keys", s.listKeys)
		s.app.Delete("/keys/:id", s.revokeKey)
	})
	operations = append(operations,
		operation{"POST", "/keys", "Create a key of the caller's account (optional label); the answer holds its secret, shown this once", true, "", 201, "", []int{400, 401, 403}},
		operation{"GET", "/keys", "The caller's account's keys, revoked ones included, never their secrets", true, "", 200, "", []int{401}},
		operation{"DELETE", "/keys/{id}", "Revoke a key of the caller's account (its own key only with ?self=true)", true, "", 200, "", []int{400, 401, 404}},
	)
}

// keyView is a key as the API shows it; Current marks the key making the request.
type keyView struct {
	store.Key
	Current bool `json:"current"`
}

// keyCreateBody is POST /keys: everything optional; account, when given, must be the caller's.
type keyCreateBody struct {
	Key     string `json:"key"`
	Account string `json:"account"`
	Label   string `json:"label"`
}

func decodeKeyCreate(body []byte) (keyCreateBody, error) {
	var in keyCreateBody
	if len(bytes.TrimSpace(body)) == 0 {
		return in, nil
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		if f, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			f = strings.Trim(f, `"`)
			return in, &errs.Error{Code: errs.InvalidConfig, Message: "invalid key request: unknown field " + f,
				Details: []errs.Detail{{Field: f, Problem: "unknown field; the fields are key, account, label"}}}
		}
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return in, &errs.Error{Code: errs.InvalidConfig, Message: fmt.Sprintf("invalid key request: %s must be a string", typeErr.Field),
				Details: []errs.Detail{{Field: typeErr.Field, Problem: "must be a string"}}}
		}
		return in, errs.E(errs.InvalidJSON, "the body must be a JSON object: %v", err)
	}
	return in, nil
}

func (s *Server) createKey(c *fiber.Ctx) error {
	in, err := decodeKeyCreate(c.Body())
	if err != nil {
		return err
	}
	caller, err := s.authenticate(c, in.Key)
	if err != nil {
		return err
	}
	if in.Account != "" && in.Account != caller.Account {
		return errs.E(errs.Forbidden, "a key creates keys of its own account (%s) only; make other accounts' keys with `rodeo keys create --account NAME`", caller.Account)
	}
	secret, k, err := s.cfg.Store.CreateLabeledKey(caller.Account, strings.TrimSpace(in.Label))
	if err != nil {
		return err
	}
	// The secret is in this answer only: no cache may keep it.
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.Status(fiber.StatusCreated).JSON(struct {
		keyView
		Secret string `json:"secret"`
	}{keyView{Key: k}, secret})
}

// accountKeys are the keys of account, oldest first.
func (s *Server) accountKeys(account string) ([]store.Key, error) {
	all, err := s.cfg.Store.ListKeys()
	if err != nil {
		return nil, err
	}
	out := all[:0]
	for _, k := range all {
		if k.Account == account {
			out = append(out, k)
		}
	}
	return out, nil
}

func (s *Server) listKeys(c *fiber.Ctx) error {
	caller, err := s.authenticate(c, "")
	if err != nil {
		return err
	}
	keys, err := s.accountKeys(caller.Account)
	if err != nil {
		return err
	}
	out := make([]keyView, len(keys))
	for i, k := range keys {
		out[i] = keyView{Key: k, Current: k.ID == caller.ID}
	}
	return c.JSON(fiber.Map{"keys": out})
}

// accountKey is the key id of account; a key of another account is not found.
func (s *Server) accountKey(account, id string) (store.Key, error) {
	keys, err := s.accountKeys(account)
	if err != nil {
		return store.Key{}, err
	}
	for _, k := range keys {
		if k.ID == id {
			return k, nil
		}
	}
	return store.Key{}, errs.E(errs.NotFound, "no key %s in this account", id)
}

func (s *Server) revokeKey(c *fiber.Ctx) error {
	caller, err := s.authenticate(c, "")
	if err != nil {
		return err
	}
	k, err := s.accountKey(caller.Account, c.Params("id"))
	if err != nil {
		return err
	}
	if k.ID == caller.ID && c.Query("self") != "true" {
		return &errs.Error{Code: errs.InvalidConfig,
			Message: "this is the key making the request: add ?self=true to revoke it (it stops working at once)",
			Details: []errs.Detail{{Field: "self", Problem: "must be true to revoke the key making the request"}}}
	}
	if err := s.cfg.Store.RevokeKey(k.ID); err != nil {
		return err
	}
	if k, err = s.accountKey(caller.Account, k.ID); err != nil {
		return err
	}
	return c.JSON(keyView{Key: k, Current: k.ID == caller.ID})
}
