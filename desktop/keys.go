package desktop

import (
	"context"
	"fmt"
	"strings"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// Keysyms of the keys rodeo presses by name (X11's keysymdef.h).
const (
	KeyReturn    uint32 = 0xff0d
	KeyTab       uint32 = 0xff09
	KeyBackSpace uint32 = 0xff08
	KeyEscape    uint32 = 0xff1b
	KeyDelete    uint32 = 0xffff
	KeyHome      uint32 = 0xff50
	KeyLeft      uint32 = 0xff51
	KeyUp        uint32 = 0xff52
	KeyRight     uint32 = 0xff53
	KeyDown      uint32 = 0xff54
	KeyPageUp    uint32 = 0xff55
	KeyPageDown  uint32 = 0xff56
	KeyEnd       uint32 = 0xff57
	KeyF1        uint32 = 0xffbe
	KeyShift     uint32 = 0xffe1
	KeyControl   uint32 = 0xffe3
	KeyAlt       uint32 = 0xffe9
	KeySuper     uint32 = 0xffeb
)

// namedKeys maps the words a keypress node may hold (the spec's enter/return, backspace, tab,
// the modifiers, and the usual navigation keys) to keysyms.
var namedKeys = map[string]uint32{
	"enter": KeyReturn, "return": KeyReturn, "tab": KeyTab, "backspace": KeyBackSpace,
	"escape": KeyEscape, "esc": KeyEscape, "delete": KeyDelete, "del": KeyDelete,
	"home": KeyHome, "end": KeyEnd, "pageup": KeyPageUp, "pagedown": KeyPageDown,
	"left": KeyLeft, "arrowleft": KeyLeft, "right": KeyRight, "arrowright": KeyRight,
	"up": KeyUp, "arrowup": KeyUp, "down": KeyDown, "arrowdown": KeyDown,
	"shift": KeyShift, "ctrl": KeyControl, "control": KeyControl, "alt": KeyAlt,
	"super": KeySuper, "meta": KeySuper, "cmd": KeySuper, "space": ' ',
}

func init() {
	for i := 0; i < 12; i++ {
		namedKeys[fmt.Sprintf("f%d", i+1)] = KeyF1 + uint32(i)
	}
}

// KeysymOf returns the keysym of a key name ("enter", "ctrl", "f5") or of a single character.
func KeysymOf(name string) (uint32, bool) {
	if ks, ok := namedKeys[strings.ToLower(name)]; ok {
		return ks, true
	}
	r := []rune(name)
	if len(r) == 1 {
		return runeKeysym(r[0]), true
	}
	return 0, false
}

// runeKeysym is the keysym of a character: Latin-1 characters are their own keysym, control
// characters map to their keys, everything else is a Unicode keysym (0x01000000 + code point).
func runeKeysym(r rune) uint32 {
	switch {
	case r == '\n' || r == '\r':
		return KeyReturn
	case r == '\t':
		return KeyTab
	case r == '\b':
		return KeyBackSpace
	case (r >= 0x20 && r <= 0x7e) || (r >= 0xa0 && r <= 0xff):
		return uint32(r)
	}
	return 0x01000000 | uint32(r)
}

// keymap is the X server's keyboard map: which keycode (and shift level) gives a keysym, and
// keycodes that carry nothing, which Type borrows for characters the map lacks.
type keymap struct {
	min, max xproto.Keycode
	perCode  int
	syms     []xproto.Keysym
	shift    xproto.Keycode
	spare    []xproto.Keycode
}

func loadKeymap(c *xgb.Conn) (*keymap, error) {
	setup := xproto.Setup(c)
	km := &keymap{min: setup.MinKeycode, max: setup.MaxKeycode}
	r, err := xproto.GetKeyboardMapping(c, km.min, byte(km.max-km.min+1)).Reply()
	if err != nil {
		return nil, err
	}
	km.perCode, km.syms = int(r.KeysymsPerKeycode), r.Keysyms
	for code := int(km.max); code >= int(km.min); code-- {
		empty := true
		for col := 0; col < km.perCode; col++ {
			if km.sym(xproto.Keycode(code), col) != 0 {
				empty = false
			}
		}
		if empty {
			km.spare = append(km.spare, xproto.Keycode(code))
		}
	}
	code, _, ok := km.find(KeyShift)
	if !ok {
		return nil, fmt.Errorf("the keyboard map has no Shift key")
	}
	km.shift = code
	return km, nil
}

func (km *keymap) sym(code xproto.Keycode, col int) uint32 {
	i := int(code-km.min)*km.perCode + col
	if i < 0 || i >= len(km.syms) {
		return 0
	}
	return uint32(km.syms[i])
}

// find returns the keycode giving ks and whether shift is needed for it (the keysym sits in
// the second column). Only the first two columns count: the others are group/mode levels.
func (km *keymap) find(ks uint32) (xproto.Keycode, bool, bool) {
	for col := 0; col < min(2, km.perCode); col++ {
		for code := int(km.min); code <= int(km.max); code++ {
			if km.sym(xproto.Keycode(code), col) == ks {
				return xproto.Keycode(code), col == 1, true
			}
		}
	}
	return 0, false, false
}

// keycode returns the keycode for ks, mapping it onto a spare keycode when the map lacks it
// (é, €, CJK): both shift levels carry it, so a held shift does not change it.
func (d *Display) keycode(ks uint32) (xproto.Keycode, bool, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if code, shift, ok := d.keymap.find(ks); ok {
		return code, shift, nil
	}
	km := d.keymap
	if len(km.spare) == 0 {
		return 0, false, fmt.Errorf("keysym %#x is not on the keyboard map and no keycode is free to carry it", ks)
	}
	// Reuse spare keycodes round-robin: the last one used goes to the back.
	code := km.spare[0]
	km.spare = append(km.spare[1:], code)
	syms := make([]xproto.Keysym, km.perCode)
	syms[0] = xproto.Keysym(ks)
	if km.perCode > 1 {
		syms[1] = xproto.Keysym(ks)
	}
	if err := xproto.ChangeKeyboardMappingChecked(d.conn, 1, code, byte(km.perCode), syms).Check(); err != nil {
		return 0, false, fmt.Errorf("map keysym %#x onto keycode %d: %w", ks, code, err)
	}
	copy(km.syms[int(code-km.min)*km.perCode:], syms)
	// The client reads the new mapping on a MappingNotify; a short round trip lets it arrive
	// before the key press that needs it.
	_, _ = xproto.GetInputFocus(d.conn).Reply()
	return code, false, nil
}

// KeyDown presses the key of ks (without adding shift: the caller holds it if it wants it).
func (d *Display) KeyDown(ctx context.Context, ks uint32) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	code, _, err := d.keycode(ks)
	if err != nil {
		return err
	}
	if err := d.fake(xproto.KeyPress, byte(code), 0, 0); err != nil {
		return fmt.Errorf("press key %#x: %w", ks, err)
	}
	d.held(byte(code), 0, true)
	return nil
}

// KeyUp releases the key of ks.
func (d *Display) KeyUp(ctx context.Context, ks uint32) error {
	code, _, err := d.keycode(ks)
	if err != nil {
		return err
	}
	if err := d.fake(xproto.KeyRelease, byte(code), 0, 0); err != nil {
		return fmt.Errorf("release key %#x: %w", ks, err)
	}
	d.held(byte(code), 0, false)
	return nil
}

// Type presses and releases the key of every character of text, holding shift around the
// characters on the keys' second level (capitals, !@#…).
func (d *Display) Type(ctx context.Context, text string) error {
	for _, r := range text {
		if err := d.typeRune(ctx, r); err != nil {
			return fmt.Errorf("type %q: %w", r, err)
		}
	}
	return nil
}

func (d *Display) typeRune(ctx context.Context, r rune) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	code, shift, err := d.keycode(runeKeysym(r))
	if err != nil {
		return err
	}
	if shift {
		if err := d.fake(xproto.KeyPress, byte(d.keymap.shift), 0, 0); err != nil {
			return err
		}
		defer d.fake(xproto.KeyRelease, byte(d.keymap.shift), 0, 0)
	}
	if err := d.fake(xproto.KeyPress, byte(code), 0, 0); err != nil {
		return err
	}
	return d.fake(xproto.KeyRelease, byte(code), 0, 0)
}

// PressCombo presses the keys in order and releases them in reverse ("ctrl+a").
func PressCombo(ctx context.Context, in Input, keys []uint32) error {
	pressed := 0
	var err error
	for _, ks := range keys {
		if err = in.KeyDown(ctx, ks); err != nil {
			break
		}
		pressed++
	}
	for i := pressed - 1; i >= 0; i-- {
		if uerr := in.KeyUp(context.WithoutCancel(ctx), keys[i]); err == nil {
			err = uerr
		}
	}
	return err
}
