package semantic

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/go-rod/rod"
	"github.com/rodeo-run/rodeo/browser/browsertest"
)

// TestSnap_DeltaMatchesWhole: Snap's snapshots, sent as differences from the last one, must
// decode to what a whole snapshot says, across DOM changes and a navigation.
func TestSnap_DeltaMatchesWhole(t *testing.T) {
	ctx := context.Background()
	p, _ := snapFixture(t, "signup.html")
	for round := 0; round < 24; round++ {
		if round == 12 {
			if err := p.Navigate(strings.Replace(p.MustInfo().URL, "signup.html", "table.html", 1)); err != nil {
				t.Fatal(err)
			}
			if err := p.WaitLoad(); err != nil {
				t.Fatal(err)
			}
		}
		if round%4 != 3 {
			if _, err := p.Evaluate(rod.Eval(mutateJS, 31*round+7)); err != nil {
				t.Fatal(err)
			}
		}
		s, err := Snap(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		base := snapBases.get(baseKey(p))
		if base == nil || base.gen != s.Gen {
			t.Fatalf("round %d: no base kept for the page", round)
		}
		// Snap's own snapshot is checked again by a second one: the page sends it whole.
		sameAsWhole(t, fmt.Sprintf("round %d", round), p, s)
	}
}

// TestReadMessage_Malformed: bad messages and differences are errors, never panics.
func TestReadMessage_Malformed(t *testing.T) {
	body := "Bu" + "A" + "B" + "A" + "ABa" + "ABb" + "A" + "ABc" + "A" + "Ebody" + "AAAA" + "ABn"
	full := "F" + "Cdc" + "B" + body
	b, s, err := readMessage(full, nil)
	if err != nil {
		t.Fatal(err)
	}
	if b.doc != "dc" || b.gen != 1 || s.Gen != 1 || len(s.Elements) != 1 || s.Elements[0].Name != "n" {
		t.Fatalf("decoded %+v %+v", b, s)
	}
	same := "D" + "C" + wireNum(len(body)) + "A"
	b2, s2, err := readMessage(same, b)
	if err != nil || s2.Gen != 2 || b2.gen != 2 || &s2.Elements[0] != &s.Elements[0] {
		t.Fatalf("the same snapshot again: %v %+v", err, s2)
	}
	// The name "n" becomes "m": prefix all but the last unit, no suffix.
	changed := "D" + "D" + wireNum(len(body)-1) + "A" + "m"
	if _, s3, err := readMessage(changed, b); err != nil || s3.Elements[0].Name != "m" || s3.Gen != 3 {
		t.Fatalf("a changed name: %v %+v", err, s3)
	}
	if b, _, err := readMessage("F"+"C\"x"+"B"+body, nil); err != nil || b.doc != "" {
		t.Errorf("a document id that is no base64: %v %+v", err, b)
	}
	if _, _, err := readMessage(same, nil); err != errNoBase {
		t.Errorf("a difference without a base: %v", err)
	}
	// A patch: element 0 checked (bits 512), 1.5 px lower, its value "v". Nothing changed: the
	// elements are shared. A difference of nothing after a patch is the body's, not the patch's.
	patch := "P" + "E" + "Bu" + "A" + "B" + "A" + wireNum(512) + "A" + "e" + "A" + "A" + "C" + "Bv" + "A"
	b4, s4, err := readMessage(patch, b)
	if err != nil || !s4.Elements[0].Checked || s4.Elements[0].Box.Y != s.Elements[0].Box.Y+1.5 || s4.Elements[0].Value != "v" || s4.Elements[0].Name != "n" || !b4.patched || b4.body != b.body {
		t.Fatalf("a patch: %v %+v", err, s4)
	}
	if s.Elements[0].Checked || s.Elements[0].Value != "" {
		t.Fatalf("a patch changed the snapshot it patched: %+v", s.Elements[0])
	}
	if _, s5, err := readMessage("P"+"F"+"Bu"+"A"+"A"+"A", b4); err != nil || &s5.Elements[0] != &s4.Elements[0] {
		t.Fatalf("an empty patch: %v %+v", err, s5)
	}
	if _, s6, err := readMessage("D"+"G"+wireNum(len(body))+"A", b4); err != nil || s6.Elements[0].Checked || &s6.Elements[0] == &s4.Elements[0] {
		t.Fatalf("the body again after a patch: %v %+v", err, s6)
	}
	if _, _, err := readMessage(patch, nil); err != errNoBase {
		t.Errorf("a patch without a base: %v", err)
	}
	// A kind for item 1 ("li.x@1"): no element of the body is in an item, so none changes, but
	// the snapshot is a new one.
	if _, s7, err := readMessage("P"+"H"+"Bu"+"A"+"A"+"B"+"B"+"Gli.x@1", b4); err != nil || &s7.Elements[0] == &s4.Elements[0] || s7.Elements[0] != s4.Elements[0] {
		t.Fatalf("a kind changed: %v %+v", err, s7)
	}
	for _, m := range []string{"P", "PE", "PEBu", "PEBuA", "PEBuAA", "PE" + "Bu" + "A" + "C", "PE" + "Bu" + "A" + "B" + "B" + "A" + "AAAA" + "A", patch + "A",
		"PE" + "Bu" + "A" + "B" + "A" + "A" + "AAAA" + "H" + "A", "PE" + "Bu" + "A" + "A" + "B" + "A" + "Bx", "PE" + "Bu" + "A" + "A" + "D" + "B" + "Bx" + "C" + "By", "PE" + "Bu" + "A" + "A" + "B" + "B"} {
		if _, _, err := readMessage(m, b); err == nil {
			t.Errorf("%q: no error", m)
		}
	}
	for i := 0; i < len(patch); i++ {
		for _, c := range []byte{'!', '_', 'z', 'A', 'D'} {
			_, _, _ = readMessage(patch[:i]+string(c)+patch[i+1:], b)
		}
	}
	for _, m := range []string{"", "X", "D", "DB", "DBB", "D" + "B" + wireNum(len(body)+1) + "A", "D" + "B" + wireNum(len(body)) + "B", "F", "FC", "FCdcB", full + "A"} {
		if _, _, err := readMessage(m, b); err == nil {
			t.Errorf("%q: no error", m)
		}
	}
	for i := 0; i < len(full); i++ {
		for _, c := range []byte{'!', '_', 'z', 'A', 'D'} {
			_, _, _ = readMessage(full[:i]+string(c)+full[i+1:], b)
			_, _, _ = readMessage(changed[:min(i, len(changed)-1)]+string(c)+changed[min(i, len(changed)-1)+1:], b)
		}
	}
	// Code units against bytes.
	for _, c := range []struct {
		s    string
		n, b int
	}{{"ab", 1, 1}, {"a👍", 2, 4}, {"a👍", 1, -1}, {"é日", 1, 3}, {"x", 2, -1}} {
		if got := unitsFromEnd(c.s, c.n); got != c.b {
			t.Errorf("unitsFromEnd(%q, %d) = %d, want %d", c.s, c.n, got, c.b)
		}
	}
}

// wireNum is the wire form of the number n (tests).
func wireNum(n int) string {
	const b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	s := ""
	for n >= 32 {
		s += string(b64[32+n%32])
		n /= 32
	}
	return s + string(b64[n])
}

// TestSnap_FramePage snapshots an iframe's own page (rod's frame page) twice: the second answer
// is a difference from the first, and both equal a whole snapshot.
func TestSnap_FramePage(t *testing.T) {
	ctx := context.Background()
	p := fixture(t, "shadow.html")
	el, err := p.Element("#frame")
	if err != nil {
		t.Fatal(err)
	}
	fp, err := el.Frame()
	if err != nil {
		t.Fatal(err)
	}
	var first *Snapshot
	for i := 0; i < 3; i++ {
		if i == 2 {
			if _, err := fp.Eval(`() => document.body.append(Object.assign(document.createElement('button'), {textContent: 'Added later'}))`); err != nil {
				t.Fatal(err)
			}
		}
		s, err := Snap(ctx, fp)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Elements) == 0 {
			t.Fatal("empty frame snapshot")
		}
		if i == 0 {
			first = s
		}
		if b := snapBases.get(baseKey(fp)); b == nil || b.gen != s.Gen {
			t.Fatalf("snapshot %d: no base kept for the frame", i)
		}
		if i == 1 && (len(s.Elements) != len(first.Elements) || &s.Elements[0] != &first.Elements[0]) {
			t.Errorf("the unchanged frame was not reused")
		}
		if i == 2 && s.Elements[len(s.Elements)-1].Name != "Added later" {
			t.Errorf("the frame's new button is missing: %+v", s.Elements[len(s.Elements)-1])
		}
	}
	if baseKey(fp) == baseKey(p) {
		t.Error("a frame and its page share a base")
	}
}

// TestSnap_PatchMatchesWhole: after changes that leave the page's elements as they were (values,
// check boxes, classes, scrolling, reflow, hiding by style), Snap's snapshot comes as a patch to
// the last one and must equal what a whole snapshot says; changes that do not (a node added,
// an item's kind changed) come whole or as a difference, and must too.
func TestSnap_PatchMatchesWhole(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "replay.html"), []byte(replayPage), 0o644); err != nil {
		t.Fatal(err)
	}
	p := browsertest.Page(t, browsertest.Serve(t, dir)+"/replay.html")
	patches := func() int { return p.MustEval(`(k) => window[k].patches || 0`, windowKey).Int() }
	for _, c := range []struct {
		name, act string
		patch     bool
	}{
		{"nothing", `() => {}`, true},
		{"type into a field", `() => { document.getElementById('name').value = 'Ada Lovelace'; }`, true},
		{"a password", `() => { document.getElementById('pw').value = 'hunter2'; }`, true},
		{"check a box", `() => document.getElementById('cb').click()`, true},
		{"choose an option", `() => { document.getElementById('sel').selectedIndex = 1; }`, true},
		{"a progress bar moves", `() => { document.getElementById('prog').value = 150; }`, true},
		{"disable a field", `() => { document.getElementById('name').disabled = true; }`, false},
		{"reflow by class", `() => document.getElementById('sib1').classList.add('big')`, true},
		{"a link's class", `() => { document.querySelector('#card1 a').className = 'go'; }`, true},
		{"hide by style", `() => { document.getElementById('sib2').style.visibility = 'hidden'; }`, true},
		{"scroll the window", `() => window.scrollTo(0, 250)`, true},
		{"scroll the window back", `() => window.scrollTo(0, 0)`, true},
		{"scroll an inner box", `() => { document.getElementById('box').scrollTop = 45; }`, true},
		{"a value and a class", `() => { document.querySelector('#card2 a').className = 'go now'; document.getElementById('ta').value = 'Notes'; }`, true},
		{"an item's kind changes", `() => { document.getElementById('li2').className = 'zz'; }`, true},
		{"a container's kind changes", `() => { document.getElementById('k2').className = 'picked'; }`, true},
		{"and back", `() => { document.getElementById('k2').className = 'k'; }`, true},
		{"a node added", `() => { const b = document.createElement('button'); b.textContent = 'Added'; document.body.prepend(b); }`, false},
		{"the value again after a walk", `() => { document.getElementById('name').value = 'Grace'; }`, true},
	} {
		if _, err := Snap(ctx, p); err != nil { // the base: the page answers whole after whole() below
			t.Fatal(err)
		}
		n := patches()
		if _, err := p.Evaluate(rod.Eval(c.act)); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		s, err := Snap(ctx, p)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := patches() == n+1; got != c.patch {
			t.Errorf("%s: sent as a patch %v, want %v", c.name, got, c.patch)
		}
		sameAsWhole(t, c.name, p, s)
	}
}

// sameAsWhole fails the test unless s (Snap's, taken last) equals what the page says asked
// for a whole snapshot now. The page then holds no base the caller knows: the next Snap is
// answered whole.
func sameAsWhole(t *testing.T, what string, p *rod.Page, s *Snapshot) {
	t.Helper()
	res, err := p.Evaluate(rod.Eval(`(k, f) => window[k][f]()`, windowKey, snapFn))
	if err != nil {
		t.Fatal(err)
	}
	_, w, err := readMessage(res.Value.Str(), nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Gen, w.Gen = 0, 0
	s.prep, w.prep, s.prev = nil, nil, nil
	if !reflect.DeepEqual(s, w) {
		for i := range min(len(s.Elements), len(w.Elements)) {
			if !reflect.DeepEqual(s.Elements[i], w.Elements[i]) {
				t.Fatalf("%s: element %d:\n%+v\n%+v", what, i, s.Elements[i], w.Elements[i])
			}
		}
		t.Fatalf("%s: %d vs %d elements, %q/%q vs %q/%q", what, len(s.Elements), len(w.Elements), s.URL, s.Title, w.URL, w.Title)
	}
}
