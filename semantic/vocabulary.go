package semantic

import (
	"regexp"
	"strconv"
	"strings"
)

// People say what they want in their own words; pages label controls with the trade's words.
// "Make my own copy of this project" is the Fork button, "an expert" the Ask a specialist
// button, "double the recipe" the 2x tab. The tables here carry the general equivalences of
// web interface vocabulary that synonyms.go's word alternatives do not: groups of words that
// name one concept (each may stand for the others), and ways of writing a time span that
// range pickers shorten ("one year" is the 1Y of a chart's ranges).

// conceptGroups are words that name one concept on web pages: each is an alternative (see
// alternative) for every other word of its group. A word may be in two groups when it has two
// senses ("fork": a copy of a project, a piece of cutlery).
var conceptGroups = lexicon.conceptWords()

// directedAlternatives are alternatives one way only: the description word on the left may be
// said by a page with the words on the right, not the other way round.
var directedAlternatives = alternativeMap(lexicon.DirectedAlternatives)

// addAlternatives adds the concept groups and directed alternatives to out (alternatives,
// stemmed as every compared token is).
func addAlternatives(out map[string]map[string]bool) {
	add := func(a, b string) {
		sa := stem(a)
		if out[sa] == nil {
			out[sa] = map[string]bool{}
		}
		for _, t := range tokens(strings.ToLower(b)) {
			if t != sa {
				out[sa][t] = true
			}
		}
	}
	for _, g := range conceptGroups {
		for _, a := range g {
			for _, b := range g {
				if a != b {
					add(a, b)
				}
			}
		}
	}
	for a, bs := range directedAlternatives {
		for _, b := range bs {
			add(a, b)
		}
	}
}

// spanUnits are the abbreviations range pickers use for a unit of time after a count ("1Y",
// "5yr", "6mo", "2wk"), and the word each stands for. One letter "m" is not among them: "1m"
// is as often a minute or a million as a month.
var spanUnits = map[string]string{"y": "year", "yr": "year", "yrs": "year", "mo": "month", "mos": "month", "wk": "week", "wks": "week"}

// spanStems is what stem returns outright for a count and a span unit written as one word
// ("1y" -> "1 year"), for the counts range pickers use.
func spanStems() map[string]string {
	m := map[string]string{}
	for _, n := range []int{1, 2, 3, 4, 5, 6, 9, 10, 12, 15, 18, 20, 24, 30} {
		for abbr, unit := range spanUnits {
			m[strconv.Itoa(n)+abbr] = strconv.Itoa(n) + " " + stemRules(unit)
		}
	}
	return m
}

// spanCountRe is a count written as a word before a unit of time: "one year", "six months".
var spanCountRe = regexp.MustCompile(`(?i)\b(one|two|three|four|five|six|nine|ten|twelve)([- ](?:years?|months?|weeks?)\b)`)

// countWords are the counts spanCountRe reads.
var countWords = map[string]string{"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
	"nine": "9", "ten": "10", "twelve": "12"}

// spanCounts writes the count of a time span in digits ("the one year chart" -> "the 1 year
// chart"): "one" is a stop word, and the page's range button says "1Y".
func spanCounts(s string) string {
	if !strings.Contains(s, "year") && !strings.Contains(s, "month") && !strings.Contains(s, "week") {
		return s
	}
	return spanCountRe.ReplaceAllStringFunc(s, func(m string) string {
		sub := spanCountRe.FindStringSubmatch(m)
		return countWords[strings.ToLower(sub[1])] + sub[2]
	})
}

// vocabularyRewrites are phrase rewrites of what people say into the words pages use, applied
// after phraseRewrites.
var vocabularyRewrites = lexicon.rules(lexicon.VocabularyRewrites)

// rewriteVocabulary applies vocabularyRewrites and spanCounts to a description.
func rewriteVocabulary(s string) string {
	return spanCounts(vocabularyRewriter.apply(s))
}

// vocabularyRewriter runs vocabularyRewrites, each only when its expression can match.
var vocabularyRewriter = newRewriter(vocabularyRewrites)

// A button that shows a current choice with a menu arrow ("Pickup now ▾", "For me ▾",
// "Visa •••• 6021 ▾") is how a page offers the other choices: "schedule the ride for later" is
// the "Pickup now ▾" button, "book it for someone else" the "For me ▾" one, "change payment
// method" the one that shows the card. The description names the choice it wants (or the kind
// of choice), the button the one it has.

// choiceSides are the sides of the choices such a menu offers: a description word, and the
// words a menu button shows while the other side is chosen.
var choiceSides = map[string][]string{
	"later": {"now", "asap"}, "schedule": {"now", "asap"},
	"someone": {"me", "myself"}, "else": {"me", "myself"},
	"pickup": {"delivery"}, "delivery": {"pickup"},
	// A member's access is a menu showing their role ("Member ▾"): "change Dara's role", "make
	// Sam an admin" ask for the menu of that row, whichever role it shows now.
	"role": roleValues, "access": roleValues, "permission": roleValues, "permissions": roleValues,
	"admin": roleValues, "administrator": roleValues, "member": roleValues, "viewer": roleValues,
	"editor": roleValues, "owner": roleValues, "guest": roleValues,
	// "change the plan", "the ticket's status": a menu showing the current plan or status.
	"plan":   {"free", "basic", "starter", "standard", "pro", "premium", "plus", "team", "business", "enterprise"},
	"status": {"active", "inactive", "open", "closed", "pending", "draft", "published", "resolved", "new"},
}

// roleValues are the roles a team member's access menu shows ("Member ▾", "Can edit ▾").
var roleValues = []string{"member", "viewer", "editor", "owner", "admin", "administrator", "guest",
	"contributor", "billing", "can view", "can edit", "can comment"}

// maskedCardChoice stands in otherChoices for a payment card shown masked ("Visa •••• 6021
// ▾"): "change payment method", "pay with another card" ask for that menu.
const maskedCardChoice = "\x00card"

// cardWords are the description words (stemmed) that ask for the payment card a menu shows.
var cardWords = map[string]bool{"payment": true, "card": true}

// menuChoiceScore is the text score of a menu button that shows the choice the description
// turns from: below a name that says the words, above one that shares a few.
const menuChoiceScore = 0.6

// choiceStems is choiceSides stemmed, as the description's words are.
var choiceStems = func() map[string][]string {
	m := make(map[string][]string, len(choiceSides))
	for w, others := range choiceSides {
		for _, o := range others {
			m[stem(w)] = append(m[stem(w)], tokens(o)...)
		}
	}
	return m
}()

// otherChoicesOf returns the words a menu button may show while the choice the description's
// words (stemmed) ask for is not made; nil for most descriptions.
func otherChoicesOf(words []string) []string {
	var out []string
	for _, w := range words {
		out = append(out, choiceStems[w]...)
		if cardWords[w] {
			out = append(out, maskedCardChoice)
		}
	}
	return out
}

// showsOtherChoice reports whether an element is a menu button that shows one of others as its
// current choice: interactive, its name ending in a menu arrow.
func showsOtherChoice(pe *prepared, others []string) bool {
	e := pe.el
	if !e.Interactive || e.Role != "button" && e.Role != "combobox" || !menuArrowEnd(e.Name) {
		return false
	}
	for _, t := range pe.toks[0] {
		if contains(others, t) {
			return true
		}
	}
	return contains(others, maskedCardChoice) && maskedCard(e.Name)
}

// maskedCard reports whether a name shows a payment card's number masked but for its last
// digits ("Visa •••• 6021", "**** 4242").
func maskedCard(name string) bool {
	for _, m := range []string{"••••", "****", "····", "xxxx", "XXXX"} {
		if i := strings.Index(name, m); i >= 0 && hasDigit(name[i:]) {
			return true
		}
	}
	return false
}

// menuArrowEnd reports whether a name ends in the arrow that marks a menu button ("Pickup now ▾").
func menuArrowEnd(name string) bool {
	name = strings.TrimRight(name, " ")
	for _, a := range []string{"▾", "▼", "⌄", "⏷", "🔽"} {
		if strings.HasSuffix(name, a) {
			return true
		}
	}
	return false
}
