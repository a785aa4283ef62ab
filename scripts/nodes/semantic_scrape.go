package nodes

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/semantic"
)

// semanticScrape reads what an English description names into a variable: one value ("the order
// total"), a list of strings ("all product names") or a table as objects keyed by column header
// ("the pricing table"). Heuristics read the page; a configured model reads what they cannot.
// An empty result fails the check and is retried (content that loads late gets its chance).
type semanticScrape struct {
	description string
	variable    string
	value       string // what was read, as text (JSON for a list or table), for the check
	count       int    // values read: 1 for a value, the items of a list, the rows of a table
}

func init() {
	scripts.Register(scripts.Spec{
		Kind:     "semanticScrape",
		Aliases:  []string{"semantic_scrape", "magic_scraper"},
		Summary:  "Scrape data an English description names into a variable: a value (\"the order total\"), a list (\"all product names\") or a table (\"the pricing table\", rows keyed by header).",
		Category: "browser",
		Browser:  true,
		Attempts: 3,
		Timeout:  30 * time.Second,
		Params: []scripts.Param{
			{Name: "target", Type: scripts.String, Required: true, Template: true,
				Description: "the data to scrape, in English: one value, \"all …\" for a list, \"the … table\" for a table", Example: "the price of the first result"},
			{Name: "data", Type: scripts.String, Default: "scraped",
				Description: "the variable that receives the text (a field's value, a progress bar's or slider's value as it is shown or announced, a list of texts, or a list of row objects for a table)", Example: "price"},
		},
		Examples: []map[string]any{{"type": "semanticScrape", "target": "the confirmation message", "data": "msg"}},
		Build: func(p *scripts.Params) (scripts.Node, error) {
			desc, err := p.String("target")
			if err != nil {
				return nil, err
			}
			v, err := p.String("data")
			if err != nil {
				return nil, err
			}
			if strings.TrimSpace(v) == "" {
				return nil, errInvalid("data: the variable name must not be empty")
			}
			return &semanticScrape{description: desc, variable: strings.TrimSpace(v)}, nil
		},
	})
}

func (n *semanticScrape) Run(ctx context.Context, env *scripts.Env) error {
	n.value, n.count = "", 0
	shape := semantic.ShapeOf(n.description)
	env.SetDetail("shape", shape.String())
	if shape == semantic.ShapeValue {
		return n.runValue(ctx, env)
	}
	page, err := env.Page(ctx)
	if err != nil {
		return err
	}
	snap, err := semantic.Snap(ctx, page)
	if err != nil {
		return err
	}
	var out any
	by := "heuristic"
	switch shape {
	case semantic.ShapeList:
		var items []string
		if items, err = semantic.List(snap, n.description); err == nil {
			out, n.count = toAny(items), len(items)
		}
	default:
		var rows []map[string]string
		if rows, err = semantic.Table(ctx, page, snap, n.description); err == nil {
			list := make([]any, len(rows))
			for i, r := range rows {
				m := map[string]any{}
				for k, v := range r {
					m[k] = v
				}
				list[i] = m
			}
			out, n.count = list, len(rows)
		}
	}
	if err != nil {
		// What the heuristics cannot read, a configured model may.
		eng := engineFor(env)
		if eng.LLM == nil || ctx.Err() != nil {
			return err
		}
		v, tok, lerr := eng.Extract(ctx, snap, n.description, shape)
		if tok.Calls > 0 {
			env.SetDetail("llm_tokens", map[string]any{"prompt": tok.Prompt, "completion": tok.Completion, "calls": tok.Calls})
		}
		if lerr != nil {
			return err
		}
		out, by = v, "llm"
		if l, ok := v.([]any); ok {
			n.count = len(l)
		} else if v != nil {
			n.count = 1
		}
	}
	env.Vars.Set(n.variable, out)
	env.SetDetail("variable", n.variable)
	env.SetDetail("by", by)
	env.SetDetail("count", n.count)
	b, _ := json.Marshal(out)
	n.value = truncateText(string(b), 200)
	env.SetDetail("value", n.value)
	return nil
}

func toAny(xs []string) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

// runValue reads one element's text: a field's value, or the text (the value part of a
// "Total: $12" line).
func (n *semanticScrape) runValue(ctx context.Context, env *scripts.Env) error {
	t, err := resolveTarget(ctx, env, n.description, semantic.IntentRead, "")
	if err != nil {
		return err
	}
	el := t.el
	if v := semantic.ValueChild(t.snap, t.res.Element.ID); v != t.res.Element.ID {
		if vel, err := t.snap.Handle(ctx, t.page, v); err == nil {
			el = vel
		}
	} else if rv, ok := t.snap.Elements[v].RangeValue(); ok {
		// A progress bar or slider: its value is in its state, read with the snapshot just
		// taken, not in its text.
		n.setValue(env, rv)
		return nil
	}
	res, err := el.Eval(`function () {
		if (this.tagName === 'INPUT' || this.tagName === 'TEXTAREA' || this.tagName === 'SELECT') return this.type === 'password' ? '' : String(this.value);
		return (this.innerText || this.textContent || this.getAttribute('alt') || this.getAttribute('aria-label') || '');
	}`)
	if err != nil {
		return errs.E(errs.TargetNotFound, "the element for %q went away before it could be read: %v", n.description, err)
	}
	n.setValue(env, strings.TrimSpace(res.Value.String()))
	return nil
}

// setValue stores what was read in the agent's variable and the step's detail.
func (n *semanticScrape) setValue(env *scripts.Env, v string) {
	n.value = v
	if n.value != "" {
		n.count = 1
	}
	env.Vars.Set(n.variable, n.value)
	env.SetDetail("variable", n.variable)
	env.SetDetail("value", truncateText(n.value, 200))
}

func (n *semanticScrape) Verify(ctx context.Context, env *scripts.Env) ([]scripts.Check, error) {
	return []scripts.Check{{Name: "non_empty", Passed: n.count > 0, Detail: truncateText(n.value, 80)}}, nil
}

var _ scripts.Verifier = (*semanticScrape)(nil)
