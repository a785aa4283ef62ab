package semantic

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

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
