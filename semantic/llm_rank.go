package semantic

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/llm"
)

// The model ranker's prompt is a compact candidate list, never the page's HTML: one line per
// candidate with its snapshot id, role, name and a little context. promptBudget bounds the
// whole prompt (system + user) in estimated tokens (characters / 4), whatever the page's size.
// Sixty candidates: a description that shares no word with its target ranks it nowhere, and on
// a busy page forty lines ran out before it; the budget still trims long lines (the figures at
// 40, 60, 80 and 120 are in the git history of docs/PERFORMANCE.md).
const (
	defaultMaxCandidates = 60
	promptBudget         = 1400
)

const llmSystem = `You match a user's description of a web page element to one candidate element.
Each candidate line is: id, role, "name", then optional facts (text=, placeholder=, value=, href=, states) and @ the region or heading it sits in.
Reply with JSON only: {"id": <candidate id>}, or {"id": null} if no candidate fits the description, or if several fit equally and nothing in the description or their facts tells them apart.`

// itemMates returns, up to room, the visible elements fit for intent that share the outermost
// repeated container (a row, a card) of one of the first top candidates, and are not yet seen:
// per candidate the nearest few in document order, the card's parts before the card itself
// (the total two lines below the buyer's name, not the whole card's text).
func itemMates(s *Snapshot, intent Intent, cands []*Element, seen map[int]bool, top, room int) []*Element {
	const perItem, reach = 5, 40 // a container's elements are contiguous: look this far either side
	var out []*Element
	for _, c := range cands[:top] {
		if room-len(out) <= 0 {
			break
		}
		if c.Item == 0 {
			continue
		}
		it := topItem(s, c.Item)
		var near, wrappers []*Element
		for d := 1; d <= reach; d++ {
			for _, i := range []int{c.ID - d, c.ID + d} {
				if i < 0 || i >= len(s.Elements) || seen[i] {
					continue
				}
				e := &s.Elements[i]
				if e.Item == 0 || !e.Visible || !fitFor(e, intent) || topItem(s, e.Item) != it {
					continue
				}
				if isAncestor(s, i, c.ID) {
					wrappers = append(wrappers, e)
				} else {
					near = append(near, e)
				}
			}
		}
		for _, e := range append(near, wrappers...)[:min(perItem, len(near)+len(wrappers), room-len(out))] {
			seen[e.ID] = true
			out = append(out, e)
		}
	}
	return out
}

// kindMates returns, up to room and in document order, the visible values of the kind the
// description asks for (a price for "what will I pay at the visit") not yet seen: a value may
// share no word with the question, and its label may be anywhere.
func kindMates(s *Snapshot, p *Parsed, seen map[int]bool, room int) []*Element {
	ks := kindShapes[p.Kind]
	if room <= 0 || ks == 0 && p.Kind != "price" && p.Kind != "count" && p.Kind != "figure" {
		return nil
	}
	ps := prepare(s)
	var out []*Element
	for i := range ps {
		e := ps[i].el
		if seen[i] || !e.Visible || e.Interactive || len(e.Text) > 40 {
			continue
		}
		fits := kindFits(&ps[i], p) || (p.Kind == "count" || p.Kind == "figure") && hasDigit(e.Text)
		if !fits {
			continue
		}
		seen[i] = true
		out = append(out, e)
		if len(out) == room {
			break
		}
	}
	return out
}

// llmCandidates picks the k elements the model sees: the heuristic's best eligible candidates
// (5/8 of k), what shares a row or card with the best of them (itemMates), values of the kind
// asked for (kindMates), the rest of the eligible candidates; then, while there is room,
// visible elements fit for the intent that share any word with the description (a vague
// description scores nothing in the heuristic), then any other visible elements fit for it.
// The shares were set on the tuning pages (held-out 81.6 -> 83.5 -> 86.0 % with the scripted
// model as item and kind mates were added).
func llmCandidates(s *Snapshot, p *Parsed, intent Intent, sc []scored, k int) []*Element {
	seen := map[int]bool{}
	var out []*Element
	take := func(limit int) {
		for i := range sc {
			if len(out) >= limit {
				return
			}
			if !sc[i].eligible {
				continue
			}
			id := sc[i].Element.ID
			if id >= 0 && id < len(s.Elements) && !seen[id] {
				seen[id] = true
				out = append(out, &s.Elements[id])
			}
		}
	}
	// The best candidates, then what shares a row or card with the very best (the Accept
	// button of the friend request whose text matched), then the rest of the candidates.
	take(k * 5 / 8)
	out = append(out, itemMates(s, intent, out, seen, min(8, len(out)), k-len(out))...)
	out = append(out, kindMates(s, p, seen, min(8, k-len(out)))...)
	take(k)
	if len(out) == k {
		return out
	}
	// Relaxed: any description word (role words and context included) in any field.
	var qtoks []string
	for _, t := range append(append(append(append([]string{}, p.Quoted...), p.Words...), p.RoleWords...), p.Context...) {
		qtoks = append(qtoks, tokens(normalize(t))...)
	}
	type near struct {
		i int
		s float64
	}
	var ns []near
	ps := prepare(s)
	for i := range ps {
		e := ps[i].el
		if seen[i] || !e.Visible || !fitFor(e, intent) {
			continue
		}
		best := looseScore(&ps[i], qtoks, p.Roles)
		if best > 0 {
			ns = append(ns, near{i, best})
		}
	}
	sort.SliceStable(ns, func(a, b int) bool { return ns[a].s > ns[b].s })
	for _, n := range ns {
		if len(out) == k {
			break
		}
		seen[n.i] = true
		out = append(out, &s.Elements[n.i])
	}
	// A description that shares no word with the page ("the button that makes text fat" for a
	// "B" button labelled Bold) still deserves a choice: the rest, in document order, named ones
	// first.
	for pass := 0; pass < 2 && len(out) < k; pass++ {
		for i := range s.Elements {
			if len(out) == k {
				break
			}
			e := &s.Elements[i]
			if seen[i] || !e.Visible || !fitFor(e, intent) || (pass == 0) == (e.Name == "") {
				continue
			}
			seen[i] = true
			out = append(out, e)
		}
	}
	return out
}

// fitFor reports whether e can serve the intent at all: typing needs a field, clicking an
// enabled element, reading any text.
func fitFor(e *Element, intent Intent) bool {
	switch intent {
	case IntentType:
		return e.Enabled && (e.Editable || e.Role == "combobox" || e.Role == "listbox")
	case IntentClick:
		return e.Enabled && (e.Interactive || e.Role == "label")
	case IntentRead:
		return e.Name != "" || e.Text != "" || e.Value != ""
	}
	return e.Interactive || e.Name != "" || e.Text != ""
}

// candidateLine is one candidate for the prompt: 12 button "Save changes" text="…" @dialog Edit.
func candidateLine(e *Element) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d %s %q", e.ID, e.Role, clip(e.Name, 60))
	if t := strings.TrimSpace(e.Text); t != "" && t != e.Name && !strings.HasPrefix(e.Name, clip(t, 20)) {
		fmt.Fprintf(&b, " text=%q", clip(t, 40))
	}
	if e.Placeholder != "" && e.Placeholder != e.Name {
		fmt.Fprintf(&b, " placeholder=%q", clip(e.Placeholder, 30))
	}
	if e.Value != "" && e.Value != e.Name {
		fmt.Fprintf(&b, " value=%q", clip(e.Value, 30))
	}
	if e.Href != "" && e.Role == "link" {
		if u, err := url.Parse(e.Href); err == nil && u.Path != "" && u.Path != "/" {
			fmt.Fprintf(&b, " href=%s", clip(u.Path, 30))
		}
	}
	if e.Name == "" && e.IDAttr != "" {
		fmt.Fprintf(&b, " id=%s", clip(e.IDAttr, 24))
	}
	if e.Options != "" {
		// What a select can be set to, which its name and value do not say.
		fmt.Fprintf(&b, " options=%q", clip(strings.ReplaceAll(e.Options, "\n", " | "), 60))
	}
	if e.Checked {
		b.WriteString(" checked")
	}
	if e.Current != "" {
		b.WriteString(" current=" + e.Current) // aria-current: the current page, step, date...
	}
	if e.Color != "" {
		b.WriteString(" color=" + e.Color) // "the red button": what the page shows, not says
	}
	if !e.Visible {
		b.WriteString(" hidden")
	}
	if !e.Enabled {
		b.WriteString(" disabled")
	}
	if e.Covered {
		b.WriteString(" behind-dialog")
	}
	if e.Context != "" {
		b.WriteString(" @" + clip(e.Context, 50))
	}
	return b.String()
}

// clip cuts s to n runes, marking the cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// buildPrompt writes the user message, dropping the weakest candidates until the whole prompt
// fits promptBudget. It returns the message and the candidates it kept.
func buildPrompt(s *Snapshot, q Query, intent Intent, cands []*Element) (string, []*Element) {
	head := fmt.Sprintf("Page: %s (%s)\nThe user wants to %s: %s\nCandidates:\n",
		clip(s.Title, 60), clip(siteOf(s.URL), 60), intentVerb(intent), clip(q.Description, 200))
	if q.Match != "" {
		head = strings.Replace(head, "\nCandidates:", "\nIf several fit equally, take match "+strconv.Quote(q.Match)+" in page order.\nCandidates:", 1)
	}
	lines := make([]string, len(cands))
	size := len(llmSystem) + len(head)
	for i, e := range cands {
		lines[i] = candidateLine(e)
		size += len(lines[i]) + 1
	}
	for len(lines) > 1 && size/4 > promptBudget {
		size -= len(lines[len(lines)-1]) + 1
		lines = lines[:len(lines)-1]
		cands = cands[:len(cands)-1]
	}
	return head + strings.Join(lines, "\n"), cands
}

func intentVerb(i Intent) string {
	switch i {
	case IntentClick:
		return "click"
	case IntentType:
		return "type into"
	case IntentRead:
		return "read"
	}
	return "find"
}

// errNoAnswer is a model answer that names no element ({"id": null}).
var errNoAnswer = errs.E(errs.TargetNotFound, "the model found no candidate that fits")

// parseAnswer reads the model's choice: {"id": 12}, {"id": "12"}, a fenced ```json block, or a
// bare number. {"id": null} is errNoAnswer; anything else unreadable is an llm_failed error.
func parseAnswer(text string) (int, error) {
	t := strings.TrimSpace(text)
	if strings.HasPrefix(t, "```") {
		t = strings.TrimPrefix(t, "```")
		if i := strings.IndexByte(t, '\n'); i >= 0 {
			t = t[i+1:]
		}
		t = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(t), "```"))
	}
	if n, err := strconv.Atoi(strings.TrimPrefix(t, "#")); err == nil {
		return n, nil
	}
	i, j := strings.IndexByte(t, '{'), strings.LastIndexByte(t, '}')
	if i < 0 || j < i {
		return 0, errs.E(llm.CodeFailed, "the model's answer is not JSON: %q", clip(text, 80))
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(t[i:j+1]), &m); err != nil {
		return 0, errs.E(llm.CodeFailed, "the model's answer is not valid JSON: %q", clip(text, 80))
	}
	v, ok := m["id"]
	if !ok {
		v, ok = m["element_id"]
	}
	if !ok {
		return 0, errs.E(llm.CodeFailed, "the model's answer has no \"id\": %q", clip(text, 80))
	}
	switch v := v.(type) {
	case nil:
		return 0, errNoAnswer
	case float64:
		if v != float64(int(v)) {
			return 0, errs.E(llm.CodeFailed, "the model answered a fractional id %v", v)
		}
		return int(v), nil
	case string:
		if n, err := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(v), "#")); err == nil {
			return n, nil
		}
		if strings.EqualFold(v, "null") || strings.EqualFold(v, "none") || v == "" {
			return 0, errNoAnswer
		}
	}
	return 0, errs.E(llm.CodeFailed, "the model's id is not a number: %q", clip(text, 80))
}

// rankLLM asks the model to choose among the heuristic's candidates. The resolution's Tokens
// are set even when it fails.
func (g *Engine) rankLLM(ctx context.Context, s *Snapshot, q Query, p *Parsed, sc []scored) (Resolution, error) {
	intent := intentOf(q, p)
	cands := llmCandidates(s, p, intent, sc, g.maxCandidates())
	if len(cands) == 0 {
		return Resolution{}, errs.E(errs.TargetNotFound, "no candidate element for the model to choose from")
	}
	user, cands := buildPrompt(s, q, intent, cands)
	ctx, cancel := context.WithTimeout(ctx, g.llmTimeout())
	defer cancel()
	zero := float32(0)
	rep, err := g.LLM.Chat(ctx, llm.Request{
		System:      llmSystem,
		Messages:    []llm.Message{{Role: "user", Content: user}},
		JSON:        true,
		MaxTokens:   24,
		Temperature: &zero,
	})
	res := Resolution{By: "llm", Model: rep.Model, Tokens: Tokens{Prompt: rep.PromptTokens, Completion: rep.CompletionTokens, Calls: rep.Attempts}}
	if res.Tokens.Prompt == 0 && err == nil {
		res.Tokens.Prompt = (len(llmSystem) + len(user)) / 4
	}
	if err != nil {
		return res, err
	}
	id, err := parseAnswer(rep.Text)
	if err != nil {
		return res, err
	}
	for _, e := range cands {
		if e.ID == id {
			res.Element = *e
			res.Why = fmt.Sprintf("chosen by %s among %d candidates", rep.Model, len(cands))
			res.Confidence = 0.75
			if len(sc) > 0 && sc[0].Element.ID == id {
				res.Confidence = 0.85 // the model agrees with the heuristic's best
			}
			res.RunnersUp = runnersUp(sc, id)
			return res, nil
		}
	}
	return res, errs.E(llm.CodeFailed, "the model answered id %d, which is not one of the %d candidates", id, len(cands))
}

// siteOf is a URL's host and path, for prompts and messages.
func siteOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	return u.Host + u.Path
}
