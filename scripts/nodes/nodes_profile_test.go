package nodes_test

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/store"
)

// profileSite is a loopback site that sets a cookie and a localStorage value (/set?v=…) and
// reports what a page sees of both (/check?run=…): the cookie from the request's Cookie header,
// localStorage through an image the page's script adds while it loads (so "open tab", which
// waits for the load, waits for the report too).
type profileSite struct {
	URL  string
	mu   sync.Mutex
	hits []profileHit
}

type profileHit struct {
	Run, Cookie, Storage string
	At                   time.Time
}

func newProfileSite(t testing.TB) *profileSite {
	t.Helper()
	s := &profileSite{}
	mux := http.NewServeMux()
	mux.HandleFunc("/set", func(w http.ResponseWriter, r *http.Request) {
		v, _ := json.Marshal(r.URL.Query().Get("v"))
		fmt.Fprintf(w, `<!doctype html><title>set</title><p>set</p><script>
document.cookie = "who=" + %s + "; max-age=3600; path=/";
localStorage.setItem("who", %s);
</script>`, v, v)
	})
	mux.HandleFunc("/check", func(w http.ResponseWriter, r *http.Request) {
		run := r.URL.Query().Get("run")
		cookie := "none"
		if c, err := r.Cookie("who"); err == nil {
			cookie = c.Value
		}
		s.add(profileHit{Run: run, Cookie: cookie, Storage: "-", At: time.Now()})
		fmt.Fprintf(w, `<!doctype html><title>check</title><p>check</p><script>
const img = document.createElement("img");
img.src = "/report?run=%s&ls=" + encodeURIComponent(localStorage.getItem("who") || "none");
document.body.appendChild(img);
</script>`, html.EscapeString(run))
	})
	mux.HandleFunc("/report", func(w http.ResponseWriter, r *http.Request) {
		s.add(profileHit{Run: r.URL.Query().Get("run"), Cookie: "-", Storage: r.URL.Query().Get("ls"), At: time.Now()})
		w.Header().Set("Content-Type", "image/gif")
		_, _ = w.Write([]byte("GIF89a\x01\x00\x01\x00\x00\x00\x00;"))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

func (s *profileSite) add(h profileHit) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hits = append(s.hits, h)
}

// seen is what run saw: the cookie of its /check request and the localStorage value it reported.
func (s *profileSite) seen(run string) (cookie, storage string, first, last time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, h := range s.hits {
		if h.Run != run {
			continue
		}
		if first.IsZero() {
			first = h.At
		}
		last = h.At
		if h.Cookie != "-" {
			cookie = h.Cookie
		}
		if h.Storage != "-" {
			storage = h.Storage
		}
	}
	return cookie, storage, first, last
}

// profileEngine is an engine over the test pool with a store on a temporary directory.
func profileEngine(t testing.TB) (*scripts.Engine, *store.DB) {
	t.Helper()
	p := testPool(t)
	db, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	runner := &scripts.Runner{Registry: scripts.DefaultRegistry, Logger: log, Services: &scripts.Services{Store: db},
		Browsers: scripts.LeaserFunc(func(ctx context.Context) (scripts.BrowserSession, error) {
			s, err := p.Lease(ctx)
			if err != nil {
				return nil, err
			}
			return s, nil
		})}
	e := scripts.NewEngine(runner, db, log)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = e.Shutdown(ctx)
	})
	return e, db
}

func profileScript(t testing.TB, profile string, nodes ...map[string]any) *scripts.Script {
	t.Helper()
	var raw []json.RawMessage
	for _, n := range nodes {
		b, _ := json.Marshal(n)
		raw = append(raw, b)
	}
	s, err := scripts.DefaultRegistry.Compile("profile test", raw, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Profile = profile
	return s
}

func openTab(url string) map[string]any { return map[string]any{"type": "open tab", "target": url} }

func TestProfile_KeepsCookiesAndLocalStorageBetweenRuns(t *testing.T) {
	e, db := profileEngine(t)
	site := newProfileSite(t)
	runOnce := func(profile string, nodes ...map[string]any) scripts.Doc {
		t.Helper()
		r, err := e.Start(t.Context(), profileScript(t, profile, nodes...), scripts.StartOptions{Account: "acct"})
		if err != nil {
			t.Fatal(err)
		}
		d := e.Wait(t.Context(), r)
		if d.Status != scripts.StatusSucceeded || d.Profile != profile {
			t.Fatalf("run on profile %q: %s", profile, dump(d))
		}
		return d
	}
	runOnce("alice", openTab(site.URL+"/set?v=alice"))
	runOnce("alice", openTab(site.URL+"/check?run=same"))
	runOnce("", openTab(site.URL+"/check?run=none"))
	runOnce("bob", openTab(site.URL+"/check?run=other"))
	cases := []struct{ run, cookie, storage string }{
		{"same", "alice", "alice"}, // the next run on the profile has both
		{"none", "none", "none"},   // a run without a profile has a fresh context
		{"other", "none", "none"},  // another profile has its own state
	}
	for _, c := range cases {
		cookie, storage, _, _ := site.seen(c.run)
		if cookie != c.cookie || storage != c.storage {
			t.Errorf("run %s saw cookie %q and localStorage %q, want %q and %q", c.run, cookie, storage, c.cookie, c.storage)
		}
	}
	list, err := db.ListProfiles("acct")
	if err != nil || len(list) != 2 || list[0].Name != "alice" || list[0].Runs != 2 || list[0].LocalStorage[site.URL]["who"] != "alice" {
		t.Fatalf("stored profiles: %+v %v", list, err)
	}
	// A state the second run changes is what the third one sees.
	runOnce("alice", openTab(site.URL+"/set?v=carol"))
	runOnce("alice", openTab(site.URL+"/check?run=changed"))
	if cookie, storage, _, _ := site.seen("changed"); cookie != "carol" || storage != "carol" {
		t.Errorf("after a change the next run saw cookie %q and localStorage %q, want carol", cookie, storage)
	}
}

func TestProfile_OneRunAtATime(t *testing.T) {
	e, _ := profileEngine(t)
	site := newProfileSite(t)
	// The pool has two contexts, so only the profile keeps these runs apart.
	hold := func(run string) *scripts.Script {
		return profileScript(t, "shared", openTab(site.URL+"/check?run="+run), map[string]any{"type": "delay", "time": 0.8},
			openTab(site.URL+"/check?run="+run))
	}
	a, err := e.Enqueue(hold("a"), scripts.StartOptions{Account: "acct", Source: "trigger"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := e.Enqueue(hold("b"), scripts.StartOptions{Account: "acct", Source: "trigger"})
	if err != nil {
		t.Fatal(err)
	}
	// While a run holds the profile, a direct run on it is refused at once.
	deadline := time.Now().Add(20 * time.Second)
	for a.Doc().Status == scripts.StatusQueued && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := e.Start(t.Context(), hold("direct"), scripts.StartOptions{Account: "acct"}); errs.Code(err) != errs.Busy {
		t.Errorf("a direct run on a profile in use: %v, want busy", err)
	}
	da, db := e.Wait(t.Context(), a), e.Wait(t.Context(), b)
	if da.Status != scripts.StatusSucceeded || db.Status != scripts.StatusSucceeded {
		t.Fatalf("runs: %s\n%s", dump(da), dump(db))
	}
	_, _, _, aLast := site.seen("a")
	_, _, bFirst, _ := site.seen("b")
	if aLast.IsZero() || bFirst.IsZero() || !bFirst.After(aLast) {
		t.Errorf("run b's first request at %v is not after run a's last at %v: the runs interleaved", bFirst, aLast)
	}
	if db.Started == nil || da.Finished == nil || db.Started.Before(*da.Finished) {
		t.Errorf("run b started at %v, before run a finished at %v", db.Started, da.Finished)
	}
	if _, _, first, _ := site.seen("direct"); !first.IsZero() {
		t.Errorf("the refused direct run reached the site")
	}
}

// BenchmarkProfileRun is one run that opens a page, without a profile and with one that holds a
// cookie and one origin's local storage: the difference is what loading and saving costs.
func BenchmarkProfileRun(b *testing.B) {
	for _, profile := range []string{"", "bench"} {
		name := "profile=" + profile
		if profile == "" {
			name = "no-profile"
		}
		b.Run(name, func(b *testing.B) {
			e, _ := profileEngine(b)
			site := newProfileSite(b)
			s := profileScript(b, profile, openTab(site.URL+"/set?v=bench"))
			for b.Loop() {
				r, err := e.Start(b.Context(), s, scripts.StartOptions{Account: "acct"})
				if err != nil {
					b.Fatal(err)
				}
				if d := e.Wait(b.Context(), r); d.Status != scripts.StatusSucceeded {
					b.Fatal(dump(d))
				}
			}
		})
	}
}
