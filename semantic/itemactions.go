package semantic

import (
	"slices"
	"strings"
)

// Per-item controls: a control that belongs to one item of a list, a table or a set of cards,
// which a description names by the item's content and by what the control does ("move Yuki
// Sato to the next stage" is the Advance button on Yuki Sato's card).

// nextStageRe moves an item on to the next stage of a pipeline or a board: "move Yuki Sato to
// the next stage", "push the ticket on to the next step". Pages name that action Advance (or
// "Next stage", "Move to ...": see advance in wordAlternatives).
var nextStageRe = lexicon.pattern("next_stage")

// actsInto reports whether the "into" at main[k] follows an action a control is named after
// and opens a phrase that names a thing of the page before its role word: "SSH into the
// jenkins box" is the SSH button of the jenkins machine, which people call a box; the box is
// whose the control is (ownersRole), not the target. ("Paste into the box" has no action
// verb, and "type the code into the box" is read by typeIntoRe before.)
func actsInto(main []string, k int) bool {
	if k < 1 || !verbHeads[main[k-1]] {
		return false
	}
	return slices.ContainsFunc(main[k+1:], func(w string) bool { return contentWord(w) })
}

// ofAcronym is the capitals a page writes for the "X of Y" phrase that opens a description
// ("the bill of lading for TW480900": BOL; proof of delivery: POD; statement of work, date of
// birth, terms of service), the "of" included as such acronyms have it; "" when the
// description does not open with one or two words, "of" and one or two words. whole is
// Parsed.Whole, without the instruction verb and the article; it is read once per description.
func ofAcronym(whole string) string {
	var caps []byte
	before, after, of := 0, 0, false
words:
	for _, w := range strings.Fields(whole) {
		w = strings.Trim(w, ".,;:!?")
		switch {
		case w == "":
		case w == "of" && !of && before > 0:
			of = true
			caps = append(caps, 'O')
		case !contentWord(w) || npBreaks[w]:
			break words
		case w[0] < 'a' || w[0] > 'z':
			return "" // "75th", "€20": no initial to write
		case of:
			caps, after = append(caps, w[0]-'a'+'A'), after+1
		default:
			caps, before = append(caps, w[0]-'a'+'A'), before+1
		}
	}
	if after == 0 || before > 2 || after > 2 {
		return ""
	}
	return string(caps)
}

// askedOfControls reports whether element q is a question whose answers are the controls
// inside it, and nothing else: "Was this review helpful? <button>Yes</button><button>No</button>"
// in one paragraph. Its own words label them as a leaf text would the control after it
// (handOnFromText): "mark the first review helpful" is the first review's Yes.
func askedOfControls(s *Snapshot, ps []prepared, q int) bool {
	n := ps[q].descendants
	if n == 0 || n > 4 || q+n >= len(s.Elements) {
		return false
	}
	text := s.Elements[q].Text
	for k := q + 1; k <= q+n; k++ {
		c := &s.Elements[k]
		if !c.Interactive || c.Parent != q {
			return false
		}
		text = strings.Replace(text, firstOf(c.Text, c.Name), "", 1)
	}
	return strings.HasSuffix(strings.TrimSpace(text), "?")
}
