package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/triggers"
)

const schedulesUsage = "usage: rodeo schedules list | add NAME (--cron C | --every D | --text T) [--timezone TZ] [--instances N] [--overlap skip|allow] [--missed once|skip] [--data-json JSON] | rm ID  (--key KEY or RODEO_API_KEY picks the account; --data DIR)"

// schedules manages an account's schedules in the data directory, like /schedules (the server
// holds the directory's lock while it runs: use the API then). The server fires them.
func (a *App) schedules(args []string) error {
	if len(args) == 0 {
		return errs.E(errs.InvalidConfig, "%s", schedulesUsage)
	}
	fs := flag.NewFlagSet("schedules "+args[0], flag.ContinueOnError)
	fs.SetOutput(a.Stderr)
	key := fs.String("key", a.Getenv("RODEO_API_KEY"), "the API key whose account's schedules these are (env RODEO_API_KEY)")
	var in triggers.ScheduleInput
	opt := func(name, usage string) *string { return fs.String(name, "", usage) }
	cron, every, text := opt("cron", "add: a five-field cron"), opt("every", "add: an interval such as 15m"), opt("text", "add: plain English such as \"every weekday at 9am\"")
	tz, overlap, missed := opt("timezone", "add: IANA timezone (default the server's)"), opt("overlap", "add: skip or allow"), opt("missed", "add: once or skip")
	data := opt("data-json", "add: the run variable data, as JSON")
	instances := fs.Int("instances", 1, "add: runs per fire (1-50)")
	db, rest, err := a.openStore(fs, args[1:])
	if err != nil {
		return err
	}
	defer db.Close()
	if strings.TrimSpace(*key) == "" {
		return errs.E(errs.InvalidKey, "an API key is required: --key KEY or RODEO_API_KEY")
	}
	k, err := db.Authenticate(strings.TrimSpace(*key))
	if err != nil {
		return err
	}
	sc := triggers.NewScheduler(triggers.SchedulerConfig{Store: db, Timezone: triggers.ServerTimezone(a.Getenv)})
	switch {
	case args[0] == "list" && len(rest) == 0:
		list, err := sc.List(k.Account)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(a.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tSCRIPT\tWHEN\tTIMEZONE\tSTATE\tNEXT")
		for _, v := range list {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", v.ID, scheduleTarget(v), scheduleWhen(v), v.Timezone, map[bool]string{true: "enabled", false: "paused"}[v.Enabled], firstNext(v))
		}
		return tw.Flush()
	case args[0] == "add" && len(rest) == 1:
		set := func(p **string, v *string) {
			if *v != "" {
				*p = v
			}
		}
		in.Name = &rest[0]
		set(&in.Cron, cron)
		set(&in.Every, every)
		set(&in.Text, text)
		set(&in.Timezone, tz)
		set(&in.Overlap, overlap)
		set(&in.Missed, missed)
		in.Instances = instances
		if *data != "" {
			if !json.Valid([]byte(*data)) {
				return errs.E(errs.InvalidConfig, "--data-json must be valid JSON (a string is written \"\\\"text\\\"\")")
			}
			in.Data = json.RawMessage(*data)
		}
		v, err := sc.Create(k.Account, in)
		if err != nil {
			return describe(err)
		}
		fmt.Fprintf(a.Stdout, "added schedule %s: %s runs %s (%s)\n", v.ID, scheduleTarget(v), scheduleWhen(v), v.Timezone)
		for _, t := range v.Next {
			fmt.Fprintf(a.Stdout, "  next %s\n", t.Format(time.RFC3339))
		}
	case args[0] == "rm" && len(rest) == 1:
		if err := sc.Delete(k.Account, rest[0]); err != nil {
			return err
		}
		fmt.Fprintf(a.Stdout, "removed schedule %s\n", rest[0])
	default:
		return errs.E(errs.InvalidConfig, "%s", schedulesUsage)
	}
	return nil
}

func scheduleTarget(v triggers.ScheduleView) string {
	if v.Agent != nil {
		return "(agent) " + v.Agent.Goal
	}
	return v.Name
}

func scheduleWhen(v triggers.ScheduleView) string {
	switch {
	case v.Every != "":
		return "every " + v.Every
	case v.Text != "":
		return v.Cron + " (" + v.Text + ")"
	}
	return v.Cron
}

func firstNext(v triggers.ScheduleView) string {
	if len(v.Next) == 0 {
		return "-"
	}
	return v.Next[0].Format(time.RFC3339)
}
