package semantic

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Time grids and schedules: timetables, TV guides, class schedules and week views are grids
// with a header line of days or times over their columns and a column of periods, times or
// channels down their left. People name a cell by them ("the first lesson on Wednesday", "who
// teaches period 2 on Monday", "what's on BBC One at 8pm").

// headerCells lifts each header leaf of line to the header cell it is part of: a day's
// header is often written "Mon <span>9 Jun</span>", whose only leaf is the date, and the
// column is Monday's. A leaf's parent is its cell when the parent reads as a header (short,
// no control), holds nothing but the leaf (and its own text) and says more than the leaf.
// Leaves of one cell come out as one.
func headerCells(s *Snapshot, ps []prepared, line []int) []int {
	out := line[:0:0]
	for _, b := range line {
		c := b
		if pa := s.Elements[b].Parent; pa >= 0 && pa < b && ps[pa].descendants == ps[b].descendants+1 {
			pe, le := &s.Elements[pa], &s.Elements[b]
			pt, lt := strings.TrimSpace(firstOf(pe.Text, pe.Name)), strings.TrimSpace(firstOf(le.Text, le.Name))
			if headerText(pe) && len(pt) > len(lt) && strings.Contains(pt, lt) {
				c = pa
			}
		}
		if len(out) == 0 || out[len(out)-1] != c {
			out = append(out, c)
		}
	}
	return out
}

// initialNumbers rewrites a numbered noun of p's words as the page abbreviates it, its
// initial and the number ("period 2" -> "p2"), when some element says the abbreviation and
// none spells the noun before the number (a "Study period" elsewhere is no period 2):
// timetables head their rows P1, P2..., reports their quarters Q1-Q4. Like wordsInContext it
// reads the description against the page once.
func initialNumbers(ps []prepared, p *Parsed) {
	changed := false
	for i := 0; i+1 < len(p.Words); i++ {
		noun, num := p.Words[i], p.Words[i+1]
		if len(noun) < 4 || noun[0] < 'a' || noun[0] > 'z' || len(num) > 2 || strings.Trim(num, "0123456789") != "" {
			continue
		}
		abbr := noun[:1] + num
		if !anyCarries(ps, abbr) || saysNumbered(ps, stem(noun), num) {
			continue
		}
		p.Words = append(append(p.Words[:i:i], abbr), p.Words[i+2:]...)
		changed = true
	}
	if changed {
		n := len(p.Quoted)
		p.Texts = append(p.Texts[:n:n], p.Words...)
	}
}

// timeGridCell resolves a description that names a day of a time grid's header and, within
// that day's column, which entry: the Nth or last ("the first lesson on Wednesday"), the one
// after or before a line that crosses the grid ("what do we have after lunch on Tuesday"), or
// the one in the row a label at the grid's left names ("who teaches period 2 on Monday").
// The answer is the entry's own field (see entryField). ok is false when the description names
// no header's day, or no entry of its column in one of those ways: the ranking decides.
func timeGridCell(s *Snapshot, ps []prepared, p *Parsed, desc string, intent Intent) (int, string, bool) {
	raw := rawWords(desc)
	day := ""
	for _, w := range raw {
		if weekday(w) {
			if day != "" && day != stem(w) {
				return -1, "", false // two days: a comparison, or a range
			}
			day = stem(w)
		}
	}
	if day == "" {
		return labelledLine(s, ps, p, intent)
	}
	col, head := dayColumn(s, ps, day)
	if len(col) == 0 {
		return -1, "", false
	}
	var entry []int
	var why string
	if named, side := sequenceIn(raw); p.Ordinal != 0 {
		n := p.Ordinal
		if n < 0 {
			n += len(col) + 1
		}
		if n < 1 || n > len(col) {
			return -1, "", false
		}
		entry, why = col[n-1], fmt.Sprintf("the %s of %d entries under %s", ordinalText(p.Ordinal), len(col), day)
	} else if side != 0 {
		if line := lineNamed(s, ps, named, col); line >= 0 {
			entry = besideLine(s, col, s.Elements[line].Box, side)
			why = fmt.Sprintf("the entry under %s next to %q", day, clip(firstOf(s.Elements[line].Name, s.Elements[line].Text), 30))
		}
	} else {
		entry, why = rowOfLabel(s, ps, p, day, col, gridLeft(s, ps, head))
	}
	if entry == nil {
		return -1, "", false
	}
	if f := entryField(s, p, entry[0], intent); f >= 0 {
		return f, why, true
	}
	return -1, "", false
}

// dayColumn returns the entries of the time grid column whose header names day (a stem,
// "wed"), top to bottom, each as its elements in the column (an entry is the item its
// elements are in, or the element itself), and the header; nil when no grid header names
// the day.
func dayColumn(s *Snapshot, ps []prepared, day string) ([][]int, int) {
	var col [][]int
	head := -1
	at := map[int]int{} // an entry's key -> its index in col
	for i := range ps {
		if ps[i].gridHead == 0 || !contains(ps[i].col, day) || !s.Elements[i].Visible {
			continue
		}
		if head < 0 {
			head = ps[i].gridHead - 1
		} else if head != ps[i].gridHead-1 {
			return nil, -1 // two grids, or two columns of the day
		}
		key := -1 - i
		if it := s.Elements[i].Item; it != 0 {
			key = it
		}
		k, ok := at[key]
		if !ok {
			k = len(col)
			at[key] = k
			col = append(col, nil)
		}
		col[k] = append(col[k], i)
	}
	return col, head
}

// gridLeft is where the columns of the grid whose header h is start: the left edge of the
// leftmost header beside h. The rows' labels are left of it.
func gridLeft(s *Snapshot, ps []prepared, h int) float64 {
	left := s.Elements[h].Box.X
	for k := max(0, h-40); k < min(len(ps), h+40); k++ {
		if e := &s.Elements[k]; ps[k].gridHeader && sideBySide(e.Box, s.Elements[h].Box) {
			left = min(left, e.Box.X)
		}
	}
	return left
}

// sequenceIn finds "after X" or "before X" in a description's raw words: X's salient words
// (no day, no stop word) and the side, 1 after and -1 before; side 0 when there is none.
func sequenceIn(raw []string) ([]string, int) {
	for i, w := range raw {
		side := sequenceWords[w]
		if side == 0 {
			continue
		}
		var named []string
		for _, x := range raw[i+1:] {
			if !stopWords[x] && !weekday(x) {
				named = append(named, x)
			}
		}
		return named, side
	}
	return nil, 0
}

// lineNamed returns the element outside the column's entries that says every word of named
// and lies across the column's height (a break or lunch line of a timetable), or -1.
func lineNamed(s *Snapshot, ps []prepared, named []string, col [][]int) int {
	if len(named) == 0 {
		return -1
	}
	top, bottom := s.Elements[col[0][0]].Box.Y, s.Elements[col[len(col)-1][0]].Box.Y
	for i := range ps {
		e := &s.Elements[i]
		if ps[i].gridHead > 0 || ps[i].descendants > 0 || !e.Visible || e.Box.Y < top || e.Box.Y > bottom {
			continue
		}
		if containsAll(ownWordsOf(e), named) {
			return i
		}
	}
	return -1
}

// besideLine returns the first entry of col below box (side 1) or the last above it (side -1).
func besideLine(s *Snapshot, col [][]int, box Box, side int) []int {
	var pick []int
	for _, entry := range col {
		b := s.Elements[entry[0]].Box
		switch {
		case side > 0 && b.Y >= box.Y+box.H-2:
			return entry
		case side < 0 && b.Y+b.H <= box.Y+2:
			pick = entry
		}
	}
	return pick
}

// rowOfLabel returns the entry of col in the row a label at the grid's left names: a leaf
// outside the columns, left of them (of left), that says one of the description's words other
// than the day, beside exactly one entry of the column ("P2" for period 2, made so by
// initialNumbers).
func rowOfLabel(s *Snapshot, ps []prepared, p *Parsed, day string, col [][]int, left float64) ([]int, string) {
	var words []string
	for _, w := range descWords(p) {
		if w != day {
			words = append(words, w)
		}
	}
	for i := range ps {
		e := &s.Elements[i]
		if ps[i].gridHead > 0 || ps[i].gridHeader || ps[i].descendants > 0 || !e.Visible || e.Box.X+e.Box.W > left+1 || overlap(words, ps[i].toks[0]) == 0 {
			continue
		}
		var beside [][]int
		for _, entry := range col {
			if sideBySide(s.Elements[entry[0]].Box, e.Box) {
				beside = append(beside, entry)
			}
		}
		if len(beside) == 1 {
			return beside[0], fmt.Sprintf("the entry under %s in the row of %q", day, clip(firstOf(e.Name, e.Text), 30))
		}
	}
	return nil, ""
}

// entryField returns the element of the entry (the item element i is in) that answers: its
// control for a click or typing, the person named in it for "who", else its first line of
// words (a lesson's subject, a programme's title); -1 when it has none.
func entryField(s *Snapshot, p *Parsed, i int, intent Intent) int {
	lo, hi := i, i
	if it := s.Elements[i].Item; it != 0 {
		for lo > 0 && s.Elements[lo-1].Item == it {
			lo--
		}
		for hi+1 < len(s.Elements) && s.Elements[hi+1].Item == it {
			hi++
		}
	}
	for k := lo; k <= hi; k++ {
		e := &s.Elements[k]
		leaf := k == hi || s.Elements[k+1].Parent != k
		t := strings.TrimSpace(firstOf(e.Text, e.Name))
		switch {
		case intent == IntentClick || intent == IntentType:
			if e.Interactive && e.Visible && e.Enabled {
				return k
			}
		case !leaf || !e.Visible || !hasLetter(t):
		case p.Who:
			if personName(t) {
				return k
			}
		default:
			return k
		}
	}
	return -1
}

// gridBlocks gives a block inside a grid's entry the column of its leaves when they all stand
// under one header ("Dr. Patel · S1" under Thursday as its "Dr. Patel" and "S1" do): a table
// cell's spans share the cell's column, and a grid of divs is read the same way. A block whose
// leaves stand under several headers (a row) has none.
func gridBlocks(s *Snapshot, ps []prepared) {
	for i := range ps {
		if ps[i].descendants == 0 || ps[i].gridHead > 0 || s.Elements[i].Item == 0 {
			continue
		}
		h := 0
		for d := i + 1; d <= i+ps[i].descendants && d < len(ps); d++ {
			if ps[d].descendants > 0 {
				continue
			}
			if g := ps[d].gridHead; g == 0 || h != 0 && g != h {
				h = -1
				break
			} else {
				h = g
			}
		}
		if h > 0 {
			ps[i].col, ps[i].gridHead = ps[h-1].toks[0], h
		}
	}
}

// scheduleBreak reports whether element i, a line of one text inside a grid whose header is
// hs, is a break of a schedule ("Lunch 12:40–13:30" across a timetable) rather than a title
// that ends the grid: it spans the header's width and says a time of day. The rows after it
// are the same grid's, under the same header.
func scheduleBreak(s *Snapshot, ps []prepared, i int, hs []int) bool {
	if len(hs) == 0 || ps[i].shape&shapeClock == 0 {
		return false
	}
	b, first, last := s.Elements[i].Box, s.Elements[hs[0]].Box, s.Elements[hs[len(hs)-1]].Box
	return b.X <= first.X+1 && b.X+b.W >= last.X+last.W-1
}

// namedOneRe finds "One" capitalized after a capitalized word: the last word of a name ("BBC
// One", "Formula One", "Channel One"), which tells it from "BBC Two", not the stop word "one".
var namedOneRe = regexp.MustCompile(`\b[A-Z][A-Za-z0-9]*\s+One\b`)

// labelledLine resolves an ordinal over a line of entries that a label at its start names:
// "the last programme on BBC Two" is the last programme of the row that "BBC Two" opens in a
// TV guide, as a route's or a lane's label opens its stops or cards. The label is a plain
// leaf that says every description word an element says (but the head, what the entries
// are); the entries are the largest group of look-alikes after it in its item (the row). ok
// is false without an ordinal, or when no one label, or no such line, is found.
func labelledLine(s *Snapshot, ps []prepared, p *Parsed, intent Intent) (int, string, bool) {
	if p.Ordinal == 0 || p.Item != "" {
		return -1, "", false
	}
	head := stem(p.Head)
	var words []string
	for _, w := range p.Words {
		if dayWords[w] || dayParts[w] {
			continue // "tonight": when the guide shows, not which line
		}
		for _, t := range tokens(w) {
			if t != head && anyCarries(ps, t) {
				words = append(words, t)
			}
		}
	}
	if len(words) == 0 {
		return -1, "", false
	}
	label := -1
	for i := range ps {
		e := &s.Elements[i]
		if e.Item == 0 || ps[i].descendants > 0 || e.Interactive || !e.Visible || !containsAll(ps[i].toks[0], words) {
			continue
		}
		if label >= 0 && s.Elements[label].Item != e.Item {
			return -1, "", false // two lines say it
		}
		if label < 0 {
			label = i
		}
	}
	if label < 0 {
		return -1, "", false
	}
	line := lineAfter(s, label, intent)
	if len(line) < 2 {
		return -1, "", false
	}
	n := p.Ordinal
	if n < 0 {
		n += len(line) + 1
	}
	if n < 1 || n > len(line) {
		return -1, "", false
	}
	l := &s.Elements[label]
	return line[n-1], fmt.Sprintf("the %s of %d entries in the line of %q", ordinalText(p.Ordinal), len(line), clip(firstOf(l.Name, l.Text), 30)), true
}

// lineAfter returns the largest group of look-alikes of label's item that stand after it,
// right of it (fit to be clicked, when that is the intent), in document order.
func lineAfter(s *Snapshot, label int, intent Intent) []int {
	l := &s.Elements[label]
	groups := map[string][]int{}
	best := ""
	for k := label + 1; k < len(s.Elements) && s.Elements[k].Item == l.Item; k++ {
		e := &s.Elements[k]
		if !e.Visible || e.Box.X < l.Box.X+l.Box.W || (intent == IntentClick && !(e.Interactive && e.Enabled)) {
			continue
		}
		key := e.Shape + "|" + firstField(e.Class)
		groups[key] = append(groups[key], k)
		if len(groups[key]) > len(groups[best]) {
			best = key
		}
	}
	return groups[best]
}

// dayParts name a part of the day a schedule shows, which no line's label says.
var dayParts = map[string]bool{"tonight": true, "morning": true, "afternoon": true, "evening": true, "night": true, "now": true}

// saysNumbered reports whether an element's own name says the noun (a stem) and then the
// number: "Period 2".
func saysNumbered(ps []prepared, noun, num string) bool {
	for k := range ps {
		for _, f := range nameFields {
			if !ownField(&ps[k], f) {
				continue
			}
			toks := ps[k].toks[f]
			for i := 0; i+1 < len(toks); i++ {
				if toks[i] == noun && toks[i+1] == num {
					return true
				}
			}
		}
	}
	return false
}

// monthOf is the month a month's name (or its short form) stands for, 1 to 12; 0 for none.
func monthOf(w string) int {
	if !dateWords[w] {
		return 0
	}
	return strings.Index("janfebmaraprmayjunjulaugsepoctnovdec", w[:3])/3 + 1
}

// monthTravel are the words of an instruction that only moves a calendar: "go to July",
// "show me August 2025", "jump to the month of March".
var monthTravel = map[string]bool{"go": true, "to": true, "show": true, "me": true, "switch": true, "jump": true,
	"move": true, "skip": true, "navigate": true, "view": true, "see": true, "the": true, "month": true, "of": true,
	"forward": true, "back": true, "ahead": true, "please": true, "calendar": true}

// monthStep resolves "go to July" on a month calendar that shows another month and names
// no July anywhere: the calendar's next-month control, or its previous-month one, whichever
// way is shorter from the month its label shows ("June 2025"; a year said on both sides
// settles it). The label is a short text of a month and perhaps a year, with a next and a
// previous control beside it.
func monthStep(s *Snapshot, ps []prepared, desc string, intent Intent) (int, string, bool) {
	if intent != IntentClick && intent != IntentAny {
		return -1, "", false
	}
	want, year := 0, 0
	for _, w := range rawWords(desc) {
		switch {
		case monthOf(w) > 0 && want == 0:
			want = monthOf(w)
		case len(w) == 4 && strings.Trim(w, "0123456789") == "" && year == 0:
			year, _ = strconv.Atoi(w)
		case !monthTravel[w]:
			return -1, "", false
		}
	}
	if want == 0 || anyCarries(ps, stem(monthName(want))) {
		return -1, "", false
	}
	for i := range ps {
		e := &s.Elements[i]
		if e.Interactive || !e.Visible || ps[i].descendants > 0 {
			continue
		}
		f := rawWords(firstOf(e.Text, e.Name))
		if len(f) == 0 || len(f) > 2 || monthOf(f[0]) == 0 || len(f) == 2 && (len(f[1]) != 4 || strings.Trim(f[1], "0123456789") != "") {
			continue
		}
		shown, shownYear := monthOf(f[0]), 0
		if len(f) == 2 {
			shownYear, _ = strconv.Atoi(f[1])
		}
		d := (want - shown + 12) % 12
		if year > 0 && shownYear > 0 {
			d = (year*12 + want) - (shownYear*12 + shown)
		} else if d > 6 {
			d -= 12
		}
		if d == 0 {
			continue
		}
		if c := stepControl(s, ps, i, d > 0); c >= 0 {
			return c, fmt.Sprintf("the calendar shows %s: %s is that way", clip(firstOf(e.Text, e.Name), 20), monthName(want)), true
		}
	}
	return -1, "", false
}

// monthName is month m's English name, lower case.
func monthName(m int) string {
	return [...]string{"january", "february", "march", "april", "may", "june", "july", "august",
		"september", "october", "november", "december"}[m-1]
}

// stepControl returns the control within a few elements of a calendar's label l that steps
// forward (next) or back (previous), or -1.
func stepControl(s *Snapshot, ps []prepared, l int, forward bool) int {
	ws := []string{"previou", "prev", "back", "earlier"}
	if forward {
		ws = []string{"next", "forward", "later"}
	}
	for k := max(0, l-4); k < min(len(ps), l+5); k++ {
		if e := &s.Elements[k]; e.Interactive && e.Visible && e.Enabled && overlap(ws, ps[k].toks[0]) > 0 {
			return k
		}
	}
	return -1
}
