package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/rodeo-run/rodeo/desktop"
	"github.com/rodeo-run/rodeo/scripts"
)

// addDisplayFlag adds --display, the X display desktop nodes drive (default $DISPLAY).
func (a *App) addDisplayFlag(fs *flag.FlagSet) *string {
	return fs.String("display", a.env("DISPLAY", ""), "the X display desktop nodes drive, e.g. :99 (env DISPLAY); unset: desktop nodes fail desktop_unavailable")
}

// desktops returns the runner's desktop leaser for display, or nil when there is none; then it
// says which nodes need one, so that a server started without a display is not a surprise later.
func (a *App) desktops(display string, w io.Writer, log *slog.Logger) scripts.DesktopLeaser {
	if display == "" {
		var always, some []string
		for _, k := range scripts.DefaultRegistry.DesktopKinds() {
			if spec, _ := scripts.DefaultRegistry.Lookup(k); spec.Desktop {
				always = append(always, k)
			} else {
				some = append(some, k)
			}
		}
		fmt.Fprintf(w, "no X display (DISPLAY or --display): desktop nodes fail desktop_unavailable: %s; and in desktop mode: %s (see docs/desktop.md)\n",
			strings.Join(always, ", "), strings.Join(some, ", "))
		return nil
	}
	log.Info("desktop nodes drive the X display", "display", display)
	m := desktop.NewManager(display)
	return scripts.DesktopLeaserFunc(func(ctx context.Context) (scripts.DesktopSession, error) {
		s, err := m.Lease(ctx)
		if err != nil {
			return nil, err
		}
		return s, nil
	})
}

// desktopMark is what `rodeo nodes` adds to the category of a node that needs an X display.
func desktopMark(s *scripts.Spec) string {
	switch {
	case s.Desktop:
		return " (X display)"
	case s.DesktopWhen != "":
		return " (X display when " + s.DesktopWhen + ")"
	}
	return ""
}
