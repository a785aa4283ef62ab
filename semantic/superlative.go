package semantic

import (
	"regexp"
	"strconv"
	"strings"
)

// Superlatives: "the cheapest rate", "the most expensive laptop", "the earliest available
// time". Among look-alikes that score about the same (the price of every room, every slot's
// button), the one whose value is least or greatest is meant. The value is the element's own or,
// for a control or a name, the one its row or card shows.

// superlativeOf returns what a description's superlative asks for: "min-price", "max-price",
// "min-time", "max-time", "min-date", "max-date", "min-size", "max-size", "min-duration",
// "max-duration", or "".
func superlativeOf(desc string) string {
	d := " " + strings.ToLower(desc) + " "
	for _, s := range superlatives {
		for _, w := range s.words {
			if strings.Contains(d, " "+w+" ") {
				return s.want
			}
		}
	}
	return ""
}

var superlatives = []struct {
	want  string
	words []string
}{
	{"min-price", []string{"cheapest", "least expensive", "lowest price", "lowest-priced", "lowest priced", "cheaper", "lowest rate"}},
	{"max-price", []string{"most expensive", "priciest", "highest price", "highest-priced", "highest priced", "pricier"}},
	{"min-time", []string{"earliest", "soonest"}},
	{"max-time", []string{"latest time", "latest available", "latest slot"}},
	{"max-date", []string{"latest", "newest", "most recent", "newer", "more recent"}},
	{"min-date", []string{"oldest", "least recent", "older"}},
	{"max-size", []string{"biggest", "largest"}},
	{"min-size", []string{"smallest", "tiniest"}},
	{"min-duration", []string{"fastest", "quickest"}},
	{"max-duration", []string{"slowest"}},
}

var superlativeText = map[string]string{"min-price": "cheapest", "max-price": "dearest", "min-time": "earliest", "max-time": "latest",
	"min-date": "oldest", "max-date": "newest", "min-size": "smallest", "max-size": "biggest",
	"min-duration": "fastest", "max-duration": "slowest"}

// bySuperlative picks, among the look-alikes of the best candidate of ok (the same role, and
// the same list or column) that score near it or else all of them, the one the
// superlative want names, and reports how many it chose among; false when fewer than two alike
// candidates carry a value or two share the extreme.
func bySuperlative(s *Snapshot, ok []scored, want string) (scored, int, bool) {
	// The near ties first ("the cheapest rate" among the room's rates, over other rooms'),
	// then every look-alike of the best (the cheapest laptop's price, when one laptop's price
	// scored higher).
	for _, wide := range []bool{false, true} {
		if c, n, found := superlativeIn(s, ok, want, wide); found {
			return c, n, true
		}
	}
	if c, n, found := rowSuperlative(s, ok, want); found {
		return c, n, true
	}
	return itemSuperlative(s, ok, want)
}

// rowSuperlative answers a superlative whose best candidate is a row header from the values in
// its row: in a comparison table whose columns are the things compared (laptops, plans) and
// whose rows are their fields, "the price of the cheapest laptop" is the least figure of the
// Price row. A cell's value is the first it shows ("$849.99 Was $949.99 Save $100" costs
// $849.99), answered by the innermost element that shows it. False unless the row has at least
// two cells with such a value, one of them the extreme.
func rowSuperlative(s *Snapshot, ok []scored, want string) (scored, int, bool) {
	top := ok[0]
	if top.Element.Role != "rowheader" {
		return scored{}, 0, false
	}
	wantMax, kind := strings.HasPrefix(want, "max-"), want[4:]
	var cells []*Element // per cell, the element that shows its value
	var vals []float64
	for i := range s.Elements {
		e := &s.Elements[i]
		if !e.Visible || !inRowOf(s, e, top.Element) {
			continue
		}
		v, found := valueIn(firstOf(e.Text, e.Name), kind)
		switch {
		case !found:
		case e.Role == "cell" || e.Role == "gridcell":
			cells = append(cells, e)
			vals = append(vals, v)
		case len(cells) > 0 && e.Parent == cells[len(cells)-1].ID && v == vals[len(vals)-1]:
			cells[len(cells)-1] = e // the part of the cell that shows its value
		}
	}
	if len(cells) < 2 {
		return scored{}, 0, false
	}
	best, found := extremeOf(vals, wantMax)
	if !found {
		return scored{}, 0, false
	}
	return scored{Element: cells[best], Score: top.Score, Why: "in the row of " + clip(top.Element.Name, 30) + "; " + top.Why, eligible: true}, len(cells), true
}

// inRowOf reports whether e lies in the row of header h, as a cell or inside one: the row is
// the repeated container both are in, or else h's parent.
func inRowOf(s *Snapshot, e, h *Element) bool {
	if h.Item != 0 {
		return e.Item == h.Item
	}
	for k, id := 0, e.Parent; k < 3 && id >= 0 && id < len(s.Elements); k++ {
		if id == h.Parent {
			return true
		}
		id = s.Elements[id].Parent
	}
	return false
}

// itemSuperlative picks the item (a card, a row) the superlative names by the value it shows,
// and answers with the best candidate inside it, when the candidates do not carry that value
// themselves: "how far is the fastest route" is the distance shown on the route whose time is
// least, "the rating of the cheapest hotel" the rating on the cheapest hotel's card. False
// unless candidates sit in at least two items that show such a value, one of them the extreme.
func itemSuperlative(s *Snapshot, ok []scored, want string) (scored, int, bool) {
	wantMax, kind := strings.HasPrefix(want, "max-"), want[4:]
	items := itemValues(s, kind)
	if len(items) < 2 {
		return scored{}, 0, false
	}
	// ok is best first: the first candidate met in an item is that item's answer.
	seen := map[int]bool{}
	var band []scored
	var vals []float64
	for _, c := range ok {
		e := c.Element
		v, found := items[e.Item]
		if e.Item == 0 || !found || seen[e.Item] || groupRoles[e.Role] || c.Score <= 0 {
			continue
		}
		seen[e.Item] = true
		band = append(band, c)
		vals = append(vals, v)
	}
	return extremeIn(band, vals, wantMax)
}

func superlativeIn(s *Snapshot, ok []scored, want string, wide bool) (scored, int, bool) {
	// The band is that of the best candidate that is one thing, not a group of them ("the
	// earliest entry time" is a slot, not the "Entry time" group of slots).
	k := 0
	for k < len(ok)-1 && groupRoles[ok[k].Element.Role] {
		k++
	}
	ok = ok[k:]
	top := ok[0]
	te := top.Element
	wantMax, kind := strings.HasPrefix(want, "max-"), want[4:]
	alike := func(e *Element) bool {
		return e.Role == te.Role && (e.Item != 0 && itemList(e.ItemKind) == itemList(te.ItemKind) || colOf(e) != "" && colOf(e) == colOf(te) ||
			e.Shape == te.Shape && e.Context == te.Context) // a row of slot buttons under one heading
	}
	// A value is the element's own or its row's or card's; when the best shows the value itself
	// (a price, not a rate's name), so do the look-alikes compared, one per row or card.
	items := itemValues(s, kind)
	read := func(e *Element) (float64, bool) {
		if v, found := valueIn(firstOf(e.Text, e.Name), kind); found {
			return v, true
		}
		v, found := items[e.Item]
		return v, found && e.Item != 0
	}
	if _, own := valueIn(firstOf(te.Text, te.Name), kind); own && wide {
		read = func(e *Element) (float64, bool) { return valueIn(firstOf(e.Text, e.Name), kind) }
	}
	var band []scored
	var vals []float64
	add := func(c scored) {
		if te.Enabled && !c.Element.Enabled {
			return // "the earliest entry time" is one that can be booked, not the sold-out one
		}
		if v, found := read(c.Element); found {
			band = append(band, c)
			vals = append(vals, v)
		}
	}
	if !wide {
		for _, c := range ok {
			if c.Score >= top.Score-nearSpan && alike(c.Element) {
				add(c)
			}
		}
	} else {
		// Every look-alike of the best, whatever it scored: "the cheapest rate" compares every
		// rate's price, though only one says "rate".
		for i := range s.Elements {
			if e := &s.Elements[i]; e.Visible && alike(e) {
				add(scored{Element: e, Score: top.Score, Why: top.Why, eligible: true})
			}
		}
	}
	return extremeIn(band, vals, wantMax)
}

// extremeIn is the candidate of band whose value (vals, one each) is the extreme one, the
// greatest unless wantMax is false, and how many were compared; false for fewer than two or a
// tie.
func extremeIn(band []scored, vals []float64, wantMax bool) (scored, int, bool) {
	if len(band) < 2 {
		return scored{}, 0, false
	}
	best, found := extremeOf(vals, wantMax)
	if !found {
		return scored{}, 0, false
	}
	return band[best], len(band), true
}

// extremeOf is the index of the greatest of vals (the least unless wantMax); false when two
// share it, and the superlative does not say which.
func extremeOf(vals []float64, wantMax bool) (int, bool) {
	best, tie := 0, false
	for i := 1; i < len(vals); i++ {
		switch {
		case vals[i] == vals[best]:
			tie = true
		case (vals[i] > vals[best]) == wantMax:
			best, tie = i, false
		}
	}
	return best, !tie
}

// nearSpan is how far below the best a near tie scores.
const nearSpan = 0.15

// groupRoles hold several things a superlative compares.
var groupRoles = map[string]bool{"group": true, "radiogroup": true, "list": true, "listbox": true, "table": true, "grid": true,
	"row": true, "region": true, "form": true, "navigation": true, "tablist": true, "toolbar": true, "menu": true}

// colOf is a cell's column header, the first part of its context ("" for none).
func colOf(e *Element) string {
	if e.Role != "cell" && e.Role != "gridcell" {
		return ""
	}
	c, _, _ := strings.Cut(e.Context, " | ")
	return c
}

// itemValues is, per repeated container, the first price or time of day of kind it shows: what
// a control or a name in it is worth. One pass over the page, not one per look-alike.
func itemValues(s *Snapshot, kind string) map[int]float64 {
	out := map[int]float64{}
	for i := range s.Elements {
		o := &s.Elements[i]
		if _, done := out[o.Item]; o.Item == 0 || done || !o.Visible {
			continue
		}
		if v, ok := valueIn(firstOf(o.Text, o.Name), kind); ok {
			out[o.Item] = v
		}
	}
	return out
}

// clockTokRe reads a time token of clockTimes: the 24-hour one ("t1500", written first), or a
// clock face alone ("c1100" for "11:00", read as the 24-hour time a list of "11:00 … 18:00"
// slots means).
var clockTokRe = regexp.MustCompile(`\b[tc](\d{2})(\d{2})\b`)

// valueIn reads the first price ("$1,299.00", "13,99 zł"), time of day ("3pm", "15:00") or
// date ("2025-06-04", "Jun 4, 2025", "4 June") in t.
func valueIn(t, kind string) (float64, bool) {
	switch kind {
	case "price":
		return moneyIn(t)
	case "date":
		return dateIn(t)
	case "size":
		return sizeIn(t)
	case "duration":
		return durationIn(t)
	case "time":
		m := clockTokRe.FindStringSubmatch(clockTimes(strings.ToLower(t)))
		if m == nil {
			return 0, false
		}
		h, _ := strconv.Atoi(m[1])
		mm, _ := strconv.Atoi(m[2])
		return float64(h*60 + mm), true
	}
	return 0, false
}

// parseAmount reads "1,299.00", "1.299,00", "13,99" and "899": the last separator followed by
// exactly two digits is the decimal point, the others group thousands.
func parseAmount(a string) (float64, bool) {
	a = strings.TrimRight(a, ".,")
	dec := -1
	if k := strings.LastIndexAny(a, ".,"); k >= 0 && len(a)-k-1 == 2 {
		dec = k
	}
	var b strings.Builder
	for i, r := range a {
		switch {
		case i == dec:
			b.WriteByte('.')
		case r >= '0' && r <= '9':
			b.WriteRune(r)
		}
	}
	v, err := strconv.ParseFloat(b.String(), 64)
	return v, err == nil
}

// isoDateRe and monthDayRe read the dates dateIn compares: ISO, and a month's name with its day
// on either side and an optional year ("Jun 4, 2025", "4 June 2025", "Tue, Jun 3").
var (
	isoDateRe  = regexp.MustCompile(`\b(\d{4})-(\d{2})-(\d{2})\b`)
	monthDayRe = regexp.MustCompile(`(?i)\b(?:(\d{1,2})\s+(` + monthRe + `)\.?|(` + monthRe + `)\.?\s+(\d{1,2})(?:st|nd|rd|th)?)\b(?:,?\s+(\d{4}))?`)
)

const monthRe = `jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?`

// dateIn reads the first date in t as a number that orders dates (yyyymmdd; a date without a
// year orders by month and day alone).
func dateIn(t string) (float64, bool) {
	if m := isoDateRe.FindStringSubmatch(t); m != nil {
		y, _ := strconv.Atoi(m[1])
		mo, _ := strconv.Atoi(m[2])
		d, _ := strconv.Atoi(m[3])
		return float64(y*10000 + mo*100 + d), true
	}
	m := monthDayRe.FindStringSubmatch(t)
	if m == nil {
		return 0, false
	}
	day, month := m[1], m[2]
	if day == "" {
		day, month = m[4], m[3]
	}
	mo := strings.Index("janfebmaraprmayjunjulaugsepoctnovdec", strings.ToLower(month[:3]))/3 + 1
	d, _ := strconv.Atoi(day)
	y, _ := strconv.Atoi(m[5])
	return float64(y*10000 + mo*100 + d), true
}

// measureRe reads a measure: one to three numbers joined by "×" or "x" ("8 × 38 × 64 cm",
// "20 L", "1.5 TB") and the unit after them.
var measureRe = regexp.MustCompile(`(?i)(\d+(?:[.,]\d+)?)(?:\s*[×x]\s*(\d+(?:[.,]\d+)?))?(?:\s*[×x]\s*(\d+(?:[.,]\d+)?))?\s*(mm|cm|inch|inches|ft|ml|l|litres?|liters?|kb|mb|gb|tb)\b`)

// unitScale brings the units of measureRe to one scale per dimension (millimetres, millilitres,
// kilobytes), so that "1 m" is bigger than "80 cm".
var unitScale = map[string]float64{"mm": 1, "cm": 10, "inch": 25.4, "inches": 25.4, "ft": 304.8,
	"ml": 1, "l": 1000, "litre": 1000, "litres": 1000, "liter": 1000, "liters": 1000,
	"kb": 1, "mb": 1e3, "gb": 1e6, "tb": 1e9}

// letterSizes orders the sizes of clothes, smallest first.
var letterSizes = map[string]float64{"xxs": 1, "xs": 2, "s": 3, "m": 4, "l": 5, "xl": 6, "xxl": 7, "2xl": 7, "xxxl": 8, "3xl": 8}

// sizeIn reads how big the first measure in t is: a package's dimensions by their volume
// ("8 × 38 × 64 cm"), a length, a capacity or a file's size by their amount, or a garment's
// size by its letters ("XL"), so that "the biggest size" picks the box that holds the most.
func sizeIn(t string) (float64, bool) {
	if v, ok := letterSizes[strings.ToLower(strings.TrimSpace(t))]; ok {
		return v, true
	}
	if !strings.ContainsAny(t, "0123456789") {
		return 0, false
	}
	m := measureRe.FindStringSubmatch(t)
	if m == nil {
		return 0, false
	}
	scale := unitScale[strings.ToLower(m[4])]
	v := 1.0
	for _, n := range m[1:4] {
		if n != "" {
			f, _ := strconv.ParseFloat(strings.ReplaceAll(n, ",", "."), 64)
			v *= f * scale
		}
	}
	return v, true
}

// durationRe reads one part of a duration: "1 hr", "50 mins", "38m", "12s", "2 days".
var durationRe = regexp.MustCompile(`(?i)(\d+(?:\.\d+)?)\s*(days?|d|hours?|hrs?|h|minutes?|mins?|m|seconds?|secs?|s)\b`)

// durationUnits are the minutes in each unit of durationRe, by its first letter.
var durationUnits = map[byte]float64{'d': 24 * 60, 'h': 60, 'm': 1, 's': 1.0 / 60}

// durationIn reads the first duration in t in minutes, adding up its parts ("1 hr 50 mins",
// "1h 38m"): how "the fastest route" or "the quickest option" compares them.
func durationIn(t string) (float64, bool) {
	if !strings.ContainsAny(t, "0123456789") {
		return 0, false
	}
	ms := durationRe.FindAllStringSubmatchIndex(t, 4)
	if ms == nil {
		return 0, false
	}
	total, end := 0.0, -1
	for _, m := range ms {
		if end >= 0 && strings.TrimSpace(t[end:m[0]]) != "" {
			break // the next figure is no part of this duration
		}
		n, _ := strconv.ParseFloat(t[m[2]:m[3]], 64)
		total += n * durationUnits[strings.ToLower(t[m[4]:m[5]])[0]]
		end = m[1]
	}
	return total, true
}
