package nodes

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/go-rod/rod"
	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
)

// openTab navigates the run's tab (a new one in the same isolated context after the first) and
// verifies that the navigation committed with an HTTP status below 400.
type openTab struct {
	url    string
	page   *rod.Page
	status int
	final  string
	ready  string
	// sameTab navigates the run's current tab instead of opening one (the general node's
	// navigate: the model goes on in the page it was looking at).
	sameTab bool
}

func init() {
	scripts.Register(scripts.Spec{
		Kind:     "open tab",
		Aliases:  []string{"open_tab", "navigate", "goto"},
		Summary:  "Open a URL in a new browser tab of the run (the first one reuses the run's blank tab).",
		Category: "browser",
		Browser:  true,
		Timeout:  45 * time.Second,
		Params: []scripts.Param{
			{Name: "target", Type: scripts.String, Required: true, Template: true,
				Description: "the URL to open (http or https; a bare host gets https://)", Example: "https://example.com/login"},
		},
		Examples: []map[string]any{{"type": "open tab", "target": "https://example.com"}},
		Build: func(p *scripts.Params) (scripts.Node, error) {
			raw, err := p.String("target")
			if err != nil {
				return nil, err
			}
			u, err := normalizeURL(raw)
			if err != nil {
				return nil, err
			}
			return &openTab{url: u}, nil
		},
	})
}

// normalizeURL accepts http(s) URLs and bare hosts. Other schemes (file:, chrome:, javascript:)
// are refused: on a server they would read local files or run code.
func normalizeURL(raw string) (string, error) {
	s := strings.TrimSpace(raw)
	if s == "" {
		return "", errInvalid("target: a URL is required")
	}
	if s == "about:blank" {
		return s, nil
	}
	if !strings.Contains(s, "://") {
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return "", errInvalid("target: %q is not a URL", raw)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", errInvalid("target: only http and https URLs can be opened, not %s:", u.Scheme)
	}
	if u.Host == "" {
		return "", errInvalid("target: %q has no host", raw)
	}
	return u.String(), nil
}

func (n *openTab) Run(ctx context.Context, env *scripts.Env) error {
	// The early, clear refusal; the browser's own connections (redirects, subresources) go
	// through the server's outbound proxy, which applies the same guard (docs/security.md).
	if u, err := url.Parse(n.url); err == nil {
		if err := env.Services().Guard().CheckURL(ctx, u); err != nil {
			return errs.E(errs.AddressBlocked, "open tab %s was refused: %w", n.url, err)
		}
	}
	tab := env.NewTab
	if n.sameTab {
		tab = env.Page
	}
	page, err := tab(ctx)
	if err != nil {
		return err
	}
	n.page = page
	if err := page.Navigate(n.url); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return errs.E(errs.NavigationFailed, "could not open %s: %v", n.url, err)
	}
	// Wait for the load event, but a page whose load never ends (long polling, a slow ad) is
	// still usable once its DOM is parsed: give load a bounded share of the node's time.
	loadCtx, cancel := context.WithTimeout(ctx, 15*time.Second)
	_ = page.Context(loadCtx).WaitLoad()
	cancel()
	res, err := page.Eval(`() => {
		const nav = performance.getEntriesByType('navigation')[0];
		return {status: nav ? (nav.responseStatus || 0) : 0, url: location.href, ready: document.readyState};
	}`)
	if err != nil {
		return errs.E(errs.NavigationFailed, "could not read the page at %s: %v", n.url, err)
	}
	n.status = res.Value.Get("status").Int()
	n.final = res.Value.Get("url").String()
	n.ready = res.Value.Get("ready").String()
	env.SetDetail("url", n.final)
	env.SetDetail("status", n.status)
	return nil
}

func (n *openTab) Verify(ctx context.Context, env *scripts.Env) ([]scripts.Check, error) {
	committed := n.final != "" && n.final != "about:blank" || n.url == "about:blank"
	statusOK := n.status == 0 || n.status < 400 // 0: not an HTTP navigation (about:, data:)
	checks := []scripts.Check{
		{Name: "navigation_committed", Passed: committed, Detail: "document " + n.ready + " at " + n.final},
		{Name: "http_status", Passed: statusOK, Detail: fmt.Sprintf("HTTP %d", n.status)},
		{Name: "url", Passed: committed, Detail: n.final},
	}
	if !statusOK {
		return checks, errs.E(errs.NavigationFailed, "%s answered HTTP %d", n.url, n.status)
	}
	return checks, nil
}

var _ scripts.Verifier = (*openTab)(nil)
