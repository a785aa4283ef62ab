package main

import (
	"flag"
	"fmt"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/store"
)

const storeUsage = "usage: rodeo store compact [--data DIR]  (offline: stop the server first)"

// storeCmd maintains the data directory's bbolt file offline. compact rewrites it without the
// pages deleted runs freed (bbolt reuses them but never gives them back to the disk) and says
// the file's size before and after; it refuses while a server holds the file.
func (a *App) storeCmd(args []string) error {
	if len(args) == 0 || args[0] != "compact" {
		return errs.E(errs.InvalidConfig, "%s", storeUsage)
	}
	fs := flag.NewFlagSet("store compact", flag.ContinueOnError)
	fs.SetOutput(a.Stderr)
	data := fs.String("data", a.env("RODEO_DATA", "./data"), "data directory (env RODEO_DATA)")
	if err := fs.Parse(reorder(args[1:])); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return errs.E(errs.InvalidConfig, "%s", storeUsage)
	}
	res, err := store.Compact(*data)
	if err != nil {
		return err
	}
	saved := 0.0
	if res.Before > 0 {
		saved = 100 * float64(res.Before-res.After) / float64(res.Before)
	}
	fmt.Fprintf(a.Stdout, "compacted %s: %s -> %s (%.0f%% smaller)\n", *data, store.FormatSize(res.Before), store.FormatSize(res.After), saved)
	return nil
}
