package semantic

// inLookAlikeItem reports whether element k sits in another of the look-alike repeated
// containers that hold element l: their outermost items differ and are of one kind (two product
// cards of a grid, two rows of a list), and are not two unlike parts of one thing (a div row's
// name cell of texts and its actions cell of buttons). A card's title is about its own card's
// controls only; a section's title ("Tasks") is of another kind than the rows under it.
func inLookAlikeItem(s *Snapshot, l, k int) bool {
	il, ik := s.Elements[l].Item, s.Elements[k].Item
	if il == 0 || ik == 0 || il == ik {
		return false
	}
	tl, tk := topItem(s, il), topItem(s, ik)
	return tl != tk && itemKinds(s)[tl] == itemKinds(s)[tk] && !partsOfOne(s, tl, tk)
}

// soleControlBefore returns the one control fit for intent that the item of text l holds
// before l, or -1: a product card that puts its Add to cart button on its image, above the
// title, has no control after the title, and the title names that button.
func soleControlBefore(s *Snapshot, ps []prepared, l int, intent Intent) int {
	lo, _, ok := itemSpan(s, ps, l)
	if !ok {
		return -1
	}
	found := -1
	for k := lo; k < l; k++ {
		if c := &s.Elements[k]; c.Visible && !c.Covered && fitFor(c, intent) && c.Role != "label" {
			if found >= 0 {
				return -1 // two controls: the title does not say which
			}
			found = k
		}
	}
	return found
}
