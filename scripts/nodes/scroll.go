package nodes

import (
	"context"
	"fmt"
	"time"

	"github.com/rodeo-run/rodeo/scripts"
)

// scroll scrolls the page vertically by a distance in CSS pixels and verifies that it moved;
// a page already at its end in that direction passes with a check saying so, since scrolling to
// load more content is commonly repeated until the end.
type scroll struct {
	distance      float64
	before, after float64
	max           float64
}

func init() {
	scripts.Register(scripts.Spec{
		Kind:        "scroll",
		Summary:     "Scroll the page by a distance in pixels (positive scrolls down, negative up).",
		Category:    "browser",
		Browser:     true,
		Uses:        desktopWhenBrowserModeFalse,
		DesktopWhen: "browser_mode is false",
		Timeout:     15 * time.Second,
		Params: []scripts.Param{
			{Name: "distance", Type: scripts.Number, Required: true, Min: scripts.F(-1e6), Max: scripts.F(1e6),
				Description: "pixels to scroll; positive scrolls down, negative up", Example: 600},
			{Name: "browser_mode", Type: scripts.Bool, Default: true,
				Description: "true: scroll the run's page; false: turn the wheel on the X display where the pointer is (one notch per 100 px, at least one)", Example: false},
		},
		Examples: []map[string]any{{"type": "scroll", "distance": 600}},
		Build: func(p *scripts.Params) (scripts.Node, error) {
			d, err := p.Number("distance")
			if err != nil {
				return nil, err
			}
			inBrowser, err := p.Bool("browser_mode")
			if err != nil {
				return nil, err
			}
			if !inBrowser {
				return &desktopScroll{distance: d}, nil
			}
			return &scroll{distance: d}, nil
		},
	})
}

func (n *scroll) Run(ctx context.Context, env *scripts.Env) error {
	page, err := env.Page(ctx)
	if err != nil {
		return err
	}
	res, err := page.Eval(`async (d) => {
		const el = document.scrollingElement || document.documentElement;
		const before = el.scrollTop;
		window.scrollBy({top: d, left: 0, behavior: 'instant'});
		await new Promise(r => requestAnimationFrame(() => r()));
		return {before, after: el.scrollTop, max: el.scrollHeight - el.clientHeight};
	}`, n.distance)
	if err != nil {
		return fmt.Errorf("scroll: %w", err)
	}
	n.before = res.Value.Get("before").Num()
	n.after = res.Value.Get("after").Num()
	n.max = res.Value.Get("max").Num()
	env.SetDetail("scroll_top", n.after)
	return nil
}

func (n *scroll) Verify(ctx context.Context, env *scripts.Env) ([]scripts.Check, error) {
	moved := n.after != n.before
	atEnd := (n.distance > 0 && n.before >= n.max-1) || (n.distance < 0 && n.before <= 0)
	if n.distance == 0 {
		return []scripts.Check{{Name: "scrolled", Passed: true, Detail: "distance 0: nothing to do"}}, nil
	}
	if !moved && atEnd {
		return []scripts.Check{{Name: "at_end", Passed: true, Detail: fmt.Sprintf("already at the %s of the page", map[bool]string{true: "bottom", false: "top"}[n.distance > 0])}}, nil
	}
	return []scripts.Check{{Name: "scrolled", Passed: moved, Detail: fmt.Sprintf("scrollTop %.0f -> %.0f (of %.0f)", n.before, n.after, n.max)}}, nil
}

var _ scripts.Verifier = (*scroll)(nil)
