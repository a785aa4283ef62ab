package server

import (
	"io"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/studio"
)

func studioGet(t *testing.T, s *Server, path string) (int, string, string) {
	t.Helper()
	res, err := s.App().Test(httptest.NewRequest("GET", path, nil))
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header.Get("Content-Type"), string(body)
}

// TestStudio_ServesShellAndAssets: GET / is the studio's HTML without a key, every asset it
// ships is served with its content type and the CSP, and paths outside the assets are 404.
func TestStudio_ServesShellAndAssets(t *testing.T) {
	s := New(Config{Registry: scripts.DefaultRegistry})
	code, ct, body := studioGet(t, s, "/")
	if code != 200 || ct != "text/html; charset=utf-8" || !strings.Contains(body, `<script type="module" src="/studio/app.js">`) {
		t.Fatalf("GET / = %d %q:\n%s", code, ct, body)
	}
	want := map[string]string{".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8", ".html": "text/html; charset=utf-8", ".svg": "image/svg+xml"}
	names := studio.Names()
	if len(names) < 8 {
		t.Fatalf("only %d assets embedded: %v", len(names), names)
	}
	for _, name := range names {
		res, err := s.App().Test(httptest.NewRequest("GET", "/studio/"+name, nil))
		if err != nil || res.StatusCode != 200 {
			t.Errorf("GET /studio/%s: %v %v", name, res.StatusCode, err)
			continue
		}
		ext := name[strings.LastIndex(name, "."):]
		if got := res.Header.Get("Content-Type"); got != want[ext] {
			t.Errorf("/studio/%s: Content-Type %q, want %q", name, got, want[ext])
		}
		if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "connect-src 'self'") || !strings.Contains(csp, "script-src 'self'") {
			t.Errorf("/studio/%s: CSP %q", name, csp)
		}
	}
	for _, bad := range []string{"/studio/nope.js", "/studio/..%2fstudio.go", "/studio/studio.go", "/studio/"} {
		if code, _, _ := studioGet(t, s, bad); code != 404 {
			t.Errorf("GET %s = %d, want 404", bad, code)
		}
	}
}

// TestStudio_ImportsResolve: every module an asset imports (and the shell references) is an
// embedded asset, so a renamed file cannot break the page silently.
func TestStudio_ImportsResolve(t *testing.T) {
	ref := regexp.MustCompile(`(?:from\s+|import\s*\(\s*|src="/studio/|href="/studio/)['"]?(?:\./)?([A-Za-z0-9_.-]+\.(?:js|css|svg))`)
	for _, name := range studio.Names() {
		a, _ := studio.Get(name)
		for _, m := range ref.FindAllStringSubmatch(string(a.Data), -1) {
			if _, ok := studio.Get(m[1]); !ok {
				t.Errorf("%s refers to %s, which is not embedded", name, m[1])
			}
		}
	}
}

// TestStudio_NoExternalOrigins: no asset loads or names anything outside rodeo (no CDN, no
// fonts, no analytics): the page must work offline and send nothing elsewhere.
func TestStudio_NoExternalOrigins(t *testing.T) {
	origin := regexp.MustCompile(`(?i)(?:https?:)?//[a-z0-9][a-z0-9.-]*\.[a-z]{2,}`)
	for _, name := range studio.Names() {
		a, _ := studio.Get(name)
		text := string(a.Data)
		if name == "icon.svg" {
			// The SVG namespace is a name, not a request.
			text = strings.ReplaceAll(text, `xmlns="http://www.w3.org/2000/svg"`, "")
		}
		if m := origin.FindString(text); m != "" {
			t.Errorf("%s names an external origin: %s", name, m)
		}
	}
}
