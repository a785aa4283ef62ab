package nodes

import (
	"context"
	"fmt"
	"image"
	"time"

	"github.com/rodeo-run/rodeo/desktop"
	"github.com/rodeo-run/rodeo/scripts"
)

// desktopClick is a click of some type at a screen point (a drag goes on to another point),
// verified by what changed on screen around the point(s) or a move of the keyboard focus. A
// click on an empty, unchanging area fails verification.
type desktopClick struct {
	at, to desktop.Point
	kind   string

	change screenChange
}

// settle is how long the pointer rests on the point before the before-picture is taken, so a
// hover effect (a highlighted button, a tooltip starting) is not mistaken for the click's.
const settleMax = 400 * time.Millisecond

func (n *desktopClick) run(ctx context.Context, env *scripts.Env) error {
	n.change = screenChange{}
	s, err := desktopSession(ctx, env)
	if err != nil {
		return err
	}
	env.SetDetail("at", map[string]int{"x": n.at.X, "y": n.at.Y})
	env.SetDetail("click_type", n.kind)
	regions := []image.Rectangle{desktop.Around(n.at, watchRadius)}
	if n.kind == clickDrag {
		regions = append(regions, desktop.Around(n.to, watchRadius))
		env.SetDetail("to", map[string]int{"x": n.to.X, "y": n.to.Y})
	}
	if err := s.Move(ctx, n.at); err != nil {
		return err
	}
	settleScreen(ctx, s, regions[0])
	w, err := watchScreen(ctx, s, regions...)
	if err != nil {
		return err
	}
	switch n.kind {
	case clickSingleRight:
		err = s.Click(ctx, n.at, desktop.Right, 1)
	case clickDouble:
		err = s.Click(ctx, n.at, desktop.Left, 2)
	case clickDrag:
		err = s.Drag(ctx, n.at, n.to)
	default:
		err = s.Click(ctx, n.at, desktop.Left, 1)
	}
	if err != nil {
		return err
	}
	n.change = w.wait(ctx, effectWindow)
	return nil
}

// settleScreen waits until r looks the same twice in a row (hover effects done), at most
// settleMax.
func settleScreen(ctx context.Context, scr desktop.Screen, r image.Rectangle) {
	deadline := time.Now().Add(settleMax)
	prev, err := scr.Capture(ctx, r)
	for err == nil && time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return
		case <-time.After(50 * time.Millisecond):
		}
		var cur *image.RGBA
		if cur, err = scr.Capture(ctx, r); err != nil {
			return
		}
		if n, _ := desktop.Changed(prev, cur); n == 0 {
			return
		}
		prev = cur
	}
}

func (n *desktopClick) verify() []scripts.Check {
	what := fmt.Sprintf("%s at %d,%d", n.kind, n.at.X, n.at.Y)
	if n.kind == clickDrag {
		what = fmt.Sprintf("drag from %d,%d to %d,%d", n.at.X, n.at.Y, n.to.X, n.to.Y)
	}
	return []scripts.Check{n.change.check(what)}
}
