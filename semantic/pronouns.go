package semantic

import (
	"slices"
	"strings"
)

// Pronouns stand for someone or something the user named before ("the message she sent
// yesterday", "reply to them", "his phone number"): no element on the page says them, so they
// are no salient words. An element that happens to carry one ("Her story", a "Their picks"
// tab) is no better a match for it.

// personalPronouns are the pronouns read as stop words; "it", "its", "me", "my" and "you"
// already were.
var personalPronouns = []string{"he", "him", "his", "she", "her", "hers", "they", "them", "their", "theirs"}

// subjectPronouns open a clause after the noun they follow, as "I" and "we" do: "the
// spreadsheet she shared" is a spreadsheet.
var subjectPronouns = []string{"he", "she", "they"}

func init() {
	for _, w := range personalPronouns {
		stopWords[w] = true
	}
	for _, w := range subjectPronouns {
		clauseSubjects[w] = true
	}
}

// pronounObjects stand for the thing an instruction acts on when the page shows it already:
// "mark it as read" is the open message's "Mark as read" button, not a "Read" check box of
// an item named "it".
var pronounObjects = map[string]bool{"it": true, "them": true, "this": true, "these": true, "those": true, "this one": true,
	"them all": true, "both": true, "both of them": true}

// pronounObject reports whether s, the object of an instruction, is only a pronoun.
func pronounObject(s string) bool {
	return pronounObjects[strings.ToLower(strings.TrimSpace(s))]
}

// clauseVerb reports whether main[i] is the past verb of a clause whose subject is a pronoun,
// after the noun it qualifies ("the contract he sent", "the file they shared with me"): it
// says how the thing came from the person, which the page shows by the person's name (a
// sender, an owner), not by the verb; as a word it would match the Sent folder instead.
func clauseVerb(main []string, i int) bool {
	w := main[i]
	if !pastParticiple(w) && irregularPast[w] == "" {
		return false
	}
	j := i - 1
	for j > 0 && (main[j] == "has" || main[j] == "had" || main[j] == "just" || main[j] == "already") {
		j--
	}
	return j > 0 && slices.Contains(subjectPronouns, main[j]) && slices.ContainsFunc(main[:j], nounLike)
}

// nounLike reports whether w may be the noun a clause qualifies: a content word or a role
// word ("the message she sent").
func nounLike(w string) bool { return contentWord(w) || roleWords[w] != nil }
