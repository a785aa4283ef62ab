package semantic

import (
	"strings"
	"testing"
)

// TestStem_BritishSpelling: a British spelling and its American one stem alike in every
// inflection a page or a user writes, and words spelled alike on both sides keep their stems.
func TestStem_BritishSpelling(t *testing.T) {
	for _, c := range []struct{ gb, us string }{
		{"colour", "color"}, {"Colours", "colors"}, {"coloured", "colored"},
		{"favourite", "favorite"}, {"favourites", "favorites"}, {"behaviour", "behavior"},
		{"centre", "center"}, {"centres", "centers"}, {"theatre", "theater"}, {"kilometres", "kilometers"},
		{"catalogue", "catalog"}, {"dialogue", "dialog"}, {"licence", "license"}, {"defence", "defense"},
		{"analyse", "analyze"}, {"analysed", "analyzed"},
		{"cancelled", "canceled"}, {"cancelling", "canceling"}, {"travellers", "travelers"}, {"labelled", "labeled"},
		{"jewellery", "jewelry"}, {"enrolment", "enrollment"}, {"instalments", "installments"},
		{"grey", "gray"}, {"tyres", "tires"}, {"aluminium", "aluminum"}, {"programme", "program"},
		{"programmes", "programs"}, {"cheque", "check"}, {"judgement", "judgment"},
		{"organise", "organize"}, {"organised", "organized"}, {"organising", "organizing"},
		{"organiser", "organizer"}, {"organisation", "organization"}, {"organisations", "organizations"},
		{"customise", "customize"}, {"personalised", "personalized"}, {"prioritise", "prioritize"},
		{"authorisation", "authorization"}, {"summarise", "summarize"}, {"minimise", "minimize"},
	} {
		gb, us := tokens(strings.ToLower(c.gb)), tokens(strings.ToLower(c.us))
		if len(gb) != 1 || len(us) != 1 || gb[0] != us[0] {
			t.Errorf("tokens(%q) = %v, tokens(%q) = %v: want one stem for both", c.gb, gb, c.us, us)
		}
	}
	// Words spelled -ise on both sides, and words that only look British, keep their own stems.
	for _, c := range []struct{ a, b string }{
		{"exercise", "exercize"}, {"advertise", "advertize"}, {"supervise", "supervize"},
		{"hour", "hor"}, {"four", "for"}, {"your", "yor"}, {"tour", "tor"},
		{"acre", "acer"},
	} {
		if stem(c.a) == stem(c.b) {
			t.Errorf("stem(%q) = stem(%q) = %q: want them apart", c.a, c.b, stem(c.a))
		}
	}
}

// TestResolve_OtherSpelling: a British user on an American page, and an American one on a
// British page, name controls in their own spelling.
func TestResolve_OtherSpelling(t *testing.T) {
	runResolveCases(t, "spell-us-shop.html", []resolveCase{
		{"the colour dropdown", IntentAny, "", "color"},
		{"my favourites", IntentClick, "", "nav-favs"},
		{"show the cancelled orders", IntentClick, "", "tab-canceled"},
		{"tick personalised recommendations", IntentClick, "", "personalized"},
		{"centre the product images", IntentClick, "", "center-align"},
		{"customise my feed", IntentClick, "", "customize"},
		{"open the catalogue", IntentClick, "", "catalog"},
	})
	runResolveCases(t, "spell-uk-council.html", []resolveCase{
		{"choose the vehicle color", IntentClick, "", "colour"},
		{"the license number", IntentType, "", "licence"},
		{"pick it up at the civic center", IntentClick, "", "civic-centre"},
		{"the authorize checkbox", IntentClick, "", "authorise"},
	})
}
