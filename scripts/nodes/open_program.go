package nodes

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/rodeo-run/rodeo/desktop"
	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
)

// openProgram starts a program on the X display (the studio's Start and Open Program nodes) and
// verifies that it showed a window within the node's time limit. The program is stopped when
// the run ends unless keep_open is set. Starting a program is running code, so it obeys the
// server's code-node switch (RODEO_CODE_NODES) as python and bash do.
type openProgram struct {
	program  string
	args     []string
	variable string
	keepOpen bool

	win    desktop.Window
	pid    int
	loaded bool
}

func init() {
	for _, k := range []struct{ kind, alias, prog, summary string }{
		{"start", "Start", "initial_program", "Start the run's initial program on the X display (e.g. a browser with a URL) and wait for its window."},
		{"open_program", "Open Program", "program", "Start a program on the X display and wait for its window; it is closed when the run ends unless keep_open."},
	} {
		progParam, kind := k.prog, k.kind
		params := []scripts.Param{
			{Name: progParam, Type: scripts.String, Required: true, Template: true,
				Description: "the executable: a path, or a name looked up on PATH", Example: "/usr/bin/chromium"},
			{Name: "arguments", Type: scripts.Any, Template: true,
				Description: "its arguments: an array of strings, or one string split at spaces (e.g. a URL)", Example: []string{"--app=http://127.0.0.1:8080/"}},
			{Name: "keep_open", Type: scripts.Bool, Default: false,
				Description: "leave the program running when the run ends", Example: true},
		}
		if kind == "open_program" {
			params = append(params, scripts.Param{Name: "automated_input", Type: scripts.String,
				Description: "Automated Input: a variable whose value is added as the last argument (a file or URL a trigger delivered)", Example: "data"})
		}
		scripts.Register(scripts.Spec{
			Kind: kind, Aliases: []string{k.alias}, Summary: k.summary, Category: "desktop", Desktop: true,
			Timeout: 30 * time.Second, Params: params,
			Examples: []map[string]any{{"type": kind, progParam: "/usr/bin/chromium", "arguments": []string{"--app=http://127.0.0.1:8080/"}}},
			Build:    func(p *scripts.Params) (scripts.Node, error) { return buildOpenProgram(p, progParam) },
		})
	}
}

func buildOpenProgram(p *scripts.Params, progParam string) (scripts.Node, error) {
	prog, err := p.String(progParam)
	if err != nil {
		return nil, err
	}
	if prog = strings.TrimSpace(prog); prog == "" {
		return nil, errInvalid("%s: give the program to start", progParam)
	}
	n := &openProgram{program: prog}
	if v, ok := p.Value("arguments"); ok {
		switch t := v.(type) {
		case string:
			n.args = strings.Fields(t)
		case []any:
			for _, a := range t {
				s, ok := a.(string)
				if !ok {
					return nil, errInvalid("arguments: every argument must be a string")
				}
				n.args = append(n.args, s)
			}
		default:
			return nil, errInvalid("arguments: an array of strings or one string")
		}
	}
	if n.keepOpen, err = p.Bool("keep_open"); err != nil {
		return nil, err
	}
	if p.Has("automated_input") {
		if n.variable, err = p.String("automated_input"); err != nil {
			return nil, err
		}
	}
	return n, nil
}

func (n *openProgram) Run(ctx context.Context, env *scripts.Env) error {
	if n.loaded {
		return nil // a retry waits on the same program instead of starting a second one
	}
	if !env.Services().CodeNodes {
		return errs.E(CodeDisabled, "starting programs is disabled on this server (code nodes are off: --code-nodes=false or RODEO_CODE_NODES=false)")
	}
	path, err := exec.LookPath(n.program)
	if err != nil {
		return errs.E(errs.InvalidConfig, "program %q: %v", n.program, errors.Unwrap(err))
	}
	args := n.args
	if n.variable != "" {
		v, ok := env.Vars.Get(n.variable)
		if !ok {
			return errs.E(errs.VariableNotSet, "automated_input: variable %s is not set", n.variable)
		}
		// One argument, never split or given to a shell: a trigger's data stays data.
		args = append(append([]string(nil), args...), scripts.Text(v))
	}
	s, err := desktopSession(ctx, env)
	if err != nil {
		return err
	}
	before, err := s.Windows(ctx)
	if err != nil {
		return err
	}
	prog, err := s.Start(path, args, n.keepOpen)
	if err != nil {
		return errs.E(errs.NodeFailed, "%v", err)
	}
	n.loaded, n.pid = true, prog.PID
	env.SetDetail("program", path)
	env.SetDetail("pid", prog.PID)
	env.SetDetail("keep_open", n.keepOpen)
	win, err := s.WaitWindow(ctx, prog, before)
	if err != nil {
		if errors.Is(err, desktop.ErrExited) {
			return errs.E(errs.NodeFailed, "%s: %v", n.program, err)
		}
		return err
	}
	n.win = win
	env.SetDetail("window", map[string]any{"id": fmt.Sprintf("%#x", win.ID), "x": win.X, "y": win.Y, "width": win.Width, "height": win.Height})
	return nil
}

func (n *openProgram) Verify(ctx context.Context, env *scripts.Env) ([]scripts.Check, error) {
	return []scripts.Check{{Name: "window_shown", Passed: n.win.ID != 0,
		Detail: fmt.Sprintf("window %#x %dx%d at %d,%d (pid %d)", n.win.ID, n.win.Width, n.win.Height, n.win.X, n.win.Y, n.pid)}}, nil
}

var _ scripts.Verifier = (*openProgram)(nil)
