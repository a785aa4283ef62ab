package semantic

import "slices"

// "The banner" is what users call a promo, announcement or cookie strip (the snapshot gives
// what is in one the context "banner", see isStrip in snapshot.js), not what ARIA calls one
// (the page's header landmark, whose context is "header"). On a page with no such strip, the
// header is the only banner there is: "close the banner" is then the close button in it.

// bannerIsHeader makes p's context "banner" the header when no element of the page is in a
// banner. Once: a second ranking of p finds it done.
func bannerIsHeader(ps []prepared, p *Parsed) {
	i := slices.Index(p.Context, "banner")
	if i < 0 || anyContext(ps, stem("banner")) {
		return
	}
	p.Context = slices.Clone(p.Context)
	p.Context[i] = "header"
}
