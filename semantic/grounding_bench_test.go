package semantic

import (
	"context"
	"sort"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/rodeo-run/rodeo/llm"
	"github.com/rodeo-run/rodeo/llm/llmtest"
)

// grounding2000 are descriptions of the kinds the corpus has, for a 2,000-element page.
var grounding2000 = []Query{
	{Description: "the email field", Intent: IntentType},
	{Description: "Save profile", Intent: IntentClick},
	{Description: "the second Add to cart button", Intent: IntentClick},
	{Description: "the price of the third product", Intent: IntentRead},
	{Description: "Customer 57", Intent: IntentRead},
	{Description: "the price of Product 12", Intent: IntentRead},
	{Description: "add Product 40 to the cart", Intent: IntentClick},
	{Description: "the total of order #1010", Intent: IntentRead},
	{Description: "Put the cursor in the Field 7 box", Intent: IntentType},
	{Description: "the tenth product", Intent: IntentClick},
}

func pctMS(ds []time.Duration, p float64) float64 {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return float64(s[min(len(s)-1, int(float64(len(s))*p))].Microseconds()) / 1000
}

// BenchmarkGroundingResolve2000 times one resolution on a 2,000-element page: "cold" includes
// preparing the snapshot (what the first resolution on a fresh snapshot pays), "warm" reuses it.
// The snapshot itself (Chrome) is BenchmarkSnap*'s business.
func BenchmarkGroundingResolve2000(b *testing.B) {
	_, s0 := bigSnap(b, 2000)
	var cold, warm []time.Duration
	for i := 0; b.Loop(); i++ {
		q := grounding2000[i%len(grounding2000)]
		s := freshCopy(s0)
		t0 := time.Now()
		_, _ = Resolve(s, q)
		cold = append(cold, time.Since(t0))
		t0 = time.Now()
		_, _ = Resolve(s, q)
		warm = append(warm, time.Since(t0))
	}
	b.ReportMetric(pctMS(cold, 0.5), "cold-p50-ms")
	b.ReportMetric(pctMS(cold, 0.95), "cold-p95-ms")
	b.ReportMetric(pctMS(warm, 0.5), "warm-p50-ms")
	b.ReportMetric(pctMS(warm, 0.95), "warm-p95-ms")
	b.ReportMetric(float64(len(s0.Elements)), "elements")
}

// BenchmarkGroundingSnapResolve2000 is Snap + Resolve, what a node pays.
func BenchmarkGroundingSnapResolve2000(b *testing.B) {
	snapResolveLoop(b, bigPageOpen(b, 2000), nil)
}

// snapResolveLoop times Snap + Resolve on p once per iteration, after before(i) (not timed; nil
// for nothing), and reports the p50 and p95 of the steady state: one pass over the queries runs
// untimed first, its slowest reported apart (first-pass-max-ms: the page's first snapshot walks
// it whole and installs the script, 290 ms here). That pass and V8's and the ranker's memo's
// warm-up over the next few were 3 of the 60 samples at -benchtime 60x and set the p95 (in three
// runs, the first 60 samples' p95 was 16-28 ms and the next 60's 13.6-15.7 ms). Run it with
// 300x or more for a p95 worth reading.
func snapResolveLoop(b *testing.B, p *rod.Page, before func(i int)) {
	ctx := context.Background()
	once := func(i int) time.Duration {
		if before != nil {
			b.StopTimer()
			before(i)
			b.StartTimer()
		}
		t0 := time.Now()
		s, err := Snap(ctx, p)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = Resolve(s, grounding2000[i%len(grounding2000)])
		return time.Since(t0)
	}
	var first time.Duration // the untimed pass's slowest, reported apart
	for i := range grounding2000 {
		first = max(first, once(i))
	}
	var ds []time.Duration
	for i := 0; b.Loop(); i++ {
		ds = append(ds, once(len(grounding2000)+i))
	}
	b.ReportMetric(float64(first.Microseconds())/1000, "first-pass-max-ms")
	b.ReportMetric(pctMS(ds, 0.5), "p50-ms")
	b.ReportMetric(pctMS(ds, 0.95), "p95-ms")
}

// TestGroundingPrompt2000 measures the model's prompt on a real 2,000-element page for vague
// descriptions (every candidate slot filled).
func TestGroundingPrompt2000(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test")
	}
	_, s := bigSnap(t, 2000)
	srv := llmtest.New(t, func(_ int, req llmtest.Request) llmtest.Reply { return llmtest.Reply{Content: `{"id": null}`} })
	g := &Engine{LLM: llm.New(srv.Config())}
	maxTok := 0
	for _, q := range []Query{
		{Description: "the thing to press when I'm done", Intent: IntentClick},
		{Description: "the product with the nicest description", Intent: IntentClick},
		{Description: "somewhere to write about me", Intent: IntentType},
		{Description: "the price of something cheap", Intent: IntentRead},
	} {
		res, _ := g.Resolve(context.Background(), s, q)
		maxTok = max(maxTok, res.Tokens.Prompt)
	}
	t.Logf("2,000-element page (%d elements): max prompt %d tokens over %d model calls", len(s.Elements), maxTok, len(srv.Calls()))
	if maxTok > 1500 || len(srv.Calls()) == 0 {
		t.Errorf("max prompt %d tokens, %d calls", maxTok, len(srv.Calls()))
	}
}

// BenchmarkParse is parsing one description (of grounding2000's), what every resolution pays
// before it looks at the page: phrase rewrites were most of it until prefilter.go.
func BenchmarkParse(b *testing.B) {
	for i := 0; b.Loop(); i++ {
		_ = Parse(grounding2000[i%len(grounding2000)].Description)
	}
}

// BenchmarkResolveTypoPass2000 is a resolution on a 2,000-element page that fits nothing as
// written and so sets off the typo pass: one that still fits nothing ("Frobnicate") and one
// the pass reads ("emial" as email). The page's vocabulary is kept on the snapshot (see
// pageVocab): what a step pays at each try of a target it cannot find.
func BenchmarkResolveTypoPass2000(b *testing.B) {
	_, s := bigSnap(b, 2000)
	if _, err := Resolve(s, Query{Description: "the Frobnicate button", Intent: IntentClick}); err == nil {
		b.Fatal("a description that fits nothing resolved")
	}
	typos := []string{"the Frobnicate button", "the emial field"}
	for i := 0; b.Loop(); i++ {
		_, _ = Resolve(s, Query{Description: typos[i%len(typos)], Intent: IntentClick})
	}
}
