package semantic

import "strings"

// Questions answered by a date, a time, a status or the item that is so now ("when is rent
// due", "when was the incident last updated", "overall system status", "where is my package
// right now").

// whenHeadTells reports whether the head of a date question says which date it asks for
// ("when is rent due": the one due, not any date on a row that says rent): a date of the page
// is labelled with it ("Due July 1"). A date then stands for the head only when it says it
// too (saysHead). A head no date says ("when did the accident happen") tells no date from
// another, and any date may stand for it.
func whenHeadTells(ps []prepared, p *Parsed, qt *queryText) bool {
	if p.Kind != "date" || !p.Question || qt.head == "" || kindWords[p.Head] != "" {
		return false
	}
	ks := kindShapes[p.Kind]
	for i := range ps {
		if ps[i].shape&ks != 0 && saysHead(&ps[i], qt) {
			return true
		}
	}
	return false
}

// saysHead reports whether the value pe is labelled with the question's head: by its lead in
// the running text ("Due <span>July 1</span>"), its own words, or the label of the group or
// column it is in.
func saysHead(pe *prepared, qt *queryText) bool {
	return contains(pe.leadToks, qt.head) || contains(pe.col, qt.head) || ownsAny(pe, []string{qt.head})
}

// stateWords end a "when is X ..." question as what is said of X, not a word of its name:
// "when is the second task due", "when is the store open".
var stateWords = map[string]bool{"due": true, "open": true, "closed": true, "over": true, "ready": true, "back": true}

// doAuxiliaries put the verb of a question at its end: "when does the third class start".
var doAuxiliaries = map[string]bool{"do": true, "does": true, "did": true, "will": true, "would": true,
	"can": true, "could": true, "should": true}

// whenOfNth rewrites the rest of a when-question about the Nth of something ("the second
// showing task due", asked with "is") as its predicate of that thing ("due of the second
// showing task"): the noun run an ordinal counts over ends before the predicate ("due",
// "start", "updated"), which says which date of the item is asked for. aux is the question's
// first word after "when". Other rests are returned as they are.
func whenOfNth(aux, rest string) string {
	f := strings.Fields(rest)
	n := len(f)
	if n < 3 {
		return rest
	}
	pred := strings.ToLower(f[n-1])
	aux = strings.ToLower(aux)
	be := aux == "is" || aux == "was" || aux == "are" || aux == "were"
	if !doAuxiliaries[aux] && !(be && (stateWords[pred] || pastParticiple(pred))) {
		return rest
	}
	nth := false
	for _, w := range f[:n-2] { // "the article last updated", "the alert first seen": when, not which
		if _, ok := ordinal(strings.ToLower(w)); ok {
			nth = true
		}
	}
	if !nth {
		return rest
	}
	return pred + " of " + strings.Join(f[:n-1], " ")
}
