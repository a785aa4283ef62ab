package nodes

import (
	"context"
	"strings"
	"time"

	"github.com/robfig/cron/v3"
	"github.com/rodeo-run/rodeo/scripts"
)

// schedule says when an agent runs: POST /agents with a schedule node stores the agent as a
// recurring schedule (docs/schedules.md) instead of running it, and the other nodes run at each
// fire. The scheduler takes the node out of the runs it starts; anywhere else (a webhook
// trigger of a saved script that has one, `rodeo run`) it is a step that does nothing and says so.
type schedule struct {
	when string
}

// scheduleCronParser is the five-field cron of the schedules (descriptors such as @daily too).
var scheduleCronParser = cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)

func init() {
	scripts.Register(scripts.Spec{
		Kind:     "schedule",
		Summary:  "Run the agent on a schedule: POST /agents with this node answers 201 with the schedule, and the other nodes run at each fire.",
		Category: "flow",
		Params: []scripts.Param{
			{Name: "cron", Type: scripts.String, Description: "five-field cron: minute hour day-of-month month day-of-week (one of cron, every, text)", Example: "0 9 * * 1-5"},
			{Name: "every", Type: scripts.String, Description: "a fixed interval such as \"15m\" or \"2h\" (at least 1m), counted from the schedule's creation; or a unit (minute, hour, day, weekday, weekend, week, month) with on and at", Example: "15m"},
			{Name: "on", Type: scripts.Strings, Description: "with every week or every month (the studio's dropdowns): weekdays (mon … sun) or days of the month", Example: []string{"mon", "thu"}},
			{Name: "at", Type: scripts.String, Description: "with every day, weekday, weekend, week or month: the time of day (09:30, 9am); with every hour, the minute (:15)", Example: "09:30"},
			{Name: "text", Type: scripts.String, Description: "plain English such as \"every weekday at 9am\" (docs/schedules.md lists the forms)", Example: "every weekday at 9am"},
			{Name: "timezone", Type: scripts.String, Description: "IANA timezone of the cron's times (default: the server's)", Example: "Europe/Berlin"},
			{Name: "instances", Type: scripts.Number, Min: scripts.F(1), Max: scripts.F(50), Default: 1, Description: "runs of the agent at each fire"},
			{Name: "overlap", Type: scripts.String, Enum: []string{"skip", "allow"}, Default: "skip", Description: "a fire while the previous fire's runs still run is skipped (and recorded), or allowed"},
			{Name: "missed", Type: scripts.String, Enum: []string{"once", "skip"}, Default: "once", Description: "a slot missed while the server was down runs once at start when within the 10-minute grace, or is skipped"},
		},
		Examples: []map[string]any{{"type": "schedule", "cron": "0 9 * * 1-5", "timezone": "Europe/Berlin"}},
		Validate: validateSchedule,
		Build: func(p *scripts.Params) (scripts.Node, error) {
			var when []string
			for _, name := range []string{"cron", "every", "text", "timezone"} {
				if v, err := p.String(name); err == nil && v != "" {
					when = append(when, name+" "+v)
				}
			}
			return &schedule{when: strings.Join(when, ", ")}, nil
		},
	})
}

// validateSchedule checks that the node has exactly one timing and, for a cron or a timezone,
// that they read; the interval and the English are read by the scheduler (400 invalid_config).
func validateSchedule(p *scripts.Params) error {
	var given []string
	for _, name := range []string{"cron", "every", "text"} {
		if p.Has(name) {
			given = append(given, name)
		}
	}
	if (p.Has("on") || p.Has("at")) && !p.Has("every") {
		return paramProblem("every", "on and at go with every: {\"every\": \"week\", \"on\": [\"mon\", \"thu\"], \"at\": \"09:30\"}")
	}
	if len(given) != 1 {
		return paramProblem("cron", "give exactly one of cron (\"0 9 * * 1-5\"), every (\"15m\") and text (\"every weekday at 9am\")")
	}
	if s, ok := rawString(p, "cron"); ok {
		if strings.HasPrefix(strings.TrimSpace(s), "@every") {
			return paramProblem("cron", "use every for fixed intervals, not @every")
		}
		if _, err := scheduleCronParser.Parse(s); err != nil {
			return paramProblem("cron", "%q is not a five-field cron (minute hour day-of-month month day-of-week): %v", s, err)
		}
	}
	if tz, ok := rawString(p, "timezone"); ok {
		if _, err := time.LoadLocation(tz); err != nil || tz == "Local" {
			return paramProblem("timezone", "%q is not an IANA timezone such as Europe/Berlin", tz)
		}
	}
	return nil
}

func (n *schedule) Run(ctx context.Context, env *scripts.Env) error {
	env.SetDetail("schedule", n.when)
	env.SetDetail("note", "a schedule node sets when POST /agents runs the agent; run any other way it does nothing")
	return nil
}
