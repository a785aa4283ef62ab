package semantic

import (
	"strings"
)

// People describe controls by their looks or by a near word ("the magnifying glass", "the bin
// icon", "surname"), pages name them by their function ("Search", "Delete", "Last name"). Two
// small tables bridge the gap: a few lossless phrase rewrites applied to the description before
// parsing, and word alternatives the matcher accepts in place of a description word (at a small
// discount), so that a page that does say "Surname" still matches exactly.

// phraseRewrites are applied, whole words and case-insensitively, to descriptions (the
// lexicon's rewrites).
var phraseRewrites = lexicon.rules(lexicon.Rewrites)

// saidQuestionRe asks what someone said: "what did Ike ask", "what did the customer say?".
var saidQuestionRe = lexicon.pattern("said_question")

func rewritePhrases(s string) string {
	return rewriteVocabulary(phraseRewriter.apply(s))
}

// phraseRewriter runs phraseRewrites, each only when its expression can match (prefilter.go).
var phraseRewriter = newRewriter(phraseRewrites)

// wordAlternatives maps a description word to words a page may use for it. Both sides are
// stemmed at init, like every compared token.
var wordAlternatives = alternativeMap(lexicon.Alternatives)

// alternatives is wordAlternatives stemmed: alternatives[stem(a)][stem(b)].
var alternatives = func() map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for a, bs := range wordAlternatives {
		m := out[stem(a)]
		if m == nil {
			m = map[string]bool{}
			out[stem(a)] = m
		}
		for _, b := range bs {
			for _, t := range tokens(strings.ToLower(b)) {
				m[t] = true
			}
		}
	}
	addAlternatives(out) // vocabulary.go
	return out
}()

// alternative reports whether the page word b may stand for the description word a.
func alternative(a, b string) bool { return alternatives[a][b] }
