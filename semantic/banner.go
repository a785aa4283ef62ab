package semantic

// "The banner" is what users call a promo, announcement or cookie strip (the snapshot gives
// what is in one the context "banner", see isStrip in snapshot.js), not what ARIA calls one
// (the page's header landmark, whose context is "header"). On a page with no such strip, the
// header is the only banner there is: "close the banner" is then the close button in it.
