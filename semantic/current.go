package semantic

import (
	"strings"
	"unicode"
)

// The element a page marks with aria-current (Element.Current) is the current one of a set:
// the page of a pagination or a breadcrumb, the step of a wizard, today in a calendar, the
// page a navigation is on. A description that asks for the current one ("the current page in
// the pagination", "which step am I on", "the active nav item", "today's date in the
// calendar", "the page I'm on") is answered by it. nowMark counts it too, as the strongest mark
// of the present, for the questions answerNow reads.

// currentKindWords are the description words that say which kind of current thing is asked
// for, by the kinds aria-current names.
var currentKindWords = map[string]string{
	"page": "page", "step": "step", "stage": "step", "phase": "step",
	"date": "date", "day": "date", "today": "date", "time": "time", "location": "location",
}

// currentWords mark a description as asking for the current one of a set.
// ("now" is not one: "what's playing now" asks what plays, which answerNow reads.)
var currentWords = map[string]bool{"current": true, "currently": true, "active": true, "today": true}

// currentSets are the description words that name a set of which a page marks one current
// when no kind says which ("the active nav item", "the current tab"): a navigation, a menu,
// tabs, a list's entries. "Which tariff am I on" asks for no such thing.
var currentSets = map[string]bool{
	"nav": true, "navigation": true, "navbar": true, "menu": true, "sidebar": true, "breadcrumb": true, "breadcrumbs": true,
	"tab": true, "link": true, "item": true, "entry": true, "section": true, "pagination": true,
}

// onPhrases ask where one is: "the page I'm on", "which step am I on".
var onPhrases = []string{"i'm on", "i am on", "am i on", "we're on", "are we on", "i'm at", "am i at"}

// askedCurrent returns the kind of current element a description asks for ("page", "step",
// "date", "time", "location"), "any" when it asks for the current one of a set it does not
// name by a kind ("the active nav item"), "" when it asks for none.
func askedCurrent(p *Parsed) string {
	text := strings.ToLower(firstOf(p.Said, p.Whole))
	if text == "" || strings.Contains(text, "playing") {
		return "" // what plays is marked as playing (see nowMark)
	}
	asks := false
	for _, ph := range onPhrases {
		if strings.Contains(text, ph) {
			asks = true
			break
		}
	}
	kind := ""
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' }) {
		w = strings.TrimSuffix(w, "'s")
		asks = asks || currentWords[w]
		if k := currentKindWords[w]; k != "" && (kind == "" || kind == "date" && w != "today") {
			kind = k
		}
	}
	switch {
	case !asks:
		return ""
	case kind == "":
		return "any"
	}
	return kind
}

// currentFits reports whether element e, marked current, is what a description asking for
// kind (see askedCurrent) asks for: one of that kind, or of no kind ("true"); for "any", one
// whose name, context, container or role says the set the description names (currentSets:
// "nav" for a link of the main navigation, "tab" for a tab).
func currentFits(s *Snapshot, ps []prepared, qt *queryText, e *Element, kind string) bool {
	if kind != "any" {
		return e.Current == kind || e.Current == "true"
	}
	var words []string
	for _, w := range qt.words {
		if currentSets[w] {
			words = append(words, tokens(canonicalContext(w))...)
		}
	}
	if len(words) == 0 {
		return false
	}
	for _, i := range []int{e.ID, e.Parent} {
		if i >= 0 && (ownsLikeAny(&ps[i], words) || contextLikeAny(&ps[i], words) || roleSaysAny(s.Elements[i].Role, words)) {
			return true
		}
	}
	return false
}

// roleSaysAny reports whether one of words names role ("link", "tab").
func roleSaysAny(role string, words []string) bool {
	return role != "" && contains(words, stem(role))
}

// answerCurrent hands the lead to the element the page marks as current when the description
// asks for the current one (askedCurrent) and that element fits (currentFits): of several,
// the one in what the description says it is in ("the current page in the pagination", not
// the breadcrumb's), then the one its words rank best. It leads the best candidate by
// presentLead.
func answerCurrent(s *Snapshot, ps []prepared, p *Parsed, qt *queryText, all []scored) []scored {
	kind := askedCurrent(p)
	if kind == "" {
		return all
	}
	at := indexByID(all)
	pick, pickScore := -1, 0.0
	for i := range s.Elements {
		e := &s.Elements[i]
		if e.Current == "" || !e.Visible || e.Covered || !currentFits(s, ps, qt, e, kind) {
			continue
		}
		sc := -1.0 // not a candidate: after any that is
		if j, ok := at[i]; ok {
			sc = all[j].Score
		}
		if len(qt.ctx) > 0 && contextLikeAny(&ps[i], qt.ctx) {
			sc += 10 // in the container the description names
		}
		if pick < 0 || sc > pickScore {
			pick, pickScore = i, sc
		}
	}
	if pick < 0 {
		return all
	}
	why := "marked as the current " + currentWhat(s.Elements[pick].Current)
	best := bestEligible(all)
	if best < 0 {
		// Nothing else fits ("what page am I on" where no element says "page"): the mark
		// alone answers.
		if j, ok := at[pick]; ok {
			all[j].Score, all[j].Why, all[j].eligible = max(all[j].Score, currentAlone), why+"; "+all[j].Why, true
			return all
		}
		return append(all, scored{Element: &s.Elements[pick], Score: currentAlone, Why: why, eligible: true})
	}
	if all[best].Element.ID == pick {
		return all
	}
	all = handDown(s, all, at, best, pick, why)
	j := at[pick]
	all[j].Score = max(round3(all[j].Score+presentLead), currentAlone)
	return all
}

// currentAlone is the least score of the element marked current that a description asks for:
// the page's own mark says it is the one, whatever words it shares.
const currentAlone = 0.6

// currentWhat names a kind of aria-current for a why.
func currentWhat(kind string) string {
	if kind == "true" {
		return "one"
	}
	return kind
}
