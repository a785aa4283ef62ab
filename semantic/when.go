package semantic

import (
	"strings"
	"unicode"
)

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

// playerLine is the line of what a player plays when the page marks nothing as playing: a
// player offers its Pause control only while it plays, and the title of what plays sits in
// its group, before its controls (the same context, next in document order). -1 for none, or
// when two players play different things.
func playerLine(s *Snapshot, ps []prepared, p *Parsed, qt *queryText) int {
	answer := -1
	for i := range s.Elements {
		e := &s.Elements[i]
		if !e.Visible || !e.Interactive || !pauses(e) {
			continue
		}
		switch a := lineBefore(s, ps, p, qt, i); {
		case a < 0 || a == answer:
		case answer >= 0:
			return -1
		default:
			answer = a
		}
	}
	return answer
}

// pauses reports whether control e pauses what plays ("Pause", "Pause episode").
func pauses(e *Element) bool {
	n := strings.ToLower(strings.TrimSpace(firstOf(e.Name, e.Text)))
	return n == "pause" || strings.HasPrefix(n, "pause ")
}

// playerReach is how many elements before a player's control its title may be.
const playerReach = 8

// lineBefore is the first line of words before control c in c's group (the elements before it
// with its context, controls skipped) that says something the question does not, of the kind
// it asks for; -1 for none.
func lineBefore(s *Snapshot, ps []prepared, p *Parsed, qt *queryText, c int) int {
	ctx := s.Elements[c].Context
	for k := c - 1; k >= max(0, c-playerReach); k-- {
		e := &s.Elements[k]
		if e.Context != ctx {
			return -1
		}
		if ps[k].descendants > 0 || !e.Visible || e.Interactive || e.Editable {
			continue
		}
		if fitsKind(p, &ps[k], firstOf(e.Text, e.Name)) && !allIn(ps[k].toks[0], qt.all) {
			return k
		}
	}
	return -1
}

// asksWhere reports whether the question asks where (question keeps its word first).
func asksWhere(p *Parsed) bool { return p.Question && len(p.Words) > 0 && p.Words[0] == "where" }

// placeIn is the first line of element m (m itself or a visible leaf in it) that reads as a
// place (placeLike): "where is my package now" is answered by the current step's "Jun 11, 11:05
// PM · Salt Lake City, UT", not by its title "In transit". -1 for none.
func placeIn(s *Snapshot, ps []prepared, m int) int {
	for d := m; d <= m+ps[m].descendants && d < len(s.Elements); d++ {
		e := &s.Elements[d]
		if ps[d].descendants > 0 || !e.Visible || e.Interactive || e.Editable {
			continue
		}
		if placeLike(firstOf(e.Text, e.Name)) {
			return d
		}
	}
	return -1
}

// placeLike reports whether text t names a place as addresses and timelines write one: a
// name, a comma, and a capitalized region ("Salt Lake City, UT", "Lyon, France").
func placeLike(t string) bool {
	for i := strings.Index(t, ", "); i >= 0; {
		if j := i + 2; j < len(t) && t[j] >= 'A' && t[j] <= 'Z' && i > 0 && unicode.IsLetter(rune(t[i-1])) {
			return true
		}
		k := strings.Index(t[i+2:], ", ")
		if k < 0 {
			break
		}
		i += 2 + k
	}
	return false
}

// contextLikeAny reports whether the element's context has one of words or a word that stands
// for one (see ownsLike).
func contextLikeAny(pe *prepared, words []string) bool {
	return fieldsLikeAny(pe, words, ctxField)
}
