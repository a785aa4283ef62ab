package semantic

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
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
// descendants, parentRole and lead (leadOf), which it takes from got.
func prepareRef(s *Snapshot, got []prepared) []prepared {
	ps := make([]prepared, len(s.Elements))
	for i := range s.Elements {
		e := &s.Elements[i]
		p := prepared{el: e, norm: make([]string, len(fields)), toks: make([][]string, len(fields)), joined: make([]string, len(fields))}
		p.price = isPrice(e.Text) || (e.Name != e.Text && isPrice(e.Name))
		for f := range fields {
			if v := fields[f].get(e); v != "" {
				p.norm[f] = normalize(v)
				p.toks[f] = tokens(p.norm[f])
				p.joined[f] = strings.Join(p.toks[f], " ")
			}
		}
		p.shape = valueShape(firstOf(p.norm[textField], p.norm[0]))
		p.descendants, p.parentRole = got[i].descendants, got[i].parentRole
		if seg, _, _ := strings.Cut(e.Context, " | "); seg != "" && !strings.HasPrefix(seg, "table") {
			p.col = tokens(normalize(seg))
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
