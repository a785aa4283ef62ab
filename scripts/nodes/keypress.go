package nodes

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/llm"
	"github.com/rodeo-run/rodeo/scripts"
)

// keypress types text into the focused field with real key events, or presses a key: the
// spec's special words (enter/return, backspace, tab, space, period, slash), named keys
// (escape, arrowdown, …), combos ("ctrl+a", "shift+tab"), or holds a modifier ("shift", "ctrl",
// "alt") for the following key presses. Typed text is verified in the field's value; a key is
// verified by its effect.
type keypress struct {
	prompt string
	// one of: text to type, a key combo to press, or a modifier to hold
	text   string
	combo  []input.Key
	hold   input.Key
	holdAs string
	label  string

	obs    *observer
	before pageState
	change change
	held   []string

	// gpt4 sends prompt to the model first; mode is "browser", "desktop" or "" (decided at run
	// time); desk is the desktop keypress once it is decided.
	gpt4    bool
	literal bool // prompt is typed as it is, never read as a key word (the model's answer; the general node's type)
	mode    string
	desk    *desktopKeys
}

// specialText are the spec's words that write a character.
var specialText = map[string]string{"space": " ", "period": ".", "slash": "/"}

// modifierKeys can be held ("shift") or combined ("ctrl+a").
var modifierKeys = map[string]input.Key{
	"shift": input.ShiftLeft, "ctrl": input.ControlLeft, "control": input.ControlLeft,
	"alt": input.AltLeft, "meta": input.MetaLeft, "cmd": input.MetaLeft,
}

// namedKeys are keys pressed by name.
var namedKeys = map[string]input.Key{
	"enter": input.Enter, "return": input.Enter, "backspace": input.Backspace, "tab": input.Tab,
	"escape": input.Escape, "esc": input.Escape, "delete": input.Delete, "del": input.Delete,
	"arrowup": input.ArrowUp, "up": input.ArrowUp, "arrowdown": input.ArrowDown, "down": input.ArrowDown,
	"arrowleft": input.ArrowLeft, "left": input.ArrowLeft, "arrowright": input.ArrowRight, "right": input.ArrowRight,
	"home": input.Home, "end": input.End, "pageup": input.PageUp, "pagedown": input.PageDown,
	"f1": input.F1, "f2": input.F2, "f3": input.F3, "f4": input.F4, "f5": input.F5, "f6": input.F6,
	"f7": input.F7, "f8": input.F8, "f9": input.F9, "f10": input.F10, "f11": input.F11, "f12": input.F12,
}

func init() {
	scripts.Register(scripts.Spec{
		Kind:        "keypress",
		Aliases:     []string{"type", "type text"},
		Summary:     "Type text into the focused field, or press a key (enter, tab, backspace, ctrl+a, …).",
		Category:    "browser",
		Uses:        keypressUses,
		DesktopWhen: "browser_mode is false, or the run has no browser",
		Timeout:     30 * time.Second,
		Params: []scripts.Param{
			{Name: "prompt", Type: scripts.String, Template: true,
				Description: "text to type, or one key word: enter/return, backspace, tab, space, period, slash, escape, arrow keys, a combo like ctrl+a, or shift/ctrl/alt to hold for the next key press; \"Current Directory\"/resource_path types the server's working folder",
				Example:     "ada@example.com"},
			{Name: "automation_input", Type: scripts.String,
				Description: "a variable whose value is typed instead of prompt (e.g. sms_transcript)", Example: "data"},
			{Name: "saved_values", Type: scripts.String,
				Description: "Saved Values: a variable whose value is typed (as automation_input)", Example: "email"},
			{Name: "gpt4_mode", Type: scripts.Bool, Default: false,
				Description: "GPT-4 Mode: send the prompt to the configured model first and type its answer", Example: true},
			{Name: "browser_mode", Type: scripts.Bool,
				Description: "true: type into the run's browser page; false: type on the X display's focused window; unset: the browser, or the desktop when the server has no browser", Example: false},
		},
		Examples: []map[string]any{{"type": "keypress", "prompt": "ada@example.com"}, {"type": "keypress", "prompt": "enter"}},
		Build:    buildKeypress,
	})
}

func buildKeypress(p *scripts.Params) (scripts.Node, error) {
	prompt, err := p.String("prompt")
	if err != nil {
		return nil, err
	}
	variable, err := p.String("automation_input")
	if err != nil {
		return nil, err
	}
	saved, err := p.String("saved_values")
	if err != nil {
		return nil, err
	}
	if variable == "" {
		variable = saved
	}
	if prompt == "" && variable == "" {
		return nil, errInvalid("keypress needs `prompt` (text or a key), `automation_input` or `saved_values`")
	}
	gpt4, err := p.Bool("gpt4_mode")
	if err != nil {
		return nil, err
	}
	if gpt4 && prompt == "" {
		return nil, errInvalid("gpt4_mode sends `prompt` to the model: give a prompt")
	}
	n := &keypress{prompt: prompt, text: variable, gpt4: gpt4}
	if p.Has("browser_mode") {
		b, err := p.Bool("browser_mode")
		if err != nil {
			return nil, err
		}
		n.mode = map[bool]string{true: modeBrowser, false: modeDesktop}[b]
	}
	return n, nil
}

// plan decides what the prompt means. It runs at Run time because automation_input is a variable.
func (n *keypress) plan(env *scripts.Env) error {
	if n.literal {
		n.text, n.label = n.prompt, "text"
		return nil
	}
	if n.prompt == "" {
		v, ok := env.Vars.Get(n.text)
		if !ok {
			return errs.E(errs.VariableNotSet, "automation_input: variable %s is not set", n.text)
		}
		n.text, n.label = scripts.Text(v), "text"
		return nil
	}
	word := strings.ToLower(strings.TrimSpace(n.prompt))
	switch {
	case word == "current directory" || word == "resource_path":
		wd, _ := os.Getwd()
		n.text, n.label = wd, "text"
	case specialText[word] != "":
		n.text, n.label = specialText[word], word
	case modifierKeys[word] != 0 && word != "meta" && word != "cmd":
		n.hold, n.holdAs, n.label = modifierKeys[word], word, "hold "+word
	case namedKeys[word] != 0:
		n.combo, n.label = []input.Key{namedKeys[word]}, word
	case strings.Contains(word, "+") && len(word) > 1 && !strings.ContainsAny(word, " \t"):
		keys, ok := parseCombo(word)
		if !ok {
			n.text, n.label = n.prompt, "text"
			return nil
		}
		n.combo, n.label = keys, word
	default:
		n.text, n.label = n.prompt, "text"
	}
	return nil
}

// parseCombo reads "ctrl+shift+k" into keys; false when a part is not a key.
func parseCombo(s string) ([]input.Key, bool) {
	var keys []input.Key
	for _, part := range strings.Split(s, "+") {
		if k, ok := modifierKeys[part]; ok {
			keys = append(keys, k)
		} else if k, ok := namedKeys[part]; ok {
			keys = append(keys, k)
		} else if len(part) == 1 && part[0] >= 0x20 && part[0] < 0x7f {
			keys = append(keys, input.Key(part[0]))
		} else {
			return nil, false
		}
	}
	return keys, len(keys) > 1
}

func (n *keypress) Run(ctx context.Context, env *scripts.Env) error {
	if n.gpt4 {
		if err := n.askModel(ctx, env); err != nil {
			return err
		}
	}
	if n.mode == modeDesktop || (n.mode == "" && !env.CanBrowse() && env.HasDesktop()) {
		n.desk = &desktopKeys{prompt: n.prompt, variable: n.text}
		return n.desk.run(ctx, env)
	}
	if err := n.plan(env); err != nil {
		return err
	}
	page, err := env.Page(ctx)
	if err != nil {
		return err
	}
	if n.hold != 0 {
		if err := page.Keyboard.Press(n.hold); err != nil {
			return fmt.Errorf("hold %s: %w", n.holdAs, err)
		}
		env.Held[n.holdAs] = true
		env.SetDetail("key", n.label)
		return nil
	}
	obs, err := observe(ctx, page)
	if err != nil {
		return err
	}
	n.obs, n.before = obs, obs.before
	if n.text != "" && obs.before.Focus == "" {
		return errs.E(errs.TargetNotFound, "nothing has focus to type %q into: click a field first (e.g. {\"type\":\"click\",\"target\":\"the email field\"})", truncateText(n.text, 40))
	}
	env.SetDetail("key", n.label)
	if n.text != "" {
		err = typeText(page, n.text, env.Held["shift"])
	} else {
		err = pressCombo(page, n.combo)
	}
	// Keys held by an earlier keypress apply to this one only; release them now.
	for name := range env.Held {
		_ = page.Keyboard.Release(modifierKeys[name])
		n.held = append(n.held, name)
		delete(env.Held, name)
	}
	if err != nil {
		return fmt.Errorf("keypress %s: %w", n.label, err)
	}
	n.change = obs.wait(ctx, effectWindow)
	return nil
}

// typeText sends real key events for characters on a US keyboard, and inserts the others
// (accents, CJK, emoji) as text input, which is what an IME does. With shift held, characters
// become their shifted keys ("a" -> "A", "1" -> "!"): CDP does not apply a held modifier to text.
func typeText(page *rod.Page, text string, shift bool) error {
	var pending strings.Builder
	flush := func() error {
		if pending.Len() == 0 {
			return nil
		}
		s := pending.String()
		pending.Reset()
		return page.InsertText(s)
	}
	for _, r := range text {
		var key input.Key
		switch {
		case r == '\n' || r == '\r':
			key = input.Enter
		case r == '\t':
			key = input.Tab
		case r >= 0x20 && r < 0x7f:
			key = input.Key(r)
			if shifted, ok := key.Shift(); ok && shift {
				key = shifted
			}
		default:
			pending.WriteRune(r)
			continue
		}
		if err := flush(); err != nil {
			return err
		}
		if err := page.Keyboard.Type(key); err != nil {
			return err
		}
	}
	return flush()
}

// pressCombo presses keys in order and releases them in reverse ("ctrl+a").
func pressCombo(page *rod.Page, keys []input.Key) error {
	for _, k := range keys {
		if err := page.Keyboard.Press(k); err != nil {
			return err
		}
	}
	for i := len(keys) - 1; i >= 0; i-- {
		if err := page.Keyboard.Release(keys[i]); err != nil {
			return err
		}
	}
	return nil
}

func (n *keypress) Verify(ctx context.Context, env *scripts.Env) ([]scripts.Check, error) {
	if n.desk != nil {
		return n.desk.verify(), nil
	}
	if n.hold != 0 {
		return []scripts.Check{{Name: "key_held", Passed: true, Detail: n.holdAs + " is held for the next key press"}}, nil
	}
	after := n.change.After
	if n.text != "" && !n.change.Navigated {
		shown := func(s string) string {
			if after.Password {
				return fmt.Sprintf("(%d hidden characters)", len([]rune(s)))
			}
			return fmt.Sprintf("%q", truncateText(s, 60))
		}
		holds := strings.Contains(after.Value, n.text)
		detail := "field value is " + shown(after.Value)
		if !holds && after.Value != n.before.Value && len(after.Value) > len(n.before.Value) {
			// An input mask (phone numbers, dates) reformats what was typed: it did arrive.
			holds, detail = true, "the field reformatted the text: "+shown(after.Value)
		}
		return []scripts.Check{{Name: "value_contains_text", Passed: holds, Detail: detail}}, nil
	}
	var checks []scripts.Check
	for _, c := range n.change.checks(effectWindow) {
		checks = append(checks, scripts.Check{Name: c.name, Passed: c.passed, Detail: c.detail})
	}
	return checks, nil
}

var _ scripts.Verifier = (*keypress)(nil)

// keypressUses: browser_mode false types on the desktop, true in the browser; unset leases
// nothing up front and Run decides (the page, or the desktop on a server without a browser).
func keypressUses(raw map[string]any) (bool, bool) {
	if b, ok := raw["browser_mode"].(bool); ok {
		return b, !b
	}
	return false, false
}

// askModel is GPT-4 Mode: the prompt goes to the configured model and its answer is what is
// typed, as text (an answer of "enter" types the word).
func (n *keypress) askModel(ctx context.Context, env *scripts.Env) error {
	if n.literal {
		return nil // a retry types the same answer
	}
	model := env.Services().LLM
	if model == nil {
		return llm.NotConfigured()
	}
	reply, err := model.Chat(ctx, llm.Request{
		System:   "Answer with exactly the text to type, nothing else: no quotes, no explanation.",
		Messages: []llm.Message{{Role: "user", Content: n.prompt}},
	})
	env.SetDetail("model", reply.Model)
	env.SetDetail("tokens", reply.Tokens())
	if err != nil {
		return err
	}
	n.prompt, n.literal = strings.TrimSpace(reply.Text), true
	if n.prompt == "" {
		return errs.E(llm.CodeFailed, "gpt4_mode: the model answered with nothing to type")
	}
	return nil
}
