package semantic

import (
	"testing"

	"github.com/go-rod/rod"
	"github.com/rodeo-run/rodeo/browser/browsertest"
)

func TestTmpCost(t *testing.T) {
	dir := t.TempDir()
	p := browsertest.Page(t, browsertest.Serve(t, dir)+"/"+bigPageActive(t, dir, 2000))
	res := p.MustEval(`() => {
	  const els = [...document.body.querySelectorAll('*')];
	  const cards = document.querySelectorAll('ol > li');
	  const T = {box: [], vis: [], cs: [], both: []};
	  for (let i = 0; i < 41; i++) {
	    let c = cards[(i * 7) % cards.length]; c.classList.toggle('selected');
	    let t0 = performance.now(); document.body.getBoundingClientRect(); T.both.push(performance.now() - t0); t0 = performance.now(); for (const e of els) e.getBoundingClientRect(); T.box.push(performance.now() - t0);
	    t0 = performance.now(); for (const e of els) e.checkVisibility(); T.vis.push(performance.now() - t0);
	    t0 = performance.now(); for (const e of els) { const s = getComputedStyle(e); s.display; s.cursor; } T.cs.push(performance.now() - t0);
	    c = cards[(i * 11) % cards.length]; c.classList.toggle('selected');
	  }
	  const med = a => a.sort((x, y) => x - y)[a.length >> 1].toFixed(2);
	  return 'n=' + els.length + ' box ' + med(T.box) + ' vis ' + med(T.vis) + ' cs ' + med(T.cs) + ' layout ' + med(T.both);
	}`).String()
	t.Log(res)
	_ = rod.Eval
}
