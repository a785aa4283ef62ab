package semantic

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rodeo-run/rodeo/browser/browsertest"
)

// siblingPage is a list of cards whose class a click toggles; STYLE is where each case adds
// its rules.
const siblingPage = `<!doctype html><html><head><title>Plans</title><style>
.card { border: 1px solid #ccc; padding: 8px; margin: 4px }
.card.picked .note { visibility: hidden }
STYLE
</style></head><body><main id=list>
<div class=card id=c1><h3>Starter</h3><p class=note>For one person</p><button id=b1>Choose Starter</button></div>
<div class=card id=c2><h3>Team</h3><p class=note>Up to ten people</p><button id=b2>Choose Team</button></div>
<div class=card id=c3><h3>Business</h3><p class=note>Unlimited seats</p><button id=b3>Choose Business</button></div>
<div class=card id=c4><h3>Enterprise</h3><p class=note>Talk to sales</p><button id=b4>Choose Enterprise</button></div>
</main></body></html>`

// TestSnap_RestyleSiblings: after a class change, the style of the element's later siblings is
// read again only when a rule can reach them (a sibling combinator, :nth-child(of S)); on a page
// with none, the element's own subtree alone. Each snapshot must equal a fresh one.
func TestSnap_RestyleSiblings(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test")
	}
	dir := t.TempDir()
	base := browsertest.Serve(t, dir)
	for _, c := range []struct {
		name, style string
		siblings    bool // later siblings read again
	}{
		{"no sibling rule", "", false},
		{"an adjacent sibling", ".card.picked + .card .note { visibility: hidden }", true},
		{"a general sibling", ".card.picked ~ .card button { background: #dc2626; color: #fff }", true},
		{"nth-child of a class", ".card:nth-child(2 of .card:not(.picked)) h3 { visibility: hidden }", true},
		{"a zebra stripe is no sibling rule", ".card:nth-child(2n+1) { background: #f4f4f4 }", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			name := c.name + ".html"
			page := strings.Replace(siblingPage, "STYLE", c.style, 1)
			if err := os.WriteFile(filepath.Join(dir, name), []byte(page), 0o644); err != nil {
				t.Fatal(err)
			}
			p := snapPage(t, base+"/"+name, "")
			// The resize of snapPage's metrics lands before the first snapshot, not in a step.
			p.MustEval(`() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))`)
			countedSteps(t, p, "scoped", true, []step{
				evalStep(`() => document.getElementById('c1').classList.add('picked')`),
				evalStep(`() => document.getElementById('c1').classList.remove('picked')`),
			})
			// Each card's h3, p and button: 3 visibility reads, the button's disabled and the
			// h3's and button's colours (7); the first card's alone unless siblings are reached.
			reads := p.MustEval(`(k) => window[k].restyleReads`, windowKey).Int()
			if want := 7; c.siblings {
				if reads <= want {
					t.Errorf("%d style reads, want the later cards' too", reads)
				}
			} else if reads != want {
				t.Errorf("%d style reads, want the first card's %d", reads, want)
			}
		})
	}
}

// TestSnap_GluedChildTexts: an element's text puts a space between child boxes that no
// whitespace parts but the layout does: flex items, table cells, inline-block tags, an inline
// element with a margin, padding or border on that side (the start side of a right-to-left
// text being its right); a word split by markup alone stays whole.
func TestSnap_GluedChildTexts(t *testing.T) {
	_, s := snapFixture(t, "snap-glued.html")
	_, mail := snapFixture(t, "snap-mail.html")
	for _, c := range []struct {
		s        *Snapshot
		id, text string
	}{
		{s, "qty1", "Qty 2"},
		{s, "qty2", "Qty 4"},
		{s, "tags1", "Organic Handmade"},
		{s, "remove1", "Remove cushion"},
		{s, "rtl", "שלום עולםחבר ים"},
		{s, "word", "Add a gift note, or keep it as a surprise."},
		{mail, "f5", "Drafts 3"},
		{mail, "s2", "2 Signature"},
		{mail, "m2", "Northwind Air Your boarding pass for Friday Travel"},
	} {
		if e := byID(c.s, c.id); e == nil || e.Text != c.text {
			t.Errorf("#%s: %+v, want text %q", c.id, e, c.text)
		}
	}
}

// TestSnap_Strips: a promo, announcement or cookie strip (by a class or id that ends with
// "banner", "announcement-bar", "cookie-banner"...) is kept with its colour, and what is in it has
// the context "banner"; a part of one ("banner__title") is none, nor is the header landmark.
func TestSnap_Strips(t *testing.T) {
	_, s := snapFixture(t, "snap-look.html")
	for _, c := range []struct{ id, color, ctx string }{
		{"promo-strip", "yellow", "banner"},
		{"promo-close", "", "banner"},
		{"cookie-strip", "blue", "banner Cookie consent"},
		{"cookie-accept", "green", "banner Cookie consent"},
	} {
		if e := byID(s, c.id); e == nil || e.Color != c.color || !strings.HasPrefix(e.Context, c.ctx) {
			t.Errorf("#%s: %+v, want colour %q and context %q", c.id, e, c.color, c.ctx)
		}
	}
	// A class that makes a strip, or unmakes one, is seen by the next snapshot (a walk: rows
	// and contexts change), which equals a fresh one.
	ctx := context.Background()
	p, _ := snapFixture(t, "snap-look.html")
	s2 := snapAcross(ctx, t, p, "a tip made a banner", `() => document.querySelector('.tip').classList.add('promo-banner')`)
	if e := byID(s2, "tip-close"); e == nil || !strings.HasPrefix(e.Context, "banner promo banner") {
		t.Errorf("#tip-close after its card became a banner: %+v", e)
	}
	snapAcross(ctx, t, p, "a banner's class changed", `() => document.getElementById('promo-strip').className = 'notice'`)
	s3 := snapAcross(ctx, t, p, "a banner no more", `() => document.querySelector('.tip').classList.remove('promo-banner')`)
	if e := byID(s3, "tip-close"); e == nil || strings.Contains(e.Context, "banner") {
		t.Errorf("#tip-close after its card was a banner no more: %+v", e)
	}
	_, h := snapFixture(t, "snap-header.html")
	for _, e := range h.Elements {
		if strings.Contains(e.Context, "banner") {
			t.Errorf("%s #%s: context %q", e.Tag, e.IDAttr, e.Context)
		}
	}
}
