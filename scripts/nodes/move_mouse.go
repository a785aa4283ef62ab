package nodes

import (
	"context"
	"fmt"
	"time"

	"github.com/rodeo-run/rodeo/desktop"
	"github.com/rodeo-run/rodeo/scripts"
)

// moveMouse puts the desktop pointer at x/y and verifies that the X server reports it there
// (a point off the screen is clamped to its edge, which the check shows).
type moveMouse struct {
	to, got desktop.Point
}

func init() {
	scripts.Register(scripts.Spec{
		Kind:     "move_mouse",
		Aliases:  []string{"Move Mouse"},
		Summary:  "Move the desktop pointer to x/y (pixels from the screen's top left).",
		Category: "desktop",
		Desktop:  true,
		Timeout:  10 * time.Second,
		Params: []scripts.Param{
			withRequired(paramX), withRequired(paramY),
		},
		Examples: []map[string]any{{"type": "move_mouse", "x": 640, "y": 400}},
		Build: func(p *scripts.Params) (scripts.Node, error) {
			pt, _, err := pointParam(p, "x", "y")
			if err != nil {
				return nil, err
			}
			return &moveMouse{to: pt}, nil
		},
	})
}

// withRequired returns p marked required.
func withRequired(p scripts.Param) scripts.Param {
	p.Required = true
	return p
}

func (n *moveMouse) Run(ctx context.Context, env *scripts.Env) error {
	s, err := desktopSession(ctx, env)
	if err != nil {
		return err
	}
	if err := s.Move(ctx, n.to); err != nil {
		return err
	}
	n.got, err = s.Pointer(ctx)
	env.SetDetail("pointer", map[string]int{"x": n.got.X, "y": n.got.Y})
	return err
}

func (n *moveMouse) Verify(ctx context.Context, env *scripts.Env) ([]scripts.Check, error) {
	return []scripts.Check{{Name: "pointer_at", Passed: n.got == n.to,
		Detail: fmt.Sprintf("pointer at %d,%d (asked %d,%d)", n.got.X, n.got.Y, n.to.X, n.to.Y)}}, nil
}

var _ scripts.Verifier = (*moveMouse)(nil)
