package nodes_test

import (
	"context"
	"encoding/json"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/desktop"
	"github.com/rodeo-run/rodeo/desktop/desktoptest"
	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
)

// desk is the test binary's X server with the desktop test page in a kiosk Chromium (the
// application the desktop nodes act on), started by the first desktop test.
var desk struct {
	once    sync.Once
	display string
	url     string
	app     *desktoptest.App
	mgr     *desktop.Manager
	stop    []func()
	err     error
}

func stopDesktop() {
	for i := len(desk.stop) - 1; i >= 0; i-- {
		desk.stop[i]()
	}
}

// desktopApp loads the desktop test page afresh on the shared display.
func desktopApp(t *testing.T) *desktoptest.App {
	t.Helper()
	if testing.Short() {
		t.Skip("desktop test: starts Xvfb and Chromium; skipped with -short")
	}
	desk.once.Do(func() {
		display, stop, err := desktoptest.StartXvfb()
		if desk.err = err; err != nil {
			return
		}
		desk.stop = append(desk.stop, stop)
		srv := httptest.NewServer(http.FileServer(http.Dir("testdata")))
		desk.stop = append(desk.stop, srv.Close)
		desk.display, desk.url, desk.mgr = display, srv.URL+"/desktop_app.html", desktop.NewManager(display)
		desk.app, desk.err = desktoptest.StartChromium(display, desk.url)
		if desk.err == nil {
			desk.stop = append(desk.stop, desk.app.Close)
		}
	})
	if desk.err != nil {
		t.Fatal(desk.err)
	}
	desk.app.Load(t, desk.url)
	return desk.app
}

// runDesktop compiles and runs nodes with the shared display as the run's desktop.
func runDesktop(t *testing.T, nodes string, svc *scripts.Services) scripts.Doc {
	t.Helper()
	var raw []json.RawMessage
	if err := json.Unmarshal([]byte(nodes), &raw); err != nil {
		t.Fatalf("test JSON: %v", err)
	}
	s, err := scripts.DefaultRegistry.Compile(t.Name(), raw, nil)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	if svc == nil {
		svc = &scripts.Services{CodeNodes: true, WorkDir: t.TempDir()}
	}
	runner := &scripts.Runner{Registry: scripts.DefaultRegistry, Services: svc}
	if desk.mgr != nil {
		runner.Desktops = scripts.DesktopLeaserFunc(func(ctx context.Context) (scripts.DesktopSession, error) {
			s, err := desk.mgr.Lease(ctx)
			if err != nil {
				return nil, err
			}
			return s, nil
		})
	}
	r := scripts.NewRun("r_"+strings.ReplaceAll(t.Name(), "/", "_"), "test", "test", s)
	runner.Execute(context.Background(), r, scripts.ExecOptions{Timeout: time.Minute})
	return r.Doc()
}

// pageHas waits until js is true in the test page.
func pageHas(t *testing.T, app *desktoptest.App, js string) bool {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		res, err := app.Page.Eval(js)
		if err != nil {
			t.Fatal(err)
		}
		if res.Value.Bool() {
			return true
		}
		time.Sleep(30 * time.Millisecond)
	}
	return false
}

func pageEvents(t *testing.T, app *desktoptest.App) string {
	res, err := app.Page.Eval(`() => events.join(' | ')`)
	if err != nil {
		t.Fatal(err)
	}
	return res.Value.String()
}

// The buttons of desktop_app.html: Press me at 100,100 (160x60), Right-click me at 300,100,
// Double-click me at 500,100; the field at 100,250; the red box at 100,400 (80x80).
func TestMagicClicker_DesktopClickTypes(t *testing.T) {
	cases := []struct {
		name, node, event string
	}{
		{"single left", `{"type":"magic_clicker","mode":"desktop","x":180,"y":130,"click_type":"Single Left Click"}`, "click"},
		{"click with browser_mode false", `{"type":"click","browser_mode":false,"x":180,"y":130}`, "click"},
		{"single right", `{"type":"Magic Clicker","mode":"Desktop","x":380,"y":130,"click_type":"Single Right Click"}`, "contextmenu"},
		{"double", `{"type":"magic_clicker","x":580,"y":130,"click_type":"Double Click"}`, "dblclick"},
		{"drag", `{"type":"magic_clicker","mode":"desktop","x":140,"y":440,"to_x":440,"to_y":540,"click_type":"Drag"}`, "dropped 400,500"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			app := desktopApp(t)
			d := runDesktop(t, "["+tc.node+"]", nil)
			if d.Status != scripts.StatusSucceeded || !hasCheck(d.Steps[0], "screen_changed") {
				t.Fatal(dump(d))
			}
			if !pageHas(t, app, `() => events.includes(`+jsString(tc.event)+`)`) {
				t.Fatalf("the page saw %q, want %q", pageEvents(t, app), tc.event)
			}
		})
	}
}

func jsString(s string) string { b, _ := json.Marshal(s); return string(b) }

func TestMagicClicker_LoopTotalRunsClicksEachTime(t *testing.T) {
	app := desktopApp(t)
	d := runDesktop(t, `[{"type":"magic_clicker","mode":"desktop","x":180,"y":130,"loop_total_runs":3}]`, nil)
	if d.Status != scripts.StatusSucceeded {
		t.Fatal(dump(d))
	}
	if !pageHas(t, app, `() => events.filter(e => e === 'click').length === 3`) {
		t.Fatalf("the page saw %q, want 3 clicks", pageEvents(t, app))
	}
}

func TestDesktopClick_EmptyAreaFailsVerification(t *testing.T) {
	app := desktopApp(t)
	d := runDesktop(t, `[{"type":"magic_clicker","mode":"desktop","x":300,"y":700}]`, nil)
	if d.Status != scripts.StatusFailed || stepErr(d, 0) != errs.VerificationFailed {
		t.Fatal(dump(d))
	}
	if ev := pageEvents(t, app); ev != "" {
		t.Fatalf("the page saw %q", ev)
	}
}

func TestDesktopNodes_InvalidConfig(t *testing.T) {
	cases := map[string]string{
		"click without coordinates":    `{"type":"click","browser_mode":false}`,
		"click with x only":            `{"type":"click","browser_mode":false,"x":3}`,
		"browser click without target": `{"type":"click"}`,
		"desktop drag without end":     `{"type":"magic_clicker","mode":"desktop","x":1,"y":2,"click_type":"Drag"}`,
		"unknown click type":           `{"type":"magic_clicker","x":1,"y":2,"click_type":"Triple Click"}`,
		"browser mode without target":  `{"type":"magic_clicker","mode":"browser"}`,
		"move_mouse without y":         `{"type":"move_mouse","x":1}`,
		"open_program without program": `{"type":"open_program"}`,
	}
	for name, node := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := scripts.DefaultRegistry.Compile("g", []json.RawMessage{json.RawMessage(node)}, nil)
			if !errs.Is(err, errs.InvalidConfig) {
				t.Fatalf("got %v, want invalid_config", err)
			}
		})
	}
}

func TestKeypress_DesktopTypesIntoTheFocusedField(t *testing.T) {
	app := desktopApp(t)
	const text = `Ada Lovelace <ada@example.com> #1: 50% & "more"!`
	d := runDesktop(t, `[
		{"type":"magic_clicker","mode":"desktop","x":300,"y":270},
		{"type":"keypress","browser_mode":false,"prompt":`+jsString(text)+`},
		{"type":"keypress","browser_mode":false,"prompt":"enter"}]`, nil)
	if d.Status != scripts.StatusSucceeded {
		t.Fatal(dump(d))
	}
	if !pageHas(t, app, `() => typed[0] === `+jsString(text)) {
		res, _ := app.Page.Eval(`() => document.getElementById('field').value`)
		t.Fatalf("field holds %q, events %q", res.Value.String(), pageEvents(t, app))
	}
}

func TestMoveMouse_PointerIsWhereItSaid(t *testing.T) {
	desktopApp(t)
	d := runDesktop(t, `[{"type":"Move Mouse","x":321,"y":123}]`, nil)
	if d.Status != scripts.StatusSucceeded || !hasCheck(d.Steps[0], "pointer_at") {
		t.Fatal(dump(d))
	}
}

func TestScroll_DesktopTurnsTheWheel(t *testing.T) {
	app := desktopApp(t)
	d := runDesktop(t, `[{"type":"move_mouse","x":600,"y":600},{"type":"scroll","browser_mode":false,"distance":300}]`, nil)
	if d.Status != scripts.StatusSucceeded {
		t.Fatal(dump(d))
	}
	if !pageHas(t, app, `() => window.scrollY > 0`) {
		t.Fatal("the page did not scroll")
	}
}

func TestScreenshot_DesktopIsAPNGOfTheScreen(t *testing.T) {
	desktopApp(t)
	work := t.TempDir()
	d := runDesktop(t, `[{"type":"screenshot","browser_mode":false,"location":"shots/screen"}]`, &scripts.Services{WorkDir: work})
	if d.Status != scripts.StatusSucceeded || !hasCheck(d.Steps[0], "screen_size") {
		t.Fatal(dump(d))
	}
	f, err := os.Open(d.Steps[0].Detail["path"].(string))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cfg, err := png.DecodeConfig(f)
	if err != nil || cfg.Width != desktoptest.Width || cfg.Height != desktoptest.Height {
		t.Fatalf("%+v %v", cfg, err)
	}
}

func TestOpenProgram_StartsAWindowAndTheRunClosesIt(t *testing.T) {
	desktopApp(t)
	bin := "/usr/bin/chromium"
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("no %s: %v", bin, err)
	}
	profile := filepath.Join(t.TempDir(), "profile")
	args, _ := json.Marshal([]string{"--user-data-dir=" + profile, "--no-sandbox", "--test-type", "--no-first-run",
		"--disable-gpu", "--window-position=200,200", "--window-size=400,300", "--app=" + desk.url})
	d := runDesktop(t, `[{"type":"open_program","program":"`+bin+`","arguments":`+string(args)+`}]`, nil)
	if d.Status != scripts.StatusSucceeded || !hasCheck(d.Steps[0], "window_shown") {
		t.Fatal(dump(d))
	}
	pid, _ := d.Steps[0].Detail["pid"].(int)
	if pid == 0 {
		t.Fatalf("no pid in %v", d.Steps[0].Detail)
	}
	// The run has ended: its program (and its process group) is gone.
	if err := syscall.Kill(pid, 0); err == nil {
		t.Fatalf("program %d still runs after the run ended", pid)
	}
}

func TestOpenProgram_ThatExitsAtOnceFails(t *testing.T) {
	desktopApp(t)
	d := runDesktop(t, `[{"type":"open_program","program":"false"}]`, nil)
	if d.Status != scripts.StatusFailed || stepErr(d, 0) != errs.NodeFailed {
		t.Fatal(dump(d))
	}
}

func TestDesktopNodes_NoDisplayIsUnavailable(t *testing.T) {
	raw := []json.RawMessage{json.RawMessage(`{"type":"move_mouse","x":1,"y":2}`)}
	s, err := scripts.DefaultRegistry.Compile("g", raw, nil)
	if err != nil {
		t.Fatal(err)
	}
	runner := &scripts.Runner{Registry: scripts.DefaultRegistry}
	r := scripts.NewRun("r_nodisplay", "test", "test", s)
	runner.Execute(context.Background(), r, scripts.ExecOptions{Timeout: time.Minute})
	if d := r.Doc(); stepErr(d, 0) != errs.DesktopUnavailable {
		t.Fatal(dump(d))
	}
}

// In browser mode each click type must reach its own handler: a left click on these buttons
// changes nothing, so only the right handler makes the step pass.
func TestMagicClicker_BrowserClickTypes(t *testing.T) {
	cases := []struct{ name, node string }{
		{"right click", `{"type":"magic_clicker","mode":"browser","target":"the Right-click me button","click_type":"Single Right Click"}`},
		{"double click", `{"type":"magic_clicker","target":"the Double-click me button","click_type":"Double Click"}`},
		{"click type on click", `{"type":"click","target":"the Double-click me button","click_type":"Double Click"}`},
		{"drag", `{"type":"magic_clicker","mode":"browser","target":"Card A","drop_target":"the Done column","click_type":"Drag"}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := run(t, `[{"type":"open tab","target":"BASE/desktop_app.html"},`+tc.node+`]`, nil)
			if d.Status != scripts.StatusSucceeded {
				t.Fatal(dump(d))
			}
		})
	}
	t.Run("a left click on the right-click button changes nothing", func(t *testing.T) {
		d := run(t, `[{"type":"open tab","target":"BASE/desktop_app.html"},{"type":"magic_clicker","target":"the Right-click me button"}]`, nil)
		if stepErr(d, 1) != errs.VerificationFailed {
			t.Fatal(dump(d))
		}
	})
}
