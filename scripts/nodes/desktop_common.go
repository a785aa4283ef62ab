package nodes

import (
	"context"
	"fmt"
	"image"
	"math"
	"strings"
	"time"

	"github.com/rodeo-run/rodeo/desktop"
	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
)

// desktopSession returns the run's X display session, leasing it on first use.
func desktopSession(ctx context.Context, env *scripts.Env) (*desktop.Session, error) {
	s, err := env.Desktop(ctx)
	if err != nil {
		return nil, err
	}
	ds, ok := s.(*desktop.Session)
	if !ok {
		return nil, errs.E(errs.DesktopUnavailable, "the run's desktop is not an X11 session")
	}
	return ds, nil
}

// desktopWhenBrowserModeFalse is the Uses of kinds that are browser nodes unless browser_mode is
// false.
func desktopWhenBrowserModeFalse(raw map[string]any) (browser, desk bool) {
	if b, ok := raw["browser_mode"].(bool); ok && !b {
		return false, true
	}
	return true, false
}

// coordinate params shared by the desktop nodes.
var (
	paramX = scripts.Param{Name: "x", Type: scripts.Number, Min: scripts.F(0), Max: scripts.F(1 << 15),
		Description: "X Coordinate: pixels from the screen's left edge", Example: 640}
	paramY = scripts.Param{Name: "y", Type: scripts.Number, Min: scripts.F(0), Max: scripts.F(1 << 15),
		Description: "Y Coordinate: pixels from the screen's top edge", Example: 400}
)

// pointParam reads x and y as a screen point; ok is false when neither is given.
func pointParam(p *scripts.Params, xName, yName string) (desktop.Point, bool, error) {
	hasX, hasY := p.Has(xName), p.Has(yName)
	if !hasX && !hasY {
		return desktop.Point{}, false, nil
	}
	if hasX != hasY {
		return desktop.Point{}, false, errInvalid("%s and %s go together: give both pixel coordinates", xName, yName)
	}
	x, err := p.Number(xName)
	if err != nil {
		return desktop.Point{}, false, err
	}
	y, err := p.Number(yName)
	if err != nil {
		return desktop.Point{}, false, err
	}
	if x < 0 || y < 0 || math.IsNaN(x) || math.IsNaN(y) {
		return desktop.Point{}, false, errInvalid("%s/%s: coordinates are pixels from the top left, not negative", xName, yName)
	}
	return desktop.Point{X: int(math.Round(x)), Y: int(math.Round(y))}, true, nil
}

// Click types of the studio's Magic Clicker.
const (
	clickSingleLeft  = "Single Left Click"
	clickSingleRight = "Single Right Click"
	clickDouble      = "Double Click"
	clickDrag        = "Drag"
)

var clickTypes = []string{clickSingleLeft, clickSingleRight, clickDouble, clickDrag}

// clickTypeParam reads click_type, accepting the studio's names in any case and the short forms
// left, right, double, drag.
func clickTypeParam(p *scripts.Params) (string, error) {
	v, err := p.String("click_type")
	if err != nil || v == "" {
		return clickSingleLeft, err
	}
	switch strings.ToLower(strings.Join(strings.Fields(v), " ")) {
	case "single left click", "left", "left click", "single click", "click":
		return clickSingleLeft, nil
	case "single right click", "right", "right click":
		return clickSingleRight, nil
	case "double click", "double", "double left click":
		return clickDouble, nil
	case "drag", "drag and drop":
		return clickDrag, nil
	}
	return "", errInvalid("click_type: %q is not one of %s", v, strings.Join(clickTypes, ", "))
}

var paramClickType = scripts.Param{Name: "click_type", Type: scripts.String, Default: clickSingleLeft,
	Description: "Click Type: Single Left Click, Single Right Click, Double Click or Drag (to to_x/to_y on the desktop, to drop_target in the browser)",
	Example:     clickDouble}

// screenWatch is the before-picture of a desktop action: the pixels around the points it acts
// on and the focused window. wait compares until something changed or the window passes.
type screenWatch struct {
	scr     desktop.Screen
	regions []image.Rectangle
	before  []*image.RGBA
	focus   uint32
}

// watchRadius is half the side of the square compared around a click: large enough for the
// usual effect of a click (a pressed button, an opened menu's start, a moved caret), small
// enough that a blinking caret or an animation elsewhere does not count as the click's effect.
const watchRadius = 120

func watchScreen(ctx context.Context, scr desktop.Screen, regions ...image.Rectangle) (*screenWatch, error) {
	sw, sh := scr.Size()
	w := &screenWatch{scr: scr}
	for _, r := range regions {
		if r = r.Intersect(image.Rect(0, 0, sw, sh)); r.Empty() {
			continue
		}
		w.regions = append(w.regions, r)
		img, err := scr.Capture(ctx, r)
		if err != nil {
			return nil, err
		}
		w.before = append(w.before, img)
	}
	f, err := scr.Focus(ctx)
	if err != nil {
		return nil, err
	}
	w.focus = f
	return w, nil
}

// screenChange is what wait saw.
type screenChange struct {
	pixels       int
	box          image.Rectangle
	focusBefore  uint32
	focusAfter   uint32
	focusChanged bool
	waited       time.Duration
}

// wait polls the regions until their pixels or the focus changed, or window passed.
func (w *screenWatch) wait(ctx context.Context, window time.Duration) screenChange {
	start := time.Now()
	ch := screenChange{focusBefore: w.focus}
	for {
		for i, r := range w.regions {
			img, err := w.scr.Capture(ctx, r)
			if err != nil {
				continue
			}
			if n, box := desktop.Changed(w.before[i], img); n > 0 {
				ch.pixels += n
				ch.box = box.Add(r.Min)
			}
		}
		if f, err := w.scr.Focus(ctx); err == nil {
			ch.focusAfter = f
			ch.focusChanged = f != w.focus
		}
		ch.waited = time.Since(start)
		if ch.pixels > 0 || ch.focusChanged || ch.waited >= window || ctx.Err() != nil {
			return ch
		}
		select {
		case <-ctx.Done():
		case <-time.After(40 * time.Millisecond):
		}
	}
}

// check turns what wait saw into the step's verification.
func (c screenChange) check(what string) scripts.Check {
	switch {
	case c.pixels > 0:
		return scripts.Check{Name: "screen_changed", Passed: true, Detail: fmt.Sprintf("%d pixels changed around the %s (box %v) within %s", c.pixels, what, c.box, c.waited.Round(time.Millisecond))}
	case c.focusChanged:
		return scripts.Check{Name: "focus_changed", Passed: true, Detail: fmt.Sprintf("the keyboard focus moved from window %#x to %#x", c.focusBefore, c.focusAfter)}
	}
	return scripts.Check{Name: "screen_changed", Passed: false, Detail: fmt.Sprintf("nothing changed on screen around the %s and the focus stayed on window %#x for %s", what, c.focusBefore, c.waited.Round(time.Millisecond))}
}
