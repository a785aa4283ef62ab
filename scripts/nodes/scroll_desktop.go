package nodes

import (
	"context"
	"image"
	"math"

	"github.com/rodeo-run/rodeo/scripts"
)

// notchPixels is how far one wheel notch is taken to scroll: X has no pixel wheel, and 100 px
// is what Chromium and GTK scroll per notch by default.
const notchPixels = 100

// desktopScroll turns the mouse wheel where the pointer is and verifies that the screen around
// the pointer changed (the window under it scrolled).
type desktopScroll struct {
	distance float64
	change   screenChange
}

func (n *desktopScroll) notches() int {
	k := int(math.Ceil(math.Abs(n.distance) / notchPixels))
	if n.distance < 0 {
		return -k
	}
	return k
}

func (n *desktopScroll) Run(ctx context.Context, env *scripts.Env) error {
	n.change = screenChange{}
	if n.distance == 0 {
		return nil
	}
	s, err := desktopSession(ctx, env)
	if err != nil {
		return err
	}
	at, err := s.Pointer(ctx)
	if err != nil {
		return err
	}
	w, h := s.Size()
	watch, err := watchScreen(ctx, s, image.Rect(0, 0, w, h))
	if err != nil {
		return err
	}
	env.SetDetail("notches", n.notches())
	env.SetDetail("at", map[string]int{"x": at.X, "y": at.Y})
	if err := s.Scroll(ctx, n.notches()); err != nil {
		return err
	}
	n.change = watch.wait(ctx, effectWindow)
	return nil
}

func (n *desktopScroll) Verify(ctx context.Context, env *scripts.Env) ([]scripts.Check, error) {
	if n.distance == 0 {
		return []scripts.Check{{Name: "scrolled", Passed: true, Detail: "distance 0: nothing to do"}}, nil
	}
	return []scripts.Check{n.change.check("window under the pointer")}, nil
}

var _ scripts.Verifier = (*desktopScroll)(nil)
