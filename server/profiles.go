package server

import (
	"encoding/json"
	"net/url"
	"sort"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/store"
)

// Named browser profiles: GET /profiles lists the account's profiles (what they hold, never the
// cookie or storage values: those are credentials); DELETE /profiles/{name} forgets one, and
// answers busy while a run uses it (its end would save it again).

func init() {
	operations = append(operations,
		operation{"GET", "/profiles", "The account's named browser profiles (what they hold, not their values)", true, "", 200, "", []int{401}},
		operation{"DELETE", "/profiles/{name}", "Forget a browser profile (busy while a run uses it)", true, "", 200, "", []int{400, 401, 404, 503}},
	)
	mounts = append(mounts, func(s *Server) {
		s.app.Get("/profiles", s.listProfiles)
		s.app.Delete("/profiles/:name", s.deleteProfile)
	})
}

// profileSummary is one profile as GET /profiles shows it.
type profileSummary struct {
	Name    string    `json:"name"`
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
	Runs    int       `json:"runs"`
	LastRun string    `json:"last_run,omitempty"`
	Cookies int       `json:"cookies"`
	// Origins are the origins whose local storage the profile keeps.
	Origins []string `json:"origins"`
	// InUse is the run using the profile now, if any.
	InUse string `json:"in_use,omitempty"`
}

func (s *Server) listProfiles(c *fiber.Ctx) error {
	account, err := s.account(c)
	if err != nil {
		return err
	}
	list, err := s.cfg.Store.ListProfiles(account)
	if err != nil {
		return err
	}
	out := make([]profileSummary, 0, len(list))
	for _, p := range list {
		var cookies []json.RawMessage
		_ = json.Unmarshal(p.Cookies, &cookies)
		sum := profileSummary{Name: p.Name, Created: p.Created, Updated: p.Updated, Runs: p.Runs, LastRun: p.LastRun,
			Cookies: len(cookies), Origins: []string{}}
		for o := range p.LocalStorage {
			sum.Origins = append(sum.Origins, o)
		}
		sort.Strings(sum.Origins)
		sum.InUse, _ = s.cfg.Engine.ProfileInUse(account, p.Name)
		out = append(out, sum)
	}
	return c.JSON(fiber.Map{"profiles": out})
}

func (s *Server) deleteProfile(c *fiber.Ctx) error {
	account, err := s.account(c)
	if err != nil {
		return err
	}
	name, err := url.PathUnescape(c.Params("name"))
	if err != nil {
		return errs.E(errs.InvalidProfile, "the profile name in the path is not valid percent-encoding")
	}
	if err := store.ValidProfileName(name); err != nil {
		return err
	}
	if run, busy := s.cfg.Engine.ProfileInUse(account, name); busy {
		return errs.E(errs.Busy, "browser profile %s is in use by run %s; delete it once the run has ended", name, run)
	}
	if err := s.cfg.Store.DeleteProfile(account, name); err != nil {
		return err
	}
	return c.JSON(fiber.Map{"name": name, "deleted": true})
}
