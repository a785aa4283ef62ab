package semantic

import "regexp"

// Answers to a page's yes/no questions. People answer a question in their own words: "nobody
// was injured" answers "Was anyone injured?", "answer no to the pregnant question" answers "Are
// you pregnant or nursing?". The question's words find the question; the denial says which of
// the controls after it is meant: the one that says No, not the Yes that comes first. "no" is a
// stop word and "nobody" a plain one, so the description's denial is read before its words are.

// denialRe finds a word that denies outside quotes (quoted phrases are placeholders by then):
// "no", "nobody", "none", "never", "not", "nothing", "neither", and the "n't" of "didn't".
var denialRe = regexp.MustCompile(`(?i)\b(?:no|nobody|no one|none|never|not|nothing|neither|nor)\b|n't\b|n’t\b`)

// denies reports whether the description s (its quoted phrases replaced) answers no: a
// question on the page is answered by its No control.
func denies(s string) bool { return denialRe.MatchString(s) }

// noWords are the words (stemmed) of the control that answers no.
var noWords = []string{stem("no")}
