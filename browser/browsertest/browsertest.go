// Package browsertest gives tests one real Chrome per test binary (the system Chromium, never a
// downloaded one), a fresh isolated page per test, and pages served from a testdata folder over
// httptest. Chrome is kept off the network entirely: every host but the loopback ones fails to resolve.
package browsertest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/rodeo-run/rodeo/browser"
)

// OfflineFlags keep a test Chrome from dialing out (tests only: it blocks every other host).
var OfflineFlags = map[string]string{
	"host-resolver-rules": "MAP * ~NOTFOUND , EXCLUDE localhost,EXCLUDE 127.0.0.1",
}

var (
	once    sync.Once
	proc    *browser.Process
	procErr error
)

// Browser returns the test binary's shared Chrome, launching it on first use. Chrome exits with the
// test binary (rod's leakless guard), so no TestMain is needed.
func Browser(tb testing.TB) *rod.Browser {
	tb.Helper()
	once.Do(func() {
		proc, procErr = browser.Launch(context.Background(), browser.LaunchOptions{Flags: OfflineFlags})
	})
	if procErr != nil {
		tb.Fatalf("launch chrome: %v (the Makefile installs Debian's chromium; or set RODEO_CHROME)", procErr)
	}
	return proc.Browser
}

// Page opens url in a fresh incognito context of the shared Chrome and closes both when the test
// ends. An empty url gives about:blank.
func Page(tb testing.TB, url string) *rod.Page {
	tb.Helper()
	b := Browser(tb)
	inc, err := b.Incognito()
	if err != nil {
		tb.Fatalf("incognito: %v", err)
	}
	if url == "" {
		url = "about:blank"
	}
	p, err := inc.Page(proto.TargetCreateTarget{URL: url})
	if err != nil {
		tb.Fatalf("page %s: %v", url, err)
	}
	tb.Cleanup(func() { _ = p.Close(); _ = inc.Close() })
	if err := p.WaitLoad(); err != nil {
		tb.Fatalf("load %s: %v", url, err)
	}
	return p
}

// Serve serves dir (e.g. "testdata") on a loopback httptest server for the test's life and returns
// its base URL without a trailing slash.
func Serve(tb testing.TB, dir string) string {
	tb.Helper()
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	tb.Cleanup(srv.Close)
	return srv.URL
}
