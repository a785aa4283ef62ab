package triggers

import (
	"encoding/json"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/store"
)

// The schedule operations of the HTTP API and the CLI: each validates, writes the store and
// wakes the scheduler, and answers the schedule as ScheduleView.

// ScheduleView is a schedule as the API shows it.
type ScheduleView struct {
	ID        string          `json:"id"`
	Name      string          `json:"name,omitempty"`
	Agent     *AgentView      `json:"agent,omitempty"`
	Cron      string          `json:"cron,omitempty"`
	Every     string          `json:"every,omitempty"`
	Text      string          `json:"text,omitempty"`
	Timezone  string          `json:"timezone"`
	Data      json.RawMessage `json:"data,omitempty"`
	Instances int             `json:"instances"`
	Overlap   string          `json:"overlap"`
	Missed    string          `json:"missed"`
	Enabled   bool            `json:"enabled"`
	Created   time.Time       `json:"created"`
	Updated   time.Time       `json:"updated"`
	LastSlot  *time.Time      `json:"last_slot,omitempty"`
	// Next are the next fire times, in the schedule's timezone (none while paused).
	Next  []time.Time `json:"next"`
	Fires []FireView  `json:"fires,omitempty"`
}

// AgentView is the agent of a schedule made by POST /agents.
type AgentView struct {
	Goal  string `json:"goal"`
	Nodes int    `json:"nodes"`
}

// FireView is one fire with its runs' current statuses.
type FireView struct {
	Slot   time.Time  `json:"slot"`
	At     time.Time  `json:"at"`
	Status string     `json:"status"`
	Reason string     `json:"reason,omitempty"`
	Runs   []FireRun  `json:"runs"`
	Count  int        `json:"count,omitempty"`
	Until  *time.Time `json:"until,omitempty"`
}

// FireRun is a run of a fire.
type FireRun struct {
	RunID  string `json:"run_id"`
	Status string `json:"status"`
}

// Create stores a new schedule of the account's saved script in.Name.
func (sc *Scheduler) Create(account string, in ScheduleInput) (ScheduleView, error) {
	if in.Name == nil || *in.Name == "" {
		return ScheduleView{}, &errs.Error{Code: errs.InvalidConfig, Message: "invalid schedule: name is required: the saved script it runs",
			Details: []errs.Detail{{Field: "name", Problem: "is required: the name of one of your saved scripts"}}}
	}
	return sc.create(account, store.Schedule{}, in)
}

// CreateAgent stores a new schedule that runs agent (POST /agents with a `schedule` node).
func (sc *Scheduler) CreateAgent(account string, agent store.ScheduleAgent, in ScheduleInput) (ScheduleView, error) {
	in.Name = nil
	return sc.create(account, store.Schedule{Agent: &agent}, in)
}

func (sc *Scheduler) create(account string, s store.Schedule, in ScheduleInput) (ScheduleView, error) {
	s.Account, s.Instances, s.Overlap, s.Missed, s.Enabled = account, 1, OverlapSkip, MissedOnce, true
	if err := sc.apply(in, &s, sc.clock.Now()); err != nil {
		return ScheduleView{}, err
	}
	if in.Enabled != nil && !*in.Enabled {
		s.LastSlot = nil // created paused: its slots count from the resume
	}
	if s.Name != "" {
		if _, err := sc.cfg.Store.GetScript(account, s.Name, 0); err != nil {
			return ScheduleView{}, err
		}
	}
	s, err := sc.cfg.Store.CreateSchedule(s)
	if err != nil {
		return ScheduleView{}, err
	}
	sc.Changed()
	return sc.view(s, false), nil
}

// Get returns the account's schedule with its last fires.
func (sc *Scheduler) Get(account, id string) (ScheduleView, error) {
	s, err := sc.cfg.Store.GetSchedule(account, id)
	if err != nil {
		return ScheduleView{}, err
	}
	return sc.view(s, true), nil
}

// List returns the account's schedules (without their fires), oldest first.
func (sc *Scheduler) List(account string) ([]ScheduleView, error) {
	list, err := sc.cfg.Store.ListSchedules(account)
	if err != nil {
		return nil, err
	}
	out := make([]ScheduleView, 0, len(list))
	for _, s := range list {
		out = append(out, sc.view(s, false))
	}
	return out, nil
}

// Update changes the fields in gives (PATCH). A new timing counts its slots from now.
func (sc *Scheduler) Update(account, id string, in ScheduleInput) (ScheduleView, error) {
	s, err := sc.cfg.Store.UpdateSchedule(account, id, func(s *store.Schedule) error {
		if err := sc.apply(in, s, sc.clock.Now()); err != nil {
			return err
		}
		if s.Name != "" && in.Name != nil {
			if _, err := sc.cfg.Store.GetScript(account, s.Name, 0); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return ScheduleView{}, err
	}
	sc.Changed()
	return sc.view(s, true), nil
}

// SetEnabled pauses (false) or resumes (true) a schedule. Slots that pass while it is paused
// are not made up for.
func (sc *Scheduler) SetEnabled(account, id string, enabled bool) (ScheduleView, error) {
	return sc.Update(account, id, ScheduleInput{Enabled: &enabled})
}

// Delete removes the account's schedule; it fires nothing more.
func (sc *Scheduler) Delete(account, id string) error {
	if err := sc.cfg.Store.DeleteSchedule(account, id); err != nil {
		return err
	}
	sc.Changed()
	return nil
}

// OfScript lists the account's schedules of the saved script name.
func (sc *Scheduler) OfScript(account, name string) ([]ScheduleView, error) {
	list, err := sc.cfg.Store.SchedulesOfScript(account, name)
	if err != nil {
		return nil, err
	}
	out := make([]ScheduleView, 0, len(list))
	for _, s := range list {
		out = append(out, sc.view(s, false))
	}
	return out, nil
}

// NextTimes are the schedule's next n slots after now, in its timezone.
func (sc *Scheduler) NextTimes(s store.Schedule, n int) []time.Time {
	ts, err := sc.times(s)
	if err != nil {
		return []time.Time{}
	}
	from := sc.clock.Now()
	if c := cursor(s); c.After(from) {
		from = c
	}
	loc, _ := loadZone(s.Timezone)
	out := nextTimes(ts, from, n)
	for i := range out {
		out[i] = out[i].In(loc)
	}
	return out
}

func (sc *Scheduler) view(s store.Schedule, withFires bool) ScheduleView {
	v := ScheduleView{ID: s.ID, Name: s.Name, Cron: s.Cron, Every: s.Every, Text: s.Text, Timezone: s.Timezone,
		Data: s.Data, Instances: s.Instances, Overlap: s.Overlap, Missed: s.Missed, Enabled: s.Enabled,
		Created: s.Created, Updated: s.Updated, LastSlot: s.LastSlot, Next: []time.Time{}}
	if s.Agent != nil {
		var nodes []json.RawMessage
		_ = json.Unmarshal(s.Agent.JSONOutput, &nodes)
		v.Agent = &AgentView{Goal: s.Agent.Goal, Nodes: len(nodes)}
	}
	if s.Enabled {
		v.Next = sc.NextTimes(s, scheduleNextCount)
	}
	if !withFires {
		return v
	}
	v.Fires = make([]FireView, 0, len(s.Fires))
	for _, f := range s.Fires {
		fv := FireView{Slot: f.Slot, At: f.At, Status: f.Status, Reason: f.Reason, Count: f.Count, Until: f.Until, Runs: []FireRun{}}
		for _, id := range f.Runs {
			fv.Runs = append(fv.Runs, FireRun{RunID: id, Status: sc.runStatus(s.Account, id)})
		}
		v.Fires = append(v.Fires, fv)
	}
	return v
}

// runStatus is a fire's run's status now; "not_started" for a run id that never became a run.
func (sc *Scheduler) runStatus(account, id string) string {
	if sc.cfg.Engine != nil {
		if d, err := sc.cfg.Engine.Get(account, id); err == nil {
			return d.Status
		}
		return "not_started"
	}
	if rec, err := sc.cfg.Store.GetRun(account, id); err == nil {
		return rec.Status
	}
	return "not_started"
}
