package desktop

import (
	"context"
	"sync"
	"time"

	"github.com/rodeo-run/rodeo/errs"
)

// stopGrace is how long a program has to exit on SIGTERM at the end of a run before SIGKILL.
const stopGrace = 3 * time.Second

// Manager hands out the desktop of one display, one run at a time: a display has one pointer
// and one keyboard focus, so two runs driving it at once would click into each other's work.
type Manager struct {
	display string
	slot    chan struct{}
}

// NewManager returns the manager of display (empty: $DISPLAY, read now).
func NewManager(display string) *Manager {
	return &Manager{display: DisplayName(display), slot: make(chan struct{}, 1)}
}

// Display names the managed display ("" when none is configured).
func (m *Manager) Display() string { return m.display }

// Lease waits until no other run holds the display (or ctx ends), connects to it and returns
// the run's session. No display is desktop_unavailable at once, without waiting.
func (m *Manager) Lease(ctx context.Context) (*Session, error) {
	if m == nil || m.display == "" {
		return nil, errs.E(errs.DesktopUnavailable, "this server has no X display: start it with DISPLAY or --display set (e.g. Xvfb :99 and --display :99) to run desktop nodes")
	}
	select {
	case m.slot <- struct{}{}:
	case <-ctx.Done():
		return nil, errs.E(errs.Busy, "the desktop %s stayed in use by another run: %v", m.display, ctx.Err())
	}
	d, err := Open(m.display)
	if err != nil {
		<-m.slot
		return nil, err
	}
	return &Session{Display: d, free: func() { <-m.slot }}, nil
}

// Session is one run's hold on a display: its input, its screen and the programs it started.
type Session struct {
	*Display
	mu       sync.Mutex
	programs []*Program
	free     func()
	once     sync.Once
}

// Release stops the programs the run started (except keep_open ones), closes the connection
// and frees the display for the next run. Safe to call more than once.
func (s *Session) Release() {
	s.once.Do(func() {
		s.mu.Lock()
		progs := s.programs
		s.programs = nil
		s.mu.Unlock()
		var wg sync.WaitGroup
		for _, p := range progs {
			if p.KeepOpen {
				continue
			}
			wg.Add(1)
			go func() { defer wg.Done(); p.Stop(stopGrace) }()
		}
		wg.Wait()
		s.Display.Close()
		if s.free != nil {
			s.free()
		}
	})
}
