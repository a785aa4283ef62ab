package desktop_test

import (
	"context"
	"image"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/desktop"
	"github.com/rodeo-run/rodeo/desktop/desktoptest"
	"github.com/rodeo-run/rodeo/errs"
)

// shared is the test binary's X server with the test page in a kiosk Chromium, started by the
// first test that needs it and stopped by TestMain.
var shared struct {
	once    sync.Once
	display string
	url     string
	app     *desktoptest.App
	stop    []func()
	err     error
}

func TestMain(m *testing.M) {
	code := m.Run()
	for i := len(shared.stop) - 1; i >= 0; i-- {
		shared.stop[i]()
	}
	os.Exit(code)
}

// app gives the test the shared display with the test page freshly loaded, and a session on it.
func app(t *testing.T) (*desktop.Session, *desktoptest.App) {
	t.Helper()
	if testing.Short() {
		t.Skip("starts Xvfb and Chromium")
	}
	shared.once.Do(func() {
		display, stop, err := desktoptest.StartXvfb()
		if shared.err = err; err != nil {
			return
		}
		shared.stop = append(shared.stop, stop)
		srv := httptest.NewServer(http.FileServer(http.Dir("testdata")))
		shared.stop = append(shared.stop, srv.Close)
		shared.display, shared.url = display, srv.URL+"/app.html"
		shared.app, shared.err = desktoptest.StartChromium(display, shared.url)
		if shared.err == nil {
			shared.stop = append(shared.stop, shared.app.Close)
		}
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	shared.app.Load(t, shared.url)
	s, err := desktop.NewManager(shared.display).Lease(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Release)
	return s, shared.app
}

func evalString(t *testing.T, a *desktoptest.App, js string) string {
	t.Helper()
	res, err := a.Page.Eval(js)
	if err != nil {
		t.Fatal(err)
	}
	return res.Value.String()
}

// waitFor polls the page until js is true.
func waitFor(t *testing.T, a *desktoptest.App, js string) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		if evalString(t, a, js) == "true" {
			return
		}
		time.Sleep(30 * time.Millisecond)
	}
	t.Fatalf("page never had %s; events: %s", js, evalString(t, a, `() => events.join(' ')`))
}

func TestDisplay_InputReachesTheApplication(t *testing.T) {
	s, a := app(t)
	ctx := context.Background()
	if w, h := s.Size(); w != desktoptest.Width || h != desktoptest.Height {
		t.Fatalf("screen %dx%d", w, h)
	}
	if err := s.Move(ctx, desktop.Point{X: 10, Y: 10}); err != nil {
		t.Fatal(err)
	}
	if p, err := s.Pointer(ctx); err != nil || p != (desktop.Point{X: 10, Y: 10}) {
		t.Fatalf("pointer at %v, %v", p, err)
	}
	waitFor(t, a, `() => window.offset === '0,0'`)

	if err := s.Click(ctx, desktop.Point{X: 180, Y: 130}, desktop.Left, 1); err != nil {
		t.Fatal(err)
	}
	waitFor(t, a, `() => events.includes('click')`)
	if err := s.Click(ctx, desktop.Point{X: 380, Y: 130}, desktop.Right, 1); err != nil {
		t.Fatal(err)
	}
	waitFor(t, a, `() => events.includes('contextmenu')`)
	if err := s.Click(ctx, desktop.Point{X: 580, Y: 130}, desktop.Left, 2); err != nil {
		t.Fatal(err)
	}
	waitFor(t, a, `() => events.includes('dblclick')`)
	if err := s.Drag(ctx, desktop.Point{X: 140, Y: 440}, desktop.Point{X: 440, Y: 540}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, a, `() => events.includes('dropped 400,500')`)

	if err := s.Click(ctx, desktop.Point{X: 300, Y: 270}, desktop.Left, 1); err != nil {
		t.Fatal(err)
	}
	const text = "Hello, World! ~@#$%^&*()_+{}|:\"<>? 1-2=3 [x];'/.,\\`"
	if err := s.Type(ctx, text+"\n"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, a, `() => events.includes('enter')`)
	if got := evalString(t, a, `() => typed[0]`); got != text {
		t.Errorf("typed %q, want %q", got, text)
	}
}

func TestDisplay_TypesCharactersTheKeymapLacks(t *testing.T) {
	s, a := app(t)
	ctx := context.Background()
	if err := s.Click(ctx, desktop.Point{X: 300, Y: 270}, desktop.Left, 1); err != nil {
		t.Fatal(err)
	}
	if err := s.Type(ctx, "café €5"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, a, `() => document.getElementById('field').value === 'café €5'`)
}

func TestDisplay_CaptureShowsTheScreen(t *testing.T) {
	s, _ := app(t)
	ctx := context.Background()
	img, err := s.Capture(ctx, image.Rectangle{})
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds().Dx() != desktoptest.Width || img.Bounds().Dy() != desktoptest.Height {
		t.Fatalf("capture is %v", img.Bounds())
	}
	// The box at 100,400 is #c33 red; the page around it white.
	if c := img.RGBAAt(140, 440); c.R < 0xb0 || c.G > 0x50 {
		t.Errorf("box pixel %v, want red", c)
	}
	if c := img.RGBAAt(50, 600); c.R != 0xff || c.G != 0xff || c.B != 0xff {
		t.Errorf("background pixel %v, want white", c)
	}
	part, err := s.Capture(ctx, image.Rect(90, 390, 190, 490))
	if err != nil || part.Bounds().Dx() != 100 {
		t.Fatalf("region: %v %v", part.Bounds(), err)
	}
	png, err := desktop.EncodePNG(img)
	if err != nil || !strings.HasPrefix(string(png), "\x89PNG") {
		t.Fatalf("png: %v", err)
	}
}

func TestManager_NoDisplayIsUnavailable(t *testing.T) {
	t.Setenv("DISPLAY", "")
	_, err := desktop.NewManager("").Lease(context.Background())
	if !errs.Is(err, errs.DesktopUnavailable) {
		t.Fatalf("got %v, want desktop_unavailable", err)
	}
	_, err = desktop.NewManager(":8471").Lease(context.Background())
	if !errs.Is(err, errs.DesktopUnavailable) {
		t.Fatalf("no server: got %v, want desktop_unavailable", err)
	}
}

func TestManager_OneRunAtATimePerDisplay(t *testing.T) {
	s, _ := app(t) // starts the shared display; this test leases it through a manager of its own
	s.Release()
	m := desktop.NewManager(shared.display)
	first, err := m.Lease(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := m.Lease(ctx); !errs.Is(err, errs.Busy) {
		t.Fatalf("second lease while the first holds the display: %v, want busy", err)
	}
	got := make(chan error, 1)
	go func() {
		s, err := m.Lease(context.Background())
		if err == nil {
			s.Release()
		}
		got <- err
	}()
	time.Sleep(50 * time.Millisecond)
	first.Release()
	if err := <-got; err != nil {
		t.Fatalf("lease after release: %v", err)
	}
}

func BenchmarkCaptureAndCompareScreen(b *testing.B) {
	display, stop, err := desktoptest.StartXvfb()
	if err != nil {
		b.Fatal(err)
	}
	defer stop()
	s, err := desktop.NewManager(display).Lease(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	defer s.Release()
	ctx := context.Background()
	prev, _ := s.Capture(ctx, image.Rectangle{})
	b.Run("full screen", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			img, err := s.Capture(ctx, image.Rectangle{})
			if err != nil {
				b.Fatal(err)
			}
			desktop.Changed(prev, img)
		}
	})
	b.Run("around a click", func(b *testing.B) {
		r := desktop.Around(desktop.Point{X: 640, Y: 400}, 120)
		before, _ := s.Capture(ctx, r)
		for i := 0; i < b.N; i++ {
			img, err := s.Capture(ctx, r)
			if err != nil {
				b.Fatal(err)
			}
			desktop.Changed(before, img)
		}
	})
	b.Run("png of the screen", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := desktop.EncodePNG(prev); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func TestSession_ReleaseLetsGoOfHeldKeys(t *testing.T) {
	s, a := app(t)
	ctx := context.Background()
	if err := s.KeyDown(ctx, desktop.KeyShift); err != nil {
		t.Fatal(err)
	}
	s.Release() // the run ends with shift held
	next, err := desktop.NewManager(shared.display).Lease(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer next.Release()
	if err := next.Click(ctx, desktop.Point{X: 300, Y: 270}, desktop.Left, 1); err != nil {
		t.Fatal(err)
	}
	if err := next.Type(ctx, "abc"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, a, `() => document.getElementById('field').value === 'abc'`)
}
