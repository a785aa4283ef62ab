package semantic

import (
	"reflect"
	"testing"
)

// TestScoreAll_ChunksAgree checks that scoring a large page in chunks at once gives what scoring
// it in one pass gives, in the same (document) order: ties are settled by that order.
func TestScoreAll_ChunksAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test")
	}
	_, s := bigSnap(t, 2000)
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
