package semantic

import (
	"regexp"
	"slices"
	"strings"
)

// What an element looks like and where it is on the screen: "the red button at the bottom
// right", "the blue button at the end of the form", "the link in the top right corner". Users
// name a target by what they see; the page seldom says those words. A colour word before a
// noun is an attribute hint (Parsed.Color) matched against Element.Color, and a corner or
// page-edge phrase is a place (Parsed.Place) matched against the candidates' boxes; neither is
// a word the element must say.

// Place is where on the screen a description puts its target: Vert -1 top, 1 bottom; Horiz -1
// left, 1 right; 0 for a side it does not name.
type Place struct{ Vert, Horiz int }

// colorWords are the colour names Element.Color uses, and their spellings in descriptions.
var colorWords = map[string]string{
	"red": "red", "orange": "orange", "yellow": "yellow", "green": "green", "blue": "blue", "purple": "purple",
	"violet": "purple", "pink": "pink", "grey": "grey", "gray": "grey", "black": "black", "white": "white",
}

// colorHint reports the colour an attribute-position colour word at main[i] names ("the red
// button", "the green Sign in button"): one followed by another word; "make it red" names a
// choice, a word the element says.
func colorHint(main []string, i int) string {
	c := colorWords[main[i]]
	if c == "" || i+1 >= len(main) || main[i+1] == "s" || stopWords[main[i+1]] {
		return ""
	}
	return c
}

// lookAdjectives say a colour's shade or how big the thing is: with the colour, how it looks.
var lookAdjectives = map[string]bool{"big": true, "large": true, "huge": true, "small": true, "little": true,
	"tiny": true, "light": true, "dark": true, "bright": true, "pale": true}

// shadeOrSize reports whether main[i] is a shade or size word before a colour hint ("the big
// orange banner", "the light blue button"): no word the element says, as the colour is not.
func shadeOrSize(main []string, i int) bool {
	return lookAdjectives[main[i]] && i+1 < len(main) && colorHint(main, i+1) != ""
}

var (
	// cornerRe is a corner of the screen: "at the bottom right", "in the top-left corner",
	// "towards the upper right-hand side of the page", "bottom left corner".
	cornerRe = regexp.MustCompile(`(?i)\b(?:(?:at|in|on|near|to|towards?)\s+the\s+(?:very\s+)?(top|bottom|upper|lower)[\s-]+(left|right)(?:[\s-]+hand)?(?:\s+(?:corner|side|edge))?|(top|bottom|upper|lower)[\s-]+(left|right)(?:[\s-]+hand)?\s+corner)(?:\s+of\s+the\s+(?:page|screen|window|site))?\b`)
	// edgeRe is the top or bottom of the page or of a form: "at the end of the form", "at the
	// top of the page", "at the very bottom of the screen", a closing "at the end". (A bare "at
	// the bottom", "the bottom of the draft" and "at the end of the row" keep their words: a
	// list's end, a named block's.)
	edgeRe = regexp.MustCompile(`(?i)\b(?:at|near|toward|towards)\s+the\s+(?:very\s+)?(end|bottom|foot|top|start|beginning|head)\s+of\s+the\s+(?:page|screen|window|site|form)\b|\bat\s+the\s+(?:very\s+)?end$`)
)

// placeOf takes the place phrases out of s (see cornerRe, edgeRe) and says where they put
// the target; s unchanged and a zero Place when there are none. Cheap when s names no side.
func placeOf(s string) (string, Place) {
	var pl Place
	low := strings.ToLower(s)
	if !strings.Contains(low, "left") && !strings.Contains(low, "right") && !strings.Contains(low, " of the ") && !strings.Contains(low, " end") {
		return s, pl
	}
	s = cornerRe.ReplaceAllStringFunc(s, func(m string) string {
		sub := cornerRe.FindStringSubmatch(m)
		v, h := firstOf(sub[1], sub[3]), firstOf(sub[2], sub[4])
		pl.Vert, pl.Horiz = sideOf(v), sideOf(h)
		return " "
	})
	if pl.Vert == 0 {
		s = edgeRe.ReplaceAllStringFunc(s, func(m string) string {
			sub := edgeRe.FindStringSubmatch(m)
			pl.Vert = sideOf(firstOf(sub[1], "end"))
			return " "
		})
	}
	return s, pl
}

// sideOf is the direction a side word points: -1 top or left, 1 bottom or right.
func sideOf(w string) int {
	switch strings.ToLower(w) {
	case "top", "upper", "start", "beginning", "head", "left":
		return -1
	case "bottom", "lower", "end", "foot", "right":
		return 1
	}
	return 0
}

// colorSaid puts a colour hint back among the words when an element of the page says the
// colour ("the Red swatch", "the blue color swatch" on a page of named colours): there the
// colour is a name before it is a look. Once: a second ranking of p adds nothing.
func colorSaid(ps []prepared, p *Parsed) {
	if p.Color == "" || slices.Contains(p.Words, p.ColorWord) {
		return
	}
	for _, t := range tokens(p.ColorWord) { // stemmed, as the elements' tokens are
		if !anyCarries(ps, t) {
			return
		}
	}
	p.Words = append(slices.Clone(p.Words), p.ColorWord)
}

const (
	// colorBonus is what showing the colour asked for adds: above the gap between two
	// buttons that say none of the words, below a name that says them.
	colorBonus = 0.2
	// placeBonus is what being furthest to the place asked for adds, among the candidates
	// within placeTier of the best: a tie-break between near-equals.
	placeBonus = 0.12
	placeTier  = 0.15
)

// lookBonus raises the candidates that look as the description says: of its colour, and, of
// those near the top, the one furthest to its place (the sides measured across the near-top
// candidates' own boxes, so a fixed bar at the screen's bottom is the bottom).
func lookBonus(all []scored, p *Parsed) {
	if p.Color != "" {
		for i := range all {
			if all[i].eligible && all[i].Element.Color == p.Color {
				all[i].Score += colorBonus
				all[i].Why += "; colour " + p.Color
			}
		}
	}
	if p.Place != (Place{}) {
		placeRank(all, p.Place)
	}
}

// placeRank adds placeBonus to the eligible candidate within placeTier of the best whose box's
// middle is furthest to pl, between those candidates' extremes, and to the others of them at
// most half as much, by how far that way they are.
func placeRank(all []scored, pl Place) {
	best := -1.0
	for i := range all {
		if all[i].eligible && all[i].Score > best {
			best = all[i].Score
		}
	}
	var tier []int
	minX, maxX, minY, maxY := 0.0, 0.0, 0.0, 0.0
	for i := range all {
		b := all[i].Element.Box
		if !all[i].eligible || all[i].Score < best-placeTier || b.W <= 0 || b.H <= 0 {
			continue
		}
		x, y := b.X+b.W/2, b.Y+b.H/2
		if len(tier) == 0 {
			minX, maxX, minY, maxY = x, x, y, y
		}
		minX, maxX, minY, maxY = min(minX, x), max(maxX, x), min(minY, y), max(maxY, y)
		tier = append(tier, i)
	}
	if len(tier) < 2 {
		return
	}
	toward := func(v, lo, hi float64, side int) float64 {
		if side == 0 || hi <= lo {
			return 0
		}
		f := (v - lo) / (hi - lo)
		if side < 0 {
			f = 1 - f
		}
		return f
	}
	axes := float64(min(1, max(pl.Vert, -pl.Vert)) + min(1, max(pl.Horiz, -pl.Horiz)))
	// A top or bottom alone reads in reading order: of a row at the end of a form, its last
	// button is the one at the end (a tenth of the weight, below any difference of rows).
	across := pl.Horiz
	if across == 0 {
		across = pl.Vert
	}
	fs := make([]float64, len(tier))
	best = 0
	for k, i := range tier {
		b := all[i].Element.Box
		x := toward(b.X+b.W/2, minX, maxX, across)
		if pl.Horiz == 0 {
			x /= 10
		}
		fs[k] = (x + toward(b.Y+b.H/2, minY, maxY, pl.Vert)) / axes
		best = max(best, fs[k])
	}
	// The one furthest that way is the one meant: it takes the whole bonus, the others at most
	// half, so that a button beside it in the same row does not tie with it.
	for k, i := range tier {
		bonus := placeBonus * fs[k] / 2
		if fs[k] >= best-1e-9 {
			bonus = placeBonus
			all[i].Why += "; furthest to the place named"
		}
		all[i].Score += bonus
	}
}
