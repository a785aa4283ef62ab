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

// A description may speak as the user: "I'll pay the import duties myself" answers "Who pays
// import charges?" with the option said from the user's side, "I'll pay them now (DDP)", not
// "Recipient pays on delivery", though both say pay. (Stop words drop "I" and "myself".)

// firstPersonRe finds the user speaking as the one who acts, outside quotes: "I", "I'll",
// "I'm", "myself". ("Me" is most often whom it is done for: "gift wrap it for me" is the
// shop's wrapping.)
var firstPersonRe = regexp.MustCompile(`(?i)(?:^|[\s,;(])(?:i|i'll|i’ll|i'm|i’m|i've|i’ve|i'd|i’d|myself)(?:$|[\s,;.!?)])`)

// firstPersonWords are the words (stemmed) with which an option speaks as the user who acts
// ("Shared with me" is what others did).
var firstPersonWords = []string{stem("i"), stem("myself")}

// speaksFirstPerson reports whether an element's name speaks as the user ("I'll pay them now").
func speaksFirstPerson(pe *prepared) bool { return ownsAny(pe, firstPersonWords) }
