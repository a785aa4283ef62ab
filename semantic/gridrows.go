package semantic

import (
	"math"
	"slices"
)

// rowGridColumns gives columns to a grid whose rows are each a grid of their own: a list of row
// divs that each lay out their cells with one CSS template ("display:grid;
// grid-template-columns:2fr 1fr 1fr"), the header row one of them. Plain cell divs repeat in
// every row, so each row's cells are a list of their own and no run of rows shares a header
// (see gridColumns); the rows themselves are items of one list. The header row is the first of
// its list, when its texts all read like column headers, three or more on one line; each text of
// the rows after it takes the header it overlaps across, as the template puts them one under
// the other, down to the first thing between two rows (a title: another table). Texts that
// gridColumns gave a column keep it.
func rowGridColumns(s *Snapshot, ps []prepared) {
	kinds := itemKinds(s)
	perKind := map[string][]int{}
	var order []string // the kinds in document order: a text in two lists' items takes the first's header
	for _, it := range itemMaps(s).order {
		k := kinds[it]
		if _, ok := perKind[k]; !ok {
			order = append(order, k)
		}
		perKind[k] = append(perKind[k], it)
	}
	var spans map[int][2]int
	for _, kind := range order {
		rows := perKind[kind]
		if len(rows) < 3 {
			continue // a header and two rows at least
		}
		if spans == nil {
			spans = itemSpans(s)
		}
		hs := headerItem(s, ps, spans[rows[0]])
		if hs == nil {
			continue
		}
		prev := rows[0]
		for _, r := range rows[1:] {
			if spans[r][0] != spans[prev][1]+1 {
				break // a title between (a card's "Invoices" after its tickets): another table
			}
			underHeader(s, ps, spans[r], hs)
			prev = r
		}
	}
}

// itemSpans is, per item, its first and last element in document order (nested items included).
func itemSpans(s *Snapshot) map[int][2]int {
	up := itemUps(s)
	out := map[int][2]int{}
	for i := range s.Elements {
		for it, n := s.Elements[i].Item, 0; it != 0 && n < 8; it, n = up[it], n+1 {
			if sp, ok := out[it]; ok {
				out[it] = [2]int{sp[0], i}
			} else {
				out[it] = [2]int{i, i}
			}
		}
	}
	return out
}

// headerItem returns the texts of the item whose elements span is, when it is a grid's header
// row: 3 to 16 leaves on one line, each a short text with a letter, no figure nor value (not
// "Yesterday"), none a control, no table cell. Nil otherwise.
func headerItem(s *Snapshot, ps []prepared, span [2]int) []int {
	var line []int
	for b := span[0]; b <= span[1]; b++ {
		h := &s.Elements[b]
		if tableRoles[h.Role] {
			return nil // a table's rows: its header cells say its columns
		}
		if ps[b].descendants > 0 || !h.Visible || h.Box.W <= 0 {
			continue
		}
		if !headerText(h) || hasDigit(h.Name) || ps[b].shape != 0 || len(line) > 0 && math.Abs(h.Box.Y-s.Elements[line[0]].Box.Y) > 3 {
			return nil
		}
		line = append(line, b)
	}
	return headerSized(line)
}

// underHeader gives each text of the row whose elements span is the header of hs it overlaps
// across, unless it has a column already.
func underHeader(s *Snapshot, ps []prepared, span [2]int, hs []int) {
	for i := span[0]; i <= span[1]; i++ {
		e := &s.Elements[i]
		if ps[i].descendants > 0 || ps[i].gridHead > 0 || e.Box.W <= 0 || slices.Contains(hs, i) {
			continue
		}
		for _, c := range hs {
			if overlapsAcross(s.Elements[c].Box, e.Box) {
				ps[i].col, ps[i].gridHead = ps[c].toks[0], c+1
				ps[c].gridHeader = true
				break
			}
		}
	}
}

// tableRoles are the roles of a table's cells, which have their columns from the table.
var tableRoles = map[string]bool{"cell": true, "gridcell": true, "columnheader": true, "rowheader": true}
