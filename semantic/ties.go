package semantic

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// breakTie narrows a tie (the best candidate and those that score as well, tiedWith) by what
// the description says that the score weighs too little to part them: the words it drops as
// stop words ("zoom in on the map" of "Zoom in" and "Zoom out"), one of a pair of opposites
// ("skip this song" is Next, not Previous), a unit ("in pounds" is the lb field, not the oz
// one), an identifier written in full ("redis-cart-0", not the rows of redis-cart-01), and the
// description words one of them carries and the others lack, on itself ("the buy amount": the
// Amount box whose id says buy, not the cell Buy) or in its row or card ("view the flight
// receipt": the View receipt link of the row that says Flight). Each test keeps only the
// candidates that pass it when some do and some do not; it returns what is left.
//
// near is set for candidates that only come close to the best (nearBand): then the words test
// keeps only a candidate that carries every description word itself.
func breakTie(s *Snapshot, p *Parsed, desc string, all []scored, near bool) []scored {
	raw := rawWords(desc)
	ps := prepare(s)
	keep := func(cs []scored, ok func(c scored) bool) []scored {
		var out []scored
		for _, c := range cs {
			if ok(c) {
				out = append(out, c)
			}
		}
		if len(out) == 0 || len(out) == len(cs) {
			return cs
		}
		return out
	}
	var poss []string
	for _, w := range p.Possessor {
		poss = append(poss, tokens(w)...)
	}
	cs := all
	// The first two tests part a tie only. Of a near candidate they would undo the score:
	// "reschedule Mateo's phone screen" reads "reschedule Mateo" as whose, yet the best is the
	// Reschedule button, and "the data retention for Growth" writes the name of the row's key
	// cell, the anchor of the value asked for.
	if !near {
		// "the arrow next to Create campaign": the element named what it is next to is not it.
		cs = keep(cs, func(c scored) bool {
			name := ps[c.Element.ID].toks[0]
			return len(poss) == 0 || len(name) == 0 || !allIn(name, poss)
		})
		cs = keep(cs, func(c scored) bool { return namedVerbatim(c.Element, raw) })
	}
	if len(cs) > 1 {
		cs = byOpposites(cs, raw)
	}
	if len(cs) > 1 && p.FirstPerson {
		// "I will wrap it myself": of "We wrap it ..." and "I'll wrap it myself", the answer
		// said from the user's side (answers.go).
		cs = keep(cs, func(c scored) bool { return speaksFirstPerson(&ps[c.Element.ID]) })
	}
	if len(cs) > 1 && saysLongText(raw) {
		// "the essay answer box": of two answer boxes, the one that takes lines of text.
		cs = keep(cs, func(c scored) bool { return c.Element.Tag == "textarea" })
	}
	if len(cs) > 1 {
		for _, id := range identifiers(desc) {
			cs = keep(cs, func(c scored) bool { return carriesIdentifier(s, cs, c.Element, id) })
		}
	}
	if len(cs) > 1 && near {
		// Every word but the role's, whose it is included: "bump up the servings by one" is the Increase
		// servings button, not the Servings box it anchors and that scores a little better.
		words := descWords(p)
		for _, w := range p.Context {
			words = append(words, tokens(w)...)
		}
		words = append(words, poss...)
		cs = keep(cs, func(c scored) bool { return ownWords(&ps[c.Element.ID], words, true) == len(words) })
	} else if len(cs) > 1 {
		words := tieWords(p)
		cs = mostWords(cs, func(c scored) int { return ownWords(&ps[c.Element.ID], words, true) })
		if len(cs) > 1 {
			cs = mostWords(cs, func(c scored) int { return ownWords(&ps[c.Element.ID], words, false) })
		}
		if len(cs) > 1 {
			cs = mostWords(cs, func(c scored) int { return regionWords(s, ps, cs, c.Element, words) })
		}
	}
	if len(cs) > 1 && !near {
		cs = bySide(cs, raw)
	}
	if len(cs) > 1 && !near {
		cs = byNumberedItem(s, cs, desc)
	}
	return cs
}

// byNumberedItem keeps the Nth of look-alikes in as many repeated items when the description
// numbers the item after its noun ("the qty for quick order line 3", "passenger 2's seat") and
// none of them says that number: the items do not show their numbers, their order does. The
// tie must be a run of the list's items, with no look-alike left out between them.
func byNumberedItem(s *Snapshot, cs []scored, desc string) []scored {
	n := 0
	fields := strings.Fields(strings.ToLower(desc))
	for i := 1; i < len(fields); i++ {
		f := strings.TrimSuffix(strings.TrimRight(fields[i], ",.?!"), "'s")
		v, err := strconv.Atoi(f)
		if err != nil || !hasLetter(fields[i-1]) || hasDigit(fields[i-1]) || stopWords[fields[i-1]] {
			continue
		}
		if n != 0 {
			return cs // two numbers: which one counts the items?
		}
		n = v
	}
	if n < 1 || n > len(cs) {
		return cs
	}
	num := strconv.Itoa(n)
	items := map[int]bool{}
	for _, c := range cs {
		e := c.Element
		if e.Item == 0 || items[e.Item] || !alike(e, cs[0].Element) || slices.Contains(ownWordsOf(e), num) {
			return cs
		}
		items[e.Item] = true
	}
	byOrder := slices.Clone(cs)
	slices.SortFunc(byOrder, func(a, b scored) int { return a.Element.ID - b.Element.ID })
	for k, j := byOrder[0].Element.ID+1, 1; k < byOrder[len(byOrder)-1].Element.ID; k++ {
		if k == byOrder[j].Element.ID {
			j++
		} else if e := &s.Elements[k]; alike(e, cs[0].Element) && e.Name == cs[0].Element.Name {
			return cs // a look-alike the tie left out: its order is not the items'
		}
	}
	return byOrder[n-1 : n]
}

// sides are the words that place one of a row of look-alikes by where it is on the screen ("the
// aisle seat on the left": of seats 12C and 12D, the one further left), when none of them says
// so in words (byOpposites reads those first): each side word and whether it wants the
// smallest coordinate (left, top) or the largest, and whether that is x (a row) or y (a column).
var sides = map[string]struct{ least, across bool }{
	"left": {true, true}, "leftmost": {true, true}, "right": {false, true}, "rightmost": {false, true},
	"top": {true, false}, "topmost": {true, false}, "bottom": {false, false}, "bottommost": {false, false},
}

// bySide keeps the candidate furthest to the side the description names when they lie in one
// row (for left and right) or one column (for top and bottom), so that where each is says which.
func bySide(cs []scored, raw []string) []scored {
	for _, w := range raw {
		sd, ok := sides[w]
		if !ok {
			continue
		}
		for _, c := range cs {
			if slices.Contains(ownWordsOf(c.Element), w) || c.Element.Box.W <= 0 || c.Element.Box.H <= 0 {
				return cs
			}
		}
		pos := func(b Box) float64 {
			if sd.across {
				return b.X + b.W/2
			}
			return b.Y + b.H/2
		}
		best := cs[0]
		for _, c := range cs[1:] {
			a, b := best.Element.Box, c.Element.Box
			// One row: each overlaps the other's middle line; one column likewise.
			if sd.across && (math.Abs((a.Y+a.H/2)-(b.Y+b.H/2)) > math.Max(a.H, b.H)/2) ||
				!sd.across && (math.Abs((a.X+a.W/2)-(b.X+b.W/2)) > math.Max(a.W, b.W)/2) {
				return cs
			}
			if pos(b) < pos(a) == sd.least && pos(b) != pos(a) {
				best = c
			}
		}
		return []scored{best}
	}
	return cs
}

// rawWords is the description's words as written, lower case, stop words and all.
func rawWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// ownWordsOf is what names an element itself, as raw lower-case words: its name, label,
// text, title, id and test id ("Zoom out", "btn-next").
func ownWordsOf(e *Element) []string {
	var out []string
	for _, v := range []string{e.Name, e.Label, e.AriaLabel, e.Text, e.Title, e.Placeholder} {
		out = append(out, rawWords(v)...)
		if strings.Contains(v, "-") {
			out = append(out, rawWords(strings.ReplaceAll(v, "-", ""))...) // "Check-in" says checkin
		}
	}
	for _, v := range []string{splitIdent(e.IDAttr), splitIdent(e.TestID)} {
		out = append(out, rawWords(v)...)
	}
	return out
}

// namedVerbatim reports whether the element's name, of two words or more, is written word for
// word in the description, stop words included: "zoom in on the map" says "Zoom in".
func namedVerbatim(e *Element, desc []string) bool {
	name := rawWords(firstOf(e.Name, e.Text))
	if len(name) < 2 || len(name) > len(desc) {
		return false
	}
	for i := 0; i+len(name) <= len(desc); i++ {
		if slices.Equal(desc[i:i+len(name)], name) {
			return true
		}
	}
	return false
}

// opposites are groups of words that name the sides of one control pair (a pair of buttons, a
// pair of fields, a choice of units): "Zoom in" and "Zoom out", "From" and "To", Previous and
// Next, "Weight (lb)" and "Weight (oz)". A description that says one side, in any of its
// words, means the element that says that side when its twin says another.
var opposites = [][][]string{
	{{"in"}, {"out"}},
	{{"up", "upward", "upwards", "raise"}, {"down", "downward", "downwards"}},
	{{"on", "enable", "enabled", "activate", "turn"}, {"off", "disable", "disabled", "deactivate"}},
	{{"from", "start", "starts", "starting", "begin", "begins", "beginning", "since", "departure"}, {"to", "end", "ends", "ending", "until", "till", "finish", "finishes", "through", "return"}},
	{{"next", "skip", "forward", "following", "later"}, {"previous", "prev", "back", "backward", "backwards", "earlier", "rewind"}},
	{{"show", "reveal", "unhide"}, {"hide"}},
	{{"expand", "unfold"}, {"collapse", "fold"}},
	{{"increase", "increment", "more", "plus", "raise", "bigger", "larger"}, {"decrease", "decrement", "less", "fewer", "minus", "reduce", "smaller"}},
	{{"high", "higher", "highest", "max", "maximum", "most", "upper"}, {"low", "lower", "lowest", "min", "minimum", "least"}},
	{{"ascending", "asc"}, {"descending", "desc"}},
	{{"before"}, {"after"}},
	{{"buy", "bid", "long"}, {"sell", "ask", "short"}},
	{{"left"}, {"right"}},
	{{"lb", "lbs", "pound", "pounds"}, {"oz", "ounce", "ounces"}, {"kg", "kilo", "kilos", "kilogram", "kilograms"}, {"grams", "gram"}},
	{{"km", "kilometre", "kilometres", "kilometer", "kilometers"}, {"mi", "mile", "miles"}},
	{{"cm", "centimetre", "centimetres", "centimeter", "centimeters"}, {"inch", "inches"}, {"ft", "feet", "foot"}, {"mm", "millimetre", "millimetres", "millimeter", "millimeters"}},
	{{"celsius"}, {"fahrenheit"}},
	{{"checkin", "arrival", "arrive", "arriving"}, {"checkout", "departure", "depart", "departing", "leave", "leaving"}},
}

// byOpposites keeps, for each group of opposites of which the description says one side only,
// the candidates that say that side and no other, when another candidate says another side.
func byOpposites(cs []scored, desc []string) []scored {
	own := make([][]string, len(cs))
	for i, c := range cs {
		own[i] = ownWordsOf(c.Element)
	}
	says := func(words, side []string) bool {
		for _, w := range side {
			if contains(words, w) {
				return true
			}
		}
		return false
	}
	for _, group := range opposites {
		side := -1
		for k, sd := range group {
			if says(desc, sd) {
				if side >= 0 {
					side = -2 // both sides: their order may say which
					break
				}
				side = k
			}
		}
		if side == -2 && len(group) == 2 {
			cs, own = byOrder(cs, own, desc, group)
			continue
		}
		if side < 0 {
			continue
		}
		var keep []int
		other := false
		for i := range cs {
			mine, theirs := false, false
			for k, sd := range group {
				if says(own[i], sd) {
					if k == side {
						mine = true
					} else {
						theirs = true
					}
				}
			}
			switch {
			case mine && !theirs:
				keep = append(keep, i)
			case theirs:
				other = true
			}
		}
		if len(keep) > 0 && other {
			out := make([]scored, 0, len(keep))
			nown := make([][]string, 0, len(keep))
			for _, i := range keep {
				out = append(out, cs[i])
				nown = append(nown, own[i])
			}
			cs, own = out, nown
			if len(cs) == 1 {
				break
			}
		}
	}
	return cs
}

// longText are the words for what one writes in lines, not in a word or a figure.
var longText = map[string]bool{"essay": true, "paragraph": true, "paragraphs": true, "explain": true, "explanation": true,
	"describe": true, "story": true, "letter": true, "sentences": true, "multiline": true}

// saysLongText reports whether the description asks for a place to write at length.
func saysLongText(desc []string) bool {
	for _, w := range desc {
		if longText[w] {
			return true
		}
	}
	return false
}

// byOrder keeps, when the description says both sides of a pair of opposites, the candidates
// that say them in the same order, when another says them the other way round: "sort the
// scores from highest to lowest" is "Sort by grade: high to low", not "low to high".
func byOrder(cs []scored, own [][]string, desc []string, pair [][]string) ([]scored, [][]string) {
	first := func(words, side []string) int {
		for i, w := range words {
			if contains(side, w) {
				return i
			}
		}
		return -1
	}
	order := func(words []string) int {
		a, b := first(words, pair[0]), first(words, pair[1])
		switch {
		case a < 0 || b < 0:
			return 0
		case a < b:
			return 1
		}
		return -1
	}
	want := order(desc)
	var out []scored
	var nown [][]string
	reversed := false
	for i := range cs {
		switch order(own[i]) {
		case want:
			out = append(out, cs[i])
			nown = append(nown, own[i])
		case -want:
			reversed = true
		}
	}
	if len(out) == 0 || !reversed {
		return cs, own
	}
	return out, nown
}

// identifiers are the description's words that name one thing exactly: a word with a digit
// and a letter or a joining sign ("redis-cart-0", "T-102", "INV-2041").
func identifiers(desc string) []string {
	var out []string
	for _, f := range strings.Fields(desc) {
		f = strings.TrimRight(strings.TrimLeft(f, "\"'“‘(#"), "\"'”’).,;:!?")
		f = strings.TrimSuffix(strings.TrimSuffix(f, "'s"), "’s")
		if !strings.ContainsFunc(f, unicode.IsDigit) || !strings.ContainsFunc(f, func(r rune) bool { return unicode.IsLetter(r) || r == '-' || r == '_' || r == '.' }) {
			continue
		}
		out = append(out, strings.ToLower(f))
	}
	return out
}

// saysIdentifier reports whether text has id as a whole word: not "redis-cart-0" in
// "redis-cart-01" or in "redis-cart-0x".
func saysIdentifier(text, id string) bool {
	text = strings.ToLower(text)
	for from := 0; ; {
		i := strings.Index(text[from:], id)
		if i < 0 {
			return false
		}
		i += from
		before, after := i == 0 || !identRune(text[i-1]), i+len(id) == len(text) || !identRune(text[i+len(id)])
		if before && after {
			return true
		}
		from = i + 1
	}
}

func identRune(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '-' || b == '_' || b >= 0x80
}

// carriesIdentifier reports whether e or its own row or card (region) says id exactly.
func carriesIdentifier(s *Snapshot, cs []scored, e *Element, id string) bool {
	if saysIdentifier(e.Name+" "+e.Text+" "+e.Label, id) {
		return true
	}
	for _, j := range regionOf(s, cs, e) {
		m := &s.Elements[j]
		if saysIdentifier(m.Name+" "+m.Text, id) {
			return true
		}
	}
	return false
}

// regionOf is the elements of the largest repeated container around e (a row, a card) that
// holds no other of the tied candidates cs; nil when e is in none.
func regionOf(s *Snapshot, cs []scored, e *Element) []int {
	if e.Item == 0 {
		return nil
	}
	up := itemUps(s)
	var mine []int // e's item and the items around it, innermost first
	for it, n := e.Item, 0; it != 0 && n < 32; it, n = up[it], n+1 {
		mine = append(mine, it)
	}
	// The deepest item shared with another candidate bounds the region.
	limit := len(mine)
	for _, c := range cs {
		if c.Element.ID == e.ID || c.Element.Item == 0 {
			continue
		}
		if k := slices.Index(mine, sharedItem(s, e.Item, c.Element.Item)); k >= 0 && k < limit {
			limit = k
		}
	}
	if limit == 0 {
		return nil
	}
	region := mine[limit-1]
	var out []int
	for j := range s.Elements {
		if it := s.Elements[j].Item; it != 0 && sharedItem(s, it, region) == region {
			out = append(out, j)
		}
	}
	return out
}

// tieWords are the description's words that may tell tied candidates apart: its salient
// words, role words and context words, stemmed.
func tieWords(p *Parsed) []string {
	words := descWords(p)
	for _, w := range append(append([]string(nil), p.RoleWords...), p.Context...) {
		words = append(words, tokens(w)...)
	}
	if p.Kind == "time" && p.Question {
		// "how long to pause for": the Pause length box, not the Pause instead button.
		words = append(words, stem("duration"))
	}
	return words
}

// ownWords counts the words an element carries in its own naming fields, an abbreviation in its
// id or class included ("buy-amt" says amount). Exactly counts a word only as written or by an
// alternative, not by a word it starts ("Check-in" does not say checkout).
func ownWords(pe *prepared, words []string, exactly bool) int {
	n := 0
	for _, w := range words {
		alts := altsFor(w)
		if exactly {
			if saysExactly(pe, w, alts) {
				n++
			}
		} else if carriesWord(pe, w, alts) || attrSays(pe, w) {
			n++
		}
	}
	return n
}

// saysExactly reports whether an element's own naming fields have w or an alternative for it.
func saysExactly(pe *prepared, w string, alts []string) bool {
	for _, f := range nameFields {
		if !ownField(pe, f) {
			continue
		}
		for _, b := range pe.toks[f] {
			if b == w || isAlt(alts, b) {
				return true
			}
		}
	}
	return false
}

// regionWords counts the words e's own row or card carries (see regionOf) on elements other
// than e: a nav link alone in its list item says nothing more than a footer link.
func regionWords(s *Snapshot, ps []prepared, cs []scored, e *Element, words []string) int {
	var region []int
	for _, j := range regionOf(s, cs, e) {
		if j != e.ID && !related(s, j, e.ID) {
			region = append(region, j)
		}
	}
	n := 0
	for _, w := range words {
		alts := altsFor(w)
		for _, j := range region {
			// A select's chosen option is what the row says ("Airfare").
			if carriesWord(&ps[j], w, alts) || contains(ps[j].toks[valueField], w) {
				n++
				break
			}
		}
	}
	return n
}

// mostWords keeps the candidates with the highest count when some have less.
func mostWords(cs []scored, count func(c scored) int) []scored {
	best, n := -1, make([]int, len(cs))
	for i, c := range cs {
		n[i] = count(c)
		best = max(best, n[i])
	}
	var out []scored
	for i, c := range cs {
		if n[i] == best {
			out = append(out, c)
		}
	}
	return out
}
