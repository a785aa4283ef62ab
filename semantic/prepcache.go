package semantic

import (
	"slices"
	"strings"
	"sync"
	"unsafe"
)

// normTok is one field value normalized, tokenized and joined, with what else the ranker wants
// to know of it. Values are shared between elements, snapshots and goroutines: only read them.
type normTok struct {
	norm   string
	toks   []string // stemmed; capacity clipped, so an append copies
	joined string   // toks joined by spaces
	// named is true for a value first met as an element's name or text: price and shape are
	// set, else worked out when asked for.
	named bool
	price bool  // isPrice of the raw value
	cond  bool  // with price, the raw value puts its price in a condition (priceCondition)
	shape shape // valueShape of norm, or of the value without its magnitudes (mag)
	mag   bool  // the raw value has a figure in thousands, millions or billions ("1.42M")
	mask  fieldMask
}

func newNormTok(v string, named bool) *normTok {
	t := &normTok{norm: normalize(v), named: named}
	t.toks = tokens(t.norm)
	t.toks = t.toks[:len(t.toks):len(t.toks)]
	t.joined = strings.Join(t.toks, " ")
	t.mask = fieldMask{allMask(t.norm), starts(t.toks)}
	switch d := dropMagnitudes(v); {
	case d != v:
		t.mag, t.shape = true, valueShape(normalize(d)) // rare: worked out now whoever asks
	case named:
		t.shape = valueShape(t.norm)
	}
	if named {
		t.price = isPrice(v)
		t.cond = t.price && inCondition(v)
	}
	return t
}

// priceCondition reports whether v, whose normTok t is, puts its price in a condition ("Free
// delivery on orders over £40"): the price is a threshold, not what something costs.
func (t *normTok) priceCondition(v string) bool {
	if t.named && t.price {
		return t.cond
	}
	return inCondition(v)
}

// inCondition is priceCondition of a value not remembered.
func inCondition(v string) bool { return len(v) > 24 && priceAsCondition.MatchString(v) }

// isPrice is isPrice(v) for t, the normTok of v.
func (t *normTok) isPrice(v string) bool {
	if t.named {
		return t.price
	}
	return isPrice(v)
}

// valueShape is the value shape of t's raw value, its magnitudes dropped (see dropMagnitudes).
func (t *normTok) valueShape() shape {
	if t.named || t.mag {
		return t.shape
	}
	return valueShape(t.norm)
}

// normMemo holds normTok by raw value for the whole process: successive snapshots of a page
// repeat nearly all their strings, so preparing a new snapshot is mostly looking them up. It
// also holds the per-field rows of elements (prepared.norm, toks and joined), keyed by their
// values' normToks: an element that comes again, in this snapshot or a later one, shares the
// row. It is bounded: it starts over when it would grow past normMemoMax values or rows, or
// hold about normMemoBytes bytes (the 2,000-element benchmark page takes about 2 MB).
var normMemo = struct {
	sync.RWMutex
	m     map[string]*normTok
	rows  map[rowKey]*normRow
	bytes int
}{m: map[string]*normTok{}, rows: map[rowKey]*normRow{}}

const (
	normMemoMax   = 1 << 15
	normMemoBytes = 16 << 20
)

// maxFields bounds len(fields), for rowKey.
const maxFields = 16

func init() {
	if len(fields) > maxFields {
		panic("semantic: more fields than maxFields")
	}
}

// rowKey is an element's normTok per field (nil for an empty value).
type rowKey [maxFields]*normTok

// normRow is an element's fields normalized, tokenized and joined, as prepared has them.
type normRow struct {
	norm   []string
	toks   [][]string
	joined []string
	masks  []fieldMask
}

// normLookup is one prepare's use of normMemo: lookups under a read lock held throughout, the
// values it lacks worked out once into fresh, the rows it lacks built into freshRows, and both
// stored when done.
type normLookup struct {
	left      int // the number of elements whose row is yet to be asked for, to size freshRows
	fresh     map[string]*normTok
	freshRows []keyedRow
	// New rows are cut from these, to allocate for many at once.
	norms, joined []string
	toks          [][]string
	masks         []fieldMask
}

// lookupNorms starts a lookup for n elements.
func lookupNorms(n int) *normLookup {
	normMemo.RLock()
	return &normLookup{left: n}
}

// get returns v's normTok (v is not empty); named says v is a name or text (see normTok).
func (l *normLookup) get(v string, named bool) *normTok {
	if t := normMemo.m[v]; t != nil {
		return t
	}
	t := l.fresh[v]
	if t == nil {
		if l.fresh == nil {
			l.fresh = map[string]*normTok{}
		}
		t = newNormTok(v, named)
		l.fresh[v] = t
	}
	return t
}

type keyedRow struct {
	k rowKey
	r *normRow
}

// elementRow returns e's row (of nf fields), and its values' normToks in k.
func (l *normLookup) elementRow(e *Element, k *rowKey, nf int) *normRow {
	for f := range fields {
		if v := fields[f].get(e); v != "" {
			k[f] = l.get(v, f == 0 || f == textField)
		}
	}
	return l.row(k, nf)
}

// row returns the row of an element whose values are k, with nf fields.
func (l *normLookup) row(k *rowKey, nf int) *normRow {
	l.left--
	if r := normMemo.rows[*k]; r != nil {
		return r
	}
	if len(l.norms) < nf {
		chunk := min(256, l.left+1)
		l.norms, l.toks, l.joined, l.masks = make([]string, chunk*nf), make([][]string, chunk*nf), make([]string, chunk*nf), make([]fieldMask, chunk*nf)
	}
	r := &normRow{norm: l.norms[:nf:nf], toks: l.toks[:nf:nf], joined: l.joined[:nf:nf], masks: l.masks[:nf:nf]}
	l.norms, l.toks, l.joined, l.masks = l.norms[nf:], l.toks[nf:], l.joined[nf:], l.masks[nf:]
	for f, t := range k[:nf] {
		if t != nil {
			r.norm[f], r.toks[f], r.joined[f], r.masks[f] = t.norm, t.toks, t.joined, t.mask
		}
	}
	if l.freshRows == nil {
		l.freshRows = make([]keyedRow, 0, l.left+1)
	}
	l.freshRows = append(l.freshRows, keyedRow{*k, r})
	return r
}

// done releases the read lock and stores the new values and rows.
func (l *normLookup) done() {
	normMemo.RUnlock()
	if len(l.fresh) == 0 && len(l.freshRows) == 0 {
		return
	}
	// Roughly the bytes a value or row holds.
	size := func(v string, t *normTok) int { return len(v) + len(t.norm) + 2*len(t.joined) + 16*len(t.toks) + 96 }
	rowSize := 0
	if len(l.freshRows) > 0 {
		rowSize = 56*len(l.freshRows[0].r.norm) + int(unsafe.Sizeof(keyedRow{})) + 64
	}
	add := rowSize * len(l.freshRows)
	for v, t := range l.fresh {
		add += size(v, t)
	}
	normMemo.Lock()
	defer normMemo.Unlock()
	if len(normMemo.m)+len(l.fresh) > normMemoMax || len(normMemo.rows)+len(l.freshRows) > normMemoMax || normMemo.bytes+add > normMemoBytes {
		normMemo.m, normMemo.rows, normMemo.bytes = make(map[string]*normTok, len(l.fresh)), make(map[rowKey]*normRow, len(l.freshRows)), 0
	}
	for v, t := range l.fresh {
		if len(normMemo.m) >= normMemoMax || normMemo.bytes+size(v, t) > normMemoBytes {
			break
		}
		if _, ok := normMemo.m[v]; !ok {
			normMemo.m[v] = t
			normMemo.bytes += size(v, t)
		}
	}
	for i := range l.freshRows {
		if len(normMemo.rows) >= normMemoMax || normMemo.bytes+rowSize > normMemoBytes {
			break
		}
		normMemo.rows[l.freshRows[i].k] = l.freshRows[i].r
		normMemo.bytes += rowSize
	}
}

// wordMasks returns for each element which of words (at most 64) one of its containedFields
// has: bit b for words[b].
func wordMasks(ps []prepared, words []string) []uint64 {
	out := make([]uint64, len(ps))
	for i := range ps {
		var m uint64
		for _, f := range containedFields {
			for _, t := range ps[i].toks[f] {
				for b, w := range words {
					if t == w {
						m |= 1 << b
					}
				}
			}
		}
		out[i] = m
	}
	return out
}

// altTable is alternatives as an open-addressed table keyed by altHash, each word's
// alternatives in a list: cheaper than the map lookups in the matcher's inner loops (a
// description word has a few alternatives, most have none).
var altTable = func() (t struct {
	slot [4096]uint16 // index+1 into keys and alts; 0 for an empty slot
	keys []string
	alts [][]string
}) {
	for a, bs := range alternatives {
		t.keys = append(t.keys, a)
		var l []string
		for b := range bs {
			l = append(l, b)
		}
		t.alts = append(t.alts, l)
		h := altHash(a)
		for t.slot[h] != 0 {
			h = (h + 1) & 4095
		}
		t.slot[h] = uint16(len(t.keys))
	}
	return t
}()

func altHash(a string) uint {
	if a == "" {
		return 0
	}
	return (uint(len(a))*131 + uint(a[0])*31 + uint(a[len(a)/2])*7 + uint(a[len(a)-1])) & 4095
}

// altsFor returns the words that may stand for description word a (alternative(a, b) is
// isAlt(altsFor(a), b)).
func altsFor(a string) []string {
	for h := altHash(a); ; h = (h + 1) & 4095 {
		i := altTable.slot[h]
		if i == 0 {
			return nil
		}
		if altTable.keys[i-1] == a {
			return altTable.alts[i-1]
		}
	}
}

func isAlt(alts []string, b string) bool {
	for _, x := range alts {
		if x == b {
			return true
		}
	}
	return false
}

// carriedPrep is the prepared elements of s carried over from s.prev, the snapshot s was sent as
// a difference from, when that one is prepared and has the same elements in the same places
// (see prepDiff): a scroll, a typed character, a checked box or a restyled card. Elements whose
// own fields changed (a class, a label) get their rows again; when boxes moved or item kinds
// changed, the grid headers are placed again, and with new kinds the items are worked out
// anew. Otherwise, nil. Either way s.prev is let go. A snapshot after such an action then costs
// the ranker about what a new query does, not what a new page does (preparing 2,000 elements
// takes 2-6 ms here).
func carriedPrep(s *Snapshot) []prepared {
	prev := s.prev
	s.prev = nil
	if prev == nil || prev.prep == nil || !prev.prep.ready.Load() || len(prev.Elements) != len(s.Elements) {
		return nil
	}
	kinds, ok := sameContainers(prev.Containers, s.Containers)
	if !ok {
		return nil
	}
	old := prev.prep.ps
	if len(old) != len(s.Elements) {
		return nil
	}
	// Grid headers depend on boxes, visibility and item kinds (a selected card's class), items
	// on kinds.
	regrid, relisted := false, false
	var own []int // elements whose own fields changed
	for i := range s.Elements {
		a, b := &prev.Elements[i], &s.Elements[i]
		switch prepDiff(a, b) {
		case diffShared:
			return nil
		case diffOwn:
			own = append(own, i)
		}
		if a.ItemKind != b.ItemKind {
			kinds = true
			relisted = relisted || itemList(a.ItemKind) != itemList(b.ItemKind)
		}
		regrid = regrid || kinds || a.Box != b.Box || a.Visible != b.Visible
	}
	ps := slices.Clone(old)
	for i := range ps {
		ps[i].el = &s.Elements[i]
		if regrid {
			ps[i].col, ps[i].gridHead, ps[i].gridHeader = ps[i].ctxCol, 0, false
		}
	}
	if len(own) > 0 {
		func() {
			memo := lookupNorms(len(own))
			defer memo.done()
			for _, i := range own {
				var k rowKey
				r := memo.elementRow(&s.Elements[i], &k, len(fields))
				ps[i].norm, ps[i].toks, ps[i].joined, ps[i].masks = r.norm, r.toks, r.joined, r.masks
			}
		}()
		for _, i := range own {
			ps[i].lead, ps[i].leadToks, ps[i].leadJoined = leadFields(s, i) // a label stops one
		}
	}
	if regrid {
		gridColumns(s, ps)
	}
	switch {
	case !kinds:
		// Items are made of what prepDiff calls shared, item kinds and the containers: the same.
		s.prep.upOnce.Do(func() { s.prep.items = itemMaps(prev) })
	case !relisted:
		// Only which kind some items are (a selected card's class), each in the same list.
		s.prep.upOnce.Do(func() { s.prep.items = rekinded(itemMaps(prev), s) })
	}
	return ps
}

// rekinded is items, the items of a snapshot, for s, the same snapshot but for some items' kinds,
// each still of the same list (itemList): only the kinds differ. items is not changed.
func rekinded(items *itemInfo, s *Snapshot) *itemInfo {
	m := *items
	m.kinds = make(map[int]string, len(items.kinds))
	for i := range s.Elements {
		if e := &s.Elements[i]; e.Item != 0 {
			m.kinds[e.Item] = e.ItemKind
		}
	}
	for _, c := range s.Containers {
		m.kinds[c.Item] = c.Kind
	}
	return &m
}

// sameContainers tells whether a and b are the same containers (ok), and whether any of their
// kinds changed.
func sameContainers(a, b []Container) (kinds, ok bool) {
	if len(a) != len(b) {
		return false, false
	}
	for i := range a {
		if a[i].Item != b[i].Item || a[i].Up != b[i].Up {
			return false, false
		}
		kinds = kinds || a[i].Kind != b[i].Kind
	}
	return kinds, true
}

// How two elements in the same place of two snapshots differ for preparing.
const (
	diffNone   = iota // in nothing preparing reads but boxes, visibility and item kinds (grid headers, items)
	diffOwn           // also in fields only the element's own row reads (its class, its label...)
	diffShared        // in what other elements' preparing or the items read too
)

// prepDiff says how a and b differ (see diffNone...). Their boxes, visibility, item kinds, state
// (enabled, checked, covered), selector and id are not compared, nor an editable field's value
// (the ranker reads no typed text). A field added to Element counts as shared until it is listed.
func prepDiff(a, b *Element) int {
	x, y := *a, *b
	for _, e := range []*Element{&x, &y} {
		e.Box, e.Visible, e.Enabled, e.Checked, e.Covered, e.Selector, e.ID = Box{}, false, false, false, false, "", 0
		if x.Editable && y.Editable {
			e.Value = ""
		}
	}
	// An item's kind is read by grid headers and items alone, which carriedPrep works out
	// again when kinds changed.
	x.ItemKind, y.ItemKind = "", ""
	if x == y {
		return diffNone
	}
	// Read by the element's row alone (see fields) and, for the label, its lead: the name and
	// text are read by its neighbours' leads and by its price, the context by items.
	for _, e := range []*Element{&x, &y} {
		e.Label, e.AriaLabel, e.Placeholder, e.Title, e.Alt, e.Value = "", "", "", "", "", ""
		e.NameAttr, e.IDAttr, e.TestID, e.Class = "", "", "", ""
	}
	if x == y {
		return diffOwn
	}
	return diffShared
}

// A textMask says which characters a text has: a bit per letter a-z, one for all digits, one
// for anything else.
type textMask uint32

func charBit(b byte) textMask {
	switch {
	case b >= 'a' && b <= 'z':
		return 1 << (b - 'a')
	case b >= '0' && b <= '9':
		return 1 << 26
	}
	return 1 << 27
}

// allMask is the characters of s.
func allMask(s string) textMask {
	var m textMask
	for i := 0; i < len(s); i++ {
		m |= charBit(s[i])
	}
	return m
}

// starts is a set of the first two characters of toks, as 64 bits (two starts may share one).
func starts(toks []string) uint64 {
	var m uint64
	for _, t := range toks {
		switch len(t) {
		case 0:
		case 1:
			m |= 1 << (uint(t[0]) * 31 % 64)
		default:
			m |= 1 << ((uint(t[0])*31 + uint(t[1])) % 64)
		}
	}
	return m
}

// A fieldMask is a field value's characters and its tokens' starts, to tell in one test that
// match finds nothing of a query in it (see queryMask).
type fieldMask struct {
	all    textMask
	starts uint64
}

// A queryMask is what match needs a field value to share with query text q, tokens qtoks: match
// finds q itself in a value (equal, a prefix, at a word start or a compound's end) only where
// the value has every character q has, and a token of q only among tokens that start as it or
// as one of its alternatives does (an equal token, a whole token in a row of them, a prefix of
// four letters or more, an alternative).
type queryMask struct {
	all    textMask
	starts uint64
}

func newQueryMask(q string, qtoks []string) queryMask {
	m := queryMask{all: allMask(q), starts: starts(qtoks)}
	for _, t := range qtoks {
		m.starts |= starts(altsFor(t))
	}
	return m
}

// may reports whether match may find something of the query in a value of mask f.
func (m queryMask) may(f fieldMask) bool { return f.starts&m.starts != 0 || m.all&^f.all == 0 }
