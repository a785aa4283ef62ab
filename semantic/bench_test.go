package semantic

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/rodeo-run/rodeo/browser/browsertest"
)

// bigPage writes an HTML page with about n snapshot elements (nav links, a labeled form, a table
// of orders with buttons, product cards) to dir and returns its file name.
func bigPage(tb testing.TB, dir string, n int) string {
	tb.Helper()
	var b strings.Builder
	b.WriteString("<!doctype html><html><head><title>Big</title></head><body><nav aria-label=Main><ul>")
	count := 0
	for i := 0; i < 20; i++ {
		fmt.Fprintf(&b, `<li><a href="/s/%d">Section %d</a></li>`, i, i)
		count += 2
	}
	b.WriteString(`</ul></nav><main><h1>Dashboard</h1><form aria-label="Profile">`)
	for i := 0; i < 20; i++ {
		fmt.Fprintf(&b, `<div><label for="f%d">Field %d</label><input id="f%d" name="field%d"></div>`, i, i, i, i)
		count += 2
	}
	b.WriteString(`<label for="email">Email address</label><input id="email" type="email"><button id="save">Save profile</button></form>`)
	count += 3
	b.WriteString(`<table><thead><tr><th>Order</th><th>Customer</th><th>Total</th><th>Actions</th></tr></thead><tbody>`)
	for i := 0; count < n*6/10; i++ {
		fmt.Fprintf(&b, `<tr><td>#%d</td><td>Customer %d</td><td>$%d.00</td><td><button>Delete</button></td></tr>`, 1000+i, i, i*3)
		count += 5
	}
	b.WriteString(`</tbody></table><ol>`)
	for i := 0; count < n; i++ {
		fmt.Fprintf(&b, `<li><h3><a href="/p/%d">Product %d</a></h3><p>Description of product %d, a fine thing.</p><span class="price">$%d.99</span> <button>Add to cart</button></li>`, i, i, i, i)
		count += 6
	}
	b.WriteString(`</ol></main></body></html>`)
	name := "big.html"
	if err := os.WriteFile(filepath.Join(dir, name), []byte(b.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return name
}

var benchQueries = []Query{
	{Description: "the email field", Intent: IntentType},
	{Description: "Save profile", Intent: IntentClick},
	{Description: "the second Add to cart button", Intent: IntentClick},
	{Description: "the price of the third product", Intent: IntentRead},
	{Description: "Customer 57", Intent: IntentRead},
}

// p50 and p95 are latency percentiles in milliseconds.
func p50(ds []time.Duration) float64 { return pctMS(ds, 0.50) }
func p95(ds []time.Duration) float64 { return pctMS(ds, 0.95) }

// reportLatency reports the median and the 95th percentile of ds.
func reportLatency(b *testing.B, ds []time.Duration) {
	b.ReportMetric(p50(ds), "p50-ms")
	b.ReportMetric(p95(ds), "p95-ms")
}

// bigPageOpen serves a bigPage of about n elements and opens it in the test Chrome.
func bigPageOpen(tb testing.TB, n int) *rod.Page {
	dir := tb.TempDir()
	return browsertest.Page(tb, browsertest.Serve(tb, dir)+"/"+bigPage(tb, dir, n))
}

// bigSnap opens a bigPage of about n elements and snapshots it.
func bigSnap(tb testing.TB, n int) (*rod.Page, *Snapshot) {
	p := bigPageOpen(tb, n)
	s, err := Snap(context.Background(), p)
	if err != nil {
		tb.Fatal(err)
	}
	return p, s
}

// timeLoop runs f once per benchmark iteration, timing each call, and reports the percentiles.
func timeLoop(b *testing.B, f func(i int)) {
	var ds []time.Duration
	for i := 0; b.Loop(); i++ {
		t0 := time.Now()
		f(i)
		ds = append(ds, time.Since(t0))
	}
	reportLatency(b, ds)
}

// BenchmarkResolve1000 is Snap + Resolve on a 1,000-element page in real Chrome.
func BenchmarkResolve1000(b *testing.B) { benchResolve(b, 1000) }

// BenchmarkResolve2000 is Snap + Resolve on a 2,000-element page: the product target is
// p95 <= 15 ms.
func BenchmarkResolve2000(b *testing.B) { benchResolve(b, 2000) }

func benchResolve(b *testing.B, n int) {
	p := bigPageOpen(b, n)
	ctx := context.Background()
	s, err := Snap(ctx, p)
	if err != nil {
		b.Fatal(err)
	}
	if len(s.Elements) < n {
		b.Fatalf("page has %d elements, want %d+", len(s.Elements), n)
	}
	timeLoop(b, func(i int) {
		s, err := Snap(ctx, p)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Resolve(s, benchQueries[i%len(benchQueries)]); err != nil {
			b.Fatal(err)
		}
	})
	b.ReportMetric(float64(len(s.Elements)), "elements")
}

// BenchmarkSnap1000 is the snapshot alone, to see where the time goes.
func BenchmarkSnap1000(b *testing.B) { benchSnap(b, 1000) }
func BenchmarkSnap2000(b *testing.B) { benchSnap(b, 2000) }

func benchSnap(b *testing.B, n int) {
	p := bigPageOpen(b, n)
	ctx := context.Background()
	timeLoop(b, func(int) {
		if _, err := Snap(ctx, p); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkRank1000 is Resolve alone on the data of a 1,000-element snapshot (prepared once, as
// every Resolve after the first on a snapshot).
func BenchmarkRank1000(b *testing.B) { benchRank(b, 1000, false) }
func BenchmarkRank2000(b *testing.B) { benchRank(b, 2000, false) }

// BenchmarkRankFirst1000 is the first Resolve on a fresh copy of a 1,000-element snapshot (as
// after each Snap of the same page): it pays for preparing the snapshot.
func BenchmarkRankFirst1000(b *testing.B) { benchRank(b, 1000, true) }
func BenchmarkRankFirst2000(b *testing.B) { benchRank(b, 2000, true) }

func benchRank(b *testing.B, n int, first bool) {
	s0, err := Snap(context.Background(), bigPageOpen(b, n))
	if err != nil {
		b.Fatal(err)
	}
	var ds []time.Duration
	for i := 0; b.Loop(); i++ {
		s := s0
		if first {
			s = freshCopy(s0)
		}
		t0 := time.Now()
		if _, err := Resolve(s, benchQueries[i%len(benchQueries)]); err != nil {
			b.Fatal(err)
		}
		ds = append(ds, time.Since(t0))
	}
	reportLatency(b, ds)
}

// freshCopy is s with nothing prepared yet, as a new snapshot of the same page would be.
func freshCopy(s *Snapshot) *Snapshot {
	return &Snapshot{URL: s.URL, Title: s.Title, Elements: s.Elements, Containers: s.Containers, Gen: s.Gen, prep: &prepCache{}}
}

// TestBigPage_Resolves checks the benchmark's queries resolve to the intended elements.
func TestBigPage_Resolves(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test")
	}
	_, s := bigSnap(t, 1000)
	want := []string{"#email", "#save", "button", "span", "td"}
	wantText := []string{"", "", "Add to cart", "$2.99", "Customer 57"}
	for i, q := range benchQueries {
		res, err := Resolve(s, q)
		if err != nil {
			t.Fatalf("%q: %v", q.Description, err)
		}
		e := res.Element
		if !(e.Selector == want[i] || e.Tag == want[i]) || (wantText[i] != "" && e.Text != wantText[i]) {
			t.Errorf("%q -> %s", q.Description, describe(&e))
		}
	}
}

// BenchmarkSnapJS1000 times the snapshot JS inside the page (no CDP, no decoding), to tell page
// work from transport and Go work when the machine is noisy.
func BenchmarkSnapJS1000(b *testing.B) { benchSnapJS(b, 1000) }
func BenchmarkSnapJS2000(b *testing.B) { benchSnapJS(b, 2000) }

func benchSnapJS(b *testing.B, n int) {
	p := bigPageOpen(b, n)
	var ds []time.Duration
	for b.Loop() {
		res, err := p.Evaluate(rod.Eval(`(js, key) => { const f = eval('(' + js + ')'); const t0 = performance.now(); f(key); return performance.now() - t0; }`, snapshotJS, windowKey))
		if err != nil {
			b.Fatal(err)
		}
		ds = append(ds, time.Duration(res.Value.Num()*float64(time.Millisecond)))
	}
	reportLatency(b, ds)
}
