package semantic

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/rodeo-run/rodeo/browser/browsertest"
)

// bigPageActive is bigPage with what actions change: a style that reflows a selected product
// card, two checkboxes, and a scroller of its own; and hover and focus rules that paint, as most
// sites have.
func bigPageActive(tb testing.TB, dir string, n int) string {
	tb.Helper()
	name := bigPage(tb, dir, n)
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		tb.Fatal(err)
	}
	s := strings.Replace(string(b), "</head>", `<style>li.selected { padding: 6px; border: 2px solid #888 } #notes { height: 60px; overflow: auto }
a:hover { color: #06c; text-decoration: underline } input:focus { outline: 2px solid #06c; border-color: #06c } button:hover { background: #eee }</style></head>`, 1)
	s = strings.Replace(s, "</form>", `<input type=checkbox id=agree><label for=agree>I agree</label><input type=checkbox id=news><label for=news>Send me news</label></form><div id=notes><p>Note one</p><p>Note two</p><p>Note three</p><p>Note four</p><p>Note five</p></div>`, 1)
	active := "active.html"
	if err := os.WriteFile(filepath.Join(dir, active), []byte(s), 0o644); err != nil {
		tb.Fatal(err)
	}
	return active
}

// pageActions are small changes of the kind an action makes, one per call (i picks it): a
// product card selected (a class that reflows what follows), a character typed into a field, a
// checkbox clicked, the window scrolled, an inner scroller scrolled.
const pageActions = `(i) => {
	const cards = document.querySelectorAll('ol > li');
	switch (i % 5) {
	case 0: { const c = cards[(i * 7) % cards.length]; c.classList.toggle('selected'); break; }
	case 1: { const f = document.getElementById('f' + (i % 20)); f.value += 'x'; f.dispatchEvent(new Event('input', {bubbles: true})); break; }
	case 2: document.getElementById(i % 2 ? 'agree' : 'news').click(); break;
	case 3: window.scrollBy(0, i % 2 ? 300 : -200); break;
	case 4: { const n = document.getElementById('notes'); n.scrollTop = n.scrollTop ? 0 : 40; break; }
	}
	return i;
}`

// BenchmarkGroundingSnapResolve2000Changed is Snap + Resolve after an action changed the page
// (see pageActions; the action itself is not timed), what a node pays in an agent's loop.
func BenchmarkGroundingSnapResolve2000Changed(b *testing.B) {
	dir := b.TempDir()
	p := browsertest.Page(b, browsertest.Serve(b, dir)+"/"+bigPageActive(b, dir, 2000))
	if _, err := Snap(context.Background(), p); err != nil {
		b.Fatal(err)
	}
	snapResolveLoop(b, p, func(i int) {
		if _, err := p.Evaluate(rod.Eval(pageActions, i)); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkGroundingSnapResolve2000ByAction is BenchmarkGroundingSnapResolve2000Changed for each
// kind of pageActions alone: their costs differ (a card's class reflows the page and is read
// again whole; typing and a check box on a page whose style only paints on input read form
// state alone; a scroll reads boxes alone), and the mix's p95 is the slowest kind's.
func BenchmarkGroundingSnapResolve2000ByAction(b *testing.B) {
	for k, name := range []string{"card-class", "type", "checkbox", "window-scroll", "box-scroll"} {
		b.Run(name, func(b *testing.B) {
			dir := b.TempDir()
			p := browsertest.Page(b, browsertest.Serve(b, dir)+"/"+bigPageActive(b, dir, 2000))
			if _, err := Snap(context.Background(), p); err != nil {
				b.Fatal(err)
			}
			snapResolveLoop(b, p, func(i int) {
				if _, err := p.Evaluate(rod.Eval(pageActions, i*5+k)); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// domAction is a change the replay cannot take, as a toast or an opened menu makes: a node
// added (and the one added before removed, so the page keeps its size). The snapshot after it
// walks the page again.
const domAction = `(i) => {
	const old = document.getElementById('toast');
	if (old) old.remove();
	const d = document.createElement('div');
	d.id = 'toast'; d.setAttribute('role', 'status'); d.textContent = 'Saved ' + i;
	document.body.appendChild(d);
	return i;
}`

// BenchmarkSnapInPage2000 times the installed snapshot function inside the page (no CDP, no
// decoding), on the unchanged page, after each of pageActions (changed) and after domAction
// (walked), the actions untimed, to tell page work from transport and Go work when the machine
// is noisy.
func BenchmarkSnapInPage2000(b *testing.B) {
	for _, c := range []struct{ name, act string }{{"unchanged", ""}, {"changed", pageActions}, {"walked", domAction}} {
		b.Run(c.name, func(b *testing.B) {
			dir := b.TempDir()
			p := browsertest.Page(b, browsertest.Serve(b, dir)+"/"+bigPageActive(b, dir, 2000))
			if _, err := Snap(context.Background(), p); err != nil {
				b.Fatal(err)
			}
			var ds []time.Duration
			for i := 0; b.Loop(); i++ {
				res, err := p.Evaluate(rod.Eval(`(k, f, act, i) => {
					if (act) (0, eval)('(' + act + ')')(i);
					const s = window[k], t0 = performance.now();
					s[f]();
					return performance.now() - t0;
				}`, windowKey, snapFn, c.act, i))
				if err != nil {
					b.Fatal(err)
				}
				ds = append(ds, time.Duration(res.Value.Num()*float64(time.Millisecond)))
			}
			reportLatency(b, ds)
		})
	}
}

// BenchmarkGroundingResolveAfterAction2000 is the Go side of Snap + Resolve after each of
// pageActions: decoding the page's difference from the last snapshot and resolving on it. The
// page's answers are taken once (untimed); each iteration decodes one again, prepares it either
// from scratch (scratch-*) or carrying the last snapshot's preparation over (carried-*, what
// Snap does), alternately, and resolves.
func BenchmarkGroundingResolveAfterAction2000(b *testing.B) {
	dir := b.TempDir()
	p := browsertest.Page(b, browsertest.Serve(b, dir)+"/"+bigPageActive(b, dir, 2000))
	ctx := context.Background()
	type answer struct {
		base *snapBase
		msg  string
	}
	var answers []answer
	for i := range 10 {
		s, err := Snap(ctx, p)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = Resolve(s, grounding2000[i]) // prepared, as after a node's resolution
		if _, err := p.Evaluate(rod.Eval(pageActions, i)); err != nil {
			b.Fatal(err)
		}
		base := snapBases.get(baseKey(p))
		raw, err := p.Call(ctx, string(p.SessionID), "Runtime.evaluate", proto.RuntimeEvaluate{Expression: snapExpr(base.doc, base.gen), ReturnByValue: true})
		if err != nil {
			b.Fatal(err)
		}
		msg, _, err := evalString(raw)
		if err != nil || msg == "" || msg[0] != 'D' && msg[0] != 'P' {
			b.Fatalf("action %d: %q, %v: want a difference or a patch", i, msg[:min(len(msg), 20)], err)
		}
		answers = append(answers, answer{base, msg})
		nb, _, err := readMessage(msg, base)
		if err != nil {
			b.Fatal(err)
		}
		snapBases.put(baseKey(p), nb)
	}
	var ds [2][]time.Duration
	for i := 0; b.Loop(); i++ {
		a, carry := answers[(i/2)%len(answers)], i%2
		t0 := time.Now()
		_, s, err := readMessage(a.msg, a.base)
		if err != nil {
			b.Fatal(err)
		}
		if carry == 0 {
			s.prev = nil
		}
		_, _ = Resolve(s, grounding2000[(i/2)%len(grounding2000)])
		ds[carry] = append(ds[carry], time.Since(t0))
	}
	b.ReportMetric(p50(ds[0]), "scratch-p50-ms")
	b.ReportMetric(p95(ds[0]), "scratch-p95-ms")
	b.ReportMetric(p50(ds[1]), "carried-p50-ms")
	b.ReportMetric(p95(ds[1]), "carried-p95-ms")
}
