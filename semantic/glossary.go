package semantic

import "strings"

// People write targets in English on pages in other languages: "proceed to checkout" on a
// German shop whose button says "Zur Kasse", "the grand total" beside "Gesamtsumme". A model
// translates; the heuristic needs no model, so it carries the words shops, forms, account
// pages and dialogs use most, in German, French, Spanish, Italian, Dutch and Portuguese, as
// the English words a description would use. The stemmer reads a page's (and a
// description's) foreign word as those English words, so "Entfernen" is "remove" on both
// sides of every comparison, and a quoted foreign name ("click \"Zur Kasse\"") still matches
// itself. A compound that says two things ("Versandkosten", "Gutscheincode") becomes both.
//
// Only interface words are here, the vocabulary a site's chrome shares with every other
// site; what it sells ("Handmühle", "Äthiopien") is the model's to translate. A word that is
// also English ("commander", "article", "land", "plus", "non") is left out: an English page
// must read as it did.
var foreignWords = lexicon.foreign()

// foreignStems is foreignWords as stemAs holds them: each word's English words stemmed, joined
// by a space (tokens splits them).
func foreignStems() map[string]string {
	m := make(map[string]string, len(foreignWords))
	for w, en := range foreignWords {
		var st []string
		for _, e := range strings.Fields(en) {
			st = append(st, stemRules(e))
		}
		m[w] = strings.Join(st, " ")
	}
	return m
}
