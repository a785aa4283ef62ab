package semantic

import (
	"fmt"
	"math"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball"
)

// Scores are sums of a text match (0..1, the dominant term), role agreement, intent fit and
// small penalties. The constants below are the whole tuning surface.
const (
	tieEpsilon   = 0.02 // candidates this close to the top tie
	ordinalBand  = 0.15 // an ordinal counts over candidates this close to the top
	minTextScore = 0.2  // below this a text match is noise
	// acronymScore is a name's match when it abbreviates the description's words.
	acronymScore = 0.8
	// severalFigures is what a container of several figures loses when one value is asked for.
	severalFigures = 0.15
	roleExact      = 0.30
	roleSecondary  = 0.22
	roleNear       = 0.08
	roleMismatch   = -0.25
)

// fieldWeights says how much a match in each element field counts.
type field struct {
	name string
	w    float64
	get  func(*Element) string
}

var fields = []field{
	{"name", 1.0, func(e *Element) string { return e.Name }},
	{"label", 1.0, func(e *Element) string { return e.Label }},
	{"aria-label", 0.98, func(e *Element) string { return e.AriaLabel }},
	{"text", 0.95, func(e *Element) string { return e.Text }},
	{"placeholder", 0.95, func(e *Element) string { return e.Placeholder }},
	{"title", 0.9, func(e *Element) string { return e.Title }},
	{"alt", 0.9, func(e *Element) string { return e.Alt }},
	{"value", 0.6, func(e *Element) string {
		if e.Editable {
			return "" // what someone typed is not what the field is
		}
		return e.Value
	}},
	{"name attribute", 0.75, func(e *Element) string { return splitIdent(e.NameAttr) }},
	{"id attribute", 0.7, func(e *Element) string { return splitIdent(e.IDAttr) }},
	{"test id", 0.7, func(e *Element) string { return splitIdent(e.TestID) }},
	{"class", 0.35, func(e *Element) string { return splitIdent(e.Class) }},
	{"context", 0.3, func(e *Element) string { return e.Context }},
}

// fieldIndex is the index of the field named name in fields.
func fieldIndex(name string) int {
	for i := range fields {
		if fields[i].name == name {
			return i
		}
	}
	panic("semantic: no field " + name)
}

// Indexes of the fields the ranker looks at one by one.
var (
	textField   = fieldIndex("text")
	valueField  = fieldIndex("value")
	idField     = fieldIndex("id attribute")
	classField  = fieldIndex("class")
	testIDField = fieldIndex("test id")
	ctxField    = fieldIndex("context")
	// labelFields label an element from outside its text.
	labelFields = []int{fieldIndex("label"), fieldIndex("aria-label"), fieldIndex("title")}
	// attrFields are the attributes that say what an element is (id, class, test id).
	attrFields = []int{idField, classField, testIDField}
	// nameFields are the fields that name an element itself: all but its value and context.
	nameFields = func() []int {
		var out []int
		for i := range fields {
			if n := fields[i].name; n != "value" && n != "context" {
				out = append(out, i)
			}
		}
		return out
	}()
)

// prepared is an element with its fields normalized and tokenized once per ranking.
type prepared struct {
	el          *Element
	norm        []string   // per field
	toks        [][]string // per field, stemmed
	joined      []string   // per field, the stemmed tokens joined by spaces
	masks       []fieldMask
	price       bool
	priceCond   bool  // with price, its text puts the price in a condition (priceCondition)
	shape       shape // the value shape of its text (valueShape)
	descendants int
	// figures is how many of its descendants are leaves with a digit: a row of tabs or filter
	// chips with their counts holds several, and is no count itself.
	figures    int
	parentRole string
	// headers is, for a row, how many of its cells are column headers less how many are not:
	// above 0, the row is a grid's header row, which says what columns are, no value.
	headers int
	// col is the first part of the element's context, stemmed: a cell's column header, or the
	// label of the group it is in ("Total", "Status"); nil when that part names a table.
	// gridColumns may set it to a grid header's words instead; ctxCol keeps the context's.
	col, ctxCol []string
	// gridHead is 1 + the header above the element's column in a grid of divs (see
	// gridColumns), whose words col then has; 0 for none. gridHeader is true for such a
	// header: it says what a column is, as a columnheader does.
	gridHead   int
	gridHeader bool
	// lead is the text that labels the element inside its parent's text ("Boarding closes"
	// before <span>07:15</span>), normalized, its stemmed tokens and those joined (see leadOf).
	lead       string
	leadToks   []string
	leadJoined string
	// options are a select's options' stemmed tokens, one per line of Element.Options; nil
	// for an element without options.
	options [][]string
}

type prepCache struct {
	once sync.Once
	ps   []prepared
	// ready is set once ps is: a later snapshot may then carry it over (see carriedPrep).
	ready atomic.Bool

	upOnce sync.Once
	items  *itemInfo // see itemMaps

	vocabOnce sync.Once
	vocab     map[string][]string // see pageVocab
}

// prepare returns the snapshot's elements normalized and tokenized, cached for Snap's snapshots.
func prepare(s *Snapshot) []prepared {
	if c := s.prep; c != nil {
		c.once.Do(func() {
			c.ps = carriedPrep(s)
			if c.ps == nil {
				c.ps = prepareNow(s)
			}
			c.ready.Store(true)
		})
		if len(c.ps) == len(s.Elements) {
			return c.ps
		}
	}
	return prepareNow(s)
}

func prepareNow(s *Snapshot) []prepared {
	n, nf := len(s.Elements), len(fields)
	ps := make([]prepared, n)
	// Each distinct value worked out once, and each distinct element's row of them built once
	// (both remembered across snapshots, see normMemo): pages repeat names, contexts and classes
	// a lot, and successive snapshots of a page nearly everything. The slices are shared and
	// only read.
	func() {
		memo := lookupNorms(n)
		defer memo.done() // also on a panic: it holds normMemo's read lock
		for i := range s.Elements {
			e := &s.Elements[i]
			var k rowKey
			r := memo.elementRow(e, &k, nf)
			p := prepared{el: e, norm: r.norm, toks: r.toks, joined: r.joined, masks: r.masks}
			if seg, _, _ := strings.Cut(e.Context, " | "); seg != "" && !strings.HasPrefix(seg, "table") {
				p.col = memo.get(seg, false).toks
				p.ctxCol = p.col
			}
			name, text := k[0], k[textField]
			// isPrice(e.Text) || e.Name != e.Text && isPrice(e.Name), and the value shape of the
			// text or else the name (firstOf: a normalized value is empty or not blank).
			p.price = text != nil && text.isPrice(e.Text) || name != nil && e.Name != e.Text && name.isPrice(e.Name)
			p.priceCond = p.price && text != nil && text.priceCondition(e.Text)
			switch {
			case p.norm[textField] != "":
				p.shape = text.valueShape()
			case p.norm[0] != "":
				p.shape = name.valueShape()
			}
			if e.Options != "" {
				p.options = optionToks(memo, e.Options)
			}
			ps[i] = p
		}
	}()
	for i := range s.Elements {
		ps[i].lead, ps[i].leadToks, ps[i].leadJoined = leadFields(s, i)
	}
	// Included descendants per element, for the "huge container" penalty, and the leaves with a
	// digit among them (a leaf: the element after it is not its child).
	for i := range s.Elements {
		e := &s.Elements[i]
		figure := hasDigit(e.Text) && (i+1 == len(s.Elements) || s.Elements[i+1].Parent != i)
		if pa := s.Elements[i].Parent; pa >= 0 && pa < len(s.Elements) {
			ps[i].parentRole = s.Elements[pa].Role
			switch s.Elements[i].Role {
			case "columnheader":
				ps[pa].headers++
			case "cell", "gridcell", "rowheader":
				ps[pa].headers--
			}
		}
		for a, hops := e.Parent, 0; a >= 0 && a < len(ps) && a < i && hops < 64; a, hops = s.Elements[a].Parent, hops+1 {
			ps[a].descendants++
			if figure {
				ps[a].figures++
			}
		}
	}
	gridColumns(s, ps)
	return ps
}

// Rank scores every element of s against q and returns the candidates best first (eligible ones
// for the intent first). It is the ranker's whole result, for Resolve and for a later model ranker
// that re-ranks the top few.
func Rank(s *Snapshot, q Query) []Candidate {
	p := Parse(q.Description)
	return rank(s, q, &p)
}

type scored struct {
	// Element points into the snapshot: a scored is copied and sorted often, an Element is large.
	Element  *Element
	Score    float64
	Why      string
	text     float64
	eligible bool
	reason   string // why not eligible
	// needAnchor marks a candidate kept for its role alone: relate drops it unless it finds
	// the description's words on an element of the same item.
	needAnchor bool
	// collection marks a heading that names a collection of what is asked for ("Hotels" for
	// "the hotel confirmation number"): the text after it is not a value it labels.
	collection bool
	// byLabel marks a control that has the score of the plain text that names it
	// (handLabelToControl).
	byLabel bool
}

// candidate is c as the API shows it.
func (c *scored) candidate() Candidate {
	return Candidate{Element: *c.Element, Score: c.Score, Why: c.Why}
}

func intentOf(q Query, p *Parsed) Intent {
	if q.Intent != IntentAny {
		return q.Intent
	}
	return p.Intent
}

func rank(s *Snapshot, q Query, p *Parsed) []Candidate {
	sc := rankScored(s, q, p)
	out := make([]Candidate, len(sc))
	for i := range sc {
		out[i] = sc[i].candidate()
	}
	return out
}

func rankScored(s *Snapshot, q Query, p *Parsed) []scored {
	intent := intentOf(q, p)
	if ruleOn("value_words_name_a_field") {
		valueWordsNameAField(p, intent)
	}
	ps := prepare(s)
	if ruleOn("words_in_context") {
		wordsInContext(ps, p)
	}
	if ruleOn("color_said") {
		colorSaid(ps, p)
	}
	if ruleOn("initial_numbers") {
		initialNumbers(ps, p)
	}
	qs := newQueryText(p)
	qs.weigh(ps, s.Title)
	all := scoreAll(ps, p, qs, intent)
	if ruleOn("relate") {
		all = relate(s, ps, p, qs, intent, all)
	}
	if ruleOn("look") {
		lookBonus(all, p)
	}
	all = freshPrior(s, q.Before, intent, all)
	if len(all) == 0 {
		return nil
	}
	// Sort indexes (a scored is large), then lay the result out in that order.
	order := make([]int32, len(all))
	for i := range order {
		order[i] = int32(i)
	}
	sort.SliceStable(order, func(i, j int) bool {
		a, b := &all[order[i]], &all[order[j]]
		if a.eligible != b.eligible {
			return a.eligible
		}
		return a.Score > b.Score
	})
	out := make([]scored, len(all))
	for i, k := range order {
		out[i] = all[k]
	}
	return out
}

// parallelScoreMin is the page size from which scoreAll splits the elements between CPUs: on a
// 2,000-element page scoring is most of a resolution, and a node waits for it.
const parallelScoreMin = 1024

// scoreAll scores every element, in document order (ties keep it). Scoring reads the prepared
// snapshot and the query only, so large pages are scored in chunks at once.
func scoreAll(ps []prepared, p *Parsed, qs *queryText, intent Intent) []scored {
	n := min(runtime.GOMAXPROCS(0), 4)
	if len(ps) < parallelScoreMin {
		n = 1
	}
	return scoreIn(n, ps, p, qs, intent)
}

// scoreIn is scoreAll in n chunks at once.
func scoreIn(n int, ps []prepared, p *Parsed, qs *queryText, intent Intent) []scored {
	chunk := func(lo, hi int) []scored {
		out := make([]scored, 0, (hi-lo)/4)
		for i := lo; i < hi; i++ {
			if c, ok := score(&ps[i], p, qs, intent); ok {
				out = append(out, c)
			}
		}
		return out
	}
	if n < 2 {
		return chunk(0, len(ps))
	}
	parts := make([][]scored, n)
	var wg sync.WaitGroup
	for k := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			parts[k] = chunk(k*len(ps)/n, (k+1)*len(ps)/n)
		}()
	}
	wg.Wait()
	total := 0
	for _, pt := range parts {
		total += len(pt)
	}
	all := make([]scored, 0, total)
	for _, pt := range parts {
		all = append(all, pt...)
	}
	return all
}

// queryText is the description's text side, normalized and tokenized once.
type queryText struct {
	phrases   []string   // quoted phrases, normalized
	phraseTok [][]string // their stemmed tokens
	words     []string   // salient words, stemmed
	ctx       []string   // context words, stemmed
	roleWords []string   // stemmed
	item      string     // stemmed
	// all are the description's words (quoted, salient and role words), stemmed: what an
	// element's whole name must be found in for a "the description names it" match.
	all []string

	// Joined forms, computed once rather than per element.
	phraseTokJoined []string // each phrase's tokens joined by spaces
	wordsJoined     string   // words joined by spaces
	rawWords        string   // the description's words (Parsed.Words) joined by spaces
	roleWordsJoined string   // roleWords joined by spaces

	// head is Parsed.Head stemmed ("" when none or an item noun).
	head string
	// slotWords are the words with a digit (a time, a date, a code) of a description led by a
	// booking verb (see slotChoice).
	slotWords []string
	// rate is the unit of the rate the description asks for ("month" for "the monthly
	// payment", see descRate), "" for none.
	rate string
	// ahead is true when the description asks for a time to come ("how long until", "time
	// left").
	ahead bool
	// span is what a date description asks of a span of days (spanOf).
	span int
	// count is true when the description asks for a count.
	count bool
	// unit is Parsed.CountNoun stemmed: weighed down when other words say which count.
	unit string
	// nonHead are words without head, and joined: what a figure's lead must say when the figure
	// is the head ("Order" for "the order number").
	nonHead       []string
	nonHeadJoined string
	// setWords are Parsed.Object's tokens, joined and their mask: what a control must say to
	// be the one that does a setter verb by its state (see setsObject). Nil for other
	// descriptions.
	setWords  []string
	setJoined string
	setMask   queryMask
	// verb is head when the description is an instruction led by the action the control is
	// named after ("reply to the post about the tiny house", "add the lamb curry").
	verb string
	// plurals are the plural forms of Parsed.Words, nameOf of Parsed.NameOf; nameOfToks are
	// the stemmed words an id or class names an X's name with (NameOf and "title", "name"...).
	plurals, nameOf []plural
	nameOfToks      []string
	// poss are the possessor's words (Parsed.Possessor), nonPoss the other words, stemmed.
	poss, nonPoss []string
	// topic are Parsed.Topic's words, stemmed (see kindWord).
	topic []string

	// What a field needs for match to find rawWords and words, wordsJoined and words, the
	// role words, each phrase (see queryMask).
	wordsMask, joinedMask, roleMask queryMask
	phraseMasks                     []queryMask

	// wordW weighs words in a partial match (see weigh); nil until weighed. allW weighs all's
	// words alike (nil: all count the same).
	wordW, allW []float64
	// nonHeadW weighs nonHead's words as wordW does theirs; nil until weighed.
	nonHeadW []float64
	// acronym is the initials of the words, stemmed, when there are 3 to 5 ("awd" for
	// "all-wheel drive"), and acronymCaps the initials as a name writes them ("AWD"): a name
	// must say them in capitals, or "the three dots on the Allegro parcel" finds a map.
	acronym, acronymCaps string
	// offPage is true when the words are the page's topic, in its title and on no element
	// ("the stock price" on a quote page whose price has no label): the role or value kind
	// alone then picks the element. A word neither says ("the Frobnicate button") still fails.
	offPage bool
	// unsaidCount is true for a count question whose words no element says ("how many
	// results" on a page that never says "results"): a heading that ends in its count
	// ("Women's Running Shoes (37)") answers it.
	unsaidCount bool
	// otherChoices are the choices a menu button may show when the description asks for
	// another one ("schedule for later": a "Pickup now ▾" menu); see otherChoicesOf.
	otherChoices []string
}

// weigh sets how much each description word counts when an element carries only some of them.
// The head noun counts more ("the ticket status" is a status). A word that many elements
// carry, or that the page's title carries, says less about which element is meant: on a
// helpdesk page every other control mentions tickets. Document frequency counts the elements
// whose own name fields (not a container's gathered text) have the word.
func (qt *queryText) weigh(ps []prepared, title string) {
	titleToks := tokens(normalize(title))
	if qt.count && len(qt.words) > 0 && len(qt.phrases) == 0 && len(qt.ctx) == 0 {
		qt.unsaidCount = !slices.ContainsFunc(qt.words, func(w string) bool { return anyCarries(ps, w) })
	}
	if len(qt.words) < 2 {
		qt.offPage = len(qt.words) == 1 && len(qt.phrases) == 0 && contains(titleToks, qt.words[0]) && !anyCarries(ps, qt.words[0])
		return
	}
	qt.wordW = make([]float64, len(qt.words))
	qt.nonHeadW = make([]float64, 0, len(qt.words))
	qt.offPage = len(qt.phrases) == 0
	dfs := carrierCounts(ps, qt.words)
	for i, w := range qt.words {
		df := dfs[i]
		if df > 0 || !contains(titleToks, w) || anyContext(ps, w) {
			qt.offPage = false
		}
		wt := 1 / (1 + weightIDF*math.Log(1+float64(df)))
		switch {
		case df == 0:
			wt = weightNone // a word no element has cannot tell elements apart
		case w == qt.unit:
			// "how many pods are in CrashLoopBackOff": the count is labelled by the state
			// ("CrashLoopBackOff 3"), the pods are what every count of the page counts.
			wt *= weightUnit
		case qt.kindWord(w):
			wt *= weightKindWord
		case w == qt.head:
			wt *= weightHead
		}
		if contains(titleToks, w) {
			wt *= weightTitle
		}
		qt.wordW[i] = wt
		if w != qt.head {
			qt.nonHeadW = append(qt.nonHeadW, wt)
		}
	}
	// all's weights: the words' own, 1 for phrase and role words.
	qt.allW = make([]float64, len(qt.all))
	for k, a := range qt.all {
		qt.allW[k] = 1
		for i, w := range qt.words {
			if w == a {
				qt.allW[k] = qt.wordW[i]
				break
			}
		}
	}
}

// carrierCounts returns for each of words how many elements carry it (carriesWord), in one
// pass over the elements' tokens.
func carrierCounts(ps []prepared, words []string) []int {
	alts := altsOf(words, nil)
	df := make([]int, len(words))
	found := make([]bool, len(words))
	for k := range ps {
		pe := &ps[k]
		clear(found)
		left := len(words)
	fieldLoop:
		for _, f := range nameFields {
			if !ownField(pe, f) {
				continue
			}
			for _, b := range pe.toks[f] {
				for i, w := range words {
					if !found[i] && wordLike(w, alts[i], b) {
						found[i] = true
						df[i]++
						if left--; left == 0 {
							break fieldLoop
						}
					}
				}
			}
		}
	}
	return df
}

func anyCarries(ps []prepared, w string) bool {
	alts := altsFor(w)
	for k := range ps {
		if carriesWord(&ps[k], w, alts) {
			return true
		}
	}
	return anyContext(ps, w)
}

func anyContext(ps []prepared, w string) bool {
	for k := range ps {
		if contains(ps[k].toks[ctxField], w) {
			return true
		}
	}
	return false
}

// carriesWord reports whether an element's own naming fields have word w; alts is altsFor(w).
func carriesWord(pe *prepared, w string, alts []string) bool {
	for _, f := range nameFields {
		if !ownField(pe, f) {
			continue
		}
		for _, b := range pe.toks[f] {
			if wordLike(w, alts, b) {
				return true
			}
		}
	}
	return false
}

// ownField reports whether field f of an element names it itself, not a container's gathered
// text or the context.
func ownField(pe *prepared, f int) bool {
	return !(f == textField && pe.descendants > 0 || f == ctxField)
}

// wordLike reports whether value token b stands for description token a in a partial match;
// alts is altsFor(a).
func wordLike(a string, alts []string, b string) bool {
	return a == b || isAlt(alts, b) || len(a) >= 4 && len(b) >= 4 && a[0] == b[0] && (strings.HasPrefix(b, a) || strings.HasPrefix(a, b))
}

// Word weights (weigh): the document-frequency damping, the weight of a word no element has,
// the head noun's boost and a title word's discount.
const (
	weightIDF   = 0.35
	weightNone  = 0.5
	weightHead  = 1.25
	weightTitle = 0.6
	weightUnit  = 0.25
)

func contains(toks []string, t string) bool {
	for _, x := range toks {
		if x == t {
			return true
		}
	}
	return false
}

// descWords is the description's salient words as compared tokens (stemmed; a word may make
// several: "e-mail" -> "e", "mail").
func descWords(p *Parsed) []string {
	var out []string
	for _, w := range p.Words {
		out = append(out, tokens(w)...)
	}
	return out
}

// indexByID maps each candidate's element id to its index in all.
func indexByID(all []scored) map[int]int {
	m := make(map[int]int, len(all))
	for i := range all {
		m[all[i].Element.ID] = i
	}
	return m
}

func newQueryText(p *Parsed) *queryText {
	qt := &queryText{}
	for _, q := range p.Quoted {
		n := normalize(q)
		qt.phrases = append(qt.phrases, n)
		qt.phraseTok = append(qt.phraseTok, tokens(n))
	}
	qt.words = descWords(p)
	for _, w := range p.Context {
		qt.ctx = append(qt.ctx, tokens(w)...)
	}
	if p.Item != "" {
		qt.item = stem(p.Item)
	}
	for _, w := range p.RoleWords {
		qt.roleWords = append(qt.roleWords, tokens(w)...)
	}
	for _, t := range qt.phraseTok {
		qt.phraseTokJoined = append(qt.phraseTokJoined, strings.Join(t, " "))
	}
	qt.count = p.Kind == "count"
	qt.ahead = slices.ContainsFunc(p.Words, func(w string) bool { return aheadWords[w] })
	qt.span = spanOf(p)
	if t := tokens(p.CountNoun); len(t) == 1 {
		qt.unit = t[0]
	}
	if t := tokens(p.Head); len(t) == 1 && !itemWords[p.Head] {
		qt.head = t[0]
		if verbHeads[p.Head] && p.First == p.Head && len(p.Words) > 0 && len(strings.Fields(p.Whole)) > 2 {
			qt.verb = qt.head
		}
	}
	if slotVerbs[qt.verb] {
		for _, w := range qt.words {
			if hasDigit(w) {
				qt.slotWords = append(qt.slotWords, w) // "book the 8:45 slot": see slotChoice
			}
		}
	}
	qt.plurals = pluralsOf(p.Words)
	qt.rate = descRate(rawWords(firstOf(p.Whole, strings.Join(p.Words, " "))))
	if len(p.NameOf) > 0 {
		qt.nameOf = pluralsOf(p.NameOf)
		for _, w := range append(append([]string(nil), p.NameOf...), "title", "name", "subject", "headline") {
			qt.nameOfToks = append(qt.nameOfToks, stem(w))
		}
	}
	for _, w := range p.Possessor {
		qt.poss = append(qt.poss, tokens(w)...)
	}
	for _, w := range p.Topic {
		qt.topic = append(qt.topic, tokens(w)...)
	}
	if len(qt.poss) > 0 {
		for _, w := range qt.words {
			if !contains(qt.poss, w) {
				qt.nonPoss = append(qt.nonPoss, w)
			}
		}
	}
	for _, w := range qt.words {
		if w != qt.head {
			qt.nonHead = append(qt.nonHead, w)
		}
	}
	qt.nonHeadJoined = strings.Join(qt.nonHead, " ")
	if t := tokens(p.Object); len(t) > 0 {
		qt.setWords, qt.setJoined = t, strings.Join(t, " ")
		qt.setMask = newQueryMask(qt.setJoined, qt.setWords)
	}
	if n := len(qt.words); n >= 3 && n <= 5 && len(qt.phrases) == 0 {
		var b strings.Builder
		for _, w := range qt.words {
			if w[0] < 'a' || w[0] > 'z' {
				b.Reset()
				break
			}
			b.WriteByte(w[0])
		}
		if b.Len() == n {
			qt.acronym, qt.acronymCaps = stem(b.String()), strings.ToUpper(b.String())
		}
	}
	if caps := ofAcronym(p.Whole); caps != "" {
		qt.acronym, qt.acronymCaps = stem(strings.ToLower(caps)), caps // see ofAcronym
	}
	qt.otherChoices = otherChoicesOf(qt.words)
	qt.wordsJoined = strings.Join(qt.words, " ")
	qt.rawWords = strings.Join(p.Words, " ")
	qt.roleWordsJoined = strings.Join(qt.roleWords, " ")
	qt.wordsMask = newQueryMask(qt.rawWords, qt.words)
	qt.joinedMask = newQueryMask(qt.wordsJoined, qt.words)
	qt.roleMask = newQueryMask(qt.roleWordsJoined, qt.roleWords)
	for i := range qt.phrases {
		qt.phraseMasks = append(qt.phraseMasks, newQueryMask(qt.phrases[i], qt.phraseTok[i]))
	}
	for _, ph := range qt.phraseTok {
		qt.all = append(qt.all, ph...)
	}
	qt.all = append(append(qt.all, qt.words...), qt.roleWords...)
	return qt
}

// score rates one element; ok is false when it has nothing to do with the description.
func score(pe *prepared, p *Parsed, qt *queryText, intent Intent) (scored, bool) {
	e := pe.el
	var why []string
	textScore := 0.0
	hasText := len(qt.phrases) > 0 || len(qt.words) > 0

	if len(qt.phrases) > 0 {
		// Each quoted phrase must match; the weakest counts.
		ph := 1.0
		for i := range qt.phrases {
			s, f, how := bestField(pe, qt.phrases[i], qt.phraseTok[i], qt.phraseTokJoined[i], true, qt.phraseMasks[i])
			if s < ph {
				ph = s
			}
			if s > 0 {
				why = append(why, fields[f].name+" "+how+" "+strconv.Quote(qt.phrases[i]))
			}
		}
		textScore = ph
		if len(qt.words) > 0 && ph > 0 {
			ws, _, _ := bestField(pe, qt.wordsJoined, qt.words, qt.wordsJoined, false, qt.joinedMask)
			textScore = 0.85*ph + 0.15*ws
		}
	} else if len(qt.words) > 0 {
		s, f, how := bestFieldW(pe, qt.rawWords, qt.words, qt.wordW, qt.wordsJoined, false, qt.wordsMask)
		textScore = s
		if s > 0 {
			why = append(why, fields[f].name+" "+how+" "+strconv.Quote(qt.rawWords))
		}
	}
	// "change the category of the taxi ride": the select named Category changes it by its value;
	// the ride's other words are on its row.
	if setsObject(pe, p, qt) {
		if s, f, how := bestFieldW(pe, qt.setJoined, qt.setWords, nil, qt.setJoined, false, qt.setMask); s > textScore {
			textScore = s
			why = append(why, fields[f].name+" "+how+" "+strconv.Quote(qt.setJoined)+", which the verb sets")
		}
	}
	// A value led by its label in running text ("Boarding closes 07:15").
	if pe.lead != "" && len(qt.words) > 0 {
		ls, how := match(qt.rawWords, qt.words, qt.wordW, qt.wordsJoined, pe.lead, pe.leadToks, pe.leadJoined, false)
		// "Order #W-88412-0375" for "the order number": the figure is the number, the lead
		// says which. So of a value whose shape is the head's kind: "The term begins on ...
		// and ends on <span>June 30, 2026</span>" for "the lease end date", weighing the words
		// as the page does ("end" tells the lease's end date from its start, "lease" is on
		// every line).
		figure := p.Kind == "figure" && strings.ContainsAny(e.Text, "0123456789")
		shaped := kindWords[p.Head] == p.Kind && kindShapes[p.Kind] != 0 && pe.shape&kindShapes[p.Kind] != 0
		if (figure || shaped) && qt.head != "" && len(qt.words) > 1 {
			var w []float64
			if shaped {
				w = qt.nonHeadW
			}
			if rest := qt.nonHead; len(rest) > 0 {
				if rs, rhow := match(qt.nonHeadJoined, rest, w, qt.nonHeadJoined, pe.lead, pe.leadToks, pe.leadJoined, false); 0.9*rs > ls {
					ls, how = 0.9*rs, rhow
				}
			}
		}
		if ls*leadWeight > textScore {
			textScore = ls * leadWeight
			why = append(why, "led by a label that "+how+" "+strconv.Quote(qt.rawWords))
		}
	}
	// An element named exactly what the description says ("Zoom in" beside "Zoom out").
	namedWhole := false
	if p.Whole != "" {
		for _, f := range containedFields {
			v := strings.TrimRight(pe.norm[f], "?!.: ") // "What is a security code?" is named by the question
			if (v == p.Whole || v == p.WholeNoRole || p.Said != "" && v == p.Said) && fields[f].w >= textScore {
				textScore, namedWhole = fields[f].w, true
				why = append(why, fields[f].name+" is the whole description")
				break
			}
		}
		// The description word for word inside the name ("comment on line 42" in "Add a
		// comment on line 42"): as good as the salient words in a row.
		if strings.IndexByte(p.Whole, ' ') > 0 {
			for _, f := range containedFields {
				v := pe.norm[f]
				if len(v) <= len(p.Whole) || !containsWords(v, p.Whole) {
					continue
				}
				cov := float64(len(p.Whole)) / float64(len(v))
				if s := (0.68 + 0.2*cov) * fields[f].w; s > textScore {
					textScore = s
					why = append(why, fields[f].name+" contains the whole description")
				}
				break
			}
		}
	}
	// The description may name the element with more words than its name has ("Subscribe to
	// the channel" for a "Subscribe" button, "Sign in with a passkey" beside "Sign in").
	if hasText {
		if r, f := contained(pe, qt.all, qt.allW); r > textScore {
			textScore = r
			why = append(why, fmt.Sprintf("%s named in the description", fields[f].name))
		}
	}
	// "all-wheel drive" for a check box labelled "AWD/4WD": the name abbreviates the words.
	if qt.acronym != "" && textScore < acronymScore && contains(pe.toks[0], qt.acronym) && strings.Contains(e.Name, qt.acronymCaps) {
		textScore = acronymScore
		why = append(why, "name abbreviates the description")
	}
	if pe.options != nil && textScore < optionWeight && optionsCount(p, qt, intent) {
		if s, o := optionMatch(pe, qt); s > textScore {
			textScore = s
			why = append(why, "can be set to "+strconv.Quote(o))
		}
	}
	if len(qt.otherChoices) > 0 && textScore < menuChoiceScore && showsOtherChoice(pe, qt.otherChoices) {
		textScore = menuChoiceScore
		why = append(why, "a menu showing the choice the description turns from")
	}
	if hasText && textScore < minTextScore {
		textScore = 0
	}
	// "the search field" on a page in another language: a search box says "search" by its role.
	if textScore == 0 && len(qt.words) == 1 && qt.words[0] == "search" && len(qt.phrases) == 0 && (e.Role == "searchbox" || e.InputType == "search") {
		textScore = 0.8
		why = append(why, "a search box")
	}
	// "reply to the post about the tiny house" is a Reply button: what lacks the action is
	// at best the thing acted on (the post, the composer's Post button).
	// So is what says the verb only as done ("Saved address", "Deleted files" for "save the
	// recipient", "delete the selected files"): a state, or the things it was done to.
	slot := textScore > 0 && intent != IntentRead && slotChoice(pe, qt)
	if qt.verb != "" && intent != IntentRead && textScore > 0 && (!ownsLike(pe, qt.verb) || saysDone(pe.norm[0], p.Head)) && !setsObject(pe, p, qt) && !slot {
		textScore *= 0.6
		why = append(why, "lacks the action")
	}
	// "list the published posts": the Published filter, not a row's Publish button. (A
	// caption that says the action, "Generate password", may label the value asked for.)
	if len(p.States) > 0 && textScore > 0 && e.Interactive && namesStateAction(pe.norm[0], p.States) {
		textScore *= stateActionFactor
		why = append(why, "names the action, not the state")
	}

	// "where do I mention my allergy": prose goes in a multi-line box, whatever its label.
	freeTyped := p.FreeText && intent == IntentType
	if freeTyped {
		textScore = freeTextText(e, textScore, &why)
	}

	total := textScore
	if freeTyped && textScore > 0 {
		total += freeTextFit(pe, &why)
	}
	// "send the meter reading" is the form's Send button, not the "Submit it below" link that
	// jumps to the form: a link to a part of the page goes there, it does not act, unless it
	// says the very verb ("Chat with us" opens the chat).
	// Nor does it choose: "pick anaphase for question 3" is the question's answer select, not
	// the "3" that scrolls to the question.
	if (qt.verb != "" && !placeVerbs[p.Head] && !contains(pe.toks[0], qt.verb) || choosingVerbs[p.Verb]) && intent != IntentRead && textScore > 0 && e.Role == "link" && len(e.Href) > 1 && e.Href[0] == '#' {
		total -= 0.15
		why = append(why, "jumps to a part of the page")
	}
	// Description words the element lacks but its setting carries ("the billing zip code": the
	// ZIP code field under Billing address) tell look-alikes apart.
	if textScore > 0 && len(qt.words) >= 2 {
		if c := contextShare(pe, qt.words); c > 0 {
			total += contextWordBonus * c
			why = append(why, "the other words in its context")
		}
	}
	// "select the row for Daniel Kim": the control named after the instruction's verb.
	// The more of the object it names too, the likelier it is the one ("Delete selected" over
	// a file's Delete for "delete the selected files").
	if namedForAction(pe, p, qt) {
		total += 0.1 + 0.1*ownedShare(pe, qt.nonHead)
		why = append(why, "named for the action")
	}
	if slot {
		total += slotChoiceBonus
		why = append(why, "the option the verb takes")
	}
	// "choose Mean": a choice's radio button or option, not the lesson link that starts with
	// the word.
	if choosingVerbs[p.Verb] && textScore > 0 && choiceRoles[e.Role] && e.Interactive {
		total += 0.1
		why = append(why, "a choice")
	}
	// Words spread over the element's own fields ("the Athens deal": "Athens from €71" with the
	// id deal-ath) beat the same words split between an element and its neighbours.
	if textScore > 0 && len(qt.words) >= 2 && pe.descendants <= 1 && ownsAll(pe, qt.words) && !oneFieldHasAll(pe, qt.words) {
		total += ownWordsBonus
		why = append(why, "every word its own")
	}
	attrHit := false
	for k, v := range p.Attrs {
		if a := attrScore(e, k, v); a > 0 {
			total += 0.6 * a
			attrHit = true
			why = append(why, k+" "+strconv.Quote(v))
		} else {
			total -= 0.2
		}
	}

	// Role agreement.
	roleScore := 0.0
	roleOK := false
	if len(p.Roles) > 0 {
		roleScore = roleMismatch
		for i, r := range p.Roles {
			if roleMatches(e, r) {
				roleOK = true
				if i == 0 {
					roleScore = roleExact
				} else {
					roleScore = roleSecondary
				}
				why = append(why, "role "+e.Role)
				break
			}
		}
		if !roleOK && (roleNearly(e, p.Roles[0]) || p.Roles[0] == "heading" && pe.parentRole == "heading") {
			roleScore = roleNear
			roleOK = true
			why = append(why, "acts as "+p.Roles[0])
		}
		if roleOK && notTheToggle(pe, qt) {
			roleScore, roleOK = roleMismatch, false
			why = append(why, "a button, not the toggle")
		}
		// A role word may also be the name ("the Menu button", a logo whose alt says "logo").
		if len(qt.roleWords) > 0 {
			if s, _, _ := bestField(pe, qt.roleWordsJoined, qt.roleWords, qt.roleWordsJoined, false, qt.roleMask); s > 0 {
				total += 0.25 * s
				why = append(why, "named like the role word")
			}
		}
		// "the main heading": the higher the level, the more it is the page's heading.
		if p.Roles[0] == "heading" && !hasText && len(e.Tag) == 2 && e.Tag[0] == 'h' && e.Tag[1] >= '1' && e.Tag[1] <= '3' {
			total += []float64{0.1, 0.06, 0.03}[e.Tag[1]-'1']
		}
	}
	total += roleScore
	// Something must tie the element to the description. An element of the asked-for role (or
	// value kind) with none of the words may still be the target of an item whose other element
	// carries them ("the checkbox for Book dentist", "the price of the JBL headphones"): it
	// stays only if relate finds such an anchor. (Decided here, before the rest of the scoring
	// is spent on an element that does not stay: most of a large page.)
	needAnchor := false
	if hasText && textScore == 0 && !attrHit {
		switch {
		case pe.shape&kindShapes[p.Kind] != 0:
			// A value of the asked-for shape is a candidate of its own ("the percent change"
			// on a quote page with one percentage); words on an anchor beside it raise it.
		case len(p.NameOf) > 0 && e.Role == "heading" && intent != IntentType && intent != IntentClick:
			// "the article headline": the page's headings are candidates without the word.
		case roleScore == roleExact || p.Kind == "price" && (pe.price || pe.shape&shapeNumber != 0), roleOK && qt.onlyWhose():
			// The words say whose it is ("the requester's message"): the target says none.
			needAnchor = !qt.offPage
		case (e.Role == "cell" || e.Role == "gridcell" || pe.gridHead > 0) && columnSays(pe, qt.words):
			// "the data retention for Growth": the cell under Growth in the Data retention row.
			needAnchor = true
		case namedForAction(pe, p, qt):
			// "hide the 2.4 GHz network": the Hide SSID check box in that network's section;
			// "select the shipment with PO-31260" the Select box of that row.
			needAnchor = true
		case qt.unsaidCount && e.Role == "heading" && countedHeadingRe.MatchString(e.Text):
			// "how many results": the listing's heading says how many it holds, as well as
			// a line that says "results" would.
			total += countedHeadingScore
			why = append(why, "a heading that says how many it holds")
		case qt.head != "" && (attrHas(pe, qt.head) || plainField(e, pe, qt.head) || p.Question && attrAbbreviates(pe, qt.head)):
			// "the delivery status of the kettle": class="status" says what it is; the
			// kettle is on an element beside it.
			needAnchor = true
		default:
			return scored{}, false
		}
	}

	// Value shape.
	kind, fits := kindFit(pe, p, qt, intent, &why)
	if intent == IntentType && e.Editable {
		kind, fits = typedKind(kind, fits)
	}
	total += kind
	if r, w := rateFit(pe, qt.rate); r > 0 {
		total += r
		why = append(why, w)
	}
	roleOK = roleOK || fits

	// "Ike's message": a message says something in words; a count badge or a time beside the
	// name is none.
	if contains(qt.roleWords, stemMessage) {
		if pen, w := notAMessage(pe); pen > 0 {
			total -= pen
			why = append(why, w)
		}
	}
	// "the cart icon", "the trash icon": an icon shows a symbol, not words. So does a button or
	// link that shows none, named only by its aria-label, tooltip or icon font ("the gear
	// icon" is the bare button labelled "Class settings", not the Settings link).
	if contains(qt.roleWords, "icon") {
		if strings.TrimSpace(e.Text) != "" && !strings.ContainsFunc(e.Text, unicode.IsLetter) || e.Tag == "svg" || e.Tag == "img" ||
			e.Interactive && (e.Role == "button" || e.Role == "link") && strings.TrimSpace(e.Text) == "" && pe.descendants == 0 {
			total += 0.15
			why = append(why, "an icon")
		}
	}
	// "the duration of In a Sentimental Mood": a column's header is not a value in it.
	if (e.Role == "columnheader" || pe.parentRole == "columnheader" || pe.gridHeader || e.Role == "row" && pe.headers > 0) && intent != IntentClick && len(p.Roles) == 0 && (len(qt.ctx) > 0 || !ownsAll(pe, qt.words)) {
		total -= 0.2
		why = append(why, "a column header, not a value")
	}

	// "+ Add activity", "+ New ticket", "Search tickets" make or find one: they are not one
	// ("the teamLab activity"), unless the description says that action.
	if len(qt.words) > 0 && e.Interactive && (p.Thing || intent == IntentRead) {
		if namesAction(pe.norm[0], qt.all, intent == IntentRead) {
			// Reading "the tracking number" does not read "Copy tracking number".
			total -= 0.15
			why = append(why, "makes or finds one, is not one")
		}
	}

	// "[ 17 bids ]", "12 Branches": a count of the things, not the thing ("the current bid").
	if p.Kind != "count" && (len(p.Roles) == 0 || !roleOK) {
		for _, pl := range qt.plurals {
			if pl.counted(pe.norm[0]) {
				total -= 0.2
				why = append(why, "counts "+pl.s)
				break
			}
		}
	}

	// "the requester's message": the line that names the requester is not the message.
	if len(qt.poss) > 0 && textScore > 0 && (saysAny(pe, qt.poss) || ownsAny(pe, qt.poss) && !(len(p.Roles) > 0 && roleOK)) && !ownsLikeAny(pe, qt.nonPoss) {
		total -= possessorPenalty
		if roleOK && qt.onlyWhose() {
			// Every word says whose ("the requester's message"): a line of the role asked
			// for that says them is the possessor's name, the target a line beside it.
			total -= 2 * possessorPenalty
		}
		why = append(why, "the possessor, not what is theirs")
	}

	// "the flight confirmation code" is not the "Flights" section heading, and "open the water
	// damage claim" is not the "Claims" link.
	collection := false
	if pl, ok := namedCollection(pe, p, qt, textScore); ok {
		total -= collectionPenalty
		collection = e.Role == "heading"
		why = append(why, "names "+pl.s+", not one "+pl.one)
	}
	if len(p.NameOf) > 0 && intent != IntentType && intent != IntentClick {
		if s, why1 := nameOfScore(pe, qt, intent); s != 0 {
			total += s
			why = append(why, why1)
		}
	}

	// The item an ordinal counts over ("the price of the third product") often names the items'
	// heading or section.
	if qt.item != "" && (contains(pe.toks[ctxField], qt.item) || contains(pe.toks[0], qt.item)) {
		total += 0.15
	}

	// Context words ("in the cart summary").
	if len(qt.ctx) > 0 {
		ctxScore := overlap(qt.ctx, pe.toks[ctxField])
		// "search within the board": the box named Search board is in it by its own name.
		if own := overlap(qt.ctx, pe.toks[0]); own > ctxScore {
			ctxScore = own
		}
		total += 0.3 * ctxScore
		if ctxScore > 0 {
			why = append(why, "in "+strconv.Quote(e.Context))
		}
	}

	// "the description" on an issue form is the field named Description: a control named by
	// the role word alone is a candidate although it is no paragraph.
	if !hasText && !roleOK && namedWhole && e.Interactive && intent != IntentRead {
		roleOK = true
	}
	if !hasText && !attrHit && !roleOK && len(qt.ctx) == 0 {
		return scored{}, false
	}
	if !hasText && !attrHit && !roleOK && len(qt.ctx) > 0 {
		return scored{}, false
	}

	// "this playlist" is the page's own: a navigation entry names another one.
	if p.This && intent == IntentRead && inNavigation(e) {
		total -= thisNotNav
		why = append(why, "in the navigation, not this one")
	}

	// Intent fit.
	eligible := true
	reason := ""
	total += intentFit(e, intent)
	if intent == IntentClick || intent == IntentType {
		if !e.Visible {
			eligible, reason = false, "hidden"
		} else if !e.Enabled {
			eligible, reason = false, "disabled"
		} else if e.Covered {
			total -= 0.3
			why = append(why, "behind a modal")
		}
	} else {
		if !e.Visible {
			total -= 0.3
			why = append(why, "hidden")
		}
		if e.Covered {
			total -= 0.1
		}
	}
	if len(p.Roles) > 0 && (p.Roles[0] == "alert" || p.Roles[0] == "dialog") && (e.Role == "alert" || e.Role == "status" || e.Role == "dialog") {
		total += 0.1
	}

	// Prefer the most specific element: a container whose text merely contains the words loses a
	// little per included descendant (log-scaled).
	if pe.descendants > 0 {
		total -= math.Min(0.12, 0.025*math.Log2(1+float64(pe.descendants)))
	}
	if e.Interactive {
		why = append(why, "interactive")
	}
	if e.Editable && intent == IntentType {
		why = append(why, "editable")
	}
	return scored{
		Element: e, Score: round3(total), Why: strings.Join(why, "; "),
		text: textScore, eligible: eligible, reason: reason, needAnchor: needAnchor, collection: collection,
	}, true
}

// kindFit is what an element gains or loses as a value of the kind asked for (a price, a date,
// a count, a figure) and whether it is one (it fits as a role would); why, unless nil, gets the
// reasons. A label's value is handed on its label's score with the label's fit swapped for its
// own (labelValues).
func kindFit(pe *prepared, p *Parsed, qt *queryText, intent Intent, why *[]string) (d float64, fits bool) {
	if p.Kind == "" {
		return 0, false
	}
	say := func(w string) {
		if why != nil {
			*why = append(*why, w)
		}
	}
	e := pe.el
	if p.Kind == "price" {
		if pe.price {
			d += valueBonus(pe, 0.45, 0.35, 0.2)
			fits = true
			say("a price")
			if pe.priceCond {
				// "Free delivery on orders over £40": the price is a threshold, not delivery's.
				d -= 0.3
				say("a price in a condition")
			}
		} else if t := pe.toks[textField]; len(t) == 1 && t[0] == stemFree {
			// "Shipping: Free", "Versand: kostenlos": the price of something that costs nothing.
			d += valueBonus(pe, 0.45, 0.35, 0.2)
			fits = true
			say("free, a price of nothing")
		} else if atRate(pe, qt.rate) {
			// "24.50p per kWh" for "the price per kWh": a rate is a price per unit, in
			// whatever coin the page writes it.
			d += valueBonus(pe, 0.45, 0.35, 0.2)
			fits = true
			say("a price per " + qt.rate)
		} else if pe.shape&shapeNumber != 0 && strings.ContainsAny(e.Text, ".,") && !signed(e.Text) {
			// "912.40" on a quote page: a figure with decimals, the currency said elsewhere.
			d += 0.25
			fits = true
			say("a figure like a price")
		} else {
			d -= 0.2
		}
	}

	if ks := kindShapes[p.Kind]; ks != 0 {
		if p.Kind == "time" && p.KindStrict && pe.shape&shapeClock != 0 && ampmRe.MatchString(pe.norm[textField]) {
			// "how long is the flight": "9:40 AM – 6:19 PM" says when, not how long.
			d -= 0.55
		} else if p.Kind == "time" && qt.ahead && contains(pe.toks[textField], "ago") {
			// "how long until the auction ends": a time to come, not "2 min ago".
			d -= 0.3
			say("a time past")
		} else if pe.shape&ks != 0 {
			b := valueBonus(pe, 0.35, 0.25, 0.1)
			if p.Kind == "date" && pe.shape&shapeDate == 0 && (contains(qt.words, stemDate) || contains(qt.words, stemDay)) {
				b *= 0.7 // a clock time stands for a date less well than a day does
			}
			if p.Kind == "date" {
				b = spanBonus(pe, qt.span, b, 0.35)
			}
			d += b
			fits = true
			say(kindPhrase(p.Kind))
		} else if p.KindStrict {
			d -= 0.55 // "how long is the appointment" is answered by a duration only
		} else {
			d -= 0.15
		}
	}

	if p.Kind == "count" {
		switch t := firstOf(e.Text, e.Name); {
		case !strings.ContainsAny(e.Name+e.Text, "0123456789"):
			// A count is a figure: "People with access" over a list of members answers no
			// "how many people", whatever anchor beside it says the rest.
			d -= 0.6
		case len(t) <= 24 && isPrice(t):
			d -= 0.3 // "how many adult tickets": a price is not a count
		case pe.figures > 1:
			d -= 0.6 // "New 112 Ready to ship 34 Shipped 1,208": the tabs, not a count
			say("holds several figures")
		case pe.shape&shapeNumber != 0:
			d += 0.25 // "5", not "Checked out (5)" around it
			say("a number")
		case pe.shape != 0:
			d += 0.1 // "Westside Cars · 33 mi" is a distance
			say("a figure of another kind")
		case len(t) > 60 || !hasFigureWord(t):
			// A form or a long text with a figure somewhere in it is no count, nor is a
			// digit inside a word ("IPv4", "Q3").
			d -= 0.2
		default:
			d += 0.2
			say("a number")
		}
	}
	// "how much more can I send today": of "Daily limit: $10,000.00 · Remaining today:
	// $7,500.00", the figure its label leads, not the line of figures (a value of any kind is
	// one figure; counts have their own rule above).
	if p.Kind != "" && p.Kind != "count" && pe.figures > 1 {
		d -= severalFigures
		say("holds several figures")
	}
	// "the order total", "the humidity": a figure is read from an element that has one.
	if p.Kind == "figure" && intent == IntentRead {
		if strings.ContainsAny(e.Name+e.Text, "0123456789") {
			d += 0.15
			say("a figure")
		} else {
			d -= 0.1
		}
	}
	return d, fits
}

// aheadWords ask for a time to come.
var aheadWords = map[string]bool{"until": true, "till": true, "left": true, "remaining": true, "ends": true, "starts": true}

// thisNotNav is what an element of the navigation loses when the description says "this X".
const thisNotNav = 0.3

// inNavigation reports whether e's context says it is in a navigation landmark.
func inNavigation(e *Element) bool {
	for _, part := range strings.Split(e.Context, " | ") {
		if k, _, _ := strings.Cut(part, " "); k == "navigation" {
			return true
		}
	}
	return false
}

// countedHeadingScore is what a heading that ends in a count scores for an unsaid count, in place
// of a word match.
const countedHeadingScore = 0.45

// countedHeadingRe is a heading that ends in the count of what is under it: "Running shoes (37)".
var countedHeadingRe = regexp.MustCompile(`\S\s*\(\d[\d,.]*\)\s*$`)

// hasFigureWord reports whether s has a word that starts with a digit: "12 records", not "IPv4".
func hasFigureWord(s string) bool {
	for i := 0; i < len(s); i++ {
		if isDigitByte(s[i]) && (i == 0 || !isWordByte(s[i-1])) {
			return true
		}
	}
	return false
}

// intentFit is what an element gains or loses for what is to be done with it: a click wants a
// control (a label's control is the better target), typing a field, reading a plain text or an
// alert.
func intentFit(e *Element, intent Intent) float64 {
	switch intent {
	case IntentClick:
		f := -0.2
		if e.Interactive {
			f = 0.15
		}
		if e.Role == "label" {
			f -= 0.05
		}
		return f
	case IntentType:
		switch {
		case e.Editable:
			return 0.3
		case e.Role == "combobox" || e.Role == "listbox":
			return 0.05
		}
		return -0.4
	case IntentRead:
		switch {
		case e.Role == "alert" || e.Role == "status":
			return 0.25
		case !e.Interactive:
			return 0.1
		case e.Role == "label":
			return -0.1 // a field's label says what the field holds; the field says it
		}
		return -0.05
	}
	if e.Interactive {
		if e.Role == "label" {
			return 0 // "registration number": the field, which its label only points to
		}
		return 0.05
	}
	return 0
}

// columnSays reports whether a cell's column header has one of words (see columnHas).
func columnSays(pe *prepared, words []string) bool {
	for _, w := range words {
		if columnHas(pe, w) {
			return true
		}
	}
	return false
}

// columnHas reports whether a cell's column header has word w or a word that stands for it:
// "the Uber charge" is the cell under Amount.
func columnHas(pe *prepared, w string) bool {
	alts := altsFor(w)
	for _, c := range pe.col {
		if wordLike(w, alts, c) {
			return true
		}
	}
	return false
}

// namingVerbs are instruction verbs that controls are named after ("Select Daniel Kim", "Clear
// dates", "Follow", "Open locker remotely"), unlike "click" or "press".
var namingVerbs = map[string]bool{"select": true, "check": true, "uncheck": true, "tick": true, "untick": true,
	"toggle": true, "follow": true, "choose": true, "clear": true, "copy": true, "open": true}

// priceAsCondition finds a price a sentence compares with ("Free delivery on orders over £40",
// "save 10% when you spend more than $100", "Bags are cheaper now than at the airport (€60)"),
// not one it states ("Plans from $9" is a plan's).
var priceAsCondition = regexp.MustCompile(`(?i)\bthan\b[^.$€£¥]{0,30}?\(?[$€£¥]\s?\d|\b(?:over|above|under|below|up to|at least)\s*(?:the\s+\w+\s*)?\(?[$€£¥]\s?\d|\b(?:over|above|under|below|than|up to|at least)\s+\d[\d.,]*\s?(?:€|zł|kr|EUR|USD|GBP)`)

// notAMessage is what a text loses, and why, as the answer to "Ike's message": one that says
// nothing (no letters: the unread count beside a name in a list of conversations) or only when
// (a time or a date). 0 for a text that may be a message.
func notAMessage(pe *prepared) (float64, string) {
	switch t := firstOf(pe.el.Text, pe.el.Name); {
	case !hasLetter(t):
		return 0.6, "no words of a message"
	case pe.shape&(shapeTime|shapeDate) != 0 && len(strings.Fields(t)) <= 4:
		return 0.3, "when, not what was said"
	}
	return 0, ""
}

// onlyWhose reports whether every word of the description says whose the target is ("the
// requester's message"): the target itself then says none of them.
func (qt *queryText) onlyWhose() bool {
	return len(qt.poss) > 0 && len(qt.words) > 0 && len(qt.nonPoss) == 0
}

// The stems of "date", "day" and "message": the first two ask for a day rather than a clock
// time, the last for what someone wrote.
var stemDate, stemDay, stemMessage, stemFree = stem("date"), stem("day"), stem("message"), stem("free")

// leadWeight is what a match on a value's leading label counts, like a label field's.
const leadWeight = 0.95

// leadFields is leadOf normalized, its stemmed tokens and those joined ("" and nil for none).
func leadFields(s *Snapshot, i int) (string, []string, string) {
	l := leadOf(s, i)
	if l == "" {
		l = fieldCaption(s, i) // a field's caption leads it as a label leads a value
	}
	if l == "" {
		return "", nil, ""
	}
	l = normalize(l)
	toks := tokens(l)
	return l, toks, strings.Join(toks, " ")
}

// leadOf returns the words that label element i in its parent's running text: "Boarding
// closes" in "Departs Sat 14 Jun, 07:35 · Gate C17 · Boarding closes 07:15" for the 07:15,
// cut at the previous element's text or a separator. Only for values (not controls or fields
// with a label of their own) whose text is in the parent's text once.
func leadOf(s *Snapshot, i int) string {
	e := &s.Elements[i]
	if e.Interactive || e.Editable || e.Label != "" || e.Parent < 0 || e.Parent >= i {
		return ""
	}
	t := strings.TrimSpace(firstOf(e.Text, e.Name))
	if t == "" || len(t) > 60 {
		return ""
	}
	pt := s.Elements[e.Parent].Text
	k := strings.Index(pt, t)
	if k < 0 || strings.Contains(pt[k+len(t):], t) {
		return ""
	}
	before := pt[:k]
	for j := i - 1; j > e.Parent; j-- {
		if s.Elements[j].Parent != e.Parent {
			continue
		}
		if pj := strings.TrimSpace(firstOf(s.Elements[j].Text, s.Elements[j].Name)); pj != "" {
			if q := strings.LastIndex(before, pj); q >= 0 {
				before = before[q+len(pj):]
			}
		}
		break
	}
	if q := strings.LastIndexAny(before, "·|;•\n"); q >= 0 {
		_, size := utf8.DecodeRuneInString(before[q:])
		before = before[q+size:]
	}
	if q := strings.LastIndex(before, ". "); q >= 0 {
		before = before[q+2:] // "… (MT). Appointments last 30 minutes"
	}
	before = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(before), ":"))
	if before == "" || len(before) > 40 || !hasLetter(before) {
		return ""
	}
	return before
}

// ownWordsBonus is what an element gains when its own fields, together, carry every word (a
// container's text carries its children's words: only leaves, or nearly, gain it).
const ownWordsBonus = 0.1

// contextWordBonus is what description words found only in an element's context add, at most.
const contextWordBonus = 0.15

// contextShare is the share of words that the element's own fields lack and its context has.
func contextShare(pe *prepared, words []string) float64 {
	ctx := pe.toks[ctxField]
	if len(ctx) == 0 {
		return 0
	}
	n := 0
	for _, w := range words {
		own := false
		for _, f := range containedFields {
			if contains(pe.toks[f], w) {
				own = true
				break
			}
		}
		if !own && (contains(ctx, w) || anyAlt(ctx, altsFor(w))) {
			n++ // "the pull requests tab of the repo" in the "Repository" navigation
		}
	}
	return float64(n) / float64(len(words))
}

func round3(f float64) float64 { return math.Round(f*1000) / 1000 }

// bestField returns the best weighted match of a query phrase over the element's fields; qt is
// qtoks joined by spaces.
func bestField(pe *prepared, phrase string, qtoks []string, qt string, exactPhrase bool, qm queryMask) (float64, int, string) {
	return bestFieldW(pe, phrase, qtoks, nil, qt, exactPhrase, qm)
}

// bestFieldW is bestField with per-token weights for partial matches (nil: all alike).
func bestFieldW(pe *prepared, phrase string, qtoks []string, w []float64, qt string, exactPhrase bool, qm queryMask) (float64, int, string) {
	best, bf, how := 0.0, 0, ""
	for f := range fields {
		if pe.norm[f] == "" || !qm.may(pe.masks[f]) {
			continue
		}
		s, h := match(phrase, qtoks, w, qt, pe.norm[f], pe.toks[f], pe.joined[f], exactPhrase)
		s *= fields[f].w
		if s > best {
			best, bf, how = s, f, h
		}
	}
	return best, bf, how
}

// match scores query text against one field value: exact > prefix > contains > token overlap. qt
// is qtoks joined by spaces, vt vtoks.
func match(q string, qtoks []string, w []float64, qt string, v string, vtoks []string, vt string, exactPhrase bool) (float64, string) {
	if q == "" || v == "" {
		return 0, ""
	}
	// A trimmed v can only be q when v starts with q: test that first (TrimRight with "…" in
	// the cutset is slow).
	if q == v || strings.HasPrefix(v, q) && strings.TrimRight(v, "?!") == q {
		return 1, "is"
	}
	if strings.HasPrefix(v, q) && strings.TrimRight(v, ":*.… ") == q {
		return 0.98, "is"
	}
	if qt != "" && qt == vt {
		// The same words in other dress ("[edit]" for "edit"): a little below the exact name.
		return 0.96, "is"
	}
	// Coverage: how much of the field the query accounts for (prefers "Submit" over a paragraph
	// that mentions submit).
	cov := float64(len(qtoks)) / float64(max(len(vtoks), 1))
	if cov > 1 {
		cov = 1
	}
	if qt != "" && (hasWordPrefix(vt, qt) || strings.HasPrefix(v, q) && !agentRest(q, v[len(q):])) {
		return 0.78 + 0.17*cov, "starts with"
	}
	if qt != "" && (containsWords(vt, qt) || len(q) >= 4 && containsAtWordStart(v, q)) {
		return 0.68 + 0.2*cov, "contains"
	}
	o := overlapW(qtoks, w, vtoks)
	if o == 0 {
		return 0, ""
	}
	if exactPhrase {
		o *= 0.8 // a quoted phrase that only partly matches
	}
	return o * (0.5 + 0.15*cov), "shares words with"
}

// agentRest reports whether rest, what follows a word q at the start of a value, makes q the
// one who does it: "Bidder 4471" is someone, not a bid ("er", "or", a doubled consonant and
// "er", a plural "s", then the word's end).
func agentRest(q, rest string) bool {
	if len(q) < 3 || rest == "" {
		return false
	}
	if rest[0] == q[len(q)-1] {
		rest = rest[1:]
	}
	if !strings.HasPrefix(rest, "er") && !strings.HasPrefix(rest, "or") {
		return false
	}
	rest = strings.TrimPrefix(rest[2:], "s")
	return rest == "" || !isWordByte(rest[0])
}

// containsAtWordStart reports whether q is in v starting at the start of a word of v ("sign-in"
// in "Sign-in options", not "bell" in "Barbell"), or, five letters or more, ending one.
func containsAtWordStart(v, q string) bool {
	for off := 0; ; {
		k := strings.Index(v[off:], q)
		if k < 0 {
			return false
		}
		k += off
		if k == 0 {
			return true
		}
		if r, _ := utf8.DecodeLastRuneInString(v[:k]); !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return true
		}
		if e := k + len(q); len(q) >= 5 && (e == len(v) || !isWordByte(v[e])) {
			return true // the end of a compound: "exception" in "NullPointerException"
		}
		off = k + 1
	}
}

func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b >= 0x80
}

// hasWordPrefix is strings.HasPrefix(vt+" ", qt+" ") without building either string.
func hasWordPrefix(vt, qt string) bool {
	return strings.HasPrefix(vt, qt) && (len(vt) == len(qt) || vt[len(qt)] == ' ')
}

// containsWords is strings.Contains(" "+vt+" ", " "+qt+" ") without building either string; qt
// is not empty.
func containsWords(vt, qt string) bool { return wordIndex(vt, qt) >= 0 }

// overlap is the fraction of query tokens found in the value's tokens (prefix matches of four or
// more letters count 0.7: "sign" ~ "signup").
func overlap(q, v []string) float64 { return overlapW(q, nil, v) }

// overlapW is overlap with a weight per query token (nil: all alike).
func overlapW(q []string, w []float64, v []string) float64 {
	if len(q) == 0 || len(v) == 0 {
		return 0
	}
	got, total := 0.0, 0.0
	for i, a := range q {
		wi := 1.0
		if w != nil {
			wi = w[i]
		}
		total += wi
		best := 0.0
		alts := altsFor(a) // alternative(a, b) is isAlt(alts, b)
		for _, b := range v {
			if a == b {
				best = 1
				break
			}
			if best < 0.85 && alts != nil && isAlt(alts, b) {
				best = 0.85
			}
			if len(a) >= 4 && len(b) >= 4 && a[0] == b[0] && (strings.HasPrefix(b, a) || strings.HasPrefix(a, b)) {
				best = 0.7
			}
		}
		got += wi * best
	}
	return got / total
}

func attrScore(e *Element, k, v string) float64 {
	var got string
	switch k {
	case "placeholder":
		got = e.Placeholder
	case "aria-label":
		got = e.AriaLabel
	case "title":
		got = e.Title
	case "alt":
		got = e.Alt
	case "name":
		got = e.NameAttr
	case "id":
		got = e.IDAttr
	case "type":
		got = e.InputType
	case "href":
		got = e.Href
	case "data-testid":
		got = e.TestID
	}
	if got == "" {
		return 0
	}
	g, w := strings.ToLower(got), strings.ToLower(v)
	switch {
	case g == w:
		return 1
	case strings.Contains(g, w):
		return 0.6
	}
	return 0
}

// roleMatches reports whether e plays role r.
func roleMatches(e *Element, r string) bool {
	if e.Role == r {
		return true
	}
	switch r {
	case "textbox":
		return e.Role == "searchbox" || e.Editable
	case "searchbox":
		return e.Role == "textbox" && e.InputType == "search"
	case "button":
		return e.Tag == "button" || (e.Tag == "input" && (e.InputType == "submit" || e.InputType == "button" || e.InputType == "reset" || e.InputType == "image"))
	case "text":
		return !e.Interactive && (e.Role == "text" || e.Role == "paragraph" || e.Role == "label" || e.Role == "status" || e.Role == "alert" || e.Role == "cell" || e.Role == "listitem")
	case "paragraph":
		return e.Tag == "p"
	case "img":
		return e.Tag == "img" || e.Tag == "svg"
	case "heading":
		return strings.HasPrefix(e.Tag, "h") && len(e.Tag) == 2 && e.Tag[1] >= '1' && e.Tag[1] <= '6'
	case "cell":
		return e.Role == "gridcell" || e.Tag == "td"
	}
	return false
}

// roleNearly reports whether e can stand in for role r: a clickable div for a button, a link
// styled as a button, a button with an icon for "icon".
func roleNearly(e *Element, r string) bool {
	switch r {
	case "button":
		return e.Interactive && (e.Role == "link" || e.Role == "text" || e.Role == "menuitem" || e.Role == "tab" || e.Role == "listitem" || e.Role == "label")
	case "link":
		return e.Interactive && (e.Role == "button" || e.Role == "text" || e.Role == "menuitem" || e.Role == "tab")
	case "menuitem", "tab":
		return e.Interactive && (e.Role == "link" || e.Role == "button")
	case "checkbox", "switch", "radio":
		return e.Role == "label" && e.Interactive
	case "alert", "status":
		return !e.Interactive && (e.Role == "paragraph" || e.Role == "text")
	case "img":
		return (e.Role == "button" || e.Role == "link") && strings.TrimFunc(e.Text, func(r rune) bool { return !unicode.IsLetter(r) }) == ""
	}
	return false
}

// tokens splits normalized text into stemmed word tokens.
func tokens(s string) []string {
	if mayHaveClock(s) {
		s = clockTimes(s)
	}
	var out []string
	if t := strings.TrimLeft(s, " "); len(t) > 1 && t[0] == '+' && !unicode.IsDigit(rune(t[1])) && t[1] != '+' {
		// "+ Lead", "+New": a plus before a name is an add button ("add a new lead"); not a
		// figure's sign ("+12%", "+1 555 0100").
		out = appendStem(out, "add")
	}
	start := -1
	for i, r := range s {
		w := unicode.IsLetter(r) || unicode.IsDigit(r)
		if w && start < 0 {
			start = i
		}
		if !w && start >= 0 {
			out = appendStem(out, s[start:i])
			start = -1
		}
		if !w && r >= 0x2190 {
			if g, ok := glyphWords[r]; ok {
				out = append(out, g)
			}
		}
	}
	if start >= 0 {
		out = appendStem(out, s[start:])
	}
	return out
}

// glyphWords are the words for the symbols a button or a figure shows instead of text: "the
// trash can icon" is the 🗑 button, "the star rating" the "4.6★". (Stems, as tokens returns.)
// Not an outline star or heart: a button that shows ☆ or ♡ to add a thing to a list is named
// for that list already ("Add BBC One to my channels"), and would answer every "favourite".
var glyphWords = map[rune]string{
	'★': "star", '⭐': "star",
	'🗑': "trash", '⚙': "gear", '🔔': "bell", '✎': "pencil", '✏': "pencil", '🔍': "search", '🔎': "search",
	'☎': "phone", '📞': "phone", '📎': "paperclip", '⟳': "refresh", '↻': "refresh", '🗄': "archiv",
}

// appendStem appends word w's stem, or its stems when it stands for several English words
// (a foreign compound: "versandkosten" is "shipping cost").
func appendStem(out []string, w string) []string {
	st := stem(w)
	if strings.IndexByte(st, ' ') < 0 {
		return append(out, st)
	}
	return append(out, strings.Fields(st)...)
}

var (
	ampmRe  = regexp.MustCompile(`(?i)\b(\d{1,2})(?:[:.]([0-5]\d))?\s*([ap])\.?m\b\.?`)
	clockRe = regexp.MustCompile(`\b(\d{1,2}):([0-5]\d)`)
)

// clockTimes writes the times of day in s as tokens: "t1500 c0300" for "3pm", "3:00 PM" and
// "15:00" alike (the 24-hour time and the 12-hour clock face), and "c0930" alone for a "9:30"
// that does not say which half of the day. A user asks for "the 3pm slot" on a page that says
// "15:00", or for "the 9:30 class" on one that says "9:30 AM".
func clockTimes(s string) string {
	long := len(s) > 24 // the input's, before either pass writes tokens into it
	both := func(h int, mm string) string {
		c := h % 12
		if c == 0 {
			c = 12
		}
		if long {
			// A long text is a sentence or a card that mentions a time: its part of the day
			// would make a card of "Easy Run · 6:35 AM" say "morning" as "Morning Run" does.
			return fmt.Sprintf(" t%02d%s c%02d%s ", h, mm, c, mm)
		}
		return fmt.Sprintf(" t%02d%s c%02d%s %s ", h, mm, c, mm, partOfDay(h))
	}
	s = ampmRe.ReplaceAllStringFunc(s, func(m string) string {
		g := ampmRe.FindStringSubmatch(m)
		h, _ := strconv.Atoi(g[1])
		if h < 1 || h > 12 {
			return m
		}
		if p := strings.ToLower(g[3]); p == "p" && h != 12 {
			h += 12
		} else if p == "a" && h == 12 {
			h = 0
		}
		mm := g[2]
		if mm == "" {
			mm = "00"
		}
		return both(h, mm)
	})
	return clockRe.ReplaceAllStringFunc(s, func(m string) string {
		g := clockRe.FindStringSubmatch(m)
		h, _ := strconv.Atoi(g[1])
		switch {
		case h > 23:
			return m // "42:41" is a duration
		case h > 12 || h == 0:
			return both(h, g[2])
		}
		return fmt.Sprintf(" c%02d%s ", h, g[2])
	})
}

// partOfDay is the word people use for the hour h of a 24-hour clock: "the evening Rhythm
// Ride" is the one at 6:45 PM, "this morning's run" the one at 6:42 AM.
func partOfDay(h int) string {
	switch {
	case h >= 5 && h < 12:
		return "morning"
	case h >= 12 && h < 17:
		return "afternoon"
	case h >= 17 && h < 22:
		return "evening"
	}
	return "night"
}

// mayHaveClock reports whether s may hold a time of day for clockTimes: a digit followed by a
// colon and a digit, or by "am"/"pm" ("3pm", "9 a.m."). Most text with a digit has neither, and
// tokens runs on every field of every element.
func mayHaveClock(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			continue
		}
		j := i + 1
		if j+1 < len(s) && s[j] == ':' && s[j+1] >= '0' && s[j+1] <= '9' {
			return true
		}
		for j < len(s) && (s[j] == ' ' || s[j] == '.') && j-i < 3 {
			j++
		}
		if j+1 < len(s) && (s[j]|0x20 == 'a' || s[j]|0x20 == 'p') && (s[j+1]|0x20 == 'm' || s[j+1] == '.' && j+2 < len(s) && s[j+2]|0x20 == 'm') {
			return true
		}
	}
	return false
}

// dayMonthAbbr maps the names of days and months to their usual short forms: "Thursday" is
// the tab that says "Thu".
var dayMonthAbbr = map[string]string{
	"monday": "mon", "tuesday": "tue", "tues": "tue", "wednesday": "wed", "thursday": "thu", "thur": "thu",
	"thurs": "thu", "friday": "fri", "saturday": "sat", "sunday": "sun", "january": "jan", "february": "feb",
	"march": "mar", "april": "apr", "june": "jun", "july": "jul", "august": "aug", "september": "sep",
	"sept": "sep", "october": "oct", "november": "nov", "december": "dec",
}

// irregularPast are past forms the stemmer does not reach, with their verbs: "Total interest
// paid" answers "how much interest will I pay".
var irregularPast = map[string]string{
	"paid": "pay", "spent": "spend", "sent": "send", "bought": "buy", "sold": "sell", "made": "make",
	"held": "hold", "won": "win", "built": "build", "taken": "take", "took": "take", "given": "give",
	"gave": "give", "written": "write", "wrote": "write", "chosen": "choose", "chose": "choose",
}

// irregularStems is irregularPast as stemAs holds it: each past form to its verb's stem.
func irregularStems() map[string]string {
	m := make(map[string]string, len(irregularPast))
	for past, verb := range irregularPast {
		m[past] = stemRules(verb)
	}
	return m
}

// stemAs is what stem returns outright for a word: a British spelling's American stem, a
// day's or month's short form, an irregular past form's stem, a foreign interface word's
// English stems, a form's abbreviation's words, a time span's abbreviation (one lookup for
// all, before the rules).
var stemAs = func() map[string]string {
	british, spans, abbrs := britishStems(), spanStems(), formAbbrStems()
	m := make(map[string]string, len(british)+len(dayMonthAbbr)+len(irregularPast)+len(foreignWords)+len(spans)+len(abbrs))
	for _, src := range []map[string]string{british, dayMonthAbbr, irregularStems(), foreignStems(), spans, abbrs} {
		for w, a := range src {
			m[w] = a
		}
	}
	return m
}()

// stem is the English stem of a word, applied to both sides of every comparison ("cookies"
// and "cookie" -> "cooki", "shipped" and "shipping" -> "ship"): stemAs's outright answers,
// else the Porter2 (snowball) stemmer's.
func stem(w string) string {
	if a, ok := stemAs[w]; ok {
		return a
	}
	return stemRules(w)
}

// stemRules is stem without its table of outright answers: the Porter2 stem (measured against
// the hand-written rules it replaced: the same on held-out pages, one case better on a fresh
// blind set, docs/PERFORMANCE.md).
func stemRules(w string) string {
	st, err := snowball.Stem(w, "english", false)
	if err != nil {
		return w
	}
	if len(w) > 7 && strings.HasSuffix(w, "ture") && strings.HasSuffix(st, "tur") {
		// Porter2 keeps the noun's -ur: a long -ture noun is its verb ("departure" is
		// "depart", as "departs" and "departing" are).
		st = st[:len(st)-2]
	}
	return st
}

// splitIdent turns identifiers into words: "firstName" / "first_name" / "first-name" -> "first name".
func splitIdent(s string) string {
	if s == "" {
		return ""
	}
	var b strings.Builder
	prev := rune(0)
	for _, r := range s {
		if r == '_' || r == '-' || r == '.' || r == '[' || r == ']' {
			b.WriteByte(' ')
		} else {
			if unicode.IsUpper(r) && unicode.IsLower(prev) {
				b.WriteByte(' ')
			}
			b.WriteRune(r)
		}
		prev = r
	}
	return b.String()
}

// describe is a short human form of an element for messages: button "Submit" (#submit).
func describe(e *Element) string {
	name := e.Name
	if name == "" {
		name = e.Text
	}
	if len(name) > 60 {
		name = name[:57] + "..."
	}
	return fmt.Sprintf("%s %q (%s)", e.Role, name, e.Selector)
}

func parseMatch(m string) (int, bool) {
	switch strings.ToLower(strings.TrimSpace(m)) {
	case "":
		return 0, false
	case "first":
		return 1, true
	case "last":
		return -1, true
	}
	if n, ok := ordinal(strings.ToLower(strings.TrimSpace(m))); ok {
		return n, true
	}
	n, err := strconv.Atoi(strings.TrimSpace(m))
	if err == nil && n != 0 {
		return n, true
	}
	return 0, false
}

// containedFields are the fields whose whole value a description may contain.
var containedFields = []int{fieldIndex("name"), fieldIndex("label"), fieldIndex("aria-label"), textField, fieldIndex("title")}

// contained scores an element whose whole name (or label, aria-label, short text, title) is
// found among the description's words: 0.5 plus up to 0.4 for the share of the description's
// words it accounts for. Stop words in the name do not count; names of more than eight words
// never qualify.
func contained(pe *prepared, all []string, allW []float64) (float64, int) {
	if len(all) == 0 {
		return 0, 0
	}
	best, bf := 0.0, 0
	var altBuf [12][]string
	var alts [][]string // alts[k] is altsFor(all[k]), looked up when first needed
fieldLoop:
	for _, f := range containedFields {
		vt := pe.toks[f]
		if len(vt) == 0 || len(vt) > 8 {
			continue
		}
		n := 0
		for _, v := range vt {
			if stopWords[v] {
				continue
			}
			n++
			if alts == nil {
				alts = altsOf(all, altBuf[:0])
			}
			if !likeAny(all, alts, v) {
				continue fieldLoop // a word of the name the description does not have
			}
		}
		if n == 0 {
			continue
		}
		// The share of the description the name covers, rare words counting more: "Shipments"
		// covers less of "open shipment TW481180" than "TW481180" does.
		covered, total := 0.0, 0.0
		for k, a := range all {
			w := 1.0
			if allW != nil {
				w = allW[k]
			}
			total += w
			for _, v := range vt {
				if a == v || isAlt(alts[k], v) {
					covered += w
					break
				}
			}
		}
		s := (0.35 + 0.45*covered/total) * fields[f].w
		if s > best {
			best, bf = s, f
		}
	}
	return best, bf
}

// altsOf appends altsFor(w) for each of words to buf.
func altsOf(words []string, buf [][]string) [][]string {
	for _, w := range words {
		buf = append(buf, altsFor(w))
	}
	return buf
}

// likeAny reports whether v is one of words or an alternative of one (alts is altsOf(words)).
func likeAny(words []string, alts [][]string, v string) bool {
	for k, a := range words {
		if a == v || isAlt(alts[k], v) {
			return true
		}
	}
	return false
}

// nameOfScore rates an element as the name of an X ("the hotel name"): the page's main heading
// is the likeliest, an id or class that says so ("product-title", #hotel) is strong evidence,
// and an element that names X in the plural ("Hotels", "Suggested topics") is the heading of
// a collection of them, not an X's name. A control is not a name.
func nameOfScore(pe *prepared, qt *queryText, intent Intent) (float64, string) {
	e := pe.el
	s, why := 0.0, ""
	switch {
	case e.Tag == "h1":
		s, why = 0.25, "the main heading"
	case e.Tag == "h2":
		s, why = 0.15, "a top heading"
	case e.Role == "heading":
		s, why = 0.1, "a heading"
	}
	for _, f := range attrFields {
		// id="hotel", class="product-title": every word of it names the thing ("hotel-conf" is
		// the hotel's confirmation, not its name).
		hit := len(pe.toks[f]) > 0
		for _, t := range pe.toks[f] {
			if !contains(qt.nameOfToks, t) {
				hit = false
				break
			}
		}
		if hit {
			s += 0.15
			why = strings.TrimPrefix(why+"; "+fields[f].name+" names it", "; ")
			break
		}
	}
	for _, pl := range qt.nameOf {
		if pl.named(pe.norm[0]) {
			s -= 0.3
			why = strings.TrimPrefix(why+"; names "+pl.s+", not one "+pl.one, "; ")
			break
		}
	}
	if e.Interactive && intent != IntentClick {
		s -= 0.15
	}
	ctx := pe.toks[ctxField]
	for _, pl := range qt.nameOf {
		if contains(ctx, stem(pl.one)) {
			s += 0.15 // the heading of the <article>, of the "Hotels" section
			why = strings.TrimPrefix(why+"; in the "+pl.one, "; ")
			break
		}
	}
	if contains(ctx, "dialog") {
		s -= 0.1 // an overlay's heading is not what the page is about
	}
	return s, why
}

// signed reports a figure written with a sign ("+18.22", "−3.1"): a change, not a price.
func signed(s string) bool {
	s = strings.TrimLeft(strings.TrimSpace(s), "(")
	return strings.HasPrefix(s, "+") || strings.HasPrefix(s, "-") || strings.HasPrefix(s, "−")
}

// possessorPenalty lowers an element that carries only a possessive's owner words.
const possessorPenalty = 0.15

// collectionPenalty lowers an element that names in the plural what is asked for in the
// singular: the section or list of them ("Claims"), not one of them.
const collectionPenalty = 0.35

// saysAny reports whether the element's name, label or text has one of words: what a reader
// sees, not its id or class (id="owen-last" on one of Owen's messages, the role asked for, does
// not make it a line that names him).
func saysAny(pe *prepared, words []string) bool { return fieldsHaveAny(pe, containedFields, words) }

// ownsAny reports whether the element's own fields (attributes included) have any of words.
func ownsAny(pe *prepared, words []string) bool { return fieldsHaveAny(pe, nameFields, words) }

// fieldsHaveAny reports whether any of the element's fields has one of words.
func fieldsHaveAny(pe *prepared, fields []int, words []string) bool {
	for _, w := range words {
		for _, f := range fields {
			if contains(pe.toks[f], w) {
				return true
			}
		}
	}
	return false
}

// choosingVerbs pick one of several values; choiceRoles are the controls that hold them.
var (
	// ("switch to the University zone": the zone's radio; see switchTo.)
	choosingVerbs = map[string]bool{"choose": true, "pick": true, "select": true, "switch": true}
	choiceRoles   = map[string]bool{"radio": true, "option": true, "menuitemradio": true, "checkbox": true, "combobox": true, "listbox": true}
)

// ownedShare is the share of words that the element's name says.
func ownedShare(pe *prepared, words []string) float64 {
	if len(words) == 0 {
		return 0
	}
	n := 0
	for _, w := range words {
		if contains(pe.toks[0], w) {
			n++
		}
	}
	return float64(n) / float64(len(words))
}

// saysDone reports whether a normalized name says verb only in the past ("saved" for "save",
// "deleted" for "delete"), not as the action.
func saysDone(norm, verb string) bool {
	done := false
	for _, w := range strings.FieldsFunc(norm, func(r rune) bool { return !isWordRune(r) }) {
		switch w {
		case verb:
			return false
		case verb + "ed", verb + "d":
			done = true
		}
	}
	return done
}

// placeVerbs take the asker somewhere ("go to reviews", "show the specs"): a link to a part of
// the page does them.
var placeVerbs = map[string]bool{"go": true, "view": true, "show": true, "switch": true, "skip": true, "continue": true, "proceed": true, "watch": true}

// namedForAction reports whether pe is a control named after the instruction's action: its
// name opens with the verb ("Select TW480340", "Hide SSID") that the description opens with.
func namedForAction(pe *prepared, p *Parsed, qt *queryText) bool {
	verb := ""
	switch {
	case namingVerbs[p.Verb]:
		verb = p.Verb
	case qt.verb != "":
		verb = p.Head
	}
	return verb != "" && pe.el.Interactive && firstWordOf(pe.norm[0]) == verb
}

// switchWords are what a button that switches a thing on and off may say instead of its name.
var switchWords = []string{"on", "off", "power"}

// notTheToggle reports whether pe is a button that a toggle description ("turn off the lobby
// thermostat": the thermostat's toggle) takes only for its role, in the thing's card, saying
// neither the thing nor on, off or power ("Options"): a button beside the toggle, not it.
func notTheToggle(pe *prepared, qt *queryText) bool {
	return pe.el.Role == "button" && contains(qt.roleWords, "toggl") && len(qt.words) > 0 &&
		!ownsAny(pe, qt.words) && !ownsAny(pe, switchWords)
}

// setterVerbs are verbs that a control does by its state, without naming them, with the roles
// of the controls that do: "change the category of the taxi ride" is the ride's Category
// select (choosing another value is the change), "add the tow package" the Tow Package check
// box (checking it adds the option).
var setterVerbs = map[string]map[string]bool{"change": valueRoles, "set": valueRoles, "add": optionRoles, "remove": optionRoles}

var (
	// valueRoles are the controls that hold a value a setter verb changes.
	valueRoles = map[string]bool{"combobox": true, "listbox": true, "textbox": true, "searchbox": true,
		"spinbutton": true, "slider": true, "radiogroup": true, "radio": true}
	// optionRoles are the controls that take an option or leave it out.
	optionRoles = map[string]bool{"checkbox": true, "switch": true}
)

// setsObject reports whether pe is the control a setter verb's object names: one of the
// verb's roles whose own fields say every word of the object ("change the category of the
// taxi ride": a Category select; the ride is on its row). It does the action without naming it.
func setsObject(pe *prepared, p *Parsed, qt *queryText) bool {
	return len(qt.setWords) > 0 && setterVerbs[p.Head][pe.el.Role] && pe.el.Interactive && ownsAll(pe, qt.setWords)
}

// ownsLike reports whether the element's own fields have word w or a page's alternative for it.
func ownsLike(pe *prepared, w string) bool {
	alts := altsFor(w)
	for _, f := range nameFields {
		if contains(pe.toks[f], w) || len(alts) > 0 && anyAlt(pe.toks[f], alts) {
			return true
		}
	}
	return false
}

// namedCollection returns the description word that pe's name says only in the plural, when
// that makes pe the collection rather than the one asked for: a heading unless a heading or a
// name is asked for; anything else when the description says more words and pe carries none of
// them ("Lease ends" is no collection of ends for "when does my lease end").
func namedCollection(pe *prepared, p *Parsed, qt *queryText, textScore float64) (plural, bool) {
	heading := pe.el.Role == "heading"
	switch {
	case heading && (len(p.NameOf) > 0 || len(p.Roles) > 0 && p.Roles[0] == "heading"):
		return plural{}, false
	case !heading && (textScore == 0 || len(qt.words) < 2):
		return plural{}, false
	}
	for _, pl := range qt.plurals {
		if pl.named(pe.norm[0]) && (heading || !ownsOtherThan(pe, qt.words, stem(pl.one))) {
			return pl, true
		}
	}
	return plural{}, false
}

// ownsOtherThan reports whether pe owns one of words other than w.
func ownsOtherThan(pe *prepared, words []string, w string) bool {
	for _, x := range words {
		if x != w && ownsLike(pe, x) {
			return true
		}
	}
	return false
}

// ownsLikeAny is ownsLike for any of words.
func ownsLikeAny(pe *prepared, words []string) bool {
	for _, w := range words {
		if ownsLike(pe, w) {
			return true
		}
	}
	return false
}

// oneFieldHasAll reports whether one of the element's own fields has every one of words.
func oneFieldHasAll(pe *prepared, words []string) bool {
	for _, f := range nameFields {
		all := true
		for _, w := range words {
			if !contains(pe.toks[f], w) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// ownsAll reports whether the element's own fields have every one of words.
func ownsAll(pe *prepared, words []string) bool {
	for i := range words {
		if !ownsAny(pe, words[i:i+1]) {
			return false
		}
	}
	return true
}

// valueBonus is what an element of the asked-for value shape gains: most when its text is short
// (the value itself), less for a leaf with more words, least for a card or row that holds the
// value among other things.
func valueBonus(pe *prepared, short, leaf, container float64) float64 {
	switch {
	case len(pe.el.Text) <= 24:
		return short
	case pe.descendants == 0:
		return leaf
	}
	return container
}

// plural is a description word with its plural forms, worked out once per query.
type plural struct{ one, s, es string }

// pluralsOf returns the words that have a plural worth checking (three letters or more, not
// already ending in s).
func pluralsOf(words []string) []plural {
	var out []plural
	for _, w := range words {
		if len(w) >= 3 && !strings.HasSuffix(w, "s") {
			out = append(out, plural{w, w + "s", w + "es"})
		}
	}
	return out
}

// named reports whether a normalized name has the word only in the plural ("Hotels" for
// "hotel"): a heading that names a collection ("Flights", "Suggested topics") is not one of
// its items.
func (pl plural) named(name string) bool {
	return !containsWords(name, pl.one) && (containsWords(name, pl.s) || containsWords(name, pl.es))
}

// counted reports whether a normalized name counts the things ("17 bids", "12 branches") and
// never names one.
func (pl plural) counted(name string) bool {
	if !pl.named(name) {
		return false
	}
	for _, form := range [2]string{pl.s, pl.es} {
		i := wordIndex(name, form)
		for i > 0 && name[i-1] == ' ' {
			i--
		}
		if i > 0 && name[i-1] >= '0' && name[i-1] <= '9' {
			return true
		}
	}
	return false
}

// wordIndex is where w first stands as a whole space-delimited word in s, -1 if nowhere.
func wordIndex(s, w string) int {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return -1
		}
		j += i
		if (j == 0 || s[j-1] == ' ') && (j+len(w) == len(s) || s[j+len(w)] == ' ') {
			return j
		}
		i = j + 1
	}
}

// namesPlural and countsPlural are plural.named and plural.counted for one word.
func namesPlural(name, w string) bool {
	ps := pluralsOf([]string{w})
	return len(ps) == 1 && ps[0].named(name)
}

func countsPlural(name, w string) bool {
	ps := pluralsOf([]string{w})
	return len(ps) == 1 && ps[0].counted(name)
}

// actionWords open the names of controls that create or look for a thing ("Add activity").
var actionWords = map[string]bool{"add": true, "new": true, "create": true, "search": true, "filter": true, "find": true}

// namesAction reports whether a normalized name opens with an action ("+ Add activity", and with
// anyVerb any instruction verb: "Copy tracking number") that the description's stemmed words
// do not say: it makes or finds a thing, or acts on it; it is not the thing.
func namesAction(norm string, said []string, anyVerb bool) bool {
	a := firstWordOf(norm)
	return (actionWords[a] || anyVerb && verbHeads[a]) && !contains(said, stem(a))
}

// firstWordOf is the first word of a normalized name, past leading symbols ("+ add" -> "add").
func firstWordOf(norm string) string {
	i := strings.IndexFunc(norm, isWordRune)
	if i < 0 {
		return ""
	}
	end := strings.IndexFunc(norm[i:], func(r rune) bool { return !isWordRune(r) })
	if end < 0 {
		return norm[i:]
	}
	return norm[i : i+end]
}

// anyAlt reports whether any of toks is one of alts.
func anyAlt(toks []string, alts []string) bool {
	for _, t := range toks {
		if isAlt(alts, t) {
			return true
		}
	}
	return false
}

// wordsInContext adds the words of p's bare "in X" phrase to its words when X is no section or
// container of the page but an element says it: "show measurements in metric" is the
// switch named Metric units, "show prices in pounds" the currency option that says pound, on
// pages with no part called Metric or Pounds. ("in the cart" names a place by its article.)
func wordsInContext(ps []prepared, p *Parsed) {
	if len(p.Context) == 0 || !p.ContextBare {
		return
	}
	var toks []string
	for _, w := range p.Context {
		toks = append(toks, tokens(w)...)
	}
	for i, n := range carrierCounts(ps, toks) {
		if stopWords[toks[i]] || n == 0 || anyContext(ps, toks[i]) {
			return
		}
	}
	p.Words = append(p.Words, p.Context...)
	p.ContextBare = false // read: a second ranking of p adds nothing twice
}
