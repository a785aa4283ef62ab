package semantic

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-rod/rod"

	"github.com/rodeo-run/rodeo/browser/browsertest"
)

func TestZZGolden(t *testing.T) {
	out := os.Getenv("GOLDEN_OUT")
	if out == "" {
		t.Skip()
	}
	os.MkdirAll(out, 0o755)
	names, _ := filepath.Glob("testdata/*.html")
	base := browsertest.Serve(t, "testdata")
	for _, n := range names {
		n = filepath.Base(n)
		p := browsertest.Page(t, base+"/"+n)
		s, err := Snap(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		s.Gen = 0
		b, _ := json.MarshalIndent(s, "", " ")
		os.WriteFile(filepath.Join(out, n+".json"), b, 0o644)
	}
	dir := t.TempDir()
	p := browsertest.Page(t, browsertest.Serve(t, dir)+"/"+bigPage(t, dir, 1000))
	if res, err := p.Evaluate(rod.Eval(snapshotJS, windowKey)); err == nil {
		os.WriteFile(filepath.Join(out, "wire.json"), []byte(res.Value.Str()), 0o644)
	}
	s, err := Snap(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	s.Gen = 0
	b, _ := json.MarshalIndent(s, "", " ")
	os.WriteFile(filepath.Join(out, "big.json"), b, 0o644)
}
