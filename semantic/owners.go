package semantic

// A question that names whose thing it asks about ("which seat does Tom have right now": Tom's
// seat) is answered from Tom's part of the page. What the page marks as present (the booking
// stepper's "Seats & extras" step) shares the thing's word but not its owner: it is about the
// page's step, not about Tom.

// aboutOwner reports whether, when the question names a possessor, the present-marked element
// m, its parent or the answer a in it says the possessor's words (in its own text or its
// context); true for a question without one.
func aboutOwner(s *Snapshot, ps []prepared, qt *queryText, m, a int) bool {
	if len(qt.poss) == 0 {
		return true
	}
	for _, i := range []int{m, s.Elements[m].Parent, a} {
		if i >= 0 && (ownsLikeAny(&ps[i], qt.poss) || contextLikeAny(&ps[i], qt.poss)) {
			return true
		}
	}
	return false
}
