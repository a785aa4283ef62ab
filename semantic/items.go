package semantic

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// itemOrdinal resolves "the tenth tea", "the first result", "the second suggestion": a
// description that is an ordinal and an item noun and nothing to match as text. The items are
// the page's most item-like group of repeated elements (same tag path, fit for the intent): a
// group of titles (links in headings) or options beats a group of form controls or nav links;
// one whose context or text mentions the noun (or the description's context words) beats one
// that does not. ok is false when the page has no such group; the caller then matches the noun
// as text.
func itemOrdinal(s *Snapshot, p *Parsed, intent Intent, n int) (Resolution, bool) {
	if n == 0 {
		return Resolution{}, false
	}
	var ctxWords []string
	for _, w := range p.Context {
		ctxWords = append(ctxWords, tokens(w)...)
	}
	// "select the third ticket" ticks its row's checkbox ("check" and "tick" name the checkbox
	// themselves, see checkRe, and never count items here).
	g, score := bestGroup(s, stem(p.Counted), ctxWords, intent, max(n, -n), false, p.Verb == "select")
	if g == nil {
		return Resolution{}, false
	}
	g = onePerItem(s, g)
	if len(ctxWords) > 0 {
		// "the first card in progress" counts the cards in the In progress column only.
		ps := prepare(s)
		var in []int
		for _, i := range g {
			if overlap(ctxWords, ps[i].toks[ctxField]) == 1 {
				in = append(in, i)
			}
		}
		if len(in) > 0 {
			g = in
		}
	}
	i := n - 1
	if n < 0 {
		i = len(g) + n
	}
	if i < 0 || i >= len(g) {
		return Resolution{}, false
	}
	e := s.Elements[g[i]]
	conf := 0.6
	if score < 0.8 {
		conf = 0.45 // a weak group: let a model check it when there is one
	}
	return Resolution{Element: e, Confidence: conf, By: "heuristic",
		Why: fmt.Sprintf("%s of %d repeated %s items", ordinalText(n), len(g), e.Role)}, true
}

// groupKey groups repeated elements: the tag path, the class, and for table cells the column.
func groupKey(e *Element) string {
	k := e.Shape + "|" + e.Class
	if e.Role == "cell" || e.Role == "gridcell" {
		col, _, _ := strings.Cut(e.Context, " | ")
		k += "|" + col
	}
	return k
}

// bestGroup returns the most item-like group of repeated elements (in document order) for a
// noun (stemmed), context words and an intent, and its score; nil when there is none with at
// least want members. Titles (links in headings), options and list items beat form controls
// and navigation; mentions of the noun or the context words in the members' context or text
// count, and so do prices when wantPrice; checkboxes win when tick (the verb ticks one).
func bestGroup(s *Snapshot, noun string, ctxWords []string, intent Intent, want int, wantPrice, tick bool) ([]int, float64) {
	ps := prepare(s)
	groups := map[string][]int{}
	var order []string
	for i := range s.Elements {
		e := &s.Elements[i]
		if !e.Visible || e.Covered || !itemFit(e, intent) {
			continue
		}
		k := groupKey(e)
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], i)
		// Siblings alike but for a modifier class ("ln lv-ERROR" among "ln lv-INFO" log
		// lines, "row unread" among "row") are one list too: one member stands out, it does
		// not start another list. (Look-alikes in other parents, a row's Edit and Delete
		// buttons, keep their own classes apart.)
		if e.Parent >= 0 && strings.ContainsRune(strings.TrimSpace(e.Class), ' ') {
			sk := "siblings|" + e.Shape + "|" + firstField(e.Class) + "|" + strconv.Itoa(e.Parent)
			if _, ok := groups[sk]; !ok {
				order = append(order, sk)
			}
			groups[sk] = append(groups[sk], i)
		}
	}
	bestScore, best := math.Inf(-1), ""
	for _, k := range order {
		g := groups[k]
		if len(g) < 2 {
			continue
		}
		e := &s.Elements[g[0]]
		sc := 0.2 * math.Log2(float64(len(g)))
		switch {
		case e.Role == "link" && (ps[g[0]].parentRole == "heading" || strings.Contains(e.Shape, ">h")):
			sc += 1 // titles
		case e.Role == "heading" || e.Role == "option" || e.Role == "listitem" || e.Role == "row" || e.Role == "article":
			sc += 0.5
		case e.Role == "link":
			sc += 0.3
		case (e.Role == "checkbox" || e.Role == "switch") && tick:
			sc += 1.2 // "select the third ticket": its row's checkbox
		case (e.Role == "radio" || e.Role == "checkbox") && choiceNouns[noun]:
			sc += 0.5 // "the last answer choice", "the second option": the choices are the controls
		case e.Role == "checkbox" || e.Role == "radio" || e.Editable || e.Role == "combobox":
			sc -= 1
		}
		if strings.Contains(e.Context, "navigation") || strings.Contains(e.Context, "header") || strings.Contains(e.Context, "footer") {
			sc -= 0.6
		}
		mention, ctxHit, prices, words := 0, 0.0, 0, 0
		for _, i := range g {
			words += len(strings.Fields(firstOf(s.Elements[i].Name, s.Elements[i].Text)))
			if noun != "" && (contains(ps[i].toks[ctxField], noun) || contains(ps[i].toks[0], noun) || contains(ps[i].toks[textField], noun) || contains(ps[i].toks[classField], noun) || headsListOf(ps[i].toks[ctxField], noun)) {
				mention++
			}
			if len(ctxWords) > 0 {
				ctxHit += overlap(ctxWords, ps[i].toks[ctxField])
			}
			if ps[i].price {
				prices++
			}
		}
		sc += 0.6 * float64(mention) / float64(len(g))
		if len(ctxWords) > 0 {
			sc += 0.8 * ctxHit / float64(len(g))
		}
		if titleNouns[noun] {
			// Titles and names read like titles: several words, not "hide" or "148 comments".
			sc += 0.6*math.Min(1, float64(words)/float64(len(g))/4) - 0.2
		}
		if wantPrice {
			sc += 1.5*float64(prices)/float64(len(g)) - 0.5
		}
		if want > len(g) {
			sc -= 2 // too few to have an Nth
		}
		if sc > bestScore {
			bestScore, best = sc, k
		}
	}
	if best == "" {
		return nil, 0
	}
	return groups[best], bestScore
}

// itemFit reports whether e can be a counted item for the intent.
func itemFit(e *Element, intent Intent) bool {
	switch intent {
	case IntentClick:
		return e.Interactive && e.Enabled
	case IntentType:
		return e.Editable && e.Enabled
	}
	return e.Interactive || strings.TrimSpace(firstOf(e.Name, e.Text)) != ""
}

// choiceNouns are nouns (stemmed) that name the choices of a question or a setting: radios and
// checkboxes are those items, not form controls to pass over ("the last answer choice").
var choiceNouns = map[string]bool{"choic": true, "option": true, "answer": true}

// titleNouns are nouns that ask for the items' titles or names (stemmed).
var titleNouns = map[string]bool{"titl": true, "nam": true, "headlin": true, "heading": true, "story": true, "stori": true}

// onePerItem keeps the first member of g in each repeated container: a row with a title link
// and two artist links is one track, not three.
func onePerItem(s *Snapshot, g []int) []int {
	if perColumn(s, g) {
		return g
	}
	seen := map[int]bool{}
	out := g[:0:0]
	for _, i := range g {
		it := s.Elements[i].Item
		if it != 0 && seen[it] {
			continue
		}
		seen[it] = true
		out = append(out, i)
	}
	return out
}

// perColumn reports a group whose repeated containers hold one member per table column, four
// or more to a row: a calendar's week is a row of days, each one an item ("the last day of
// July" is the 31st, not the first day of the last week).
func perColumn(s *Snapshot, g []int) bool {
	cols := map[int]map[string]bool{}
	most := 0
	for _, i := range g {
		e := &s.Elements[i]
		col, _, found := strings.Cut(e.Context, " | ")
		if e.Item == 0 || !found || col == "" {
			return false
		}
		if cols[e.Item] == nil {
			cols[e.Item] = map[string]bool{}
		}
		if cols[e.Item][col] {
			return false // two in one column: one item's parts
		}
		cols[e.Item][col] = true
		most = max(most, len(cols[e.Item]))
	}
	return most >= 4
}

// sequenceWords say which neighbour in a line of look-alikes a description means: "the
// programme after Coronation Street" is the next one, "the stop before Leeds" the one before.
var sequenceWords = map[string]int{"after": 1, "before": -1}

// askWords open a question about what comes in a line ("what's on after the news", "what
// comes before Leeds"): they say nothing of what kind of thing the line holds.
var askWords = map[string]bool{
	"what": true, "which": true, "who": true, "when": true, "where": true, "how": true, "do": true,
	"does": true, "did": true, "have": true, "has": true, "come": true, "comes": true, "next": true, "right": true,
}

// neighbourInLine resolves "the programme after Coronation Street": the words after "after"
// name one of a line of look-alike siblings (a channel's programmes, a route's stops), and
// the answer is the look-alike next to it on that side. The words before say what kind of
// thing the line holds, in a word or two the named element does not carry; a count or a
// figure asked "after" something ("how many unsubscribed after the May email") is no neighbour.
func neighbourInLine(s *Snapshot, p *Parsed, desc string, ok []scored) (scored, string, bool) {
	if p.Kind != "" || len(ok) == 0 {
		return scored{}, "", false
	}
	raw := rawWords(desc)
	at, side := -1, 0
	for i, w := range raw {
		if d := sequenceWords[w]; d != 0 {
			if at >= 0 {
				return scored{}, "", false
			}
			at, side = i, d
		}
	}
	if at < 1 || at == len(raw)-1 {
		return scored{}, "", false
	}
	var kind, named []string
	for _, w := range raw[:at] {
		if !stopWords[w] && !askWords[w] {
			kind = append(kind, w)
		}
	}
	for _, w := range raw[at+1:] {
		if !stopWords[w] {
			named = append(named, w)
		}
	}
	if len(kind) == 0 || len(kind) > 2 || len(named) == 0 {
		return scored{}, "", false
	}
	// The element the words after name: the best candidate that says them all.
	a := -1
	for i := range ok {
		own := ownWordsOf(ok[i].Element)
		if !containsAll(own, named) {
			continue
		}
		for _, w := range kind {
			if slices.Contains(own, w) {
				return scored{}, "", false // "the email after Monday's" names the email itself
			}
		}
		a = i
		break
	}
	if a < 0 {
		return scored{}, "", false
	}
	a = namerWithin(s, ok, a, named)
	e := ok[a].Element
	for k, n := e.ID+side, 0; k >= 0 && k < len(s.Elements) && n < 400; k, n = k+side, n+1 {
		if o := &s.Elements[k]; alike(o, e) && o.Visible && inOneLine(s, o, e) {
			c := ok[a]
			c.Element = o
			return c, fmt.Sprintf("the look-alike %s %q", raw[at], clip(firstOf(e.Name, e.Text), 40)), true
		}
	}
	return scored{}, "", false
}

// namerWithin is, of the candidates in ok that say all of named, the innermost inside ok[a]'s
// element, or a: a stop's line "Peterborough 09:58" is named by its link "Peterborough", whose
// look-alikes are the other stops' links.
func namerWithin(s *Snapshot, ok []scored, a int, named []string) int {
	best := a
	for i := range ok {
		if i != best && isAncestor(s, ok[best].Element.ID, ok[i].Element.ID) && containsAll(ownWordsOf(ok[i].Element), named) {
			best = i
		}
	}
	return best
}

// inOneLine reports whether look-alikes a and b stand in one line: siblings, or each in one of
// two look-alike siblings (the list items of a route's stops).
func inOneLine(s *Snapshot, a, b *Element) bool {
	if a.Parent == b.Parent {
		return true
	}
	if a.Parent < 0 || b.Parent < 0 {
		return false
	}
	pa, pb := &s.Elements[a.Parent], &s.Elements[b.Parent]
	return pa.Parent == pb.Parent && alike(pa, pb)
}

// containsAll reports whether every word of want is in have.
func containsAll(have, want []string) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}
