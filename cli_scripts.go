package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/store"
)

const scriptsUsage = "usage: rodeo scripts save NAME FILE|- | list | show NAME [--version N] | delete NAME  (--key KEY or RODEO_API_KEY picks the account; --data DIR)"

// scripts manages an account's saved scripts in the data directory, like PUT/GET/DELETE
// /scripts (the server holds the directory's lock while it runs: use the API then).
func (a *App) scripts(args []string) error {
	if len(args) == 0 {
		return errs.E(errs.InvalidConfig, "%s", scriptsUsage)
	}
	fs := flag.NewFlagSet("scripts "+args[0], flag.ContinueOnError)
	fs.SetOutput(a.Stderr)
	key := fs.String("key", a.Getenv("RODEO_API_KEY"), "the API key whose account's scripts these are (env RODEO_API_KEY)")
	version := fs.Int("version", 0, "show: the version to show (default the latest)")
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
	need := func(n int, usage string) error {
		if len(rest) != n {
			return errs.E(errs.InvalidConfig, "usage: rodeo scripts %s", usage)
		}
		return nil
	}
	switch args[0] {
	case "save":
		if err := need(2, "save NAME FILE|-"); err != nil {
			return err
		}
		var body []byte
		if rest[1] == "-" {
			body, err = io.ReadAll(a.Stdin)
		} else {
			body, err = os.ReadFile(rest[1])
		}
		if err != nil {
			return errs.E(errs.InvalidConfig, "read %s: %v", rest[1], err)
		}
		if err := store.ValidScriptName(rest[0]); err != nil {
			return err
		}
		req, err := scripts.DecodeRequest(body)
		if err != nil {
			return describe(err)
		}
		script, err := scripts.DefaultRegistry.Compile(req.Goal, req.JSONOutput, nil)
		if err != nil {
			return describe(err)
		}
		v, err := db.SaveScriptVersion(k.Account, store.ScriptVersion{Name: rest[0], Goal: script.Goal, JSONOutput: script.Source, Profile: req.Profile})
		if err != nil {
			return err
		}
		fmt.Fprintf(a.Stdout, "saved %s version %d\n", v.Name, v.Version)
	case "list":
		if err := need(0, "list"); err != nil {
			return err
		}
		list, err := db.ListScripts(k.Account)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(a.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "NAME\tVERSION\tUPDATED")
		for _, s := range list {
			fmt.Fprintf(tw, "%s\t%d\t%s\n", s.Name, s.Latest, s.Updated.Format(time.RFC3339))
		}
		return tw.Flush()
	case "show":
		if err := need(1, "show NAME [--version N]"); err != nil {
			return err
		}
		v, err := db.GetScript(k.Account, rest[0], *version)
		if err != nil {
			return err
		}
		enc := json.NewEncoder(a.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{"name": v.Name, "version": v.Version, "created": v.Created, "goal": v.Goal, "json_output": v.JSONOutput})
	case "delete":
		if err := need(1, "delete NAME"); err != nil {
			return err
		}
		if err := db.DeleteScript(k.Account, rest[0]); err != nil {
			return err
		}
		fmt.Fprintf(a.Stdout, "deleted %s\n", rest[0])
	default:
		return errs.E(errs.InvalidConfig, "unknown scripts command %q: %s", args[0], scriptsUsage)
	}
	return nil
}
