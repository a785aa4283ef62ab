package semantic

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rodeo-run/rodeo/errs"
)

// Resolve finds the element of s that q describes. It fails with errs.TargetNotFound when nothing
// fits (the message names the closest elements) and with errs.AmbiguousTarget when several fit
// equally well and neither q.Match nor the description says which. When the description as
// written fails so, a word of it the page lacks is read as the page's nearest word (a typo, see
// correctTypos) and the description tried once more; when it resolves, it is tried once more
// only for a slip that seldom spells another word, and that reading kept only if it fits better.
func Resolve(s *Snapshot, q Query) (Resolution, error) {
	res, p, err := resolveUncalibrated(s, q)
	if err == nil {
		calibrate(s, q, p, &res)
	}
	return res, err
}

// resolveUncalibrated is Resolve with each step's own confidence, and the parse of the reading
// that resolved (the description as written or with a typo read).
func resolveUncalibrated(s *Snapshot, q Query) (Resolution, *Parsed, error) {
	p := Parse(q.Description)
	odd := typoCandidates(&p) // before resolving, which may move role words among the words
	res, err := resolveAsWritten(s, q, &p)
	failed := err != nil
	if failed && !(errs.Is(err, errs.TargetNotFound) || errs.Is(err, errs.AmbiguousTarget)) {
		return res, &p, err
	}
	// A word the page does not have may be a slip of the keyboard ("the Sumbit button"): read
	// as the page's nearest word, the description may resolve where it did not, or resolve
	// better than it did without the word ("previw the post" found the Post tab on "post"
	// alone; read as "preview", it is the Preview button).
	fixed, read := correctTypos(s, q.Description, odd, !failed)
	if read == "" || !ruleOn("typos") {
		return res, &p, err
	}
	q.Description = fixed
	p2 := Parse(fixed)
	res2, err2 := resolveAsWritten(s, q, &p2)
	if err2 != nil {
		return res, &p, err
	}
	if !failed && res2.Confidence <= res.Confidence {
		// Read with the word, the description fits no better than it did without it.
		return res, &p, nil
	}
	res2.Why = "read " + read + "; " + res2.Why
	res2.Confidence *= typoDiscount
	res2.signal.typo = true
	return res2, &p2, nil
}

// resolveAsWritten is Resolve for the description as it is written, which p is the parse of.
func resolveAsWritten(s *Snapshot, q Query, p *Parsed) (Resolution, error) {
	if strings.TrimSpace(q.Description) == "" {
		return Resolution{}, errs.E(errs.TargetNotFound, "empty target description")
	}
	if q.Match != "" && !validMatch(q.Match) {
		return Resolution{}, errs.E(errs.TargetNotFound, "match %q is not \"first\", \"last\" or a number", q.Match)
	}
	sc := rankScored(s, q, p)
	if f, why, found := pageStep(s, q.Description, intentOf(q, p)); found && ruleOn("page_step") {
		// "go to the last page", "the first page of results": the pagination's control of
		// that number, before "results" are counted as items.
		return decide(s, sc, scored{Element: &s.Elements[f], eligible: true}, 0.6, why, "page_step"), nil
	}
	if p.Counted != "" && len(p.Attrs) == 0 {
		if res, ok := itemOrdinal(s, p, intentOf(q, p), ordinalOf(p, q)); ok && ruleOn("item_ordinal") {
			res.signal = signalOf(s, sc, res.Element.ID, "item_ordinal", res.Confidence)
			return res, nil
		}
	}
	if f, why, found := timeGridCell(s, prepare(s), p, q.Description, intentOf(q, p)); found && ruleOn("time_grid") {
		// "the first lesson on Wednesday": an entry of a time grid, by its day's column.
		return decide(s, sc, scored{Element: &s.Elements[f], eligible: true}, 0.6, why, "time_grid"), nil
	}
	if f, why, found := monthStep(s, prepare(s), q.Description, intentOf(q, p)); found && ruleOn("month_step") {
		// "go to July" on a calendar that shows June: its next-month control.
		return decide(s, sc, scored{Element: &s.Elements[f], eligible: true}, 0.5, why, "month_step"), nil
	}
	if n := ordinalOf(p, q); p.Item != "" && n != 0 {
		// "the line total of the second item": the best match inside the Nth repeated container.
		if top, of, found := itemField(s, p, intentOf(q, p), sc, n); found && ruleOn("item_field") {
			return decide(s, sc, top, 0.45+0.4*base(top.Score), fmt.Sprintf("in the %s of %d items; %s", ordinalText(n), of, top.Why), "item_field"), nil
		}
	}

	// rankScored puts the eligible candidates first: they are a prefix, not a copy.
	k := 0
	for k < len(sc) && sc[k].eligible {
		k++
	}
	ok := sc[:k:k]
	if len(ok) == 0 {
		return Resolution{}, notFound(s, q, p, sc)
	}

	n, hasOrd := parseMatch(q.Match)
	if !hasOrd && p.Ordinal != 0 {
		n, hasOrd = p.Ordinal, true
	}

	if sup := superlativeOf(q.Description); sup != "" && !hasOrd {
		// "the cheapest rate for the harbour view room": the least of the look-alikes.
		if top, of, found := bySuperlative(s, ok, sup); found && ruleOn("superlative") {
			return decide(s, sc, top, 0.45+0.4*base(top.Score), fmt.Sprintf("the %s of %d alike; %s", superlativeText[sup], of, top.Why), "superlative"), nil
		}
	}

	if !hasOrd {
		if top, why, found := neighbourInLine(s, p, q.Description, ok); found && ruleOn("neighbour") {
			// "the stop after York": the look-alike next to the one the words after "after" name.
			return decide(s, sc, top, 0.45+0.4*base(top.Score), why+"; "+top.Why, "neighbour"), nil
		}
	}

	if hasOrd {
		band := ordinalBandOf(s, ok, p)
		i := n - 1
		if n < 0 {
			i = len(band) + n
		}
		if i < 0 || i >= len(band) {
			return Resolution{}, errs.E(errs.TargetNotFound, "no %s match for %q: only %d element(s) match (%s)",
				ordinalText(n), q.Description, len(band), list(band, 5))
		}
		top := band[i]
		return decide(s, sc, top, 0.45+0.4*base(top.Score), fmt.Sprintf("%s of %d matches in document order; %s", ordinalText(n), len(band), top.Why), "ordinal"), nil
	}

	top, tied := ok[0], tiedWith(s, ok)
	// "bump up the servings by one": the Increase servings button, not the Servings box that
	// it anchors and that comes out a little ahead; "the three-dot menu on the task", not the
	// tied menus of the rows beside it that say task somewhere. Only of a control to act on:
	// a value read is often anchored by a label or a control that says every word ("the
	// number of DNS records" is the count, not "Add DNS record"), and a click goes to a
	// control, not to the name beside it ("message Ben Okoro").
	if in := intentOf(q, p); in == IntentClick || in == IntentType {
		if near := nearTop(s, ok); len(near) > 0 && ruleOn("near_tie_break") {
			if one := breakTie(s, p, q.Description, append([]scored{top}, near...), true); len(one) == 1 && (one[0].Element.ID != top.Element.ID || len(tied) > 0) && fitFor(one[0].Element, in) {
				return decide(s, sc, one[0], 0.45, one[0].Why+"; close to the best, and the one the description tells apart", "near_tie_break"), nil
			}
		}
	}
	if len(tied) > 0 {
		// A tie between the page's chrome (navigation, header, footer) and its content goes
		// to the content: "open shipment TW481180" is the shipment, not the Shipments menu.
		if content := notChrome(append([]scored{top}, tied...)); len(content) == 1 && ruleOn("content_over_chrome") {
			return decide(s, sc, content[0], 0.35, content[0].Why+"; the content's, not the navigation's", "content_over_chrome"), nil
		}
		all := append([]scored{top}, tied...)
		if one := breakTie(s, p, q.Description, all, false); len(one) == 1 && ruleOn("tie_break") {
			// The description says which in words the score weighs too little: sure enough to
			// act, not so sure that a model, when there is one, is not asked.
			return decide(s, sc, one[0], 0.45, one[0].Why+"; of "+strconv.Itoa(len(all))+" alike, the one the description tells apart", "tie_break"), nil
		}
		sort.SliceStable(all, func(i, j int) bool { return all[i].Element.ID < all[j].Element.ID })
		return Resolution{}, errs.E(errs.AmbiguousTarget,
			"%q matches %d elements equally well: %s; say which with match \"first\", \"last\" or a number (1, 2...), or describe it more precisely",
			q.Description, len(all), list(all, 5))
	}
	// The margin is over the best candidate that is not the same thing nested.
	second := 0.0
	for _, c := range ok[1:] {
		if !related(s, top.Element.ID, c.Element.ID) {
			second = c.Score
			break
		}
	}
	b := base(top.Score)
	if roleOnly(p) && second < top.Score-tieEpsilon {
		// "the paragraph", "the main heading": a description that names only a role is as sure
		// as the role is unique; a weak text score says nothing about it.
		b = math.Max(b, 0.75)
	}
	// Calibrated on the tuning third of testdata/grounding: a clear lead matters as much as
	// the score itself.
	conf := b * (0.4 + 0.6*clamp01((top.Score-second)/0.2))
	return decide(s, sc, top, conf, top.Why, "ranked"), nil
}

// tiedWith returns the candidates of ok (eligible, best first) that score as well as the best,
// ok[0], and are not the same thing nested in it: what makes a resolution ambiguous.
func tiedWith(s *Snapshot, ok []scored) []scored { return within(s, ok, tieEpsilon) }

// nearBand is how close to the best a candidate comes for the description's words to settle
// between them (breakTie) although the score does not.
const nearBand = 0.1

// nearTop returns the candidates of ok (eligible, best first) that score within nearBand of the
// best and are not the same thing nested in it.
func nearTop(s *Snapshot, ok []scored) []scored { return within(s, ok, nearBand) }

// within returns the candidates of ok after the best that score within band of it and are
// not the same thing nested in it.
func within(s *Snapshot, ok []scored, band float64) []scored {
	var out []scored
	for _, c := range ok[1:] {
		if c.Score < ok[0].Score-band {
			break
		}
		if !related(s, ok[0].Element.ID, c.Element.ID) {
			out = append(out, c)
		}
	}
	return out
}

// ordinalOf is the Nth the query asks for: its match when that is a number, first or last, else
// the description's ordinal (0 for none).
func ordinalOf(p *Parsed, q Query) int {
	if m, ok := parseMatch(q.Match); ok {
		return m
	}
	return p.Ordinal
}

// roleOnly reports a description made of a role word and nothing else to match on.
func roleOnly(p *Parsed) bool {
	return len(p.Roles) > 0 && len(p.Texts) == 0 && len(p.Words) == 0 && len(p.Attrs) == 0 && len(p.Context) == 0 && p.Kind == ""
}

// decide is the resolution of c, chosen by the named step with that step's own confidence, with
// its runners-up and the signal that calibration reads.
func decide(s *Snapshot, sc []scored, c scored, conf float64, why, step string) Resolution {
	res := resolution(c, conf, why)
	res.RunnersUp = runnersUp(sc, c.Element.ID)
	res.signal = signalOf(s, sc, c.Element.ID, step, conf)
	return res
}

// signal is what a heuristic resolution says of how it was reached, for calibrating its
// confidence: the step that decided, that step's own confidence, the chosen element's score,
// the best score of an eligible candidate that is not the chosen one or nested with it, and how
// many candidates were eligible.
type signal struct {
	step        string
	stepConf    float64
	top, second float64
	eligible    int
	// text is the chosen element's text score; near counts the eligible candidates within
	// nearBand of its score that are not nested with it.
	text float64
	near int
	typo bool // the description was read with a word of it corrected
	// unexplained is the share of the description's words nothing around the answer carries,
	// once calibrate has worked it out (measured), for the model's gate to read again.
	unexplained float64
	measured    bool
}

// signalOf is the signal of choosing element chosen of sc by step.
func signalOf(s *Snapshot, sc []scored, chosen int, step string, conf float64) signal {
	sg := signal{step: step, stepConf: conf}
	found := false
	for _, c := range sc {
		if !c.eligible {
			break
		}
		sg.eligible++
		switch {
		case c.Element.ID == chosen:
			sg.top, sg.text, found = c.Score, c.text, true
		case sg.second == 0 && !related(s, chosen, c.Element.ID):
			sg.second = c.Score
		}
	}
	if !found {
		for _, c := range sc[sg.eligible:] {
			if c.Element.ID == chosen {
				sg.top, sg.text = c.Score, c.text
				break
			}
		}
	}
	for _, c := range sc[:sg.eligible] {
		if c.Element.ID != chosen && c.Score >= sg.top-nearBand && !related(s, chosen, c.Element.ID) {
			sg.near++
		}
	}
	return sg
}

func resolution(c scored, conf float64, why string) Resolution {
	return Resolution{Element: *c.Element, Confidence: math.Round(conf*100) / 100, By: "heuristic", Why: why, byLabel: c.byLabel}
}

// base maps a score onto 0..1: an exact name plus the right role and intent is about 1.45;
// 0.2 is what a stray word overlap scores.
func base(score float64) float64 { return clamp01((score - 0.2) / 0.9) }

func clamp01(f float64) float64 { return math.Max(0, math.Min(1, f)) }

// ordinalBandOf returns, in document order, the candidates an ordinal counts over: those close
// to the top score, one per nesting chain, and for "the second result's title" only those in the
// largest group of repeated items.
func ordinalBandOf(s *Snapshot, ok []scored, p *Parsed) []scored {
	if p.Item != "" {
		// Count within the repeated items: among shape groups with two or more close matches, the
		// best-scoring wins, the larger on a tie.
		groups := map[string][]scored{}
		var order []string
		for _, c := range ok {
			sh := c.Element.Shape
			if _, seen := groups[sh]; !seen {
				order = append(order, sh)
			}
			groups[sh] = append(groups[sh], c)
		}
		var best []scored
		for _, sh := range order {
			band := bandOf(s, groups[sh])
			if len(band) < 2 {
				continue // not repeated
			}
			if best == nil || band[0].Score > best[0].Score+tieEpsilon || (band[0].Score >= best[0].Score-tieEpsilon && len(band) > len(best)) {
				best = band
			}
		}
		if len(best) > 1 {
			return inDocumentOrder(best)
		}
	}
	if roleOnly(p) {
		// "the first paragraph" counts paragraphs, not captions that may stand in for one.
		var exact []scored
		for _, c := range ok {
			if roleMatches(c.Element, p.Roles[0]) {
				exact = append(exact, c)
			}
		}
		if len(exact) > 0 {
			ok = exact
		}
	}
	return inDocumentOrder(bandOf(s, ok))
}

// bandOf returns the candidates (sorted best first) close to the top score, one per nesting
// chain: the better one, the inner one on a tie.
func bandOf(s *Snapshot, ok []scored) []scored {
	top := ok[0].Score
	var band []scored
	for _, c := range ok {
		if c.Score >= top-ordinalBand {
			band = append(band, c)
		}
	}
	// Each member against its ancestors in the band (not every pair: bands of hundreds of
	// prices are common on long pages): the outer one goes unless it scores clearly better.
	idx := make(map[int]int, len(band))
	for i, c := range band {
		idx[c.Element.ID] = i
	}
	drop := make([]bool, len(band))
	for i, c := range band {
		for a, hops := s.Elements[c.Element.ID].Parent, 0; a >= 0 && a < len(s.Elements) && hops < 256; a, hops = s.Elements[a].Parent, hops+1 {
			j, in := idx[a]
			if !in {
				continue
			}
			if band[j].Score > c.Score+tieEpsilon {
				drop[i] = true
			} else {
				drop[j] = true
			}
		}
	}
	keep := band[:0:0]
	for i, c := range band {
		if !drop[i] {
			keep = append(keep, c)
		}
	}
	return keep
}

func inDocumentOrder(cs []scored) []scored {
	out := append([]scored(nil), cs...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Element.ID < out[j].Element.ID })
	return out
}

// isAncestor reports whether element a is an ancestor of element d.
func isAncestor(s *Snapshot, a, d int) bool {
	for i, hops := s.Elements[d].Parent, 0; i >= 0 && i < len(s.Elements) && hops < 256; i, hops = s.Elements[i].Parent, hops+1 {
		if i == a {
			return true
		}
	}
	return false
}

func related(s *Snapshot, a, b int) bool { return isAncestor(s, a, b) || isAncestor(s, b, a) }

func runnersUp(sc []scored, chosen int) []Candidate {
	var out []Candidate
	for _, c := range sc {
		if c.Element.ID == chosen {
			continue
		}
		out = append(out, c.candidate())
		if len(out) == 3 {
			break
		}
	}
	return out
}

func list(cs []scored, n int) string {
	var parts []string
	for i, c := range cs {
		if i == n {
			parts = append(parts, fmt.Sprintf("and %d more", len(cs)-n))
			break
		}
		d := describe(c.Element)
		if c.Element.Context != "" {
			ctx := c.Element.Context
			if len(ctx) > 40 {
				ctx = ctx[:37] + "..."
			}
			d += fmt.Sprintf(" in %q", ctx)
		}
		if c.reason != "" {
			d += " [" + c.reason + "]"
		}
		parts = append(parts, d)
	}
	return strings.Join(parts, ", ")
}

func ordinalText(n int) string {
	switch n {
	case -1:
		return "last"
	case -2:
		return "second to last"
	case 1:
		return "1st"
	case 2:
		return "2nd"
	case 3:
		return "3rd"
	}
	return fmt.Sprintf("%dth", n)
}

// looseScore is how much an element shares with a description when nothing matched properly: its
// best field overlap with the description's words, plus a bonus for the asked role. It names the
// closest elements in errors and fills the LLM's candidate list.
func looseScore(pe *prepared, qtoks []string, roles []string) float64 {
	best := 0.0
	for f := range fields {
		if o := overlap(qtoks, pe.toks[f]) * fields[f].w; o > best {
			best = o
		}
	}
	for _, r := range roles {
		if roleMatches(pe.el, r) {
			best += 0.3
			break
		}
	}
	return best
}

// notFound builds the TargetNotFound error: the hidden or disabled matches when there are some,
// else the elements that share most words with the description.
func notFound(s *Snapshot, q Query, p *Parsed, sc []scored) error {
	if len(sc) > 0 {
		return errs.E(errs.TargetNotFound, "no usable element for %q: the matches are not usable to %s: %s",
			q.Description, intentOf(q, p), list(sc, 3))
	}
	// Relaxed: any word of the description (role words too) in a visible element's fields.
	var qtoks []string
	for _, t := range append(append(append([]string{}, p.Texts...), p.RoleWords...), p.Context...) {
		qtoks = append(qtoks, tokens(normalize(t))...)
	}
	type near struct {
		e *Element
		s float64
	}
	var ns []near
	ps := prepare(s)
	for i := range ps {
		e := ps[i].el
		if !e.Visible {
			continue
		}
		best := looseScore(&ps[i], qtoks, p.Roles)
		if e.Interactive {
			best += 0.01
		}
		if best > 0.01 {
			ns = append(ns, near{e, best})
		}
	}
	sort.SliceStable(ns, func(i, j int) bool { return ns[i].s > ns[j].s })
	var parts []string
	for i := 0; i < len(ns) && i < 3; i++ {
		parts = append(parts, describe(ns[i].e))
	}
	if len(parts) == 0 {
		return errs.E(errs.TargetNotFound, "no element matches %q (the page has %d elements, none close)", q.Description, len(s.Elements))
	}
	return errs.E(errs.TargetNotFound, "no element matches %q; closest: %s", q.Description, strings.Join(parts, ", "))
}

// notChrome returns the candidates that are not in the page's navigation, header or footer.
func notChrome(cs []scored) []scored {
	var out []scored
	for _, c := range cs {
		if !chrome(c.Element) {
			out = append(out, c)
		}
	}
	return out
}

// chrome reports whether e sits in the page's navigation, header or footer (its context says).
func chrome(e *Element) bool {
	for _, part := range strings.Split(e.Context, " | ") {
		if k, _, _ := strings.Cut(part, " "); k == "navigation" || k == "header" || k == "footer" || k == "contentinfo" || k == "banner" {
			return true
		}
	}
	return false
}

// itemField finds the target of "the X of the Nth item" ("the salary of the first job", "the
// author of the second post", "the line total of the second item") with the snapshot's repeated
// containers: of the lists with an Nth container, the one whose Nth container holds the best
// match for X, and that match. Inside a container the description's few words are all there is
// to go on, so an element matches X by the ranker's score and also by what the ranker alone does
// not trust: a class or id that says X or abbreviates it ("sal" for salary, "user" for author),
// a value of X's kind, X's role. It returns the match, the number of containers in its list, and
// whether there was one.
func itemField(s *Snapshot, p *Parsed, intent Intent, sc []scored, n int) (scored, int, bool) {
	ps := prepare(s)
	at := indexByID(sc)
	// The lists, and each container's members: an element belongs to its own container and to
	// every container around it (Element.ItemUp).
	lists := map[string][]int{}
	var kinds []string
	members := map[int][]int{}
	im := itemMaps(s)
	up, kindOf := im.ups, im.kinds
	for _, it := range im.order { // document order, those with no element of their own included
		k := kindOf[it]
		if _, ok := lists[k]; !ok {
			kinds = append(kinds, k)
		}
		lists[k] = append(lists[k], it)
	}
	for i := range s.Elements {
		for it, n := s.Elements[i].Item, 0; it != 0 && n < 32; it, n = up[it], n+1 {
			members[it] = append(members[it], i)
		}
	}
	kinds = mergeStyledRuns(kinds, lists, cellsPerItem(s))
	words := descWords(p)
	item, head := stem(p.Item), stem(p.Head)
	// A column may be named by the role word too: "the third track's title" is the cell under
	// Title, though a title alone would be a heading.
	colWords := words
	if len(words) == 0 {
		for _, w := range p.RoleWords {
			colWords = append(colWords, tokens(w)...)
		}
	}
	local := func(i int) (float64, string) {
		pe, e := &ps[i], &s.Elements[i]
		l, why := 0.0, ""
		if k, ok := at[i]; ok {
			l, why = sc[k].Score, sc[k].Why
			if !sc[k].eligible {
				l *= 0.6
			}
		}
		for _, w := range words {
			if attrSays(pe, w) {
				l += 0.3
				why = joinWhy(why, "its class or id says "+strconv.Quote(w))
				break
			}
		}
		if len(pe.col) > 0 && len(colWords) > 0 {
			// Its column's header or its group's label: "Total" for "the line total".
			o := overlap(colWords, pe.col)
			if head != "" && contains(pe.col, head) || len(words) == 0 && o > 0 {
				o = max(o, 0.8) // the head noun (or the role word) says what it is
			}
			if o > 0 {
				l += 0.35 * o
				col, _, _ := strings.Cut(e.Context, " | ")
				why = joinWhy(why, "under "+strconv.Quote(col))
			}
		}
		switch ks := kindShapes[p.Kind]; {
		case ks != 0 && pe.shape&ks != 0, p.Kind == "price" && pe.price:
			l += 0.25
			why = joinWhy(why, kindPhrase(p.Kind))
		case p.Kind == "figure" && strings.ContainsAny(e.Name+e.Text, "0123456789"):
			l += 0.1
		}
		if len(p.Roles) > 0 && roleMatches(e, p.Roles[0]) {
			l += 0.2
		} else if nameHeads[p.Head] && len(words) == 1 && e.Role == "heading" && !contains(pe.col, head) && !sectionTitle(e) {
			// "the 2nd result's name": an item with no Name field is named by its title,
			// which says it as well as a field would (above the bar of bestScore).
			l += 0.3
			why = joinWhy(why, "the item's title")
		}
		return l, why
	}
	var best scored
	bestScore, bestOf := 0.25, 0 // below this, nothing in the container says X
	// Lists whose items are titled by the item noun, where no class names it: "the second
	// reference's phone" counts the blocks titled "Reference 1", "Reference 2", not every
	// block alike (the landlord's before them), and no other list.
	rows, titled := map[string][]int{}, map[string][]int{}
	for _, kind := range kinds {
		rows[kind] = dataRows(s, ps, lists[kind], members)
		if t := titledBy(s, ps, rows[kind], members, item); len(t) > 1 {
			titled[kind] = t
		}
	}
	quals := qualifierWords(p)
	// A heading says which list only when no list's class names the noun, and only of an
	// outermost list: lists nested in its items ("Recent activities") sit under it too.
	named := slices.ContainsFunc(kinds, func(kind string) bool {
		return item != "" && (strings.Contains(strings.ToLower(kind), item) || kindAbbreviates(kind, item))
	})
	for _, kind := range kinds {
		items := rows[kind]
		bonus := 0.0
		if item != "" && (strings.Contains(strings.ToLower(kind), item) || kindAbbreviates(kind, item)) {
			bonus = 0.15 // "the second job" in li.job, "the last activity" in li.act
		} else if t, ok := titled[kind]; ok {
			items, bonus = t, 0.15
		} else if len(titled) > 0 {
			continue
		} else if !named && len(items) > 0 && up[items[0]] == 0 && headedFor(ps, items, members, item) {
			bonus = 0.15 // "the fifth step" under Instructions, "the last comment" under "318 Comments"
		}
		items = qualified(s, ps, items, members, quals, max(n, -n))
		k := n - 1
		if n < 0 {
			k = len(items) + n
		}
		if k < 0 || k >= len(items) {
			continue
		}
		if o := max(k-1, 1-k); o < len(items) && partsOfOne(s, items[k], items[o]) {
			// Unlike siblings (a card's name block and its buttons block) are parts of one
			// thing, not a list to count over.
			continue
		}
		for _, i := range members[items[k]] {
			e := &s.Elements[i]
			if !e.Visible || e.Covered || (intent == IntentClick || intent == IntentType) && !fitFor(e, intent) {
				continue // "add more prep time to the first order" is a button, not the time
			}
			l, why := local(i)
			if e.Item == items[k] {
				l += 0.05 // the container's own, not a nested list's ("the second story" of a page that is one big row)
			}
			if ps[i].descendants > 0 {
				l -= 0.03 // a cell's first part, not the cell: the title, not the title and its artist
			}
			if l+bonus > bestScore+tieEpsilon {
				bestScore, bestOf = l+bonus, len(items)
				best = scored{Element: e, Score: round3(l), Why: why, eligible: true}
			}
		}
	}
	return best, bestOf, bestOf > 0
}

// sectionTitle reports whether heading h titles a part of the page (its item is a <section>,
// <nav>, <aside>, <form>... such as a "Waiting room" section), not an item of a list: "the 2nd
// result's name" is the second card's title, not the second section's. (An item's kind is its
// tag, classes and group: "section@1", "article.car@8".)
func sectionTitle(h *Element) bool {
	tag, _, _ := strings.Cut(h.ItemKind, "@")
	tag, _, _ = strings.Cut(tag, ".")
	return pageParts[tag]
}

// pageParts are the tags of a page's parts.
var pageParts = map[string]bool{"section": true, "nav": true, "aside": true, "main": true, "header": true,
	"footer": true, "form": true, "fieldset": true}

// listHeadings are headings a page puts over a list of things (stemmed item noun -> stemmed
// heading words) that do not say the thing's name: a recipe's steps are its Instructions.
var listHeadings = func() map[string][]string {
	m := map[string][]string{}
	for noun, hs := range map[string][]string{
		"step": {"instructions", "directions", "method", "preparation"},
	} {
		for _, h := range hs {
			m[stem(noun)] = append(m[stem(noun)], stem(h))
		}
	}
	return m
}()

// headedFor reports whether the list's first item sits under a heading (its context) that
// says the item noun or a heading's word for a list of them ("Instructions" for steps): the
// list is the one the noun counts.
func headedFor(ps []prepared, items []int, members map[int][]int, item string) bool {
	if item == "" || len(items) == 0 || len(members[items[0]]) == 0 {
		return false
	}
	ctx := ps[members[items[0]][0]].toks[ctxField]
	return contains(ctx, item) || headsListOf(ctx, item)
}

// headsListOf reports whether context tokens say a heading's word for a list of item (stemmed):
// "Directions" over steps.
func headsListOf(ctx []string, item string) bool {
	return slices.ContainsFunc(listHeadings[item], func(h string) bool { return contains(ctx, h) })
}

// kindAbbreviates reports whether a container kind's class ("li.act@4") abbreviates the
// stemmed item noun ("activiti").
func kindAbbreviates(kind, item string) bool {
	_, cls, ok := strings.Cut(strings.TrimSuffix(kind, itemList(kind)), ".")
	if !ok {
		return false
	}
	cls, _, _ = strings.Cut(strings.ToLower(cls), ".")
	return abbreviates(cls, item)
}

// mergeStyledRuns joins the lists of one group of siblings whose kinds differ only by a class
// that styles a run of them: a league table's top four rows "ucl", its bottom three "rel", the
// rest plain, is one list of 18 teams ("the bottom team"); so is a pick list whose done rows and
// open rows mix, when every row has as many cells. Kinds that interleave and differ stay apart:
// a story row and its subtext row alternate, and "the third story" counts story rows.
func mergeStyledRuns(kinds []string, lists map[string][]int, cells map[int]int) []string {
	var groups []string
	byGroup := map[string][]string{}
	for _, k := range kinds {
		g := itemList(k)
		if _, ok := byGroup[g]; !ok {
			groups = append(groups, g)
		}
		byGroup[g] = append(byGroup[g], k)
	}
	if len(groups) == len(kinds) {
		return kinds
	}
	var out []string
	for _, g := range groups {
		ks := byGroup[g]
		if len(ks) == 1 {
			out = append(out, ks...)
			continue
		}
		// Items are numbered in document order, so sorting the group's items orders the list;
		// each kind one run means as many kind changes as kinds less one.
		kindOf := map[int]string{}
		var all []int
		for _, k := range ks {
			for _, it := range lists[k] {
				kindOf[it] = k
				all = append(all, it)
			}
		}
		slices.Sort(all)
		changes := 0
		for i := 1; i < len(all); i++ {
			if kindOf[all[i]] != kindOf[all[i-1]] {
				changes++
			}
		}
		if changes != len(ks)-1 && !sameCells(all, cells) {
			out = append(out, ks...)
			continue
		}
		lists[g] = all
		out = append(out, g)
	}
	return out
}

// cellsPerItem counts each repeated container's cells (the snapshot leaves most rows out, so
// the cells that say they belong to it): rows of one table that differ only by a status class have as many.
func cellsPerItem(s *Snapshot) map[int]int {
	out := map[int]int{}
	for i := range s.Elements {
		e := &s.Elements[i]
		if e.Item == 0 {
			continue
		}
		switch e.Role {
		case "cell", "gridcell", "columnheader", "rowheader":
			out[e.Item]++
		}
	}
	return out
}

// sameCells reports whether the items all have the same number of cells, at least two.
func sameCells(items []int, cells map[int]int) bool {
	n := cells[items[0]]
	for _, it := range items[1:] {
		if cells[it] != n {
			return false
		}
	}
	return n >= 2
}

// attrSays reports whether an element's class, id or test id says the description word w (a
// stem), a page's alternative for it, or an abbreviation of it ("sal", "desc", "addr").
func attrSays(pe *prepared, w string) bool {
	for _, f := range attrFields {
		for _, t := range pe.toks[f] {
			if t == w || alternative(w, t) || abbreviates(t, w) {
				return true
			}
		}
	}
	return false
}

// abbreviates reports whether t, three letters or more, is a shorter start of word w: "sal" of
// "salari", "act" of "activiti".
func abbreviates(t, w string) bool {
	return len(t) >= 3 && len(t) < len(w) && strings.HasPrefix(w, t)
}

func joinWhy(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// titledBy returns the items whose members include a short plain text that says the item
// noun: a form's repeated blocks are titled "Reference 1", "Reference 2" where no class says
// what they are.
func titledBy(s *Snapshot, ps []prepared, items []int, members map[int][]int, item string) []int {
	if item == "" {
		return nil
	}
	var out []int
	for _, it := range items {
		for _, i := range members[it] {
			e := &s.Elements[i]
			if !e.Interactive && !e.Editable && ps[i].descendants == 0 && utf8.RuneCountInString(e.Name) <= 30 && ownsAny(&ps[i], []string{item}) {
				out = append(out, it)
				break
			}
		}
	}
	return out
}

// dataRows is items without the header rows of a grid whose rows are all alike: "the third
// track" is the third row under the header, not the third row.
func dataRows(s *Snapshot, ps []prepared, items []int, members map[int][]int) []int {
	header := func(it int) bool {
		return slices.ContainsFunc(members[it], func(i int) bool { return isHeaderCell(&s.Elements[i]) || ps[i].gridHeader })
	}
	if !slices.ContainsFunc(items, header) {
		return items
	}
	return slices.DeleteFunc(slices.Clone(items), header)
}

// qualifierWords are the words that say which of the items an ordinal counts: the adjectives
// before its noun and the words of its "of"/"in" phrase ("the first sent campaign", "the
// second showing task"), as said: a status says its word as is, and a stem would take
// "Sends Thu" for "sent".
func qualifierWords(p *Parsed) []string {
	var out []string
	for _, w := range p.Context {
		out = append(out, strings.Fields(w)...)
	}
	return out
}

// qualified narrows items to those that say the qualifier words ("the first sent campaign"
// counts the campaigns whose status says Sent): a member's own words or its context say them
// all. When every item says them, or too few to have an Nth, the words say which list, not
// which items, and items stay as they are.
func qualified(s *Snapshot, ps []prepared, items []int, members map[int][]int, quals []string, want int) []int {
	if len(quals) == 0 {
		return items
	}
	var out []int
	for _, it := range items {
		if itemSays(s, ps, members[it], quals) {
			out = append(out, it)
		}
	}
	if len(out) < want || len(out) == len(items) {
		return items
	}
	return out
}

// itemSays reports whether the visible members of an item say every word of words, each as a
// whole word of some member's own fields or context.
func itemSays(s *Snapshot, ps []prepared, members []int, words []string) bool {
	for _, w := range words {
		said := false
		for _, i := range members {
			if s.Elements[i].Visible && saysWord(&ps[i], w) {
				said = true
				break
			}
		}
		if !said {
			return false
		}
	}
	return true
}

// saysWord reports whether w is a whole word of one of pe's name fields or its context.
func saysWord(pe *prepared, w string) bool {
	if hasWord(pe.norm[ctxField], w) {
		return true
	}
	for _, f := range nameFields {
		if hasWord(pe.norm[f], w) {
			return true
		}
	}
	return false
}

// hasWord reports whether w occurs in s (both lower case) between non-letters.
func hasWord(s, w string) bool {
	for from := 0; from <= len(s)-len(w); {
		k := strings.Index(s[from:], w)
		if k < 0 {
			return false
		}
		k += from
		before, _ := utf8.DecodeLastRuneInString(s[:k])
		after, _ := utf8.DecodeRuneInString(s[k+len(w):])
		if (k == 0 || !isWordRune(before)) && (k+len(w) == len(s) || !isWordRune(after)) {
			return true
		}
		from = k + 1
	}
	return false
}
