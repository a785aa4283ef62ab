package semantic

import (
	"context"
	"time"
	"unicode/utf8"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/llm"
)

// Engine is the resolver nodes use: the resolution cache first, then the heuristic ranker, then
// the language model when the heuristic is unsure. Every part but the ranker is optional: with
// neither a cache nor a model it is Resolve. The zero value is ready to use.
type Engine struct {
	// LLM is the configured model. Optional. Default: nil (the heuristic decides alone).
	LLM *llm.Client
	// Cache remembers resolutions per account, site, page shape and description. Optional.
	// Default: nil (no cache).
	Cache *Cache
	// Account scopes cache entries.
	Account string
	// LLMBelow is the heuristic confidence below which the model is asked. Optional.
	// Default: MinConfidence, so every answer that would not be acted on goes to the model.
	LLMBelow float64
	// LLMTimeout bounds the model's part of one resolution, retries included. Optional.
	// Default: 15s.
	LLMTimeout time.Duration
	// MaxCandidates is how many candidates the model sees at most. Optional. Default: 60
	// (defaultMaxCandidates).
	MaxCandidates int
}

// unexplainedWeight is how much of the heuristic's confidence an answer loses, for the model's
// gate only, when none of the description's words is around it (see unexplained). On the
// tuning pages, at the same number of model calls (457), it sends the model 128 instead of 123
// of the heuristic's 173 wrong answers (GROUNDING_CONF=file with GROUNDING_TUNING_ONLY=1
// GROUNDING_FAST=1 go test -run 'TestGrounding$' ./semantic/, ranking the rows by
// confidence x (1 - 0.5 x unexplained share)).
const unexplainedWeight = 0.5

func (g *Engine) llmBelow() float64 {
	if g.LLMBelow > 0 {
		return g.LLMBelow
	}
	return MinConfidence()
}

func (g *Engine) llmTimeout() time.Duration {
	if g.LLMTimeout > 0 {
		return g.LLMTimeout
	}
	return 15 * time.Second
}

func (g *Engine) maxCandidates() int {
	if g.MaxCandidates > 0 {
		return g.MaxCandidates
	}
	return defaultMaxCandidates
}

// gateConfidence is how sure the heuristic's answer is for deciding whether to ask the model:
// its confidence, less up to unexplainedWeight for the description's words nothing around the
// answer carries, and halved when a click or a keystroke would land on an element that does not
// take it (the words named a label, and the control is elsewhere), or on the control the
// heuristic took that label to name, or when what is read only
// echoes the description, is a sentence where a value was asked for, or names an action.
func gateConfidence(s *Snapshot, q Query, p *Parsed, res Resolution) float64 {
	u := res.signal.unexplained
	if !res.signal.measured { // a resolution calibrate did not see
		u = unexplained(s, p, res.Element.ID)
	}
	c := res.Confidence * (1 - unexplainedWeight*u)
	switch e := &res.Element; intentOf(q, p) {
	case IntentClick:
		if !e.Interactive && !e.Editable || res.byLabel {
			c /= 2
		}
	case IntentType:
		if !e.Editable && e.Role != "combobox" || res.byLabel {
			c /= 2
		}
	case IntentRead:
		if echoOf(e, q.Description) {
			c /= 2
		}
		// A sentence where a value was asked for, or a control's label ("Add DNS record" for "the
		// number of DNS records"): most likely not the value.
		if p.Kind != "" && utf8.RuneCountInString(firstOf(e.Text, e.Name)) > sentenceRunes ||
			namesAction(normalize(firstOf(e.Name, e.Text)), tokens(normalize(q.Description)), true) {
			c /= 2
		}
	}
	return c
}

// sentenceRunes is how long a text runs before it is a sentence rather than a value: a value
// asked for ("how much does one bag cost") answered by a sentence that holds one ("Bags are
// cheaper now than at the airport (€60,00).") is most likely the wrong one.
const sentenceRunes = 40

// echoOf reports whether an element read for a description says only some of its words: "Status"
// for "the status of the dishwasher request", "Non-refundable" for "the non-refundable price":
// most likely a label, and the value is beside it.
func echoOf(e *Element, description string) bool {
	toks, words := tokens(normalize(firstOf(e.Name, e.Text))), tokens(normalize(description))
	return len(toks) > 0 && allIn(toks, words) && !allIn(words, toks) // fewer words than asked: "Ben Okoro" read as "Ben Okoro" is no echo
}

// Resolve finds the element of s that q describes: a cached resolution that still holds on s,
// else the heuristic's, else (when the heuristic is unsure or finds nothing and a model is
// configured) the model's choice among the heuristic's candidates. A model that fails, times
// out or answers nonsense never fails a resolution the heuristic could make: the heuristic's
// answer stands, with Note saying what happened. Confident resolutions are cached.
func (g *Engine) Resolve(ctx context.Context, s *Snapshot, q Query) (Resolution, error) {
	var key string
	knownNone := false
	if g.Cache != nil {
		key = cacheKey(s, q)
		res, ok, none := g.Cache.lookup(g.Account, key, s, q)
		if ok {
			return res, nil
		}
		knownNone = none
	}
	p := Parse(q.Description)
	res, herr := Resolve(s, q)
	if herr == nil && (g.LLM == nil || res.Confidence >= g.llmBelow() && gateConfidence(s, q, &p, res) >= g.llmBelow()) {
		g.remember(key, s, q, res)
		return res, nil
	}
	if g.LLM == nil || knownNone || (herr != nil && q.Match != "" && !validMatch(q.Match)) {
		return res, herr
	}
	sc := rankScored(s, q, &p)
	if errs.Is(herr, errs.AmbiguousTarget) && !saysMore(s, sc, &p) {
		// Look-alikes the description does not tell apart ("Delete" with five Delete
		// buttons) are the user's to settle, with match or a sharper description: a model
		// would only pick one of equals at random. When the description says more than the
		// look-alikes do ("the Book button for the indoor cycling class"), the words are
		// somewhere around one of them, and the model may see where.
		return res, herr
	}
	lres, lerr := g.rankLLM(ctx, s, q, &p, sc)
	if lerr != nil {
		note := "model: " + lerr.Error()
		if herr == nil {
			res.Note, res.Tokens, res.Model = note, lres.Tokens, lres.Model
			g.remember(key, s, q, res)
			return res, nil
		}
		if errs.Is(lerr, errs.TargetNotFound) {
			if g.Cache != nil && key != "" {
				g.Cache.storeNone(g.Account, key)
			}
			return Resolution{Tokens: lres.Tokens}, herr // the model agrees that nothing fits
		}
		return Resolution{Tokens: lres.Tokens}, errs.E(errs.Code(herr), "%s (%s)", herr.Error(), note)
	}
	g.remember(key, s, q, lres)
	return lres, nil
}

// Forget drops the cached resolution of q on pages shaped like s, e.g. after a click on it
// changed nothing.
func (g *Engine) Forget(s *Snapshot, q Query) {
	if g.Cache != nil {
		g.Cache.forget(g.Account, cacheKey(s, q))
	}
}

func (g *Engine) remember(key string, s *Snapshot, q Query, res Resolution) {
	if g.Cache == nil || key == "" || res.By == "cache" {
		return
	}
	// A model's answer, and the heuristic's answer the model was asked about, are kept whatever
	// their confidence: the next run of the same agent must not ask again.
	// The heuristic's own answers only when they are sure enough to act on: a cached answer is
	// acted on without the gate.
	if res.By == "llm" || res.Note != "" || res.Confidence >= MinConfidence() {
		g.Cache.store(g.Account, key, s, q, res)
	}
}

func validMatch(m string) bool {
	_, ok := parseMatch(m)
	return ok
}

// Related reports whether elements a and b of s are the same element or one contains the
// other (a button and the label inside it are one target).
func (s *Snapshot) Related(a, b int) bool {
	if a == b {
		return true
	}
	if a < 0 || b < 0 || a >= len(s.Elements) || b >= len(s.Elements) {
		return false
	}
	return related(s, a, b)
}

// saysMore reports whether the tied best candidates are unlike (another role or name), or the
// description has a word that some of them do not carry in their own text or context: something
// that may tell them apart. Only look-alikes the description says nothing more about are the
// user's to settle. The ties are Resolve's (tiedWith), over the eligible candidates sc puts first.
func saysMore(s *Snapshot, sc []scored, p *Parsed) bool {
	k := 0
	for k < len(sc) && sc[k].eligible {
		k++
	}
	if k == 0 {
		return false
	}
	ps := prepare(s)
	tied := append([]scored{sc[0]}, tiedWith(s, sc[:k])...)
	for _, c := range tied[1:] {
		if c.Element.Role != sc[0].Element.Role || ps[c.Element.ID].norm[0] != ps[sc[0].Element.ID].norm[0] {
			return true // unlike elements ("Pause length", "Pause instead"): what each is may settle it
		}
	}
	for _, w := range descWords(p) {
		if stopWords[w] {
			continue
		}
		for _, c := range tied {
			if pe := &ps[c.Element.ID]; !ownsAny(pe, []string{w}) && !contains(pe.toks[ctxField], w) {
				return true
			}
		}
	}
	return false
}
