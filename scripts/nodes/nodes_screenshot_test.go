package nodes_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/browser/browsertest"
	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/store"
)

// browserRun is run (nodes_test.go) with services: nodes against the fixture site in a real
// pool, as account "test".
func browserRun(t *testing.T, svc *scripts.Services, nodes string) scripts.Doc {
	t.Helper()
	p := testPool(t)
	base := browsertest.Serve(t, "testdata")
	var raw []json.RawMessage
	if err := json.Unmarshal([]byte(strings.ReplaceAll(nodes, "BASE", base)), &raw); err != nil {
		t.Fatalf("test JSON: %v", err)
	}
	s, err := scripts.DefaultRegistry.Compile(t.Name(), raw, nil)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	runner := &scripts.Runner{Registry: scripts.DefaultRegistry, Services: svc,
		Browsers: scripts.LeaserFunc(func(ctx context.Context) (scripts.BrowserSession, error) {
			s, err := p.Lease(ctx)
			if err != nil {
				return nil, err
			}
			return s, nil
		})}
	r := scripts.NewRun("r_"+strings.ReplaceAll(t.Name(), "/", "_"), "test", "test", s)
	runner.Execute(context.Background(), r, scripts.ExecOptions{Timeout: time.Minute})
	return r.Doc()
}

func TestScreenshot(t *testing.T) {
	db, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	work := t.TempDir()
	abs := filepath.Join(t.TempDir(), "deep", "full")
	svc := &scripts.Services{Store: db, WorkDir: work, CodeNodes: true}
	d := browserRun(t, svc, `[{"type": "open tab", "target": "BASE/actions.html"},
		{"type": "screenshot", "location": "shots/page.png"},
		{"type": "screenshot", "location": "`+abs+`", "full_page": true}]`)
	if d.Status != scripts.StatusSucceeded {
		t.Fatal(dump(d))
	}
	for i, path := range []string{filepath.Join(work, d.RunID, "shots", "page.png"), abs + ".png"} {
		step := d.Steps[i+1]
		if !hasCheck(step, "file_written") || !hasCheck(step, "png") || !hasCheck(step, "kept_with_run") {
			t.Fatal(dump(d))
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil || img.Bounds().Dx() < 100 {
			t.Fatalf("%s: not a real screenshot: %v", path, err)
		}
		name := filepath.Base(path)
		if step.Detail["artifact"] != "/runs/"+d.RunID+"/artifacts/"+name {
			t.Fatalf("artifact %v", step.Detail["artifact"])
		}
		a, err := db.GetArtifact("test", d.RunID, name)
		if err != nil || !bytes.Equal(a.Data, b) || a.ContentType != "image/png" {
			t.Fatalf("stored artifact: %v", err)
		}
	}
	if _, err := db.GetArtifact("other", d.RunID, "page.png"); !errs.Is(err, errs.NotFound) {
		t.Fatalf("another account's artifact: %v", err)
	}
}

func TestScreenshot_Errors(t *testing.T) {
	d := browserRun(t, &scripts.Services{WorkDir: t.TempDir(), CodeNodes: true}, `[{"type": "open tab", "target": "BASE/blank.html"},
		{"type": "screenshot", "location": "../outside.png"}]`)
	if stepErr(d, 1) != errs.InvalidConfig {
		t.Fatal(dump(d))
	}
	// no browser: the run says so
	d = dataRun(t, nil, `[{"type": "screenshot", "location": "x.png"}]`, nil)
	if stepErr(d, 0) != errs.BrowserUnavailable {
		t.Fatal(dump(d))
	}
}
