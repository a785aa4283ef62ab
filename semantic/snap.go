package semantic

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/rodeo-run/rodeo/errs"
)

// windowKey is the non-enumerable window property holding the page-side element arrays of recent
// snapshots. It is long and odd so that no page's own globals collide with it.
const windowKey = "__rodeo_semantic_snapshots_7c1f"

//go:embed snapshot.js
var snapshotJS string

// snapFn is the property of the window[windowKey] object that snapshot.js installs the snapshot
// function under; its name carries the wire format's version.
const snapFn = "snapW10"

// snapExpr takes a snapshot with the installed function, or evaluates to 0 when the document has
// none yet (a new page, or it navigated). The function is told which snapshot of the page the
// caller holds (see snapBase), so it may send only the difference.
func snapExpr(doc string, gen int) string {
	return `(s => s && s.` + snapFn + ` ? s.` + snapFn + `(` + strconv.Quote(doc) + `, ` + strconv.Itoa(gen) + `) : 0)(window["` + windowKey + `"])`
}

// Snap takes a snapshot of page in one round trip: injected JS walks the DOM (open shadow roots
// and same-origin iframes included) and returns the interactive and text-bearing elements.
// It does not modify the DOM. The live elements stay reachable through Handle until the page
// navigates or eight newer snapshots are taken.
func Snap(ctx context.Context, page *rod.Page) (*Snapshot, error) {
	key := baseKey(page)
	base := snapBases.get(key)
	var doc string
	var gen int
	if base != nil {
		doc, gen = base.doc, base.gen
	}
	// The page answers with a difference only from the snapshot of its own document named by
	// doc and gen, so a difference always has its base here (readMessage checks).
	msg, err := snapWire(ctx, page, doc, gen)
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	nb, s, err := readMessage(msg, base)
	if err != nil {
		return nil, fmt.Errorf("snapshot: decode: %w", err)
	}
	snapBases.put(key, nb)
	return s, nil
}

// snapWire returns the page's answer (a message, see readMessage). The snapshot function is
// installed once per document: later calls send a short expression instead of the whole script
// (and V8 keeps the function's optimized code). A top-level page is asked with a raw
// Runtime.evaluate whose reply is decoded once, here; an iframe's page goes through rod, which
// knows the frame's context.
func snapWire(ctx context.Context, page *rod.Page, doc string, gen int) (string, error) {
	if !page.IsIframe() {
		raw, err := page.Call(ctx, string(page.SessionID), "Runtime.evaluate", proto.RuntimeEvaluate{Expression: snapExpr(doc, gen), ReturnByValue: true})
		if err == nil {
			if s, ok, err := evalString(raw); err != nil {
				return "", err
			} else if ok {
				return s, nil
			}
		} else if ctx.Err() != nil {
			return "", err
		}
		// Not installed yet, or no usable context (rod's Evaluate waits for one): install.
	} else {
		res, err := page.Context(ctx).Evaluate(rod.Eval(`(k, f, d, g) => { const s = window[k]; return s && s[f] ? s[f](d, g) : 0 }`, windowKey, snapFn, doc, gen))
		if err != nil {
			return "", err
		}
		if res.Type == proto.RuntimeRemoteObjectTypeString {
			return res.Value.Str(), nil
		}
	}
	res, err := page.Context(ctx).Evaluate(rod.Eval(snapshotJS, windowKey))
	if err != nil {
		return "", err
	}
	if res.Type != proto.RuntimeRemoteObjectTypeString {
		return "", fmt.Errorf("the snapshot script returned a %s", res.Type)
	}
	return res.Value.Str(), nil
}

// evalString reads a Runtime.evaluate reply: the string result (ok), ok false for any other
// type, or the page's exception.
func evalString(raw []byte) (string, bool, error) {
	// The usual reply, read without a generic JSON pass: {"result":{"type":"string","value":"..."}}.
	const head, tail = `{"result":{"type":"string","value":"`, `"}}`
	if len(raw) >= len(head)+len(tail) && string(raw[:len(head)]) == head && string(raw[len(raw)-len(tail):]) == tail {
		if s, ok := unquote(raw[len(head)-1 : len(raw)-len(tail)+1]); ok {
			return s, true, nil
		}
	}
	var r struct {
		Result           proto.RuntimeRemoteObject      `json:"result"`
		ExceptionDetails *proto.RuntimeExceptionDetails `json:"exceptionDetails"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return "", false, err
	}
	if r.ExceptionDetails != nil {
		return "", false, &rod.EvalError{RuntimeExceptionDetails: r.ExceptionDetails}
	}
	if r.Result.Type != proto.RuntimeRemoteObjectTypeString {
		return "", false, nil
	}
	return r.Result.Value.Str(), true, nil
}

// unquote decodes a JSON string literal (quotes included); ok is false when q is not exactly one.
func unquote(q []byte) (string, bool) {
	if len(q) < 2 || q[0] != '"' || q[len(q)-1] != '"' {
		return "", false
	}
	q = q[1 : len(q)-1]
	i := 0
	for i < len(q) && q[i] != '\\' && q[i] != '"' && q[i] >= 0x20 {
		i++
	}
	if i == len(q) {
		return string(q), true
	}
	b := make([]byte, i, len(q))
	copy(b, q[:i])
	for i < len(q) {
		c := q[i]
		switch {
		case c == '"' || c < 0x20:
			return "", false
		case c != '\\':
			b = append(b, c)
			i++
			continue
		}
		if i+1 >= len(q) {
			return "", false
		}
		e := q[i+1]
		i += 2
		switch e {
		case '"', '\\', '/':
			b = append(b, e)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r, ok := hex4(q, i)
			if !ok {
				return "", false
			}
			i += 4
			if utf16.IsSurrogate(r) {
				// A pair is one character; a lone half becomes U+FFFD, as in encoding/json.
				r2 := rune(-1)
				if i+1 < len(q) && q[i] == '\\' && q[i+1] == 'u' {
					r2, _ = hex4(q, i+2)
				}
				if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
					r = d
					i += 6
				} else {
					r = utf8.RuneError
				}
			}
			b = utf8.AppendRune(b, r)
		default:
			return "", false
		}
	}
	return string(b), true
}

func hex4(q []byte, i int) (rune, bool) {
	if i+4 > len(q) {
		return 0, false
	}
	var r rune
	for _, c := range q[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// Element bits of the wire format (see snapshot.js).
const (
	wContext = 1 << iota
	wTextSame
	wInteractive
	wText
	wHref
	wClass
	wHidden
	wDisabled
	wEditable
	wChecked
	wCovered
	wInFrame
	wLabel
	wNameAttr
	wIDAttr
	wValue
	wInputType
	wPlaceholder
	wAriaLabel
	wTitle
	wAlt
	wTestID
	wItem
	wCurrent
	wOptions
	wColor
)

// b64 maps a base64url digit to its value, -1 for other bytes.
var b64 = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	for i, c := range "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_" {
		t[c] = int8(i)
	}
	return t
}()

var errWire = errors.New("malformed snapshot")

// wireReader decodes the wire format; the first error sticks and later reads return zero values.
type wireReader struct {
	s      string
	i      int
	err    error
	tokens []string
	texts  []string
}

func (r *wireReader) fail(what string) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: bad %s at offset %d", errWire, what, r.i)
	}
}

func (r *wireReader) num() int {
	n, shift := 0, 0
	for r.err == nil {
		if r.i >= len(r.s) || shift > 50 {
			r.fail("number")
			return 0
		}
		d := b64[r.s[r.i]]
		r.i++
		if d < 0 {
			r.fail("number")
			return 0
		}
		n |= int(d&31) << shift
		if d < 32 {
			return n
		}
		shift += 5
	}
	return 0
}

func (r *wireReader) signed() int {
	n := r.num()
	if n&1 != 0 {
		return -(n >> 1) - 1
	}
	return n >> 1
}

// str reads a string whose length is in UTF-16 code units.
func (r *wireReader) str() string {
	n := r.num()
	start, i := r.i, r.i
	for n > 0 && i < len(r.s) {
		if c := r.s[i]; c < utf8.RuneSelf {
			i++
			n--
			continue
		}
		c, w := utf8.DecodeRuneInString(r.s[i:])
		i += w
		if c >= 0x10000 {
			n -= 2
		} else {
			n--
		}
	}
	if n != 0 {
		r.fail("string")
		return ""
	}
	r.i = i
	return r.s[start:i]
}

func (r *wireReader) token() string {
	k := r.num()
	if k == 0 {
		s := r.str()
		r.tokens = append(r.tokens, s)
		return s
	}
	if k > len(r.tokens) {
		r.fail("token")
		return ""
	}
	return r.tokens[k-1]
}

func (r *wireReader) text() string {
	k := r.num()
	var s string
	if k == 0 {
		s = r.str()
	} else if k <= len(r.texts) {
		s = r.texts[len(r.texts)-k]
	} else {
		r.fail("text")
		return ""
	}
	r.texts = append(r.texts, s)
	return s
}

// decodeWire turns snapshot.js's wire string (a generation, then a body) into a Snapshot.
func decodeWire(wire string) (*Snapshot, error) {
	r := &wireReader{s: wire}
	gen := r.num()
	return decodeBody(r, gen)
}

// decodeBody decodes the body of a snapshot from r, which must end with it.
func decodeBody(r *wireReader, gen int) (*Snapshot, error) {
	wire := r.s
	s := &Snapshot{Gen: gen, URL: r.str(), Title: r.str(), prep: &prepCache{}}
	n := r.num()
	if r.err != nil {
		return nil, r.err
	}
	if n > len(wire) {
		return nil, fmt.Errorf("%w: %d elements in %d bytes", errWire, n, len(wire))
	}
	s.Elements = make([]Element, n)
	r.tokens = make([]string, 0, 64)
	r.texts = make([]string, 0, 2*n)
	var sel, prevSel []byte
	var x, y, w, h int
	described := map[int]bool{}
	for i := range s.Elements {
		e := &s.Elements[i]
		e.ID = i
		bits := r.num()
		e.Tag = r.token()
		e.Role = r.token()
		e.Parent = -1
		if d := r.num(); d > 0 {
			if d > i {
				r.fail("parent")
			}
			e.Parent = i - d
		}
		e.Shape = r.token()
		sp := unitsToBytes(prevSel, r.num())
		rest := r.str()
		if sp < 0 {
			r.fail("selector")
			break
		}
		sel = append(append(sel[:0], prevSel[:sp]...), rest...)
		prevSel, sel = sel, prevSel
		e.Selector = expandSelector(prevSel)
		x += r.signed()
		y += r.signed()
		w += r.signed()
		h += r.signed()
		e.Box = Box{X: float64(x) / 10, Y: float64(y) / 10, W: float64(w) / 10, H: float64(h) / 10}
		e.Name = r.text()
		e.Interactive = bits&wInteractive != 0
		e.Visible = bits&wHidden == 0
		e.Enabled = bits&wDisabled == 0
		e.Editable = bits&wEditable != 0
		e.Checked = bits&wChecked != 0
		e.Covered = bits&wCovered != 0
		e.InFrame = bits&wInFrame != 0
		if bits&wTextSame != 0 {
			e.Text = e.Name
		}
		if bits&wText != 0 {
			e.Text = r.text()
		}
		if bits&wHref != 0 {
			e.Href = r.text()
		}
		if bits&wClass != 0 {
			e.Class = r.text()
		}
		if bits&wLabel != 0 {
			e.Label = r.text()
		}
		if bits&wNameAttr != 0 {
			e.NameAttr = r.text()
		}
		if bits&wIDAttr != 0 {
			e.IDAttr = r.text()
		}
		if bits&wValue != 0 {
			e.Value = r.text()
		}
		if bits&wInputType != 0 {
			e.InputType = r.token()
		}
		if bits&wPlaceholder != 0 {
			e.Placeholder = r.text()
		}
		if bits&wAriaLabel != 0 {
			e.AriaLabel = r.text()
		}
		if bits&wTitle != 0 {
			e.Title = r.text()
		}
		if bits&wAlt != 0 {
			e.Alt = r.text()
		}
		if bits&wTestID != 0 {
			e.TestID = r.text()
		}
		if bits&wContext != 0 {
			e.Context = r.token()
		}
		if bits&wItem != 0 {
			e.Item = r.num()
			e.ItemKind = r.token()
			e.ItemUp = r.num()
			// Then each container further out not yet described (see itemTokOf).
			described[e.Item] = true
			for a := e.ItemUp; a != 0 && !described[a] && r.err == nil; {
				described[a] = true
				c := Container{Item: a, Kind: r.token(), Up: r.num()}
				s.Containers = append(s.Containers, c)
				a = c.Up
			}
		}
		if bits&wCurrent != 0 {
			e.Current = r.text()
		}
		if bits&wOptions != 0 {
			e.Options = r.text()
		}
		if bits&wColor != 0 {
			e.Color = r.text()
		}
		if r.err != nil {
			break
		}
	}
	if r.err == nil && r.i != len(wire) {
		r.fail("end")
	}
	if r.err != nil {
		return nil, r.err
	}
	return s, nil
}

// unitsToBytes returns the length in bytes of s's first n UTF-16 code units, or -1 when s is
// shorter or n ends inside a character.
func unitsToBytes[S ~string | ~[]byte](s S, n int) int {
	i := 0
	for n > 0 && i < len(s) {
		if s[i] < utf8.RuneSelf {
			i++
			n--
			continue
		}
		// Not ASCII (rare in selectors and names): at most utf8.UTFMax bytes to decode.
		r, w := utf8.DecodeRuneInString(string(s[i:min(i+utf8.UTFMax, len(s))]))
		i += w
		if r >= 0x10000 {
			n -= 2
		} else {
			n--
		}
	}
	if n != 0 {
		return -1
	}
	return i
}

// expandSelector turns a compact selector ("body/main/1#x/a/2") into the real one
// ("body > main:nth-of-type(1)#x > a:nth-of-type(2)"): "/tag/n" stands for " > tag:nth-of-type(n)";
// a backslash escape of an id is copied as is.
func expandSelector(c []byte) string {
	var b strings.Builder
	b.Grow(len(c) + 8*bytes.Count(c, []byte{'/'}))
	for i := 0; i < len(c); {
		switch c[i] {
		case '\\':
			b.WriteByte('\\')
			if i+1 < len(c) {
				b.WriteByte(c[i+1])
			}
			i += 2
		case '/':
			j := i + 1
			for j < len(c) && c[j] != '/' {
				j++
			}
			k := j + 1
			for k < len(c) && c[k] >= '0' && c[k] <= '9' {
				k++
			}
			if j >= len(c) || k == j+1 {
				// Not a step (cannot happen with snapshot.js): keep it literally.
				b.Write(c[i:])
				return b.String()
			}
			b.WriteString(" > ")
			b.Write(c[i+1 : j])
			b.WriteString(":nth-of-type(")
			b.Write(c[j+1 : k])
			b.WriteByte(')')
			i = k
		default:
			b.WriteByte(c[i])
			i++
		}
	}
	return b.String()
}

// handleJS returns the live element of snapshot gen at index i, or null when it is gone (the
// page navigated, the snapshot was evicted, or the element was removed from the document).
const handleJS = `(key, gen, i) => {
	const store = window[key];
	const els = store && store.snaps.get(gen);
	const el = els && els[i];
	return el && el.isConnected ? el : null;
}`

// Handle returns the live element that the snapshot's element id refers to. It fails with
// errs.TargetNotFound when the element is gone: removed from the page, or the page navigated.
func (s *Snapshot) Handle(ctx context.Context, page *rod.Page, id int) (*rod.Element, error) {
	if s.Gen == 0 {
		return nil, fmt.Errorf("snapshot has no page-side handles (it was not taken by Snap)")
	}
	if id < 0 || id >= len(s.Elements) {
		return nil, fmt.Errorf("element id %d out of range 0..%d", id, len(s.Elements)-1)
	}
	p := page.Context(ctx)
	res, err := p.Evaluate(rod.Eval(handleJS, windowKey, s.Gen, id).ByObject())
	if err != nil {
		return nil, fmt.Errorf("element handle: %w", err)
	}
	if res.Subtype != proto.RuntimeRemoteObjectSubtypeNode {
		el := s.Elements[id]
		return nil, errs.E(errs.TargetNotFound, "element %s %q (%s) is no longer on the page", el.Role, el.Name, el.Selector)
	}
	if !s.Elements[id].InFrame {
		return p.ElementFromObject(res)
	}
	// An iframe's element must be addressed in its own frame's JS world, or rod's helpers fail
	// ("Argument should belong to the same JavaScript world"): re-resolve it by backend node id.
	desc, err := proto.DOMDescribeNode{ObjectID: res.ObjectID}.Call(p)
	if err != nil {
		return nil, fmt.Errorf("element handle: %w", err)
	}
	return p.ElementFromNode(&proto.DOMNode{BackendNodeID: desc.Node.BackendNodeID})
}
