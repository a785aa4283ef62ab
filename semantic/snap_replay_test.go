package semantic

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/rodeo-run/rodeo/browser/browsertest"
)

// replayPage changes in ways no DOM mutation reports: hover and focus rules, scrollers, a lazy
// image, an animation, form state.
const replayPage = `<!doctype html><html><head><title>Replay</title><style>
#menu { display: none } #hov:hover #menu { display: block }
#fw:focus-within .pop { visibility: hidden }
#box { height: 80px; overflow: auto }
@keyframes slide { from { transform: translateX(0) } to { transform: translateX(200px) } }
.anim { animation: slide 0.5s linear infinite }
.big { padding: 30px }
@media (max-width: 600px) { #wide { display: none } }
#fade { transition: opacity 0.3s } #fade.out { opacity: 0 }
#hcb { display: none } #hcb:checked ~ #hsib { visibility: hidden }
x-late:not(:defined) { visibility: hidden }
#tgt:target { visibility: hidden }
.tip { visibility: hidden } #hov2:hover .tip { visibility: visible }
.dd { display: none } [aria-expanded=true] + .dd { display: block } [data-state=off] { visibility: hidden }
</style></head><body>
<nav><a href="/a">Home</a> <a id=wide href="/w">Wide only</a></nav>
<div id=hov><button id=menubtn>Menu</button><div id=menu><a href="/x">Hidden item</a></div></div>
<button id=eye><i id=eyei class="fa-solid fa-eye"></i></button><button id=bell><svg width=10 height=10><use id=belluse href="#icon-bell"></use></svg></button><button id=gear class="icon-gear"></button><button id=blank><i id=blanki></i></button><button id=dots></button>
<form id=fw><input id=name placeholder=Name><div class=pop><button type=button>Pop</button></div>
<input type=checkbox id=cb><label for=cb>Check me</label>
<input type=radio name=r id=r1><label for=r1>One</label><input type=radio name=r id=r2 checked><label for=r2>Two</label>
<select id=sel><option>Alpha</option><option>Beta</option></select>
<input type=password id=pw> <textarea id=ta></textarea></form>
<div id=box><p>Line 1</p><p>Line 2</p><p>Line 3</p><p>Line 4</p><p>Line 5</p><p>Line 6</p><p>Line 7</p></div>
<div><button id=toggle aria-expanded=false>More</button><div class=dd><a href="/m">More item</a></div></div>
<details id=det><summary>Details</summary><button>Inside details</button></details>
<dialog id=dlg><button>In the dialog</button></dialog>
<p id=sib1>Sibling one</p><p id=sib2>Sibling two</p>
<div class="card a" id=card1>First card <a href="/1">Open</a></div><div class="card b" id=card2>Second card <a href="/2">Open</a></div>
<div><span id=mover>Moving text</span></div>
<p id=fade>Fading text</p>
<progress id=prog max=200 value=50></progress> <meter id=met min=10 max=30 value=20></meter> <div role=progressbar id=pbar aria-label="Sync" aria-valuenow=10></div>
<div><input type=checkbox id=hcb><button id=hsib>Shown while unchecked</button></div>
<div popover id=pop><button>In the popover</button></div>
<x-late><button>Late button</button></x-late>
<div style="position: fixed; top: 0; right: 0"><p id=tgt>Targeted text</p><div id=hov2><button id=hbtn>Hover me</button><span class=tip>Tip text</span></div></div>
<div id=box2 style="height: 50px; overflow: auto"><div><ul><li>Deep 1</li><li>Deep 2</li><li>Deep 3</li><li>Deep 4</li><li>Deep 5</li></ul></div></div>
<img id=slowimg alt="Slow picture" style="position: absolute; left: 600px; top: 0">
<div id=host><span>Light text</span></div>
<div id=host2><span>Other light text</span></div>
<div id=host3 style="position: absolute; left: 0; top: 0"><span>Third light text</span></div>
<ul id=list><li class=row id=li1>First row <button>Buy</button></li><li class=row id=li2>Second row <button>Buy</button><ol><li id=nest1>Nested one</li><li class=sub>Nested two</li></ol></li><li>Third row</li></ul>
<ul><li id=lone>Only item</li></ul>
<ul><li class=c id=lic style="display: contents"><a href="/c">Contents link</a></li><li class=c>Other item</li></ul>
<table><tr class=r id=tr1><td>Cell one</td><td><button>Edit</button></td></tr><tr class=r id=tr2><td>Cell two</td><td><button>Edit</button></td></tr></table>
<div id=grid><div class=g id=g1>Grid one <a href="/g1">Go</a></div><div class=g id=g2>Grid two</div><div class=g id=g3>Grid three</div><div class=g id=g4>Grid four</div><div id=plain>Plain</div></div>
<div id=cards><div class=k id=k1><div><b>Kard 1</b></div><div><button>Pick 1</button></div></div><div class=k id=k2><div><b>Kard 2</b></div><div><button>Pick 2</button></div></div><div class=k><div><b>Kard 3</b></div><div><button>Pick 3</button></div></div><div class=picked><div><b>Kard 4</b></div><div><button>Pick 4</button></div></div><div class=picked><div><b>Kard 5</b></div><div><button>Pick 5</button></div></div></div>
<div style="height: 4000px"><h2>Far</h2></div>
<img src=pic.png loading=lazy alt="Lazy picture">
<p>After the image</p>
</body></html>`

// TestSnap_ReplayMatchesFresh: after changes that no mutation reports (and some that do), the
// usual snapshot (which reuses the last one when nothing it reads changed) must equal a fresh
// one taken at the same moment, and the reuse must happen when nothing changed.
func TestSnap_ReplayMatchesFresh(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "replay.html"), []byte(replayPage), 0o644); err != nil {
		t.Fatal(err)
	}
	img := image.NewRGBA(image.Rect(0, 0, 120, 90))
	for i := range img.Pix {
		img.Pix[i] = 200
	}
	img.Set(1, 1, color.Black)
	var pic bytes.Buffer
	if err := png.Encode(&pic, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pic.png"), pic.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	p := browsertest.Page(t, browsertest.Serve(t, dir)+"/replay.html")
	if err := (proto.EmulationSetDeviceMetricsOverride{Width: 1000, Height: 700, DeviceScaleFactor: 1}).Call(p); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Evaluate(rod.Eval(snapshotJS, windowKey)); err != nil {
		t.Fatal(err)
	}
	counter := func(name string) int {
		res, err := p.Eval(`(k, n) => window[k][n] || 0`, windowKey, name)
		if err != nil {
			t.Fatal(err)
		}
		return res.Value.Int()
	}
	replays := func() int { return counter("replays") }
	// check takes the usual snapshot and a fresh one in one go, right after act (a function of
	// the page, run in the same task: no event has been dispatched yet).
	check := func(step, act string) {
		t.Helper()
		res, err := p.Evaluate(rod.Eval(`(k, f, act) => { (0, eval)('(' + act + ')')(); const s = window[k]; return [s[f](), s[f](0, 0, true)]; }`, windowKey, snapFn, act))
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		sameWire(t, step, res.Value.Arr()[0].Str(), res.Value.Arr()[1].Str())
	}
	nothing := `() => {}`
	check("first", nothing)
	// A page still loading (a font, an image, a load event on a busy machine) moves on between
	// two snapshots, and is rightly measured again: it gets a few tries to settle.
	for try := 1; ; try++ {
		check("again", nothing)
		r0, s0 := replays(), counter("settled")
		check("unchanged", nothing)
		if replays() != r0+1 {
			t.Fatalf("an unchanged page was walked again (replays %d -> %d)", r0, replays())
		}
		if counter("settled") == s0+1 {
			break
		}
		if try == 3 {
			t.Fatalf("an unchanged page was measured again, %d times (settled %d -> %d)", try, s0, counter("settled"))
		}
		time.Sleep(200 * time.Millisecond)
	}
	steps := []struct{ name, act string }{
		{"type into a field", `() => { document.getElementById('name').value = 'Ada'; }`},
		{"type into a textarea", `() => { document.getElementById('ta').value = 'Notes'; }`},
		{"type a password", `() => { document.getElementById('pw').value = 'secret'; }`},
		{"click a checkbox", `() => document.getElementById('cb').click()`},
		{"click a radio", `() => document.getElementById('r1').click()`},
		{"choose an option", `() => { document.getElementById('sel').selectedIndex = 1; }`},
		{"disable by property", `() => { document.getElementById('name').disabled = true; }`},
		{"an input button's value", `() => { const b = document.createElement('input'); b.type = 'submit'; b.id = 'sub'; document.getElementById('fw').append(b); }`},
		{"the input button's value changes", `() => { document.getElementById('sub').value = 'Send now'; }`},
		{"a labelled checkbox disabled", `() => { document.getElementById('cb').disabled = true; }`},
		{"scroll the window", `() => window.scrollTo(0, 250)`},
		{"scroll an inner scroller", `() => { document.getElementById('box').scrollTop = 45; }`},
		{"reflow siblings by class", `() => document.getElementById('sib1').classList.add('big')`},
		{"style attribute", `() => { document.getElementById('sib2').style.marginLeft = '40px'; }`},
		{"style hides", `() => { document.getElementById('sib2').style.visibility = 'hidden'; }`},
		{"style shows", `() => { document.getElementById('sib2').style.visibility = ''; }`},
		{"style display none", `() => { document.getElementById('card1').style.display = 'none'; }`},
		{"style display back", `() => { document.getElementById('card1').style.display = ''; }`},
		{"a card's second class", `() => document.getElementById('card1').classList.add('open')`},
		{"a card's first class", `() => { document.getElementById('card2').className = 'tile b'; }`},
		{"a link's class", `() => { document.querySelector('#card1 a').className = 'go'; }`},
		{"a class and a value", `() => { document.querySelector('#card2 a').className = 'go  now'; document.getElementById('name').value = 'Bo'; }`},
		{"aria-expanded shows a menu", `() => document.getElementById('toggle').setAttribute('aria-expanded', 'true')`},
		{"data-state hides", `() => document.getElementById('sib1').setAttribute('data-state', 'off')`},
		{"data-state shows", `() => document.getElementById('sib1').setAttribute('data-state', 'on')`},
		{"disabled attribute", `() => document.getElementById('menubtn').setAttribute('disabled', '')`},
		{"checked attribute", `() => document.getElementById('r1').setAttribute('checked', '')`},
		{"value attribute", `() => document.getElementById('ta').setAttribute('value', 'v')`},
		{"details opened", `() => document.getElementById('det').setAttribute('open', '')`},
		{"an icon swapped", `() => { document.getElementById('eyei').className = 'fa-solid fa-eye-slash'; }`},
		{"a sprite icon swapped", `() => document.getElementById('belluse').setAttribute('href', '#icon-bell-off')`},
		{"an icon button's own icon class", `() => { document.getElementById('gear').className = 'icon-cog'; }`},
		{"an icon button gets a tooltip", `() => document.getElementById('bell').setAttribute('data-tooltip', 'Notifications')`},
		{"an empty icon becomes one", `() => { document.getElementById('blanki').className = 'bi bi-star'; }`},
		{"a data-icon is set", `() => document.getElementById('dots').setAttribute('data-icon', 'ellipsis-vertical')`},
		{"modal dialog shown", `() => document.getElementById('dlg').showModal()`},
		{"modal dialog closed", `() => document.getElementById('dlg').close()`},
		{"dialog opened by attribute", `() => document.getElementById('dlg').setAttribute('open', '')`},
		{"aria-modal", `() => { const d = document.getElementById('det'); d.setAttribute('role', 'dialog'); d.setAttribute('aria-modal', 'true'); }`},
		{"aria-modal off", `() => document.getElementById('det').setAttribute('aria-modal', 'false')`},
		{"a label's for", `() => { const l = document.querySelector('label[for=cb]'); l.htmlFor = 'r2'; }`},
		{"read-only", `() => document.getElementById('ta').setAttribute('readonly', '')`},
		{"a class set twice", `() => { const c = document.getElementById('card1'); c.className = 'x'; c.className = 'card y'; }`},
		{"insert a CSS rule", `() => document.styleSheets[0].insertRule('#sib2 { visibility: hidden }')`},
		{"insert a CSS rule that hides", `() => document.styleSheets[0].insertRule('#host { display: none }')`},
		{"start an animation", `() => document.getElementById('mover').classList.add('anim')`},
		{"start a transition", `() => document.getElementById('fade').classList.add('out')`},
		{"attach a shadow root", `() => { document.getElementById('host').attachShadow({mode: 'open'}).innerHTML = '<button>Shadow button</button><slot></slot>'; }`},
		{"attach a shadow root to a shown element", `() => { document.getElementById('host2').attachShadow({mode: 'open'}).innerHTML = '<slot></slot><button>Second shadow button</button>'; }`},
		{"attach a shadow root that moves nothing", `() => { document.getElementById('host3').attachShadow({mode: 'open'}).innerHTML = '<slot></slot><button style="position: absolute; left: 300px">Third shadow button</button>'; }`},
		{"a list item's first class", `() => { document.getElementById('li1').className = 'sel row'; }`},
		{"a list item's first class back", `() => document.getElementById('li1').classList.remove('sel')`},
		{"a list item's class new to the page", `() => { document.getElementById('li2').className = 'zz'; }`},
		{"a list item's class and a reflow", `() => { document.getElementById('li1').className = 'big row'; }`},
		{"a nested item's class", `() => { document.getElementById('nest1').className = 'sub'; }`},
		{"a lone list item's class", `() => { document.getElementById('lone').className = 'x'; }`},
		{"a display:contents item's class", `() => { document.getElementById('lic').className = 'd'; }`},
		{"a table row's first class", `() => { document.getElementById('tr1').className = 'picked'; }`},
		{"two rows' classes swapped", `() => { document.getElementById('tr1').className = 'r'; document.getElementById('tr2').className = 'picked'; }`},
		{"two grid cards' first class, items kept", `() => { document.getElementById('g1').className = 'h'; document.getElementById('g2').className = 'h x'; }`},
		{"a grid card's class ends an item", `() => { document.getElementById('g3').className = 'h'; }`},
		{"a plain div joins the items", `() => { document.getElementById('plain').className = 'h'; }`},
		{"a grid card's class back", `() => { document.getElementById('g3').className = 'g'; }`},
		{"a progress bar moves", `() => { document.getElementById('prog').value = 150; }`},
		{"a progress bar becomes indeterminate", `() => document.getElementById('prog').removeAttribute('value')`},
		{"a meter moves", `() => { document.getElementById('met').value = 25; }`},
		{"an ARIA progress bar moves", `() => document.getElementById('pbar').setAttribute('aria-valuenow', '60')`},
		{"an ARIA progress bar says its value", `() => document.getElementById('pbar').setAttribute('aria-valuetext', 'Almost done')`},
		{"focus a field", `() => document.getElementById('name').focus()`},
		{"push a URL", `() => history.pushState(null, '', '#pushed')`},
	}
	e0 := counter("reencodes")
	for _, s := range steps {
		check(s.name, s.act)
		check(s.name+", again", nothing)
	}
	if counter("reencodes") < e0+5 {
		t.Errorf("changes of form state and scrolling were not re-encoded (%d -> %d)", e0, counter("reencodes"))
	}
	// First classes that rename items but keep which containers are items: re-encoded, not
	// walked again.
	e1 := counter("reencodes")
	check("a list item's first class, once more", `() => { document.getElementById('li2').className = 'yy row'; }`)
	check("a grid card's first class, items kept", `() => { document.getElementById('g4').className = 'g y'; document.getElementById('g1').className = 'g'; }`)
	if counter("reencodes") != e1+2 {
		t.Errorf("class changes that keep the items were not re-encoded (%d -> %d)", e1, counter("reencodes"))
	}
	// Changes made through the browser, each checked right after and after a while (an
	// animation moves on, a lazy image loads, a transition ends).
	later := func(step string) {
		t.Helper()
		check(step, nothing)
		time.Sleep(150 * time.Millisecond)
		check(step+", later", nothing)
		time.Sleep(400 * time.Millisecond)
		check(step+", later still", nothing)
	}
	later("animating")
	if err := p.Mouse.MoveTo(proto.Point{X: 5, Y: 5}); err != nil {
		t.Fatal(err)
	}
	later("mouse moved")
	if _, err := p.Eval(`() => { window.scrollTo(0, 0); document.getElementById('name').blur(); }`); err != nil {
		t.Fatal(err)
	}
	later("scrolled back")
	box, err := p.Eval(`() => { const r = document.getElementById('menubtn').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }`)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Mouse.MoveTo(proto.Point{X: box.Value.Arr()[0].Num(), Y: box.Value.Arr()[1].Num()}); err != nil {
		t.Fatal(err)
	}
	later("hover shows a menu")
	if err := p.Mouse.MoveTo(proto.Point{X: 900, Y: 650}); err != nil {
		t.Fatal(err)
	}
	later("hover ends")
	if _, err := p.Eval(`() => document.getElementById('name').focus()`); err != nil {
		t.Fatal(err)
	}
	if err := p.InsertText("typed"); err != nil {
		t.Fatal(err)
	}
	later("typed by the browser")
	if err := (proto.EmulationSetDeviceMetricsOverride{Width: 500, Height: 600, DeviceScaleFactor: 1}).Call(p); err != nil {
		t.Fatal(err)
	}
	check("resized", nothing)
	later("resized, later")
	if _, err := p.Eval(`() => window.scrollTo(0, document.body.scrollHeight)`); err != nil {
		t.Fatal(err)
	}
	later("scrolled to the lazy image")
	if _, err := p.Eval(`() => { document.getElementById('mover').classList.remove('anim'); document.getElementById('fade').classList.remove('out'); document.getAnimations().forEach(a => a.cancel()); }`); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	check("still", nothing)
	r1, s1 := replays(), counter("settled")
	check("still, again", nothing)
	if replays() != r1+1 || counter("settled") != s1+1 {
		t.Errorf("a still page was walked or measured again (replays %d -> %d, settled %d -> %d)", r1, replays(), s1, counter("settled"))
	}
	// What restyles or moves a still page without a mutation, each on a page that was settled
	// just before (no animation running; events of the last step dispatched).
	settle := func(step string) {
		t.Helper()
		time.Sleep(100 * time.Millisecond)
		check("before "+step, nothing)
		s1 := counter("settled")
		check("before "+step+", again", nothing)
		if counter("settled") != s1+1 {
			t.Fatalf("before %s: the page was not settled", step)
		}
	}
	// A scroll that restyles nothing re-reads the boxes alone (boxed).
	for _, s := range []struct {
		name, act string
		boxed     bool
	}{
		{"a hidden check box checked by script", `() => { document.getElementById('hcb').checked = true; }`, false},
		{"a popover shown", `() => document.getElementById('pop').showPopover()`, false},
		{"a popover hidden", `() => document.getElementById('pop').hidePopover()`, false},
		{"a custom element defined", `() => customElements.define('x-late', class extends HTMLElement {})`, false},
		{"a style sheet disabled", `() => { document.styleSheets[0].disabled = true; }`, false},
		{"a style sheet enabled", `() => { document.styleSheets[0].disabled = false; }`, false},
		{"a fragment targets an element", `() => { location.hash = '#tgt'; }`, false},
		{"an inner scroller scrolled back", `() => { document.getElementById('box').scrollTop = 0; }`, true},
		{"a scroller's list scrolled", `() => { document.getElementById('box2').scrollTop = 30; }`, true},
		{"the window scrolled", `() => window.scrollTo(0, 120)`, true},
		{"a field focused", `() => document.getElementById('ta').focus()`, false},
		{"animate by script", `() => { document.getElementById('sib1').animate([{transform: 'translateX(0)'}, {transform: 'translateX(90px)'}], {duration: 60000}); }`, false},
	} {
		settle(s.name)
		b := counter("boxed")
		check(s.name, s.act)
		if s.boxed && counter("boxed") != b+1 {
			t.Errorf("%s: the boxes alone were not read again (boxed %d -> %d)", s.name, b, counter("boxed"))
		}
		check(s.name+", again", nothing)
	}
	// Hover, a style no script sets: the listeners count it.
	if _, err := p.Eval(`() => document.getAnimations().forEach(a => a.cancel())`); err != nil {
		t.Fatal(err)
	}
	settle("hover")
	if err := p.Mouse.MoveTo(proto.Point{X: 5, Y: 5}); err != nil {
		t.Fatal(err)
	}
	box, err = p.Eval(`() => { const r = document.getElementById('hbtn').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }`)
	if err != nil {
		t.Fatal(err)
	}
	settle("hover")
	if err := p.Mouse.MoveTo(proto.Point{X: box.Value.Arr()[0].Num(), Y: box.Value.Arr()[1].Num()}); err != nil {
		t.Fatal(err)
	}
	check("hover on a settled page", nothing)
	// An animation that ended holding its last frame (an entrance effect) leaves the page still.
	if _, err := p.Eval(`() => document.getElementById('sib2').animate([{opacity: 0}, {opacity: 1}], {duration: 30, fill: 'forwards'})`); err != nil {
		t.Fatal(err)
	}
	settle("after an animation that holds its end")
	// An image that finishes loading changes layout with no mutation (its load event and the
	// count of images still loading see it). Its server answers when told to.
	release := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
			return
		}
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write(pic.Bytes())
	}))
	defer slow.Close()
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}()
	if _, err := p.Eval(`(u) => { document.getElementById('slowimg').src = u; }`, slow.URL+"/slow.png"); err != nil {
		t.Fatal(err)
	}
	check("an image starts loading", nothing)
	s2 := counter("settled")
	check("an image starts loading, again", nothing)
	if counter("settled") != s2+1 {
		t.Fatalf("a page with an image loading was not settled")
	}
	close(release)
	if err := p.Wait(rod.Eval(`() => { const i = document.getElementById('slowimg'); return i.complete && i.naturalWidth > 0; }`)); err != nil {
		t.Fatal(err)
	}
	check("an image loaded", nothing)
}
