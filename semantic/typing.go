package semantic

import (
	"regexp"
	"slices"
	"strings"
)

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

// fieldCaption returns the short text that captions an unlabelled field from just before it,
// beside it: "VAT / Tax ID" in a div over <input placeholder="e.g.
// GB123456789">, "To" before a date box. Pages build forms of divs without <label>s, and the
// field's name is then only its placeholder, which shows a format, not what the field is.
// Beside is in the same parent, or the same item when the wrappers are not in the snapshot. ""
// when the field has a label of its own, or the element before it is no short plain text.
// (It reads what carriedPrep compares: a neighbour's name and text, not its box or visibility.)
func fieldCaption(s *Snapshot, i int) string {
	e := &s.Elements[i]
	if i == 0 || !e.Editable || e.Label != "" || e.AriaLabel != "" || e.Title != "" {
		return ""
	}
	c := &s.Elements[i-1]
	beside := c.Parent == e.Parent && e.Parent >= 0 || e.Item != 0 && c.Item == e.Item
	if !beside || c.Interactive || c.Editable {
		return ""
	}
	t := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(firstOf(c.Text, c.Name)), ":*"))
	if t == "" || len(t) > 40 || !hasLetter(t) {
		return ""
	}
	if sec, _, _ := strings.Cut(e.Context, " | "); sec == t {
		// The snapshot reads it as the heading of the field's section ("Message your
		// adjuster" over a message box and its Send button): the context says it already.
		return ""
	}
	return t
}

// captionPreps are prepositions that forms use as the caption of a field: a From and a To date,
// the To line of an email.
var captionPreps = map[string]bool{"to": true, "from": true}

// namedPrep reports whether main[i] is a preposition used as a name: right after "the" and
// before a noun ("the To date", "the from field"), it says which of two look-alike fields, as
// the captions beside them do; elsewhere ("the flight to Oslo") it is a stop word.
func namedPrep(main []string, i int) bool {
	return captionPreps[main[i]] && i > 0 && main[i-1] == "the" && i+1 < len(main) &&
		(contentWord(main[i+1]) || roleWords[main[i+1]] != nil)
}

// captionsOther reports whether element a is the caption of a field other than c (see
// fieldCaption): it names that field, and lends c no words as an anchor ("Tax ID" over its
// box says nothing of the Card number field below it). A field's lead is its caption: leadOf
// leads no field.
func captionsOther(ps []prepared, a, c int) bool {
	f := a + 1
	return f != c && f < len(ps) && ps[f].el.Editable && ps[f].lead != ""
}

// formAbbreviations are the short forms payment and address forms label fields with, as the
// words a description uses: "the security code field" is the box labelled CVC, "the
// apartment number" the one labelled "Apt, suite, etc." (an apartment is given by its
// number, which "Apt" stands for). A URL's scheme reads as "url": a
// field whose placeholder is "https://" takes a URL ("the LinkedIn URL"), and a text that
// shows an address is one. Like foreignWords, both sides of every comparison read them so.
var formAbbreviations = map[string]string{
	"cvc": "security code", "cvv": "security code", "cvv2": "security code", "csc": "security code",
	"apt":  "apartment number",
	"http": "url", "https": "url",
	// Account security: "require 2FA" is the "Require two-factor authentication" switch.
	"2fa": "two factor authentication",
}

// formAbbrStems is formAbbreviations as stem answers them (see stemAs).
func formAbbrStems() map[string]string {
	m := make(map[string]string, len(formAbbreviations))
	for w, en := range formAbbreviations {
		var st []string
		for _, e := range strings.Fields(en) {
			st = append(st, stemRules(e))
		}
		m[w] = strings.Join(st, " ")
	}
	return m
}

// typedKind is the value kind's fit (kindFit's d and fits) of a field a value is to be typed
// into: it holds no value yet, so no shape counts against it ("how many miles I drive per
// year" asks a count, and the Annual mileage box is empty, with no digit to show).
func typedKind(d float64, fits bool) (float64, bool) {
	return max(d, 0), fits
}

// valueWordsNameAField turns the price role words of a description that types and says
// nothing else ("enter the amount", "type the price") back into words: read, "the amount" is a
// figure shown as text or in a cell; typed, it is the field labelled Amount, and a text or a
// cell takes no typing. (With other words, "enter the estimated cost of the work", the role
// finds the label that the field's value hands on to.)
func valueWordsNameAField(p *Parsed, intent Intent) {
	if intent != IntentType || len(p.RoleWords) == 0 || len(p.Words) > 0 || slices.ContainsFunc(p.RoleWords, func(w string) bool { return !priceRoleWords[w] }) {
		return
	}
	p.Words = append(p.Words, p.RoleWords...)
	p.Texts = append(p.Texts, p.RoleWords...)
	p.Roles, p.RoleWords = nil, nil
	p.WholeNoRole = p.Whole
}
