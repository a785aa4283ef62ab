package semantic

// States and the actions that set them share a stem: "the published posts" are the posts in
// the Published state (a "Published (7)" filter, a status), not the "Publish" button of a
// row, though both stem to "publish". A regular past participle is read as a state; a control
// whose name says only its verb is the action's.

// stateActionFactor scales the text score of an element whose name says the action of a
// state the description asks for ("Publish" for "the published posts"), as "lacks the
// action" scales one that says only the state of an action asked for.
const stateActionFactor = 0.6

// participleStates returns the regular past participles of main ("published" in "list the
// published posts", "resolved" in "the tickets resolved today", "marked" in "the mail marked
// as spam"): a description never instructs in the past tense, so each names a state (or what
// was done), not the action.
func participleStates(main []string) []string {
	var out []string
	for _, w := range main {
		if pastParticiple(w) && contentWord(w) {
			out = append(out, w)
		}
	}
	return out
}

// namesStateAction reports whether a normalized name says the verb of one of the states
// without saying the state itself ("Publish" for "published", "Resolve ticket" for
// "resolved"): a control that sets the state, not what is in it.
func namesStateAction(norm string, states []string) bool {
	action := false
	for start := 0; start < len(norm); {
		end := start
		for end < len(norm) && isWordByte(norm[end]) {
			end++
		}
		if end > start {
			w := norm[start:end]
			for _, s := range states {
				switch {
				case w == s:
					return false
				case verbOfParticiple(w, s):
					action = true
				}
			}
		}
		start = end + 1
	}
	return action
}

// verbOfParticiple reports whether w is the verb of the regular participle s: "publish" of
// "published", "resolve" of "resolved", "ship" of "shipped".
func verbOfParticiple(w, s string) bool {
	n := len(s)
	switch len(w) {
	case n - 2:
		return s[:n-2] == w // "published"
	case n - 1:
		return s[:n-1] == w // "resolved"
	case n - 3:
		return s[n-3] == s[n-4] && s[:n-3] == w // "shipped", "cancelled"
	}
	return false
}
