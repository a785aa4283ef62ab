package server

import (
	"encoding/json"
	"io"
	"net/http/httptest"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/rodeo-run/rodeo/scripts"
	_ "github.com/rodeo-run/rodeo/scripts/nodes"
)

// TestOpenAPI_DocumentsEveryRoute keeps GET /openapi.json honest: every route the server serves is
// documented, nothing documented is missing from the server, and nodes carry the registry's kinds.
func TestOpenAPI_DocumentsEveryRoute(t *testing.T) {
	s := New(Config{Registry: scripts.DefaultRegistry, Version: "test"})
	res, err := s.App().Test(httptest.NewRequest("GET", "/openapi.json", nil))
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("GET /openapi.json: %v %v", res, err)
	}
	raw, _ := io.ReadAll(res.Body)
	var doc struct {
		OpenAPI string                                `json:"openapi"`
		Paths   map[string]map[string]json.RawMessage `json:"paths"`
		Comp    struct {
			Schemas struct {
				Node struct {
					Properties struct {
						Type struct {
							Enum []string `json:"enum"`
						} `json:"type"`
					} `json:"properties"`
				} `json:"Node"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil || doc.OpenAPI != "3.1.0" {
		t.Fatalf("document: %v %s", err, raw[:min(len(raw), 200)])
	}
	param := regexp.MustCompile(`:([a-z]+)`)
	served := map[string]bool{}
	for _, r := range s.App().GetRoutes(true) {
		if r.Method == "HEAD" || r.Method == "USE" {
			continue
		}
		served[r.Method+" "+param.ReplaceAllString(r.Path, "{$1}")] = true
	}
	documented := map[string]bool{}
	for path, methods := range doc.Paths {
		for m := range methods {
			documented[strings.ToUpper(m)+" "+path] = true
		}
	}
	var missing, extra []string
	for r := range served {
		if !documented[r] {
			missing = append(missing, r)
		}
	}
	for r := range documented {
		if !served[r] {
			extra = append(extra, r)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing)+len(extra) > 0 {
		t.Fatalf("routes not documented: %v; documented but not served: %v", missing, extra)
	}
	kinds := map[string]bool{}
	for _, k := range doc.Comp.Schemas.Node.Properties.Type.Enum {
		kinds[k] = true
	}
	for _, k := range scripts.DefaultRegistry.Kinds() {
		if !kinds[k] {
			t.Errorf("node kind %s is not in the Node schema's enum", k)
		}
	}
}
