package semantic

import (
	"regexp"
	"slices"
	"strings"
)

// Idioms: words that look like the names of things but are part of a fixed phrase. "back"
// after a verb of motion ("the flight that lands back in Boston") says where to, not a Back
// button, and "go back" alone is that button; "switch the cities" swaps them; "get" reads only
// a value ("get the order total"), before anything else it is a control's word ("Get
// directions"); "ready for pickup" is a state, pickup no owner.

// motionVerbs are the verbs after which "back" is an adverb: "lands back", "came back",
// "fly back", "sent back".
var motionVerbs = map[string]bool{
	"land": true, "lands": true, "landed": true, "landing": true,
	"come": true, "comes": true, "came": true, "coming": true,
	"get": true, "gets": true, "got": true, "getting": true,
	"fly": true, "flies": true, "flew": true, "flying": true,
	"bring": true, "brings": true, "brought": true, "bringing": true,
	"send": true, "sends": true, "sent": true, "sending": true,
	"head": true, "heads": true, "headed": true, "heading": true,
	"drive": true, "drives": true, "drove": true, "driving": true,
	"travel": true, "travels": true, "traveled": true, "travelled": true, "traveling": true, "travelling": true,
	"arrive": true, "arrives": true, "arrived": true, "arriving": true,
	"ship": true, "ships": true, "shipped": true, "shipping": true,
	"go": true, "goes": true, "went": true, "going": true,
}

// adverbBack reports whether main[i] is a "back" that says where a thing moves ("the flight
// that lands back in Boston", "when does the parcel get back to the sender"): no word of the
// target, which is the flight or the date, not the Back button. A verb that opens the
// description is an instruction, and "go back" names the control.
func adverbBack(main []string, i int) bool {
	return main[i] == "back" && i > 1 && motionVerbs[main[i-1]]
}

// goBackRe is an instruction to go back with nothing said of where to: the page's Back
// control ("go back", "go back a page").
var goBackRe = regexp.MustCompile(`(?i)^\s*(?:go|navigate|head)\s+back(?:\s+(?:a|one)\s+(?:page|screen|step))?\s*$`)

// swapPairRe is an instruction to switch two places given as a plural ("switch the cities",
// "flip the two airports"): the form's Swap button. ("switch X and Y" is vocabularyRewrites';
// "switch accounts" is no pair.)
var swapPairRe = regexp.MustCompile(`(?i)^\s*(?:switch|flip|exchange|interchange|reverse)\s+(?:the\s+)?((?:two|2)\s+\S+|cities|airports|stations|places|locations|towns|ends|destinations|stops)\s*$`)

// goBackToRe is an instruction to go back to a place the page names ("go back to step 1"):
// the place, unless it is only where one was before ("go back to the previous step" is the
// Back button).
var goBackToRe = regexp.MustCompile(`(?i)^\s*go\s+back\s+to\s+((?:the\s+)?(\S+).*)$`)

// relativePlaces say where one was before rather than name a place.
var relativePlaces = map[string]bool{"previous": true, "prior": true, "last": true, "earlier": true, "before": true}

// rewriteIdioms rewrites an instruction to go back into the name of the control that does it
// ("go back": Back) or into going to the place it names ("go back to step 1"), and one to
// switch two places into a swap ("switch the cities").
func rewriteIdioms(s string) string {
	if goBackRe.MatchString(s) {
		return "back"
	}
	if m := goBackToRe.FindStringSubmatch(s); m != nil && !relativePlaces[strings.ToLower(m[2])] {
		return "go to " + m[1]
	}
	return swapPairRe.ReplaceAllString(s, "swap $1")
}

// valueNouns name what one reads off a page rather than a control: "get the order number",
// "get her email address".
var valueNouns = map[string]bool{
	"number": true, "address": true, "name": true, "title": true, "text": true, "status": true,
	"value": true, "email": true, "phone": true, "url": true, "id": true, "message": true, "error": true,
	"heading": true, "label": true, "description": true, "summary": true, "details": true, "content": true,
}

// readsValue reports whether the object of "get" is a value to read ("get the order total",
// "get the tracking number"), not what a control offers ("get directions", "get a quote",
// "Get the app").
func readsValue(object string) bool {
	for _, w := range strings.Fields(strings.ToLower(object)) {
		w = strings.Trim(w, ".,;:!?'\"")
		if _, kind := kindWords[w]; kind || valueNouns[w] || figureWords[w] || priceRoleWords[w] {
			return true
		}
	}
	return false
}

// forPhrases are words that take "for" in a fixed phrase, so that the words after it are no
// owner ("the orders ready for pickup", "items eligible for return", "apply for a loan"): the
// phrase names a state or an action, as a page writes it ("Ready for pickup"). (Not
// "available", "approved", "registered": "the slots available for Friday", "the hours approved
// for Dana" are Friday's and Dana's.)
var forPhrases = map[string]bool{
	"ready": true, "eligible": true, "apply": true, "pay": true, "search": true, "shop": true, "vote": true,
	"ask": true, "wait": true, "waiting": true, "look": true, "looking": true,
}

// fixedFor reports whether the "for" at main[i] is part of a fixed phrase with the word before
// it (see forPhrases), or ends a role word's phrase whose rest is an action ("the button for
// sign up"): an owner it does not introduce.
func fixedFor(main []string, i int) bool {
	if i == 0 || i >= len(main) || main[i] != "for" {
		return false
	}
	if forPhrases[main[i-1]] {
		return true
	}
	if roleWords[main[i-1]] == nil {
		return false
	}
	rest := strings.Join(main[i+1:], " ")
	return slices.Contains(phrasalVerbs, rest)
}
