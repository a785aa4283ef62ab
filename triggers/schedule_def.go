package triggers

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/store"
)

// Schedule limits and defaults (docs/schedules.md).
const (
	// MaxScheduleInstances caps the runs of one fire.
	MaxScheduleInstances = 50
	// DefaultScheduleGrace is how late a slot missed while the server was down may still run.
	DefaultScheduleGrace = 10 * time.Minute
	// DefaultScheduleMinEvery is the shortest `every`: cron's own granularity.
	DefaultScheduleMinEvery = time.Minute
	// MaxScheduleEvery is the longest `every`.
	MaxScheduleEvery = 366 * 24 * time.Hour
	// scheduleNextCount is how many next times a schedule shows.
	scheduleNextCount = 5
)

// Overlap and missed policies.
const (
	OverlapSkip  = "skip"
	OverlapAllow = "allow"
	MissedOnce   = "once"
	MissedSkip   = "skip"
)

// ScheduleInput is the body of POST /schedules and PATCH /schedules/{id} (and, from a
// `schedule` node, of POST /agents). Absent fields keep their value (PATCH) or default (POST).
// The timing is one of cron, every (an interval such as "15m", or a dropdown unit with on and
// at) and text.
type ScheduleInput struct {
	Key       string          `json:"key"`
	Name      *string         `json:"name"`
	Cron      *string         `json:"cron"`
	Every     *string         `json:"every"`
	On        []any           `json:"on"`
	At        *string         `json:"at"`
	Text      *string         `json:"text"`
	Timezone  *string         `json:"timezone"`
	Data      json.RawMessage `json:"data"`
	Instances *int            `json:"instances"`
	Overlap   *string         `json:"overlap"`
	Missed    *string         `json:"missed"`
	Enabled   *bool           `json:"enabled"`
}

// problems collects every invalid field of a definition, to report them at once.
type problems []errs.Detail

func (p *problems) add(field, format string, args ...any) {
	*p = append(*p, errs.Detail{Field: field, Problem: fmt.Sprintf(format, args...)})
}

func (p problems) err() error {
	if len(p) == 0 {
		return nil
	}
	msg := "invalid schedule: " + p[0].Field + " " + p[0].Problem
	if len(p) > 1 {
		msg = fmt.Sprintf("invalid schedule: %d problems (see details)", len(p))
	}
	return &errs.Error{Code: errs.InvalidConfig, Message: msg, Details: p}
}

// parseEvery reads an interval: Go durations ("90s", "15m", "2h", "1h30m") and days ("1d").
func parseEvery(s string) (time.Duration, bool) {
	s = strings.TrimSpace(s)
	if n, ok := strings.CutSuffix(s, "d"); ok {
		days, err := strconv.Atoi(n)
		return time.Duration(days) * 24 * time.Hour, err == nil && days > 0
	}
	d, err := time.ParseDuration(s)
	return d, err == nil
}

// apply validates in and writes it over s (a new schedule's defaults, or the stored one for
// PATCH). now anchors a new `every` and restarts the slots of a changed timing.
func (sc *Scheduler) apply(in ScheduleInput, s *store.Schedule, now time.Time) error {
	var bad problems
	if in.Name != nil {
		if s.Agent != nil {
			bad.add("name", "cannot be set on a schedule made by POST /agents (it runs its own agent)")
		} else if err := store.ValidScriptName(*in.Name); err != nil {
			bad.add("name", "must be the name of one of your saved scripts")
		} else {
			s.Name = *in.Name
		}
	}
	if in.Timezone != nil {
		tz := strings.TrimSpace(*in.Timezone)
		if tz == "" {
			tz = sc.cfg.Timezone
		}
		if _, err := loadZone(tz); err != nil {
			bad.add("timezone", "%q is not an IANA timezone such as Europe/Berlin, America/New_York or UTC", *in.Timezone)
		} else if s.Timezone != tz {
			s.Timezone = tz
		}
	}
	if s.Timezone == "" {
		s.Timezone = sc.cfg.Timezone
	}
	sc.applyTiming(in, s, now, &bad)
	if in.Data != nil {
		if string(in.Data) == "null" {
			s.Data = nil
		} else {
			s.Data = in.Data
		}
	}
	if in.Instances != nil {
		if *in.Instances < 1 || *in.Instances > MaxScheduleInstances {
			bad.add("instances", "must be 1 to %d: the runs of the script at each fire", MaxScheduleInstances)
		} else {
			s.Instances = *in.Instances
		}
	}
	if in.Overlap != nil {
		if v := *in.Overlap; v != OverlapSkip && v != OverlapAllow {
			bad.add("overlap", "must be \"skip\" (a fire while the previous one still runs is skipped) or \"allow\"")
		} else {
			s.Overlap = v
		}
	}
	if in.Missed != nil {
		if v := *in.Missed; v != MissedOnce && v != MissedSkip {
			bad.add("missed", "must be \"once\" (a slot missed while the server was down runs once, within %s) or \"skip\"", sc.cfg.Grace)
		} else {
			s.Missed = v
		}
	}
	if in.Enabled != nil {
		if *in.Enabled && !s.Enabled {
			// Slots that passed while it was paused are not made up for.
			t := now.UTC()
			s.LastSlot = &t
		}
		s.Enabled = *in.Enabled
	}
	if err := bad.err(); err != nil {
		return err
	}
	if _, err := sc.times(*s); err != nil {
		return &errs.Error{Code: errs.InvalidConfig, Message: "invalid schedule: " + err.Error(),
			Details: []errs.Detail{{Field: "cron", Problem: err.Error()}}}
	}
	return nil
}

// applyTiming sets the schedule's cron or every from whichever of cron, every (+on, at) and
// text the input has; a new timing starts its slots from now.
func (sc *Scheduler) applyTiming(in ScheduleInput, s *store.Schedule, now time.Time, bad *problems) {
	var given []string
	for _, f := range []struct {
		name string
		set  bool
	}{{"cron", in.Cron != nil}, {"every", in.Every != nil}, {"text", in.Text != nil}} {
		if f.set {
			given = append(given, f.name)
		}
	}
	if (in.On != nil || in.At != nil) && in.Every == nil {
		bad.add("every", "on and at go with every: {\"every\": \"week\", \"on\": [\"mon\", \"thu\"], \"at\": \"09:30\"}")
		return
	}
	switch {
	case len(given) > 1:
		bad.add(given[0], "give one of cron, every and text, not several")
		return
	case len(given) == 0:
		if s.Cron == "" && s.Every == "" {
			bad.add("cron", "a schedule needs its times: cron (\"0 9 * * 1-5\"), every (\"15m\", or {\"every\": \"week\", \"on\": [\"mon\"], \"at\": \"09:30\"}) or text (\"every weekday at 9am\")")
		}
		return
	}
	cron, every, text := "", "", ""
	loc, _ := loadZone(s.Timezone)
	switch {
	case in.Cron != nil:
		cron = strings.Join(strings.Fields(*in.Cron), " ")
		if _, err := parseCron(cron, loc); err != nil {
			bad.add("cron", "%q is not a five-field cron (minute hour day-of-month month day-of-week, e.g. \"0 9 * * 1-5\"): %v", *in.Cron, err)
			return
		}
	case in.Text != nil:
		c, err := TextToCron(*in.Text)
		if err != nil {
			bad.add("text", "%v", err)
			return
		}
		cron, text = c, strings.TrimSpace(*in.Text)
	default:
		var err error
		if cron, every, err = sc.everyTiming(in); err != nil {
			bad.add("every", "%v", err)
			return
		}
	}
	if cron != s.Cron || every != s.Every || text != s.Text || s.Anchor.IsZero() {
		s.Cron, s.Every, s.Text = cron, every, text
		s.Anchor = now.UTC().Truncate(time.Second)
		if s.LastSlot != nil || !s.Created.IsZero() {
			t := now.UTC()
			s.LastSlot = &t
		}
	}
}

// everyTiming reads every: an interval ("15m": every is set) or a dropdown unit with on and at
// (cron is set).
func (sc *Scheduler) everyTiming(in ScheduleInput) (cron, every string, err error) {
	if d, ok := parseEvery(*in.Every); ok {
		switch {
		case in.On != nil || in.At != nil:
			return "", "", fmt.Errorf("an interval such as %q takes no on or at; those go with a unit: minute, hour, day, weekday, weekend, week, month", *in.Every)
		case d < sc.cfg.MinEvery || d > MaxScheduleEvery:
			return "", "", fmt.Errorf("must be from %s to 366d", sc.cfg.MinEvery)
		}
		return "", strings.TrimSpace(*in.Every), nil
	}
	dd := ScheduleDropdown{Every: *in.Every}
	for _, v := range in.On {
		dd.On = append(dd.On, strings.TrimSpace(fmt.Sprint(v)))
	}
	if in.At != nil {
		dd.At = *in.At
	}
	cron, err = DropdownToCron(dd)
	return cron, "", err
}

// loadZone loads an IANA timezone; "Local" (the process's, whatever it is) is not one.
func loadZone(name string) (*time.Location, error) {
	if name == "" || name == "Local" {
		return nil, fmt.Errorf("no timezone")
	}
	return time.LoadLocation(name)
}

// times are the slots of a stored schedule.
func (sc *Scheduler) times(s store.Schedule) (ScheduleTimes, error) {
	loc, err := loadZone(s.Timezone)
	if err != nil {
		return nil, fmt.Errorf("timezone %q: %w", s.Timezone, err)
	}
	if s.Every != "" {
		d, ok := parseEvery(s.Every)
		if !ok || d <= 0 {
			return nil, fmt.Errorf("every %q is not an interval", s.Every)
		}
		return everyTimes{anchor: s.Anchor, every: d}, nil
	}
	ct, err := parseCron(s.Cron, loc)
	if err != nil {
		return nil, err
	}
	if ct.Next(s.Anchor).IsZero() {
		return nil, fmt.Errorf("the cron %q matches no time in the next five years", s.Cron)
	}
	return ct, nil
}

// ServerTimezone is the IANA name of the server's timezone: $TZ, else the zone /etc/localtime
// links to, else UTC. Schedules store it when they name none, so a later change of the
// server's zone does not move them.
func ServerTimezone(getenv func(string) string) string {
	if tz := strings.TrimPrefix(getenv("TZ"), ":"); tz != "" {
		if _, err := loadZone(tz); err == nil {
			return tz
		}
	}
	if target, err := os.Readlink("/etc/localtime"); err == nil {
		if i := strings.Index(target, "zoneinfo/"); i >= 0 {
			if name := target[i+len("zoneinfo/"):]; name != "" {
				if _, err := loadZone(name); err == nil {
					return filepath.ToSlash(name)
				}
			}
		}
	}
	return "UTC"
}
