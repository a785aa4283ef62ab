package semantic

import (
	"context"
	"testing"
)

// TestSnap_Color: controls, headings and banners carry a coarse name of the colour they show:
// their background's (named colours, hex, rgb), else their text's when it is a clear hue, else
// white for a white background (navy text on white is a white button); none for a gradient,
// the browser's own light grey of an unstyled button, dark text on a clear background, or an
// element that is not a control.
func TestSnap_Color(t *testing.T) {
	_, s := snapFixture(t, "look-colors.html")
	for _, c := range []struct{ id, color string }{
		{"cancel", "red"}, {"pay", "green"}, {"save", "blue"}, {"gift", "yellow"}, {"help", "black"},
		{"back", "grey"}, {"coupon", "blue"}, {"upgrade", ""}, {"terms", "purple"}, {"wish", "pink"},
		{"edit", ""}, {"plain", ""}, {"navy", "white"}, {"named", "red"}, {"rgba", "blue"}, {"promo", "orange"},
		{"warn-heading", "red"}, {"title", ""}, {"logo", "blue"},
	} {
		if e := byID(s, c.id); e == nil || e.Color != c.color {
			t.Errorf("#%s: %+v, want colour %q", c.id, e, c.color)
		}
	}
	for _, e := range s.Elements {
		if e.IDAttr == "note" && e.Color != "" {
			t.Errorf("a paragraph has colour %q", e.Color)
		}
	}
}

// TestSnap_ColorChange: a class or style change that recolours an element is seen by the next
// snapshot, sent as a difference from the last one, which says what a fresh walk says.
func TestSnap_ColorChange(t *testing.T) {
	ctx := context.Background()
	p, _ := snapFixture(t, "look-colors.html")
	steps := []struct {
		what, js, id, color string
	}{
		{"a class added", `() => document.getElementById('save').classList.add('selected')`, "save", "green"},
		{"a class swapped", `() => { const b = document.getElementById('pay'); b.classList.replace('btn-success', 'btn-danger'); }`, "pay", "red"},
		{"a style set", `() => { document.getElementById('edit').style.backgroundColor = 'rgb(124, 58, 237)'; }`, "edit", "purple"},
		{"a parent's class that restyles a child", `() => { document.querySelector('main').classList.add('x'); const st = document.createElement('style'); st.textContent = 'main.x #plain { color: #ea580c }'; document.head.append(st); }`, "plain", "orange"},
		{"a style removed", `() => { document.getElementById('named').removeAttribute('style'); }`, "named", ""},
	}
	for _, st := range steps {
		s := snapAcross(ctx, t, p, st.what, st.js)
		if e := byID(s, st.id); e == nil || e.Color != st.color {
			t.Errorf("%s: #%s %+v, want colour %q", st.what, st.id, e, st.color)
		}
	}
}

// TestSnap_ColorRestyleOnly: a class change alone (no sheet added), after a settled snapshot,
// is read through the restyle scope and still recolours.
func TestSnap_ColorRestyleOnly(t *testing.T) {
	ctx := context.Background()
	p, _ := snapFixture(t, "look-colors.html")
	for range 2 {
		if _, err := Snap(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := p.Eval(`() => document.getElementById('gift').className = 'btn btn-primary'`); err != nil {
		t.Fatal(err)
	}
	s, err := Snap(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if e := byID(s, "gift"); e == nil || e.Color != "blue" {
		t.Errorf("#gift: %+v, want blue", e)
	}
	sameAsFresh(t, "class change", p, s)
}

// TestDecodeWire_Color: the colour comes after the options; a snapshot cut inside it is an error.
func TestDecodeWire_Color(t *testing.T) {
	good := "B" + "Bu" + "A" + "B" + wireNum(wOptions|wColor) + "ABa" + "ABb" + "A" + "ABc" + "A" + "Ebody" + "AAAA" + "ABn" + "ACAB" + "ADred"
	s, err := decodeWire(good)
	if err != nil {
		t.Fatal(err)
	}
	if e := s.Elements[0]; e.Color != "red" || e.Options != "AB" {
		t.Fatalf("decoded %+v", e)
	}
	for i := 0; i < len(good); i++ {
		if _, err := decodeWire(good[:i]); err == nil {
			t.Errorf("truncated at %d: no error", i)
		}
	}
}

// TestSnap_RecolorPatched: a class or style change that recolours controls is sent as a patch
// of the last snapshot (the colour is a re-read value, as a select's text is), never through a
// full walk of the page, and the patched snapshot says what a fresh walk says.
func TestSnap_RecolorPatched(t *testing.T) {
	ctx := context.Background()
	p, _ := snapFixture(t, "snap-recolor.html")
	counter := func(name string) int { return p.MustEval(`(k, c) => window[k][c] || 0`, windowKey, name).Int() }
	for _, c := range []struct {
		what, js string
		colors   map[string]string
	}{
		{"a class swapped: blue to red", `() => document.getElementById('skip').classList.replace('btn-blue', 'btn-red')`, map[string]string{"skip": "red"}},
		{"a style set", `() => { document.getElementById('upgrade').style.backgroundColor = '#7c3aed'; }`, map[string]string{"upgrade": "purple"}},
		{"a parent's class recolours a button and a badge", `() => document.getElementById('plan').classList.add('paused')`, map[string]string{"pause": "orange", "badge": "yellow", "skip": "red"}},
		{"a gradient: no colour", `() => document.getElementById('address').classList.add('btn-grad')`, map[string]string{"address": ""}},
		{"and back", `() => { document.getElementById('address').classList.remove('btn-grad'); document.getElementById('plan').classList.remove('paused'); }`, map[string]string{"address": "blue", "pause": "blue", "badge": "green"}},
	} {
		if _, err := Snap(ctx, p); err != nil { // the base the next snapshot patches
			t.Fatal(err)
		}
		walks, patches := counter("walks"), counter("patches")
		p.MustEval(c.js)
		s, err := Snap(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		if counter("walks") != walks || counter("patches") != patches+1 {
			t.Errorf("%s: %d walks and %d patches, want a patch alone", c.what, counter("walks")-walks, counter("patches")-patches)
		}
		for id, color := range c.colors {
			if e := byID(s, id); e == nil || e.Color != color {
				t.Errorf("%s: #%s %+v, want colour %q", c.what, id, e, color)
			}
		}
		sameAsFresh(t, c.what, p, s)
	}
}

// TestReadMessage_ColorPatch: a patch's colour (what 8) recolours the element; a patch cut inside
// it is an error.
func TestReadMessage_ColorPatch(t *testing.T) {
	body := "Bu" + "A" + "B" + "A" + "ABa" + "ABb" + "A" + "ABc" + "A" + "Ebody" + "AAAA" + "ABn"
	b, s, err := readMessage("F"+"Cdc"+"B"+body, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Element 0, its box unchanged, now red; no item kinds.
	patch := "P" + "C" + "Bu" + "A" + "B" + "A" + wireNum(wColor) + "AAAA" + "I" + "Dred" + "A"
	_, s2, err := readMessage(patch, b)
	if err != nil || s2.Elements[0].Color != "red" || s.Elements[0].Color != "" {
		t.Fatalf("a recolour: %v %+v", err, s2)
	}
	for i := 0; i < len(patch); i++ {
		if _, _, err := readMessage(patch[:i], b); err == nil {
			t.Errorf("cut at %d: no error", i)
		}
	}
}

// TestSnap_ColorWhiteIsWhite: white is a clearly white background (#f5f5f5 up: #f8f9fa is); light
// greys (#e5e7eb) are grey; an unstyled button's face (the browser's buttonface, which nobody
// chose) has no colour.
func TestSnap_ColorWhiteIsWhite(t *testing.T) {
	_, s := snapFixture(t, "snap-look.html")
	for _, c := range []struct{ id, color string }{
		{"act1", ""}, {"act5", ""}, {"act2", "white"}, {"billing-title", "white"},
		{"act3", "grey"}, {"act4", "black"}, {"cookie-reject", ""},
	} {
		if e := byID(s, c.id); e == nil || e.Color != c.color {
			t.Errorf("#%s: %+v, want colour %q", c.id, e, c.color)
		}
	}
}
