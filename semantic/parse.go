package semantic

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/jinzhu/inflection"
)

// Parsed is what the heuristic ranker reads out of a description.
type Parsed struct {
	// Roles are the ARIA roles the description's role word asks for, best first ("field" ->
	// textbox, searchbox, combobox).
	Roles []string
	// Texts are the quoted phrases and "says X"/"labeled X" phrases (exact-match candidates)
	// followed by the salient words, lowercased.
	Texts []string
	// Quoted are the phrases given verbatim: quoted, or after "that says", "labeled", "named"...
	Quoted []string
	// Words are the salient words left after stop words, role and ordinal words are removed.
	Words []string
	// RoleWords are the role words themselves ("button"); a weak text hint (a button named "Menu").
	RoleWords []string
	// Context are the words of an "in the cart summary" / "under Billing" phrase.
	Context []string
	// ContextBare says the context phrase has no article or possessive: "in metric", "in
	// pounds" may qualify what is asked for rather than say where it is (wordsInContext reads
	// it against the page, once, and clears it).
	ContextBare bool
	// Ordinal is 1-based, -1 for last, -2 for second to last, 0 for none.
	Ordinal int
	// Attrs are attribute hints: placeholder, aria-label, title, alt, name, id, type, href.
	Attrs map[string]string
	// Intent is what the instruction's verb implies ("Click", "Type into", "Read"), IntentAny if none.
	Intent Intent
	// Kind is a value shape the description asks for: "price" (a currency amount), "count",
	// "figure" (any number), "time", "clock" (a time of day), "date", "percent" (see
	// kindShapes); "" otherwise.
	Kind string
	// Counted is the item noun of a description that is only an ordinal and items ("the
	// tenth tea"): the target is the Nth of the page's most item-like repeated elements.
	Counted string
	// Whole is the description without its instruction verb and article, normalized (empty
	// when it has quotes or attribute hints): an element named exactly that matches fully.
	Whole string
	// WholeNoRole is Whole without a trailing role word ("select all checkbox" -> "select all").
	WholeNoRole string
	// Said is Whole with its instruction verb, when it had one: "select db-replica-east" is a
	// checkbox's whole name ("Select db-replica-east") before it is a link's ("db-replica-east").
	Said string
	// First is the first salient word: with Head, the words the target carries ("the Home
	// project": the Home button, in the Projects group).
	First string
	// Head is the word the target itself must carry, the others may be on an anchor beside
	// it: the leading verb of an instruction ("track the kettle order" -> "track"), else the
	// last word of the first noun phrase ("the order total" -> "total", "the email of Tom" ->
	// "email", "the Zentra's memory" -> "memory"); empty when that word is a role word.
	Head string
	// KindStrict says the Kind is the whole question ("how long ...", "when ..."): an element
	// of another shape cannot be the answer.
	KindStrict bool
	// Question says the description asks for a value ("who is my adjuster?"): a label that
	// matches it points at the value beside it.
	Question bool
	// Who says the question asks who ("who will approve my request?"): the answer names a
	// person, often inside a sentence that says the rest.
	Who bool
	// Verb is the instruction verb stripped from the description ("select", "open"), lower
	// case: a control named after it ("Select Daniel Kim") is what the instruction acts on.
	Verb string
	// NameOf are the words of a "the X name" / "the X title" description ("the hotel name",
	// "the article headline"): the target is what names an X (its heading, most often), not
	// an element whose text says X ("Hotels", "Search products").
	NameOf []string
	// Possessor are the words before a possessive "'s" ("the requester's message" ->
	// requester): an element that carries only them is the possessor's (a "from" line), the
	// target is what belongs to it.
	Possessor []string
	// Thing is true when the description names a thing ("the teamLab activity", "my saved
	// work address": it opens with a determiner), not an action ("comment on line 42").
	Thing bool
	// ItemLink marks "the REI result": the link of the item that carries the other words (the
	// role is link, found through anchors).
	ItemLink bool
	// Object is the noun phrase a setter verb acts on ("change the category of the taxi ride"
	// -> category, "add the tow package" -> tow package; see setterVerbs): a control that
	// does the action by its state (a select, a field, a check box) and says these words is
	// the target, the other words being on the control's row or block.
	Object string
	// Item is a collection noun the ordinal counts over ("result", "row", "product"): the target
	// is inside the Nth of repeated items.
	Item string
	// CountNoun is the plural a "how many" question counts ("pods" in "how many pods are in
	// CrashLoopBackOff"): the unit of the count, which the count itself seldom carries when
	// other words say which ("CrashLoopBackOff 3", "Requested 5").
	CountNoun string
	// This says the description points at "this" thing ("how many songs are in this
	// playlist"): the one the page is about, not an entry of its navigation.
	This bool
	// Topic are the words after a topical "about" ("the chapter about roasters" -> roasters):
	// what the item's text covers, never its value kind (see topicAbout).
	Topic []string
	// FreeText says the description writes prose ("where do I mention my allergy", "write to
	// the adjuster"): typed, its target is a multi-line box (see freeText).
	FreeText bool
	// States are the past participles of the description ("published" in "the published
	// posts"): states, which a control named for the action ("Publish") does not show (see
	// states.go).
	States []string
	// Denies says the description, outside its quotes, says no ("nobody was injured", "answer
	// no to the pregnant question"): of the controls that answer a question, the No (see
	// answers.go).
	Denies bool
	// FirstPerson says the description speaks as the user ("I'll pay the import duties
	// myself"): of a question's answers that share its words, the one said from the user's
	// side ("I'll pay them now"), not another party's ("Recipient pays"); see answers.go.
	FirstPerson bool
	// Color is the colour an attribute-position colour word names ("the red button" -> red,
	// see colorHint): an element of that Element.Color ranks higher; ColorWord is the word as
	// said ("gray"), which is a word the element must say only when the page says it (see
	// colorSaid).
	Color, ColorWord string
	// Place is where on the screen a corner or page-edge phrase puts the target ("at the
	// bottom right", "at the end of the form"; see placeOf): a tie-break between near-equals.
	Place Place
}

var (
	quoteRe = regexp.MustCompile(`"([^"]+)"|“([^”]+)”|‘([^’]+)’|«([^»]+)»|(?:^|[\s(\[:=])'([^']+)'(?:$|[\s.,;:!?)\]])`)
	// attrRe matches attribute hints: name="email", placeholder: Search, with the aria-label X.
	attrRe   = regexp.MustCompile(`(?i)\b(placeholder|aria-label|aria label|title|alt|alt text|name|id|type|href|data-testid|test id)\s*(?:=|:|is|of)?\s*\x00(\d+)\x00`)
	attrEqRe = regexp.MustCompile(`(?i)\b(placeholder|aria-label|title|alt|name|id|type|href|data-testid)\s*[=:]\s*([^\s,;]+)`)
	// phraseRe finds "that says X" style markers; X runs to a context preposition or the end.
	phraseRe = regexp.MustCompile(`(?i)\b(?:that|which)?\s*(?:says|reads|say|saying|reading|labeled|labelled|named|called|titled|captioned|with (?:the )?(?:text|label|caption|name|title|words?)|containing(?: the text)?)\s+`)
	ordNumRe = regexp.MustCompile(`(?i)^(?:#(\d+)|(\d+)(?:st|nd|rd|th))$`)
	// instrRe strips the instruction verb and its object when the target follows "into/in/on".
	typeIntoRe = regexp.MustCompile(`(?i)^(?:type|enter|write|input|fill in|fill|paste|put)\s+.*?\s(into|in|inside|to)\s+(.*)$`)
	// articleRe opens a noun phrase: "to the field" names a target, "to transfer" does not.
	articleRe  = regexp.MustCompile(`(?i)^(?:the|a|an|my|your|this|that)\s`)
	fillWithRe = regexp.MustCompile(`(?i)^(?:fill(?: in| out)?|complete|populate|set)\s+(.*?)\s+(?:with|to)\s+.*$`)
	toggleRe   = regexp.MustCompile(`(?i)^(?:(?:turn|switch|toggle)\s+(?:on|off)\s+(.+)|(?:turn|switch|toggle)\s+(.+?)\s+(?:on|off)|(?:enable|disable|activate|deactivate)\s+(.+))$`)
	checkRe    = regexp.MustCompile(`(?i)^(?:check|uncheck|tick|untick)\s+(.+)$`)
	markAsRe   = regexp.MustCompile(`(?i)^mark\s+(.+?)\s+as\s+(done|complete|completed|finished|read|unread|viewed|seen|resolved|spam|important|favorite|favourite)$`)
	// makeNthRe is "make the Nth ITEM X": X is a choice on that item ("make the second print
	// matte", "turn the third lamp blue"; "turn the second lamp off" is toggleRe's).
	makeNthRe = regexp.MustCompile(`(?i)^(?:make|turn)\s+((?:the\s+)?(\S+)\s+(\S+))\s+(\S+)$`)
	bulkRe    = regexp.MustCompile(`(?i)^(?:all|everything|every)\b`)
	cursorRe  = regexp.MustCompile(`(?i)^(?:put|place|set|move)\s+(?:the\s+)?(?:cursor|caret|focus)\s+(?:in|into|on|inside)\s+(.*)$`)
	// searchForRe is "search for 'redis' (in the top search bar)": the quoted words are what
	// is typed, the place (a search box by default) is the target.
	// So is "find someone in the participant list": whom is typed later, the list's search
	// box is the target.
	searchForRe = regexp.MustCompile(`(?i)^(?:search|find|look)(?:\s+(?:for|up))?\s+(?:\x00(\d+)\x00|someone|somebody|anyone|a person|a user|a member|a contact|a name|something|anything)(?:\s+(?:in|on|using|with|from|inside|among)\s+(.+))?$`)
)

// onOff end a toggle instruction: "turn the second lamp off".
var onOff = map[string]bool{"on": true, "off": true}

// verbs maps a leading instruction verb to the intent it implies; longest first matters only for
// multi-word entries, which are tried before single words.
var verbs = []struct {
	words  string
	intent Intent
}{
	{"double click on", IntentClick}, {"double-click on", IntentClick}, {"double click", IntentClick}, {"double-click", IntentClick},
	{"right click on", IntentClick}, {"right-click on", IntentClick}, {"click on", IntentClick}, {"tap on", IntentClick},
	{"click", IntentClick}, {"press", IntentClick}, {"tap", IntentClick}, {"hit", IntentClick}, {"push", IntentClick},
	{"check", IntentClick}, {"uncheck", IntentClick}, {"tick", IntentClick}, {"untick", IntentClick}, {"toggle", IntentClick},
	{"open", IntentClick}, {"choose", IntentClick}, {"select", IntentClick}, {"pick", IntentClick}, {"follow", IntentClick},
	{"hover over", IntentAny}, {"hover", IntentAny}, {"scroll to", IntentAny}, {"find", IntentAny}, {"locate", IntentAny},
	{"focus on", IntentType}, {"focus", IntentType}, {"clear", IntentType}, {"type in", IntentType}, {"type into", IntentType},
	{"fill in", IntentType}, {"fill out", IntentType}, {"fill", IntentType}, {"enter", IntentType}, {"type", IntentType},
	{"input", IntentType},
	{"read", IntentRead}, {"get", IntentRead}, {"extract", IntentRead}, {"copy", IntentRead}, {"grab", IntentRead},
	{"what is", IntentRead}, {"what's", IntentRead}, {"wait for", IntentRead}, {"verify", IntentRead}, {"look at", IntentRead},
}

// metricNouns make a metric of an instruction verb before them: "open rate", "click count".
var metricNouns = map[string]bool{"rate": true, "rates": true, "count": true, "counts": true, "ratio": true}

// keptVerbs imply a click and stay in the description: controls are named after them.
var keptVerbs = map[string]bool{"follow": true, "copy": true, "clear": true}

// phrasalVerbs start instructions whose verb is the control's own name ("Check in online",
// "Sign in"): they imply a click but stay in the description.
var phrasalVerbs = []string{"check in", "check out", "sign in", "sign up", "sign out", "log in", "log out", "opt out", "opt in"}

// roleWords maps role words to roles. Multi-word entries are matched before single words.
var roleWords = map[string][]string{
	"button": {"button"}, "btn": {"button"},
	"link": {"link"}, "hyperlink": {"link"}, "anchor": {"link"},
	"field": {"textbox", "searchbox", "combobox"}, "input": {"textbox", "searchbox", "combobox"},
	"textbox": {"textbox", "searchbox"}, "text box": {"textbox", "searchbox"}, "text field": {"textbox", "searchbox"},
	"input field": {"textbox", "searchbox", "combobox"}, "input box": {"textbox", "searchbox"}, "textarea": {"textbox"},
	"text area": {"textbox"}, "entry": {"textbox", "searchbox"},
	"search box": {"searchbox", "textbox"}, "searchbox": {"searchbox", "textbox"}, "search field": {"searchbox", "textbox"},
	"search bar": {"searchbox", "textbox"}, "search input": {"searchbox", "textbox"},
	"box":      {"textbox", "searchbox", "checkbox"},
	"checkbox": {"checkbox", "switch"}, "check box": {"checkbox", "switch"}, "tickbox": {"checkbox"}, "tick box": {"checkbox"},
	"radio": {"radio"}, "radio button": {"radio"}, "option": {"radio", "option", "menuitem"},
	"switch": {"switch", "checkbox"}, "toggle": {"switch", "checkbox", "button"},
	"tab": {"tab"}, "menu": {"menuitem", "menu", "button"}, "menu item": {"menuitem"}, "menuitem": {"menuitem"},
	"dropdown": {"combobox", "listbox", "button"}, "drop-down": {"combobox", "listbox", "button"}, "drop down": {"combobox", "listbox", "button"},
	"select": {"combobox", "listbox"}, "select box": {"combobox", "listbox"}, "combobox": {"combobox"}, "combo box": {"combobox"},
	"picker": {"combobox", "listbox", "button"}, "list box": {"listbox"}, "listbox": {"listbox"},
	"selector": {"combobox", "listbox", "button"}, "switcher": {"combobox", "listbox", "button"},
	"chooser": {"combobox", "listbox", "button"},
	"slider":  {"slider"},
	"image":   {"img"}, "img": {"img"}, "picture": {"img"}, "photo": {"img"}, "logo": {"img", "link"},
	"icon":          {"button", "img", "link"},
	"column header": {"columnheader", "heading"}, "column heading": {"columnheader", "heading"},
	"heading": {"heading"}, "title": {"heading"}, "headline": {"heading"}, "header": {"heading"}, "subtitle": {"heading"},
	"message": {"alert", "status", "paragraph", "text"}, "notification": {"alert", "status", "text"}, "toast": {"alert", "status", "text"},
	"alert": {"alert", "status", "text"}, "banner": {"dialog", "region", "alert", "text"}, "notice": {"alert", "status", "paragraph", "text"},
	"text": {"text", "paragraph", "label", "cell", "listitem", "heading"}, "paragraph": {"paragraph", "text"},
	"label": {"label", "text"}, "caption": {"text", "label"}, "description": {"paragraph", "text"},
	"price": {"text", "cell", "paragraph"}, "cost": {"text", "cell", "paragraph"}, "amount": {"text", "cell", "paragraph"},
	"fare": {"text", "cell", "paragraph"},
	"cell": {"cell", "gridcell"}, "row": {"row"}, "list item": {"listitem"},
	"dialog": {"dialog", "alertdialog"}, "modal": {"dialog", "alertdialog"}, "popup": {"dialog", "alertdialog"},
}

// priceRoleWords are the role words that ask for a price: a value, not a control.
var priceRoleWords = map[string]bool{"price": true, "cost": true, "amount": true, "fare": true}

// roleMultiMax is the longest role word in words.
const roleMultiMax = 2

// containerWords name what the target sits in when they are not the head noun ("the dialog title").
var containerWords = map[string]bool{"dialog": true, "modal": true, "popup": true, "banner": true}

// itemWords are collection nouns an ordinal counts over ("the second result's title").
var itemWords = map[string]bool{
	"result": true, "results": true, "row": true, "rows": true, "item": true, "items": true, "product": true,
	"products": true, "card": true, "cards": true, "entry": true, "entries": true, "post": true, "posts": true,
	"article": true, "articles": true, "listing": true, "listings": true, "comment": true, "comments": true,
}

// openable are things one opens by their link ("open the email from Alex Rivera", "open the
// crash bug"): with "open", the item's link is the target, as with itemWords.
var openable = map[string]bool{
	"email": true, "message": true, "conversation": true, "thread": true, "issue": true, "ticket": true,
	"bug": true, "file": true, "document": true, "pipeline": true, "order": true, "shipment": true,
	"invoice": true, "record": true, "story": true, "job": true, "deal": true, "project": true, "folder": true,
	"report": true, "episode": true, "video": true, "recipe": true, "task": true, "event": true,
}

// rankSide reports whether "top" or "bottom" at main[i] ranks a list ("the bottom team", "the
// top story") rather than saying where on the page ("at the bottom", "the bottom of the form").
func rankSide(main []string, i int) bool {
	if i+1 >= len(main) || main[i+1] == "of" || main[i+1] == "up" || strings.HasPrefix(main[i+1], "\x00") {
		return false // "top up my balance" is a verb
	}
	if i > 0 {
		switch main[i-1] {
		case "at", "on", "in", "to", "from", "near", "toward", "towards":
			return false
		}
	}
	return true
}

// whenWords reports whether the words of a context phrase name a time rather than a place: a
// month, with a day of the month or a year ("in April", "in May 2024"). (A day may head a
// calendar's column: "which room is chemistry in on Thursday".)
func whenWords(ctx []string) bool {
	when := false
	for _, w := range ctx {
		switch {
		case dateWords[w]:
			when = true
		case len(w) <= 4 && strings.Trim(w, "0123456789") == "":
		default:
			return false
		}
	}
	return when
}

// placeWords follow an ordinal that ranks: "in 6th place", "at position 3".
var placeWords = map[string]bool{"place": true, "position": true, "spot": true, "rank": true}

var ordinalWords = map[string]int{
	"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
	"ninth": 9, "tenth": 10, "last": -1, "final": -1, "top": 1, "bottom": -1, "1st": 1, "2nd": 2, "3rd": 3,
}

var stopWords = map[string]bool{
	"the": true, "a": true, "an": true, "on": true, "in": true, "to": true, "of": true, "for": true, "with": true,
	"and": true, "or": true, "this": true, "that": true, "which": true, "is": true, "it": true, "its": true,
	"at": true, "by": true, "from": true, "into": true, "onto": true, "please": true, "then": true, "me": true,
	"my": true, "your": true, "our": true, "page": true, "element": true, "one": true, "some": true, "there": true,
	"here": true, "be": true, "are": true, "was": true, "were": true, "been": true, "should": true, "can": true, "will": true, "only": true, "would": true, "does": true, "did": true, "could": true, "you": true, "we": true,
	"i": true, "just": true, "now": true, "s": true, "up": false, "thing": true, "whatever": true, "any": true,
	"under": true, "inside": true, "within": true, "near": true, "beside": true, "below": true,
	"above": true, "says": true, "labeled": true, "labelled": true, "named": true, "called": true, "text": false,
	"ll": true, "ve": true, "re": true, // "I'll", "we've", "they're": what a contraction leaves of its verb
	"has": true, "had": true, "being": true, // "how many items has the shopper found", "is it being recorded": auxiliaries
	"myself": true, "yourself": true, "no": true, "visible": true, "shown": true, "displayed": true, "currently": true, "main": true, "primary": true, "as": true,
}

// determiners open a noun phrase that names a thing or place: "in the cart", "in my inbox".
var determiners = map[string]bool{"the": true, "a": true, "an": true, "my": true, "your": true, "our": true,
	"their": true, "his": true, "her": true, "its": true, "this": true, "that": true, "these": true, "those": true}

// contextPreps start an "in the cart summary" phrase.
var contextPreps = map[string]bool{"in": true, "inside": true, "within": true, "under": true, "below": true, "beneath": true}

// Parse reads a description: role words, quoted or salient text, ordinals and attribute hints.
func Parse(description string) Parsed {
	p := Parsed{Attrs: map[string]string{}}
	s := strings.TrimSpace(description)
	p.Thing = thingRe.MatchString(s)
	p.This = thisRe.MatchString(s)
	p.FreeText = freeText(s)
	s = strings.TrimRight(s, ".!? ")

	// Quoted phrases become placeholders \x00N\x00 so that later steps see their position.
	var quoted []string
	s = quoteRe.ReplaceAllStringFunc(s, func(m string) string {
		sub := quoteRe.FindStringSubmatch(m)
		for _, g := range sub[1:] {
			if g != "" {
				lead, trail := "", ""
				if sub[5] != "" { // the single-quote form keeps its surrounding punctuation
					lead = m[:strings.Index(m, "'")]
					trail = m[strings.LastIndex(m, "'")+1:]
				}
				quoted = append(quoted, strings.TrimSpace(g))
				return lead + " \x00" + strconv.Itoa(len(quoted)-1) + "\x00 " + trail
			}
		}
		return m
	})
	s = expandContractions(s)
	p.Denies, p.FirstPerson = denies(s), firstPersonRe.MatchString(s)

	// "what did the customer say?" is rewritten as the customer's message, and is still a
	// question: a key that names the message ("Customer note") labels the answer.
	p.Question = saidQuestionRe.MatchString(s)
	s = rewriteIdioms(rewritePhrases(s))

	// Attribute hints on quoted values (placeholder "Search…") and on bare ones (name=email).
	usedQuote := map[int]bool{}
	s = attrRe.ReplaceAllStringFunc(s, func(m string) string {
		sub := attrRe.FindStringSubmatch(m)
		i, _ := strconv.Atoi(sub[2])
		p.Attrs[attrName(sub[1])] = quoted[i]
		usedQuote[i] = true
		return " "
	})
	s = attrEqRe.ReplaceAllStringFunc(s, func(m string) string {
		sub := attrEqRe.FindStringSubmatch(m)
		p.Attrs[attrName(sub[1])] = sub[2]
		return " "
	})

	s = whoClause(s)
	if m := searchForRe.FindStringSubmatch(strings.TrimSpace(s)); m != nil {
		// "Search for 'redis' in the top search bar": 'redis' is typed, not looked for.
		if m[1] != "" {
			i, _ := strconv.Atoi(m[1])
			usedQuote[i] = true
		}
		p.Intent = IntentType
		switch {
		case m[2] == "":
			s = "the search box"
		case strings.Contains(strings.ToLower(m[2]), "search"):
			s = m[2] // "the top search bar"
		default:
			s = "search box in " + m[2] // "in the servers list": the list's own search or filter
		}
	}
	// The instruction verb.
	s = stripInstruction(s, &p)

	// "that says X" / "labeled X": X up to a context preposition or a comma is a phrase.
	for {
		loc := phraseRe.FindStringIndex(s)
		if loc == nil {
			break
		}
		rest := s[loc[1]:]
		end := phraseEnd(rest)
		phrase := strings.TrimSpace(rest[:end])
		if phrase != "" && !strings.Contains(phrase, "\x00") {
			quoted = append(quoted, phrase)
			phrase = " \x00" + strconv.Itoa(len(quoted)-1) + "\x00 "
		}
		s = s[:loc[0]] + " " + phrase + " " + rest[end:]
	}

	// "at the bottom right", "in the top left corner": where on the screen, not words.
	s, p.Place = placeOf(s)

	// Context phrase: "in the cart summary", "under Billing" (after the target words).
	words := tokenizeDesc(s)
	var main []string
	for i := 0; i < len(words); i++ {
		w := words[i]
		if contextPreps[w] && i > 0 && i+1 < len(words) {
			j := i + 1
			var ctx []string
			for ; j < len(words) && !contextPreps[words[j]]; j++ {
				cw := words[j]
				if stopWords[cw] {
					continue
				}
				if strings.HasPrefix(cw, "\x00") {
					cw = strings.ToLower(quoted[quoteIndex(cw)])
					usedQuote[quoteIndex(words[j])] = true
				}
				ctx = append(ctx, canonicalContext(cw))
			}
			if whenWords(ctx) {
				// "how much did I pay in April": a time, not a place on the page; its words
				// are the row's.
				main = append(main, ctx...)
			} else if _, ok := ordinal(firstOf(ctx...)); ok && len(ctx) == 2 && placeWords[ctx[1]] {
				// "the team in 6th place": a position in the list, not a place on the page; the
				// word before says what is ranked ("the 6th team").
				if n := len(main); n > 0 {
					main = append(main[:n-1], ctx[0], main[n-1])
				} else {
					main = append(main, ctx[0])
				}
			} else if len(ctx) > 0 {
				p.ContextBare = len(p.Context) == 0 && !determiners[words[i+1]]
				p.Context = append(p.Context, ctx...)
			}
			i = j - 1
			continue
		}
		main = append(main, w)
	}

	for i, q := range quoted {
		if !usedQuote[i] {
			p.Quoted = append(p.Quoted, q)
		}
	}

	// Roles, ordinals, items and salient words of the main part.
	type roleHit struct {
		word       string
		roles      []string
		start, end int // where in main
	}
	var hits []roleHit
	// "BBC One": "one" is a name's word there, not a stop word (see namedOneRe).
	namedOne := namedOneRe.MatchString(description)
	datey := false // a month or a weekday: numeric ordinals are days of the month
	for _, w := range main {
		datey = datey || dateWords[w] || dayWords[w] && w != "today" && w != "yesterday" && w != "tomorrow"
	}
	topicAt, aboutAt := -1, -1 // where in Words and in main the words after a topical "about" start
	for i := 0; i < len(main); i++ {
		w := main[i]
		if strings.HasPrefix(w, "\x00") {
			continue
		}
		if topicAt < 0 && topicAbout(main, i) {
			topicAt, aboutAt = len(p.Words), i
			continue
		}
		if namedPrep(main, i) {
			p.Words = append(p.Words, w) // "the To date": a caption, not a preposition
			continue
		}
		if (w == "first" || w == "last") && i+1 < len(main) && main[i+1] == "name" {
			p.Words = append(p.Words, w, "name")
			i++
			continue
		}
		if fareClass(main, i) {
			// "how much is a First class ticket": a class of fare or travel, not the first of
			// the classes.
			p.Words = append(p.Words, w, "class")
			i++
			continue
		}
		if m := ordNumRe.FindStringSubmatch(w); m != nil && m[2] != "" && datey {
			// "August 9th", "Thursday the 9th": a day of the month, not the ninth of anything.
			p.Words = append(p.Words, m[2])
			continue
		}
		if w == "last" && i+1 < len(main) && (lastAdverbs[main[i+1]] || periodWords[main[i+1]] && (i == 0 || main[i-1] != "the")) || firstWhen(main, i) {
			// "when was the file last changed", "the last modified date": a column's words; "pick
			// last season", "last month's invoices": the one before this, not the last listed.
			p.Words = append(p.Words, w)
			continue
		}
		if (w == "bottom" || w == "top") && !rankSide(main, i) {
			p.Words = append(p.Words, w) // "the button at the bottom": where, not which
			continue
		}
		if n, ok := ordinal(w); ok && p.Ordinal == 0 {
			if n == 2 && i+2 < len(main) && main[i+1] == "to" && main[i+2] == "last" {
				n = -2
				i += 2
			} else if (w == "second" || w == "2nd") && i+1 < len(main) && main[i+1] == "last" {
				n = -2
				i++
			}
			p.Ordinal = n
			// "the tenth tea", "the second step of the method", "the first suggested topic": the
			// noun after the ordinal names the repeated items counted over; words before it and
			// after "of" say which items.
			if j, item, ctx := ordinalItem(main, i+1); item != "" {
				p.Item = item
				p.Context = append(p.Context, ctx...)
				i = j - 1
			} else if fieldOfRole(main, i) {
				// "the hostname of the third alert": a field of the Nth repeated element the
				// role word names, not the Nth element of that role.
				p.Item = singular(main[i+1])
				i++
			}
			continue
		}
		if itemWords[w] && (p.Ordinal != 0 || (i+1 < len(main) && main[i+1] == "s")) {
			p.Item = singular(w)
			if i+1 < len(main) && main[i+1] == "s" {
				i++
			}
			continue
		}
		if leadingVerbRole(main, i) {
			// "switch to the annual plan": an action, not a switch; like a stripped instruction
			// verb, it names a control that does it ("Switch account") but no word of the target.
			p.Verb, p.Intent = w, IntentClick
			continue
		}
		matched := false
		for n := roleMultiMax; n >= 1 && !matched; n-- {
			if i+n > len(main) {
				continue
			}
			phrase := strings.Join(main[i:i+n], " ")
			if roles, ok := roleWords[phrase]; ok {
				hits = append(hits, roleHit{phrase, roles, i, i + n})
				if strings.HasPrefix(phrase, "search ") || phrase == "searchbox" {
					p.Words = append(p.Words, "search")
				}
				if priceRoleWords[phrase] {
					p.Kind = "price"
				}
				i += n - 1
				matched = true
			}
		}
		if matched || stopWords[w] && !(w == "one" && namedOne) {
			continue
		}
		if w == "count" || w == "number" && i+1 < len(main) && main[i+1] == "of" || (w == "how" && i+1 < len(main) && main[i+1] == "many") {
			p.Kind = "count"
			continue
		}
		if softWords[w] || markedAs(main, i) || adverbBack(main, i) || clauseVerb(main, i) {
			continue
		}
		if shadeOrSize(main, i) {
			continue // "the big orange banner", "the dark green button": part of the look
		}
		if c := colorHint(main, i); c != "" && p.Color == "" {
			p.Color, p.ColorWord = c, w // "the red button": a look, not a word (see colorSaid)
			continue
		}
		p.Words = append(p.Words, w)
	}
	for aboutAt >= 0 && len(hits) > 0 && hits[len(hits)-1].start > aboutAt {
		// "the ticket about the app icon": the icon is what the ticket is about.
		p.Words = append(p.Words, strings.Fields(hits[len(hits)-1].word)...)
		hits = hits[:len(hits)-1]
	}
	// The last role word is the head noun; earlier ones describe it ("the Menu button").
	if len(hits) > 0 {
		head := hits[len(hits)-1]
		if containerWords[head.word] && len(p.Words) > 0 {
			// "close the newsletter modal": the modal is where the target is, not the target.
			p.Context = append(p.Context, canonicalContext(head.word))
			hits = hits[:len(hits)-1]
		}
	}
	if len(hits) > 0 {
		if h := hits[len(hits)-1]; h.end < len(main) && contentWord(main[h.end]) && slices.ContainsFunc(main[:h.start], contentWord) {
			// "the rate of the logo design line": a role word inside a name is one of its
			// words; the line is what is meant.
			p.Words = append(p.Words, strings.Fields(h.word)...)
			hits = hits[:len(hits)-1]
		}
	}
	if len(hits) > 0 {
		if h := hits[len(hits)-1]; ownersRole(main, h.start) {
			// "the fare for the electric option": the option is whose fare it is, not what
			// is asked for; its role word is one of the owner's words.
			p.Words = append(p.Words, strings.Fields(h.word)...)
			hits = hits[:len(hits)-1]
		}
	}
	if len(hits) > 0 {
		head := hits[len(hits)-1]
		p.Roles = head.roles
		p.RoleWords = append(p.RoleWords, head.word)
		for _, h := range hits[:len(hits)-1] {
			if containerWords[h.word] {
				p.Context = append(p.Context, canonicalContext(h.word))
				continue
			}
			p.Words = append(p.Words, strings.Fields(h.word)...)
		}
	}
	p.First, p.Head = firstWord(main), headOf(main)
	p.States = participleStates(main)
	if setterVerbs[p.Head] != nil && p.First == p.Head {
		p.Object = objectOf(main[slices.Index(main, p.Head)+1:], p.Words)
	}
	if p.Item == "" {
		// "Owen's last message" is the last of Owen's messages: whose counts with an ordinal
		// too (but "the second line of the invoice" counts the invoice's lines, not its own).
		p.Possessor = possessor(main)
		if len(p.Possessor) == 0 && p.Ordinal == 0 {
			p.Possessor = ofObject(main)
		}
	}
	kindFrom := p.Words
	if topicAt >= 0 {
		p.Topic = slices.Clone(p.Words[topicAt:])
		kindFrom = p.Words[:topicAt] // "the question about billing dates" asks for no date
	}
	if p.Kind == "" && !actsOnFigure(main) {
		for _, w := range kindFrom {
			if figureWords[w] {
				p.Kind = "figure"
			}
		}
	}
	if k := kindOf(kindFrom); k != "" && (p.Kind == "" || p.Kind == "figure") {
		p.Kind = k
	}
	if len(p.Roles) > 0 && p.Roles[0] == "columnheader" {
		p.Kind = "" // "the Due date column header" names the column, not a date in it
	}
	nameOf(&p)
	// "Click the REI result": an item named by a word on it; what one opens is its link.
	if p.Intent == IntentClick && p.Ordinal == 0 && len(p.Roles) == 0 && len(p.Quoted) == 0 && (itemWords[p.Head] || p.Verb == "open" && openable[p.Head]) && len(p.Words) >= 2 && p.Kind == "" {
		p.Roles = []string{"link"}
		p.ItemLink = true
	}
	// A description that is all item words ("the second result") counts over the items
	// themselves: Counted keeps the noun for the resolver, Words the text to match.
	if p.Item != "" && len(p.Roles) == 0 && len(p.Words) == 0 && len(p.Quoted) == 0 {
		p.Counted = p.Item
		p.Words = append(p.Words, p.Item)
		p.Item = ""
	}
	for _, q := range p.Quoted {
		p.Texts = append(p.Texts, strings.ToLower(q))
	}
	p.Texts = append(p.Texts, p.Words...)
	if len(quoted) == 0 && len(p.Attrs) == 0 {
		p.Whole = wholeOf(description)
		p.WholeNoRole = p.Whole
		if said := normalize(leadArticleRe.ReplaceAllString(strings.TrimRight(strings.TrimSpace(description), ".!? "), "")); said != p.Whole {
			p.Said = said
		}
		for _, rw := range p.RoleWords {
			p.WholeNoRole = strings.TrimSpace(strings.TrimSuffix(p.WholeNoRole, " "+rw))
		}
	}
	return p
}

// switchToRe is "switch (X) to Y": Y is the choice to take, on X when X is named.
var switchToRe = regexp.MustCompile(`(?i)^switch\s+(?:(.+?)\s+)?(?:over\s+)?to\s+(.+)$`)

// switchTo rewrites "switch the order to sell" as "sell on the order" (the Sell choice of the
// order's form) and "switch to the annual plan" as "the annual plan": the target is the
// choice, a button, tab, radio or option, that the verb acts on, not a switch control.
func switchTo(s string, p *Parsed) (string, bool) {
	m := switchToRe.FindStringSubmatch(s)
	if m == nil {
		return "", false
	}
	p.Verb, p.Intent = "switch", IntentClick
	if m[1] == "" || strings.EqualFold(m[1], "over") {
		return m[2], true
	}
	return m[2] + " on " + m[1], true
}

// verbRoleWords are role words that are verbs too: opening an instruction ("switch to the
// annual plan", "switch account"), they say what to do, and the target is their object (a
// plan's option, a "Switch account" button), not a switch control; "the X switch" names one.
var verbRoleWords = map[string]bool{"switch": true}

// leadingVerbRole reports whether main[i] is a verbRoleWords word opening the description
// with words after it.
func leadingVerbRole(main []string, i int) bool {
	return i == 0 && i+1 < len(main) && verbRoleWords[main[i]] && !roleNext(main, i+1)
}

// roleNext reports whether main[i] is a role word ("switch box"): then the word before is
// the name of the control.
func roleNext(main []string, i int) bool {
	return roleWords[main[i]] != nil
}

// actsOnFigure reports whether main opens with an action verb whose object is a figure's
// noun ("dispute the Amazon charge", "split the PG&E payment"): the charge is the row the
// action's control is on, not a figure to read. (A setter's object is a value: "change the
// deposit" sets the deposit field.)
func actsOnFigure(main []string) bool {
	return len(main) > 1 && verbHeads[main[0]] && setterVerbs[main[0]] == nil && !readVerbs[main[0]]
}

// readVerbs are verb heads that show a value rather than act on it: "view the balance".
var readVerbs = map[string]bool{"view": true, "show": true, "watch": true, "copy": true}

// fareClass reports whether main[i] is the ordinal of a class of fare, seat or mail named
// before a noun ("a first class ticket", "second class stamps"): a name, where "the second
// class on Tuesday" counts classes.
func fareClass(main []string, i int) bool {
	switch main[i] {
	case "first", "second", "third":
	default:
		return false
	}
	return i+2 < len(main) && main[i+1] == "class" && contentWord(main[i+2])
}

// periodWords after "last" with no article name the period before this one: "last season".
var periodWords = map[string]bool{"season": true, "week": true, "month": true, "year": true, "quarter": true,
	"night": true, "weekend": true, "semester": true, "term": true}

// lastAdverbs follow a "last" that says when, not which: "last changed", "last seen".
var lastAdverbs = map[string]bool{"changed": true, "modified": true, "updated": true, "edited": true, "seen": true,
	"active": true, "login": true, "logged": true, "visit": true, "visited": true, "used": true, "synced": true,
	"sync": true, "saved": true, "run": true, "ran": true, "opened": true}

// firstAdverbs follow a "first" that says when, not which: "when was the alert first seen", the
// "First seen" of a log or an alert, not the first of the alerts.
var firstAdverbs = map[string]bool{"seen": true, "detected": true, "reported": true, "published": true,
	"released": true, "registered": true, "issued": true, "noticed": true, "observed": true, "aired": true,
	"listed": true, "logged": true, "appeared": true, "recorded": true}

// firstWhen reports whether main[i] is a "first" that says when ("first seen"), not which.
func firstWhen(main []string, i int) bool {
	return main[i] == "first" && i+1 < len(main) && firstAdverbs[main[i+1]]
}

// softWords say nothing about which element ("the current temperature", "the value of ...").
var softWords = map[string]bool{"asking": true, "current": true, "currently": true, "value": true, "exact": true, "listed": true, "many": true, "much": true}

// lookedAt are what one checks by looking, not by ticking: "check availability", "check the
// status", "check my balance" name a button that says so, not a check box.
var lookedAt = map[string]bool{"availability": true, "status": true, "balance": true, "eligibility": true,
	"stock": true, "price": true, "prices": true, "rates": true, "progress": true, "results": true,
	"updates": true, "spelling": true, "compatibility": true, "coverage": true, "delivery": true}

// thingRe matches a description that opens like a noun phrase.
var thingRe = regexp.MustCompile(`(?i)^(?:the|a|an|my|your|our|this|that|his|her|their)\s+`)

var leadArticleRe = regexp.MustCompile(`(?i)^(?:the|a|an)\s+`)

// wholeOf is the description without its instruction verb and leading article, normalized: a
// page element named exactly that ("Zoom in", "Pay now") is the target whatever its words.
func wholeOf(description string) string {
	s := strings.TrimRight(strings.TrimSpace(description), ".!? ")
	var scratch Parsed
	s = stripInstruction(s, &scratch)
	return normalize(leadArticleRe.ReplaceAllString(strings.TrimSpace(s), ""))
}

func attrName(s string) string {
	s = strings.ToLower(s)
	switch s {
	case "aria label":
		return "aria-label"
	case "alt text":
		return "alt"
	case "test id":
		return "data-testid"
	}
	return s
}

// stripInstruction removes a leading instruction verb ("Click", "Type hello into") and records the
// intent it implies.
func stripInstruction(s string, p *Parsed) string {
	if m := cursorRe.FindStringSubmatch(s); m != nil {
		p.Intent = IntentType
		return m[1]
	}
	if m := typeIntoRe.FindStringSubmatch(s); m != nil && (strings.ToLower(m[1]) != "to" || articleRe.MatchString(m[2])) {
		// "Enter the amount to transfer" types into the amount, "type 5 to the box" into the box.
		p.Intent = IntentType
		return m[2]
	}
	if m := fillWithRe.FindStringSubmatch(s); m != nil {
		p.Intent = IntentType
		return m[1]
	}
	if m := markAsRe.FindStringSubmatch(s); m != nil && !bulkRe.MatchString(m[1]) && !pronounObject(m[1]) {
		// "mark Renew passport as done": the checkbox (or toggle) that says done, of that item.
		// ("mark everything as read" is a bulk action's button, "Mark all as read"; "mark it
		// as read" the open item's, "Mark as read".)
		p.Intent = IntentClick
		return m[2] + " " + m[1] + " checkbox"
	}
	if m := makeNthRe.FindStringSubmatch(s); m != nil {
		if _, ok := ordinal(strings.ToLower(m[2])); ok && !onOff[strings.ToLower(m[4])] {
			// "make the second print matte": the Matte choice on the second print.
			return m[4] + " on " + m[1]
		}
	}
	if rest, ok := switchTo(s, p); ok {
		return rest
	}
	if rest, ok := question(s, p); ok {
		return rest
	}
	if m := stateQuestionRe.FindStringSubmatch(strings.TrimRight(strings.TrimSpace(s), "?")); m != nil {
		// "is the API working?", "is Moose still available": asked yes or no, answered by the
		// status the page shows beside the thing ("Operational", "Adoption pending").
		p.Intent = IntentRead
		p.Question = true
		return m[1] + " status"
	}
	low := strings.ToLower(s)
	for _, pv := range phrasalVerbs {
		// "check in for the flight": "check in" is the action the control is named after.
		if strings.HasPrefix(low, pv+" ") || low == pv {
			p.Intent = IntentClick
			return s
		}
	}
	if m := toggleRe.FindStringSubmatch(s); m != nil {
		// "turn off auto-renew", "enable mandatory 2FA": the switch (or checkbox) of that
		// setting, not its label.
		// (A button named for the action, "Turn off camera", is the weak case: measured, keeping
		// the verb's words costs more than it brings.)
		p.Intent = IntentClick
		return firstOf(m[1], m[2], m[3]) + " toggle"
	}
	if m := checkRe.FindStringSubmatch(s); m != nil && !hasRoleWord(m[1]) {
		p.Intent = IntentClick
		if w, _, _ := strings.Cut(strings.ToLower(thingRe.ReplaceAllString(m[1], "")), " "); lookedAt[w] {
			// "check availability of the Mazda": the button that says Check availability.
			return s
		}
		// "check the Salomon brand filter": a checkbox; "tick compare on the first car": the
		// check box of the first car, counted over the cars.
		for _, w := range strings.Fields(strings.ToLower(m[1])) {
			if _, ok := ordinal(w); ok {
				return "checkbox " + m[1]
			}
		}
		return m[1] + " checkbox"
	}
	for _, v := range verbs {
		// A hyphen goes on with the word: "check-in date" is a date, not an instruction to check.
		if strings.HasPrefix(low, v.words) && (len(low) == len(v.words) || !isWordRune(rune(low[len(v.words)])) && low[len(v.words)] != '-') {
			rest := strings.TrimSpace(s[len(v.words):])
			if rest == "" {
				return s // "Select" alone is the target's text
			}
			if w, _, _ := strings.Cut(strings.ToLower(rest), " "); metricNouns[w] {
				return s // "open rate of the June newsletter" is a figure, no instruction
			}
			if !strings.Contains(v.words, " ") {
				p.Verb = v.words
			}
			if v.words == "get" && !readsValue(rest) {
				// "get directions", "Get the app": a control named so, not a value to read.
				return s
			}
			p.Intent = v.intent
			if keptVerbs[v.words] {
				// "follow Rust Weekly": the Follow button beside Rust Weekly; the verb is the
				// control's name and stays a word of the description.
				return s
			}
			if v.words == "select" || v.words == "choose" || v.words == "pick" {
				// "Select France in the country dropdown": the target is the dropdown.
				if i := strings.Index(strings.ToLower(rest), " in the "); i > 0 {
					return rest[i+len(" in the "):]
				}
			}
			return rest
		}
	}
	return s
}

var (
	// questionRe matches a target asked as a question: "how long is the appointment", "when
	// does the sale end", "who reported this bug", "where do I type my message".
	questionRe = regexp.MustCompile(`(?i)^(how\s+(?:much\s+money|much\s+time|much|many|long|far|heavy|big|large|old|fast|often|tall|high|wide|deep)|when|who|where|why|what\s+(?:time|day|date)|what(?:'s|\s+is|\s+are|\s+was|\s+were|\s+did|\s+does)?|which)\s+(.+)$`)
	// auxRe is what opens a question's rest and says nothing about the element.
	auxRe = regexp.MustCompile(`(?i)^(?:(?:is|am|are|was|were|will|would|does|do|did|has|have|had|can|could|should|it|i|i'm|i've|we|you|they|she|he|been|there|much|many)\s+)+`)
	// askerClauseRe is the asker's clause that ends a question after its subject: "(which
	// tariff) am I on", "(which room) are we in".
	askerClauseRe = regexp.MustCompile(`(?i)\s+(?:am|are|was|were|do|did|have|had)\s+(?:i|we|you|they)(?:\s+(?:on|in|at|with|using|for|from|to))?$`)
	// howMuchPriceRe is the rest of a "how much" question that asks for a price.
	howMuchPriceRe = regexp.MustCompile(`(?i)^(?:(?:is|are|was|were|does|do|did|will)\b|.*\b(?:cost|costs|money|pay|owe|charge|charged|spend|spent)\b)`)
	// moneyVerbRe is the asker's spending in a "how much" question. ("Pay" stays: pages say
	// what was paid, "Total interest paid".)
	moneyVerbRe = regexp.MustCompile(`(?i)\b(?:cost|costs|spend|spent)\b`)
	// trailingVerbRe ends a question with a verb that says nothing: "how long will delivery
	// take", "when did the accident happen" (an event's date is the event's, as pages label it:
	// "Date of loss", not "Happened").
	trailingVerbRe = regexp.MustCompile(`(?i)(?:^|\s+)(?:take|takes|last|lasts|happen|happened|occur|occurred|take place|took place)$`)
	// haveRe is the asker having what is counted, which no page says: "how many new orders do I
	// have", "how many vacation days do we have left"; or the asker's "am I" ("how much storage
	// am I using").
	// hasOfRe is the rest of a "what/which/how many" question that asks for a thing its
	// subject has: "(what) role does Dara have" is Dara's role, the field of her row or card.
	// A time after it says when the thing is had, which is when the page shows it: "how many
	// rooms does Ana have today", "has Ana got today" are Ana's rooms.
	hasOfRe = regexp.MustCompile(`(?i)^(\S+(?:\s+\S+)?)\s+(?:(?:does|do|did)\s+(.+?)\s+(?:have|own|hold)|(?:has|have)\s+(.+?)\s+got)(?:\s+(?:today|tonight|now|currently|this\s+week|this\s+month))?$`)
	// "which desk have I got": British English has with "got".
	haveRe = regexp.MustCompile(`(?i)\s+(?:do|does|did|will|would|can|could)\s+(?:i|we|you|they)\s+(?:have|own|get)\b|\s+(?:have|has|had)\s+(?:i|we|you|they)\s+got\b|\s+am\s+i\b`)
	// genericCountRe is the rest of a "how many" question that counts whatever is in a place:
	// the place names the count.
	genericCountRe = regexp.MustCompile(`(?i)^(?:things|items|stuff|products|articles)\s+(?:(?:are|is)\s+)?(?:in|inside|on)\s+(?:(?:my|the|your|this|our)\s+)?(.+)$`)
	// searchFoundRe is the rest of a "how many" question about what a search found.
	searchFoundRe = regexp.MustCompile(`(?i)^(.+?)\s+(?:(?:did|does|do|has|have)\s+)?(?:the|my|your|this|our)\s+(?:search|query|filters?)\s+(?:find|found|return|returned|show|turn up|turned up|match|matched|get|got)$`)
	// changeVerbRe ends a "how much" question about a change.
	changeVerbRe = regexp.MustCompile(`(?i)\s(?:change|changed|grow|grew|rise|rose|fall|fell|drop|dropped|increase|increased|decrease|decreased|go up|went up|go down|went down)$`)
	// thisRe is a description's "this" before a noun.
	thisRe = regexp.MustCompile(`(?i)\bthis\s+\pL`)
	// stateQuestionRe is a yes-or-no question about a thing's state: "is the API working",
	// "is the loading dock camera online", "is Moose still available".
	stateQuestionRe = regexp.MustCompile(`(?i)^(?:is|are)\s+(.+?)\s+(?:(?:still|currently|now|already)\s+)?(?:working|online|offline|available|unavailable|up|down|open|closed|active|inactive|running|live|connected|disconnected|enabled|disabled|operational|healthy|in stock|out of stock|sold out|confirmed|paid|shipped|delivered|approved|booked|free|busy)(?:\s+(?:now|right now|today|yet))?$`)
	// whereTypeRe is "where (do) I type my message", "where I can explain my reason": the
	// field to type in.
	whereTypeRe = regexp.MustCompile(`(?i)^(?:(?:do|can|should|would)\s+)?(?:i|we|you)\s+(?:(?:can|could|should)\s+)?(?:type|write|enter|put|fill in|paste|add|leave|mention|explain|describe)\s+(.+)$`)
)

// questionKinds are the value kinds a question word asks for, and words it stands for that a
// page may use as a label ("how heavy" is the weight).
var questionKinds = map[string]struct{ kind, word string }{
	"how much": {"figure", ""}, "how much money": {"price", ""}, "how much time": {"time", ""}, "how many": {"count", ""}, "how long": {"time", ""}, "how far": {"measure", "distance"},
	"how heavy": {"measure", "weight"}, "how big": {"measure", "size"}, "how large": {"measure", "size"}, "how old": {"", "age"},
	"how fast": {"measure", "speed"}, "how often": {"", "frequency"}, "when": {"date", ""},
	"how tall": {"measure", "height"}, "how high": {"measure", "height"}, "how wide": {"measure", "width"},
	"how deep": {"measure", "depth"}, "how far along": {"percent", "progress"},
	"what time": {"clock", ""}, "what day": {"date", ""}, "what date": {"date", ""},
}

// whoVerbs turn "who VERB" into the label of the person: "who reported this bug" is the
// reporter.
var whoVerbs = map[string]string{
	"reported": "reporter", "wrote": "author", "written": "author", "owns": "owner", "owned": "owner",
	"assigned": "assignee", "sent": "sender", "created": "creator", "posted": "author", "asked": "asker",
	"manages": "manager", "leads": "lead", "organized": "organizer", "organised": "organiser", "hosts": "host",
	"hosted": "host", "designed": "designer", "developed": "developer", "published": "publisher", "sold": "seller",
	"sells": "seller", "built": "builder", "made": "maker",
}

// whoClauseRe is a "who VERB X" clause inside a description: "change who owns this contact".
var whoClauseRe = regexp.MustCompile(`(?i)\s+who\s+(\w+)\s+(.+)$`)

// whoClause rewrites a "who VERB X" clause after the description's first word as X's doer
// ("change who owns this contact" -> "change this contact's owner"): pages label the field
// by the doer's noun (whoVerbs). A description that opens with "who" is a question, and
// question reads it.
func whoClause(s string) string {
	m := whoClauseRe.FindStringSubmatchIndex(s)
	if m == nil {
		return s
	}
	noun, ok := whoVerbs[strings.ToLower(s[m[2]:m[3]])]
	if !ok {
		return s
	}
	return s[:m[0]] + " " + s[m[4]:m[5]] + "'s " + noun
}

// passiveAgent reads the words of a "who is X VERBed (to|by)" question after its auxiliary
// ("ALR-20415 assigned to", "the mural painted by"): the noun of whom it asks ("assignee",
// "painter") and where the verb is, or "" when the words end in no such verb.
func passiveAgent(f []string) (string, int) {
	at := len(f) - 1
	to := at > 0 && strings.EqualFold(f[at], "to")
	if at > 0 && (to || strings.EqualFold(f[at], "by")) {
		at--
	}
	if at < 1 {
		return "", 0
	}
	v := strings.ToLower(f[at])
	if to {
		// Who it went to is no doer: "who was the sale sent to" asks for the recipients.
		return receivers[v], at
	}
	if n, ok := whoVerbs[v]; ok {
		return n, at
	}
	if strings.HasSuffix(v, "ed") {
		return agentNoun(v), at
	}
	return "", 0
}

// whereVerbs turn "where is X VERB" into the noun pages label the place with: "where is
// TW480270 going" asks its destination, "where is Tomasz based" his location.
var whereVerbs = map[string]string{
	"going": "destination", "headed": "destination", "heading": "destination", "bound": "destination",
	"based": "location", "located": "location", "situated": "location",
}

// comeVerbs before "from" ask where something came from: its source.
var comeVerbs = map[string]bool{"come": true, "came": true, "coming": true, "arrive": true, "arrived": true}

// receivers name whom a thing was VERBed to: "who is this ticket assigned to".
var receivers = map[string]string{"assigned": "assignee", "sent": "recipient", "addressed": "recipient", "delivered": "recipient"}

// agentNoun is the doer of a regular verb in the third person or the past ("approves",
// "approved" -> "approver"; "reviews" -> "reviewer"), or "" for a word that is not one.
func agentNoun(v string) string {
	var base string
	switch {
	case len(v) > 4 && strings.HasSuffix(v, "ed"):
		base = strings.TrimSuffix(v, "d") // "approved" -> "approve"; "reviewed" -> "reviewe"
		if !strings.HasSuffix(base, "ee") && strings.HasSuffix(base, "e") && !vowelBefore(base) {
			return base + "r"
		}
		base = strings.TrimSuffix(base, "e")
	case len(v) > 4 && strings.HasSuffix(v, "es") && strings.HasSuffix(strings.TrimSuffix(v, "s"), "e") && !vowelBefore(strings.TrimSuffix(v, "s")):
		return strings.TrimSuffix(v, "s") + "r" // "approves" -> "approver"
	case len(v) > 3 && strings.HasSuffix(v, "s") && !strings.HasSuffix(v, "ss"):
		base = strings.TrimSuffix(v, "s")
	default:
		return ""
	}
	return base + "er"
}

// vowelBefore reports whether the letter before w's final "e" is a vowel ("free", "tie").
func vowelBefore(w string) bool {
	return len(w) >= 2 && strings.ContainsRune("aeiou", rune(w[len(w)-2]))
}

// question rewrites a description asked as a question into the element's words, and sets the
// intent (reading, or typing for "where I type my message") and the value kind it asks for.
func question(s string, p *Parsed) (string, bool) {
	m := questionRe.FindStringSubmatch(strings.TrimRight(strings.TrimSpace(s), "?"))
	if m == nil {
		return "", false
	}
	q := strings.ToLower(strings.Join(strings.Fields(m[1]), " "))
	if q == "where" {
		if t := whereTypeRe.FindStringSubmatch(m[2]); t != nil {
			// "where do I type my message": the message field (not a status message).
			p.Intent = IntentType
			return t[1] + " field", true
		}
	}
	if q == "how far" && strings.HasPrefix(strings.ToLower(m[2]), "along ") {
		// "how far along is the upload": its progress, a percentage, not a distance.
		q, m[2] = "how far along", m[2][len("along "):]
	}
	rest := strings.TrimSpace(auxRe.ReplaceAllString(m[2], ""))
	// "which electricity tariff am I on": the asker's own clause after the subject says
	// nothing of the element ("am" is no word of the tariff's).
	rest = strings.TrimSpace(askerClauseRe.ReplaceAllString(rest, ""))
	rest = strings.TrimSpace(trailingVerbRe.ReplaceAllString(haveRe.ReplaceAllString(rest, ""), ""))
	if rest == "" {
		return "", false // "how long does it take": nothing says what
	}
	p.Intent = IntentRead
	p.Question = true
	qk := questionKinds[q]
	if qk.kind != "" {
		p.Kind = qk.kind
		p.KindStrict = kindShapes[qk.kind] != 0
	}
	if q == "how much" && howMuchPriceRe.MatchString(m[2]) {
		p.Kind = "price" // "how much are the samosas", "how much does it cost"
		// "how much did I spend at Whole Foods": the asker's spending is the price asked
		// for; the row says Whole Foods, not spend.
		if r := strings.TrimSpace(moneyVerbRe.ReplaceAllString(rest, " ")); r != "" {
			rest = r
		}
	}
	if q == "how many" {
		if g := genericCountRe.FindStringSubmatch(rest); g != nil {
			// "how many things are in my basket": any thing; the count is the basket's
			// (the badge on its link).
			rest = g[1]
		}
		if f := searchFoundRe.FindStringSubmatch(rest); f != nil {
			// "how many flights did the search find": the page counts what a search
			// found as its results ("214 results").
			rest = f[1] + " results"
		}
		p.CountNoun = countNoun(rest)
	}
	if q == "how much" && changeVerbRe.MatchString(rest) {
		// "how much did users change": the change, which a dashboard writes as a
		// percentage beside the figure ("↑ 6.4%").
		p.Kind = "percent"
	}
	if h := hasOfRe.FindStringSubmatch(rest); h != nil && (q == "what" || q == "which" || q == "how many") && namedSubject(h[2]+h[3]) {
		rest = h[2] + h[3] + "'s " + h[1] // "what role does Dara have", "has Dara got": Dara's role
	}
	aux, _, _ := strings.Cut(strings.TrimSpace(m[2]), " ")
	rest = askedVerbNoun(q, aux, rest) // "what does Pepper weigh": the weight of Pepper
	if qk.word != "" {
		rest = qk.word + " of " + rest
	}
	switch q {
	case "who":
		p.Who = true
		f := strings.Fields(rest)
		if n, ok := whoVerbs[strings.ToLower(f[0])]; ok {
			f[0] = n + " of"
			rest = strings.Join(f, " ")
		} else if n := agentNoun(strings.ToLower(f[0])); n != "" && len(f) > 1 {
			f[0] = n + " of" // "who approves this report": the approver
			rest = strings.Join(f, " ")
		} else if n, at := passiveAgent(f); n != "" {
			rest = n + " of " + strings.Join(f[:at], " ") // "who is ALR-20415 assigned to": its assignee
		} else if progressive(strings.ToLower(f[0])) && slices.ContainsFunc(f[1:], contentWord) {
			// "who is cleaning room 305": the person on room 305's card; the page shows who
			// does it by their name there, seldom by the deed.
			rest = strings.Join(f[1:], " ")
		}
	case "where":
		f := strings.Fields(rest)
		if n := len(f); n > 2 && strings.EqualFold(f[n-1], "from") && comeVerbs[strings.ToLower(f[n-2])] {
			// "where did Kenji come from": how the lead came, its source.
			rest = "source of " + strings.Join(f[:n-2], " ")
		} else if n > 1 && whereVerbs[strings.ToLower(f[n-1])] != "" {
			// "where is TW480270 going": its destination, a column or a label of the page.
			rest = whereVerbs[strings.ToLower(f[n-1])] + " of " + strings.Join(f[:n-1], " ")
		} else {
			rest = q + " " + rest // pages label with the word too ("Where to?")
		}
	case "why":
		// "why did Jacob return his shoes": the reason, as pages label it ("Reason", "Reason
		// for visit"); "for" keeps it the head of the description.
		rest = "reason for " + rest
	case "when":
		// Pages label with the word too ("When").
		rest = q + " " + whenOfNth(aux, rest)
	case "how much time":
		// "how much time is left": a duration, as "how long" asks, that pages label "Time
		// remaining".
		rest = "time " + rest
	}
	return rest, true
}

// namedSubject reports whether a question's subject is named, not described: "Dara", "PSYC
// 3200" (no determiner). A named subject's name is on its row or card, so the question
// reads as a possessive; "the finance group" may be a "Finance Team" the words do not own.
func namedSubject(subj string) bool {
	first, _, _ := strings.Cut(subj, " ")
	return !determiners[strings.ToLower(first)] && !stopWords[strings.ToLower(first)]
}

// countNoun is the plural that the words after "how many" count, when other words say which
// of them: words before it ("new orders are waiting" -> "orders") or a bare state after it
// ("pods are in CrashLoopBackOff"); "" otherwise. (A verb after it says which less often on
// the page: "how many results were found" is the result count, "12 results".)
func countNoun(rest string) string {
	f := strings.Fields(strings.ToLower(rest))
	for i := 0; i < len(f) && i < 3; i++ {
		w := f[i]
		if irregularPlurals[w] || len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
			if i > 0 || inBareState(f[i+1:]) {
				return w
			}
			return ""
		}
		if stopWords[w] || auxiliaries[w] {
			return ""
		}
	}
	return ""
}

// inBareState reports whether words are "(are) in X" with X no determiner: a state the counted
// things are in ("in CrashLoopBackOff", "in stock"), not a place ("in my basket").
func inBareState(f []string) bool {
	if len(f) > 0 && (f[0] == "are" || f[0] == "is" || f[0] == "were") {
		f = f[1:]
	}
	return len(f) > 1 && f[0] == "in" && !determiners[f[1]] && !stopWords[f[1]]
}

// irregularPlurals are plurals without an s that a question counts.
var irregularPlurals = map[string]bool{"people": true, "children": true, "men": true, "women": true, "staff": true}

func phraseEnd(rest string) int {
	low := strings.ToLower(rest)
	end := len(rest)
	for _, stop := range []string{" in ", " inside ", " within ", " under ", " below ", " on the ", " at the ", ",", ";", " and "} {
		if i := strings.Index(low, stop); i >= 0 && i < end {
			end = i
		}
	}
	return end
}

func quoteIndex(w string) int {
	n, _ := strconv.Atoi(strings.Trim(w, "\x00"))
	return n
}

func ordinal(w string) (int, bool) {
	if n, ok := ordinalWords[w]; ok {
		return n, true
	}
	if m := ordNumRe.FindStringSubmatch(w); m != nil {
		d := m[1] + m[2]
		n, err := strconv.Atoi(d)
		if err == nil && n > 0 {
			return n, true
		}
	}
	return 0, false
}

// canonicalContext maps container words to the kinds the snapshot writes into Context.
func canonicalContext(w string) string {
	switch w {
	case "modal", "popup", "pop-up", "overlay", "lightbox":
		return "dialog"
	case "nav", "navbar", "navigation", "menubar":
		return "navigation"
	case "sidebar", "aside":
		return "sidebar"
	case "top":
		return "header"
	case "bottom":
		return "footer"
	}
	return w
}

// tokenizeDesc lowercases and splits a description into words, keeping quote placeholders, "#2"
// and possessive "'s" as separate "s" tokens.
func tokenizeDesc(s string) []string {
	var out []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
		}
	}
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == 0:
			flush()
			j := i + 1
			for j < len(rs) && rs[j] != 0 {
				j++
			}
			out = append(out, string(rs[i:min(j+1, len(rs))]))
			i = j
		case r == '#' && i+1 < len(rs) && unicode.IsDigit(rs[i+1]):
			flush()
			b.WriteRune(r)
		case (r == '\'' || r == '’') && i+1 < len(rs) && (rs[i+1] == 's' || rs[i+1] == 'S') && (i+2 == len(rs) || !isWordRune(rs[i+2])):
			flush()
			out = append(out, "s")
			i++
		case r == '-' && b.Len() > 0 && i+1 < len(rs) && isWordRune(rs[i+1]):
			b.WriteRune(r)
		case r == ':' && i > 0 && unicode.IsDigit(rs[i-1]) && i+1 < len(rs) && unicode.IsDigit(rs[i+1]):
			b.WriteRune(r) // "9:30", a time of day (see clockTimes)
		case isWordRune(r):
			b.WriteRune(unicode.ToLower(r))
		default:
			flush()
		}
	}
	flush()
	// "drop-down", "e-mail" and friends: keep the hyphenated word; role lookup knows "drop-down".
	return out
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// singular is a noun's singular form ("addresses" -> "address", "children" -> "child").
func singular(w string) string { return inflection.Singular(w) }

// normalize lowercases and collapses whitespace.
func normalize(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// ordinalItem reads the noun run after an ordinal: it returns where the run ends, the item noun
// (singular) and the context words (adjectives before the noun, the words of an "of the ..."
// after it), or "" when the run is not followed by the end, a possessive, "of" or a context
// preposition (then the words are the target's own, as in "the second Add to cart button").
func ordinalItem(main []string, i int) (int, string, []string) {
	j := i
	for j < len(main) {
		w := main[j]
		if stopWords[w] || w == "s" || strings.HasPrefix(w, "\x00") || roleWords[w] != nil || contextPreps[w] {
			break
		}
		if j+1 < len(main) && roleWords[w+" "+main[j+1]] != nil {
			break // "the top search bar": a role of two words, not an item named "bar"
		}
		if _, isOrd := ordinal(w); isOrd {
			break
		}
		j++
	}
	if j == i {
		return i, "", nil
	}
	follow := ""
	if j < len(main) {
		follow = main[j]
	}
	if follow != "" && follow != "s" && follow != "of" && !contextPreps[follow] {
		return i, "", nil
	}
	if roleWords[main[j-1]] != nil || (follow == "s" && j-i > 1) {
		return i, "", nil
	}
	item := singular(main[j-1])
	if slices.ContainsFunc(main[i:j], weekday) {
		// "the last Friday in August": a date the calendar's buttons name, matched as text and
		// counted in document order, not a noun for a group of repeated items.
		return i, "", nil
	}
	var ctx []string
	for _, w := range main[i : j-1] {
		ctx = append(ctx, canonicalContext(w))
	}
	if follow == "of" {
		k := j + 1
		for ; k < len(main) && !contextPreps[main[k]] && main[k] != "s"; k++ {
			if w := main[k]; !stopWords[w] && !strings.HasPrefix(w, "\x00") {
				ctx = append(ctx, canonicalContext(w))
			}
		}
		j = k
	}
	return j, item, ctx
}

// weekday reports a day of the week spelled out ("friday"), not "today" or "sat".
func weekday(w string) bool {
	return dayWords[w] && len(w) > 3 && w != "today" && w != "yesterday" && w != "tomorrow"
}

// fieldOfRole reports an ordinal at i that follows "WORD of the" and precedes a lone role word
// at the end ("the hostname of the third alert"): the words before "of" name a field of it.
func fieldOfRole(main []string, i int) bool {
	if i+1 >= len(main) || roleWords[main[i+1]] == nil || (i+2 < len(main) && !contextPreps[main[i+2]]) {
		return false
	}
	k := i - 1
	if k >= 0 && main[k] == "the" {
		k--
	}
	if k < 1 || main[k] != "of" || !slices.ContainsFunc(main[:k], contentWord) {
		return false
	}
	// "the text of the second button" is the button's own text: the button itself.
	return !slices.ContainsFunc(main[:k], func(w string) bool { return ownFields[w] })
}

// ownFields are what an element says of itself rather than a field beside it.
var ownFields = map[string]bool{"name": true, "text": true, "label": true, "title": true, "caption": true}

// verbHeads are instruction verbs that name the target's action ("add ... to the cart" is the
// "Add to cart" button, not the product).
var verbHeads = map[string]bool{
	"add": true, "remove": true, "delete": true, "track": true, "place": true, "refill": true, "renew": true, "mark": true,
	"write": true, "play": true, "pay": true, "save": true, "share": true, "follow": true, "subscribe": true, "like": true,
	"repost": true, "book": true, "request": true, "ask": true, "apply": true, "accept": true, "reject": true, "decline": true, "deny": true, "dismiss": true,
	"close": true, "expand": true, "collapse": true, "skip": true, "show": true, "hide": true, "change": true, "set": true,
	"turn": true, "enable": true, "disable": true, "give": true, "send": true, "submit": true, "create": true, "edit": true,
	"cancel": true, "download": true, "upload": true, "copy": true, "star": true, "watch": true, "view": true, "go": true,
	"switch": true, "use": true, "sort": true, "filter": true, "search": true, "continue": true, "proceed": true,
	"start": true, "stop": true, "buy": true, "invite": true, "join": true, "unsubscribe": true, "approve": true,
	"comment": true, "reply": true, "bookmark": true, "print": true, "zoom": true, "swap": true, "call": true, "contact": true,
	"report": true, "upvote": true, "downvote": true, "vote": true, "pin": true, "unpin": true, "mute": true, "unmute": true,
	"flag": true, "retry": true, "rerun": true, "archive": true, "snooze": true, "restart": true, "reboot": true,
	"rename": true, "duplicate": true, "assign": true, "react": true, "block": true, "unfollow": true, "repeat": true,
	// "confirm the pick for TP-11802" is the row's "Confirm pick" button, not the quantity box
	// its SKU names too.
	"confirm": true,
	// "chat with support" is the Chat with us link, not the Support page.
	"chat": true,
	// "trash the ID I uploaded" is the file's Delete button.
	"trash": true,
	// "move Yuki Sato to the next stage" (see nextStageRe) is the card's Advance button.
	"advance": true,
	// "SSH into the jenkins box" is the machine's SSH button.
	"ssh": true,
	// "one more copy of the sunset print" (one more: increase) is the print's Increase button.
	"increase": true, "decrease": true,
	// "dispute the Amazon charge", "split the PG&E payment": a transaction row's buttons.
	"dispute": true, "split": true, "refund": true,
}

// npBreaks end the first noun phrase.
var npBreaks = map[string]bool{
	"of": true, "for": true, "on": true, "in": true, "with": true, "to": true, "from": true, "under": true, "about": true,
	"at": true, "by": true, "next": true, "beside": true, "near": true, "inside": true, "below": true, "above": true, "within": true,
	"per": true, // "calories per slice" are calories
	// "the total including taxes" is a total, the one pages label plainly (Total): what it
	// includes says which. Not "excluding": pages name the figure that leaves something out
	// by it ("Total before taxes", "Price excl. VAT"), so its words stay the target's.
	"including": true, "incl": true,
}

// clauseSubjects start a clause after the noun they follow: "the total I'll be charged" is a
// total, "the rent I pay" a rent. After an auxiliary ("do I need sponsorship") they are the
// question's own subject, and the noun comes after.
var clauseSubjects = map[string]bool{"i": true, "we": true}

// auxiliaries put a question's subject after them: "do I need", "did we order".
var auxiliaries = map[string]bool{"do": true, "does": true, "did": true, "will": true, "would": true, "can": true,
	"could": true, "should": true, "shall": true, "may": true, "must": true, "am": true, "have": true, "has": true, "had": true}

// possessor returns the salient words before a possessive "s" token that has words after it.
// Past a preposition after the head, only the phrase's: "my pace on this morning's run" is the
// run's pace, and its possessor is this morning, not the pace.
func possessor(main []string) []string {
	var out []string
	within := false // past the head, in a prepositional phrase
	if len(main) > 0 && verbHeads[main[0]] {
		main = main[1:] // "like Devon's post": Devon is the possessor, like the action
	}
	for i, w := range main {
		switch {
		case w == "s":
			if i == len(main)-1 {
				return nil
			}
			return out
		case npBreaks[w] && len(out) > 0 && !within:
			within, out = true, nil
		case contentWord(w):
			out = append(out, w)
		}
	}
	return nil
}

// hasRoleWord reports whether s has a role word ("the Remember me box", "the SMS toggle").
func hasRoleWord(s string) bool {
	for _, w := range strings.Fields(strings.ToLower(s)) {
		if roleWords[strings.Trim(w, ".,;:!?'\"")] != nil {
			return true
		}
	}
	return false
}

// ofObject returns the salient words after the "of" or "for" that ends the first noun phrase
// ("the amount of INV-0141", "story points for the push migration"): whose the target is, as
// with a possessive. Nil when the phrase has no salient word before it or none after.
func ofObject(main []string) []string {
	before := false
	for i, w := range main {
		switch {
		case fixedFor(main, i):
			// "the orders ready for pickup": a state, not the pickup's orders.
		case w == "of" || w == "for":
			if !before || w == "of" && i > 0 && (main[i-1] == "number" || main[i-1] == "count") {
				return nil // "the number of cars found" counts the cars: they own nothing
			}
			var out []string
			for _, x := range main[i+1:] {
				switch {
				case npBreaks[x]:
					return out
				case contentWord(x):
					out = append(out, x)
				}
			}
			return out
		case npBreaks[w]:
			return nil
		case strings.HasPrefix(w, "\x00") || stopWords[w] || softWords[w] || verbHeads[w] && !before:
		default:
			before = true // a role word counts: "the amount of INV-0141"
		}
	}
	return nil
}

// nameHeads end a "the X name" description; the role words title/headline/heading do too.
var nameHeads = map[string]bool{"name": true, "subject": true}

// nameOf recognizes "the hotel name", "the article headline", "the topic title" (one or two
// words and a name word, nothing else) and sets NameOf. It does not ask for the heading role:
// "the customer name" may well be the value beside a "Customer name" label.
func nameOf(p *Parsed) {
	if p.Ordinal != 0 || len(p.Quoted) > 0 || len(p.Attrs) > 0 || len(p.Context) > 0 || p.Kind != "" {
		return
	}
	words := p.Words
	switch {
	case len(p.RoleWords) == 1 && (p.RoleWords[0] == "title" || p.RoleWords[0] == "headline" || p.RoleWords[0] == "heading"):
	case len(p.RoleWords) == 0 && len(words) >= 2 && nameHeads[words[len(words)-1]]:
		words = words[:len(words)-1]
	default:
		return
	}
	if len(words) == 0 || len(words) > 2 {
		return
	}
	p.NameOf = append([]string(nil), words...)
}

// inverted reports whether main[i] is the auxiliary of a question's inverted subject: "does"
// in "what role does Dara have", "have" in "which desk have I got" (not the verb of "which
// plan has the most data").
func inverted(main []string, i int) bool {
	switch main[i] {
	case "do", "does", "did":
		return i+1 < len(main)
	case "have", "has":
		return i+1 < len(main) && (clauseSubjects[main[i+1]] || main[i+1] == "you")
	}
	return false
}

// headOf finds the head word of a description's main words (see Parsed.Head).
func headOf(main []string) string {
	if len(main) > 0 && verbHeads[main[0]] {
		return main[0]
	}
	last := ""
	for i, w := range main {
		switch {
		case w == "s":
			last = "" // a possessive: the head is in the phrase after it
		case npBreaks[w]:
			return last
		case clauseSubjects[w] && last != "" && !auxiliaries[main[i-1]] && last != "where":
			// ("the ticket where they can't log in": what they can't do says which ticket.)
			return last
		case last != "" && inverted(main, i):
			// "what role does Dara have", "which desk have I got": the question's subject
			// comes after its auxiliary; the noun before it is what is asked for.
			return last
		case last != "" && (markedAs(main, i) || pastParticiple(w) && i+1 < len(main) && main[i+1] == "by"):
			// "the order marked as a gift", "the file shared by Ana": a participle after
			// the noun opens a clause that says which one; the noun is the head.
			return last
		case strings.HasPrefix(w, "\x00") || stopWords[w] || softWords[w] || adverbBack(main, i):
		case roleWords[w] != nil:
			last = ""
		default:
			if _, isOrd := ordinal(w); !isOrd {
				last = w
			}
		}
	}
	return last
}

// pastParticiple reports whether w looks like a regular past participle ("marked", "shipped").
func pastParticiple(w string) bool { return len(w) > 4 && strings.HasSuffix(w, "ed") }

// markedAs reports whether main[i] is a participle that puts a label on the noun before it
// ("the order marked as a gift", "the mail flagged as spam"): the page shows the label
// ("Gift"), not the participle, which would name a control that marks ("Mark shipped").
func markedAs(main []string, i int) bool {
	return i > 0 && i+1 < len(main) && main[i+1] == "as" && pastParticiple(main[i]) && contentWord(main[i-1])
}

// objectOf is the first noun phrase of main, the words after an instruction's verb, as far as
// its words are salient ones: "the number of guests" has none (the number is a value kind, and
// the guests are counted, not set).
func objectOf(main, salient []string) string {
	var out []string
	for _, w := range main {
		switch {
		case npBreaks[w]:
			return strings.Join(out, " ")
		case !contentWord(w):
		case !slices.Contains(salient, w):
			return ""
		default:
			out = append(out, w)
		}
	}
	return strings.Join(out, " ")
}

// firstWord is the first salient word of the main words.
func firstWord(main []string) string {
	for _, w := range main {
		if !contentWord(w) {
			continue
		}
		if _, isOrd := ordinal(w); isOrd {
			continue
		}
		return w
	}
	return ""
}

// figureWords ask for a figure: the element read should hold a number.
var figureWords = map[string]bool{
	"total": true, "subtotal": true, "balance": true, "fee": true, "tax": true, "sum": true, "rate": true, "score": true,
	"rating": true, "percent": true, "percentage": true, "temperature": true, "duration": true, "length": true, "weight": true,
	"quantity": true, "qty": true, "humidity": true, "speed": true, "volume": true, "cap": true, "ratio": true, "bid": true,
	"salary": true, "charge": true, "deposit": true, "payment": true, "due": true,
	"number": true, // "the order number": #W-88412-0375
}

// contentWord reports whether w, a word of a description, can name something: not a stop word,
// a soft word, a role word, a preposition or a quote's placeholder. (ordinalItem keeps soft
// words: "the second current plan" counts plans.)
// ownersRole reports whether the role word at start ends an "of"/"for" phrase that follows a
// noun of its own or a price's ("the size of the dog photo", "the fare for the electric
// option"): the role word names the owner, the noun before is what is asked for.
func ownersRole(main []string, start int) bool {
	for k := start - 1; k > 0; k-- {
		if w := main[k]; w == "of" || w == "for" {
			return contentWord(main[k-1]) || priceRoleWords[main[k-1]]
		} else if w == "into" {
			return actsInto(main, k)
		} else if roleWords[w] != nil {
			return false
		}
	}
	return false
}

func contentWord(w string) bool {
	return w != "s" && !strings.HasPrefix(w, "\x00") && !stopWords[w] && !softWords[w] && roleWords[w] == nil && !contextPreps[w]
}
