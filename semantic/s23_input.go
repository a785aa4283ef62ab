package semantic

import "regexp"

// Where to type, and fields told apart: descriptions that name a text field by what will be
// written in it ("where do I mention my nut allergy?", "write to the adjuster") rather than by
// its label.

// freeTextRe opens a description that writes prose: "write a new post", "where do I mention my
// allergy", "where I can explain my reason". What is written is sentences, not a value, and
// the field for sentences is a multi-line box (a textarea, or an editable div of a composer),
// whatever its label says ("Add a special request", "Tell us more", "Message body").
var freeTextRe = regexp.MustCompile(`(?i)^\s*(?:where\s+(?:(?:do|can|should|would|could)\s+)?(?:i|we|you)\s+(?:(?:can|could|should|would|will|need\s+to)\s+)?)?(?:write|mention|explain|describe|elaborate|jot\s+down|note\s+down)\b`)

// freeText reports whether description writes prose (see freeTextRe).
func freeText(description string) bool { return freeTextRe.MatchString(description) }

// Free-text fit: a multi-line box's text score is at least freeTextFloor (it is where prose
// goes, whatever it is named), and it gains freeTextBonus over a one-line field; a search box
// loses freeTextSearch (one searches there, one writes nothing to anybody).
const (
	freeTextFloor  = 0.35
	freeTextBonus  = 0.15
	freeTextSearch = 0.2
)

// multiLineBox reports whether e is a box for prose: an editable textbox that is no <input>
// (a textarea, or a contenteditable composer).
func multiLineBox(e *Element) bool {
	return e.Editable && e.Role == "textbox" && e.Tag != "input"
}

// searchBox reports whether e is a field for a search query: by its role or type, or a name
// that opens with "Search" ("Search mail").
func searchBox(pe *prepared) bool {
	e := pe.el
	if e.Role == "searchbox" || e.InputType == "search" {
		return true
	}
	t := pe.toks[0]
	return len(t) > 0 && t[0] == stemSearch
}

// stemSearch is "search" as compared tokens have it.
var stemSearch = stem("search")

// freeTextText is the text score of an element for a free-text description: a multi-line box
// scores at least freeTextFloor. why gets the reason when it rises.
func freeTextText(e *Element, textScore float64, why *[]string) float64 {
	if multiLineBox(e) && textScore < freeTextFloor {
		*why = append(*why, "a box for what is written")
		return freeTextFloor
	}
	return textScore
}

// freeTextFit is what an element gains or loses for a free-text description once it is a
// candidate: a multi-line box gains, a search box loses.
func freeTextFit(pe *prepared, why *[]string) float64 {
	switch {
	case multiLineBox(pe.el):
		*why = append(*why, "multi-line, for prose")
		return freeTextBonus
	case pe.el.Editable && searchBox(pe):
		*why = append(*why, "a search box, not for prose")
		return -freeTextSearch
	}
	return 0
}
