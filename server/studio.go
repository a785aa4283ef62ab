package server

import (
	"github.com/gofiber/fiber/v2"
	"github.com/rodeo-run/rodeo/studio"
)

// The studio (docs/studio.md): GET / is its HTML shell and GET /studio/{file} its scripts and
// styles, all embedded in the binary. They need no key: the page signs in by calling the API.
func init() {
	mounts = append(mounts, func(s *Server) {
		s.app.Get("/", s.studioIndex)
		s.app.Get("/studio/:file", s.studioAsset)
	})
}

func sendAsset(c *fiber.Ctx, a studio.Asset) error {
	c.Set(fiber.HeaderContentType, a.ContentType)
	c.Set(fiber.HeaderContentSecurityPolicy, studio.CSP)
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	c.Set("Referrer-Policy", "no-referrer")
	// Assets change with the binary: revalidate rather than cache stale code.
	c.Set(fiber.HeaderCacheControl, "no-cache")
	return c.Send(a.Data)
}

func (s *Server) studioIndex(c *fiber.Ctx) error { return sendAsset(c, studio.Index()) }

func (s *Server) studioAsset(c *fiber.Ctx) error {
	a, ok := studio.Get(c.Params("file"))
	if !ok {
		return fiber.ErrNotFound
	}
	return sendAsset(c, a)
}
