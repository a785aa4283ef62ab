package semantic

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rodeo-run/rodeo/browser/browsertest"
)

// memoSnapshot is a page of repeated and distinct values of every kind prepare looks at: prices,
// shapes, identifiers, blank text, editable values.
func memoSnapshot(n, salt int) *Snapshot {
	s := &Snapshot{Title: "Shop", prep: &prepCache{}}
	for i := 0; i < n; i++ {
		e := Element{ID: i, Parent: i/4 - 1, Role: "text", Tag: "span"}
		switch i % 6 {
		case 0:
			e.Name, e.Text = "Add to cart", "Add to cart"
			e.Role, e.Tag, e.Class = "button", "button", "btn btn-primary addToCart"
		case 1:
			e.Text = fmt.Sprintf("$%d.99", i%7)
			e.Class = "price"
		case 2:
			e.Name, e.Text = fmt.Sprintf("Product %d", i+salt), fmt.Sprintf("Product %d", i+salt)
			e.Context = "Products | list"
		case 3:
			e.Text, e.Name = "   ", "Total: 12 €"
			e.NameAttr, e.IDAttr, e.TestID = "first_name", "lastName", "qty-input"
		case 4:
			e.Label, e.Value, e.Editable, e.Placeholder = "Email address", "typed", true, "you@example.com…"
		case 5:
			e.Text, e.AriaLabel, e.Title, e.Alt = "12 Jan 2024, 10:30", "Delete item", "Remove?!", "bin icon"
			e.Context = fmt.Sprintf("row %d | Orders", i+salt)
		}
		s.Elements = append(s.Elements, e)
	}
	return s
}

// prepareRef is prepareNow as it was before values were remembered across snapshots, but for
// descendants, figures, parentRole and lead (leadOf), which it takes from got.
func prepareRef(s *Snapshot, got []prepared) []prepared {
	ps := make([]prepared, len(s.Elements))
	for i := range s.Elements {
		e := &s.Elements[i]
		p := prepared{el: e, norm: make([]string, len(fields)), toks: make([][]string, len(fields)), joined: make([]string, len(fields)), masks: make([]fieldMask, len(fields))}
		p.price = isPrice(e.Text) || (e.Name != e.Text && isPrice(e.Name))
		p.priceCond = p.price && len(e.Text) > 24 && priceAsCondition.MatchString(e.Text)
		for f := range fields {
			if v := fields[f].get(e); v != "" {
				p.norm[f] = normalize(v)
				p.toks[f] = tokens(p.norm[f])
				p.joined[f] = strings.Join(p.toks[f], " ")
				p.masks[f] = fieldMask{allMask(p.norm[f]), starts(p.toks[f])}
			}
		}
		p.shape = valueShape(firstOf(p.norm[textField], p.norm[0]))
		raw := e.Name
		if p.norm[textField] != "" {
			raw = e.Text
		}
		if d := dropMagnitudes(raw); d != raw {
			p.shape = valueShape(normalize(d))
		}
		p.descendants, p.figures, p.parentRole = got[i].descendants, got[i].figures, got[i].parentRole
		if seg, _, _ := strings.Cut(e.Context, " | "); seg != "" && !strings.HasPrefix(seg, "table") {
			p.col = tokens(normalize(seg))
			p.ctxCol = p.col
		}
		p.lead, p.leadToks, p.leadJoined = got[i].lead, got[i].leadToks, got[i].leadJoined
		ps[i] = p
	}
	return ps
}

// samePrepared checks prepare's result for s against prepareRef.
func samePrepared(t *testing.T, s *Snapshot, got []prepared) {
	t.Helper()
	if len(got) != len(s.Elements) {
		t.Fatalf("%d prepared, want %d", len(got), len(s.Elements))
	}
	want := prepareRef(s, got)
	for i := range want {
		g, w := got[i], want[i]
		g.toks, w.toks = nil, nil
		if !reflect.DeepEqual(g, w) {
			t.Fatalf("element %d:\n got %+v\nwant %+v", i, g, w)
		}
		for f := range fields {
			if strings.Join(got[i].toks[f], " ") != strings.Join(want[i].toks[f], " ") || len(got[i].toks[f]) != len(want[i].toks[f]) {
				t.Fatalf("element %d field %s: toks %q, want %q", i, fields[f].name, got[i].toks[f], want[i].toks[f])
			}
		}
	}
}

// TestPrepareMemo checks that values and rows remembered across snapshots (and shared between
// goroutines) prepare exactly what a fresh computation does, also when the memo starts over.
func TestPrepareMemo(t *testing.T) {
	for round := 0; round < 3; round++ {
		s := memoSnapshot(600, round%2)
		samePrepared(t, s, prepare(s))
	}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			s := memoSnapshot(300, g)
			samePrepared(t, s, prepareNow(s))
		}(g)
	}
	wg.Wait()
	// Past the bound the memo starts over.
	for salt := 1; salt <= 4; salt++ {
		prepareNow(memoSnapshot(normMemoMax, salt<<20))
		normMemo.RLock()
		n, rows, bytes := len(normMemo.m), len(normMemo.rows), normMemo.bytes
		normMemo.RUnlock()
		if n > normMemoMax || rows > normMemoMax || bytes > normMemoBytes {
			t.Errorf("memo holds %d values and %d rows of %d bytes, bound %d, %d", n, rows, bytes, normMemoMax, normMemoBytes)
		}
	}
	s := memoSnapshot(600, 3)
	samePrepared(t, s, prepareNow(s))
}

// TestAltsFor checks the alternatives table against the alternatives map.
func TestAltsFor(t *testing.T) {
	words := map[string]bool{"": true, "x": true, "availabiliti": true, "kindr": true}
	for a, m := range alternatives {
		words[a] = true
		for b := range m {
			words[b] = true
		}
	}
	for a := range words {
		for b := range words {
			if alternative(a, b) != isAlt(altsFor(a), b) {
				t.Errorf("alternative(%q, %q) = %v, altsFor disagrees", a, b, alternative(a, b))
			}
		}
	}
}

// TestCarriedPrep_MatchesFresh changes each field of Element in turn, in elements of real pages
// (a grid of divs, values led by labels, tables, repeated items), and checks that a snapshot
// prepared by carrying over the last one's work (carriedPrep) equals one prepared from scratch,
// items included, and that what should be carried over is.
func TestCarriedPrep_MatchesFresh(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test")
	}
	base := browsertest.Serve(t, "../testdata/grounding")
	carried := map[string]int{}
	var leads, grids int
	for _, name := range []string{"z18-school-timetable", "h01-airline-checkin", "46-sortable-grid", "x27-sports-standings"} {
		s0, err := Snap(context.Background(), browsertest.Page(t, base+"/"+name+".html"))
		if err != nil {
			t.Fatal(err)
		}
		ps0 := prepare(s0)
		var picks []int
		for i := range ps0 {
			if ps0[i].lead != "" || ps0[i].gridHead > 0 || i%(len(ps0)/6+1) == 0 {
				picks = append(picks, i)
			}
			if ps0[i].lead != "" {
				leads++
			}
			if ps0[i].gridHead > 0 {
				grids++
			}
		}
		et := reflect.TypeOf(Element{})
		for f := 0; f < et.NumField(); f++ {
			field := et.Field(f).Name
			for _, i := range picks {
				els := slices.Clone(s0.Elements)
				changeField(reflect.ValueOf(&els[i]).Elem().Field(f))
				checkCarried(t, s0, els, s0.Containers, name+" "+field, carried, field)
			}
		}
		// A scroll: every box moves.
		els := slices.Clone(s0.Elements)
		for i := range els {
			els[i].Box.Y -= 300
		}
		checkCarried(t, s0, els, s0.Containers, name+" scrolled", carried, "scroll")
		// An item's kind in the same list (a selected card: "li@5" becomes "li.selected@5").
		for _, i := range picks {
			if s0.Elements[i].Item == 0 {
				continue
			}
			els := slices.Clone(s0.Elements)
			for j := range els {
				if els[j].Item == s0.Elements[i].Item {
					k := els[j].ItemKind
					at := strings.LastIndexByte(k, '@')
					els[j].ItemKind = k[:at] + ".selected" + k[at:]
				}
			}
			checkCarried(t, s0, els, s0.Containers, name+" item kind in its list", carried, "ItemKind in its list")
		}
		// A container's kind (a card of blocks selected by a class).
		for i := range s0.Containers {
			cs := slices.Clone(s0.Containers)
			at := strings.LastIndexByte(cs[i].Kind, '@')
			cs[i].Kind = cs[i].Kind[:at] + ".selected" + cs[i].Kind[at:]
			checkCarried(t, s0, s0.Elements, cs, name+" container kind", carried, "Container.Kind")
		}
	}
	if leads == 0 || grids == 0 {
		t.Fatalf("the pages have %d leads and %d grid columns: the test needs both", leads, grids)
	}
	for _, f := range []string{"Box", "Visible", "Enabled", "Checked", "Covered", "Selector", "Label", "AriaLabel", "Placeholder", "Title", "Alt", "Value", "NameAttr", "IDAttr", "TestID", "Class", "ItemKind", "scroll", "Container.Kind", "ItemKind in its list"} {
		if carried[f] == 0 {
			t.Errorf("a change of %s is never carried over", f)
		}
	}
	for _, f := range []string{"Name", "Text", "Role", "Parent", "Context", "Item", "Tag", "Interactive"} {
		if carried[f] != 0 {
			t.Errorf("a change of %s was carried over %d times", f, carried[f])
		}
	}
}

// changeField changes v, a field of an Element, to another value of its kind.
func changeField(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(v.String() + " Total 7")
	case reflect.Int:
		v.SetInt(v.Int() + 1)
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Struct: // Box
		b := v.Addr().Interface().(*Box)
		b.X, b.W = b.X+120, b.W+5
	default:
		panic("changeField: " + v.Kind().String())
	}
}

// checkCarried prepares a snapshot of els and containers cs after s0 (prepared) both ways and
// compares them.
func checkCarried(t *testing.T, s0 *Snapshot, els []Element, cs []Container, what string, carried map[string]int, field string) {
	t.Helper()
	s1 := &Snapshot{URL: s0.URL, Title: s0.Title, Elements: els, Containers: cs, prep: &prepCache{}, prev: s0}
	got := carriedPrep(s1)
	if got == nil {
		return
	}
	carried[field]++
	fresh := &Snapshot{URL: s0.URL, Title: s0.Title, Elements: els, Containers: cs}
	want := prepareNow(fresh)
	for i := range want {
		g, w := got[i], want[i]
		if g.el != &els[i] {
			t.Fatalf("%s: element %d prepared from another snapshot's element", what, i)
		}
		g.el, w.el = nil, nil
		if !reflect.DeepEqual(g, w) {
			t.Fatalf("%s: element %d (%s) prepared\n%+v\nwant\n%+v", what, i, describe(&els[i]), g, w)
		}
	}
	if gi, wi := itemMaps(s1), itemMapsNow(fresh); !reflect.DeepEqual(gi, wi) {
		t.Fatalf("%s: items differ from a fresh preparation's", what)
	}
}

// TestQueryMask_NeverHidesAMatch checks, for every description of the corpus against every field
// of every element of its page, that whenever match finds something (quoted phrases, words) the
// masks say it may, so skipping the fields they rule out changes no score; and that they rule
// out most fields, or they are not worth having.
func TestQueryMask_NeverHidesAMatch(t *testing.T) {
	pages := corpusPages(t)
	var tried, skipped int
	for _, gp := range pages {
		ps := prepareNow(gp.snap)
		for _, c := range gp.file.Cases {
			p := Parse(c.Description)
			qt := newQueryText(&p)
			// The texts score matches against each field, with the masks it uses.
			type query struct {
				q, qt string
				toks  []string
				w     []float64
				mask  queryMask
			}
			qs := []query{
				{qt.rawWords, qt.wordsJoined, qt.words, qt.wordW, qt.wordsMask},
				{qt.wordsJoined, qt.wordsJoined, qt.words, nil, qt.joinedMask},
				{qt.roleWordsJoined, qt.roleWordsJoined, qt.roleWords, nil, qt.roleMask},
			}
			for i := range qt.phrases {
				qs = append(qs, query{qt.phrases[i], qt.phraseTokJoined[i], qt.phraseTok[i], nil, qt.phraseMasks[i]})
			}
			for k, q := range qs {
				m := newQueryMask(q.q, q.toks)
				if m != q.mask {
					t.Fatalf("%q: query text %d has another's mask", c.Description, k)
				}
				for i := range ps {
					for f := range fields {
						if ps[i].norm[f] == "" {
							continue
						}
						tried++
						may := m.may(ps[i].masks[f])
						if !may {
							skipped++
						}
						for _, exact := range []bool{false, true} {
							if s, _ := match(q.q, q.toks, q.w, q.qt, ps[i].norm[f], ps[i].toks[f], ps[i].joined[f], exact); s > 0 && !may {
								t.Fatalf("%s %q: match finds %q in %s %q (%.2f), the masks say it cannot", gp.name, c.Description, q.q, fields[f].name, ps[i].norm[f], s)
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d of %d field matches ruled out by their masks", skipped, tried)
	if skipped < tried/2 {
		t.Errorf("the masks rule out only %d of %d field matches", skipped, tried)
	}
}
