package semantic

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// People type targets fast: "the Sumbit button", "the shiping address", "the calender". A word
// the page does not have, one keystroke away from exactly one word it does have, is read as
// that word when the description as written fits nothing or several elements (see Resolve).
// A description that resolves is read again only for a slip that seldom spells another word (a
// letter dropped, doubled or added, two swapped: "previw"), and the reading is kept only when it
// fits better; a real word the page lacks ("the bell icon", "the shopping bag" beside
// "Shipping") stays what it is unless nothing else fits. The answer says what was read, and
// its confidence is discounted.

// typoDiscount scales the confidence of a resolution made after reading a typo.
const typoDiscount = 0.85

// Typo limits: words shorter than typoMinLen are not read (four letters are one slip from too
// many words); up to typoLongLen letters one edit is allowed, beyond it two.
const (
	typoMinLen  = 5
	typoLongLen = 8
)

// correctTypos returns the description with each of its salient words that the page lacks
// replaced by the page's one nearest word, and what it read ("\"sumbit\" as \"submit\""), or
// ("", "") when it read nothing. A slip only (see slipOnly) reads only a dropped, doubled or
// extra letter or two letters swapped: a description that resolved as written is read again
// only for those, which make no other word ("previw", "asign", "senoir"), while one letter for
// another often does ("shopping" is one from "shipping").
// odd are the description's typoCandidates.
func correctTypos(s *Snapshot, description string, odd []string, slipOnly bool) (string, string) {
	if len(odd) == 0 {
		return "", ""
	}
	vocab := pageVocab(s)
	out, read := description, []string{}
	for _, w := range odd {
		st := stem(w)
		if _, ok := vocab[st]; ok || altOnPage(st, vocab) {
			continue
		}
		near, ok := nearestWord(w, vocab)
		if !ok || slipOnly && !slip([]rune(w), []rune(near)) {
			continue
		}
		if fixed, n := replaceWord(out, w, near); n > 0 {
			out = fixed
			read = append(read, `"`+w+`" as "`+near+`"`)
		}
	}
	if len(read) == 0 {
		return "", ""
	}
	return out, strings.Join(read, ", ")
}

// typoCandidates are the salient and context words of p that a slip may have made: words of
// typoMinLen letters or more, letters only.
func typoCandidates(p *Parsed) []string {
	var odd []string
	for _, group := range [][]string{p.Words, p.Context} {
		for _, w := range group {
			if utf8.RuneCountInString(w) >= typoMinLen && allLetters(w) && !contains(odd, w) {
				odd = append(odd, w)
			}
		}
	}
	return odd
}

// pageVocab is pageWords of s, worked out once for a snapshot taken by Snap (which is never
// modified): it was two thirds of a failed resolution on a 2,000-element page, and an agent's
// failed step tries again on the same snapshot. The map is shared and only read.
func pageVocab(s *Snapshot) map[string][]string {
	ps := prepare(s)
	c := s.prep
	if c == nil || len(c.ps) != len(s.Elements) {
		return pageWords(ps)
	}
	c.vocabOnce.Do(func() { c.vocab = pageWords(ps) })
	return c.vocab
}

// pageWords is every word an element shows, is labelled or is placed by (lower case), by stem.
func pageWords(ps []prepared) map[string][]string {
	vocab := make(map[string][]string, 1024)
	for i := range ps {
		for f, v := range ps[i].norm {
			if v == "" || (f != ctxField && !slices.Contains(nameFieldsAndValue, f)) {
				continue
			}
			for _, w := range strings.FieldsFunc(v, func(r rune) bool { return !unicode.IsLetter(r) }) {
				if len(w) < 3 {
					continue
				}
				if st := stem(w); !contains(vocab[st], w) {
					vocab[st] = append(vocab[st], w)
				}
			}
		}
	}
	return vocab
}

// nameFieldsAndValue are the fields whose words count as the page's: what names an element,
// and a value it shows.
var nameFieldsAndValue = append(append([]int(nil), nameFields...), valueField)

// altOnPage reports whether the page has a word the matcher takes for st (see alternatives).
func altOnPage(st string, vocab map[string][]string) bool {
	for a := range alternatives[st] {
		if _, ok := vocab[a]; ok {
			return true
		}
	}
	return false
}

// nearestWord is the page word nearest to w, within the edits a word of w's length allows
// and starting with the same letter (a slip rarely hits the first key). Words at the same
// distance with different stems leave it unread: "sumbit" is as near "submit" as "summit".
func nearestWord(w string, vocab map[string][]string) (string, bool) {
	maxEdits := 1
	if utf8.RuneCountInString(w) > typoLongLen {
		maxEdits = 2
	}
	a := []rune(w)
	best, bestStem, bestDist, tied := "", "", maxEdits+1, false
	for st, words := range vocab {
		for _, word := range words {
			b := []rune(word)
			if b[0] != a[0] || max(len(a)-len(b), len(b)-len(a)) > maxEdits {
				continue
			}
			d := editDistance(a, b, maxEdits)
			switch {
			case d < bestDist:
				best, bestStem, bestDist, tied = word, st, d, false
			case d == bestDist && st != bestStem:
				tied = true
			case d == bestDist && word < best: // one stem, several forms: any reads the same
				best = word
			}
		}
	}
	if best == "" || tied {
		return "", false
	}
	return best, true
}

// slip reports whether typed is word with one letter dropped, doubled or added, or two
// neighbouring letters swapped: the typing slips that seldom spell another word.
func slip(typed, word []rune) bool {
	if len(typed) != len(word) {
		return editDistance(typed, word, 1) == 1
	}
	i := 0
	for i < len(typed) && typed[i] == word[i] {
		i++
	}
	return i+1 < len(typed) && typed[i] == word[i+1] && typed[i+1] == word[i] && string(typed[i+2:]) == string(word[i+2:])
}

// editDistance is the optimal string alignment distance of a and b (insertions, deletions,
// substitutions and swaps of two neighbours each count one), or max+1 once it exceeds max.
func editDistance(a, b []rune, max int) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			c := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				c = min(c, prev2[j-2]+1)
			}
			cur[j] = c
			rowMin = min(rowMin, c)
		}
		if rowMin > max {
			return max + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// allLetters reports whether w is letters only.
func allLetters(w string) bool {
	for _, r := range w {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

// replaceWord replaces the whole-word, case-insensitive occurrences of w in s with by, and
// says how many it replaced.
func replaceWord(s, w, by string) (string, int) {
	var b strings.Builder
	n, i := 0, 0
	lw := strings.ToLower(s)
	if len(lw) != len(s) { // a letter whose lower case is longer: work on the lower case
		s = lw
	}
	for {
		k := strings.Index(lw[i:], w)
		if k < 0 {
			break
		}
		k += i
		end := k + len(w)
		if (k == 0 || !isWordByte(lw[k-1])) && (end == len(lw) || !isWordByte(lw[end])) {
			b.WriteString(s[i:k])
			b.WriteString(by)
			n++
		} else {
			b.WriteString(s[i:end])
		}
		i = end
	}
	b.WriteString(s[i:])
	return b.String(), n
}
