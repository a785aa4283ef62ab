package netguard_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/rodeo-run/rodeo/browser"
	"github.com/rodeo-run/rodeo/browser/browsertest"
	"github.com/rodeo-run/rodeo/netguard"
	"github.com/rodeo-run/rodeo/netguard/netguardtest"
)

// guardedChrome launches a real Chrome whose traffic goes through a guard's proxy (the flags the
// server uses), with the test resolver and the loopback-only safety net.
func guardedChrome(t *testing.T, denyPrivate bool) (*rod.Browser, *netguard.Proxy, *netguardtest.ConnectLog) {
	t.Helper()
	if testing.Short() {
		t.Skip("browser test: skipped with -short")
	}
	log := &netguardtest.ConnectLog{}
	g := netguard.New(netguard.Options{DenyPrivate: denyPrivate, Resolver: netguardtest.NewResolver(), Control: log.Control})
	p, err := g.StartProxy(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	flags := p.ChromeFlags()
	for k, v := range browsertest.OfflineFlags {
		flags[k] = v
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	proc, err := browser.Launch(ctx, browser.LaunchOptions{Flags: flags})
	if err != nil {
		t.Fatalf("launch chrome: %v", err)
	}
	t.Cleanup(proc.Close)
	return proc.Browser, p, log
}

// page is a loopback site: / embeds an image and fetches from the metadata name, /hits counts
// what reached it.
func site(t *testing.T) (port string, hits *atomic.Int64) {
	hits = &atomic.Int64{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<title>local</title><img src="http://metadata.test/latest/meta-data/">
			<script>fetch("https://metadata.test/latest/api/token", {method: "PUT"}).catch(() => {});
			fetch("http://mixed.test/").catch(() => {});</script>`)
	}))
	t.Cleanup(srv.Close)
	_, port, _ = net.SplitHostPort(srv.Listener.Addr().String())
	return port, hits
}

func navigate(t *testing.T, b *rod.Browser, url string) (title, text string) {
	t.Helper()
	page, err := b.Page(rodTarget(url))
	if err != nil {
		t.Fatalf("page %s: %v", url, err)
	}
	defer page.Close()
	page = page.Timeout(15 * time.Second)
	_ = page.WaitLoad()
	time.Sleep(300 * time.Millisecond) // the page's fetches
	res, err := page.Eval(`() => [document.title, document.body ? document.body.innerText : ""]`)
	if err != nil {
		t.Fatalf("read %s: %v", url, err)
	}
	return res.Value.Get("0").String(), res.Value.Get("1").String()
}

func TestProxy_ChromeReachesOnlyWhatTheGuardAllows(t *testing.T) {
	b, p, log := guardedChrome(t, false)
	port, hits := site(t)
	// A name only the guard's resolver knows: Chrome resolves nothing itself, the proxy does.
	if title, text := navigate(t, b, "http://loopback.test:"+port+"/"); title != "local" {
		t.Fatalf("loopback page through the proxy: title %q text %q", title, text)
	}
	if hits.Load() == 0 {
		t.Fatal("the loopback site saw no request")
	}
	// The page's image, fetch over HTTPS (CONNECT) and a mixed name were all refused.
	deadline := time.Now().Add(5 * time.Second)
	for p.Refused() < 3 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if p.Refused() < 3 {
		t.Fatalf("proxy refused %d of the page's 3 metadata requests", p.Refused())
	}
	// A top-level navigation to the metadata name gets the proxy's refusal page.
	if _, text := navigate(t, b, "http://metadata.test/latest/meta-data/"); !strings.Contains(text, "rodeo refused") || !strings.Contains(text, "169.254.169.254") {
		t.Fatalf("metadata navigation: %q", text)
	}
	if bad := log.NonLoopback(); len(bad) != 0 {
		t.Fatalf("connected to %v", bad)
	}
}

// With --deny-private-network even 127.0.0.1 goes through the proxy (Chrome's implicit loopback
// bypass is off) and is refused.
func TestProxy_ChromeDenyPrivateCoversLoopback(t *testing.T) {
	b, _, log := guardedChrome(t, true)
	port, hits := site(t)
	_, text := navigate(t, b, "http://127.0.0.1:"+port+"/")
	if !strings.Contains(text, "rodeo refused") || hits.Load() != 0 {
		t.Fatalf("loopback page with deny-private: %q, %d hits", text, hits.Load())
	}
	if got := log.Reached(); len(got) != 0 {
		t.Fatalf("connects %v", got)
	}
}

func rodTarget(url string) proto.TargetCreateTarget { return proto.TargetCreateTarget{URL: url} }
