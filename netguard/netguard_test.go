package netguard

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/netguard/netguardtest"
)

// testGuard resolves netguardtest.Names and refuses every non-loopback connect after its own
// decision (the log records what got that far).
func testGuard(t *testing.T, denyPrivate bool) (*Guard, *netguardtest.ConnectLog) {
	t.Helper()
	log := &netguardtest.ConnectLog{}
	g := New(Options{DenyPrivate: denyPrivate, Resolver: netguardtest.NewResolver(), Control: log.Control})
	return g, log
}

func TestClassify(t *testing.T) {
	cases := []struct {
		ip   string
		want Class
	}{
		{"169.254.169.254", LinkLocal},
		{"169.254.170.2", LinkLocal},
		{"fe80::1", LinkLocal},
		{"fe80::1%eth0", LinkLocal},
		{"fd00:ec2::254", Metadata},
		{"100.100.100.200", Metadata},
		{"168.63.129.16", Metadata},
		{"::ffff:169.254.169.254", LinkLocal},
		{"64:ff9b::a9fe:a9fe", LinkLocal}, // NAT64 of 169.254.169.254
		{"2002:a9fe:a9fe::1", LinkLocal},  // 6to4 of 169.254.169.254
		{"::a9fe:a9fe", LinkLocal},        // IPv4-compatible
		{"127.0.0.1", Loopback},
		{"127.1.2.3", Loopback},
		{"::1", Loopback},
		{"0.0.0.0", Loopback},
		{"::", Loopback},
		{"::ffff:127.0.0.1", Loopback},
		{"10.0.0.1", Private},
		{"172.16.5.4", Private},
		{"192.168.1.1", Private},
		{"100.64.0.1", Private},
		{"fd12:3456::1", Private},
		{"224.0.0.1", LinkLocal},
		{"239.1.2.3", Private},
		{"255.255.255.255", Private},
		{"0.1.2.3", Private},
		{"64:ff9b::a00:1", Private}, // NAT64 of 10.0.0.1
		{"93.184.215.14", Public},
		{"8.8.8.8", Public},
		{"2606:4700::1111", Public},
		{"64:ff9b::808:808", Public},
	}
	for _, c := range cases {
		if got := Classify(netip.MustParseAddr(c.ip)); got != c.want {
			t.Errorf("Classify(%s) = %s, want %s", c.ip, got, c.want)
		}
	}
}

func TestCheck_Policy(t *testing.T) {
	cases := []struct {
		ip                   string
		allowed, allowedDeny bool
	}{
		{"169.254.169.254", false, false},
		{"fd00:ec2::254", false, false},
		{"fe80::1", false, false},
		{"127.0.0.1", true, false},
		{"::1", true, false},
		{"10.0.0.1", true, false},
		{"192.168.0.10", true, false},
		{"93.184.215.14", true, true},
	}
	open, strict := New(Options{}), New(Options{DenyPrivate: true})
	for _, c := range cases {
		ip := netip.MustParseAddr(c.ip)
		for _, g := range []struct {
			guard *Guard
			want  bool
		}{{open, c.allowed}, {strict, c.allowedDeny}} {
			err := g.guard.Check(ip)
			if (err == nil) != g.want {
				t.Errorf("deny-private=%v: Check(%s) = %v, want allowed=%v", g.guard.DenyPrivate(), c.ip, err, g.want)
			}
			if err != nil && errs.Code(err) != errs.AddressBlocked {
				t.Errorf("Check(%s) code %s, want %s", c.ip, errs.Code(err), errs.AddressBlocked)
			}
		}
	}
}

// A refused address never reaches connect: not through a name that resolves to it, not as a
// literal, not when one of a name's addresses is fine.
func TestDialContext_RefusesBeforeConnect(t *testing.T) {
	cases := []struct {
		addr        string
		denyPrivate bool
		wantMsg     string
	}{
		{"metadata.test:80", false, "169.254.169.254 is a link-local address"},
		{"metadata6.test:80", false, "fd00:ec2::254 is a cloud metadata address"},
		{"alibaba.test:80", false, "100.100.100.200 is a cloud metadata address"},
		{"mapped.test:80", false, "169.254.169.254"},
		{"mixed.test:80", false, "169.254.169.254"},
		{"169.254.169.254:80", false, "169.254.169.254"},
		{"[fe80::1]:80", false, "fe80::1"},
		{"private.test:80", true, "10.1.2.3 is a private address and this server runs with --deny-private-network"},
		{"loopback.test:80", true, "127.0.0.1 is a loopback address"},
		{"127.0.0.1:80", true, "loopback"},
		{"[::1]:80", true, "loopback"},
		{"0.0.0.0:80", true, "loopback"},
	}
	for _, c := range cases {
		t.Run(c.addr, func(t *testing.T) {
			g, log := testGuard(t, c.denyPrivate)
			conn, err := g.DialContext(context.Background(), "tcp", c.addr)
			if conn != nil {
				conn.Close()
			}
			if errs.Code(err) != errs.AddressBlocked || !strings.Contains(err.Error(), c.wantMsg) {
				t.Fatalf("dial %s: %v, want address_blocked mentioning %q", c.addr, err, c.wantMsg)
			}
			if got := log.Reached(); len(got) != 0 {
				t.Fatalf("dial %s reached connect for %v", c.addr, got)
			}
		})
	}
}

// The Control hook is the last line: a dial of a refused literal through the guard's own
// net.Dialer (the path a caller that skips Lookup would take) stops before connect.
func TestControl_RefusesOnTheDialledAddress(t *testing.T) {
	g, log := testGuard(t, false)
	for _, addr := range []string{"169.254.169.254:80", "[fd00:ec2::254]:80", "[::ffff:169.254.169.254]:80"} {
		_, err := g.dialer.DialContext(context.Background(), "tcp", addr)
		if errs.Code(err) != errs.AddressBlocked {
			t.Errorf("dial %s: %v, want address_blocked from Control", addr, err)
		}
	}
	if got := log.Reached(); len(got) != 0 {
		t.Fatalf("refused addresses reached connect: %v", got)
	}
}

func TestDialContext_AllowsLoopbackByDefault(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok") }))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	g, log := testGuard(t, false)
	conn, err := g.DialContext(context.Background(), "tcp", "loopback.test:"+port)
	if err != nil {
		t.Fatalf("loopback dial: %v", err)
	}
	conn.Close()
	if got := log.Reached(); len(got) != 1 || got[0] != "127.0.0.1:"+port {
		t.Fatalf("connects %v, want the one to 127.0.0.1:%s", got, port)
	}
}

// Each dial decides on its own resolution: a name that answered loopback once and the metadata
// address next (DNS rebinding) is refused the second time, and the address checked is the one
// dialled (the name is never resolved again by the dialer).
func TestDialContext_DNSRebinding(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {}))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	g, log := testGuard(t, false)
	c, err := g.DialContext(context.Background(), "tcp", "rebind.test:"+port)
	if err != nil {
		t.Fatalf("first dial (loopback): %v", err)
	}
	c.Close()
	_, err = g.DialContext(context.Background(), "tcp", "rebind.test:"+port)
	if errs.Code(err) != errs.AddressBlocked {
		t.Fatalf("second dial (metadata): %v, want address_blocked", err)
	}
	if bad := log.NonLoopback(); len(bad) != 0 {
		t.Fatalf("non-loopback connects: %v", bad)
	}
}

// A redirect to a refused address fails the request with address_blocked, and nothing connects
// there.
func TestTransport_RedirectIsChecked(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://metadata.test/latest/meta-data/", http.StatusFound)
	}))
	defer srv.Close()
	g, log := testGuard(t, false)
	client := &http.Client{Transport: g.Transport()}
	res, err := client.Get(srv.URL)
	if res != nil {
		res.Body.Close()
	}
	if errs.Code(err) != errs.AddressBlocked {
		t.Fatalf("GET with redirect: %v, want address_blocked", err)
	}
	if bad := log.NonLoopback(); len(bad) != 0 {
		t.Fatalf("non-loopback connects: %v", bad)
	}
}

func TestCheckURL(t *testing.T) {
	g, _ := testGuard(t, false)
	for raw, blocked := range map[string]bool{
		"http://metadata.test/": true, "http://169.254.169.254/latest": true, "http://loopback.test:9/": false,
		"http://unknown.test/": false, // does not resolve: the browser reports that, not the guard
	} {
		u, _ := (&http.Request{}).URL.Parse(raw)
		err := g.CheckURL(context.Background(), u)
		if (errs.Code(err) == errs.AddressBlocked) != blocked || (!blocked && err != nil) {
			t.Errorf("CheckURL(%s) = %v, want blocked=%v", raw, err, blocked)
		}
	}
}

func TestProxy_RefusesAndForwards(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Forwarded-For") != "" {
			t.Errorf("the proxy added X-Forwarded-For")
		}
		io.WriteString(w, "hello from "+r.Host)
	}))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	for _, deny := range []bool{false, true} {
		g, log := testGuard(t, deny)
		p, err := g.StartProxy(nil)
		if err != nil {
			t.Fatal(err)
		}
		proxyURL, _ := (&http.Request{}).URL.Parse(p.URL())
		client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxyURL)}}
		get := func(url string) (int, string, string) {
			res, err := client.Get(url)
			if err != nil {
				return 0, err.Error(), ""
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			return res.StatusCode, string(b), res.Header.Get(BlockedHeader)
		}
		status, body, _ := get("http://loopback.test:" + port + "/")
		if wantStatus := map[bool]int{false: 200, true: 403}[deny]; status != wantStatus {
			t.Errorf("deny=%v: loopback through the proxy: %d %s, want %d", deny, status, body, wantStatus)
		}
		status, body, reason := get("http://metadata.test/latest/meta-data/")
		if status != http.StatusForbidden || !strings.Contains(reason, "169.254.169.254") {
			t.Errorf("deny=%v: metadata through the proxy: %d %q (%s), want 403 naming the address", deny, status, body, reason)
		}
		// CONNECT (what HTTPS and WebSockets use) is refused the same way.
		_, err = client.Get("https://metadata.test/")
		if err == nil || !strings.Contains(err.Error(), "Forbidden") {
			t.Errorf("deny=%v: CONNECT to metadata: %v, want a 403 refusal", deny, err)
		}
		if p.Refused() < 2 {
			t.Errorf("deny=%v: proxy counted %d refusals, want at least 2", deny, p.Refused())
		}
		if bad := log.NonLoopback(); len(bad) != 0 {
			t.Fatalf("non-loopback connects: %v", bad)
		}
		p.Close()
	}
}

func TestProxy_TunnelsToLoopback(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "tls ok") }))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	g, _ := testGuard(t, false)
	p, err := g.StartProxy(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	proxyURL, _ := (&http.Request{}).URL.Parse(p.URL())
	tr := srv.Client().Transport.(*http.Transport).Clone()
	tr.Proxy = http.ProxyURL(proxyURL)
	res, err := (&http.Client{Transport: tr}).Get("https://127.0.0.1:" + port + "/")
	if err != nil {
		t.Fatalf("HTTPS through the proxy: %v", err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if string(b) != "tls ok" {
		t.Fatalf("body %q", b)
	}
}
