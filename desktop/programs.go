package desktop

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jezek/xgb/xproto"
)

// Program is a program started on the display. Its process leads its own process group, so
// Stop ends it with the children it started (a browser's renderers, a shell's commands).
type Program struct {
	Path     string
	Args     []string
	PID      int
	KeepOpen bool

	cmd  *exec.Cmd
	done chan struct{}
	err  error // the exit status, once done is closed
	out  *tailBuffer
}

// Window is a top-level window on the display.
type Window struct {
	ID                  uint32
	X, Y, Width, Height int
}

// Start starts path with args on the display (DISPLAY set to it). keepOpen programs outlive
// the run; the others are stopped when the session is released. A program that cannot start
// (not found, not executable) is an error here; one that exits at once shows in WaitWindow.
func (s *Session) Start(path string, args []string, keepOpen bool) (*Program, error) {
	cmd := exec.Command(path, args...)
	cmd.Env = append(os.Environ(), "DISPLAY="+s.Name())
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out := &tailBuffer{max: 4 << 10}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", path, err)
	}
	p := &Program{Path: path, Args: args, PID: cmd.Process.Pid, KeepOpen: keepOpen, cmd: cmd, done: make(chan struct{}), out: out}
	go func() { p.err = cmd.Wait(); close(p.done) }()
	s.mu.Lock()
	s.programs = append(s.programs, p)
	s.mu.Unlock()
	return p, nil
}

// Exited reports whether the program has ended, and how.
func (p *Program) Exited() (bool, error) {
	select {
	case <-p.done:
		return true, p.err
	default:
		return false, nil
	}
}

// Output is the last few KB the program wrote to stdout and stderr.
func (p *Program) Output() string { return p.out.String() }

// Stop ends the program's process group: SIGTERM, then SIGKILL after grace. It returns once
// the program has exited.
func (p *Program) Stop(grace time.Duration) {
	if done, _ := p.Exited(); done {
		_ = syscall.Kill(-p.PID, syscall.SIGKILL) // children it left behind
		return
	}
	_ = syscall.Kill(-p.PID, syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(grace):
		_ = syscall.Kill(-p.PID, syscall.SIGKILL)
		<-p.done
	}
	_ = syscall.Kill(-p.PID, syscall.SIGKILL)
}

// Windows lists the mapped top-level windows (without a window manager these are the root's
// children; with one, its frames, whose client windows carry the same properties).
func (d *Display) Windows(ctx context.Context) ([]Window, error) {
	tree, err := xproto.QueryTree(d.conn, d.root).Reply()
	if err != nil {
		return nil, fmt.Errorf("list windows: %w", err)
	}
	var out []Window
	for _, w := range tree.Children {
		attr, err := xproto.GetWindowAttributes(d.conn, w).Reply()
		if err != nil || attr.MapState != xproto.MapStateViewable || attr.OverrideRedirect {
			continue
		}
		g, err := xproto.GetGeometry(d.conn, xproto.Drawable(w)).Reply()
		if err != nil || g.Width <= 1 || g.Height <= 1 {
			continue
		}
		out = append(out, Window{ID: uint32(w), X: int(g.X), Y: int(g.Y), Width: int(g.Width), Height: int(g.Height)})
	}
	return out, nil
}

// windowPID reads a window's _NET_WM_PID (0 when it has none).
func (d *Display) windowPID(w uint32) int {
	atom, err := xproto.InternAtom(d.conn, true, uint16(len("_NET_WM_PID")), "_NET_WM_PID").Reply()
	if err != nil || atom.Atom == 0 {
		return 0
	}
	prop, err := xproto.GetProperty(d.conn, false, xproto.Window(w), atom.Atom, xproto.AtomCardinal, 0, 1).Reply()
	if err != nil || len(prop.Value) < 4 {
		return 0
	}
	v := prop.Value
	return int(uint32(v[0]) | uint32(v[1])<<8 | uint32(v[2])<<16 | uint32(v[3])<<24)
}

// ErrExited is returned by WaitWindow when the program ended before it showed a window.
var ErrExited = errors.New("the program exited")

// WaitWindow waits until p shows a window: one whose _NET_WM_PID is p's (or a child's), or
// else a top-level window that was not there before (programs that set no pid). before lists
// the windows that existed when p started.
func (s *Session) WaitWindow(ctx context.Context, p *Program, before []Window) (Window, error) {
	known := map[uint32]bool{}
	for _, w := range before {
		known[w.ID] = true
	}
	for {
		wins, err := s.Windows(ctx)
		if err != nil {
			return Window{}, err
		}
		var fresh *Window
		for i, w := range wins {
			if pid := s.windowPID(w.ID); pid != 0 && (pid == p.PID || inGroup(pid, p.PID)) {
				return w, nil
			}
			if !known[w.ID] && fresh == nil {
				fresh = &wins[i]
			}
		}
		if fresh != nil {
			return *fresh, nil
		}
		if done, err := p.Exited(); done {
			return Window{}, fmt.Errorf("%w (%v) before it showed a window: %s", ErrExited, err, strings.TrimSpace(p.Output()))
		}
		select {
		case <-ctx.Done():
			return Window{}, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// inGroup reports whether pid is in the process group pgid (a program's child drew the window).
func inGroup(pid, pgid int) bool {
	g, err := syscall.Getpgid(pid)
	return err == nil && g == pgid
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   bytes.Buffer
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b.Write(p)
	if over := t.b.Len() - t.max; over > 0 {
		t.b.Next(over)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.b.String()
}
