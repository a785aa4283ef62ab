package semantic

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/rodeo-run/rodeo/errs"
)

// TestHandle_ClicksTheResolvedElement resolves, fetches the live element and clicks it: the page's
// own handler must run (the status text appears), also inside a shadow root and an iframe.
func TestHandle_ClicksTheResolvedElement(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		fixture, desc, check, want string
	}{
		{"icons.html", "Save changes", `() => document.getElementById('saved').textContent`, "All changes saved"},
		{"hidden.html", "Pay now", `() => document.getElementById('msg').textContent`, "Payment received. Thank you!"},
		{"shadow.html", "Thumbs up", `() => document.getElementById('rw').shadowRoot.getElementById('thanks').textContent`, "Thanks for the feedback"},
		{"shadow.html", "Framed button", `() => document.getElementById('frame').contentDocument.getElementById('in-frame').textContent`, "Framed clicked"},
		{"icons.html", "Share", `() => document.getElementById('share').textContent`, "Shared"},
	}
	for _, c := range cases {
		t.Run(c.desc, func(t *testing.T) {
			p, s := snapFixture(t, c.fixture)
			res, err := Resolve(s, Query{Description: c.desc, Intent: IntentClick})
			if err != nil {
				t.Fatal(err)
			}
			el, err := s.Handle(ctx, p, res.Element.ID)
			if err != nil {
				t.Fatal(err)
			}
			if err := el.Click(proto.InputMouseButtonLeft, 1); err != nil {
				t.Fatalf("click: %v", err)
			}
			got, err := p.Eval(c.check)
			if err != nil {
				t.Fatal(err)
			}
			if got.Value.Str() != c.want {
				t.Errorf("after clicking %s: %q, want %q", describe(&res.Element), got.Value.Str(), c.want)
			}
		})
	}
}

func TestHandle_Gone(t *testing.T) {
	ctx := context.Background()
	p, s := snapFixture(t, "modal.html")
	e := byID(s, "cookie-accept")
	if e == nil {
		t.Fatal("no #cookie-accept in the snapshot")
	}
	if _, err := p.Eval(`() => document.getElementById('cookie').remove()`); err != nil {
		t.Fatal(err)
	}
	_, err := s.Handle(ctx, p, e.ID)
	if !errs.Is(err, errs.TargetNotFound) {
		t.Fatalf("Handle of a removed element: %v, want %s", err, errs.TargetNotFound)
	}
	// Older snapshots keep their own handles after a newer one is taken.
	s2, err := Snap(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	h := byID(s, "headline")
	el, err := s.Handle(ctx, p, h.ID)
	if err != nil {
		t.Fatal(err)
	}
	if txt, _ := el.Text(); txt != "Daily news" {
		t.Errorf("old snapshot handle text %q", txt)
	}
	if s2.Gen == s.Gen {
		t.Errorf("generations did not advance: %d", s.Gen)
	}
	if _, err := (&Snapshot{Elements: s.Elements}).Handle(ctx, p, 0); err == nil {
		t.Error("a snapshot without a generation gave a handle")
	}
}

// TestSnap_DoesNotMutateTheDOM watches the whole document (shadow root and iframe too) during Snap.
func TestSnap_DoesNotMutateTheDOM(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"shadow.html", "signup.html", "modal.html"} {
		t.Run(name, func(t *testing.T) {
			p := fixture(t, name)
			_, err := p.Eval(`() => {
				window.__muts = [];
				const opts = {subtree: true, childList: true, attributes: true, characterData: true};
				const obs = new MutationObserver(rs => window.__muts.push(...rs.map(r => r.type + ' ' + (r.attributeName || '') + ' ' + r.target.nodeName)));
				obs.observe(document, opts);
				const w = document.getElementById('rw'); if (w) obs.observe(w.shadowRoot, opts);
				const f = document.getElementById('frame'); if (f) obs.observe(f.contentDocument, opts);
				window.__obs = obs;
			}`)
			if err != nil {
				t.Fatal(err)
			}
			s, err := Snap(ctx, p)
			if err != nil {
				t.Fatal(err)
			}
			got, err := p.Eval(`() => { const r = window.__muts.concat(window.__obs.takeRecords().map(r => r.type)); return JSON.stringify(r); }`)
			if err != nil {
				t.Fatal(err)
			}
			if got.Value.Str() != "[]" {
				t.Errorf("Snap mutated the DOM: %s", got.Value.Str())
			}
			if len(s.Elements) == 0 {
				t.Error("empty snapshot")
			}
			keys, err := p.Eval(`() => Object.keys(window).filter(k => k.includes('rodeo')).length`)
			if err != nil {
				t.Fatal(err)
			}
			if keys.Value.Int() != 0 {
				t.Error("the handle store is enumerable on window")
			}
		})
	}
}

func TestSnap_Fields(t *testing.T) {
	_, s := snapFixture(t, "signup.html")
	want := map[string]func(e *Element) bool{
		"email": func(e *Element) bool {
			return e.Role == "textbox" && e.Name == "Email address" && e.Label == "Email address" && e.Placeholder == "you@example.com" && e.Editable && e.InputType == "email" && e.NameAttr == "email"
		},
		"phone": func(e *Element) bool { return e.Name == "Phone number (optional)" && e.Label == "" },
		"terms": func(e *Element) bool {
			return e.Role == "checkbox" && strings.HasPrefix(e.Name, "I agree") && !e.Checked && e.Interactive
		},
		"country": func(e *Element) bool { return e.Role == "combobox" && e.Name == "Country" && e.Value == "France" },
		"bio":     func(e *Element) bool { return e.Name == "Tell us about yourself" && e.AriaLabel != "" },
		"create": func(e *Element) bool {
			return e.Role == "button" && e.Name == "Create account" && e.Visible && e.Enabled && e.Box.W > 0
		},
		"logo": func(e *Element) bool { return e.Role == "link" && e.Name == "Acme logo" && e.Href == "/" },
		"pw":   func(e *Element) bool { return strings.Contains(e.Context, "Sign up") && e.Selector == "#pw" },
	}
	for id, ok := range want {
		e := byID(s, id)
		if e == nil {
			t.Errorf("#%s missing", id)
			continue
		}
		if !ok(e) {
			b, _ := json.Marshal(e)
			t.Errorf("#%s: %s", id, b)
		}
	}
	_, h := snapFixture(t, "hidden.html")
	if byID(h, "pay-old") != nil {
		t.Error("a display:none button is in the snapshot")
	}
	if e := byID(h, "pay-ghost"); e == nil || e.Visible {
		t.Errorf("visibility:hidden button: %+v", e)
	}
	if e := byID(h, "coupon"); e == nil || e.Enabled {
		t.Errorf("disabled button: %+v", e)
	}
	_, m := snapFixture(t, "modal.html")
	if e := byID(m, "page-close"); e == nil || !e.Covered {
		t.Errorf("button behind the modal: %+v", e)
	}
	if e := byID(m, "dlg-close"); e == nil || e.Covered {
		t.Errorf("button in the modal: %+v", e)
	}
}

// TestSnap_CachedMatchesFresh checks the page-side cache of derived data: after random DOM
// changes, a snapshot that reuses it must equal one derived from scratch.
func TestSnap_CachedMatchesFresh(t *testing.T) {
	for _, name := range []string{"shadow.html", "signup.html", "modal.html", "table.html", "icons.html", "checklist.html", "framework.html"} {
		t.Run(name, func(t *testing.T) {
			p, _ := snapFixture(t, name)
			for round := 0; round < 16; round++ {
				mutate := rod.Eval(mutateJS, 7919*len(name)+round)
				if round%4 == 1 {
					// No mutation: form state, scrolling and hover styles only (see snap's replay).
					mutate = rod.Eval(stateJS, 7919*len(name)+round)
				}
				if round == 0 {
					// attachShadow is no mutation: the ancestors' cached text must still see it.
					mutate = rod.Eval(`() => { for (const e of document.querySelectorAll('body span, body div')) if (!e.shadowRoot && e.textContent.trim()) { e.attachShadow({mode: 'open'}).innerHTML = '<b>attached later</b> <slot></slot>'; return; } }`)
				}
				if _, err := p.Evaluate(mutate); err != nil {
					t.Fatalf("mutate: %v", err)
				}
				if round%3 == 2 {
					// Let the observer's callback take the records, as between real snapshots.
					if _, err := p.Eval(`() => new Promise(r => setTimeout(r, 0))`); err != nil {
						t.Fatal(err)
					}
				}
				res, err := p.Evaluate(rod.Eval(`(k, f) => { const s = window[k]; return [s[f](), s[f](0, 0, true)]; }`, windowKey, snapFn))
				if err != nil {
					t.Fatal(err)
				}
				cached, fresh := res.Value.Arr()[0].Str(), res.Value.Arr()[1].Str()
				if c, f := withoutGen(t, cached), withoutGen(t, fresh); c != f {
					i := 0
					for i < len(c) && i < len(f) && c[i] == f[i] {
						i++
					}
					t.Fatalf("round %d: the cached snapshot differs from a fresh one at byte %d:\ncached %q\nfresh  %q", round, i, c[max(0, i-60):min(len(c), i+60)], f[max(0, i-60):min(len(f), i+60)])
				}
			}
		})
	}
}

// withoutGen is the body of a whole-snapshot message (see readMessage): without its document id
// and generation.
func withoutGen(t *testing.T, w string) string {
	t.Helper()
	if w == "" || w[0] != 'F' {
		t.Fatalf("not a whole snapshot: %.40q", w)
	}
	r := &wireReader{s: w, i: 1}
	r.str()
	r.num()
	if r.err != nil {
		t.Fatal(r.err)
	}
	return w[r.i:]
}

// mutateJS applies a few random DOM changes (seeded): text, attributes the snapshot reads and
// others, hidden, added, removed and moved elements, text changed while detached, shadow roots
// attached to elements already snapshotted, style and form state, ids and labels.
const mutateJS = `(seed) => {
	let x = seed;
	const rnd = n => { x = (x * 1103515245 + 12345) % 2147483648; return x % n; };
	const all = [];
	const collect = root => { for (const e of root.querySelectorAll('*')) { all.push(e); if (e.shadowRoot) collect(e.shadowRoot); if (e.tagName === 'IFRAME') { try { if (e.contentDocument) collect(e.contentDocument); } catch (err) {} } } };
	collect(document);
	const els = all.filter(e => e.closest('body') || (e.getRootNode() instanceof ShadowRoot));
	if (!els.length) return 0;
	const pick = () => els[rnd(els.length)];
	const ops = [
		() => { const e = pick(); for (const c of e.childNodes) if (c.nodeType === 3) { c.data = c.data + ' zed' + rnd(9); return; } },
		() => { const e = pick(); e.setAttribute('aria-label', 'Label ' + rnd(50)); },
		() => { const e = pick(); e.removeAttribute('aria-label'); },
		() => { const e = pick(); if (e.tagName !== 'BODY' && e.tagName !== 'HTML') e.hidden = !e.hidden; },
		() => { const e = pick(); const b = e.ownerDocument.createElement('button'); b.textContent = 'New ' + rnd(100); e.appendChild(b); },
		() => { const e = pick(); if (e.tagName !== 'BODY' && e.tagName !== 'HTML' && e.parentNode) e.remove(); },
		() => { const a = pick(), b = pick(); if (!a.contains(b) && !b.contains(a) && b.tagName !== 'HTML' && b.tagName !== 'BODY' && a.ownerDocument === b.ownerDocument) a.appendChild(b); },
		() => { const e = pick(); e.setAttribute('role', ['button', 'heading', 'link', 'none', 'dialog'][rnd(5)]); },
		() => { const e = pick(); e.className = 'cls' + rnd(10); },
		() => { const e = pick(); e.title = 'Title ' + rnd(10); },
		() => { const e = pick(); if (e.tagName === 'DIV' || e.tagName === 'SPAN' || e.tagName === 'SECTION') { try { const r = e.attachShadow({mode: 'open'}); r.innerHTML = '<b>shadow ' + rnd(9) + '</b><slot></slot>'; } catch (err) {} } },
		() => { const e = pick(); if (e.shadowRoot) e.shadowRoot.appendChild(e.ownerDocument.createTextNode(' more ' + rnd(9))); },
		() => { const e = pick(); e.setAttribute('alt', 'Alt ' + rnd(9)); },
		() => { const e = pick(); e.setAttribute('aria-hidden', rnd(2) ? 'true' : 'false'); },
		() => { const e = pick(); if (e.parentNode && e.tagName !== 'BODY' && e.tagName !== 'HTML') { e.remove(); for (const c of e.querySelectorAll('*')) if (c.firstChild && c.firstChild.nodeType === 3) c.firstChild.data += ' detached'; e.ownerDocument.body.appendChild(e); } },
		() => { const e = pick(); e.style.display = rnd(2) ? 'none' : ''; },
		() => { const e = pick(); if ('value' in e && e.tagName === 'INPUT') e.value = 'typed ' + rnd(9); },
		() => { const e = pick(); e.id = 'id' + rnd(5); },
		() => { const h = pick(); if (h.tagName === 'LABEL') h.textContent = 'Relabel ' + rnd(9); else { const l = h.ownerDocument.createElement('h2'); l.textContent = 'Heading ' + rnd(9); h.before(l); } },
	];
	const n = 1 + rnd(6);
	for (let i = 0; i < n; i++) { try { ops[rnd(ops.length)](); } catch (err) {} }
	return n;
}`

// stateJS changes what no mutation reports (seeded): values, checked and selected states,
// window and element scrolling, the viewport's hover, a CSS rule.
const stateJS = `(seed) => {
	let x = seed;
	const rnd = n => { x = (x * 1103515245 + 12345) % 2147483648; return x % n; };
	const all = [...document.querySelectorAll('*')];
	const pick = sel => { const a = all.filter(e => e.matches(sel)); return a.length ? a[rnd(a.length)] : null; };
	const ops = [
		() => { const e = pick('input:not([type=checkbox]):not([type=radio]), textarea'); if (e) e.value = 'v' + rnd(99); },
		() => { const e = pick('input[type=checkbox], input[type=radio]'); if (e) e.checked = !e.checked; },
		() => { const e = pick('select'); if (e && e.options.length) e.selectedIndex = rnd(e.options.length); },
		() => window.scrollTo(0, rnd(400)),
		() => { const e = pick('div, section, ul, form, main'); if (e) { e.style.overflow = 'auto'; e.style.height = '40px'; } },
		() => { const e = pick('div, section, ul, form, main'); if (e) e.scrollTop = rnd(30); },
		() => { const e = pick('input, button, select'); if (e) e.disabled = !e.disabled; },
		() => { const sh = document.styleSheets[0] || document.head.appendChild(document.createElement('style')).sheet; const e = pick('p, span, a, button, li'); if (e && e.id) sh.insertRule('#' + CSS.escape(e.id) + ' { visibility: hidden }'); },
		() => { const e = pick('p, span, a, button, li'); if (e) e.focus(); },
	];
	const n = 1 + rnd(3);
	for (let i = 0; i < n; i++) { try { ops[rnd(ops.length)](); } catch (err) {} }
	return n;
}`

// TestSnap_Items: elements of one repeated container (a card, a list item) share an Item;
// look-alike containers have different Items of the same ItemKind; a one-off container is none.
func TestSnap_Items(t *testing.T) {
	_, s := snapFixture(t, "items.html")
	get := func(id string) *Element {
		e := byID(s, id)
		if e == nil {
			t.Fatalf("#%s missing", id)
		}
		return e
	}
	name1, status1, track1 := get("o1-name"), get("o1-status"), get("o1-track")
	name2 := get("o2-name")
	if name1.Item == 0 || status1.Item != name1.Item || track1.Item != name1.Item {
		t.Errorf("one order's parts: items %d %d %d, want one non-zero item", name1.Item, status1.Item, track1.Item)
	}
	if name2.Item == 0 || name2.Item == name1.Item || name2.ItemKind != name1.ItemKind || !strings.HasPrefix(name1.ItemKind, "div.order@") {
		t.Errorf("two orders: items %d (%s), %d (%s)", name1.Item, name1.ItemKind, name2.Item, name2.ItemKind)
	}
	if p := get("promo-text"); p.Item != 0 {
		t.Errorf("a one-off container is an item: %d %s", p.Item, p.ItemKind)
	}
	if a, b := get("l1-link"), get("l2-link"); a.Item == 0 || a.Item == b.Item || !strings.HasPrefix(a.ItemKind, "li@") || a.ItemKind == name1.ItemKind {
		t.Errorf("list items: %d %d (%s)", a.Item, b.Item, a.ItemKind)
	}
	// Component sites repeat custom elements for their cards (<product-tile>).
	n1, p1, n2 := get("t1-name"), get("t1-price"), get("t2-name")
	if n1.Item == 0 || p1.Item != n1.Item || n2.Item == n1.Item || n2.ItemKind != n1.ItemKind || !strings.HasPrefix(n1.ItemKind, "product-tile@") {
		t.Errorf("custom element cards: items %d %d %d (%s, %s)", n1.Item, p1.Item, n2.Item, n1.ItemKind, n2.ItemKind)
	}
	// An ARIA list item is one whatever its class: the unread thread among read ones.
	f1, s1, f2 := get("m1-from"), get("m1-subj"), get("m2-from")
	if f1.Item == 0 || s1.Item != f1.Item || f2.Item == 0 || f2.Item == f1.Item {
		t.Errorf("ARIA list items: %d %d %d (%s, %s)", f1.Item, s1.Item, f2.Item, f1.ItemKind, f2.ItemKind)
	}
}

// TestSnap_Containers checks that a repeated container with no element of its own (an applicant
// card made of a name block and a buttons block) is still described: its kind, and which
// container holds each block.
func TestSnap_Containers(t *testing.T) {
	_, s := snapFixture(t, "framework.html")
	kinds := map[int]string{}
	for _, c := range s.Containers {
		kinds[c.Item] = c.Kind
	}
	var cards []int
	for _, id := range []string{"rej-lh", "rej-bo", "rej-mg"} {
		e := byID(s, id)
		if e == nil {
			t.Fatalf("#%s missing", id)
		}
		k, ok := kinds[e.ItemUp]
		if e.Item == 0 || e.ItemUp == 0 || !ok || !strings.HasPrefix(k, "div.cd@") {
			t.Fatalf("#%s: item %d (%s) in %d, described as %q (%v); containers %+v", id, e.Item, e.ItemKind, e.ItemUp, k, ok, s.Containers)
		}
		cards = append(cards, e.ItemUp)
	}
	if cards[0] == cards[1] || cards[1] == cards[2] || kinds[cards[0]] != kinds[cards[2]] {
		t.Errorf("three cards of one list: %v %q %q", cards, kinds[cards[0]], kinds[cards[2]])
	}
	seen := map[int]bool{}
	for _, c := range s.Containers {
		if seen[c.Item] {
			t.Errorf("container %d described twice", c.Item)
		}
		seen[c.Item] = true
	}
}

// TestSnap_RangeValues: a range widget's value is its state, not its text: a progress bar's or
// meter's share of its range, an ARIA widget's aria-valuetext or aria-valuenow.
func TestSnap_RangeValues(t *testing.T) {
	_, s := snapFixture(t, "ranges.html")
	for id, want := range map[string]string{"up": "40%", "busy": "", "disk": "25%", "vol": "7 of 10", "sync": "60", "bass": "3"} {
		e := byID(s, id)
		if e == nil {
			t.Errorf("#%s missing", id)
			continue
		}
		if e.Value != want {
			t.Errorf("#%s (%s %q): value %q, want %q", id, e.Role, e.Name, e.Value, want)
		}
		if v, ok := e.RangeValue(); ok != (want != "") || v != want {
			t.Errorf("#%s: RangeValue() = %q, %v", id, v, ok)
		}
	}
	res, err := Resolve(s, Query{Description: "the upload progress", Intent: IntentRead})
	if err != nil || res.Element.IDAttr != "up" {
		t.Errorf("the upload progress: %s, %v", describe(&res.Element), err)
	}
}

// TestSnap_LineBreaksPartWords: a <br> renders as a line break, so the words on either side are
// two words ("6:30 AM" and "45 min", not "AM45"), in an element's text and in its container's.
func TestSnap_LineBreaksPartWords(t *testing.T) {
	_, s := snapFixture(t, "times.html")
	for id, want := range map[string]string{"t-spin-am": "6:30 AM 45 min", "act-1": "Lunch Walk Today · 12:40 PM"} {
		e := byID(s, id)
		if e == nil {
			t.Errorf("#%s missing", id)
			continue
		}
		if !strings.HasPrefix(e.Text, want) {
			t.Errorf("#%s text %q, want it to start with %q", id, e.Text, want)
		}
	}
	// So does an inline tag laid out as a block ("Thu" over "Jun 19" on a day tab); an inline
	// one inside a word does not.
	_, s = snapFixture(t, "lookups.html")
	for id, want := range map[string]string{"day-thu": "Thu Jun 19", "glued": "Reload"} {
		if e := byID(s, id); e == nil || e.Text != want {
			t.Errorf("#%s: %+v, want text %q", id, e, want)
		}
	}
	// And after it: a tile's figure laid out as a block before its label ("<b>412</b>Calories").
	_, s = snapFixture(t, "questions2.html")
	if e := byID(s, "kcal-tile"); e == nil || e.Text != "412 Calories" {
		t.Errorf("#kcal-tile: %+v, want text %q", e, "412 Calories")
	}
}

// TestSnap_RowHeaders: a th heads its row when its scope says so or when it sits among a body
// row's data cells, as Chrome maps it; a th in the head row heads its column.
func TestSnap_RowHeaders(t *testing.T) {
	_, s := snapFixture(t, "lookups.html")
	for id, want := range map[string]string{"club-1": "rowheader", "club-2": "rowheader"} {
		if e := byID(s, id); e == nil || e.Role != want {
			t.Errorf("#%s: %+v, want role %s", id, e, want)
		}
	}
	heads := 0
	for _, e := range s.Elements {
		if e.Role == "columnheader" && e.Tag == "th" {
			heads++
		}
	}
	if heads != 9 { // 4 in the statement, 5 in the league table
		t.Errorf("%d th columnheaders, want 9", heads)
	}
}

// TestSnap_SpreadsheetColumns: a spreadsheet's columns are lettered; a cell under a column is
// read as under its letter and the word its first row of cells says ("C Spent"), that row's
// own cells as under the letter alone, and a table whose lettered columns hold figures keeps
// its letters.
func TestSnap_SpreadsheetColumns(t *testing.T) {
	_, s := snapFixture(t, "sheet.html")
	for id, want := range map[string]string{"s-C3": "C Spent", "s-A4": "A Item", "s-D5": "D Left", "s-C1": "C", "t-2": "B"} {
		e := byID(s, id)
		if e == nil {
			t.Fatalf("#%s missing", id)
		}
		if col, _, _ := strings.Cut(e.Context, " | "); col != want {
			t.Errorf("#%s context %q, want its column %q", id, e.Context, want)
		}
	}
}
