package server

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/store"
)

// Filters of GET /runs: ?status=a,b ?script=NAME ?adhoc=true ?source=a,b. Without any, the list
// is the plain newest-first page of server.go.

// runStatuses are the statuses a run can have (API.md, "Run states").
var runStatuses = []string{scripts.StatusQueued, scripts.StatusRunning, scripts.StatusSucceeded, scripts.StatusFailed,
	scripts.StatusCanceled, scripts.StatusTimedOut, scripts.StatusExpired}

// maxFilterScan bounds the runs one filtered page reads: a filter that matches little answers
// what it found with a `next` cursor to read on from, instead of walking all history at once.
const maxFilterScan = 10 * store.MaxRunLimit

type runFilter struct {
	statuses, sources []string
	script            string
	adhoc             bool
}

// parseRunFilter reads the filters; ok is false when there are none. Every bad value is
// reported at once and nothing is read.
func parseRunFilter(c *fiber.Ctx) (f runFilter, ok bool, err error) {
	list := func(name string) []string {
		var out []string
		for _, v := range strings.Split(c.Query(name), ",") {
			if v = strings.TrimSpace(v); v != "" {
				out = append(out, v)
			}
		}
		return out
	}
	f.statuses, f.sources, f.script = list("status"), list("source"), strings.TrimSpace(c.Query("script"))
	var bad []errs.Detail
	for _, st := range f.statuses {
		if !slices.Contains(runStatuses, st) {
			bad = append(bad, errs.Detail{Field: "status", Problem: fmt.Sprintf("unknown status %q: use %s", st, strings.Join(runStatuses, ", "))})
		}
	}
	switch a := c.Query("adhoc"); a {
	case "", "false":
	case "true":
		f.adhoc = true
	default:
		bad = append(bad, errs.Detail{Field: "adhoc", Problem: "must be true or false"})
	}
	if f.adhoc && f.script != "" {
		bad = append(bad, errs.Detail{Field: "adhoc", Problem: "adhoc=true lists runs of no saved script: it cannot go with script"})
	}
	if len(bad) > 0 {
		return f, false, &errs.Error{Code: errs.InvalidConfig, Details: bad, Message: "invalid run filter: " + bad[0].Field + ": " + bad[0].Problem}
	}
	return f, len(f.statuses)+len(f.sources) > 0 || f.script != "" || f.adhoc, nil
}

func (f runFilter) match(d scripts.Doc) bool {
	switch {
	case len(f.statuses) > 0 && !slices.Contains(f.statuses, d.Status):
		return false
	case len(f.sources) > 0 && !slices.Contains(f.sources, d.Source):
		return false
	case f.script != "" && (d.Script == nil || d.Script.Name != f.script):
		return false
	case f.adhoc && d.Script != nil:
		return false
	}
	return true
}

// query is the filter as URL parameters, for the `next` link.
func (f runFilter) query() string {
	q := url.Values{}
	if len(f.statuses) > 0 {
		q.Set("status", strings.Join(f.statuses, ","))
	}
	if len(f.sources) > 0 {
		q.Set("source", strings.Join(f.sources, ","))
	}
	if f.script != "" {
		q.Set("script", f.script)
	}
	if f.adhoc {
		q.Set("adhoc", "true")
	}
	return q.Encode()
}

// summaryOf is a run document's line in GET /runs.
func summaryOf(d scripts.Doc) runSummary {
	return runSummary{RunID: d.RunID, Status: d.Status, Goal: d.Goal, Source: d.Source, Script: d.Script, Created: d.Created,
		Finished: d.Finished, DurationMS: d.DurationMS, Steps: len(d.Steps), Error: d.Error}
}

// listRunsFiltered answers a page of the runs that match f, newest first. Active runs are
// matched on their live document, like the plain list shows them. `next` is there when a
// following page may hold more: the page is full, or the scan stopped at its bound.
func (s *Server) listRunsFiltered(c *fiber.Ctx, account string, f runFilter) error {
	limit, _ := strconv.Atoi(c.Query("limit"))
	if limit <= 0 {
		limit = store.DefaultRunLimit
	}
	limit = min(limit, store.MaxRunLimit)
	out := make([]runSummary, 0, limit)
	last, more, err := s.cfg.Store.ScanRuns(account, c.Query("before"), maxFilterScan, func(rec store.RunRecord) (bool, error) {
		var d scripts.Doc
		if err := json.Unmarshal(rec.Doc, &d); err != nil {
			return false, fmt.Errorf("run %s: %w", rec.ID, err)
		}
		if live, ok := s.cfg.Engine.Active(account, rec.ID); ok {
			d = live.Doc()
		}
		if f.match(d) {
			out = append(out, summaryOf(d))
		}
		return len(out) < limit, nil
	})
	if err != nil {
		return err
	}
	resp := fiber.Map{"runs": out}
	if more {
		resp["next"] = "/runs?before=" + url.QueryEscape(last) + "&" + f.query()
	}
	return c.JSON(resp)
}
