package semantic

import (
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
	shape shape // valueShape of norm
}

func newNormTok(v string, named bool) *normTok {
	t := &normTok{norm: normalize(v), named: named}
	t.toks = tokens(t.norm)
	t.toks = t.toks[:len(t.toks):len(t.toks)]
	t.joined = strings.Join(t.toks, " ")
	if named {
		t.price, t.shape = isPrice(v), valueShape(t.norm)
	}
	return t
}

// isPrice is isPrice(v) for t, the normTok of v.
func (t *normTok) isPrice(v string) bool {
	if t.named {
		return t.price
	}
	return isPrice(v)
}

// valueShape is valueShape(t.norm).
func (t *normTok) valueShape() shape {
	if t.named {
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

// row returns the row of an element whose values are k, with nf fields.
func (l *normLookup) row(k *rowKey, nf int) *normRow {
	l.left--
	if r := normMemo.rows[*k]; r != nil {
		return r
	}
	if len(l.norms) < nf {
		chunk := min(256, l.left+1)
		l.norms, l.toks, l.joined = make([]string, chunk*nf), make([][]string, chunk*nf), make([]string, chunk*nf)
	}
	r := &normRow{norm: l.norms[:nf:nf], toks: l.toks[:nf:nf], joined: l.joined[:nf:nf]}
	l.norms, l.toks, l.joined = l.norms[nf:], l.toks[nf:], l.joined[nf:]
	for f, t := range k[:nf] {
		if t != nil {
			r.norm[f], r.toks[f], r.joined[f] = t.norm, t.toks, t.joined
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
