package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/gofiber/fiber/v2"
	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/store"
	"github.com/rodeo-run/rodeo/triggers"
)

// Schedules (docs/schedules.md): POST /schedules, GET /schedules, GET/PATCH/DELETE
// /schedules/{id}, POST /schedules/{id}/pause and /resume, and POST /agents with a `schedule`
// node, which stores the agent as a schedule instead of running it.

// schedulers maps an engine to its scheduler (wired by AttachScheduler; Config stays as it is).
var schedulers sync.Map // *scripts.Engine -> *triggers.Scheduler

// AttachScheduler makes the servers of engine e serve the schedule routes with sc. A nil sc
// detaches.
func AttachScheduler(e *scripts.Engine, sc *triggers.Scheduler) {
	if sc == nil {
		schedulers.Delete(e)
		return
	}
	schedulers.Store(e, sc)
}

func init() {
	mounts = append(mounts, func(s *Server) {
		s.app.Post("/schedules", s.postSchedule)
		s.app.Get("/schedules", s.listSchedules)
		s.app.Get("/schedules/:id", s.getSchedule)
		s.app.Patch("/schedules/:id", s.patchSchedule)
		s.app.Delete("/schedules/:id", s.deleteSchedule)
		s.app.Post("/schedules/:id/pause", s.pauseSchedule)
		s.app.Post("/schedules/:id/resume", s.resumeSchedule)
	})
	operations = append(operations,
		operation{"POST", "/schedules", "Schedule a saved script: cron, every or text (docs/schedules.md); answers the schedule with its next 5 times", true, "", 201, "", []int{400, 401, 404}},
		operation{"GET", "/schedules", "The account's schedules with their next times", true, "", 200, "", []int{401}},
		operation{"GET", "/schedules/{id}", "A schedule: next times and the last 20 fires with their runs' statuses", true, "", 200, "", []int{401, 404}},
		operation{"PATCH", "/schedules/{id}", "Change a schedule's fields (a new timing counts from now)", true, "", 200, "", []int{400, 401, 404}},
		operation{"DELETE", "/schedules/{id}", "Delete a schedule: it fires nothing more", true, "", 200, "", []int{401, 404}},
		operation{"POST", "/schedules/{id}/pause", "Pause a schedule (slots passing while paused are not made up)", true, "", 200, "", []int{401, 404}},
		operation{"POST", "/schedules/{id}/resume", "Resume a paused schedule from now", true, "", 200, "", []int{401, 404}},
	)
	scriptTriggerKinds = append(scriptTriggerKinds, scriptTriggerKind{Kind: "schedule", List: func(s *Server, account, name string) ([]any, error) {
		sc, err := s.scheduler()
		if err != nil {
			return nil, nil // a server without a scheduler has no schedules to list
		}
		list, err := sc.OfScript(account, name)
		out := make([]any, len(list))
		for i, v := range list {
			out[i] = v
		}
		return out, err
	}})
}

func (s *Server) scheduler() (*triggers.Scheduler, error) {
	if sc, ok := schedulers.Load(s.cfg.Engine); ok {
		return sc.(*triggers.Scheduler), nil
	}
	return nil, errs.E(errs.NotFound, "this server runs no scheduler")
}

// decodeSchedule reads a schedule body strictly: an unknown field is a typo reported, not a
// setting silently ignored.
func decodeSchedule(body []byte) (triggers.ScheduleInput, error) {
	var in triggers.ScheduleInput
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return in, &errs.Error{Code: errs.InvalidConfig, Message: fmt.Sprintf("invalid schedule: %s must be %s", typeErr.Field, typeErr.Type),
				Details: []errs.Detail{{Field: typeErr.Field, Problem: "must be " + typeErr.Type.String()}}}
		}
		if f, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			f = strings.Trim(f, `"`)
			return in, &errs.Error{Code: errs.InvalidConfig, Message: "invalid schedule: unknown field " + f,
				Details: []errs.Detail{{Field: f, Problem: "unknown field; the fields are key, name, cron, every, on, at, text, timezone, data, instances, overlap, missed, enabled"}}}
		}
		return in, errs.E(errs.InvalidJSON, "the body must be a JSON object: %v", err)
	}
	return in, nil
}

// scheduleRequest authenticates and decodes a schedule body.
func (s *Server) scheduleRequest(c *fiber.Ctx) (*triggers.Scheduler, string, triggers.ScheduleInput, error) {
	in, err := decodeSchedule(c.Body())
	if err != nil {
		return nil, "", in, err
	}
	key, err := s.authenticate(c, in.Key)
	if err != nil {
		return nil, "", in, err
	}
	sc, err := s.scheduler()
	return sc, key.Account, in, err
}

func (s *Server) postSchedule(c *fiber.Ctx) error {
	sc, account, in, err := s.scheduleRequest(c)
	if err != nil {
		return err
	}
	v, err := sc.Create(account, in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(v)
}

func (s *Server) patchSchedule(c *fiber.Ctx) error {
	sc, account, in, err := s.scheduleRequest(c)
	if err != nil {
		return err
	}
	v, err := sc.Update(account, c.Params("id"), in)
	if err != nil {
		return err
	}
	return c.JSON(v)
}

// accountScheduler is the caller's account and the scheduler, for requests without a body.
func (s *Server) accountScheduler(c *fiber.Ctx) (*triggers.Scheduler, string, error) {
	account, err := s.account(c)
	if err != nil {
		return nil, "", err
	}
	sc, err := s.scheduler()
	return sc, account, err
}

func (s *Server) listSchedules(c *fiber.Ctx) error {
	sc, account, err := s.accountScheduler(c)
	if err != nil {
		return err
	}
	list, err := sc.List(account)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"schedules": list})
}

func (s *Server) getSchedule(c *fiber.Ctx) error {
	sc, account, err := s.accountScheduler(c)
	if err != nil {
		return err
	}
	v, err := sc.Get(account, c.Params("id"))
	if err != nil {
		return err
	}
	return c.JSON(v)
}

func (s *Server) deleteSchedule(c *fiber.Ctx) error {
	sc, account, err := s.accountScheduler(c)
	if err != nil {
		return err
	}
	if err := sc.Delete(account, c.Params("id")); err != nil {
		return err
	}
	return c.JSON(fiber.Map{"id": c.Params("id"), "deleted": true})
}

func (s *Server) pauseSchedule(c *fiber.Ctx) error  { return s.setScheduleEnabled(c, false) }
func (s *Server) resumeSchedule(c *fiber.Ctx) error { return s.setScheduleEnabled(c, true) }

func (s *Server) setScheduleEnabled(c *fiber.Ctx, enabled bool) error {
	sc, account, err := s.accountScheduler(c)
	if err != nil {
		return err
	}
	v, err := sc.SetEnabled(account, c.Params("id"), enabled)
	if err != nil {
		return err
	}
	return c.JSON(v)
}

// scheduleNodes finds the script's `schedule` nodes: the top-level ones, and whether one sits
// inside control flow (where it means nothing).
func scheduleNodes(calls []*scripts.Call) (top []*scripts.Call, nested bool) {
	var walk func(calls []*scripts.Call, depth int)
	walk = func(calls []*scripts.Call, depth int) {
		for _, c := range calls {
			if c.Spec.Kind == "schedule" {
				if depth == 0 {
					top = append(top, c)
				} else {
					nested = true
				}
			}
			for _, kids := range c.Children {
				walk(kids, depth+1)
			}
		}
	}
	walk(calls, 0)
	return top, nested
}

// scheduledAgentAnswer is POST /agents' 201 for an agent with a `schedule` node.
type scheduledAgentAnswer struct {
	triggers.ScheduleView
	// RunID and StatusURL name the run started at once with "run_now": true.
	RunID     string `json:"run_id,omitempty"`
	StatusURL string `json:"status_url,omitempty"`
}

// postScheduledAgent stores an agent with a `schedule` node as a schedule of its other nodes
// and answers 201 with it; with "run_now": true it also starts one run now.
func (s *Server) postScheduledAgent(c *fiber.Ctx, account string, req *scripts.Request, script *scripts.Script) error {
	top, nested := scheduleNodes(script.Nodes)
	switch {
	case nested:
		return &errs.Error{Code: errs.InvalidConfig, Message: "invalid agent configuration: a schedule node belongs at the top level, not inside control flow",
			Details: []errs.Detail{{Field: "json_output", Problem: "a schedule node belongs at the top level"}}}
	case len(top) > 1:
		i := top[1].Index
		return &errs.Error{Code: errs.InvalidConfig, Message: "invalid agent configuration: an agent has at most one schedule node",
			Details: []errs.Detail{{Node: &i, Problem: "a second schedule node; an agent has one schedule"}}}
	}
	var extra struct {
		RunNow bool `json:"run_now"`
	}
	_ = json.Unmarshal(c.Body(), &extra)
	nodes := triggers.WithoutScheduleNodes(req.JSONOutput)
	if len(nodes) == 0 {
		i := top[0].Index
		return &errs.Error{Code: errs.InvalidConfig, Message: "invalid agent configuration: the agent has nothing to run besides its schedule",
			Details: []errs.Detail{{Node: &i, Problem: "add the nodes to run at each fire"}}}
	}
	in := scheduleNodeInput(top[0])
	sc, err := s.scheduler()
	if err != nil {
		return err
	}
	raw, _ := json.Marshal(nodes)
	v, err := sc.CreateAgent(account, store.ScheduleAgent{Goal: script.Goal, JSONOutput: raw, Vars: req.Data, Profile: script.Profile}, in)
	if err != nil {
		return err
	}
	answer := scheduledAgentAnswer{ScheduleView: v}
	if extra.RunNow {
		now, err := s.cfg.Registry.Compile(script.Goal, nodes, req.Data)
		if err != nil {
			return err
		}
		now.Profile = script.Profile
		run, err := s.cfg.Engine.Enqueue(now, scripts.StartOptions{Account: account, Source: "schedule", Trigger: &scripts.TriggerRef{ID: v.ID}})
		if err != nil {
			return err
		}
		answer.RunID, answer.StatusURL = run.ID(), "/runs/"+run.ID()
	}
	return c.Status(fiber.StatusCreated).JSON(answer)
}

// scheduleNodeInput reads a `schedule` node's params as a schedule definition.
func scheduleNodeInput(call *scripts.Call) triggers.ScheduleInput {
	var in triggers.ScheduleInput
	text := func(name string) *string {
		if v, ok := call.Raw[name].(string); ok {
			return &v
		}
		return nil
	}
	in.Cron, in.Every, in.Text, in.Timezone, in.Overlap, in.Missed = text("cron"), text("every"), text("text"), text("timezone"), text("overlap"), text("missed")
	in.At = text("at")
	if list, ok := call.Raw["on"].([]any); ok {
		in.On = list
	} else if one, ok := call.Raw["on"].(string); ok {
		in.On = []any{one}
	}
	if v, ok := call.Raw["instances"]; ok {
		i := 0 // not a whole number: refused as out of range
		if n, err := json.Number(fmt.Sprint(v)).Int64(); err == nil {
			i = int(n)
		}
		in.Instances = &i
	}
	return in
}
