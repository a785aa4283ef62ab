// Package desktoptest gives tests a real X server: an Xvfb on a free display, started by the
// test and stopped when it ends, and a headful Chromium in kiosk mode on that display showing a
// local page, as the application the desktop nodes act on. Kiosk mode has no frame, tab strip
// or info bar, so the page's coordinates are the screen's.
package desktoptest

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/launcher/flags"
	"github.com/rodeo-run/rodeo/browser"
	"github.com/rodeo-run/rodeo/browser/browsertest"
)

// Screen size of the test display.
const (
	Width  = 1280
	Height = 800
)

// Xvfb starts an X server on a free display (Xvfb picks it: -displayfd) and returns its name
// (":93"); the server is stopped when tb ends.
func Xvfb(tb testing.TB) string {
	tb.Helper()
	name, stop, err := StartXvfb()
	if err != nil {
		tb.Fatalf("%v (the Makefile's deps target installs Debian's xvfb)", err)
	}
	tb.Cleanup(stop)
	return name
}

// StartXvfb starts an X server on a free display and returns its name and a stop function
// (for a TestMain that shares one server).
func StartXvfb() (string, func(), error) {
	bin, err := exec.LookPath("Xvfb")
	if err != nil {
		return "", nil, fmt.Errorf("no Xvfb: %w", err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		return "", nil, err
	}
	defer r.Close()
	cmd := exec.Command(bin, "-displayfd", "3", "-screen", "0", fmt.Sprintf("%dx%dx24", Width, Height), "-nolisten", "tcp", "+xinerama")
	cmd.ExtraFiles = []*os.File{w}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		w.Close()
		return "", nil, fmt.Errorf("start Xvfb: %w", err)
	}
	w.Close()
	stop := func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}
	got := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(r).ReadString('\n')
		got <- strings.TrimSpace(line)
	}()
	select {
	case n := <-got:
		if n == "" {
			stop()
			return "", nil, fmt.Errorf("Xvfb exited without naming its display")
		}
		return ":" + n, stop, nil
	case <-time.After(10 * time.Second):
		stop()
		return "", nil, fmt.Errorf("Xvfb did not start within 10s")
	}
}

// App is a headful Chromium in kiosk mode on a display, connected over CDP so that a test can
// load its pages and read what they recorded.
type App struct {
	Browser *rod.Browser
	Page    *rod.Page
	l       *launcher.Launcher
	dir     string
}

// Chromium starts a headful Chromium on display showing url in kiosk mode (the whole screen,
// no frame) and stops it when tb ends.
func Chromium(tb testing.TB, display, url string) *App {
	tb.Helper()
	a, err := StartChromium(display, url)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(a.Close)
	return a
}

// StartChromium is Chromium for a TestMain that shares one: the caller calls Close.
func StartChromium(display, url string) (*App, error) {
	bin, err := browser.FindChrome()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "rodeo-desktoptest-")
	if err != nil {
		return nil, err
	}
	l := launcher.New().Bin(bin).Headless(false).NoSandbox(true).
		Env(append(os.Environ(), "DISPLAY="+display)...).
		UserDataDir(filepath.Join(dir, "profile")).
		Delete("no-startup-window").Delete("enable-automation").
		Set("test-type").Set("kiosk").Set("no-first-run").Set("disable-gpu").
		Set("disable-background-networking").Set("disable-component-update").Set("disable-sync").
		Set("disable-features", "Translate,MediaRouter").Set("password-store", "basic").
		Set("window-position", "0,0").Set("window-size", fmt.Sprintf("%d,%d", Width, Height))
	for k, v := range browsertest.OfflineFlags {
		l = l.Set(flags.Flag(k), v)
	}
	u, err := l.Context(context.Background()).Launch()
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("launch headful chromium on %s: %w", display, err)
	}
	b := rod.New().ControlURL(u).NoDefaultDevice()
	if err := b.Connect(); err != nil {
		l.Kill()
		os.RemoveAll(dir)
		return nil, fmt.Errorf("connect: %w", err)
	}
	a := &App{Browser: b, l: l, dir: dir}
	pages, err := b.Pages()
	if err != nil || len(pages) == 0 {
		a.Close()
		return nil, fmt.Errorf("chromium shows no page: %v", err)
	}
	a.Page = pages.First()
	if err := a.load(url); err != nil {
		a.Close()
		return nil, err
	}
	return a, nil
}

// Load navigates the app's page to url and waits until it is loaded and painted.
func (a *App) Load(tb testing.TB, url string) {
	tb.Helper()
	if err := a.load(url); err != nil {
		tb.Fatal(err)
	}
}

func (a *App) load(url string) error {
	if err := a.Page.Navigate(url); err != nil {
		return fmt.Errorf("navigate %s: %w", url, err)
	}
	if err := a.Page.WaitLoad(); err != nil {
		return fmt.Errorf("load %s: %w", url, err)
	}
	// Two animation frames: the page is on screen, not only in the DOM.
	if _, err := a.Page.Eval(`() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r())))`); err != nil {
		return fmt.Errorf("paint %s: %w", url, err)
	}
	return nil
}

var closeMu sync.Mutex

// Close stops the Chromium and removes its profile.
func (a *App) Close() {
	closeMu.Lock()
	defer closeMu.Unlock()
	_ = a.Browser.Close()
	if pid := a.l.PID(); pid > 0 {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	a.l.Cleanup()
	os.RemoveAll(a.dir)
}
