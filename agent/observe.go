package agent

import (
	"fmt"
	"hash/fnv"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/rodeo-run/rodeo/semantic"
)

// DefaultElementTokens is the share of a step's prompt the page's element lines may take: about
// 90 lines, enough for a form, a results page or a table's page, while the whole prompt (rules,
// tools, history, elements) stays near 1,500 tokens whatever the page's size.
const DefaultElementTokens = 650

// viewportHeight is the height below which an element counts as out of view. Pool pages are
// 1280x800 or so; a little more keeps the row just under the fold.
const viewportHeight = 1000

// view is what one observation showed of a page: the ids the model may use, the line of every
// listable element (for the next step's difference) and the page's fingerprint.
type view struct {
	url, title string
	shown      map[int]bool
	// content are the listable elements' lines without their ids: what the difference from
	// one step to the next compares.
	content map[string]int
	// short is each content's line as it was listed (no context, no noise), for naming
	// what went away.
	short       map[string]string
	fingerprint string
	elements    string // the element lines sent, with their header
	changes     string // what changed since the previous view ("" for the first)
}

// lineContent is an element's line without its "[12] " prefix.
func lineContent(line string) string {
	if i := strings.Index(line, "] "); i > 0 && line[0] == '[' {
		return line[i+2:]
	}
	return line
}

// listable reports whether an element is worth a line: visible, and either something to act on
// or text to read.
func listable(e *semantic.Element) bool {
	return e.Visible && (e.Interactive || e.Editable || strings.TrimSpace(e.Name) != "" || strings.TrimSpace(e.Text) != "" || e.Value != "")
}

// echoes reports whether a non-interactive element only repeats a child's text (a list item
// around its link, a cell around its text): its line would tell the model nothing new.
func echoes(s *semantic.Snapshot, e *semantic.Element, childText map[int][]string) bool {
	if e.Interactive || e.Editable {
		return false
	}
	if containerRoles[e.Role] && len(childText[e.ID]) > 0 {
		return true // its text is its children's, which have lines of their own
	}
	own := strings.TrimSpace(firstOf(e.Name, e.Text))
	for _, t := range childText[e.ID] {
		if t == own {
			return true
		}
	}
	return false
}

// containerRoles hold other elements; their text is what those say.
var containerRoles = map[string]bool{"navigation": true, "list": true, "table": true, "grid": true, "rowgroup": true, "row": true,
	"form": true, "region": true, "group": true, "main": true, "banner": true, "contentinfo": true, "complementary": true,
	"toolbar": true, "menu": true, "menubar": true, "tablist": true, "generic": true, "article": true, "section": true}

func firstOf(a, b string) string {
	if strings.TrimSpace(a) != "" {
		return a
	}
	return b
}

// priority orders elements for the budget: what just appeared, then what can be acted on, what
// is in view, and what announces (headings, alerts, status lines).
func priority(e *semantic.Element, isNew bool) int {
	p := 0
	if isNew {
		p += 4
	}
	if (e.Interactive || e.Editable) && e.Enabled && !e.Covered {
		p += 2
	}
	if e.Box.Y+e.Box.H > 0 && e.Box.Y < viewportHeight {
		p += 3 // what is in view beats controls scrolled away
	}
	switch e.Role {
	case "heading", "alert", "status", "dialog", "alertdialog":
		p++
	}
	return p
}

// observe lists s within budget tokens and says what changed since prev (nil on the first step).
func observe(s *semantic.Snapshot, prev *view, budget int) *view {
	if budget <= 0 {
		budget = DefaultElementTokens
	}
	v := &view{url: s.URL, title: s.Title, shown: map[int]bool{}, content: map[string]int{}, short: map[string]string{}}
	childText := map[int][]string{}
	for i := range s.Elements {
		e := &s.Elements[i]
		if e.Parent >= 0 {
			childText[e.Parent] = append(childText[e.Parent], strings.TrimSpace(firstOf(e.Name, e.Text)))
		}
	}
	controls := map[string]bool{} // names of controls, which a label beside them repeats
	for i := range s.Elements {
		if e := &s.Elements[i]; e.Interactive && e.Role != "label" {
			controls[e.Name] = true
		}
	}
	type cand struct {
		id, prio int
		line     string // the line as the model reads it: no context, no default noise
		where    string // its context ("@form | Sign up"), said once for a run of lines
		isNew    bool
	}
	var cands []cand
	fp := fnv.New64a()
	fmt.Fprintln(fp, s.URL)
	for i := range s.Elements {
		e := &s.Elements[i]
		if !listable(e) || echoes(s, e, childText) || (e.Role == "label" && controls[e.Name]) {
			continue
		}
		line := semantic.CandidateLine(e)
		c := lineContent(line)
		fmt.Fprintln(fp, c)
		isNew := prev != nil && v.content[c] >= prev.content[c]
		v.content[c]++
		short, where := splitContext(line, e)
		v.short[c] = lineContent(short)
		cands = append(cands, cand{id: e.ID, prio: priority(e, isNew), line: short, where: where, isNew: isNew})
	}
	v.fingerprint = fmt.Sprintf("%x", fp.Sum64())

	order := make([]int, len(cands))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return cands[order[a]].prio > cands[order[b]].prio })
	keep := make([]bool, len(cands))
	used := 0
	for _, i := range order {
		cost := utf8.RuneCountInString(cands[i].line)/4 + 1
		if used+cost > budget {
			continue // a shorter line further down may still fit
		}
		used += cost
		keep[i] = true
	}
	render := func() (string, []string) {
		kept := 0
		for _, k := range keep {
			if k {
				kept++
			}
		}
		var b strings.Builder
		fmt.Fprintf(&b, "Elements (%d of %d listed", kept, len(cands))
		if kept < len(cands) {
			b.WriteString("; scroll to see others, or extract by description")
		}
		b.WriteString("):\n")
		var added []string
		where := ""
		for i, c := range cands {
			if !keep[i] {
				continue
			}
			if c.where != where {
				where = c.where
				b.WriteString(firstOf(where, "@page") + "\n")
			}
			b.WriteString(c.line + "\n")
			if c.isNew && len(added) < 5 {
				added = append(added, c.line)
			}
		}
		return b.String(), added
	}
	// The "@" lines cost too: drop the least wanted lines until the whole list fits.
	text, added := render()
	for last := len(order) - 1; utf8.RuneCountInString(text)/4 > budget && last >= 0; {
		for n := 0; n < 5 && last >= 0; last-- {
			if keep[order[last]] {
				keep[order[last]] = false
				n++
			}
		}
		text, added = render()
	}
	for i, c := range cands {
		if keep[i] {
			v.shown[c.id] = true
		}
	}
	v.elements = text
	if prev != nil {
		v.changes = difference(prev, v, added)
	}
	return v
}

// difference says what changed between two views: the address, lines that appeared (listed
// with their ids, at most five) and lines that went away (counted, the first few named).
func difference(prev, cur *view, added []string) string {
	var b strings.Builder
	if prev.url != cur.url {
		fmt.Fprintf(&b, "URL: %s -> %s\n", prev.url, cur.url)
	}
	var gone []string
	goneCount := 0
	for c, n := range prev.content {
		if d := n - cur.content[c]; d > 0 {
			goneCount += d
			gone = append(gone, c)
		}
	}
	newCount := 0
	for c, n := range cur.content {
		if d := n - prev.content[c]; d > 0 {
			newCount += d
		}
	}
	if newCount == 0 && goneCount == 0 && prev.url == cur.url {
		return "nothing on the page changed\n"
	}
	if newCount > 0 {
		fmt.Fprintf(&b, "%d new elements", newCount)
		if len(added) > 0 {
			b.WriteString(", among them:\n" + strings.Join(added, "\n"))
		}
		b.WriteByte('\n')
	}
	if goneCount > 0 {
		sort.Strings(gone)
		if len(gone) > 3 {
			gone = gone[:3]
		}
		for i := range gone {
			gone[i] = clip(prev.short[gone[i]], 60)
		}
		fmt.Fprintf(&b, "%d elements gone, e.g. %s\n", goneCount, strings.Join(gone, "; "))
	}
	return b.String()
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

var cellRoles = map[string]bool{"cell": true, "gridcell": true, "rowheader": true}

// noise are parts of a candidate line that say what every such element says: a white field, a
// blue link, a checkbox's default value "on".
var noise = []struct{ role, part string }{
	{"", " color=white"}, {"link", " color=blue"}, {"checkbox", ` value="on"`}, {"radio", ` value="on"`},
}

// splitContext cuts a candidate line's context (" @form | Sign up", where the element sits) off,
// to be said once above a run of lines that share it, and drops the line's default noise.
func splitContext(line string, e *semantic.Element) (short, where string) {
	short = line
	if e.Context != "" {
		if i := strings.LastIndex(line, " @"); i > 0 && strings.HasPrefix(e.Context, strings.TrimSuffix(line[i+2:], "…")) {
			short, where = line[:i], line[i+1:]
		}
	}
	// A cell's context (and that of a control in a cell) starts with its column's header, which
	// differs from the next cell's: it stays on the line, and the table around it is said once.
	if col, rest, ok := strings.Cut(where, " | "); ok && (cellRoles[e.Role] || strings.HasPrefix(rest, "table ")) {
		short, where = short+" "+col, "@"+rest
	}
	for _, n := range noise {
		if n.role == "" || n.role == e.Role {
			short = strings.Replace(short, n.part, "", 1)
		}
	}
	return short, where
}
