package semantic

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"
	"github.com/rodeo-run/rodeo/browser/browsertest"
)

// inputPage is a form whose style rules only paint on hover, focus and validity (colours,
// outlines, underlines), as most sites' do: user input cannot move or hide anything on it.
// STYLE is where a test puts one more rule.
const inputPage = `<!doctype html><html><head><title>Input</title><style>
a:hover { color: #06c; text-decoration: underline }
input:focus, textarea:focus { outline: 2px solid #06c; border-color: #06c; box-shadow: 0 0 0 2px #cde }
input:invalid { border-color: #c00 }
button:hover:not(:disabled) { background: #eee }
@media screen { label:hover { color: #333 } }
STYLE
</style>IMPORT</head><body>
<nav><a id=home href="/">Home</a> <a href="/help">Help</a></nav>
<form>
<label for=name>Name</label><input id=name required>
<label for=bio>Bio</label><textarea id=bio></textarea>
<input type=checkbox id=cb><label for=cb>Keep me posted</label>
<div class=panel><button type=button id=more>More options</button></div>
<input type=radio name=r id=r1><label for=r1>Email</label><input type=radio name=r id=r2 checked><label for=r2>Phone</label>
<select id=sel><option>Alpha</option><option>Beta</option></select>
<div class=field><input id=city placeholder=" "><label for=city>City</label><span class=hint>Where you live</span></div>
</form>
<div id=box style="height: 60px; overflow: auto"><p>One</p><p>Two</p><p>Three</p><p>Four</p><button id=deep>Deep button</button></div>
<div><p>Still text</p><p id=mover>Moving text</p></div>
<button id=slide onclick="document.getElementById('mover').animate([{transform: 'translateX(0)'}, {transform: 'translateX(80px)'}], {duration: 1, fill: 'forwards'})">Slide</button>
</body></html>`

// TestSnap_InputOnStillStyle: after real user input (keys, clicks, focus, hover) on a page whose
// style rules cannot follow it, the snapshot reads form state alone (counted as formed) and
// still equals a fresh one; a rule that can follow input (a :checked sibling hidden, a
// :focus-within hint, a floating label, a field sized by its content, a rule on hover in a
// media block, an imported or cross-origin sheet) makes every read happen again, and the
// snapshot is still right.
func TestSnap_InputOnStillStyle(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test")
	}
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/css")
		fmt.Fprint(w, "a { color: #333 }")
	}))
	defer other.Close()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "imported.css"), []byte("#cb:checked ~ .panel button { visibility: hidden }"), 0o644); err != nil {
		t.Fatal(err)
	}
	base := browsertest.Serve(t, dir)
	click := func(id string) func(p *rod.Page) {
		return func(p *rod.Page) { p.MustElement("#" + id).MustClick() }
	}
	typeInto := func(id, s string) func(p *rod.Page) {
		return func(p *rod.Page) { p.MustElement("#" + id).MustClick(); p.MustInsertText(s) }
	}
	for _, c := range []struct {
		name, style, imp string
		still            bool
		steps            []step
	}{
		{"paint only", "", "", true, []step{
			{"type into a field", typeInto("name", "Ada")},
			{"type into a textarea", typeInto("bio", "Hello")},
			{"press a key", func(p *rod.Page) { p.MustElement("#name").MustClick(); p.Keyboard.MustType(input.Backspace) }},
			{"click a check box", click("cb")},
			{"click a radio", click("r1")},
			{"choose an option", func(p *rod.Page) { p.MustElement("#sel").MustSelect("Beta") }},
			{"hover a link", func(p *rod.Page) { p.MustElement("#home").MustHover() }},
		}},
		{"a :checked sibling hidden", "#cb:checked ~ .panel button { visibility: hidden }", "", false, []step{{"click a check box", click("cb")}}},
		{"a :focus-within hint", ".hint { display: none } .field:focus-within .hint { display: inline }", "", false, []step{{"focus a field", click("city")}}},
		{"a floating label", ".field label { position: relative; top: 0 } #city:not(:placeholder-shown) + label { top: -12px }", "", false, []step{{"type into a field", typeInto("city", "Oslo")}}},
		{"a field sized by its content", "#name { field-sizing: content }", "", false, []step{{"type into a field", typeInto("name", "A much longer name")}}},
		{"a hover rule in a media block", "@media screen { .panel { visibility: hidden } #home:hover ~ * .panel, nav:hover + form .panel { visibility: visible } }", "", false, []step{{"hover a link", func(p *rod.Page) { p.MustElement("#home").MustHover() }}}},
		{"a custom property on hover", "nav { --gap: 0 } nav:hover { --gap: 20px } #home { margin-right: var(--gap) }", "", false, []step{{"hover a link", func(p *rod.Page) { p.MustElement("#home").MustHover() }}}},
		{"an imported sheet", "", `<style>@import "imported.css";</style>`, false, []step{{"click a check box", click("cb")}}},
		{"a cross-origin sheet", "", `<link rel=stylesheet href="` + other.URL + `/x.css">`, false, []step{{"type into a field", typeInto("name", "Ada")}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			page := strings.Replace(strings.Replace(inputPage, "STYLE", c.style, 1), "IMPORT", c.imp, 1)
			name := strings.ReplaceAll(c.name, " ", "-") + ".html"
			if err := os.WriteFile(filepath.Join(dir, name), []byte(page), 0o644); err != nil {
				t.Fatal(err)
			}
			// Every sheet in (an import and another origin's load on their own).
			p := snapPage(t, base+"/"+name, `() => [...document.querySelectorAll('link, style')].every(e => e.sheet) && [...document.styleSheets].every(s => { try { return [...s.cssRules].every(r => r.type !== 3 || r.styleSheet && r.styleSheet.cssRules.length) } catch (e) { return true } })`)
			countedSteps(t, p, "formed", c.still, c.steps)
		})
	}
	// An imported sheet that loads after the page's first snapshots: its rules count from then on.
	t.Run("an import that loads late", func(t *testing.T) {
		release := make(chan struct{})
		mux := http.NewServeMux()
		mux.HandleFunc("/late.html", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, strings.Replace(strings.Replace(inputPage, "STYLE", "", 1), "IMPORT", "", 1))
		})
		mux.HandleFunc("/slow.css", func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-release:
			case <-r.Context().Done():
				return
			}
			w.Header().Set("Content-Type", "text/css")
			fmt.Fprint(w, "#cb:checked ~ .panel button { visibility: hidden }")
		})
		srv := httptest.NewServer(mux)
		defer srv.Close()
		defer func() {
			select {
			case <-release:
			default:
				close(release)
			}
		}()
		p := browsertest.Page(t, srv.URL+"/late.html")
		if _, err := p.Evaluate(rod.Eval(snapshotJS, windowKey)); err != nil {
			t.Fatal(err)
		}
		snapNow := func() { p.MustEval(`(k, f) => window[k][f]()`, windowKey, snapFn) }
		snapNow()
		// Added after the load, which would wait for it.
		p.MustEval(`() => document.head.insertAdjacentHTML('beforeend', '<style>@import "/slow.css";</style>')`)
		snapNow()
		snapNow()
		p.MustElement("#name").MustClick()
		p.MustInsertText("Ada")
		snapNow() // the sheet is looked at, its import not loaded
		close(release)
		p.MustWait(`() => [...document.styleSheets].every(s => [...s.cssRules].every(r => r.type !== 3 || r.styleSheet && r.styleSheet.cssRules.length))`)
		snapNow()
		snapNow()
		f := p.MustEval(`(k) => window[k].formed || 0`, windowKey).Int()
		p.MustElement("#cb").MustClick()
		w := usualAndFreshWire(p)
		sameWire(t, "after the import loaded", w[0], w[1])
		if p.MustEval(`(k) => window[k].formed || 0`, windowKey).Int() != f {
			t.Errorf("read form state alone with the imported rule in force")
		}
	})
	// What a click's script does beyond input: scrolling an inner box (focus into view) or an
	// animation that ended holding its end frame moves boxes, so all is read again.
	t.Run("beyond input", func(t *testing.T) {
		page := strings.Replace(strings.Replace(inputPage, "STYLE", "", 1), "IMPORT", "", 1)
		if err := os.WriteFile(filepath.Join(dir, "beyond.html"), []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
		p := browsertest.Page(t, base+"/beyond.html")
		if _, err := p.Evaluate(rod.Eval(snapshotJS, windowKey)); err != nil {
			t.Fatal(err)
		}
		for _, s := range []struct {
			name string
			act  func(p *rod.Page)
		}{
			{"focus scrolls an inner box", func(p *rod.Page) { p.MustElement("#deep").MustFocus() }},
			{"a click starts a filled animation", func(p *rod.Page) {
				click("slide")(p)
				p.MustWait(`() => document.getAnimations().every(a => a.playState === 'finished')`)
			}},
		} {
			p.MustEval(`(k, f) => window[k][f]()`, windowKey, snapFn)
			p.MustEval(`(k, f) => window[k][f]()`, windowKey, snapFn)
			f := p.MustEval(`(k) => window[k].formed || 0`, windowKey).Int()
			s.act(p)
			w := usualAndFreshWire(p)
			sameWire(t, s.name, w[0], w[1])
			if p.MustEval(`(k) => window[k].formed || 0`, windowKey).Int() != f {
				t.Errorf("%s: read form state alone", s.name)
			}
		}
	})
}

// snapPage opens url at 1000×700, waits for ready (a function of the page) unless it is empty,
// and installs the snapshot.
func snapPage(t *testing.T, url, ready string) *rod.Page {
	t.Helper()
	p := browsertest.Page(t, url)
	if err := (proto.EmulationSetDeviceMetricsOverride{Width: 1000, Height: 700, DeviceScaleFactor: 1}).Call(p); err != nil {
		t.Fatal(err)
	}
	if ready != "" {
		p.MustWait(ready)
	}
	if _, err := p.Evaluate(rod.Eval(snapshotJS, windowKey)); err != nil {
		t.Fatal(err)
	}
	return p
}

// countedSteps takes the usual snapshot of p and a fresh one, which must be the same, before
// the steps, after each and once more after that; and checks that each step's first snapshot
// counted in the page's counter (formed, scoped...) exactly when want says.
func countedSteps(t *testing.T, p *rod.Page, counter string, want bool, steps []step) {
	t.Helper()
	count := func() int { return p.MustEval(`(k, c) => window[k][c] || 0`, windowKey, counter).Int() }
	usualAndFresh := func(step string) {
		t.Helper()
		w := usualAndFreshWire(p)
		sameWire(t, step, w[0], w[1])
	}
	usualAndFresh("first")
	usualAndFresh("settled")
	for _, s := range steps {
		n := count()
		s.act(p)
		usualAndFresh(s.name)
		if got := count() == n+1; got != want {
			t.Errorf("%s: counted in %s %v, want %v", s.name, counter, got, want)
		}
		usualAndFresh(s.name + ", again")
	}
}

// step is something done to a page between two snapshots.
type step struct {
	name string
	act  func(p *rod.Page)
}

// evalStep is a step that runs js (a function) in the page.
func evalStep(js string) step { return step{js, func(p *rod.Page) { p.MustEval(js) }} }

// usualAndFreshWire takes the usual snapshot of p and a fresh one in one go: their messages.
func usualAndFreshWire(p *rod.Page) [2]string {
	res := p.MustEval(`(k, f) => { const s = window[k]; return [s[f](), s[f](0, 0, true)]; }`, windowKey, snapFn)
	return [2]string{res.Arr()[0].Str(), res.Arr()[1].Str()}
}

// sameWire fails the test when the usual snapshot's body differs from the fresh one's, showing
// where.
func sameWire(t *testing.T, step, usual, fresh string) {
	t.Helper()
	u, f := withoutGen(t, usual), withoutGen(t, fresh)
	if u == f {
		return
	}
	i := 0
	for i < len(u) && i < len(f) && u[i] == f[i] {
		i++
	}
	t.Fatalf("%s: the snapshot differs from a fresh one at byte %d:\nusual %q\nfresh %q", step, i, u[max(0, i-80):min(len(u), i+80)], f[max(0, i-80):min(len(f), i+80)])
}
