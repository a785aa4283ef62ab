package semantic

import "strings"

// A select's options (Element.Options) are what it can be set to, not what it says: "choose
// Express shipping" is the Delivery speed select that offers "Express (2–3 business days)",
// when nothing on the page is named Express; "the select that has Monthly and Annually" is the
// one offering both. A match through the options scores below a name that says the words
// (optionWeight), so "the country dropdown" stays the select labelled Country, and never
// counts for a read or a question: the options of a select are not the values it shows.

// optionWeight is the text score of a select whose own name and options together carry every
// word of the description: below a field that says them (the chosen option, its value, is
// 0.6 of an exact match, its label 1), above one that shares a word or two.
const optionWeight = 0.7

// optionToks returns the stemmed tokens of each of a select's options (Element.Options, one
// a line), looked up in memo as its other values are.
func optionToks(memo *normLookup, options string) [][]string {
	out := make([][]string, 0, strings.Count(options, "\n")+1)
	for o := range strings.SplitSeq(options, "\n") {
		var toks []string
		if o != "" {
			toks = memo.get(o, false).toks
		}
		out = append(out, toks) // one per line, so that an index names the line
	}
	return out
}

// optionMatch is how well an element's options, with its own name, say the description's
// words: optionWeight times the weighted share of the words that its own naming fields, its
// context (the Shipping section of a form, for "choose Express shipping") or one of its
// options carry, when an option carries a word they do not; 0 for an element without options,
// or when the options add no word. what is the first option that adds one.
func optionMatch(pe *prepared, qt *queryText) (score float64, what string) {
	if len(pe.options) == 0 || len(qt.words) == 0 {
		return 0, ""
	}
	got, total, added := 0.0, 0.0, -1
	for i, w := range qt.words {
		wt := 1.0
		if qt.wordW != nil {
			wt = qt.wordW[i]
		}
		total += wt
		alts := altsFor(w)
		if carriesWord(pe, w, alts) || anyWordLike(w, alts, pe.toks[ctxField]) {
			got += wt
			continue
		}
		for k, o := range pe.options {
			if anyWordLike(w, alts, o) {
				got += wt
				if added < 0 {
					added = k
				}
				break
			}
		}
	}
	if added < 0 || total == 0 {
		return 0, ""
	}
	opts := strings.Split(pe.el.Options, "\n") // only for the why: once per select that matches
	if added < len(opts) {
		what = opts[added]
	}
	return optionWeight * got / total, what
}

// anyWordLike reports whether one of toks stands for description word w (see wordLike); alts
// is altsFor(w).
func anyWordLike(w string, alts, toks []string) bool {
	for _, b := range toks {
		if wordLike(w, alts, b) {
			return true
		}
	}
	return false
}

// optionsCount reports whether a description may name an element by its options: not a read,
// a question or a value of a kind ("the overnight price": a select's options are not what it
// shows), nor a quoted phrase, which names what the element says.
func optionsCount(p *Parsed, qt *queryText, intent Intent) bool {
	return intent != IntentRead && !p.Question && p.Kind == "" && len(qt.phrases) == 0
}

// slotVerbs (stemmed) book or pick one of the options a page offers: a time slot, a date, a
// seat.
var slotVerbs = func() map[string]bool {
	m := map[string]bool{}
	for _, v := range []string{"book", "reserve", "select", "pick", "choose", "take", "grab"} {
		m[stem(v)] = true
	}
	return m
}()

// slotChoiceBonus lifts the option a booking verb takes over a control that says the verb
// ("book the 8:45 slot": the 8:45 PM button, not the header's Reserve).
const slotChoiceBonus = 0.25

// slotChoice reports whether pe is an option that a booking verb takes: an interactive
// element that says a time, a date or a code of the description (a word with a digit). Booking
// it is clicking it, so it does not lack the action.
func slotChoice(pe *prepared, qt *queryText) bool {
	return len(qt.slotWords) > 0 && pe.el.Interactive && ownsAny(pe, qt.slotWords)
}
