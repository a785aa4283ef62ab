package semantic

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/go-rod/rod"
)

// snapBase is the last snapshot this process took of a page (a document of a tab or frame): the
// page may answer the next Snap with only the difference from its body.
type snapBase struct {
	doc  string // the page-side document id (random per document)
	gen  int
	body string // the wire format without the generation
	snap *Snapshot
	// patched: snap is body's snapshot with patches applied (see applyPatches), so a
	// difference of nothing from body is not snap.
	patched bool
	tick    uint64 // when it was stored, for eviction
}

// snapBases holds a snapBase per page (see baseKey), bounded in count and bytes. A base is only a
// hint of what to ask for: the page sends a difference only from the generation of its own
// document that it sent last, so a stale or mixed-up entry costs a whole snapshot, never a wrong
// one.
var snapBases = &baseCache{m: map[string]*snapBase{}}

const (
	maxBases     = 64
	maxBaseBytes = 32 << 20
)

// size is roughly the memory a base holds.
func (b *snapBase) size() int {
	return len(b.body) + len(b.snap.Elements)*int(unsafe.Sizeof(Element{}))
}

type baseCache struct {
	mu    sync.Mutex
	m     map[string]*snapBase
	bytes int
	tick  uint64
}

// baseKey names the page a snapshot is taken of: the tab (target and CDP session) and, for an
// iframe's page, the frame.
func baseKey(page *rod.Page) string {
	return string(page.TargetID) + "/" + string(page.SessionID) + "/" + string(page.FrameID)
}

func (c *baseCache) get(key string) *snapBase {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[key]
}

// put stores b as key's base unless a newer generation of the same document is already there.
func (c *baseCache) put(key string, b *snapBase) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old := c.m[key]; old != nil {
		if old.doc == b.doc && old.gen > b.gen {
			return
		}
		c.bytes -= old.size()
		delete(c.m, key)
	}
	if b.size() > maxBaseBytes/4 {
		return
	}
	for len(c.m) >= maxBases || (c.bytes+b.size() > maxBaseBytes && len(c.m) > 0) {
		var oldest string
		var t uint64
		for k, v := range c.m {
			if oldest == "" || v.tick < t {
				oldest, t = k, v.tick
			}
		}
		c.bytes -= c.m[oldest].size()
		delete(c.m, oldest)
	}
	c.tick++
	b.tick = c.tick
	c.m[key] = b
	c.bytes += b.size()
}

// errNoBase: the page sent a difference from a snapshot the caller does not hold.
var errNoBase = errors.New("difference from an unknown snapshot")

// readMessage decodes the page's answer to snapW10 (see snapshot.js):
//
//	"F" doc (string) gen body: a whole snapshot of document doc.
//	"D" gen p s rest: the body is the first p and the last s UTF-16 code units of base's body
//	   with rest in between.
//	"P" gen url title n patches k kinds: base's snapshot with n elements' state and k items'
//	   kinds changed (see applyPatches); base's body stays the body of the next difference.
//
// It returns the snapshot and the base it makes for the next one.
func readMessage(msg string, base *snapBase) (*snapBase, *Snapshot, error) {
	if msg == "" {
		return nil, nil, fmt.Errorf("%w: empty", errWire)
	}
	r := &wireReader{s: msg, i: 1}
	switch msg[0] {
	case 'F':
		doc := r.str()
		gen := r.num()
		if r.err != nil {
			return nil, nil, r.err
		}
		body := msg[r.i:]
		s, err := decodeBody(&wireReader{s: body}, gen)
		if err != nil {
			return nil, nil, err
		}
		if !docID(doc) {
			doc = "" // never asked for again: the next answer is whole
		}
		return &snapBase{doc: doc, gen: gen, body: body, snap: s}, s, nil
	case 'D':
		gen, p, sfx := r.num(), r.num(), r.num()
		if r.err != nil {
			return nil, nil, r.err
		}
		if base == nil {
			return nil, nil, errNoBase
		}
		mid := msg[r.i:]
		old := base.body
		pb, sb := unitsToBytes(old, p), unitsFromEnd(old, sfx)
		if pb < 0 || sb < 0 || pb+sb > len(old) {
			return nil, nil, fmt.Errorf("%w: difference of %d+%d units from %d bytes", errWire, p, sfx, len(old))
		}
		if mid == "" && pb == len(old) && !base.patched {
			// The same snapshot again: its elements, and the ranker's work on them, are shared
			// (snapshots are never modified; only Gen differs).
			s := &Snapshot{Gen: gen, URL: base.snap.URL, Title: base.snap.Title, Elements: base.snap.Elements, Containers: base.snap.Containers, prep: base.snap.prep}
			return &snapBase{doc: base.doc, gen: gen, body: old, snap: s}, s, nil
		}
		body := old[:pb] + mid + old[len(old)-sb:]
		s, err := decodeBody(&wireReader{s: body}, gen)
		if err != nil {
			return nil, nil, err
		}
		if c := base.snap.prep; c != nil && c.ready.Load() {
			s.prev = base.snap // prepared, so with no prev of its own: one link at most
		}
		return &snapBase{doc: base.doc, gen: gen, body: body, snap: s}, s, nil
	case 'P':
		gen := r.num()
		if r.err != nil {
			return nil, nil, r.err
		}
		if base == nil {
			return nil, nil, errNoBase
		}
		s, err := applyPatches(r, base.snap, gen)
		if err != nil {
			return nil, nil, err
		}
		return &snapBase{doc: base.doc, gen: gen, body: base.body, snap: s, patched: true}, s, nil
	}
	return nil, nil, fmt.Errorf("%w: unknown message kind %q", errWire, msg[0])
}

// tenths is v (a box coordinate, in tenths of a pixel on the wire) moved by d tenths.
func tenths(v float64, d int) float64 { return float64(int(math.Round(v*10))+d) / 10 }

// applyPatches reads a patch (see patchRows in snapshot.js) to old from r, which must end with
// it: the snapshot old was with some elements' state (bits, box, text, value, class, colour) changed,
// and some items' kinds (a class change that made a selected card's kind "li.selected@3").
// When nothing changed, old's elements and the ranker's work on them are shared.
func applyPatches(r *wireReader, old *Snapshot, gen int) (*Snapshot, error) {
	url, title := r.str(), r.str()
	n := r.num()
	if r.err != nil {
		return nil, r.err
	}
	if n > len(old.Elements) {
		return nil, fmt.Errorf("%w: %d patches to %d elements", errWire, n, len(old.Elements))
	}
	// Nothing changed: old's elements and the ranker's work on them are shared. Else s gets its
	// own copy of them (own), and its preparation starts anew.
	s := &Snapshot{Gen: gen, URL: url, Title: title, Elements: old.Elements, Containers: old.Containers, prep: old.prep}
	owned := false
	own := func() {
		if !owned {
			s.Elements, s.prep, owned = slices.Clone(old.Elements), &prepCache{}, true
		}
	}
	if n > 0 {
		own()
	}
	i := -1
	var dx, dy, dw, dh int
	for range n {
		i += r.num() + 1
		bits := r.num()
		dx += r.signed()
		dy += r.signed()
		dw += r.signed()
		dh += r.signed()
		what := r.num()
		if r.err != nil {
			return nil, r.err
		}
		if i >= len(s.Elements) {
			return nil, fmt.Errorf("%w: a patch to element %d of %d", errWire, i, len(s.Elements))
		}
		e := &s.Elements[i]
		e.Box = Box{X: tenths(e.Box.X, dx), Y: tenths(e.Box.Y, dy), W: tenths(e.Box.W, dw), H: tenths(e.Box.H, dh)}
		e.Visible = bits&wHidden == 0
		e.Enabled = bits&wDisabled == 0
		e.Editable = bits&wEditable != 0
		e.Checked = bits&wChecked != 0
		if what&1 != 0 {
			t := r.str()
			switch {
			case bits&wText != 0:
				e.Text = t
			case bits&wTextSame != 0:
				e.Text = e.Name
			default:
				e.Text = ""
			}
		}
		if what&2 != 0 {
			e.Value = r.str()
		}
		if what&4 != 0 {
			e.Class = r.str()
		}
		if what&8 != 0 {
			e.Color = r.str() // recoloured by a class or a style (see patchRows)
		}
	}
	kinds, err := readKinds(r, len(old.Elements)+len(old.Containers))
	if err != nil {
		return nil, err
	}
	if len(kinds) > 0 {
		own()
		rekind(s, kinds)
	}
	if r.err == nil && r.i != len(r.s) {
		r.fail("end")
	}
	if r.err != nil {
		return nil, r.err
	}
	if owned {
		if c := old.prep; c != nil && c.ready.Load() {
			s.prev = old // prepared, so with no prev of its own: one link at most
		}
	}
	return s, nil
}

// readKinds reads the end of a patch from r: the items whose kind changed (a count, no more than most,
// then each item's number and kind), by item.
func readKinds(r *wireReader, most int) (map[int]string, error) {
	k := r.num()
	if r.err != nil || k == 0 {
		return nil, r.err
	}
	if k > most {
		return nil, fmt.Errorf("%w: %d item kinds for %d elements and containers", errWire, k, most)
	}
	kinds := make(map[int]string, k)
	for range k {
		item, kind := r.num(), r.str()
		if r.err != nil {
			return nil, r.err
		}
		if item <= 0 {
			return nil, fmt.Errorf("%w: a kind for item %d", errWire, item)
		}
		kinds[item] = kind
	}
	return kinds, nil
}

// rekind gives the elements and containers of s of the items in kinds their new kind. s's
// elements are its own; its containers, shared with the snapshot it was patched from, are
// copied before the first change.
func rekind(s *Snapshot, kinds map[int]string) {
	for i := range s.Elements {
		if kind, ok := kinds[s.Elements[i].Item]; ok {
			s.Elements[i].ItemKind = kind
		}
	}
	copied := false
	for i, c := range s.Containers {
		if kind, ok := kinds[c.Item]; ok && kind != c.Kind {
			if !copied {
				s.Containers, copied = slices.Clone(s.Containers), true
			}
			s.Containers[i].Kind = kind
		}
	}
}

// docID reports whether doc looks like a page-side document id (base64url, short), which Snap
// quotes into its expression.
func docID(doc string) bool {
	if doc == "" || len(doc) > 64 {
		return false
	}
	for i := 0; i < len(doc); i++ {
		if b64[doc[i]] < 0 {
			return false
		}
	}
	return true
}

// unitsFromEnd returns the length in bytes of s's last n UTF-16 code units, or -1 when s is
// shorter or n ends inside a character.
func unitsFromEnd(s string, n int) int {
	i := len(s)
	for n > 0 && i > 0 {
		if s[i-1] < utf8.RuneSelf {
			i--
			n--
			continue
		}
		r, w := utf8.DecodeLastRuneInString(s[:i])
		i -= w
		if r >= 0x10000 {
			n -= 2
		} else {
			n--
		}
	}
	if n != 0 {
		return -1
	}
	return len(s) - i
}
