package semantic

// unexplained is the share of the description's salient words that nothing around the chosen
// element carries: not its own fields, its context, its column or label, nor anything in its
// row or card. A heuristic answer that leaves much of the description unexplained may be right
// by its other words and wrong about what those were for: it is less sure.
func unexplained(s *Snapshot, p *Parsed, id int) float64 {
	ps := prepare(s)
	e := &s.Elements[id]
	var words []string
	for _, w := range descWords(p) {
		if !stopWords[w] && kindWords[w] == "" && len(w) > 1 {
			words = append(words, w)
		}
	}
	if len(words) == 0 {
		return 0
	}
	// Its ancestors a few levels up, and its own row or card (the nearest repeated container:
	// one further out may hold its look-alikes too).
	near := []int{id}
	for a, n := e.Parent, 0; a >= 0 && a < len(s.Elements) && n < 3; a, n = s.Elements[a].Parent, n+1 {
		near = append(near, a)
	}
	if e.Item != 0 {
		for i := range s.Elements {
			if i != id && s.Elements[i].Item == e.Item {
				near = append(near, i)
			}
		}
	}
	miss := 0
	for _, w := range words {
		found := contains(ps[id].toks[ctxField], w) || contains(ps[id].col, w) || contains(ps[id].leadToks, w)
		for _, n := range near {
			if found {
				break
			}
			found = ownsLike(&ps[n], w)
		}
		if !found {
			miss++
		}
	}
	return float64(miss) / float64(len(words))
}
