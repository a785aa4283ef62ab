package desktop

import (
	"context"
	"fmt"
	"time"

	"github.com/jezek/xgb/xproto"
	"github.com/jezek/xgb/xtest"
)

// stepPause separates the moves of a drag and the clicks of a double click: applications read
// motion between press and release to tell a drag from a click, and a double click needs two
// clicks well inside the double-click interval (400-500 ms everywhere).
const stepPause = 15 * time.Millisecond

// fake sends one XTEST event and waits for the server to accept it, so events arrive in order
// and an error (a bad keycode, a lost connection) is the caller's.
func (d *Display) fake(typ byte, detail byte, x, y int) error {
	return xtest.FakeInputChecked(d.conn, typ, detail, 0, d.root, int16(x), int16(y), 0).Check()
}

// clamp keeps p on the screen; X would clamp too, but the caller's verification reads p back.
func (d *Display) clamp(p Point) Point {
	p.X = max(0, min(p.X, d.w-1))
	p.Y = max(0, min(p.Y, d.h-1))
	return p
}

// Move puts the pointer at p (absolute coordinates on the root window).
func (d *Display) Move(ctx context.Context, p Point) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	p = d.clamp(p)
	if err := d.fake(xproto.MotionNotify, 0, p.X, p.Y); err != nil {
		return fmt.Errorf("move pointer to %d,%d: %w", p.X, p.Y, err)
	}
	return nil
}

// ButtonDown presses b where the pointer is.
func (d *Display) ButtonDown(ctx context.Context, b Button) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := d.fake(xproto.ButtonPress, byte(b), 0, 0); err != nil {
		return fmt.Errorf("press button %d: %w", b, err)
	}
	d.held(0, b, true)
	return nil
}

// ButtonUp releases b.
func (d *Display) ButtonUp(ctx context.Context, b Button) error {
	if err := d.fake(xproto.ButtonRelease, byte(b), 0, 0); err != nil {
		return fmt.Errorf("release button %d: %w", b, err)
	}
	d.held(0, b, false)
	return nil
}

// Click moves to p and clicks b count times.
func (d *Display) Click(ctx context.Context, p Point, b Button, count int) error {
	if err := d.Move(ctx, p); err != nil {
		return err
	}
	for i := 0; i < max(count, 1); i++ {
		if i > 0 {
			sleep(ctx, stepPause)
		}
		if err := d.ButtonDown(ctx, b); err != nil {
			return err
		}
		if err := d.ButtonUp(ctx, b); err != nil {
			return err
		}
	}
	return nil
}

// dragSteps is how many intermediate moves a drag makes: enough for drag-and-drop code that
// needs to see the pointer travel (HTML5 drag starts after a few pixels of motion).
const dragSteps = 12

// Drag presses the left button at from, moves to to in steps and releases it there. The button
// is released whatever happens, so a failed drag never leaves it held.
func (d *Display) Drag(ctx context.Context, from, to Point) (err error) {
	if err := d.Move(ctx, from); err != nil {
		return err
	}
	if err := d.ButtonDown(ctx, Left); err != nil {
		return err
	}
	defer func() {
		if uerr := d.ButtonUp(context.WithoutCancel(ctx), Left); err == nil {
			err = uerr
		}
	}()
	for i := 1; i <= dragSteps; i++ {
		sleep(ctx, stepPause)
		p := Point{from.X + (to.X-from.X)*i/dragSteps, from.Y + (to.Y-from.Y)*i/dragSteps}
		if err := d.Move(ctx, p); err != nil {
			return err
		}
	}
	sleep(ctx, stepPause)
	return nil
}

// Scroll turns the wheel: button 5 (down) or 4 (up) once per notch.
func (d *Display) Scroll(ctx context.Context, notches int) error {
	b := WheelDown
	if notches < 0 {
		b, notches = WheelUp, -notches
	}
	for i := 0; i < notches; i++ {
		if err := d.ButtonDown(ctx, b); err != nil {
			return err
		}
		if err := d.ButtonUp(ctx, b); err != nil {
			return err
		}
	}
	return nil
}

// Pointer reports the pointer's position on the root window.
func (d *Display) Pointer(ctx context.Context) (Point, error) {
	r, err := xproto.QueryPointer(d.conn, d.root).Reply()
	if err != nil {
		return Point{}, fmt.Errorf("query pointer: %w", err)
	}
	return Point{int(r.RootX), int(r.RootY)}, nil
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}
