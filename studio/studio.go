// Package studio is the web page rodeo serves at `/`: plain ES modules, a stylesheet and one HTML
// shell, embedded in the binary so `rodeo serve` needs nothing at run time (no build step, no
// CDN). The page talks only to rodeo's own HTTP API with the user's key (docs/studio.md).
package studio

import (
	"embed"
	"io/fs"
	"path"
	"sort"
)

//go:embed static
var files embed.FS

// contentTypes are the types of the asset kinds the studio ships; an asset of another kind is
// not served (a test keeps every embedded file covered).
var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".svg":  "image/svg+xml",
}

// Asset is one embedded file ready to serve.
type Asset struct {
	Name        string
	ContentType string
	Data        []byte
}

// Index is the HTML shell served at `/`.
func Index() Asset {
	a, _ := Get("index.html")
	return a
}

// Get returns the asset name (a bare file name such as "app.js"); ok is false for anything else,
// paths with directories included, so a request can never climb out of the static folder.
func Get(name string) (Asset, bool) {
	if name == "" || path.Base(name) != name {
		return Asset{}, false
	}
	ct, known := contentTypes[path.Ext(name)]
	if !known {
		return Asset{}, false
	}
	data, err := files.ReadFile("static/" + name)
	if err != nil {
		return Asset{}, false
	}
	return Asset{Name: name, ContentType: ct, Data: data}, true
}

// Names lists the embedded assets, sorted.
func Names() []string {
	entries, _ := fs.ReadDir(files, "static")
	out := make([]string, 0, len(entries))
	for _, e := range entries {
		if !e.IsDir() {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out
}

// CSP is the Content-Security-Policy the studio is served with: its own scripts and styles
// only, images from the API (fetched with the key, shown as blob: URLs), requests to rodeo
// alone. It keeps any injected markup from loading or sending anything elsewhere.
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; " +
	"connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
