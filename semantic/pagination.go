package semantic

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// "Go to the last page", "the 2nd page", "page 3": a pagination's numbered controls (1 2 3 4,
// or a document viewer's page thumbnails), counted by their numbers, not by words: "page" is
// a stop word (it also means the whole page), and the last page's control says "4", which no
// word of the description matches.

// pageAskRe finds the page asked for: an ordinal before "page" or a number after it.
var pageAskRe = regexp.MustCompile(`(?i)\b(first|last|final|second|third|fourth|fifth|\d+(?:st|nd|rd|th))\s+page\b|\bpage\s+(?:no\.?\s*|number\s+|#\s*)?(\d+)\b`)

// pageNumberRe is the name of a numbered page control: "4", "Page 4", "Go to page 4".
var pageNumberRe = regexp.MustCompile(`(?i)^\s*(?:(?:go\s+to\s+)?page\s+)?(\d{1,4})\s*$`)

// askedPage returns the page a description asks for: n > 0 the nth page, -1 the last, 0 none.
func askedPage(desc string) int {
	m := pageAskRe.FindStringSubmatch(desc)
	if m == nil {
		return 0
	}
	if m[2] != "" {
		n, _ := strconv.Atoi(m[2])
		return n
	}
	if n, ok := ordinal(strings.ToLower(m[1])); ok {
		return n
	}
	return 0
}

// pageStep resolves a description that asks for a page of a pagination (see askedPage) to the
// numbered control of that page: the controls whose names are page numbers, in the group of at
// least two such controls under one parent, preferring a group whose context says "page".
func pageStep(s *Snapshot, desc string, intent Intent) (int, string, bool) {
	if intent == IntentRead || intent == IntentType {
		return 0, "", false
	}
	want := askedPage(desc)
	if want == 0 {
		return 0, "", false
	}
	type control struct{ id, n int }
	groups := map[int][]control{}
	var order []int
	for i := range s.Elements {
		e := &s.Elements[i]
		if !e.Interactive || !e.Visible || e.Covered || e.Parent < 0 {
			continue
		}
		m := pageNumberRe.FindStringSubmatch(firstOf(e.Name, e.Text))
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		if _, seen := groups[e.Parent]; !seen {
			order = append(order, e.Parent)
		}
		groups[e.Parent] = append(groups[e.Parent], control{i, n})
	}
	best, bestPaged := -1, false
	for _, g := range order {
		if len(groups[g]) < 2 {
			continue
		}
		ctx := strings.ToLower(s.Elements[groups[g][0].id].Context + " " + s.Elements[g].Name)
		paged := strings.Contains(ctx, "page") || strings.Contains(ctx, "pagination")
		if best < 0 || paged && !bestPaged {
			best, bestPaged = g, paged
		}
	}
	if best < 0 {
		return 0, "", false
	}
	cs := groups[best]
	pick := -1
	for k, c := range cs {
		switch {
		case want == -1 && (pick < 0 || c.n > cs[pick].n):
			pick = k
		case want > 0 && c.n == want:
			pick = k
		}
	}
	if pick < 0 {
		return 0, "", false
	}
	return cs[pick].id, fmt.Sprintf("page %d of the %d numbered page controls", cs[pick].n, len(cs)), true
}
