package server

import (
	"mime"
	"net/url"
	"strconv"

	"github.com/gofiber/fiber/v2"
	"github.com/rodeo-run/rodeo/store"
)

// Artifacts are the files runs keep (screenshots): GET /runs/{id}/artifacts lists a run's,
// GET /runs/{id}/artifacts/{name} serves one. Both answer 404 for another account's run.
func init() {
	mounts = append(mounts, func(s *Server) {
		s.app.Get("/runs/:id/artifacts", s.listArtifacts)
		s.app.Get("/runs/:id/artifacts/:name", s.getArtifact)
	})
}

type artifactSummary struct {
	Name        string `json:"name"`
	ContentType string `json:"content_type"`
	Size        int    `json:"size"`
	Created     string `json:"created"`
	URL         string `json:"url"`
}

func (s *Server) listArtifacts(c *fiber.Ctx) error {
	account, err := s.account(c)
	if err != nil {
		return err
	}
	run := c.Params("id")
	// The run itself must be the account's: an unknown run is a 404, not an empty list.
	if _, err := s.cfg.Engine.Get(account, run); err != nil {
		return err
	}
	list, err := s.cfg.Store.ListArtifacts(account, run)
	if err != nil {
		return err
	}
	out := make([]artifactSummary, 0, len(list))
	for _, a := range list {
		out = append(out, artifactSummary{Name: a.Name, ContentType: a.ContentType, Size: a.Size,
			Created: a.Created.Format("2006-01-02T15:04:05.000Z07:00"), URL: store.ArtifactPath(run, a.Name)})
	}
	return c.JSON(fiber.Map{"artifacts": out})
}

func (s *Server) getArtifact(c *fiber.Ctx) error {
	account, err := s.account(c)
	if err != nil {
		return err
	}
	name, err := url.PathUnescape(c.Params("name"))
	if err != nil {
		name = c.Params("name")
	}
	a, err := s.cfg.Store.GetArtifact(account, c.Params("id"), name)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, a.ContentType)
	c.Set(fiber.HeaderContentLength, strconv.Itoa(len(a.Data)))
	c.Set(fiber.HeaderCacheControl, "private, max-age=3600")
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	c.Set(fiber.HeaderContentSecurityPolicy, "sandbox")
	c.Set(fiber.HeaderContentDisposition, mime.FormatMediaType("inline", map[string]string{"filename": a.Name}))
	return c.Send(a.Data)
}
