package semantic

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/go-rod/rod"
	"github.com/rodeo-run/rodeo/browser/browsertest"
)

// fixture opens testdata/name in a fresh page of the shared test Chrome.
func fixture(t testing.TB, name string) *rod.Page {
	t.Helper()
	if testing.Short() {
		t.Skip("browser test")
	}
	base := browsertest.Serve(t, "testdata")
	return browsertest.Page(t, base+"/"+name)
}

// snapFixture opens and snapshots a fixture.
func snapFixture(t testing.TB, name string) (*rod.Page, *Snapshot) {
	t.Helper()
	p := fixture(t, name)
	s, err := Snap(context.Background(), p)
	if err != nil {
		t.Fatalf("snap %s: %v", name, err)
	}
	if os.Getenv("SEMANTIC_DUMP") != "" {
		b, _ := json.MarshalIndent(s, "", " ")
		t.Logf("%s", b)
	}
	return p, s
}

// byID finds the snapshot element whose id attribute is id.
func byID(s *Snapshot, id string) *Element {
	for i := range s.Elements {
		if s.Elements[i].IDAttr == id {
			return &s.Elements[i]
		}
	}
	return nil
}
