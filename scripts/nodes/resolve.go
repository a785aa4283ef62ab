package nodes

import (
	"context"
	"strings"

	"github.com/rodeo-run/rodeo/errs"

	"github.com/go-rod/rod"
	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/semantic"
)

// target is an English description resolved on the run's current page.
type target struct {
	el   *rod.Element
	page *rod.Page
	res  semantic.Resolution
	// snap, eng and q are what resolved it, for a retry on a runner-up and for forgetting a
	// cached resolution that did not work.
	snap *semantic.Snapshot
	eng  *semantic.Engine
	q    semantic.Query
}

// engineFor is the run's resolver: the resolution cache in the store and the configured model,
// when there are, around the heuristic ranker.
func engineFor(env *scripts.Env) *semantic.Engine {
	sv := env.Services()
	g := &semantic.Engine{LLM: sv.LLM, LLMBelow: sv.LLMBelow, Account: env.Account}
	if sv.Store != nil {
		g.Cache = semantic.NewCache(sv.Store)
	}
	return g
}

// beforeActionKey keeps, for the run's later readings, the page as its last action found it.
const beforeActionKey = "semantic.before_action"

// resolveTarget snapshots the page (one round trip), resolves the description (cache, then
// heuristic, then the model when the heuristic is unsure) and fetches the live element. It
// records what was resolved, how, how sure and at what cost in the step detail.
func resolveTarget(ctx context.Context, env *scripts.Env, description string, intent semantic.Intent, match string) (*target, error) {
	page, err := env.Page(ctx)
	if err != nil {
		return nil, err
	}
	snap, err := semantic.Snap(ctx, page)
	if err != nil {
		return nil, err
	}
	eng := engineFor(env)
	q := semantic.Query{Description: description, Intent: intent, Match: match}
	if intent == semantic.IntentRead {
		// What the run's last action changed is what "the confirmation" reads.
		q.Before, _ = env.Kept(beforeActionKey).(*semantic.Snapshot)
	} else {
		env.Keep(beforeActionKey, snap) // this step acts on the page as it is now
	}
	res, err := eng.Resolve(ctx, snap, q)
	if res.Tokens.Calls > 0 {
		env.SetDetail("llm_tokens", tokensDetail(res))
	}
	if err != nil {
		return nil, err
	}
	env.SetDetail("resolved", resolvedDetail(res))
	if min := semantic.MinConfidence(); res.By == "heuristic" && res.Confidence < min {
		// Acting on an uncertain guess clicks the wrong thing or scrapes the wrong text without a
		// trace; failing (and retrying, for content that is still loading) is the honest answer.
		// The confidence is calibrated: the share of such answers that are right.
		return nil, errs.E(errs.TargetNotFound, "nothing on %s surely matches %q: the best guess, %s %q, is right about %.0f %% of the time, below the %.0f %% an answer needs (quote the element's label, say where it is, or configure a model)",
			snap.URL, description, res.Element.Role, truncateText(firstNonEmpty(res.Element.Name, res.Element.Text), 60), 100*res.Confidence, 100*min)
	}
	el, err := snap.Handle(ctx, page, res.Element.ID)
	if err != nil {
		return nil, err
	}
	return &target{el: el, page: page, res: res, snap: snap, eng: eng, q: q}, nil
}

func tokensDetail(res semantic.Resolution) map[string]any {
	return map[string]any{"prompt": res.Tokens.Prompt, "completion": res.Tokens.Completion, "calls": res.Tokens.Calls, "model": res.Model}
}

func resolvedDetail(res semantic.Resolution) map[string]any {
	e := res.Element
	d := map[string]any{
		"selector":   e.Selector,
		"text":       firstNonEmpty(e.Name, truncateText(e.Text, 120)),
		"role":       e.Role,
		"confidence": round2(res.Confidence),
		"by":         res.By,
		"why":        res.Why,
	}
	if res.Tokens.Calls > 0 {
		d["tokens"] = tokensDetail(res)
	}
	if res.Note != "" {
		d["note"] = res.Note
	}
	if len(res.RunnersUp) > 0 {
		var ups []map[string]any
		for _, c := range res.RunnersUp {
			ups = append(ups, map[string]any{"selector": c.Element.Selector, "text": firstNonEmpty(c.Element.Name, truncateText(c.Element.Text, 80)), "score": round2(c.Score)})
		}
		d["runners_up"] = ups
	}
	return d
}

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}

func truncateText(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

func round2(f float64) float64 { return float64(int(f*100+0.5)) / 100 }
