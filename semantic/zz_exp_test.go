package semantic

import (
	"os"
	"strings"
	"testing"

	"github.com/go-rod/rod"
	"github.com/rodeo-run/rodeo/browser/browsertest"
)

func TestZZExp(t *testing.T) {
	f := os.Getenv("ZZEXP")
	if f == "" {
		t.Skip()
	}
	dir := t.TempDir()
	p := browsertest.Page(t, browsertest.Serve(t, dir)+"/"+bigPage(t, dir, 1000))
	if _, err := p.Evaluate(rod.Eval(`(js, key) => { window.__zzf = eval('(' + js + ')'); window.__zzf(key); }`, snapshotJS, windowKey)); err != nil {
		t.Fatal(err)
	}
	for _, part := range strings.Split(mustRead(f), "\n//----\n") {
		res, err := p.Evaluate(rod.Eval(part, windowKey))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s", res.Value.JSON("", ""))
	}
}

func mustRead(f string) string { b, _ := os.ReadFile(f); return string(b) }
