package semantic

import (
	"cmp"
	"math"
	"math/bits"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Relations between elements that a description leans on but no single element carries:
//
//   - a value and its label: "the available balance" names the label "Available balance", the
//     user wants the "$2,418.73" beside it (dt/dd, th/td, "Total: <b>$12</b>", a KPI heading
//     and its figure);
//   - a target and its anchor: "the price of the JBL headphones", "add the Bose headphones to
//     the cart", "the checkbox for Book dentist": the words the target lacks are on another
//     element of the same item (list item, table row, card).
//
// relate adjusts the scored candidates after the per-element scoring, from the snapshot's data
// alone (parents, shapes, boxes, document order).

const (
	labelValueBonus = 0.12  // a value over the label that names it
	labelPenalty    = 0.15  // a label when reading: its value is the answer
	echoPenalty     = 0.25  // an answer to a question that only says the question's words
	leadLabelBonus  = 0.02  // the line a leading label opens, over the label
	laterValue      = 0.025 // a row header's later cells, against its first
	anchorWeight    = 0.4   // times the share of the missing words found on an anchor
	secondAnchor    = 0.5   // the share of the rest found on another anchor counts this much
	partAnchor      = 0.03  // an anchor in the candidate's own item, over one under its heading
	anchorWindow    = 30    // how far in document order an anchor is looked for
	anchorTop       = 40    // how many of the best candidates look for anchors
	headMissing     = 0.15  // a candidate without the head word (or asked-for role)
	notTheirs       = 0.15  // a candidate with no tie to the description's possessor
	unitOnlyLabel   = 0.2   // a label of all of a count's unit, none of what says which
)

func relate(s *Snapshot, ps []prepared, p *Parsed, qt *queryText, intent Intent, all []scored) []scored {
	if len(all) == 0 {
		if intent != IntentType {
			return answerCurrent(s, ps, p, qt, all) // "what page am I on": no element says it
		}
		return all
	}
	labelOf := map[int]int{}
	all = labelValues(s, ps, p, qt, intent, all, labelOf)
	all = leadLabels(s, intent, all)
	all = anchors(s, ps, p, qt, intent, all, labelOf)
	all = labelledOtherwise(s, ps, qt, all)
	if p.Question {
		echoes(ps, qt, all)
		all = echoToItem(s, ps, p, qt, intent, all)
		if intent != IntentClick && intent != IntentType {
			all = answerNow(s, ps, p, qt, all)
		}
	}
	if intent != IntentRead {
		handToControl(s, ps, all)
		all = playingControl(s, ps, p, qt, all)
	}
	if intent == IntentClick || intent == IntentType {
		all = handLabelToControl(s, ps, p, qt, intent, all)
	} else {
		if p.Kind == "count" || p.Kind == "figure" || intent == IntentRead {
			// Reading "calories per slice" off a tile "<b>318</b> Calories" reads the figure,
			// and "how much time is left" off "⏱ <span>12:41</span> left" the time.
			all = handToFigure(s, ps, qt.words, all, p.Kind != "count" && p.Kind != "figure")
		}
		all = handLabelToKind(s, ps, p, all)
		all = handToField(s, ps, qt, all)
		all = handToContent(s, ps, p, qt, all)
		all = handToLedText(s, ps, all)
		if p.Who {
			all = handToName(s, ps, all)
		}
	}
	if intent != IntentType {
		// Last: the element the page marks as current is the answer itself, not a figure in it.
		all = answerCurrent(s, ps, p, qt, all)
	}
	// Role-only candidates without an anchor are not candidates.
	out := all[:0]
	for _, c := range all {
		if !c.needAnchor {
			out = append(out, c)
		}
	}
	return out
}

// echoes lowers the candidates that only repeat the question's words: "what did Priya Shah
// order?" is not answered by "Priya Shah", nor "which room is chemistry in" by "Chemistry". The
// answer says something the asker does not know.
func echoes(ps []prepared, qt *queryText, all []scored) {
	for i := range all {
		if pe := &ps[all[i].Element.ID]; len(pe.toks[0]) > 0 && allIn(pe.toks[0], qt.all) && !holdsAnswer(pe, qt) {
			all[i].Score = round3(all[i].Score - echoPenalty)
			all[i].Why += echoWhy
		}
	}
}

// echoToItem answers a question whose best match only repeats it from the echo's item: "what
// did Priya Shah order?" best matches the order card's "Priya Shah", and the answer is the card's
// other field of the kind the question asks for (what she ordered: its first line of words after
// her name; a date for "when", a person for "who", a price for "how much"). That field gets the
// echo's match, without the echo's penalty.
func echoToItem(s *Snapshot, ps []prepared, p *Parsed, qt *queryText, intent Intent, all []scored) []scored {
	if intent == IntentClick || intent == IntentType {
		return all
	}
	best := bestEligible(all)
	if best < 0 || !strings.HasSuffix(all[best].Why, echoWhy) {
		return all
	}
	echo := all[best].Element.ID
	lo, hi, ok := itemSpan(s, ps, echo)
	if !ok {
		return all
	}
	f := answerIn(s, ps, p, qt, lo, hi, echo)
	if f < 0 {
		return all
	}
	// The field says what the echo lacked: it has the echo's match without the echo's penalty.
	at := indexByID(all)
	all = handDown(s, all, at, best, f, "the answer beside "+clip(firstOf(s.Elements[echo].Name, s.Elements[echo].Text), 40))
	j := at[f]
	all[j].Score = round3(all[j].Score + echoPenalty)
	all[j].Why = strings.TrimSuffix(all[j].Why, echoWhy)
	return all
}

// itemSpan is the elements of the item element i is a part of, first to last: the inside of its
// list item, row or article, or else the run of elements around it in the same outermost
// repeated container (a card of a grid of cards, which a shadow root may hold without a parent
// in the snapshot). ok is false when it is in none, or in one larger than maxFieldBlock.
func itemSpan(s *Snapshot, ps []prepared, i int) (lo, hi int, ok bool) {
	if it := itemOf(s, i); it >= 0 {
		return it + 1, it + ps[it].descendants, ps[it].descendants <= maxFieldBlock
	}
	if s.Elements[i].Item == 0 {
		return 0, 0, false
	}
	lo, hi, ok = runOfItem(s, i, topItem(s, s.Elements[i].Item))
	if !ok && s.Elements[i].Item != topItem(s, s.Elements[i].Item) {
		// A row of a table inside a card: the card is too large, the row is the item.
		lo, hi, ok = runOfItem(s, i, s.Elements[i].Item)
	}
	return lo, hi, ok
}

// runOfItem is the run of elements around i, first to last, that lie in item top (in it or in
// an item inside it); ok is false when the run is larger than maxFieldBlock.
func runOfItem(s *Snapshot, i, top int) (lo, hi int, ok bool) {
	same := func(k int) bool { return itemWithin(s, s.Elements[k].Item, top) }
	lo, hi = i, i
	for lo > 0 && same(lo-1) && hi-lo < maxFieldBlock {
		lo--
	}
	for hi+1 < len(s.Elements) && same(hi+1) && hi-lo < maxFieldBlock {
		hi++
	}
	return lo, hi, hi-lo < maxFieldBlock
}

// echoWhy is what echoes adds to the reasons of a candidate that only repeats the question.
const echoWhy = "; only repeats the question"

// answerIn returns the field of the item whose elements are lo to hi that answers the question,
// or -1: a plain visible
// leaf that says something the question does not, of the kind asked for; the only one such,
// except that a "what" question of no kind takes the first line of words after echo.
func answerIn(s *Snapshot, ps []prepared, p *Parsed, qt *queryText, lo, hi, echo int) int {
	found, led, nLed := -1, -1, 0
	for d := lo; d <= hi && d < len(s.Elements); d++ {
		e, pd := &s.Elements[d], &ps[d]
		if d == echo || pd.descendants > 0 || e.Interactive || e.Editable || !e.Visible || allIn(pd.toks[0], qt.all) {
			continue
		}
		t := strings.TrimSpace(firstOf(e.Text, e.Name))
		var fits bool
		switch {
		case p.Kind != "" || p.Who:
			fits = fitsKind(p, pd, t)
		default:
			if hasLetter(t) && !pd.price && pd.shape == 0 && !personName(t) && d > echo {
				return d
			}
		}
		if fits {
			if captioned(s, ps, d) {
				led, nLed = d, nLed+1
			}
			if found >= 0 {
				found = -2 // two such fields: the item does not say which, unless a label leads one
				continue
			}
			if found == -1 {
				found = d
			}
		}
	}
	if found == -2 {
		return ledAnswer(p, led, nLed)
	}
	return found
}

// allIn reports whether every token of toks is in set or a stop word.
func allIn(toks, set []string) bool {
	for _, t := range toks {
		if !stopWords[t] && !contains(set, t) {
			return false
		}
	}
	return true
}

// handToControl gives a control the score of the plain element that only wraps it (a table
// cell around a row's Block button, a list item around its link): the wrapper may have found an
// anchor the control did not, and clicking the wrapper clicks nothing in particular.
func handToControl(s *Snapshot, ps []prepared, all []scored) {
	at := indexByID(all)
	for i := range all {
		w := all[i].Element.ID
		if s.Elements[w].Interactive || ps[w].descendants != 1 || w+1 >= len(s.Elements) {
			continue
		}
		c := &s.Elements[w+1]
		j, ok := at[w+1]
		if !ok || c.Parent != w || !c.Interactive || c.Name != s.Elements[w].Name {
			continue
		}
		if all[j].Score < all[i].Score {
			all[j].Score = round3(all[i].Score + 0.01)
			all[j].Why += "; the control in " + clip(s.Elements[w].Role, 20)
		}
	}
}

// handToFigure hands a sentence's score to the figure inside it: "the number of pets
// available" matches "<p><span>8</span> pets available</p>" as a whole, and the number is the
// span. Only a sentence with one short child that holds a digit hands it on, or with one such
// child that says what it counts ("received <b>58 bags</b> since <b>2023</b>"). With byLead, a
// figure its label leads ("Close date: <span>Aug 15</span>") is left to the label's own reading
// (lead), which tells it from its look-alikes better than the line's words do.
func handToFigure(s *Snapshot, ps []prepared, words []string, all []scored, byLead bool) []scored {
	at := indexByID(all)
	n := len(all)
	for i := 0; i < n; i++ {
		b := all[i].Element.ID
		e := &s.Elements[b]
		if all[i].text == 0 {
			continue // it says none of the words: it has no match to hand on
		}
		if e.Editable || !hasDigit(e.Text) || len(e.Text) > 160 {
			continue
		}
		fig, named, nNamed := -1, -1, 0
		for c := b + 1; c < len(s.Elements) && s.Elements[c].Parent >= b; c++ {
			ce := &s.Elements[c]
			if ce.Parent != b || !hasDigit(ce.Text) {
				continue
			}
			if ce.Interactive || !hasLetter(strings.Replace(e.Text, ce.Text, "", 1)) && !namedApart(e) {
				fig = -2 // a link, or all the text there is: the element itself is the figure
				break
			}
			if len(ce.Text) > 24 || !ce.Visible {
				fig = -2
				break
			}
			if ownsAny(&ps[c], words) {
				named, nNamed = c, nNamed+1 // "58 bags" for "how many bags"
			}
			if fig == -1 {
				fig = c
			} else {
				fig = -3 // two figures: the sentence does not say which, unless one says what it counts
			}
		}
		if fig == -3 && nNamed == 1 {
			fig = named
		}
		if fig < 0 {
			continue
		}
		if byLead {
			if before, _, ok := strings.Cut(e.Text, s.Elements[fig].Text); ok && strings.HasSuffix(strings.TrimSpace(before), ":") {
				continue
			}
		}
		all = handDown(s, all, at, i, fig, "the figure in "+clip(e.Text, 40))
	}
	return all
}

// handToField hands a block's score to the one part of it that says what is asked for when
// another part names whose it is: "the availability of Kindred" matches the list item
// "<h3>Kindred</h3> … <p>2 of 5 copies available</p>" as a whole, and the answer is the line
// that says available; the block is the possessor's item, not its field. Only a small block
// of plain text with one such part hands it on.
func handToField(s *Snapshot, ps []prepared, qt *queryText, all []scored) []scored {
	if qt.head == "" || len(qt.poss) == 0 || contains(qt.poss, qt.head) {
		return all
	}
	at := indexByID(all)
	n := len(all)
	for i := 0; i < n; i++ {
		b := all[i].Element.ID
		e := &s.Elements[b]
		if all[i].text == 0 || e.Interactive || e.Editable || ps[b].descendants == 0 || ps[b].descendants > maxFieldBlock {
			continue
		}
		field, whose := -1, false
		for d := b + 1; d <= b+ps[b].descendants && d < len(s.Elements); d++ {
			switch pd := &ps[d]; {
			case ownsAny(pd, qt.poss):
				whose = true
			case pd.descendants > 0 || s.Elements[d].Interactive || !ownsLike(pd, qt.head):
			case field >= 0:
				field = -2 // two parts say it: the block does not say which
			case field == -1:
				field = d
			}
		}
		if field >= 0 && whose {
			all = handDown(s, all, at, i, field, "the part of "+clip(firstOf(e.Name, e.Text), 40)+" that says it")
		}
	}
	return all
}

// maxFieldBlock is the most elements a block may hold for handToField to look inside it: a
// card or a list item, not a whole list.
const maxFieldBlock = 24

// handDown gives element to, inside candidate i, i's score (plus a little) with says as the
// reason, adding it as a candidate when it is none yet; at indexes all by element and is kept.
func handDown(s *Snapshot, all []scored, at map[int]int, i, to int, says string) []scored {
	sc := round3(all[i].Score + 0.01)
	why := says + "; " + all[i].Why
	if j, ok := at[to]; ok {
		if all[j].Score < sc {
			all[j].Score, all[j].Why, all[j].eligible = sc, why, true
		}
		return all
	}
	nc := all[i]
	nc.Element, nc.Score, nc.Why, nc.eligible = &s.Elements[to], sc, why, true
	at[to] = len(all)
	return append(all, nc)
}

// handToName hands a sentence's score to the person's name inside it when the question asks
// who: "who will approve my request?" matches "Your request will be sent to <b>Dana
// Whitfield</b> for approval." as a whole, and the answer is the name. Only a sentence with
// one child that reads as a name hands it on.
func handToName(s *Snapshot, ps []prepared, all []scored) []scored {
	at := indexByID(all)
	n := len(all)
	for i := 0; i < n; i++ {
		b := all[i].Element.ID
		e := &s.Elements[b]
		if e.Interactive || e.Editable || ps[b].descendants == 0 || len(e.Text) > 200 || personName(e.Text) {
			continue
		}
		name := -1
		for c := b + 1; c < len(s.Elements) && s.Elements[c].Parent >= b; c++ {
			if s.Elements[c].Parent != b || !personName(s.Elements[c].Text) {
				continue
			}
			if name >= 0 {
				name = -1 // two names: the sentence does not say which
				break
			}
			name = c
		}
		if name < 0 {
			continue
		}
		all = handDown(s, all, at, i, name, "the name in "+clip(e.Text, 40))
	}
	return all
}

// personName reports whether t reads as a person's name: two to four capitalized words of
// letters ("Dana Whitfield", "Mr. Okonkwo", "Elena Fischer (you)"), not all capitals ("REST
// API"), no digits. A roster's "Surname, Given" ("Abiodun, Femi") is one too: a comma may
// end the first word.
func personName(t string) bool {
	t = strings.TrimSpace(t)
	if i := strings.IndexByte(t, '('); i > 0 && strings.HasSuffix(t, ")") {
		t = strings.TrimSpace(t[:i]) // "Elena Fischer (you)"
	}
	f := strings.Fields(t)
	if len(f) < 2 || len(f) > 4 || len(t) > 40 || allTitleWords(f) {
		return false // ("Human Resources" is a team: see allTitleWords)
	}
	lower := false
	for k, w := range f {
		if k == 0 && len(f) <= 3 {
			w = strings.TrimSuffix(w, ",") // "Abiodun, Femi"
		}
		r, _ := utf8.DecodeRuneInString(w)
		if !unicode.IsUpper(r) {
			return false
		}
		for _, c := range w {
			switch {
			case unicode.IsLower(c):
				lower = true
			case unicode.IsLetter(c) || c == '.' || c == '-' || c == '\'' || c == '’':
			default:
				return false
			}
		}
	}
	return lower
}

// namedApart reports whether an element's name has words its text lacks: a cart link labelled
// "Basket" that shows an icon and a badge ("🛒 5"), whose figure is the badge.
func namedApart(e *Element) bool {
	return hasLetter(e.Name) && !hasLetter(e.Text)
}

// labelValues gives the value an element labels the label's match (plus a little) when the
// user reads, and lowers the label itself.
func labelValues(s *Snapshot, ps []prepared, p *Parsed, qt *queryText, intent Intent, all []scored, labelOf map[int]int) []scored {
	if intent != IntentRead && intent != IntentAny || len(p.NameOf) > 0 || len(p.Words) == 0 && len(p.Quoted) == 0 {
		// "the hotel name" is the name itself, not what follows it; "the caption" matched
		// its role alone, no label's words.
		return all
	}
	have := indexByID(all)
	n := len(all)
	message := contains(qt.roleWords, stemMessage)
	// The words that say which date, past "date" itself ("card expiry" of "the card expiry
	// date"): nil when "date" is all there is. (A measure's word says which value as much as
	// what kind: "Distance", "Height".)
	var which []string
	if p.Kind == "date" && len(qt.words) > 1 {
		for _, w := range qt.words {
			if w != stemDate && w != stemDay {
				which = append(which, w)
			}
		}
		if len(which) == len(qt.words) {
			which = nil
		}
	}
	for i := 0; i < n; i++ {
		c := all[i]
		if c.collection || ps[c.Element.ID].gridHeader {
			continue // a grid's column header labels its column, not the header beside it
		}
		if c.text == 0 || len(qt.words) > 0 && !ownsLikeAny(&ps[c.Element.ID], qt.words) {
			// A label of none of the words says nothing of its value: "Open" for "the stock
			// price", "Total" (named like the role word) for "the tax amount".
			continue
		}
		if len(qt.words) > 0 && !saysLikeAny(&ps[c.Element.ID], qt.words) {
			// A label labels by the words it shows: "Adoption pending" matched by its id
			// (status-moose) is Moose's status itself, not the label of the fee after it.
			continue
		}
		if len(which) > 0 && !ownsLikeAny(&ps[c.Element.ID], which) {
			// "Next billing date" for "the card expiry date": any date is a date, the label
			// says none of which one.
			continue
		}
		vs := valuesOf(s, ps, c.Element.ID)
		// A key's value, when asked by a question or as the key of something ("the
		// username of this login": the key says the head word alone).
		if len(vs) == 0 && (p.Question || len(p.Possessor) > 0 && ps[c.Element.ID].norm[0] == p.Head) && !titleOnly(c.Element, &ps[c.Element.ID], qt) {
			if v := keyValueOf(s, ps, c.Element.ID, message); v >= 0 {
				vs = []int{v}
			}
		}
		if len(vs) == 0 || roleFits(c.Element, p) && !roleFits(&s.Elements[vs[0]], p) {
			continue // "the last product's title" asks for the heading itself
		}
		// The label's score counts its fit as a value of the kind asked for ("Lost" is no
		// count); its value is handed that score with its own fit instead.
		labelFit, _ := kindFit(&ps[c.Element.ID], p, qt, intent, nil)
		if qt.unitOnly(&ps[c.Element.ID]) {
			// "how many new orders are waiting": "Orders 57" is every order of the day; the
			// count asked for is the one its other words label ("New orders 2").
			labelFit += unitOnlyLabel
		}
		for k, v := range vs {
			ve := &s.Elements[v]
			if message {
				if pen, _ := notAMessage(&ps[v]); pen > 0 {
					continue // "what did Ike ask": not the unread count or the time beside his name
				}
			}
			if p.Kind == "count" && ps[v].shape&(shapeTime|shapeDate) != 0 {
				continue // "the unread count for Sana Park": not the time beside her name
			}
			if _, seen := labelOf[v]; !seen {
				labelOf[v] = c.Element.ID
			}
			valueFit, _ := kindFit(&ps[v], p, qt, intent, nil)
			sc := c.Score + labelValueBonus - labelFit + valueFit
			if k > 0 {
				sc -= laterValue // the row's first value, unless its column is named
			}
			why := "the value labelled " + clip(firstOf(c.Element.Name, c.Element.Text), 40) + "; " + c.Why
			if j, ok := have[v]; ok {
				all[j].needAnchor = false // its label is its anchor
				if all[j].Score < sc {
					all[j].Score, all[j].Why = round3(sc), why
				} else if labelAdds(&ps[c.Element.ID], &ps[v], qt.words, p.Head) {
					// Better than its label on its own ("Due" for "when is Circe due?"), it
					// still is the value the label's words name, unlike its look-alikes.
					all[j].Score = round3(all[j].Score + labelValueBonus)
					all[j].Why += "; labelled " + clip(firstOf(c.Element.Name, c.Element.Text), 40)
				}
			} else {
				nc := c
				nc.Element, nc.Score, nc.Why = ve, round3(sc), why
				nc.eligible = ve.Visible || intent != IntentClick
				all = append(all, nc)
				have[v] = len(all) - 1
			}
		}
		if intent == IntentRead {
			all[i].Score = round3(all[i].Score - labelPenalty)
		}
	}
	return all
}

// titleOnly reports whether heading e names the thing asked about but not what is asked of it
// (the head word): a pet card's "Moose" for "is Moose still available" (Moose's status) is the
// card's title, and the line under it ("Great Dane · Male · 5 yrs") no value it keys.
func titleOnly(e *Element, pe *prepared, qt *queryText) bool {
	return e.Role == "heading" && qt.head != "" && !ownsLike(pe, qt.head)
}

// saysLikeAny reports whether the element shows one of words, or a page's alternative for it,
// in its name, label or text: what a reader sees, not its id or class.
func saysLikeAny(pe *prepared, words []string) bool {
	return fieldsLikeAny(pe, words, containedFields...)
}

// fieldsLikeAny reports whether one of the element's fields has one of words, or a page's
// alternative for it.
func fieldsLikeAny(pe *prepared, words []string, fields ...int) bool {
	for _, w := range words {
		alts := altsFor(w)
		for _, f := range fields {
			if contains(pe.toks[f], w) || len(alts) > 0 && anyAlt(pe.toks[f], alts) {
				return true
			}
		}
	}
	return false
}

// unitOnly reports whether an element says, of a count question's words, only the unit counted
// while others say which of them are counted ("Orders" for "how many new orders are waiting").
func (qt *queryText) unitOnly(pe *prepared) bool {
	if qt.unit == "" || !ownsAny(pe, []string{qt.unit}) {
		return false
	}
	for _, w := range qt.words {
		if w != qt.unit && ownsAny(pe, []string{w}) {
			return false
		}
	}
	return len(qt.words) > 1
}

// labelAdds reports whether label l has a description word that its value v lacks in its own
// fields and column, other than the head: the word that tells this value from its look-alikes
// ("Circe" in "when is Circe due?").
func labelAdds(l, v *prepared, words []string, head string) bool {
	h := stem(head)
	for _, w := range words {
		if w != h && kindWords[w] == "" && ownsAny(l, []string{w}) && !ownsAny(v, []string{w}) && !contains(v.col, w) {
			return true
		}
	}
	return false
}

// leadLabels handles a label that opens its parent's text ("<p><b>Error:</b> Enter a valid
// number</p>"): when reading, the parent is what the label names, so it gets the label's score
// (plus a little) and the label loses labelPenalty.
func leadLabels(s *Snapshot, intent Intent, all []scored) []scored {
	if intent != IntentRead && intent != IntentAny {
		return all
	}
	have := indexByID(all)
	for i := range all {
		e := all[i].Element
		lt := strings.TrimSpace(firstOf(e.Text, e.Name))
		if e.Interactive || e.Editable || !strings.HasSuffix(lt, ":") || e.Parent < 0 || e.Parent >= len(s.Elements) {
			continue
		}
		pe := &s.Elements[e.Parent]
		pt := strings.TrimSpace(firstOf(pe.Text, pe.Name))
		if pe.Interactive || pe.Editable || len(pt) <= len(lt) || !strings.HasPrefix(pt, lt) {
			continue
		}
		j, ok := have[e.Parent]
		if !ok {
			continue
		}
		if sc := all[i].Score + leadLabelBonus; all[j].Score < sc {
			all[j].Score = round3(sc)
			all[j].Why = "the text behind the label " + clip(lt, 40) + "; " + all[j].Why
		}
		all[i].Score = round3(all[i].Score - labelPenalty)
	}
	return all
}

// valuesOf returns the elements l labels: valueOf's, and for a row header every cell of its row
// ("Memory" labels each laptop's memory; the column decides which).
func valuesOf(s *Snapshot, ps []prepared, l int) []int {
	v := valueOf(s, ps, l)
	if v < 0 {
		return nil
	}
	e := &s.Elements[l]
	out := []int{v}
	if e.Role == "columnheader" || e.Role == "rowheader" || e.Tag == "th" {
		for k := v + 1; k < len(s.Elements) && len(out) < 16 && sameRow(e, &s.Elements[k]); k++ {
			if r := s.Elements[k].Role; r == "cell" || r == "gridcell" {
				out = append(out, k)
			}
		}
	}
	return out
}

// valueOf returns the element that element l labels, or -1: the next element at the same level
// when l reads like a label ("Available balance", "Subtotal:", a dt, a row header) and that
// element like a value (a figure; any text after a dt or row header).
func valueOf(s *Snapshot, ps []prepared, l int) int {
	e := &s.Elements[l]
	// A button may be a label that explains itself when pressed ("Cleaning fee" opens what
	// the fee is for): it labels the figure just after it on its line, or the one figure it
	// shares a repeated line with (a price breakdown's lines put it at the far right), nothing
	// else.
	button := e.Interactive && e.Role == "button"
	if e.Interactive && !button || e.Editable {
		return -1
	}
	lt := withoutAside(unnumbered(strings.TrimSpace(firstOf(e.Text, e.Name))))
	if lt == "" || len([]rune(lt)) > 80 {
		return -1
	}
	end := l + 1 + ps[l].descendants
	// A figure is a value, not a label; a header cell may have digits in its name ("S&P 500").
	header := e.Tag == "th" || e.Tag == "dt" || e.Role == "rowheader"
	if hasDigit(lt) && !(header && hasLetter(lt)) || len([]rune(lt)) > 40 {
		return -1
	}
	if dataCell(e) {
		return -1
	}
	if rateUnitRe.MatchString(lt) {
		// "$58 <div>per day</div> $232 total": a rate's unit qualifies the figure before it,
		// never the one after it.
		if l > 0 {
			if f := &s.Elements[l-1]; figureLike(strings.TrimSpace(firstOf(f.Text, f.Name))) && siblingValue(f, e) {
				return l - 1
			}
		}
		return -1
	}
	if f := tileFigure(s, ps, l, end); f >= 0 && !button {
		return f
	}
	// The sibling case: the next element at the same level.
	if end >= len(s.Elements) {
		return -1
	}
	v := &s.Elements[end]
	if !siblingValue(e, v) {
		return -1
	}
	vt := strings.TrimSpace(firstOf(v.Text, v.Name))
	if vt == "" || len([]rune(vt)) > 60 {
		return -1
	}
	if q := quantityBefore(s, ps, l, vt); q >= 0 {
		return q
	}
	labelish := strings.HasSuffix(lt, ":") || e.Tag == "dt" || e.Tag == "th" || e.Role == "columnheader" || e.Role == "rowheader" ||
		e.Role == "heading" || e.Tag == "label"
	pair := pairItem(s, l, end)
	if e.Role == "heading" && (!strings.HasSuffix(lt, ":") && !figureLike(vt) || ps[end].figures > 1) {
		// A KPI card's heading labels its figure; a book's title does not label its byline,
		// nor a section's title a line of figures labelled each by its own words.
		return -1
	}
	if button {
		if figureLike(vt) && len([]rune(lt)) <= 30 && (besideOrUnder(e.Box, v.Box) || pair) {
			return innerValue(s, ps, end)
		}
		return -1
	}
	if hasDigit(vt) && (labelish || len([]rune(lt)) <= 30 && figureLike(vt)) || labelish && (v.Tag == "dd" || v.Tag == "td" || v.Role == "cell") || pair {
		// A table header cell over a column labels the column, not the cell beside it.
		if e.Role == "columnheader" && !sameRow(e, v) {
			return -1
		}
		return innerValue(s, ps, end)
	}
	return -1
}

// withoutAside is label text lt without a closing parenthetical after its words: "VAT (20%)"
// labels the amount beside it as "VAT" does; the rate in brackets says how it was worked out,
// and makes the label no figure.
func withoutAside(lt string) string {
	if i := strings.LastIndexByte(lt, '('); i > 0 && strings.HasSuffix(lt, ")") && hasLetter(lt[:i]) && !hasDigit(lt[:i]) {
		return strings.TrimSpace(lt[:i])
	}
	return lt
}

// dataCell reports whether e is a cell under a column header: data, not the label of the next
// cell ("Loading dock camera | Device went offline" in an event log). In a table without
// headers ("Market cap | 2.28T") the first cell of a pair is a label.
func dataCell(e *Element) bool {
	return (e.Role == "cell" || e.Role == "gridcell") && !strings.HasPrefix(e.Context, "table")
}

// enumeratorRe is a step's or a list entry's number before its words: "3. Started signup".
var enumeratorRe = regexp.MustCompile(`^\d{1,2}[.)]\s+(\pL)`)

// unnumbered is label text without its enumerator: the step number of "3. Started signup" is
// no figure, and the words still label the figure beside them.
func unnumbered(lt string) string {
	if m := enumeratorRe.FindStringSubmatchIndex(lt); m != nil {
		return lt[m[2]:]
	}
	return lt
}

// innerValue is value v, or the one element inside it that holds all its words and figures
// ("00:04:12" in "⏱ 00:04:12"): the value itself, not its wrapper and an icon.
func innerValue(s *Snapshot, ps []prepared, v int) int {
	if ps[v].descendants != 1 || v+1 >= len(s.Elements) {
		return v
	}
	vt := strings.TrimSpace(firstOf(s.Elements[v].Text, s.Elements[v].Name))
	it := strings.TrimSpace(firstOf(s.Elements[v+1].Text, s.Elements[v+1].Name))
	k := strings.Index(vt, it)
	if it == "" || k < 0 {
		return v
	}
	if rest := vt[:k] + vt[k+len(it):]; hasLetter(rest) || hasDigit(rest) {
		if k != 0 || !limitRe.MatchString(rest) {
			return v
		}
	}
	return v + 1
}

// limitRe is what follows a figure that is used of a limit: "18 / 25", "1.42M / 2M", "3 of 5".
var limitRe = regexp.MustCompile(`^\s*(?:/|of)\s*\d[\d.,]*\s?[KMBkmb]?\s*$`)

// tileFigure returns the figure before label l (whose item ends before end) when the two are
// alone in a repeated container, as a dashboard's stat tiles put them ("<div class=stat><div>1
// </div><div>Offline</div></div>"), or -1.
func tileFigure(s *Snapshot, ps []prepared, l, end int) int {
	f := l - 1
	if f < 0 || ps[f].descendants > 0 {
		return -1
	}
	fe := &s.Elements[f]
	if !aloneInItem(s, f, l, end) || fe.Parent != s.Elements[l].Parent || fe.Interactive || fe.Editable {
		return -1
	}
	if ft := strings.TrimSpace(firstOf(fe.Text, fe.Name)); !figureLike(ft) || len([]rune(ft)) > 20 {
		return -1
	}
	return f
}

// siblingValue reports whether v, the element after label e at its level, can be e's value: not
// a control (a tel: or mailto: link is a value), not a field, not a column header ("Requester"
// does not label the "Priority" beside it), not in the next item of e's list.
func siblingValue(e, v *Element) bool {
	return v.Parent == e.Parent && !(v.Interactive && !valueLink(v)) && !v.Editable && v.Role != "columnheader" &&
		!lookAlikeItems(e, v)
}

// lookAlikeItems reports whether a and b are in different items of one list: a dashboard's stat
// tile ends with its label ("6 / Devices", "1 / Offline"), which does not label the next tile's
// figure.
func lookAlikeItems(a, b *Element) bool {
	return a.Item != 0 && b.Item != 0 && a.Item != b.Item && a.ItemKind == b.ItemKind
}

// keyValueOf returns the value a key labels in a key/value display as framework markup writes
// it, without a colon, a dt or a figure to say so (<div><div class="_s">Adjuster</div><div
// class="_v">Renee Kowalczyk</div><a>call</a></div>), or -1: a short wordy key, and the text
// right after it, both the first of a small repeated container (one of a list of such fields) or
// laid out as a pair (the value just right of the key on its line, or just under it). Only a
// question, or the key of something ("the username of this login"), asks for what a key labels:
// "the Blue mug" is the card's title, not its description. When a message is asked for, the
// value may be a longer text ("Customer note" over the note, see maxMessage).
func keyValueOf(s *Snapshot, ps []prepared, l int, message bool) int {
	e := &s.Elements[l]
	v := l + 1
	if e.Interactive || e.Editable || ps[l].descendants > 0 || v >= len(s.Elements) {
		return -1
	}
	lt := strings.TrimSpace(firstOf(e.Text, e.Name))
	if lt == "" || len([]rune(lt)) > 30 || hasDigit(lt) || dataCell(e) {
		return -1
	}
	ve := &s.Elements[v]
	if !siblingValue(e, ve) {
		return -1
	}
	limit := 80
	if message {
		limit = maxMessage // a message a key names ("Customer note") says what it says at length
	}
	if vt := strings.TrimSpace(firstOf(ve.Text, ve.Name)); vt == "" || len([]rune(vt)) > limit {
		return -1
	}
	if it := e.Item; it != 0 && ve.Item == it && (l == 0 || s.Elements[l-1].Item != it) && (l+4 >= len(s.Elements) || s.Elements[l+4].Item != it) {
		return v // the first two of a small repeated container's elements
	}
	if besideOrUnder(e.Box, ve.Box) {
		return v
	}
	return -1
}

// maxMessage is the longest text a key labels as its value when a message is asked for: a
// note or a review, not a page's worth.
const maxMessage = 400

// valueLink reports whether a link is a value to read as much as a place to go: a phone number
// or an address to write to ("Phone (503) 555-0142" links to tel:).
func valueLink(v *Element) bool {
	return v.Role == "link" && (strings.HasPrefix(v.Href, "tel:") || strings.HasPrefix(v.Href, "mailto:"))
}

// besideOrUnder reports whether box v sits just right of box k on its line, or just under it
// and aligned with it: where a value goes after its key.
func besideOrUnder(k, v Box) bool {
	if k.W <= 0 || v.W <= 0 {
		return false
	}
	if gap := v.X - (k.X + k.W); math.Abs(v.Y-k.Y) <= 3 && gap >= 0 && gap <= 40 {
		return true
	}
	gap := v.Y - (k.Y + k.H)
	return math.Abs(v.X-k.X) <= 3 && gap >= -1 && gap <= 12
}

// pairItem reports whether elements l and v are a key and its value alone in one repeated
// container ("<div class=field><span>Reporter</span><span>Wen Zhou</span></div>", one of a
// list of such fields): a short wordy key, then the value, and nothing else in the item.
func pairItem(s *Snapshot, l, v int) bool {
	if !aloneInItem(s, l, v, v+1) {
		return false
	}
	lt := strings.TrimSpace(firstOf(s.Elements[l].Text, s.Elements[l].Name))
	return len([]rune(lt)) <= 30 && !hasDigit(lt)
}

// aloneInItem reports whether elements a and then b are all there is of a's repeated container:
// b is in it, the element before a and the element next (after b's own) are not.
func aloneInItem(s *Snapshot, a, b, next int) bool {
	it := s.Elements[a].Item
	return it != 0 && s.Elements[b].Item == it && (a == 0 || s.Elements[a-1].Item != it) &&
		(next >= len(s.Elements) || s.Elements[next].Item != it)
}

func hasDigit(s string) bool { return strings.IndexFunc(s, unicode.IsDigit) >= 0 }

func hasLetter(s string) bool { return strings.IndexFunc(s, unicode.IsLetter) >= 0 }

// anchors raises candidates whose missing description words are on an element of the same item.
func anchors(s *Snapshot, ps []prepared, p *Parsed, qt *queryText, intent Intent, all []scored, labelOf map[int]int) []scored {
	var words []string
	seen := map[string]bool{}
	// Context words that no element's context has count too: "the duration of In a Sentimental
	// Mood" parses the title as an "in ..." phrase, and its words are on the row's title cell.
	var ctxWords []string
	for _, w := range qt.ctx {
		if anyContext(ps, w) {
			ctxWords = nil
			break
		}
		ctxWords = append(ctxWords, w)
	}
	for _, group := range [][]string{qt.words, flatten(qt.phraseTok), ctxWords} {
		for _, w := range group {
			if !seen[w] && !stopWords[w] && len(words) < 64 {
				seen[w] = true
				words = append(words, w)
			}
		}
	}
	// One word is the target's own, unless a value is read by its kind ("the hotel amount")
	// or the word is whose it is ("the requester's message"): then the word may be on the
	// label, the row or the line beside it.
	valueByKind := len(words) == 1 && p.Kind != "" && valueRoleWords(p) && intent != IntentClick && intent != IntentType
	theirs := len(words) == 1 && len(p.Roles) > 0 && qt.onlyWhose()
	if len(words) == 0 || len(words) == 1 && !valueByKind && !theirs {
		return all
	}
	full := uint64(1)<<len(words) - 1
	// Which of the words each element's own fields have, in one pass over the elements.
	masks := wordMasks(ps, words)
	mask := func(i int) uint64 { return masks[i] }
	typed := typedMasks(ps, words)
	// Rare words identify the item ("kettle"), common ones do not ("order" on every order).
	idf := make([]float64, len(words))
	for b := range words {
		df := 0
		for _, m := range masks {
			df += int(m >> b & 1)
		}
		idf[b] = 1 / float64(1+df)
		if df == 0 {
			idf[b] = 0.05 // on no element: it cannot tell one anchor from another
		}
	}
	weight := func(m uint64) float64 {
		t := 0.0
		for b := range words {
			if m&(1<<b) != 0 {
				t += idf[b]
			}
		}
		return t
	}
	// The possessor's words ("Aiko Tanaka's net pay").
	var poss uint64
	for b, w := range words {
		if contains(qt.poss, w) {
			poss |= 1 << b
		}
	}
	// The target carries the head word (or the role asked for); the anchor the others.
	var head uint64
	heads := []string{p.First, p.Head}
	if contains(qt.poss, stem(p.First)) {
		heads = heads[1:] // "Lars's seat": Lars is whose, the seat is what
	}
	if p.Question && kindWords[p.First] != "" && p.Head != p.First && heads[0] == p.First {
		// "when is rent due": any date says when; the head says which (the one due).
		heads = heads[1:]
	}
	if p.Kind == "figure" && figureWords[p.Head] && len(heads) == 2 {
		// "the order total": the figure is the total, whatever else says "order" (but
		// "Lancashire's sellout rate" has dropped its first word already: the rate is what).
		heads = heads[1:]
	}
	headTells := whenHeadTells(ps, p, qt)
	var lastHead uint64 // the head noun alone, without a first word before it
	for k, hw := range heads {
		if hw == "" {
			continue
		}
		for b, w := range words {
			if w == stem(hw) {
				head |= 1 << b
				if k == len(heads)-1 {
					lastHead |= 1 << b
				}
			}
		}
	}
	// The best candidates, by score, look for an anchor.
	idx := make([]int, 0, len(all))
	for i := range all {
		if all[i].eligible {
			idx = append(idx, i)
		}
	}
	sortByScore(all, idx)
	at := indexByID(all) // candidates are not added below, only rescored
	if len(idx) > anchorTop {
		// The best few, and every role-only candidate (they score low but may have an anchor).
		// So does every candidate as good as the last of the few: in a list of 120 blocked
		// accounts every "Unblock" scores alike, and which one "unblock @felix.castillo" means
		// only its row's anchor says, wherever the row is.
		keep := idx[:anchorTop:anchorTop]
		cut := all[idx[anchorTop-1]].Score - tieEpsilon
		for _, i := range idx[anchorTop:] {
			if (all[i].needAnchor || all[i].Score >= cut) && len(keep) < 25*anchorTop {
				keep = append(keep, i)
			}
		}
		idx = keep
	}
	// ctxMask is which of the words element c's context (its headings) has.
	ctxMask := func(c int) uint64 {
		var m uint64
		for b, w := range words {
			if contains(ps[c].toks[ctxField], w) {
				m |= 1 << b
			}
		}
		return m
	}
	var gots []uint64 // the words each associated anchor of the candidate has
	var meets []int   // the cells where the row and the column the description names meet
	strangers := map[int]bool{}
	// The words each outermost item says (lentFromOtherItem works them out when first asked).
	var itemWords map[int]uint64
	labelFor := make(map[int]int, len(labelOf)) // label -> the value it labels
	for v, l := range labelOf {
		labelFor[l] = v
	}
	for _, i := range idx {
		c := all[i].Element.ID
		ce := &s.Elements[c]
		inCell := controlInCell(ps, c)
		isCell := ce.Role == "cell" || ce.Role == "gridcell" || ps[c].gridHead > 0 || inCell
		colHit, colExact := false, false
		own := mask(c)
		if l, ok := labelOf[c]; ok {
			own |= mask(l) // a value carries its label's words
		}
		if isCell {
			// A cell carries its column header's words: "the email of Tom Okafor" is the cell
			// under Email in Tom Okafor's row. A header word that only stands for one
			// ("Amount" for "the Uber charge") counts half, and too loosely to settle a
			// lookup on its own.
			var colMask, altMask uint64
			for b, w := range words {
				if contains(ps[c].col, w) {
					colMask |= 1 << b
				} else if columnHas(&ps[c], w) {
					altMask |= 1 << b
				}
			}
			colHit, colExact = colMask|altMask != 0, colMask != 0
			if extra := (colMask | altMask) &^ own; extra != 0 {
				all[i].Score = round3(all[i].Score + 0.3*(weight(extra&colMask)+0.5*weight(extra&altMask))/weight(full))
				all[i].Why += "; under a column named like the description"
				own |= colMask // a word that only stands for the header's is still missing
			}
			// And its row's key, as a label: "the data retention for Growth" is the cell
			// under Growth in the row that "Data retention" opens.
			k := rowKeyCell(s, c)
			l, labelled := labelOf[c]
			if k < 0 && labelled && s.Elements[l].Role == "rowheader" && s.Elements[l].Item == ce.Item {
				k = l // a league table opens its rows with the position, then the club's row header
			}
			if k >= 0 && colMask != 0 {
				extra := mask(k) &^ own
				if extra != 0 {
					all[i].Score = round3(all[i].Score + 0.3*weight(extra)/weight(full))
					all[i].Why += "; in the row of " + clip(firstOf(s.Elements[k].Name, s.Elements[k].Text), 30)
					own |= extra
				}
				// The row's key may be the label labelValues handed c its score from (a row
				// header): its words are c's already, and the lookup is as much one.
				if extra != 0 || labelled && l == k && mask(k)&^colMask != 0 {
					if own == full {
						// Where the row and the column meet: above the row's key, which
						// lacks the column's words, and a grid's column header.
						sc := all[i].Score + 0.25
						for _, rc := range []int{k, columnHeaderOf(s, ps, c)} {
							if j, ok := at[rc]; ok {
								sc = max(sc, all[j].Score+0.1)
							}
						}
						all[i].Score = round3(sc)
						meets = append(meets, i)
					}
				}
			}
		}
		own |= attrMask(&ps[c], words) // after the column: a header that says it still counts
		if p.Question && qt.head != "" && own&lastHead == 0 && attrAbbreviates(&ps[c], qt.head) {
			own |= lastHead // class="loc" for "where is Tomasz based" (his location)
		}
		if own&lastHead == 0 && qt.head != "" && plainField(ce, &ps[c], qt.head) {
			own |= lastHead // class="pts" for "story points for the push migration"
		}
		if setsObject(&ps[c], p, qt) || namedForAction(&ps[c], p, qt) {
			// "change the category": the Category select does the changing; "select the
			// shipment with PO-31260": the row's Select box acts on the shipment (the head
			// noun; a first word before it, "the Max plan", still says which).
			own |= lastHead
		}
		if own&head == 0 && ce.Interactive && (len(p.Roles) > 0 && !roleFits(ce, p) || verbHeads[p.First] && !actionWords[p.First]) {
			// "remove the beach photo": a control named by another word for the action
			// ("delete") does it to the thing the description names by its role.
			own |= altHeadMask(&ps[c], words, head)
		}
		if listWide(s, c) {
			// Its context is its whole list's ("the unknown device" under "Connected
			// Devices"): it says so of every row alike, and an anchor saying it again tells
			// nothing.
			own |= ctxMask(c)
		}
		if ps[c].shape&kindShapes[p.Kind] != 0 {
			// "Yesterday" is a due date: the shape stands for the kind words ("date", "when").
			for b, w := range words {
				if kindWords[w] == p.Kind {
					own |= 1 << b
				}
			}
			if kindWords[p.Head] == p.Kind || p.KindStrict && (!headTells || saysHead(&ps[c], qt)) {
				// "how long will delivery take": the duration is what is asked for; but "what
				// time does the outbound flight leave" asks which flight by its first words,
				// and "when is rent due" which date by its head (see whenHeadTells).
				own |= lastHead
			}
		}
		for b, w := range words {
			if ps[c].shape&shapeOfWord[w] != 0 {
				own |= 1 << b // "42.7%" is a rate, though nothing says "rate"
			}
		}
		miss := full &^ own
		if miss == 0 {
			all[i].needAnchor = false // its column and its label say it all
			continue
		}
		if own&head == 0 && !roleFits(ce, p) && !(valueByKind && kindFits(&ps[c], p)) && !(isCell && pricedItem(p, &ps[c])) && !(verbHeads[p.Head] && ce.Interactive && poss != 0) {
			if head != 0 && miss&head != 0 && !verbHeads[p.Head] {
				// It lacks what is asked for ("email" in "the email of Tom Okafor"): at best an anchor.
				all[i].Score = round3(all[i].Score - headMissing)
			}
			if !colHit || inCell && ce.Name != "" {
				continue // the head word is the target's (a control's in a cell too: its own name)
			}
			// Under a column the description names, but not its head ("Return" for "the
			// status of Aiden Chow's return"): its row may still be the one asked about.
		}
		best, bestGot, bestPart, bestAt := 0.0, uint64(0), false, -1
		gots = gots[:0]
		_, labelled := labelOf[c]
		for a := max(0, c-anchorWindow); a <= min(len(s.Elements)-1, c+anchorWindow); a++ {
			if a == c || captionsOther(ps, a, c) || labelled && labelsOther(s, labelFor, a, c) {
				continue
			}
			got := (mask(a) | typed[a]) & miss
			if got != 0 && (wholeList(s, a, c) || inCell && a == ce.Parent && holdsAlike(s, a, c)) {
				// What holds c's whole list (a grid's text names every row) lends only its
				// own label ("Suggestions"), which is as much about c's look-alikes; so does
				// a cell holding c among other events of its day.
				got = labelMask(&ps[a], words) & miss
			}
			if got == 0 {
				continue
			}
			frac := weight(got) / weight(miss)
			// An anchor is beside the target, not inside it (a listbox is not anchored by its options).
			sameItem := sameRowItem(s, ce.Item, s.Elements[a].Item) || blocksOfOneRow(s, c, a)
			if (frac > best || sameItem) && (s.Elements[a].Role != ce.Role || plainRoles[ce.Role] || typed[a]&got != 0) && !isAncestor(s, c, a) && associated(s, c, a) &&
				!lentFromOtherItem(s, ps, c, a, got, masks, &itemWords) {
				// A part of the candidate's own row or card: not a heading (it titles every row
				// under it), not a part of what the candidate titles when it is a heading, not
				// another row's (a look-alike of the candidate between them; a table row's
				// cells are all alike, and its item is the row itself).
				part := sameItem && ce.Role != "heading" && s.Elements[a].Role != "heading" && (isCell || !alikeBetween(s, c, a))
				if part {
					gots = append(gots, got) // a second anchor is one of the item's own parts
				}
				if frac > best {
					best, bestGot, bestPart, bestAt = frac, got, part, a
				}
			}
		}
		// Another part of the candidate's item with words the best anchor lacks: "the evening
		// Rhythm Ride" is the class whose name says Rhythm Ride and whose time is in the
		// evening. A table row is one item for sure, so its cells lend a second anchor beside
		// any first ("the client on the overdue invoice": the grid's label says invoice, the
		// row's status Overdue); a facet's rows may share one item, so there a second anchor
		// needs a first of the item's own. (A heading over every row says as much of each.)
		more := 0.0
		if bestPart || isCell {
			inCtx := ctxMask(c) // words its heading says, of every row under it alike
			for _, got := range gots {
				more = max(more, weight(got&^bestGot&^inCtx)/weight(miss))
			}
		}
		if poss&miss != 0 && bestGot&poss == 0 && !slices.ContainsFunc(gots, func(g uint64) bool { return g&poss != 0 }) {
			// "Aiko Tanaka's net pay" is not the page's Net pay, which is nobody's in particular.
			// (Another part of its own item may name the possessor while the best anchor says
			// the rest: the price tier whose heading says "10+ packs", in the card of the
			// product that says "4x40 screws".)
			all[i].Score = round3(all[i].Score - notTheirs)
			all[i].Why += "; not the possessor's"
			strangers[i] = true
		}
		if best > 0 {
			all[i].Score = round3(all[i].Score + anchorWeight*(best+secondAnchor*more))
			if bestPart {
				all[i].Score = round3(all[i].Score + partAnchor) // its own row's, not its section's
			}
			all[i].Why += "; beside an element with the other words"
			all[i].needAnchor = false
			if colExact && best >= 0.5 {
				// "the status of shipment TW480599": under Status, in the row that says the
				// rest. A table lookup beats the column's header and the row's key.
				all[i].Score = round3(all[i].Score + 0.25)
				all[i].Why += "; where the row and the column meet"
				if ce.Role == "cell" || ce.Role == "gridcell" {
					meets = append(meets, i)
				}
				if bestPart || more > 0 {
					// Its own row says the rest ("the client on the overdue invoice": the
					// row whose status says Overdue): the header names the column only.
					if j, ok := at[columnHeaderOf(s, ps, c)]; ok {
						all[i].Score = round3(max(all[i].Score, all[j].Score+0.1))
					}
				}
				if j, ok := at[bestAt]; ok && bestPart && bestGot == miss && (intent == IntentRead || intent == IntentAny) {
					// And read, the row's part that says all the rest names the row only:
					// "the class average on the Unit 1 test" is under Unit 1 Test in the
					// row that "Class average" opens, not that row header.
					all[i].Score = round3(max(all[i].Score, all[j].Score+0.1))
				}
			}
		}
	}
	return lookupsFirst(s, ps, intent, all, meets, strangers)
}

// controlInCell reports whether element c is a control a grid cell holds (a calendar day's
// event button): the cell's column is the control's, as its context says.
func controlInCell(ps []prepared, c int) bool {
	return ps[c].el.Interactive && (ps[c].parentRole == "cell" || ps[c].parentRole == "gridcell") && len(ps[c].col) > 0
}

// lookupsFirst raises each cell where the row and the column the description names meet above
// the candidates that are not the possessor's ("Germany's overall conversion" is the cell in
// Germany's row, not the page's Overall conversion figure) and, when reading, above the other
// values of its row (the "Won" on a form badge is not the Won column's count).
func lookupsFirst(s *Snapshot, ps []prepared, intent Intent, all []scored, meets []int, strangers map[int]bool) []scored {
	if len(meets) == 0 {
		return all
	}
	// A cell that holds a control is looked up for it: "set the category of the grocery
	// shopping" is the Category select in that row, not the cell around it.
	var at map[int]int
	acting := intent == IntentType || intent == IntentClick
	for k, i := range meets {
		c := all[i].Element.ID
		in := -1 // the best control inside c among the candidates
		for j := range all {
			if e := all[j].Element; (e.Interactive || e.Editable) && isAncestor(s, c, e.ID) && (in < 0 || all[j].Score > all[in].Score) {
				in = j
			}
		}
		if in >= 0 && !acting {
			meets[k] = in
			continue
		}
		// Clicking or typing, the cell's score goes to that control: a calendar day's cell
		// matches "Thursday's spin class" by its Spin button's words, and clicking the cell
		// clicks nothing in particular. A gradebook's score box has no name of its own, and no
		// words brought it to the candidates: the cell it fills is what the description names.
		to := -1
		if in >= 0 {
			to = all[in].Element.ID
		} else if acting {
			to = soleControlIn(s, ps, c, intent)
		}
		if to < 0 {
			continue
		}
		if at == nil {
			at = indexByID(all)
		}
		all = handDown(s, all, at, i, to, "the control in the cell")
		meets[k] = at[to]
	}
	isMeet := map[int]bool{}
	for _, i := range meets {
		isMeet[i] = true
	}
	reading := intent == IntentRead || intent == IntentAny
	for _, i := range meets {
		c := all[i].Element.ID
		sc := all[i].Score
		for j := range all {
			if isMeet[j] {
				continue
			}
			e := all[j].Element
			rowmate := reading && !e.Interactive && !e.Editable && sameRowItem(s, s.Elements[c].Item, e.Item) &&
				!isAncestor(s, c, e.ID) && !isAncestor(s, e.ID, c)
			if strangers[j] || rowmate {
				sc = max(sc, all[j].Score+0.1)
			}
		}
		if sc > all[i].Score {
			all[i].Score = round3(sc)
			all[i].Why += "; a lookup, over what is not the row's and the column's"
		}
	}
	return all
}

// soleControlIn returns the one control fit for intent inside cell c (not c itself), or -1 when
// it holds none or several.
func soleControlIn(s *Snapshot, ps []prepared, c int, intent Intent) int {
	in := -1
	for k := c + 1; k <= c+ps[c].descendants && k < len(s.Elements); k++ {
		if e := &s.Elements[k]; e.Visible && !e.Covered && fitFor(e, intent) && e.Role != "label" {
			if in >= 0 {
				return -1
			}
			in = k
		}
	}
	return in
}

// columnHeaderOf returns the header of cell c's column, or -1: the one the grid layout found,
// or the nearest column header before c named like c's column.
func columnHeaderOf(s *Snapshot, ps []prepared, c int) int {
	if h := ps[c].gridHead - 1; h >= 0 {
		return h
	}
	if len(ps[c].col) == 0 {
		return -1
	}
	for k := c - 1; k >= 0 && k >= c-400; k-- {
		if isHeaderCell(&s.Elements[k]) && slices.Equal(ps[k].toks[0], ps[c].col) {
			return k
		}
	}
	return -1
}

// sameRowItem reports whether items x and y are one: the same item, or two cells of one row
// of a grid built of divs (each cell is an item of its own).
func sameRowItem(s *Snapshot, x, y int) bool {
	if x == 0 || y == 0 {
		return false
	}
	if x == y {
		return true
	}
	up := itemUps(s)
	return up[x] != 0 && up[x] == up[y] && cellItem(s, x) && cellItem(s, y)
}

// blocksOfOneRow reports whether elements c and a sit in two blocks of one repeated item, on one
// line: a flight leg's "Outbound · Fri 20 Jun" block beside its "07:05 LIS" block, each a block
// the legs repeat. The leg is their row, as a table row is its cells'. Blocks stacked one under
// the other (an order's lines) are rows of their own.
func blocksOfOneRow(s *Snapshot, c, a int) bool {
	ec, ea := &s.Elements[c], &s.Elements[a]
	if ec.Item == 0 || ea.Item == 0 || ec.Item == ea.Item || ec.Box.H == 0 || ea.Box.H == 0 {
		return false
	}
	up := itemUps(s)
	return up[ec.Item] != 0 && up[ec.Item] == up[ea.Item] && sideBySide(ec.Box, ea.Box) && !overlapsAcross(ec.Box, ea.Box)
}

// altHeadMask is which of the head words (bits of head) element pe names by another word for
// them (alternative).
func altHeadMask(pe *prepared, words []string, head uint64) uint64 {
	var m uint64
	for b, w := range words {
		if head&(1<<b) == 0 {
			continue
		}
		alts := altsFor(w)
		if alts == nil {
			continue
		}
		for _, f := range containedFields {
			for _, t := range pe.toks[f] {
				if isAlt(alts, t) {
					m |= 1 << b
				}
			}
		}
	}
	return m
}

// unlikeBlocks reports whether c and a, in items xc and xa of one list, are in two blocks of
// one row that open unlike: a flight leg's "Outbound / Fri 20 Jun" block beside its "07:05 /
// LIS Lisbon" block. Look-alike cards side by side open alike (a title, a title).
func unlikeBlocks(s *Snapshot, c, a, xc, xa int) bool {
	if !blocksOfOneRow(s, c, a) {
		return false
	}
	first := itemMaps(s).first
	fc, okc := first[xc]
	fa, oka := first[xa]
	return okc && oka && !alike(&s.Elements[fc], &s.Elements[fa])
}

// alikeBetween reports whether an element like c (its role and shape) sits between c and a in
// document order: a is then another row's, though the snapshot puts both in one item (a
// facet's check boxes and their labels).
func alikeBetween(s *Snapshot, c, a int) bool {
	ec := &s.Elements[c]
	for k := min(c, a) + 1; k < max(c, a); k++ {
		if alike(&s.Elements[k], ec) {
			return true
		}
	}
	return false
}

// kindFits reports whether the element is a value of the kind p asks for (a price for "how
// much is delivery"): what is asked for, as a role is.
func kindFits(pe *prepared, p *Parsed) bool {
	return p.Kind == "price" && pe.price || pe.shape&kindShapes[p.Kind] != 0
}

// valueRoleWords reports whether p names no role or only a value's ("the hotel amount", "price
// of the canvas"), not a control's ("the date picker").
func valueRoleWords(p *Parsed) bool {
	for _, rw := range p.RoleWords {
		if !priceRoleWords[rw] {
			return false
		}
	}
	return true
}

// typedMasks is, per element, which of words the text typed in it has: not what the field is
// (see fields), but what its row is about ("the stock photography line" is the invoice line
// whose description field says "Stock photography licences").
func typedMasks(ps []prepared, words []string) map[int]uint64 {
	out := map[int]uint64{}
	for i := range ps {
		e := ps[i].el
		if !e.Editable || e.Value == "" || e.InputType == "password" {
			continue
		}
		var m uint64
		for _, t := range tokens(normalize(e.Value)) {
			for b, w := range words {
				if t == w {
					m |= 1 << b
				}
			}
		}
		if m != 0 {
			out[i] = m
		}
	}
	return out
}

// listWide reports whether element i, in a repeated container, has a look-alike (same role and
// name) in another container of its list with the same context: the context then labels the
// list, not i's container.
func listWide(s *Snapshot, i int) bool { return itemMaps(s).wide[i] }

func flatten(xs [][]string) []string {
	var out []string
	for _, x := range xs {
		out = append(out, x...)
	}
	return out
}

// sortByScore orders idx by the scores of all, best first. It is stable, so equal scores keep
// the elements' order, and not an insertion sort, which is quadratic when thousands of
// candidates are eligible (every price of a product grid).
func sortByScore(all []scored, idx []int) {
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(all[b].Score, all[a].Score) })
}

// plainRoles say nothing of what an element is: a text may be anchored by another text (a
// task's due date by its title), a listbox is not by its options.
var plainRoles = map[string]bool{"text": true, "paragraph": true, "cell": true, "gridcell": true}

// itemRoles are the roles of repeated containers an anchor and its target share.
var itemRoles = map[string]bool{"listitem": true, "row": true, "article": true, "option": true}

// itemOf is the nearest ancestor of i that is a list item, row or article, or -1.
func itemOf(s *Snapshot, i int) int {
	for a, hops := s.Elements[i].Parent, 0; a >= 0 && a < len(s.Elements) && hops < 8; a, hops = s.Elements[a].Parent, hops+1 {
		if itemRoles[s.Elements[a].Role] {
			return a
		}
	}
	return -1
}

// itemOrSelf is i when i is itself a list item, row or article, else itemOf(i).
func itemOrSelf(s *Snapshot, i int) int {
	if itemRoles[s.Elements[i].Role] {
		return i
	}
	return itemOf(s, i)
}

// itemList is the list part of an ItemKind ("@3" of "li.result@3"): items of one list are
// siblings.
func itemList(kind string) string {
	if i := strings.LastIndexByte(kind, '@'); i >= 0 {
		return kind[i:]
	}
	return kind
}

// sharedItem returns the innermost repeated container that holds both items x and y (an item
// holds itself), 0 for none.
func sharedItem(s *Snapshot, x, y int) int {
	up := itemUps(s)
	for a, n := x, 0; a != 0 && n < 32; a, n = up[a], n+1 {
		for b, m := y, 0; b != 0 && m < 32; b, m = up[b], m+1 {
			if a == b {
				return a
			}
		}
	}
	return 0
}

// under is the item holding item it (it itself included) just inside item top (0: the
// outermost).
func under(s *Snapshot, it, top int) int {
	up := itemUps(s)
	for n := 0; up[it] != top && up[it] != 0 && n < 32; n++ {
		it = up[it]
	}
	return it
}

// itemWithin reports whether item it is item top or inside it (0 is no item).
func itemWithin(s *Snapshot, it, top int) bool {
	up := itemUps(s)
	for n := 0; it != 0 && n < 32; it, n = up[it], n+1 {
		if it == top {
			return true
		}
	}
	return false
}

// topItem is the outermost repeated container around item it.
func topItem(s *Snapshot, it int) int {
	up := itemUps(s)
	for n := 0; up[it] != 0 && n < 32; n++ {
		it = up[it]
	}
	return it
}

// itemUps maps each item of s to the item that holds it (Element.ItemUp), and itemKinds each
// item to its ItemKind, worked out once per snapshot taken by Snap.
func itemUps(s *Snapshot) map[int]int { return itemMaps(s).ups }

func itemKinds(s *Snapshot) map[int]string { return itemMaps(s).kinds }

type itemInfo struct {
	ups   map[int]int
	kinds map[int]string
	// roles is, per item, the set of its own elements' roles (roleBit; not those of items
	// nested in it): items of a list are made of the same kinds of things, the parts of one
	// row are not (see partsOfOne).
	roles map[int]uint64
	// cell marks the items that are a grid's cells: a div with role cell or gridcell is its
	// item's container, which makes it its first element (a table row's first is a td).
	cell map[int]bool
	// wide marks the elements whose context is list-wide (see listWide).
	wide []bool
	// order is every item's number (those with no element of their own included), ascending:
	// document order.
	order []int
	// first is, per item with an element of its own, its first element.
	first map[int]int
}

func itemMaps(s *Snapshot) *itemInfo {
	if c := s.prep; c != nil {
		c.upOnce.Do(func() { c.items = itemMapsNow(s) })
		return c.items
	}
	return itemMapsNow(s)
}

func itemMapsNow(s *Snapshot) *itemInfo {
	m := &itemInfo{ups: map[int]int{}, kinds: map[int]string{}, roles: map[int]uint64{}, cell: map[int]bool{}, wide: make([]bool, len(s.Elements)), first: map[int]int{}}
	type look struct{ role, name, ctx, list string }
	looks := map[look]int{} // each look's place in owner
	var owner []int         // the first item of each look, or -1 once a second item has it
	lookOf := make([]int32, len(s.Elements))
	for i := range s.Elements {
		e := &s.Elements[i]
		if e.Item == 0 {
			continue
		}
		m.kinds[e.Item] = e.ItemKind
		if _, seen := m.roles[e.Item]; !seen {
			m.cell[e.Item] = (e.Role == "cell" || e.Role == "gridcell") && e.Tag != "td" && e.Tag != "th"
			m.first[e.Item] = i
		}
		m.roles[e.Item] |= partBit(e)
		if e.ItemUp != 0 {
			m.ups[e.Item] = e.ItemUp
		}
		if e.Context != "" {
			k := look{e.Role, e.Name, e.Context, itemList(e.ItemKind)}
			at, ok := looks[k]
			if !ok {
				at = len(owner)
				looks[k] = at
				owner = append(owner, e.Item)
			} else if owner[at] != e.Item {
				owner[at] = -1
			}
			lookOf[i] = int32(at)
		}
	}
	for _, c := range s.Containers {
		m.kinds[c.Item] = c.Kind
		if c.Up != 0 {
			m.ups[c.Item] = c.Up
		}
	}
	for i := range s.Elements {
		if e := &s.Elements[i]; e.Item != 0 && e.Context != "" {
			m.wide[i] = owner[lookOf[i]] == -1
		}
	}
	m.order = make([]int, 0, len(m.kinds))
	for it := range m.kinds {
		m.order = append(m.order, it)
	}
	slices.Sort(m.order)
	return m
}

// partBit is roleBit for what an element is as a part of its item: its role, and for plain text
// its tag too, since a name in bold and a time are not the message below them ("<b>Ike
// Mensah</b> <time>" and a div: the header line and the body of one message, not two rows).
func partBit(e *Element) uint64 {
	if e.Role == "text" {
		return roleBit(e.Tag)
	}
	return roleBit(e.Role)
}

// roleBit is role's bit in a set of roles (a hash: two roles may share one).
func roleBit(role string) uint64 {
	h := uint32(2166136261)
	for i := 0; i < len(role); i++ {
		h = (h ^ uint32(role[i])) * 16777619
	}
	return 1 << (h % 64)
}

// cellItem reports whether item it is a cell of a grid built of divs: two of one row are
// parts of the row, whatever their classes.
func cellItem(s *Snapshot, it int) bool { return itemMaps(s).cell[it] }

// partsOfOne reports whether items x and y, siblings of one list, are made of different kinds
// of things (at most a third of their roles shared): a name cell of texts and an actions cell
// of buttons, not two rows. Items with no element of their own (cards made of blocks) say
// nothing.
func partsOfOne(s *Snapshot, x, y int) bool {
	r := itemMaps(s).roles
	a, b := r[x], r[y]
	return a != 0 && b != 0 && 3*bits.OnesCount64(a&b) <= bits.OnesCount64(a|b)
}

// associated reports whether elements c and a belong to the same item: one contains the other,
// they share a list item or row, they sit in the same table row, or they sit under the same
// heading with nothing shaped like either between them in document order (and c does not sit
// closer to an earlier look-alike of a).
func associated(s *Snapshot, c, a int) bool {
	if isAncestor(s, a, c) || isAncestor(s, c, a) {
		return true
	}
	if ic, ia := &s.Elements[c], &s.Elements[a]; ic.Item != 0 && ia.Item != 0 {
		// The snapshot says which repeated container each is in: the same one, or two
		// look-alikes (two results, two task rows), settles it.
		if ic.Item == ia.Item {
			return true
		}
		// Where their chains of containers part: the innermost container holding both (0 for
		// none) and, just inside it, the one holding each.
		shared := sharedItem(s, ic.Item, ia.Item)
		xc, xa := under(s, ic.Item, shared), under(s, ia.Item, shared)
		if kinds := itemKinds(s); itemList(kinds[xc]) == itemList(kinds[xa]) {
			// Inside two items of one list (two results, Devon's post and Mira's, an unread
			// row and a read one), whatever nests within, even when a container around the
			// list repeats too; unless the two are unlike parts of one item (a div row's name
			// cell and its actions cell, siblings with the same utility class).
			return shared != 0 && (partsOfOne(s, xc, xa) || cellItem(s, xc) && cellItem(s, xa) || unlikeBlocks(s, c, a, xc, xa))
		}
		if shared != 0 {
			return true // nested containers: a post's author line (a row of the post) and its Like button
		}
	}
	ic, ia := itemOrSelf(s, c), itemOrSelf(s, a)
	if ic >= 0 && ia >= 0 {
		return ic == ia
	}
	ec, ea := &s.Elements[c], &s.Elements[a]
	if sameRow(ec, ea) {
		return true
	}
	if isHeaderCell(ec) && isDataCell(ea) || isHeaderCell(ea) && isDataCell(ec) {
		return false // a column's header is about every row, no row's cell is about it
	}
	if !sameSection(ec, ea) {
		return false // another section, another heading
	}
	lo, hi := min(c, a), max(c, a)
	for k := lo + 1; k < hi; k++ {
		if ek := &s.Elements[k]; alike(ek, ec) || alike(ek, ea) {
			return false
		}
	}
	if a > c {
		// The anchor follows c: c may belong to a look-alike of a before it.
		for k := c - 1; k >= max(0, c-anchorWindow); k-- {
			ek := &s.Elements[k]
			if alike(ek, ec) {
				break
			}
			if alike(ek, ea) {
				if dist(ec, &s.Elements[k]) < dist(ec, ea) {
					return false
				}
				break
			}
		}
	}
	return true
}

// alike reports whether two elements look like the same part of repeated items: the same tag
// path and the same first class ("title" and "due" spans of a task row are different parts).
func isHeaderCell(e *Element) bool { return e.Role == "columnheader" }

func isDataCell(e *Element) bool {
	return e.Role == "cell" || e.Role == "gridcell" || strings.Contains(e.Context, "table") && e.Role != "columnheader"
}

// rowKeyCell returns the cell that opens cell c's row (its first cell, when that is a word and not a
// figure), or -1: what the row is about. It needs the row to be a repeated container.
func rowKeyCell(s *Snapshot, c int) int {
	it := s.Elements[c].Item
	if it == 0 {
		return -1
	}
	key := -1
	for k := c - 1; k >= 0 && s.Elements[k].Item == it; k-- {
		switch e := &s.Elements[k]; e.Role {
		case "cell", "gridcell", "rowheader", "columnheader":
			if e.Parent == s.Elements[c].Parent {
				key = k
			}
		}
	}
	if key < 0 {
		return -1
	}
	t := strings.TrimSpace(firstOf(s.Elements[key].Name, s.Elements[key].Text))
	if t == "" || !hasLetter(t) || len([]rune(t)) > 60 {
		return -1
	}
	return key
}

// wholeList reports whether a is an ancestor of c that holds c's look-alikes too: c's item's
// list, or (c in no item) an element alike c.
func wholeList(s *Snapshot, a, c int) bool {
	if !isAncestor(s, a, c) {
		return false
	}
	if ic := s.Elements[c].Item; ic != 0 {
		return s.Elements[a].Item != ic
	}
	return holdsAlike(s, a, c)
}

// labelMask is attrMask for the fields that label an element from outside its text: aria-label,
// label, title.
func labelMask(pe *prepared, words []string) uint64 {
	var m uint64
	for b, w := range words {
		for _, f := range labelFields {
			if contains(pe.toks[f], w) {
				m |= 1 << b
				break
			}
		}
	}
	return m
}

// holdsAlike reports whether a, an ancestor of c, holds a look-alike of c besides c (a list
// or a grid holds all its rows' checkboxes). It looks at a's first 400 descendants.
func holdsAlike(s *Snapshot, a, c int) bool {
	ec := &s.Elements[c]
	for k := a + 1; k < len(s.Elements) && k <= a+400; k++ {
		if !isAncestor(s, a, k) {
			return false // past a's subtree (document order)
		}
		if k != c && alike(&s.Elements[k], ec) {
			return true
		}
	}
	return false
}

func alike(a, b *Element) bool {
	return a.Shape == b.Shape && firstField(a.Class) == firstField(b.Class)
}

func firstField(s string) string {
	f, _, _ := strings.Cut(strings.TrimSpace(s), " ")
	return f
}

// sameRow reports two cells of one table row: both in a table, vertically centred alike.
func sameRow(a, b *Element) bool {
	if !strings.Contains(a.Context, "table") || !strings.Contains(b.Context, "table") || a.Box.H == 0 || b.Box.H == 0 {
		return false
	}
	ca, cb := a.Box.Y+a.Box.H/2, b.Box.Y+b.Box.H/2
	return math.Abs(ca-cb) < 0.5*math.Max(a.Box.H, b.Box.H)
}

func dist(a, b *Element) float64 {
	dx := (a.Box.X + a.Box.W/2) - (b.Box.X + b.Box.W/2)
	dy := (a.Box.Y + a.Box.H/2) - (b.Box.Y + b.Box.H/2)
	return math.Hypot(dx, dy)
}

// roleFits reports whether e plays a role the description asks for.
func roleFits(e *Element, p *Parsed) bool {
	for _, r := range p.Roles {
		if roleMatches(e, r) {
			return true
		}
	}
	return false
}

// ValueChild returns the value inside element id of s when its text is a label followed by that
// value ("Total: <b>$12</b>" -> the <b>), else id itself. Readers use it to return "$12" for
// "the total" while the resolution names the whole labelled line.
func ValueChild(s *Snapshot, id int) int {
	if id < 0 || id >= len(s.Elements) {
		return id
	}
	e := &s.Elements[id]
	lt := strings.TrimSpace(firstOf(e.Text, e.Name))
	child := -1
	for k := id + 1; k < len(s.Elements) && k < id+64; k++ {
		if s.Elements[k].Parent == id {
			if child >= 0 {
				return id
			}
			child = k
		} else if !isAncestor(s, id, k) {
			break
		}
	}
	if child < 0 {
		return id
	}
	ct := strings.TrimSpace(firstOf(s.Elements[child].Text, s.Elements[child].Name))
	if ct != "" && ct != lt && strings.HasSuffix(lt, ct) && hasLetter(strings.TrimSuffix(lt, ct)) && hasDigit(ct) {
		return child
	}
	return id
}

// sameSection reports two elements under the same headings and landmarks, counting a heading
// as in its own section ("Full protection" and the Add button under it).
func sameSection(a, b *Element) bool {
	if a.Context == b.Context {
		return true
	}
	within := func(x, h *Element) bool { // h is the heading x's context adds to h's own
		if h.Role != "heading" || h.Name == "" {
			return false
		}
		segs := strings.Split(x.Context, " | ")
		for i, sg := range segs {
			if sg == h.Name {
				rest := strings.Join(append(append([]string{}, segs[:i]...), segs[i+1:]...), " | ")
				return rest == h.Context
			}
		}
		return false
	}
	return within(a, b) || within(b, a)
}

// labelledOtherwise lowers a candidate that matched by shape or role alone (no words) when a
// label of its own says it is something else: "the percent change" is not the "0.00%" beside
// "Dividend & yield".
func labelledOtherwise(s *Snapshot, ps []prepared, qt *queryText, all []scored) []scored {
	if len(qt.words) == 0 {
		return all
	}
	for i := range all {
		c := &all[i]
		if c.text > 0 {
			continue
		}
		id := c.Element.ID
		for l, steps := id-1, 0; l >= 0 && steps < 4; l, steps = l-1, steps+1 {
			if s.Elements[l].Parent != s.Elements[id].Parent || valueOf(s, ps, l) != id {
				continue
			}
			if overlap(qt.words, ps[l].toks[0]) == 0 {
				c.Score = round3(c.Score - 0.1)
				c.Why += "; labelled " + clip(s.Elements[l].Name, 30)
			}
			break
		}
	}
	return all
}

// attrMask is the bit set of words the element's id, class or test id carry: a target's own
// attributes say what it is ("status" on the delivery line of an order), an anchor's do not
// name its item.
func attrMask(pe *prepared, words []string) uint64 {
	var m uint64
	for b, w := range words {
		if attrHas(pe, w) {
			m |= 1 << b
		}
	}
	return m
}

// attrAbbreviates reports whether the element's id, class or test id carries the first letters
// of word w: class names abbreviate what the element is ("loc" for location, "desc" for
// description). Only a question's head word is read so: the field asked for, not whose it is
// nor what an instruction acts on.
func attrAbbreviates(pe *prepared, w string) bool {
	for _, f := range attrFields {
		if slices.ContainsFunc(pe.toks[f], func(t string) bool { return abbreviates(t, w) }) {
			return true
		}
	}
	return false
}

// attrHas reports whether the element's id, class or test id carries word w.
func attrHas(pe *prepared, w string) bool {
	for _, f := range attrFields {
		if contains(pe.toks[f], w) {
			return true
		}
	}
	return false
}

// figureLike reports a text that is mostly a figure: "$2,418.73", "66°/47°", "4.8 (1,204)", "12%".
func figureLike(s string) bool {
	letters, digits := 0, 0
	for _, r := range s {
		switch {
		case unicode.IsLetter(r):
			letters++
		case unicode.IsDigit(r):
			digits++
		}
	}
	return digits > 0 && letters <= 2*digits
}

// labelHands is what a plain text loses when it hands a click or a keystroke on to the control
// it names, or a reading on to the value beside it (handOnFromText).
const labelHands = 0.1

// controlReach is how far after a label, in document order, its control is looked for.
const controlReach = 8

// handLabelToControl gives a click or a keystroke that the description's words put on a plain
// text to the control that text names: "change the vehicle" matches the label "Vehicle" and
// means the button after it, "message Ben Okoro" his name on a card and the card's Message
// button. Clicking a label does nothing in particular; the control after it in its row or card
// is what the words point at (controlOf).
func handLabelToControl(s *Snapshot, ps []prepared, p *Parsed, qt *queryText, intent Intent, all []scored) []scored {
	words := qt.all
	if p.Verb != "" {
		// The verb may be the control's name: "Select the red-eye" is the card's Select button.
		words = append(words[:len(words):len(words)], stem(p.Verb))
	}
	return handOnFromText(s, ps, all, true, "; names the control after it", func(c scored) (int, float64, string) {
		e := c.Element
		k := -1
		if e.Tag == "label" {
			// A label element is clickable itself; it hands on only to the control it labels,
			// before or after it: "choose a 15 year loan" is the Loan program select, though the
			// label found the anchor (its option says the rest); "Browse files" labels a hidden
			// file input, not the next select.
			k = labelledControl(s, e.ID, intent)
		} else {
			k = controlOf(s, ps, e.ID, intent, words, p)
		}
		if k < 0 || openingVerbs[p.Verb] && !ownsLike(&ps[k], stem(p.Verb)) {
			// "open the Chase Bank entry": an entry is opened by itself (or its link), not by
			// the Copy password button that follows its name.
			return -1, 0, ""
		}
		// The control has the label's words and its own fit for what is to be done.
		score := round3(c.Score - intentFit(e, intent) + intentFit(&s.Elements[k], intent))
		side := " before it names; "
		if k < e.ID {
			side = " after it names; " // its card's one control, above its title (soleControlBefore)
		}
		return k, score, "the control that " + strconv.Quote(clip(firstOf(e.Text, e.Name), 30)) + side + c.Why
	})
}

// labelsOther reports whether a is the label of a value other than c (labelFor maps a label
// to its value): "Daily transfer limit" labels £10,000.00 and lends its words to nothing else,
// such as the £1,000.00 that its own label, "New payee limit", names. A heading labels a
// figure under it but titles the rest too ("Personal bests" over every distance's time).
func labelsOther(s *Snapshot, labelFor map[int]int, a, c int) bool {
	v, ok := labelFor[a]
	return ok && v != c && s.Elements[a].Role != "heading" && s.Elements[a].Role != "columnheader"
}

// rateUnitRe is a rate's unit written apart from its figure: "per day", "/ night", "a month",
// "each", "per person".
var rateUnitRe = regexp.MustCompile(`(?i)^(?:(?:per|/|an?)\s*(?:day|night|hour|hr|week|wk|month|mo|year|yr|person|guest|adult|seat|user|item|unit)s?\.?|each)$`)

// openingVerbs open the thing they name, which no other control of its row does.
var openingVerbs = map[string]bool{"open": true, "view": true, "visit": true}

// labelledControl returns the control that the label element l labels, fit for intent, among
// the elements near it, or -1.
func labelledControl(s *Snapshot, l int, intent Intent) int {
	name := s.Elements[l].Name
	if name == "" {
		return -1
	}
	for d := 1; d < controlReach; d++ {
		for _, k := range []int{l + d, l - d} {
			if k < 0 || k >= len(s.Elements) {
				continue
			}
			c := &s.Elements[k]
			if c.Label == name && c.Tag != "label" && c.Visible && !c.Covered && fitFor(c, intent) {
				return k
			}
		}
	}
	return -1
}

// negations are the stemmed words that deny what they go with ("not", "never", and the "t"
// that a tokenized "don't" or "isn't" leaves).
var negations = map[string]bool{"not": true, "never": true, "t": true}

// negating reports whether the stemmed word w denies what it goes with.
func negating(w string) bool { return negations[w] }

// moneyHeads are the figures that are sums of money: "the order total for Lukas Brandt" is
// the price in Lukas Brandt's order.
var moneyHeads = map[string]bool{
	"total": true, "subtotal": true, "balance": true, "fee": true, "tax": true, "charge": true, "deposit": true,
	"payment": true, "salary": true, "bid": true, "refund": true, "fare": true, "rent": true,
}

// handLabelToKind gives a reading that asks for a kind of value (a price, a date) and whose
// words are on a plain text without one to the one value of that kind in the text's item: "the
// non-refundable price for the Deluxe King" matches the "Non-refundable" line of a rate and
// means the rate's price beside it.
func handLabelToKind(s *Snapshot, ps []prepared, p *Parsed, all []scored) []scored {
	ks, price := kindShapes[p.Kind], p.Kind == "price" || p.Kind == "figure" && moneyHeads[p.Head]
	if ks == 0 && !price {
		return all
	}
	fits := func(k int) bool { return price && ps[k].price || ps[k].shape&ks != 0 }
	return handOnFromText(s, ps, all, false, "; says what the "+p.Kind+" beside it is", func(c scored) (int, float64, string) {
		e := c.Element
		if e.Item == 0 || fits(e.ID) {
			return -1, 0, ""
		}
		// Its own item, or else the one that holds it: a card's buyer name sits in a block of
		// its own beside the order's price.
		for _, it := range []int{e.Item, e.ItemUp} {
			if it == 0 {
				break
			}
			in := func(k int) bool { return s.Elements[k].Item == it || s.Elements[k].ItemUp == it }
			lo, hi := e.ID, e.ID
			for lo > 0 && in(lo-1) {
				lo--
			}
			for hi+1 < len(s.Elements) && in(hi+1) {
				hi++
			}
			v := -1
			for k := lo; k <= hi; k++ {
				if k != e.ID && ps[k].descendants == 0 && s.Elements[k].Visible && fits(k) {
					if v >= 0 {
						return -1, 0, "" // two values: the text does not say which
					}
					v = k
				}
			}
			if v >= 0 {
				return v, round3(c.Score + 0.01), "the " + p.Kind + " beside " + strconv.Quote(clip(firstOf(e.Text, e.Name), 30)) + "; " + c.Why
			}
		}
		return -1, 0, ""
	})
}

// handOnFromText hands what the best candidates that are plain texts (leaves, no control) say
// on to the element to names for each (-1 for none), with the score and the why it gives; the
// text loses labelHands and its why says it handed on (says). byLabel marks what it handed to.
func handOnFromText(s *Snapshot, ps []prepared, all []scored, byLabel bool, says string, to func(c scored) (int, float64, string)) []scored {
	best := math.Inf(-1)
	for i := range all {
		if all[i].eligible && !all[i].needAnchor {
			best = math.Max(best, all[i].Score)
		}
	}
	at := indexByID(all)
	for i, n := 0, len(all); i < n; i++ {
		c := all[i]
		e := c.Element
		// (A label is clickable, but only for the control it labels: see handLabelToControl.)
		if c.Score < best-tieEpsilon || !c.eligible || c.needAnchor || e.Interactive && !(byLabel && e.Tag == "label") || e.Editable || ps[e.ID].descendants > 0 && !askedOfControls(s, ps, e.ID) {
			continue
		}
		k, score, why := to(c)
		if k < 0 {
			continue
		}
		if j, ok := at[k]; ok {
			if all[j].Score < score {
				all[j].Score, all[j].Why, all[j].byLabel = score, why, byLabel
			}
			all[j].needAnchor = false // the text that says what it is is its anchor
		} else {
			at[k] = len(all)
			all = append(all, scored{Element: &s.Elements[k], Score: score, Why: why, eligible: true, byLabel: byLabel})
		}
		all[i].Score = round3(c.Score - labelHands)
		all[i].Why += says
	}
	return all
}

// controlOf returns the control a short plain text names for intent, or -1: the first visible
// control fit for it among the next few elements inside the text's parent (the row or card
// they share), or of those the first that says one of words the text does not ("Ben Okoro"
// then his card's Message and Archive buttons, for "message Ben Okoro"; "Child seat" then its
// Decrease and Increase buttons, both with ids that say seat, for "one more child seat").
// p's Denies and FirstPerson say which of a question's answers is meant (see answers.go).
func controlOf(s *Snapshot, ps []prepared, l int, intent Intent, words []string, p *Parsed) int {
	e := &s.Elements[l]
	lt := strings.TrimSpace(firstOf(e.Text, e.Name))
	if lt == "" || utf8.RuneCountInString(lt) > 40 && !strings.HasSuffix(lt, "?") || !hasLetter(lt) {
		// A long text is a sentence, not a label; but a question of any length is what the
		// control after it answers ("... How many chromosomes does each cell have?" and its
		// answer box).
		return -1
	}
	var rest []string
	for _, w := range words {
		if !ownsAny(&ps[l], []string{w}) {
			rest = append(rest, w)
		}
	}
	if len(rest) > 0 {
		words = rest
	}
	if slices.ContainsFunc(rest, negating) || p.Denies && !ownsAny(&ps[l], noWords) {
		// "this page was not helpful" after "Was this page helpful?": a negation the question
		// does not say answers it, by the control that says no. So does a description that
		// says no ("nobody was injured" after "Was anyone injured?"), which stop words drop.
		// The question's own words are not looked for: its radio group says them too.
		words = append(rest[:len(rest):len(rest)], "no")
	}
	end := len(s.Elements)
	if e.Parent >= 0 {
		end = e.Parent + 1 + ps[e.Parent].descendants
	}
	first, owning := -1, -1
	for k := l + 1; k < min(end, l+controlReach); k++ {
		if inLookAlikeItem(s, l, k) {
			break // the next card's control: a card whose control comes before its title has none after it
		}
		c := &s.Elements[k]
		if !c.Visible || c.Covered || !fitFor(c, intent) || c.Role == "label" {
			continue
		}
		if ownsAny(&ps[k], words) {
			if !p.FirstPerson || speaksFirstPerson(&ps[k]) {
				return k
			}
			if owning < 0 {
				owning = k
			}
		}
		if first < 0 {
			first = k
		}
	}
	if owning >= 0 {
		return owning
	}
	if card := topItem(s, e.Item); len(rest) > 0 && card != 0 {
		// Further on in the card that holds the text, a control that says the rest: "Select
		// the red-eye" is the Select button at the foot of the flight card whose first block
		// says Red-eye, past its times, airline, stops and price.
		for k := l + controlReach; k < min(end, l+4*controlReach); k++ {
			c := &s.Elements[k]
			if sharedItem(s, c.Item, card) != card {
				break
			}
			if c.Visible && !c.Covered && fitFor(c, intent) && c.Role != "label" && ownsAny(&ps[k], words) {
				return k
			}
		}
	}
	if first < 0 {
		first = soleControlBefore(s, ps, l, intent)
	}
	return first
}

// presentRe finds a question about what is so now: "what's playing now", "what song is
// playing", "what is currently on", "what stage is my claim at" (the stage a thing is at is
// its present one).
var presentRe = regexp.MustCompile(`\b(?:now|currently|current|playing)\b|` + stageRe.String())

// stageRe asks the stage something is at: "what stage is my claim at", "which step am I on".
var stageRe = regexp.MustCompile(`\b(?:what|which) (?:stage|step|phase)\b`)

// nowMarkWords are the words with which a page marks the item that is so now, in its class,
// id or test id ("current", "is-playing", "_cur", "nowplaying") or in the name of a region that
// holds it ("Now playing bar").
var nowMarkWords = map[string]bool{"now": true, "current": true, "cur": true, "nowplaying": true, "playing": true}

// Strengths of a mark of the present: a region's accessible name is the page telling every
// reader, an id or a test id its own code, a class perhaps only its looks.
const (
	markByClass = 1 + iota
	markByID
	markByName
	markByCurrent // aria-current: the page says it to every reader, in the words of ARIA
)

// answerNow answers a question about the present from the element the page marks as present:
// "what's playing now" is the title in the player bar named "Now playing", not a Play button
// whose word it shares; "what stage is my claim at" the step marked "_cur", not the claim's
// number. The answer is the marked element when it is a leaf that says something the question
// does not, else its first such line of words; it leads the best candidate by presentLead.
// Of several marks the strongest speaks; two different answers of the same strength say nothing.
func answerNow(s *Snapshot, ps []prepared, p *Parsed, qt *queryText, all []scored) []scored {
	said := strings.ToLower(p.Said)
	if !presentRe.MatchString(said) {
		return all
	}
	// What plays is marked as playing; the stage a thing is at is not what plays.
	playing := strings.Contains(said, "playing")
	staged := stageRe.MatchString(said)
	answer, strength := -1, 0
	for i := range s.Elements {
		m := nowMark(&s.Elements[i], &ps[i], playing, staged)
		if m == 0 || m < strength {
			continue
		}
		a := presentAnswer(s, ps, p, qt, i)
		if asksWhere(p) {
			if pl := placeIn(s, ps, i); pl >= 0 {
				a = pl // "where is my package now": the step's place, not its title
			}
		}
		switch {
		case a < 0 || a == answer || !aboutAsked(s, ps, qt, i, a) || !aboutOwner(s, ps, qt, i, a):
		case m > strength:
			answer, strength = a, m
		case answer >= 0:
			answer = -2 // two present things: the page does not say which is asked
		}
		if answer == -2 {
			return all
		}
	}
	if answer == -1 && playing {
		answer = playerLine(s, ps, p, qt)
	}
	if answer < 0 {
		return all
	}
	best := bestEligible(all)
	if best < 0 || all[best].Element.ID == answer {
		return all
	}
	at := indexByID(all)
	all = handDown(s, all, at, best, answer, "marked as the present one")
	j := at[answer]
	all[j].Score = round3(all[j].Score + presentLead)
	return all
}

// presentLead is how far the answer marked as present leads the best match of the words: a
// lead, not a tie, with what only shares a word ("playing" with a Play button).
const presentLead = 0.05

// nowMark is how strongly element e is marked as the one that is so now (aria-current, the
// strongest, or see nowMarkWords), 0 for not at all; with playing (the question asks what
// plays), only a mark that says play counts (aria-current does not), and without, or with
// staged (it asks the stage of something), only one that does not:
// the current step of a form is not the song that plays, nor what plays the count of listeners. A name marks only a region
// that holds its answer: a leaf named "Now playing" is the label, which says nothing of what
// plays.
func nowMark(e *Element, pe *prepared, playing, staged bool) int {
	switch {
	case e.Current != "" && !playing:
		return markByCurrent
	case pe.descendants > 0 && marks(e.AriaLabel, playing, staged):
		return markByName
	case marks(e.IDAttr, playing, staged) || marks(e.TestID, playing, staged):
		return markByID
	case marks(e.Class, playing, staged):
		return markByClass
	}
	return 0
}

// marks reports whether the identifier or name s has a word of nowMarkWords (and, with
// playing, says play; without, or with staged, does not).
func marks(s string, playing, staged bool) bool {
	if s == "" {
		return false
	}
	s = strings.ToLower(splitIdent(s))
	if play := strings.Contains(s, "play"); playing != play || staged && play {
		return false
	}
	for _, w := range strings.Fields(s) {
		if nowMarkWords[w] {
			return true
		}
	}
	return false
}

// presentAnswer is the line of element m (m itself, or its first visible leaf in document
// order) that says something the question does not, of the kind it asks for (a figure for
// "how many", a name for "who", else words), and is no control one works; -1 for none.
func presentAnswer(s *Snapshot, ps []prepared, p *Parsed, qt *queryText, m int) int {
	for d := m; d <= m+ps[m].descendants && d < len(s.Elements); d++ {
		e := &s.Elements[d]
		if ps[d].descendants > 0 || !e.Visible || e.Editable || e.Interactive && e.Role != "link" {
			continue
		}
		if fitsKind(p, &ps[d], firstOf(e.Text, e.Name)) && !allIn(ps[d].toks[0], qt.all) {
			return d
		}
	}
	return -1
}

// fitsKind reports whether text t (of prepared element pd) is of the kind question p asks for:
// a value of its shape, a price, a figure, a person's name for "who", else any words.
func fitsKind(p *Parsed, pd *prepared, t string) bool {
	switch {
	case kindShapes[p.Kind] != 0:
		return pd.shape&kindShapes[p.Kind] != 0
	case p.Kind == "price":
		return pd.price
	case p.Kind != "":
		return hasDigit(t)
	case p.Who:
		return personName(t)
	}
	return hasLetter(t)
}

// playingControl works the control of what plays: "heart the song that's playing", "skip the
// track that's playing" name a control of the region the page marks as playing (the player
// bar), not a Play button or a search box that shares "play". Of that region's controls the
// description's other words name (heart for its Like button), the best gets the best
// candidate's score and presentLead.
func playingControl(s *Snapshot, ps []prepared, p *Parsed, qt *queryText, all []scored) []scored {
	if !strings.Contains(strings.ToLower(p.Whole), "playing") {
		return all
	}
	var words []string
	for _, w := range qt.words {
		if !strings.HasPrefix(w, "play") {
			words = append(words, w)
		}
	}
	if len(words) == 0 {
		return all
	}
	best, pick := -1, -1
	for i := range all {
		if !all[i].eligible {
			continue
		}
		if best < 0 || all[i].Score > all[best].Score {
			best = i
		}
		c := all[i].Element.ID
		if s.Elements[c].Interactive && ownsLikeAny(&ps[c], words) && inPlaying(s, ps, c) && (pick < 0 || all[i].Score > all[pick].Score) {
			pick = i
		}
	}
	if pick < 0 || pick == best {
		return all
	}
	all[pick].Score = round3(all[best].Score + presentLead)
	all[pick].Why += "; in what is marked as playing"
	return all
}

// inPlaying reports whether element c is inside an element marked as playing (see nowMark).
func inPlaying(s *Snapshot, ps []prepared, c int) bool {
	for a := s.Elements[c].Parent; a >= 0; a = s.Elements[a].Parent {
		if nowMark(&s.Elements[a], &ps[a], true, false) > 0 {
			return true
		}
	}
	return false
}

// aboutAsked reports whether the element marked as present (m) or its answer (a) is about what
// the question asks: one of them, the list that holds the mark, or what holds either (its
// context) says one of its words or a word that stands for one ("package" for the current
// step of a list named "Shipment progress"). The current link of a menu or of a page list is
// not "the current plan", nor a step of an upload the stage of a claim.
func aboutAsked(s *Snapshot, ps []prepared, qt *queryText, m, a int) bool {
	for _, i := range []int{m, s.Elements[m].Parent, a} {
		if i >= 0 && (ownsLikeAny(&ps[i], qt.words) || contextLikeAny(&ps[i], qt.words)) {
			return true
		}
	}
	return false
}
