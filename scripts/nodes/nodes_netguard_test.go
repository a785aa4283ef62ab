package nodes_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/browser/browsertest"
	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/netguard"
	"github.com/rodeo-run/rodeo/netguard/netguardtest"
	"github.com/rodeo-run/rodeo/scripts"
)

// guardedServices resolves netguardtest's names (metadata.test is 169.254.169.254) and refuses
// every non-loopback connect after the guard's decision, so nothing leaves the machine.
func guardedServices(t *testing.T, denyPrivate bool) (*scripts.Services, *netguardtest.ConnectLog) {
	t.Helper()
	log := &netguardtest.ConnectLog{}
	g := netguard.New(netguard.Options{DenyPrivate: denyPrivate, Resolver: netguardtest.NewResolver(), Control: log.Control})
	return &scripts.Services{WorkDir: t.TempDir(), CodeNodes: true, Net: g}, log
}

// Every HTTP node refuses the metadata address (by name, by literal, behind a redirect) with
// address_blocked, nothing connects there, and the run's later nodes are skipped.
func TestHTTPNodes_RefuseMetadata(t *testing.T) {
	redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://metadata.test/latest/meta-data/iam/", http.StatusFound)
	}))
	defer redirect.Close()
	cases := []struct{ name, node string }{
		{"api by name", `{"type": "api", "URL": "http://metadata.test/latest/meta-data/", "output": "x"}`},
		{"api literal", `{"type": "api", "URL": "http://169.254.169.254/latest/meta-data/"}`},
		{"api IPv6 metadata", `{"type": "api", "URL": "http://[fd00:ec2::254]/latest/"}`},
		{"api redirect", `{"type": "api", "URL": "REDIRECT/start"}`},
		{"api mixed answers", `{"type": "api", "URL": "http://mixed.test/"}`},
		{"send_data", `{"type": "send_data", "URL": "http://metadata.test/x", "body_key_1": "a", "body_value_1": "b"}`},
		{"get_data", `{"type": "get_data", "url_or_file_path": "http://metadata.test/x", "data": "x"}`},
		{"download", `{"type": "download", "url_or_file": "http://metadata.test/x", "download_location": "x.bin"}`},
		{"download redirect", `{"type": "download", "url_or_file": "REDIRECT/file", "download_location": "x.bin"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			svc, log := guardedServices(t, false)
			node := strings.ReplaceAll(c.node, "REDIRECT", redirect.URL)
			d := dataRun(t, svc, "["+node+`, {"type": "print", "text": "after"}]`, nil)
			if d.Status != scripts.StatusFailed || stepErr(d, 0) != errs.AddressBlocked || d.Steps[1].Status != "skipped" {
				t.Fatal(dump(d))
			}
			if msg := d.Steps[0].Error.Message; !strings.Contains(msg, "169.254.169.254") && !strings.Contains(msg, "fd00:ec2::254") {
				t.Fatalf("message does not name the address: %s", msg)
			}
			if bad := log.NonLoopback(); len(bad) != 0 {
				t.Fatalf("connected to %v", bad)
			}
		})
	}
}

// --deny-private-network refuses loopback and private ranges; without it loopback works.
func TestHTTPNodes_DenyPrivateNetwork(t *testing.T) {
	base := apiPeer(t)
	for _, deny := range []bool{false, true} {
		svc, log := guardedServices(t, deny)
		d := dataRun(t, svc, `[{"type": "api", "URL": "`+base+`/echo", "output": "res"}, {"type": "api", "URL": "http://private.test/"}]`, nil)
		switch {
		case !deny && (d.Steps[0].Status != "ok" || stepErr(d, 1) != "request_failed"):
			t.Fatalf("open policy: loopback must work and 10.1.2.3 be tried (and refused by the test's safety net): %s", dump(d))
		case deny && (stepErr(d, 0) != errs.AddressBlocked || !strings.Contains(d.Steps[0].Error.Message, "--deny-private-network")):
			t.Fatalf("deny-private: loopback must be refused: %s", dump(d))
		}
		if deny && len(log.Reached()) != 0 {
			t.Fatalf("deny-private: connects %v", log.Reached())
		}
	}
}

// A plain GET written from the node template: "body": {} and "headers": {} with no data.
func TestAPI_EmptyBodyIsGet(t *testing.T) {
	base := apiPeer(t)
	cases := []struct{ name, node, method, body string }{
		{"empty body and headers", `{"type": "api", "URL": "BASE/echo", "body": {}, "headers": {}, "output": "res"}`, "GET", ""},
		{"empty body, explicit GET", `{"type": "api", "URL": "BASE/echo", "method": "GET", "body": {}, "output": "res"}`, "GET", ""},
		{"empty body, explicit DELETE", `{"type": "api", "URL": "BASE/echo", "method": "DELETE", "body": {}, "output": "res"}`, "DELETE", ""},
		{"empty body, explicit POST sends {}", `{"type": "api", "URL": "BASE/echo", "method": "POST", "body": {}, "output": "res"}`, "POST", "{}"},
		{"empty body with data posts the data", `{"type": "api", "URL": "BASE/echo", "body": {}, "data": "order", "output": "res"}`, "POST", `{"id":7}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := dataRun(t, nil, "["+strings.ReplaceAll(c.node, "BASE", base)+"]", map[string]any{"order": map[string]any{"id": 7.0}})
			if d.Status != scripts.StatusSucceeded {
				t.Fatal(dump(d))
			}
			res := obj(t, d.Data["res"])
			if res["method"] != c.method || res["body"] != c.body {
				t.Fatalf("echo %v, want %s with body %q", res, c.method, c.body)
			}
		})
	}
}

// open tab refuses a URL whose host the guard refuses before the browser navigates, with
// address_blocked; a loopback URL opens as before.
func TestOpenTab_RefusesMetadataBeforeNavigating(t *testing.T) {
	p := testPool(t)
	base := browsertest.Serve(t, "testdata")
	svc, log := guardedServices(t, false)
	runner := &scripts.Runner{Registry: scripts.DefaultRegistry, Services: svc, Browsers: scripts.LeaserFunc(func(ctx context.Context) (scripts.BrowserSession, error) {
		s, err := p.Lease(ctx)
		if err != nil {
			return nil, err
		}
		return s, nil
	})}
	for target, want := range map[string]string{
		"http://metadata.test/latest/meta-data/": errs.AddressBlocked,
		"http://169.254.169.254/":                errs.AddressBlocked,
		base + "/actions.html":                   "",
	} {
		raw := []json.RawMessage{json.RawMessage(`{"type": "open tab", "target": "` + target + `"}`)}
		s, err := scripts.DefaultRegistry.Compile(t.Name(), raw, nil)
		if err != nil {
			t.Fatal(err)
		}
		r := scripts.NewRun("r_open_guard", "test", "test", s)
		runner.Execute(context.Background(), r, scripts.ExecOptions{Timeout: time.Minute})
		if d := r.Doc(); stepErr(d, 0) != want {
			t.Fatalf("open %s: %s", target, dump(d))
		}
	}
	if bad := log.NonLoopback(); len(bad) != 0 {
		t.Fatalf("connected to %v", bad)
	}
}
