package server

import (
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/store"
)

// authenticate resolves the caller's key: the body's `key` when given, else the
// `Authorization: Bearer` header. Comparison is constant-time inside the store.
func (s *Server) authenticate(c *fiber.Ctx, bodyKey string) (store.Key, error) {
	secret := strings.TrimSpace(bodyKey)
	if secret == "" {
		if h := c.Get(fiber.HeaderAuthorization); len(h) > 7 && strings.EqualFold(h[:7], "bearer ") {
			secret = strings.TrimSpace(h[7:])
		}
	}
	if secret == "" {
		return store.Key{}, errs.E(errs.InvalidKey, "an API key is required: send it as the body's \"key\" or as Authorization: Bearer <key>")
	}
	k, err := s.cfg.Store.Authenticate(secret)
	if err != nil {
		return k, err
	}
	return k, s.limiter.allow(k.ID)
}

// account is the handler-side form of authenticate for requests without a JSON body.
func (s *Server) account(c *fiber.Ctx) (string, error) {
	k, err := s.authenticate(c, "")
	if err != nil {
		return "", err
	}
	return k.Account, nil
}
