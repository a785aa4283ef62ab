package semantic

import (
	"regexp"
	"strings"
)

// Contractions. A description written as one speaks ("I'm looking for the returns form", "what's
// the total", "where's my order") splits at its apostrophe into fragments ("m", "d", "t") that
// no element says as a word of its own, and a question word glued to its verb ("what’s", with
// a curly apostrophe, "where's") is not read as the question it opens. expandContractions
// writes them out before the description is parsed: the question words take their verb ("what
// is"), a pronoun's verb is dropped ("I'm" -> "I": the verb says nothing of the element),
// "let's" is dropped, and a negation keeps its "not", which controlOf reads as a denial.

// contractionRe finds a word with a contraction's ending; curly apostrophes are straightened
// first.
var contractionRe = regexp.MustCompile(`(?i)\b(\pL+)'(m|s|d|ve|ll|re|t)\b`)

// isContracted are the words whose "'s" is "is", not a possessive: "what's", "where's".
var isContracted = map[string]bool{"what": true, "where": true, "who": true, "how": true, "when": true,
	"why": true, "it": true, "that": true, "there": true, "here": true, "he": true, "she": true}

// negatedAux are the auxiliaries of a "n't" whose stem is not the auxiliary itself ("won't" is
// "will not", "can't" "can not").
var negatedAux = map[string]string{"won": "will", "can": "can", "ca": "can", "shan": "shall"}

// expandContractions writes out the contractions of s (see the comment above); a possessive
// "'s" ("Dara's role") is left as it is.
func expandContractions(s string) string {
	if !strings.ContainsAny(s, "'’") {
		return dropWish(s)
	}
	s = dropWish(strings.ReplaceAll(s, "’", "'"))
	return contractionRe.ReplaceAllStringFunc(s, func(m string) string {
		at := strings.IndexByte(m, '\'')
		word, end := m[:at], strings.ToLower(m[at+1:])
		low := strings.ToLower(word)
		switch end {
		case "s":
			switch {
			case low == "let":
				return "" // "let's go": the asker's, not the element's
			case isContracted[low]:
				return word + " is"
			}
			return m // a possessive
		case "t":
			if !strings.HasSuffix(low, "n") {
				return m
			}
			if low == "don" {
				return "not" // "don't show again": "do" says nothing, "not" denies
			}
			if aux, ok := negatedAux[low]; ok {
				return aux + " not"
			}
			return word[:len(word)-1] + " not" // "isn't" -> "is not"
		}
		// "I'm", "I'd", "you've", "we'll", "they're": the pronoun's verb says nothing.
		return word
	})
}

// wishRe is the asker's wish that opens a request: "I'd like to", "I would love".
var wishRe = regexp.MustCompile(`(?i)\b(?:i|we)(?:'d|\s+would)\s+(?:like|love)(?:\s+to)?\b`)

// dropWish drops the asker's wish from s ("I'd like to return the boots" -> "return the
// boots"): its "like" is no word of the element (a Like button), and "I'd" leaves a "d".
func dropWish(s string) string {
	if !strings.Contains(s, "like") && !strings.Contains(s, "love") && !strings.Contains(s, "Like") {
		return s
	}
	return strings.TrimSpace(wishRe.ReplaceAllString(s, ""))
}
