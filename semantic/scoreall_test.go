package semantic

import (
	"context"
	"reflect"
	"testing"

	"github.com/rodeo-run/rodeo/browser/browsertest"
)

// TestScoreAll_ChunksAgree checks that scoring a large page in chunks at once gives what scoring
// it in one pass gives, in the same (document) order: ties are settled by that order.
func TestScoreAll_ChunksAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test")
	}
	dir := t.TempDir()
	pg := browsertest.Page(t, browsertest.Serve(t, dir)+"/"+bigPage(t, dir, 2000))
	s, err := Snap(context.Background(), pg)
	if err != nil {
		t.Fatal(err)
	}
	ps := prepare(s)
	for _, q := range grounding2000 {
		p := Parse(q.Description)
		qs := newQueryText(&p)
		qs.weigh(ps, s.Title)
		one := scoreIn(1, ps, &p, qs, intentOf(q, &p))
		if len(one) == 0 {
			t.Fatalf("%q: nothing scored", q.Description)
		}
		for _, n := range []int{2, 3} {
			if got := scoreIn(n, ps, &p, qs, intentOf(q, &p)); !reflect.DeepEqual(got, one) {
				t.Errorf("%q in %d chunks: %d candidates, want the %d of one pass in the same order", q.Description, n, len(got), len(one))
			}
		}
	}
}
