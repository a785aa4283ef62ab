package semantic

import "testing"

// TestResolve_GluedChildTexts: a control whose text is made of boxes with no whitespace between
// them (a count badge after a folder's name, a step's number circle, a mail row's sender, subject
// and label, as frameworks write them) reads with its words apart: "the Signature step" is not
// lost in "2Signature", nor "the invoice email" in "dana@fieldnotes.ioinvoice attachedWork".
func TestResolve_GluedChildTexts(t *testing.T) {
	runResolveCases(t, "snap-mail.html", []resolveCase{
		{"the Drafts folder", IntentAny, "", "f5"},
		{"the Signature step", IntentAny, "", "s2"},
		{"the Theme step", IntentAny, "", "s3"},
		{"the open house email", IntentAny, "", "m4"},
		{"the invoice email", IntentAny, "", "m6"},
		{"the security alert email", IntentAny, "", "m7"},
	})
}

// TestResolve_WhiteMeansWhite: "the white button" is the clearly white one, not an unstyled
// button in the browser's light grey face; "the grey button" the light grey one (#e5e7eb).
func TestResolve_WhiteMeansWhite(t *testing.T) {
	runResolveCases(t, "snap-look.html", []resolveCase{
		{"the white button", IntentClick, "", "act2"},
		{"click the white button in billing", IntentClick, "", "act2"},
		{"the grey button", IntentClick, "", "act3"},
	})
}

// TestResolve_Banner: "the banner" is a promo, announcement or cookie strip (by its class),
// with its colour; "close the banner" closes the strip, not the header's Close button.
func TestResolve_Banner(t *testing.T) {
	runResolveCases(t, "snap-look.html", []resolveCase{
		{"close the banner", IntentClick, "", "promo-close"},
		{"the yellow banner", IntentAny, "", "promo-strip"},
		{"the text in the announcement banner", IntentRead, "", "promo-text"},
	})
}
