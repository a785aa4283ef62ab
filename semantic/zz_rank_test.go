package semantic

import (
	"context"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/browser/browsertest"
)

func BenchmarkZZRankFresh(b *testing.B) {
	dir := b.TempDir()
	p := browsertest.Page(b, browsertest.Serve(b, dir)+"/"+bigPage(b, dir, 1000))
	s0, err := Snap(context.Background(), p)
	if err != nil {
		b.Fatal(err)
	}
	var ds, dp []time.Duration
	for i := 0; b.Loop(); i++ {
		s := &Snapshot{URL: s0.URL, Elements: s0.Elements, Gen: s0.Gen, prep: &prepCache{}}
		t0 := time.Now()
		prepare(s)
		dp = append(dp, time.Since(t0))
		if _, err := Resolve(s, benchQueries[i%len(benchQueries)]); err != nil {
			b.Fatal(err)
		}
		ds = append(ds, time.Since(t0))
	}
	b.ReportMetric(p50(ds), "p50-ms")
	b.ReportMetric(p50(dp), "prep-ms")
}
