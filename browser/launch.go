// Package browser owns rodeo's Chrome processes: finding a system Chrome (never downloading one),
// launching it with flags that work headless on a closed network, and the warm pool of isolated
// contexts that runs lease. A browser's life belongs to the pool, never to a request's context.
package browser

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/launcher"
	"github.com/rodeo-run/rodeo/errs"
)

// candidates are the executables looked up on PATH, in order, when RODEO_CHROME is not set.
var candidates = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// FindChrome returns the Chrome executable to launch: $RODEO_CHROME when set, else the first of
// chromium, chromium-browser, google-chrome on PATH. It never downloads a browser.
func FindChrome() (string, error) {
	if p := os.Getenv("RODEO_CHROME"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", errs.E(errs.BrowserUnavailable, "RODEO_CHROME=%s: %w", p, err)
		}
		return p, nil
	}
	for _, name := range candidates {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errs.E(errs.BrowserUnavailable,
		"no Chrome found: install Debian's chromium (apt-get install chromium), or set RODEO_CHROME to a Chrome executable, or RODEO_CHROME_URL to a DevTools websocket URL")
}

// LaunchOptions tune one Chrome process.
type LaunchOptions struct {
	// Bin is the executable. Optional. Default: FindChrome().
	Bin string
	// Headful shows a window (under Xvfb for desktop work). Optional. Default: headless.
	Headful bool
	// Flags are extra command-line switches, name without dashes -> value ("" for none).
	// Tests use host-resolver-rules to keep Chrome off the network entirely.
	Flags map[string]string
	// UserAgent overrides the user agent (stealth: drops "HeadlessChrome"). Optional.
	UserAgent string
}

// Process is a launched Chrome with its connection, or a connection to a remote Chrome.
type Process struct {
	Browser *rod.Browser
	l       *launcher.Launcher
	dir     string
	ws      *cdp.WebSocket // remote only: the connection Close drops
}

// PID is the browser process id (0 for a remote browser).
func (p *Process) PID() int {
	if p.l == nil {
		return 0
	}
	return p.l.PID()
}

// Close ends a launched Chrome and removes its profile directory; for a remote browser it only
// drops the connection, since the remote Chrome may serve others. A launched Chrome is killed with
// its whole process group (renderers, zygote, GPU process) at once: its profile is a throwaway, so
// there is nothing a graceful exit would save, and unlike rod's launcher.Kill nothing sleeps.
// Close returns once the process has exited.
func (p *Process) Close() {
	sd := "" // read before Cleanup removes the profile that links to it
	if p.dir != "" {
		sd = socketDir(p.dir)
	}
	p.kill()
	if p.l != nil {
		p.l.Cleanup() // waits for the exit, removes the user data dir
	}
	if sd != "" {
		_ = os.RemoveAll(sd)
	}
	if p.dir != "" {
		_ = removeProfile(p.dir)
	}
}

// kill ends the process group of a launched Chrome, or closes the connection to a remote one,
// without waiting.
func (p *Process) kill() {
	if p.ws != nil {
		_ = p.ws.Close()
	}
	if p.l == nil {
		return
	}
	if pid := p.l.PID(); pid > 0 {
		// Chrome leads its own process group (rod and leakless both set Setpgid).
		_ = syscall.Kill(-pid, syscall.SIGKILL)
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// exited blocks until a launched Chrome's process has exited (it returns at once for a remote
// browser).
func (p *Process) exited() {
	if p.l != nil {
		p.l.Cleanup()
	}
}

// Launch starts a Chrome process with a fresh profile (removed by Close with Chrome's other
// files, see removeProfile) and connects to it. The ctx bounds only the start-up; the
// process lives until Close.
func Launch(ctx context.Context, o LaunchOptions) (*Process, error) {
	bin := o.Bin
	if bin == "" {
		var err error
		if bin, err = FindChrome(); err != nil {
			return nil, err
		}
	}
	dir, err := newProfileDir()
	if err != nil {
		return nil, fmt.Errorf("profile dir: %w", err)
	}
	l := launcher.New().Context(ctx).Bin(bin).
		UserDataDir(filepath.Join(dir, "profile")).
		NoSandbox(os.Geteuid() == 0).
		Headless(!o.Headful).
		Set("disable-gpu").
		Set("disable-quic").
		Set("no-first-run").
		Set("disable-background-networking").
		Set("disable-component-update").
		Set("disable-sync").
		Set("disable-extensions").
		Set("disable-blink-features", "AutomationControlled").
		Set("mute-audio")
	if o.UserAgent != "" {
		l = l.Set("user-agent", o.UserAgent)
	}
	for k, v := range o.Flags {
		if v == "" {
			l = l.Set(flagName(k))
		} else {
			l = l.Set(flagName(k), v)
		}
	}
	u, err := l.Launch()
	if err != nil {
		_ = removeProfile(dir)
		return nil, errs.E(errs.BrowserUnavailable, "launch %s: %w", bin, err)
	}
	// The launcher's context bounded the start; the process must outlive it.
	b := rod.New().ControlURL(u).NoDefaultDevice()
	if err := b.Connect(); err != nil {
		l.Kill()
		_ = removeProfile(dir)
		return nil, errs.E(errs.BrowserUnavailable, "connect to %s: %w", bin, err)
	}
	return &Process{Browser: b, l: l, dir: dir}, nil
}

// Connect attaches to a remote browser by its DevTools websocket URL (RODEO_CHROME_URL). An
// http:// address or a bare port is resolved to the websocket URL through /json/version. The ctx
// bounds only the connection set-up.
func Connect(ctx context.Context, url string) (*Process, error) {
	u := url
	if !strings.HasPrefix(u, "ws://") && !strings.HasPrefix(u, "wss://") {
		var err error
		if u, err = launcher.ResolveURL(u); err != nil {
			return nil, errs.E(errs.BrowserUnavailable, "resolve %s: %w", url, err)
		}
	}
	ws := &cdp.WebSocket{}
	if err := ws.Connect(ctx, u, nil); err != nil {
		return nil, errs.E(errs.BrowserUnavailable, "connect to %s: %w", url, err)
	}
	// The browser's own context must stay Background (rod ties its event stream to it), so ctx
	// bounds the set-up by dropping the connection instead.
	stop := context.AfterFunc(ctx, func() { _ = ws.Close() })
	b := rod.New().Client(cdp.New().Start(ws)).NoDefaultDevice()
	err := b.Connect()
	if !stop() && err == nil {
		err = ctx.Err()
	}
	if err != nil {
		_ = ws.Close()
		return nil, errs.E(errs.BrowserUnavailable, "connect to %s: %w", url, err)
	}
	return &Process{Browser: b, ws: ws}, nil
}
