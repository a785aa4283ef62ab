package semantic

import (
	"math"
	"strings"
)

// gridColumns gives the elements of a grid laid out with divs (rows repeated, no table, no
// column roles) the words of the header above their column, as a table cell has its column
// header's: "the commit of the renovate pipeline" is the text under Commit in renovate's row.
// A grid's header is a line of at least three short texts, none a control, just above its
// first row or as its first row; an element takes the header it overlaps across (over what its
// context's first part said: a grid's column says more than the section it is in). Rows are
// items of a list with more than one text; the header is looked for above the first row of
// each run of them and holds until an item of the list of another kind with a single text on
// a line of its own, a title (a card's "Payment history" between its tables is an item of that
// list too): the rows after it are another table, with a header of their own or none. A row's
// label beside its cells ("Evening" in a rota) is no title.
func gridColumns(s *Snapshot, ps []prepared) {
	type header struct {
		kind string // the rows'
		hs   []int
	}
	var headsOf map[string]header
	var leaves map[int]int // an item's texts
	for i := range s.Elements {
		e := &s.Elements[i]
		if e.Item == 0 || e.Role == "cell" || e.Role == "gridcell" || ps[i].descendants > 0 || e.Box.W <= 0 {
			continue
		}
		if leaves == nil {
			headsOf, leaves = map[string]header{}, map[int]int{}
			for j := i; j < len(s.Elements); j++ {
				if s.Elements[j].Item != 0 && ps[j].descendants == 0 {
					leaves[s.Elements[j].Item]++
				}
			}
		}
		list := itemList(e.ItemKind)
		h, ok := headsOf[list]
		if leaves[e.Item] == 1 && (!ok || h.kind != e.ItemKind) {
			// A title, on a line of its own, ends the table; a row's label, beside the
			// row's first cell, does not.
			if (i+1 >= len(s.Elements) || !sideBySide(e.Box, s.Elements[i+1].Box)) && !(ok && scheduleBreak(s, ps, i, h.hs)) {
				delete(headsOf, list)
			}
			continue
		}
		if !ok {
			h = header{e.ItemKind, headerLine(s, ps, i, e.ItemKind)}
			if h.hs == nil {
				h.hs = headerRow(s, ps, i)
			}
			headsOf[list] = h
		}
		if len(h.hs) > 0 && e.Item == s.Elements[h.hs[0]].Item {
			continue // the header row itself
		}
		for _, c := range h.hs {
			if overlapsAcross(s.Elements[c].Box, e.Box) {
				ps[i].col, ps[i].gridHead = ps[c].toks[0], c+1
				ps[c].gridHeader = true
				break
			}
		}
	}
	rowGridColumns(s, ps)
	gridBlocks(s, ps)
}

// headerLine returns the header texts of the grid whose first row element first is in, or nil:
// the leaf texts on the line of the nearest leaf above first that is not in a row of its kind.
func headerLine(s *Snapshot, ps []prepared, first int, kind string) []int {
	top := s.Elements[first].Box.Y
	for a, n := first-1, 0; a >= 0 && n < 400; a, n = a-1, n+1 {
		e := &s.Elements[a]
		if e.Item != 0 && e.ItemKind == kind || ps[a].descendants > 0 || !e.Visible || e.Box.W <= 0 {
			continue // an earlier row, a wrapper, nothing to see
		}
		if e.Box.Y+e.Box.H > top+1 {
			continue // not above
		}
		if top-(e.Box.Y+e.Box.H) > 60 || !headerText(e) {
			return nil
		}
		var line []int
		for b := max(0, a-30); b < min(len(s.Elements), a+30); b++ {
			h := &s.Elements[b]
			if ps[b].descendants == 0 && h.Visible && math.Abs(h.Box.Y-e.Box.Y) <= 3 && (h.Item == 0 || h.ItemKind != kind) {
				if !headerText(h) {
					return nil
				}
				line = append(line, b)
			}
		}
		return headerSized(headerCells(s, ps, line))
	}
	return nil
}

// headerRow returns the leaves of the row that element first opens when that row is a grid's
// header written as one of its rows (<div role=row><span>Customer</span><span>Status</span>…):
// at least three short texts with a letter, none a control, on one line; nil otherwise.
func headerRow(s *Snapshot, ps []prepared, first int) []int {
	it := s.Elements[first].Item
	var line []int
	for b := first; b < len(s.Elements) && s.Elements[b].Item == it; b++ {
		h := &s.Elements[b]
		if ps[b].descendants > 0 {
			continue
		}
		if !headerText(h) || hasDigit(h.Name) || len(line) > 0 && math.Abs(h.Box.Y-s.Elements[line[0]].Box.Y) > 3 {
			return nil
		}
		line = append(line, b)
	}
	return headerSized(line)
}

// headerSized is line when it has as many texts as a header row does (3 to 16), else nil.
func headerSized(line []int) []int {
	if len(line) < 3 || len(line) > 16 {
		return nil
	}
	return line
}

// headerText reports whether e reads like a column header: short text with a letter, or a
// sign that heads a column of numbers or amounts ("#", "№", "%"), not a control.
func headerText(e *Element) bool {
	t := strings.TrimSpace(firstOf(e.Text, e.Name))
	if e.Interactive || t == "" || len([]rune(t)) > 30 {
		return false
	}
	return hasLetter(t) || len([]rune(t)) <= 2 && strings.Trim(t, "#№%$€£") == ""
}

// sideBySide reports whether boxes a and b share at least half the lower one's height.
func sideBySide(a, b Box) bool {
	return min(a.Y+a.H, b.Y+b.H)-max(a.Y, b.Y) >= 0.5*min(a.H, b.H)
}

// overlapsAcross reports whether boxes a and b share at least half the narrower one's width.
func overlapsAcross(a, b Box) bool {
	return min(a.X+a.W, b.X+b.W)-max(a.X, b.X) >= 0.5*min(a.W, b.W)
}
