package nodes

import (
	"context"
	"fmt"
	"image"
	"os"
	"strings"

	"github.com/rodeo-run/rodeo/desktop"
	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
)

// desktopKeys is a keypress on the X display: text typed into the focused window with the keys
// a US keyboard needs, one of the spec's words (enter, backspace, tab, space, period, slash), a
// combo (ctrl+a) or a modifier held for the next keypress. Typing is verified by a change on
// screen (the window drew the characters); a held modifier needs no check.
type desktopKeys struct {
	prompt, variable string

	label  string
	change screenChange
	held   bool
}

func (n *desktopKeys) run(ctx context.Context, env *scripts.Env) error {
	n.change, n.held = screenChange{}, false
	s, err := desktopSession(ctx, env)
	if err != nil {
		return err
	}
	text, keys, hold, err := n.plan(env)
	if err != nil {
		return err
	}
	env.SetDetail("key", n.label)
	env.SetDetail("on", "desktop "+s.Name())
	if hold != "" {
		ks, _ := desktop.KeysymOf(hold)
		if err := s.KeyDown(ctx, ks); err != nil {
			return err
		}
		env.Held["desktop:"+hold] = true
		n.held = true
		return nil
	}
	w, h := s.Size()
	watch, err := watchScreen(ctx, s, image.Rect(0, 0, w, h))
	if err != nil {
		return err
	}
	if text != "" {
		err = s.Type(ctx, text)
	} else {
		err = desktop.PressCombo(ctx, s, keys)
	}
	// Modifiers held by an earlier keypress apply to this one only.
	for name := range env.Held {
		if mod, ok := strings.CutPrefix(name, "desktop:"); ok {
			ks, _ := desktop.KeysymOf(mod)
			_ = s.KeyUp(context.WithoutCancel(ctx), ks)
			delete(env.Held, name)
		}
	}
	if err != nil {
		return fmt.Errorf("keypress %s: %w", n.label, err)
	}
	n.change = watch.wait(ctx, effectWindow)
	return nil
}

// plan reads the prompt as text, keys to press or a modifier to hold.
func (n *desktopKeys) plan(env *scripts.Env) (text string, keys []uint32, hold string, err error) {
	if n.prompt == "" {
		v, ok := env.Vars.Get(n.variable)
		if !ok {
			return "", nil, "", errs.E(errs.VariableNotSet, "automation_input: variable %s is not set", n.variable)
		}
		n.label = "text"
		return scripts.Text(v), nil, "", nil
	}
	word := strings.ToLower(strings.TrimSpace(n.prompt))
	switch {
	case word == "current directory" || word == "resource_path":
		wd, _ := os.Getwd()
		n.label = "text"
		return wd, nil, "", nil
	case specialText[word] != "":
		n.label = word
		return specialText[word], nil, "", nil
	case word == "shift" || word == "ctrl" || word == "control" || word == "alt":
		n.label = "hold " + word
		return "", nil, word, nil
	case len([]rune(word)) > 1 && !strings.ContainsAny(word, " \t+"):
		if ks, ok := desktop.KeysymOf(word); ok {
			n.label = word
			return "", []uint32{ks}, "", nil
		}
	case strings.Contains(word, "+") && len(word) > 1 && !strings.ContainsAny(word, " \t"):
		var combo []uint32
		for _, part := range strings.Split(word, "+") {
			ks, ok := desktop.KeysymOf(part)
			if !ok {
				combo = nil
				break
			}
			combo = append(combo, ks)
		}
		if len(combo) > 1 {
			n.label = word
			return "", combo, "", nil
		}
	}
	n.label = "text"
	return n.prompt, nil, "", nil
}

func (n *desktopKeys) verify() []scripts.Check {
	if n.held {
		return []scripts.Check{{Name: "key_held", Passed: true, Detail: n.label + " is held for the next key press"}}
	}
	return []scripts.Check{n.change.check("screen after " + n.label)}
}
