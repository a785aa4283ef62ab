package server_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/server"
)

// TestStepValue_LargeBecomesArtifact: a step value over scripts.MaxStepValue is kept whole as a
// run artifact that GET /runs/{id}/artifacts/… serves, and the run document holds a link and a
// preview in its place; small values stay inline, and the run's data is whole.
func TestStepValue_LargeBecomesArtifact(t *testing.T) {
	f := newFixture(t)
	// The fixture's runner has no store; this one keeps artifacts like `rodeo serve`'s.
	log := slog.New(slog.NewTextHandler(f.logs, nil))
	runner := &scripts.Runner{Registry: scripts.DefaultRegistry, Logger: log, Services: &scripts.Services{Store: f.db}}
	f.engine = scripts.NewEngine(runner, f.db, log)
	t.Cleanup(func() { _ = f.engine.Shutdown(context.Background()) })
	f.srv = server.New(server.Config{Engine: f.engine, Registry: scripts.DefaultRegistry, Store: f.db, BodyLimit: bodyLimit, Logger: log})

	chunk := strings.Repeat("Ünïcode line of scraped text. ", 40) // 1,200 characters
	big := strings.Repeat("{{chunk}}", 20)                        // 24,000 characters once expanded
	body, _ := json.Marshal(map[string]any{"key": f.key, "goal": "big", "data": map[string]any{"chunk": chunk},
		"json_output": []map[string]any{{"type": "print", "text": "short"}, {"type": "print", "text": big}}})
	r := f.do(t, http.MethodPost, "/agents", string(body), "")
	id, _ := r.body["run_id"].(string)
	if r.status != http.StatusOK || r.body["status"] != "succeeded" {
		t.Fatalf("run: %d %s", r.status, r.raw)
	}
	want := strings.Repeat(chunk, 20)

	got := f.do(t, http.MethodGet, "/runs/"+id, "", f.key)
	if got.status != http.StatusOK {
		t.Fatalf("get run: %d %s", got.status, got.raw)
	}
	if len(got.raw) > 8<<10 {
		t.Errorf("the run document is %d bytes with a 24,000-character step value", len(got.raw))
	}
	var doc scripts.Doc
	if err := json.Unmarshal(got.raw, &doc); err != nil || len(doc.Steps) != 2 {
		t.Fatalf("run document: %v %s", err, got.raw)
	}
	if doc.Steps[0].Detail["text"] != "short" {
		t.Errorf("a small value moved: %v", doc.Steps[0].Detail)
	}
	link, _ := doc.Steps[1].Detail["text"].(map[string]any)
	path, _ := link["artifact"].(string)
	if wantPath := "/runs/" + id + "/artifacts/step-1-text.txt"; path != wantPath || link["bytes"] != float64(len(want)) ||
		!strings.HasPrefix(want, strings.TrimSuffix(link["preview"].(string), "…")) || link["truncated"] != nil {
		t.Fatalf("step 1 text is %v, want a link to %s", doc.Steps[1].Detail["text"], wantPath)
	}
	if doc.Data["chunk"] != chunk {
		t.Errorf("the run's data changed: %.80v", doc.Data["chunk"])
	}

	a := f.do(t, http.MethodGet, path, "", f.key)
	if a.status != http.StatusOK || string(a.raw) != want || a.header.Get("Content-Type") != "text/plain; charset=utf-8" {
		t.Fatalf("GET %s: %d %s, %d bytes", path, a.status, a.header.Get("Content-Type"), len(a.raw))
	}
	checkError(t, f.do(t, http.MethodGet, path, "", f.otherKey), http.StatusNotFound, "not_found", nil)
}
