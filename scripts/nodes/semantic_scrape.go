package nodes

import (
	"context"
	"strings"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/semantic"
)

// semanticScrape reads the text of the element an English description names into a variable.
// An empty result fails the check and is retried (content that loads late gets its chance).
type semanticScrape struct {
	description string
	variable    string
	value       string
}

func init() {
	scripts.Register(scripts.Spec{
		Kind:     "semanticScrape",
		Aliases:  []string{"semantic_scrape", "magic_scraper"},
		Summary:  "Scrape the text of the element an English description names into a variable.",
		Category: "browser",
		Browser:  true,
		Attempts: 3,
		Timeout:  30 * time.Second,
		Params: []scripts.Param{
			{Name: "target", Type: scripts.String, Required: true, Template: true,
				Description: "the data to scrape, in English", Example: "the price of the first result"},
			{Name: "data", Type: scripts.String, Default: "scraped",
				Description: "the variable that receives the text", Example: "price"},
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
	t, err := resolveTarget(ctx, env, n.description, semantic.IntentRead, "")
	if err != nil {
		return err
	}
	res, err := t.el.Eval(`function () {
		if (this.tagName === 'INPUT' || this.tagName === 'TEXTAREA' || this.tagName === 'SELECT') return this.type === 'password' ? '' : String(this.value);
		return (this.innerText || this.textContent || this.getAttribute('alt') || this.getAttribute('aria-label') || '');
	}`)
	if err != nil {
		return errs.E(errs.TargetNotFound, "the element for %q went away before it could be read: %v", n.description, err)
	}
	n.value = strings.TrimSpace(res.Value.String())
	env.Vars.Set(n.variable, n.value)
	env.SetDetail("variable", n.variable)
	env.SetDetail("value", truncateText(n.value, 200))
	return nil
}

func (n *semanticScrape) Verify(ctx context.Context, env *scripts.Env) ([]scripts.Check, error) {
	return []scripts.Check{{Name: "non_empty", Passed: n.value != "", Detail: truncateText(n.value, 80)}}, nil
}

var _ scripts.Verifier = (*semanticScrape)(nil)
