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

// lentFromOtherItem reports whether anchor a, outside the list of repeated containers that holds
// element c (in none, or in another list: a sidebar's), lends c words (got) that another item of c's list says and c's own does not: the
// banner "New this term: Power Yoga with Sam" above a class list is about the Power Yoga card,
// not the first card under it, though nothing alike sits between the banner and that card. A
// line about the whole list ("Get new jobs for this search") names no item, and still lends its
// words. itemWords (per outermost item, the words its elements say; masks per element) is
// worked out on the first call.
func lentFromOtherItem(s *Snapshot, ps []prepared, c, a int, got uint64, masks []uint64, itemWords *map[int]uint64) bool {
	ec, ea := &s.Elements[c], &s.Elements[a]
	if ec.Item == 0 || isAncestor(s, a, c) {
		return false // (what holds the list says what every item says)
	}
	kinds := itemKinds(s)
	tc := topItem(s, ec.Item)
	if ea.Item != 0 {
		if ta := topItem(s, ea.Item); ta == tc || kinds[ta] == kinds[tc] {
			return false // in c's own item, or in a look-alike one (see associated)
		}
	}
	if *itemWords == nil {
		*itemWords = topItemMasks(s, ps, masks)
	}
	own := (*itemWords)[tc]
	for t, m := range *itemWords {
		if t != tc && kinds[t] == kinds[tc] && got&m&^own != 0 {
			return true
		}
	}
	return false
}

// topItemMasks is, per outermost repeated container, which of the words (masks per element) its
// elements say; a grid's header row says them of every row ("Episode" over the episodes), so
// its headers count for none.
func topItemMasks(s *Snapshot, ps []prepared, masks []uint64) map[int]uint64 {
	out := map[int]uint64{}
	for k, m := range masks {
		if it := s.Elements[k].Item; m != 0 && it != 0 && !ps[k].gridHeader && !isHeaderCell(&s.Elements[k]) {
			out[topItem(s, it)] |= m
		}
	}
	return out
}
