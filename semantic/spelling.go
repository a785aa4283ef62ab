package semantic

import "strings"

// A user in London asks for "the colour picker" on a page that says "Color", or "my favourite
// shops" under "Favorites"; a user in Chicago asks for "the cancelled orders" where a British
// shop says "Cancelled". The stemmer's rules leave the two spellings apart ("colour" and
// "color"), so every British form of a word in the lists below is stemmed as its American
// form is: both sides of each comparison meet, as plurals and tenses already do. The forms
// are generated once, into stemAs, so a token still costs one lookup.

// spellingPairs are American and British spellings of one word, in their base forms: the
// inflections (spellingSuffixes) are made from both.
var spellingPairs = lexicon.Spellings.Pairs

// izeVerbs are verbs whose British spelling may end in -ise (organise, customise): each one's
// -ise, -ised, -ising, -iser and -isation forms are stemmed as the -ize ones. (Verbs spelled
// -ise on both sides, such as advertise, exercise or supervise, are not here.)
var izeVerbs = lexicon.Spellings.IzeVerbs

// spellingSuffixes inflect both spellings of a pair alike; a form no one writes is harmless.
var spellingSuffixes = lexicon.Spellings.Suffixes

// britishStems maps each British form to its American form's stem.
func britishStems() map[string]string {
	m := map[string]string{}
	add := func(us, gb string) {
		for _, suf := range spellingSuffixes {
			u, g := inflect(us, suf), inflect(gb, suf)
			if u == g {
				continue
			}
			// The American form's stem, by the same rules as every other word (stemAs is
			// not built yet: these are its input).
			if _, known := m[g]; !known {
				m[g] = stemRules(u)
			}
		}
	}
	for _, p := range spellingPairs {
		add(p[0], p[1])
	}
	for _, v := range izeVerbs {
		root := strings.TrimSuffix(v, "ize")
		for _, pair := range [][2]string{{"ize", "ise"}, {"ization", "isation"}, {"izations", "isations"}} {
			add(root+pair[0], root+pair[1])
		}
	}
	return m
}

// inflect adds a suffix to a base form as English spelling does: a final e goes before a
// vowel ("organise" + "ed" = "organised").
func inflect(base, suf string) string {
	if suf != "" && strings.HasSuffix(base, "e") && strings.ContainsRune("aeiou", rune(suf[0])) {
		return base[:len(base)-1] + suf
	}
	return base + suf
}
