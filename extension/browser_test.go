package extension_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/proto"
	"github.com/rodeo-run/rodeo/browser"
	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/extension"
	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/store"
)

// chromeWithExtension launches Debian's Chromium in the new headless mode (not incognito) with
// the unpacked extension of this folder, and returns the browser, its extension id and a
// function that kills it at once.
func chromeWithExtension(t *testing.T) (*rod.Browser, string, func()) {
	t.Helper()
	if testing.Short() {
		t.Skip("browser test")
	}
	bin, err := browser.FindChrome()
	if err != nil {
		t.Fatalf("%v (`make test` installs Debian's chromium)", err)
	}
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	l := launcher.New().Bin(bin).NoSandbox(os.Geteuid() == 0).UserDataDir(t.TempDir()).
		Set("headless", "new").
		Delete("no-startup-window"). // like a user's browser: it has a window for the run tabs
		Set("load-extension", dir).
		Set("disable-extensions-except", dir).
		Set("disable-gpu").
		Set("host-resolver-rules", "MAP * ~NOTFOUND , EXCLUDE localhost,EXCLUDE 127.0.0.1")
	u, err := l.Launch()
	if err != nil {
		t.Fatalf("launch chromium: %v", err)
	}
	kill := func() {
		if pid := l.PID(); pid > 0 {
			_ = syscall.Kill(-pid, syscall.SIGKILL)
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		l.Cleanup()
	}
	t.Cleanup(kill)
	b := rod.New().ControlURL(u).NoDefaultDevice()
	if err := b.Connect(); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile("manifest.json")
	key := string(raw)
	key = key[strings.Index(key, `"key": "`)+8:]
	id := extensionID(t, key[:strings.Index(key, `"`)])
	// The service worker starts by itself; its URL proves the id the manifest key pins.
	want := "chrome-extension://" + id + "/background.js"
	deadline := time.Now().Add(10 * time.Second)
	for {
		ts, err := proto.TargetGetTargets{}.Call(b)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, ti := range ts.TargetInfos {
			found = found || (ti.Type == proto.TargetTargetInfoTypeServiceWorker && ti.URL == want)
		}
		if found {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no service worker %s among %d targets", want, len(ts.TargetInfos))
		}
		time.Sleep(50 * time.Millisecond)
	}
	return b, id, kill
}

// configure sets the server URL and the key on the extension's options page, like a user, and
// waits until the page shows a status matching want.
func configure(t *testing.T, b *rod.Browser, id, server, key, want string) {
	t.Helper()
	p, err := b.Page(proto.TargetCreateTarget{URL: "chrome-extension://" + id + "/options.html"})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	page := p
	p = p.Timeout(10 * time.Second)
	if err := p.WaitLoad(); err != nil {
		t.Fatal(err)
	}
	p.MustElement("#settings[data-loaded]") // the stored settings are in the fields
	p.MustElement("#server").MustSelectAllText().MustInput(server)
	p.MustElement("#key").MustSelectAllText().MustInput(key)
	p.MustElement("#save").MustClick()
	p.MustElementR("#saved", "saved")
	if _, err := p.ElementR("#status", want); err != nil {
		t.Fatalf("the options page shows %q, want %q: %v", page.MustElement("#status").MustText(), want, err)
	}
}

// pageWith returns the browser's tab whose URL contains part, or nil.
func pageWith(t *testing.T, b *rod.Browser, part string) *rod.Page {
	t.Helper()
	ts, err := proto.TargetGetTargets{}.Call(b)
	if err != nil {
		t.Fatal(err)
	}
	for _, ti := range ts.TargetInfos {
		if ti.Type == proto.TargetTargetInfoTypePage && strings.Contains(ti.URL, part) {
			p, err := b.PageFromTarget(ti.TargetID)
			if err != nil {
				// The tab closed between the listing and the attach: it is not there.
				var ce *cdp.Error
				if errors.As(err, &ce) && ce.Code == -32602 {
					continue
				}
				t.Fatal(err)
			}
			return p
		}
	}
	return nil
}

// formScript fills the fixture form by English descriptions and scrapes the confirmation.
var formScript = []string{
	`{"type":"click","target":"the email field"}`,
	`{"type":"keypress","prompt":"{{data}}"}`,
	`{"type":"click","target":"the button that says Submit"}`,
	`{"type":"semanticScrape","target":"the confirmation message","data":"confirmation"}`,
}

// waitLostCode waits for a run that lost its extension or tab to end, and for its stored error
// to carry the extension's own code. The runner reports any lost browser as browser_crashed; the hub corrects the
// stored document right after the engine stored it, so a reader may see browser_crashed for a
// moment (see docs/extension.md).
func waitLostCode(t *testing.T, f *fixture, id string) scripts.Doc {
	t.Helper()
	return f.waitRun(t, id, 10*time.Second, func(d scripts.Doc) bool {
		return final(d) && (d.Error == nil || d.Error.Code != errs.BrowserCrashed)
	})
}

// checkVerified fails unless the run succeeded with every step ok and verified.
func checkVerified(t *testing.T, d scripts.Doc, steps int) {
	t.Helper()
	if d.Status != scripts.StatusSucceeded || d.Source != extension.Source || len(d.Steps) != steps {
		t.Fatalf("run %s: status %s, source %q, %d steps (want %d), error %+v", d.RunID, d.Status, d.Source, len(d.Steps), steps, d.Error)
	}
	for _, s := range d.Steps {
		if s.Status != scripts.StepOK || (s.Type != "delay" && (s.Verification == nil || !s.Verification.Passed)) {
			t.Fatalf("step %d %s: %s, verification %+v, error %+v", s.Index, s.Type, s.Status, s.Verification, s.Error)
		}
	}
}

// TestExtension_RealChrome runs triggered scripts in the real extension in a real Chromium:
// a run queued before the extension connects, a run at a start URL, a background run, and a
// run whose browser dies mid-run.
func TestExtension_RealChrome(t *testing.T) {
	site := httptest.NewServer(http.FileServer(http.Dir("../testdata/site")))
	defer site.Close()
	f := newFixture(t, time.Minute)
	f.save(t, "signup", "sign up to the newsletter", formScript...)
	bg := append([]string{`{"type":"open tab","target":"` + site.URL + `/form.html?bg={{data}}"}`}, formScript...)
	f.save(t, "signup-bg", "sign up in the background", bg...)
	f.save(t, "slow", "open the form and wait",
		`{"type":"open tab","target":"`+site.URL+`/form.html?slow=1"}`, `{"type":"delay","time":30}`)
	f.save(t, "wait", "wait on the start page", `{"type":"delay","time":30}`)

	// Queued first: no extension is connected yet.
	queued := decode[accepted](t, f.trigger(t, "", "", "signup-bg", "late@example.com"))
	if d := f.run(t, queued.RunID); d.Status != scripts.StatusQueued {
		t.Fatalf("before any extension: %+v", d)
	}

	b, id, kill := chromeWithExtension(t)
	t.Run("a wrong key is refused, and the options page says so", func(t *testing.T) {
		configure(t, b, id, f.base, "rk_wrong", "status: refused — invalid or revoked API key")
		if n := f.hub.Connected(store.DefaultAccount); n != 0 {
			t.Fatalf("%d connections with a wrong key", n)
		}
	})
	// The right key: the extension reconnects on the settings change.
	configure(t, b, id, f.base, f.key, "status: connected")

	t.Run("queued run delivered when the extension connects", func(t *testing.T) {
		d := f.waitRun(t, queued.RunID, 30*time.Second, final)
		checkVerified(t, d, 5)
		if got := d.Data["confirmation"]; got != "Thanks! We sent a confirmation to late@example.com." {
			t.Fatalf("confirmation %q", got)
		}
		if f.hub.Connected(store.DefaultAccount) != 1 {
			t.Fatal("the extension is not connected")
		}
	})

	t.Run("reconnects after the server drops the connection", func(t *testing.T) {
		f.hub.DropConnections(store.DefaultAccount)
		dropped := time.Now()
		if n := f.hub.Connected(store.DefaultAccount); n != 0 {
			t.Fatalf("%d connections right after the drop", n)
		}
		for f.hub.Connected(store.DefaultAccount) != 1 {
			if time.Since(dropped) > 5*time.Second {
				t.Fatal("the extension did not reconnect within 5s")
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Logf("reconnected after %s", time.Since(dropped).Round(time.Millisecond))
	})

	t.Run("start URL: runs in a new tab that stays open", func(t *testing.T) {
		r := f.trigger(t, "?wait=true", site.URL+"/form.html?fg=1", "signup", "ada@example.com")
		if r.status != 200 {
			t.Fatalf("trigger: %d %s", r.status, r.body)
		}
		t.Logf("run document: %s", r.body)
		d := decode[scripts.Doc](t, r)
		checkVerified(t, d, 5) // the start URL's "open tab", then the script's four nodes
		if got := d.Data["confirmation"]; got != "Thanks! We sent a confirmation to ada@example.com." {
			t.Fatalf("confirmation %q", got)
		}
		if d.Script == nil || d.Script.Name != "signup" || d.Script.Version != 1 || d.Steps[0].Type != "open tab" {
			t.Fatalf("script %+v, first step %s", d.Script, d.Steps[0].Type)
		}
		if d.Steps[1].Detail["resolved"] == nil {
			t.Fatalf("click step has no resolution detail: %+v", d.Steps[0].Detail)
		}
		// The user's tab was really acted on, and the stored document is the complete one.
		p := pageWith(t, b, "form.html?fg=1")
		if p == nil {
			t.Fatal("the start tab is gone")
		}
		text := p.MustEval(`() => document.getElementById('email').value + '|' + document.getElementById('confirmation').textContent`).Str()
		if text != "ada@example.com|Thanks! We sent a confirmation to ada@example.com." {
			t.Fatalf("the tab shows %q", text)
		}
		stored := f.run(t, d.RunID)
		if len(stored.Steps) != 5 || stored.Status != scripts.StatusSucceeded {
			t.Fatalf("stored document: %+v", stored)
		}
	})

	t.Run("blank start: a background tab, closed afterwards", func(t *testing.T) {
		r := f.trigger(t, "?wait=true", "", "signup-bg", "bob@example.com")
		d := decode[scripts.Doc](t, r)
		checkVerified(t, d, 5)
		if got := d.Data["confirmation"]; got != "Thanks! We sent a confirmation to bob@example.com." {
			t.Fatalf("confirmation %q", got)
		}
		deadline := time.Now().Add(5 * time.Second)
		for pageWith(t, b, "bg=bob") != nil {
			if time.Now().After(deadline) {
				t.Fatal("the background tab was not closed after the run")
			}
			time.Sleep(50 * time.Millisecond)
		}
	})

	t.Run("run tab closed mid-run: the run fails cleanly", func(t *testing.T) {
		a := decode[accepted](t, f.trigger(t, "", site.URL+"/form.html?slow=2", "wait", ""))
		f.waitRun(t, a.RunID, 20*time.Second, func(d scripts.Doc) bool { return len(d.Steps) >= 1 || final(d) })
		p := pageWith(t, b, "slow=2")
		if p == nil {
			t.Fatal("no run tab")
		}
		if err := p.Close(); err != nil {
			t.Fatal(err)
		}
		d := waitLostCode(t, f, a.RunID)
		if d.Status != scripts.StatusFailed || d.Error == nil || d.Error.Code != extension.CodeTabClosed {
			t.Fatalf("run after its tab closed: %s %+v", d.Status, d.Error)
		}
		if f.hub.Connected(store.DefaultAccount) != 1 {
			t.Fatal("closing a run tab dropped the connection")
		}
	})

	t.Run("browser killed mid-run: the run fails cleanly", func(t *testing.T) {
		a := decode[accepted](t, f.trigger(t, "", "", "slow", ""))
		f.waitRun(t, a.RunID, 20*time.Second, func(d scripts.Doc) bool { return len(d.Steps) >= 1 || final(d) })
		killed := time.Now()
		kill()
		d := waitLostCode(t, f, a.RunID)
		if d.Status != scripts.StatusFailed || d.Error == nil || d.Error.Code != extension.CodeDisconnected {
			t.Fatalf("run after the browser died: %s %+v", d.Status, d.Error)
		}
		if len(d.Steps) != 2 || d.Steps[0].Status != scripts.StepOK || d.Steps[1].Error == nil || d.Steps[1].Error.Code != extension.CodeDisconnected {
			t.Fatalf("steps: %+v", d.Steps)
		}
		took := time.Since(killed)
		if took > 5*time.Second {
			t.Fatalf("the run took %s to notice", took)
		}
		t.Logf("failed %s after the kill", took.Round(time.Millisecond))
		if f.hub.Connected(store.DefaultAccount) != 0 {
			t.Fatal("the hub still counts the dead extension")
		}
	})
}
