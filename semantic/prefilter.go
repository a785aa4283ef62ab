package semantic

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Every description goes through dozens of phrase rewrites (phraseRewrites, vocabularyRewrites),
// and most rewrites match almost no description: running each regular expression cost about
// two thirds of parsing a description. A rewrite's expression says which words any match must
// contain ("thumbs? ?up" needs "thumb"), so a substring test on the description, folded to one
// case, skips the expression when none of them is there. The test is exact: it only skips an
// expression that cannot match (TestRewriteNeeds checks every rewrite against the corpus).

// maxClassRunes is the largest character class whose runes a literal may branch on ("[xX]",
// "[⋮⋯…]"); a larger class is any character.
const maxClassRunes = 8

// maxNeeds bounds how many alternative literals one expression keeps: more, and the substring
// tests would cost what the expression does.
const maxNeeds = 24

// literalNeeds returns strings, folded by foldCase, one of which every match of re contains;
// nil when every string may match.
func literalNeeds(re *regexp.Regexp) []string {
	t, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return nil
	}
	return needsOf(t.Simplify())
}

// needsOf is literalNeeds of one node of a parsed expression.
func needsOf(t *syntax.Regexp) []string {
	switch t.Op {
	case syntax.OpLiteral:
		return []string{foldCase(string(t.Rune))}
	case syntax.OpCharClass:
		var rs []string
		for i := 0; i+1 < len(t.Rune); i += 2 {
			if t.Rune[i+1]-t.Rune[i] >= maxClassRunes || len(rs) > maxClassRunes {
				return nil
			}
			for r := t.Rune[i]; r <= t.Rune[i+1]; r++ {
				rs = appendNew(rs, foldCase(string(r)))
			}
		}
		if len(rs) == 0 || len(rs) > maxClassRunes {
			return nil
		}
		return rs
	case syntax.OpCapture, syntax.OpPlus:
		return needsOf(t.Sub[0])
	case syntax.OpRepeat:
		if t.Min >= 1 {
			return needsOf(t.Sub[0])
		}
	case syntax.OpConcat:
		return concatNeeds(t.Sub)
	case syntax.OpAlternate:
		var out []string
		for _, s := range t.Sub {
			n := needsOf(s)
			if n == nil {
				return nil
			}
			for _, x := range n {
				out = appendNew(out, x)
			}
		}
		if len(out) > maxNeeds {
			return nil
		}
		return out
	}
	return nil // empty, any character, anchors, optional parts
}

// concatNeeds is needsOf a sequence: runs of adjacent single-choice literals join into one
// longer literal, and the part whose shortest need is longest is kept (a longer literal is a
// rarer one).
func concatNeeds(subs []*syntax.Regexp) []string {
	var best []string
	keep := func(n []string) {
		if n != nil && (best == nil || shortest(n) > shortest(best)) {
			best = n
		}
	}
	run := ""
	for _, s := range subs {
		n := needsOf(s)
		if len(n) == 1 && (s.Op == syntax.OpLiteral || s.Op == syntax.OpCharClass) {
			run += n[0]
			continue
		}
		if run != "" {
			keep([]string{run})
			run = ""
		}
		keep(n)
	}
	if run != "" {
		keep([]string{run})
	}
	return best
}

func shortest(ss []string) int {
	m := -1
	for _, s := range ss {
		if m < 0 || len(s) < m {
			m = len(s)
		}
	}
	return m
}

func appendNew(ss []string, s string) []string {
	if slices.Contains(ss, s) {
		return ss
	}
	return append(ss, s)
}

// foldCase maps each rune of s to the least rune it matches case-insensitively ("K", "k" and
// the Kelvin sign all to "K"), so a literal that a case-insensitive expression matches in s is
// a substring of foldCase(s). ASCII, nearly every description, takes a fast path.
func foldCase(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToUpper(s) // for ASCII the least rune of each fold orbit is the upper case
	}
	return strings.Map(leastFold, s)
}

// leastFold is the least rune of r's case-folding orbit.
func leastFold(r rune) rune {
	least := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		least = min(least, f)
	}
	return least
}

// mayMatch reports whether folded (a description after foldCase) contains one of needs.
func mayMatch(folded string, needs []string) bool {
	if needs == nil {
		return true
	}
	for _, n := range needs {
		if strings.Contains(folded, n) {
			return true
		}
	}
	return false
}

// rewriteRule is a phrase rewrite: every match of re becomes out (with re's submatches).
type rewriteRule = struct {
	re  *regexp.Regexp
	out string
}

// rewriter applies a list of rewrites in order, each only when its expression can match.
type rewriter struct {
	rules []rewriteRule
	needs [][]string
}

func newRewriter(rules []rewriteRule) *rewriter {
	w := &rewriter{rules: rules, needs: make([][]string, len(rules))}
	for i, r := range rules {
		w.needs[i] = literalNeeds(r.re)
	}
	return w
}

func (w *rewriter) apply(s string) string {
	folded := foldCase(s)
	for i, r := range w.rules {
		if !mayMatch(folded, w.needs[i]) {
			continue
		}
		if t := r.re.ReplaceAllString(s, r.out); t != s {
			s, folded = t, foldCase(t)
		}
	}
	return s
}
