package semantic

import "strings"

// unexplained is the share of the description's salient words that nothing around the chosen
// element carries: not its own fields, its context, its column or label, nor anything in its
// row or card. A heuristic answer that leaves much of the description unexplained may be right
// by its other words and wrong about what those were for: it is less sure.
func unexplained(s *Snapshot, p *Parsed, id int) float64 {
	ps := prepare(s)
	e := &s.Elements[id]
	var words []string
	for _, raw := range p.Words {
		for _, w := range tokens(strings.ToLower(raw)) {
			if !stopWords[w] && kindWords[w] == "" && len(w) > 1 {
				words = append(words, w)
			}
		}
	}
	if len(words) == 0 {
		return 0
	}
	near := []int{id}
	if e.Parent >= 0 && e.Parent < len(s.Elements) {
		near = append(near, e.Parent)
	}
	if e.Item != 0 {
		top := topItem(s, e.Item)
		for i := range s.Elements {
			if it := s.Elements[i].Item; it != 0 && i != id && topItem(s, it) == top {
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
