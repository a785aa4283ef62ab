package semantic

// The last action's effect as a prior. After a submit, "the confirmation", "the error" or "what
// did it say" name whatever the page now shows that it did not show before, in whatever words:
// a message's words seldom repeat the description's. Given the page as the action found it
// (Query.Before), the innermost visible elements whose text is new are candidates for reading
// whatever their words, ahead of older ones by freshBonus; words the description shares with
// an element still count on top of it.

// freshBonus is what being new since the last action adds to a reading's score: more than one
// word of the description on an older element ("Common sign-up errors" for "the error"), less
// than an older element that says all of them.
const freshBonus = 1.0

// freshPrior raises, for a reading, the innermost elements of s that before did not show, and
// adds those the words did not reach as candidates; all is returned with them.
func freshPrior(s, before *Snapshot, intent Intent, all []scored) []scored {
	// Another page (a submit that navigated, a new tab) is no effect to compare with.
	if before == nil || before.URL != s.URL || intent != IntentRead && intent != IntentAny || !ruleOn("fresh_prior") {
		return all
	}
	fresh := freshElements(s, before)
	if len(fresh) == 0 {
		return all
	}
	most := 0
	for i := range fresh {
		most = max(most, len(tokens(firstOf(s.Elements[i].Text, s.Elements[i].Value))))
	}
	// The action's message is its largest new text: the bonus falls to three quarters for the
	// shortest ("Discount", a new label beside "SPRING10 applied. You saved $8.50.").
	bonus := func(i int) float64 {
		n := len(tokens(firstOf(s.Elements[i].Text, s.Elements[i].Value)))
		return freshBonus * (0.75 + 0.25*float64(n)/float64(max(most, 1)))
	}
	for i := range all {
		if id := all[i].Element.ID; fresh[id] {
			delete(fresh, id)
			all[i].Score += bonus(id)
			all[i].eligible = true
			all[i].Why += "; new since the last action"
		}
	}
	for i := range s.Elements {
		if fresh[i] {
			all = append(all, scored{Element: &s.Elements[i], Score: bonus(i), eligible: true, Why: "new since the last action"})
		}
	}
	return all
}

// freshElements are the visible, text-bearing elements of s whose text before did not show
// at the same place (the element is new, or says something new), and none of whose own
// elements is such: the message, not the section that now holds it.
func freshElements(s, before *Snapshot) map[int]bool {
	seen := make(map[string]bool, len(before.Elements))
	for i := range before.Elements {
		e := &before.Elements[i]
		if e.Visible {
			seen[freshKey(e)] = true
		}
	}
	fresh := map[int]bool{}
	for i := range s.Elements {
		e := &s.Elements[i]
		// What the user typed is not what the action produced.
		if e.Visible && !e.Covered && !e.Editable && firstOf(e.Text, e.Value) != "" && !seen[freshKey(e)] {
			fresh[i] = true
		}
	}
	for i := range fresh {
		for up, hops := s.Elements[i].Parent, 0; up >= 0 && up < len(s.Elements) && hops < 256; up, hops = s.Elements[up].Parent, hops+1 {
			delete(fresh, up)
		}
	}
	return fresh
}

// freshKey is what an element shows where: its text and value at its selector.
func freshKey(e *Element) string { return e.Selector + "\x00" + e.Text + "\x00" + e.Value }
