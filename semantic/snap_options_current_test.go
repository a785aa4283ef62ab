package semantic

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/go-rod/rod"
)

// TestSnap_OptionsAndCurrent: a select's options (not hidden ones, capped in count and length,
// whitespace-collapsed, optgroups flattened) and what aria-current says are recorded; an
// element marked current with no text of its own is kept.
func TestSnap_OptionsAndCurrent(t *testing.T) {
	_, s := snapFixture(t, "snap-checkout.html")
	country := byID(s, "country")
	if country == nil {
		t.Fatal("#country missing")
	}
	opts := strings.Split(country.Options, "\n")
	if len(opts) != 50 || opts[0] != "United States" || opts[2] != "United Kingdom" || opts[3] != "Argentina" || country.Value != "United Kingdom" {
		t.Errorf("#country: %d options %q, value %q", len(opts), country.Options, country.Value)
	}
	for _, c := range []struct{ id, options string }{
		{"speed", "Standard (5–7 business days) — Free\nExpress (2–3 business days) — $12.00\nOvernight — $29.00"},
		{"gift", "No gift wrap\nGift wrap — $4.99\nGift wrap with a handwritten card and a ribbon in the colour"},
		{"full-name", ""},
	} {
		if e := byID(s, c.id); e == nil || e.Options != c.options {
			t.Errorf("#%s: options %+v, want %q", c.id, e, c.options)
		}
	}
	for _, c := range []struct{ id, current string }{
		{"crumb-checkout", "page"}, {"step-shipping", "step"}, {"step-payment", ""}, {"step-cart", ""}, {"day-tue", "date"},
	} {
		if e := byID(s, c.id); e == nil || e.Current != c.current {
			t.Errorf("#%s: %+v, want current %q", c.id, e, c.current)
		}
	}
	if byID(s, "day-mon") != nil {
		t.Error("a day block with no text of its own and no mark is in the snapshot")
	}
	if e := byID(s, "day-tue"); e == nil || e.Text != "Tue 14" {
		t.Errorf("the current day: %+v", e)
	}
}

// TestSnap_OptionsAndCurrentChange: a change of a select's options or of aria-current is seen
// by the next snapshot, sent as a difference from the last one, which must say what a
// snapshot derived from scratch says.
func TestSnap_OptionsAndCurrentChange(t *testing.T) {
	ctx := context.Background()
	p, _ := snapFixture(t, "snap-checkout.html")
	steps := []struct {
		what, js string
		check    func(s *Snapshot) bool
	}{
		{"an option added", `() => document.getElementById('speed').add(new Option('Same day — $39.00'))`, func(s *Snapshot) bool {
			return strings.HasSuffix(byID(s, "speed").Options, "\nOvernight — $29.00\nSame day — $39.00")
		}},
		{"an option renamed", `() => { document.getElementById('speed').options[0].textContent = 'Standard (4–6 business days) — Free'; }`, func(s *Snapshot) bool {
			return strings.HasPrefix(byID(s, "speed").Options, "Standard (4–6 business days) — Free\n") && byID(s, "speed").Value == "Standard (4–6 business days) — Free"
		}},
		{"an option's text node changed", `() => { document.getElementById('gift').options[1].firstChild.data = 'Gift box — $7.50'; }`, func(s *Snapshot) bool {
			return strings.HasPrefix(byID(s, "gift").Options, "No gift wrap\nGift box — $7.50\n")
		}},
		{"an option removed", `() => document.getElementById('gift').options[0].remove()`, func(s *Snapshot) bool {
			return strings.HasPrefix(byID(s, "gift").Options, "Gift box — $7.50\n")
		}},
		{"an option hidden", `() => { document.getElementById('club-billing').options[0].hidden = true; }`, func(s *Snapshot) bool {
			return byID(s, "club-billing").Options == "Monthly – $4.99\nAnnually – $49.00"
		}},
		{"another option chosen", `() => { document.getElementById('club-billing').selectedIndex = 2; }`, func(s *Snapshot) bool {
			e := byID(s, "club-billing")
			return e.Value == "Annually – $49.00" && e.Options == "Monthly – $4.99\nAnnually – $49.00"
		}},
		{"all options replaced", `() => { document.getElementById('club-billing').innerHTML = '<optgroup label="Plans"><option>Weekly</option><option>Yearly</option></optgroup>'; }`, func(s *Snapshot) bool {
			return byID(s, "club-billing").Options == "Weekly\nYearly"
		}},
		{"the current step moved", `() => { document.getElementById('step-shipping').removeAttribute('aria-current'); document.getElementById('step-payment').setAttribute('aria-current', 'step'); }`, func(s *Snapshot) bool {
			return byID(s, "step-shipping").Current == "" && byID(s, "step-payment").Current == "step"
		}},
		{"an unknown kind of current", `() => document.getElementById('crumb-checkout').setAttribute('aria-current', ' Yes ')`, func(s *Snapshot) bool {
			return byID(s, "crumb-checkout").Current == "true"
		}},
		{"current no more", `() => document.getElementById('day-tue').setAttribute('aria-current', 'false')`, func(s *Snapshot) bool {
			return byID(s, "day-tue") == nil
		}},
		{"a day marked current", `() => document.getElementById('day-wed').setAttribute('aria-current', 'date')`, func(s *Snapshot) bool {
			e := byID(s, "day-wed")
			return e != nil && e.Current == "date" && e.Text == "Wed 15"
		}},
	}
	for _, st := range steps {
		if s := snapAcross(ctx, t, p, st.what, st.js); !st.check(s) {
			t.Errorf("%s: not seen by the next snapshot", st.what)
		}
	}
}

// snapAcross takes a snapshot, runs js in the page, and returns the next snapshot (a difference
// from the first), which must equal a fresh walk of the page (sameAsFresh).
func snapAcross(ctx context.Context, t *testing.T, p *rod.Page, what, js string) *Snapshot {
	t.Helper()
	// A snapshot the page knows the caller holds, so that the next one is a difference.
	if _, err := Snap(ctx, p); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Eval(js); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	s, err := Snap(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	sameAsFresh(t, what, p, s)
	return s
}

// sameAsFresh fails the test unless s (Snap's, taken last) equals what the page says when it
// derives everything again and walks the page anew.
func sameAsFresh(t *testing.T, what string, p *rod.Page, s *Snapshot) {
	t.Helper()
	res, err := p.Evaluate(rod.Eval(`(k, f) => window[k][f](0, 0, true)`, windowKey, snapFn))
	if err != nil {
		t.Fatal(err)
	}
	_, w, err := readMessage(res.Value.Str(), nil)
	if err != nil {
		t.Fatal(err)
	}
	a, b := *s, *w
	a.Gen, b.Gen, a.prep, b.prep, a.prev = 0, 0, nil, nil, nil
	if !reflect.DeepEqual(a, b) {
		for i := range min(len(a.Elements), len(b.Elements)) {
			if !reflect.DeepEqual(a.Elements[i], b.Elements[i]) {
				t.Fatalf("%s: element %d:\n%+v\n%+v", what, i, a.Elements[i], b.Elements[i])
			}
		}
		t.Fatalf("%s: %d vs %d elements", what, len(a.Elements), len(b.Elements))
	}
}

// TestDecodeWire_CurrentAndOptions: the current and options fields come last, in that order;
// a snapshot cut inside them is an error.
func TestDecodeWire_CurrentAndOptions(t *testing.T) {
	// gen 1, url "u", title "", 1 element: bits current and options, tag "a", role "b", no
	// parent, shape "c", selector "body", box 0 0 0 0, name "n", current "step", options
	// "Monthly" and "Annually".
	good := "B" + "Bu" + "A" + "B" + wireNum(wCurrent|wOptions) + "ABa" + "ABb" + "A" + "ABc" + "A" + "Ebody" + "AAAA" + "ABn" + "AEstep" + "AQMonthly\nAnnually"
	s, err := decodeWire(good)
	if err != nil {
		t.Fatal(err)
	}
	if e := s.Elements[0]; e.Current != "step" || e.Options != "Monthly\nAnnually" || e.Name != "n" {
		t.Fatalf("decoded %+v", e)
	}
	for i := 0; i < len(good); i++ {
		if _, err := decodeWire(good[:i]); err == nil {
			t.Errorf("truncated at %d: no error", i)
		}
	}
	// The options repeat the name: a text of the table, one back.
	if s, err := decodeWire("B" + "Bu" + "A" + "B" + wireNum(wOptions) + "ABa" + "ABb" + "A" + "ABc" + "A" + "Ebody" + "AAAA" + "ABn" + "B"); err != nil || s.Elements[0].Options != "n" || s.Elements[0].Current != "" {
		t.Errorf("options from the text table: %v %+v", err, s)
	}
}
