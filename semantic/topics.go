package semantic

import "strings"

// Content named by its topic or its role: "the chapter about roasters", "the article about
// QuickBooks", "expand the question about billing dates". The words after "about" are what
// the item's own text covers; the noun before it says what kind of item it is (a chapter, an
// article), which pages show once, in the list's heading, if at all.

// topicAbout reports whether main[i] is an "about" that opens a topic: it follows a noun
// ("the chapter about", "the notice about") and salient words follow it. "About" alone ("the
// About link", "about us") is a page's name for itself, and stays a word.
func topicAbout(main []string, i int) bool {
	if main[i] != "about" || i == 0 || !contentWord(main[i-1]) && roleWords[main[i-1]] == nil {
		return false
	}
	for _, w := range main[i+1:] {
		if contentWord(w) {
			return true
		}
	}
	return false
}

// contentNouns name a piece of text by the part it plays under its caption: "the answer about
// keeping my number" is the text under the question that says it, "the sentence to translate"
// the text under "Translate this sentence". A page seldom writes the noun on the text itself.
var contentNouns = map[string]bool{"answer": true, "reply": true, "response": true, "explanation": true,
	"sentence": true, "passage": true, "excerpt": true, "definition": true, "solution": true}

// captionLimit is the longest caption whose content handToContent looks for, and contentReach
// how many elements after it the content may start.
const (
	captionLimit = 80
	contentReach = 8
)

// handToContent gives the content a caption introduces the caption's score when the
// description names the content, not the caption: its head is a content noun ("the answer
// about keeping my number": the text under "Can I keep my number?"), or the caption opens
// with an instruction whose object the description names by that verb ("the generated
// password" under "Generate password", "the sentence to translate" under "Translate this
// sentence"). Only the best candidate hands on, to the first plain text after it that the
// page puts under it (its context's nearest heading is the caption), and loses labelPenalty
// as a label does when read. It runs with the other reading passes, after labelValues has
// handed values their labels' scores.
func handToContent(s *Snapshot, ps []prepared, p *Parsed, qt *queryText, all []scored) []scored {
	if len(qt.words) == 0 || len(p.Roles) > 0 || p.Kind != "" || len(p.NameOf) > 0 {
		return all
	}
	best := bestEligible(all)
	if best < 0 || all[best].text == 0 {
		return all
	}
	c := all[best].Element.ID
	if !contentNouns[p.Head] && !opensWithVerbOf(&ps[c], qt) {
		return all
	}
	to := contentOf(s, ps, c)
	if to < 0 {
		return all
	}
	at := indexByID(all)
	all = handDown(s, all, at, best, to, "the text under "+clip(firstOf(s.Elements[c].Name, s.Elements[c].Text), 40))
	all[best].Score = round3(all[best].Score - labelPenalty)
	return all
}

// opensWithVerbOf reports whether a caption's first word is a description word other than
// its head, the verb of an instruction the caption gives ("Generate password" for "the
// generated password", "Translate this sentence" for "the sentence to translate").
func opensWithVerbOf(pe *prepared, qt *queryText) bool {
	toks := pe.toks[0]
	return len(toks) > 1 && toks[0] != qt.head && contains(qt.words, toks[0])
}

// contentOf returns the text caption c introduces, or -1: c is a heading, or a short plain
// text that the snapshot takes as the heading of what follows; the content is the first
// visible plain text after c (past c's own parts) whose context ends with c's text, or its
// first part that holds its words ("vT7#qe-Lm2!zRp9w" in "vT7#qe-Lm2!zRp9w ↻").
func contentOf(s *Snapshot, ps []prepared, c int) int {
	e := &s.Elements[c]
	ct := strings.TrimSpace(firstOf(e.Name, e.Text))
	if ct == "" || len(ct) > captionLimit || e.Editable || e.Interactive && e.Role != "button" {
		return -1
	}
	if e.Interactive && (e.Parent < 0 || s.Elements[e.Parent].Role != "heading") {
		return -1 // a button is a caption only as a heading's ("<h3><button>Can I keep my number?")
	}
	if e.Interactive {
		c = e.Parent
	}
	start := c + 1 + ps[c].descendants
	for d := start; d < len(s.Elements) && d < start+contentReach; d++ {
		v := &s.Elements[d]
		if !contextPart(v.Context, ct) {
			return -1 // past what the caption heads
		}
		if v.Interactive || v.Editable || v.Role == "heading" || !v.Visible {
			continue
		}
		t := strings.TrimSpace(firstOf(v.Text, v.Name))
		if !hasLetter(t) && !hasDigit(t) {
			continue
		}
		if ps[d].descendants > 0 && d+1 < len(s.Elements) {
			if inner := &s.Elements[d+1]; inner.Parent == d && !inner.Interactive && strings.HasPrefix(t, strings.TrimSpace(firstOf(inner.Text, inner.Name))) && inner.Text != "" {
				return d + 1
			}
		}
		return d
	}
	return -1
}

// contextPart reports whether part is one of the " | "-separated parts of an element's
// context: a section's heading comes first, the nearest heading before it last.
func contextPart(ctx, part string) bool {
	return ctx == part || strings.HasPrefix(ctx, part+" | ") || strings.HasSuffix(ctx, " | "+part) ||
		strings.Contains(ctx, " | "+part+" | ")
}

// weightKindWord is what a word before a topical "about" counts, times its usual weight.
const weightKindWord = 0.5

// kindWord reports whether description word w says what kind of item is asked for, not which:
// a word before a topical "about" ("ticket" in "the ticket about the login page"). Pages name
// the kind once, on a list's heading or its New button ("+ Create ticket"); the topic words
// tell the item from its look-alikes.
func (qt *queryText) kindWord(w string) bool {
	return len(qt.topic) > 0 && !contains(qt.topic, w)
}

// maxLedBlock is the most elements a block may hold for handToLedText to look inside it.
const maxLedBlock = 6

// handToLedText gives the text after a block's leading label the block's score when the
// block is the best candidate to read and the label is all else it holds: "what the policy
// warning says" matches the alert "<b>1 policy issue:</b> <span>Meals over €60 per person
// need a list of attendees.</span>" as a whole, and what it says is the span, not its label.
// It runs with the other reading passes, after leadLabels has handed such a block its
// label's score.
func handToLedText(s *Snapshot, ps []prepared, all []scored) []scored {
	best := bestEligible(all)
	if best < 0 || all[best].text == 0 {
		return all
	}
	b := all[best].Element.ID
	e := &s.Elements[b]
	if e.Interactive || e.Editable || ps[b].descendants > maxLedBlock {
		return all
	}
	var parts []int // the block's children that are not controls ("Add attendees" may follow)
	for d := b + 1; d <= b+ps[b].descendants && d < len(s.Elements); d++ {
		if c := &s.Elements[d]; c.Parent == b && !c.Interactive && !c.Editable {
			if ps[d].descendants > 0 {
				return all
			}
			parts = append(parts, d)
		}
	}
	if len(parts) != 2 {
		return all
	}
	l, v := &s.Elements[parts[0]], &s.Elements[parts[1]]
	lt := strings.TrimSpace(firstOf(l.Text, l.Name))
	vt := strings.TrimSpace(firstOf(v.Text, v.Name))
	if !strings.HasSuffix(lt, ":") || !hasLetter(vt) || !strings.HasPrefix(normalize(e.Text), normalize(lt+" "+vt)) {
		return all
	}
	at := indexByID(all)
	return handDown(s, all, at, best, parts[1], "what "+clip(lt, 40)+" says")
}

// bestEligible is the index in all of the eligible candidate that scores best (the first of
// equals), -1 for none: the one the reading passes hand on from.
func bestEligible(all []scored) int {
	best := -1
	for i := range all {
		if all[i].eligible && (best < 0 || all[i].Score > all[best].Score) {
			best = i
		}
	}
	return best
}
