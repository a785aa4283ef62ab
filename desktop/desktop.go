// Package desktop is rodeo's OS input adapter on X11: the mouse and keyboard through the XTEST
// extension (github.com/jezek/xgb, pure Go, trusted events under any X server including Xvfb),
// screen captures with GetImage, starting and stopping programs, and ffmpeg for the webcam and
// audio. The input side is the Input interface so that another backend (uinput, where
// micmonay/keybd_event can be had) can be added without touching the nodes.
package desktop

import (
	"context"
	"fmt"
	"image"
	"io"
	"log"
	"os"
	"sync"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
	"github.com/jezek/xgb/xtest"
	"github.com/rodeo-run/rodeo/errs"
)

func init() {
	// xgb logs to stderr on its own (e.g. "Could not get authority info" on every connection to
	// an Xvfb without an Xauthority file); the errors it returns are what rodeo reports.
	xgb.Logger = log.New(io.Discard, "", 0)
}

// Button is a mouse button as X numbers them.
type Button byte

// Mouse buttons; 4 and 5 are the wheel (up, down).
const (
	Left      Button = 1
	Middle    Button = 2
	Right     Button = 3
	WheelUp   Button = 4
	WheelDown Button = 5
)

// Point is a position on the screen in pixels, 0,0 at the top left.
type Point struct{ X, Y int }

// Input drives the pointer and the keyboard. The XTEST backend implements it; a uinput backend
// would too. Every method sends trusted events, the same a user's hardware would send.
type Input interface {
	Move(ctx context.Context, p Point) error
	ButtonDown(ctx context.Context, b Button) error
	ButtonUp(ctx context.Context, b Button) error
	// Click moves to p and clicks b count times (2 is a double click).
	Click(ctx context.Context, p Point, b Button, count int) error
	// Drag presses the left button at from, moves in steps to to, and releases it there.
	Drag(ctx context.Context, from, to Point) error
	// Scroll turns the wheel by notches: positive scrolls down, negative up.
	Scroll(ctx context.Context, notches int) error
	KeyDown(ctx context.Context, keysym uint32) error
	KeyUp(ctx context.Context, keysym uint32) error
	// Type types text with the keys a US keyboard needs (shift for capitals and symbols);
	// characters the keymap lacks are mapped onto a spare keycode for the time of the press.
	Type(ctx context.Context, text string) error
	// Pointer reports where the pointer is.
	Pointer(ctx context.Context) (Point, error)
}

// Screen captures what the display shows.
type Screen interface {
	Size() (w, h int)
	// Capture returns the pixels of r (the whole screen when r is empty).
	Capture(ctx context.Context, r image.Rectangle) (*image.RGBA, error)
	// Focus names the window that has the keyboard focus (0: none or the pointer's).
	Focus(ctx context.Context) (uint32, error)
}

// DisplayName returns the display to use: name when set, else $DISPLAY.
func DisplayName(name string) string {
	if name != "" {
		return name
	}
	return os.Getenv("DISPLAY")
}

// Display is one connection to an X server with XTEST, implementing Input and Screen. Its methods
// are safe for concurrent use, but one run at a time should drive it (see Manager).
type Display struct {
	name string
	conn *xgb.Conn
	root xproto.Window
	w, h int

	mu     sync.Mutex // the keymap, the spare keycodes and what is held down
	keymap *keymap
	// down holds the keys (keycodes) and buttons pressed and not released yet, so that Release
	// lets go of them: a run that ends holding shift must not leave it held for the next.
	downKeys    map[byte]bool
	downButtons map[Button]bool
}

// Open connects to the X server of display (":99"; empty means $DISPLAY). No display, an X
// server that does not answer or one without XTEST is desktop_unavailable.
func Open(display string) (*Display, error) {
	name := DisplayName(display)
	if name == "" {
		return nil, errs.E(errs.DesktopUnavailable, "no X display: set DISPLAY or --display (e.g. start `Xvfb :99 -screen 0 1280x800x24` and use :99)")
	}
	conn, err := xgb.NewConnDisplay(name)
	if err != nil {
		return nil, errs.E(errs.DesktopUnavailable, "cannot connect to the X display %s: %v", name, err)
	}
	if err := xtest.Init(conn); err != nil {
		conn.Close()
		return nil, errs.E(errs.DesktopUnavailable, "the X display %s has no XTEST extension: %v", name, err)
	}
	scr := xproto.Setup(conn).DefaultScreen(conn)
	d := &Display{name: name, conn: conn, root: scr.Root, w: int(scr.WidthInPixels), h: int(scr.HeightInPixels),
		downKeys: map[byte]bool{}, downButtons: map[Button]bool{}}
	km, err := loadKeymap(conn)
	if err != nil {
		conn.Close()
		return nil, errs.E(errs.DesktopUnavailable, "read the keyboard map of %s: %v", name, err)
	}
	d.keymap = km
	return d, nil
}

// Name is the display's name (":99").
func (d *Display) Name() string { return d.name }

// Size is the screen's size in pixels.
func (d *Display) Size() (int, int) { return d.w, d.h }

// Close lets go of every key and button still held, then ends the connection.
func (d *Display) Close() {
	d.mu.Lock()
	keys, buttons := d.downKeys, d.downButtons
	d.downKeys, d.downButtons = map[byte]bool{}, map[Button]bool{}
	d.mu.Unlock()
	for code := range keys {
		_ = d.fake(xproto.KeyRelease, code, 0, 0)
	}
	for b := range buttons {
		_ = d.fake(xproto.ButtonRelease, byte(b), 0, 0)
	}
	d.conn.Close()
}

// held records a key or button going down (true) or up.
func (d *Display) held(key byte, b Button, down bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if key != 0 {
		if down {
			d.downKeys[key] = true
		} else {
			delete(d.downKeys, key)
		}
	}
	if b != 0 {
		if down {
			d.downButtons[b] = true
		} else {
			delete(d.downButtons, b)
		}
	}
}

// Focus returns the window holding the keyboard focus.
func (d *Display) Focus(ctx context.Context) (uint32, error) {
	r, err := xproto.GetInputFocus(d.conn).Reply()
	if err != nil {
		return 0, fmt.Errorf("get input focus: %w", err)
	}
	return uint32(r.Focus), nil
}

var (
	_ Input  = (*Display)(nil)
	_ Screen = (*Display)(nil)
)
