package nodes

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
)

// Code templating: {{name}} inside python and bash code becomes a literal of the language, so a
// variable's content (a webhook's `data`, a scraped text) can never become code. A placeholder
// the author wrapped in quotes ("{{x}}", '{{x}}', f"{{x}}", $'{{x}}') is replaced together with
// its quotes; one inside a longer string is escaped for that string; one in a comment is made
// harmless. The contexts that cannot be quoted safely (bash here-documents, backquotes, ${…};
// Python raw or bytes strings) are refused with an error instead of guessed at.
//
// Both templaters are small lexers: they follow the source's strings, comments and nesting far
// enough to know what a placeholder is inside of, and copy everything else unchanged.

func init() {
	scripts.RegisterCodeTemplater("python", templatePython)
	scripts.RegisterCodeTemplater("bash", templateBash)
}

// codePlaceholder is scripts' {{ name }} syntax.
var codePlaceholder = regexp.MustCompile(`\{\{\s*([A-Za-z_][A-Za-z0-9_.\-]*)\s*\}\}`)

// lexBase is what both lexers share: the source, the output, the placeholders by offset and the
// variables they name.
type lexBase struct {
	src     string
	i       int
	out     strings.Builder
	at      map[int]int    // placeholder start -> end
	names   map[int]string // placeholder start -> variable name
	value   func(string) (any, bool)
	missing []string
	err     error
}

func newLexBase(src string, value func(string) (any, bool)) *lexBase {
	l := &lexBase{src: src, value: value, at: map[int]int{}, names: map[int]string{}}
	for _, m := range codePlaceholder.FindAllStringSubmatchIndex(src, -1) {
		l.at[m[0]] = m[1]
		l.names[m[0]] = src[m[2]:m[3]]
	}
	return l
}

// placeholderAt returns the end of a placeholder starting at i and the variable it names.
func (l *lexBase) placeholderAt(i int) (end int, name string, ok bool) {
	end, ok = l.at[i]
	return end, l.names[i], ok
}

// lookup reads a placeholder's variable, remembering missing ones for one error at the end.
func (l *lexBase) lookup(name string) any {
	v, ok := l.value(name)
	if !ok {
		l.missing = append(l.missing, name)
	}
	return v
}

func (l *lexBase) fail(format string, args ...any) {
	if l.err == nil {
		l.err = errs.E(errs.InvalidConfig, format, args...)
	}
}

func (l *lexBase) result() (string, error) {
	if l.err != nil {
		return "", l.err
	}
	if len(l.missing) > 0 {
		return "", errs.E(errs.VariableNotSet, "variable %s is not set (used as {{%s}})", strings.Join(l.missing, ", "), l.missing[0])
	}
	return l.out.String(), nil
}

func (l *lexBase) eof() bool       { return l.i >= len(l.src) || l.err != nil }
func (l *lexBase) peek(n int) byte { return byteAt(l.src, l.i+n) }
func (l *lexBase) has(s string) bool {
	return strings.HasPrefix(l.src[l.i:], s)
}
func (l *lexBase) copyN(n int) {
	n = min(n, len(l.src)-l.i)
	l.out.WriteString(l.src[l.i : l.i+n])
	l.i += n
}

func byteAt(s string, i int) byte {
	if i < 0 || i >= len(s) {
		return 0
	}
	return s[i]
}

func isIdent(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// ---- Python ----

// pyLiteral renders a variable's value as a Python expression that evaluates to it: strings as
// ASCII-only quoted literals (everything else escaped), numbers, True/False/None, lists and dicts.
func pyLiteral(v any, quote byte) string {
	switch t := v.(type) {
	case nil:
		return "None"
	case bool:
		if t {
			return "True"
		}
		return "False"
	case string:
		return string(quote) + pyEscape(t) + string(quote)
	case float64:
		return pyNumber(t)
	case json.Number:
		if f, err := t.Float64(); err == nil {
			return pyNumber(f)
		}
		return string(quote) + pyEscape(t.String()) + string(quote)
	case int:
		return pyNumber(float64(t))
	case int64:
		return pyNumber(float64(t))
	case []any:
		parts := make([]string, len(t))
		for i, x := range t {
			parts[i] = pyLiteral(x, quote)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = pyLiteral(k, quote) + ": " + pyLiteral(t[k], quote)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	// Anything else goes through JSON so that it is one of the cases above.
	b, err := json.Marshal(v)
	if err != nil {
		return pyLiteral(fmt.Sprint(v), quote)
	}
	var back any
	if json.Unmarshal(b, &back) != nil {
		return pyLiteral(string(b), quote)
	}
	return pyLiteral(back, quote)
}

func pyNumber(f float64) string {
	var s string
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return "float(" + strconv.Quote(strconv.FormatFloat(f, 'g', -1, 64)) + ")"
	case f == math.Trunc(f) && math.Abs(f) < 1e15:
		s = strconv.FormatInt(int64(f), 10)
	default:
		s = strconv.FormatFloat(f, 'g', -1, 64)
	}
	if f < 0 {
		return "(" + s + ")" // 2**{{n}} stays a power of a negative number
	}
	return s
}

// pyEscape escapes s for the inside of any non-raw Python string literal: printable ASCII except
// quotes and backslash stays, everything else becomes an escape, so the result has no quote, no
// line break and no non-ASCII character that could end the literal or the line.
func pyEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\\' || r == '"' || r == '\'':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r >= 0x20 && r < 0x7f:
			b.WriteRune(r)
		case r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r < 0x10000:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	return b.String()
}

type pyLexer struct {
	*lexBase
	// fquotes are the quotes of the f-strings whose replacement fields enclose the position.
	fquotes []byte
}

func templatePython(code string, value func(string) (any, bool)) (string, error) {
	l := &pyLexer{lexBase: newLexBase(code, value)}
	l.code(false)
	for !l.eof() { // a stray '}' at the top level: copy it and go on
		l.copyN(1)
		l.code(false)
	}
	return l.result()
}

// literalQuote picks a quote for a literal that no enclosing f-string uses (Python before 3.12
// cannot reuse it inside a replacement field).
func (l *pyLexer) literalQuote() (byte, bool) {
	for _, q := range []byte{'"', '\''} {
		used := false
		for _, f := range l.fquotes {
			used = used || f == q
		}
		if !used {
			return q, true
		}
	}
	return 0, false
}

// emitLiteral writes a value as a literal at a code position.
func (l *pyLexer) emitLiteral(name string) {
	q, ok := l.literalQuote()
	if !ok {
		l.fail("{{%s}} is nested too deeply inside f-strings to be filled safely", name)
		return
	}
	s := l.out.String()
	if len(s) > 0 && isIdent(s[len(s)-1]) {
		l.out.WriteByte(' ') // f{{x}} must not make a string prefix of the letter before
	}
	l.out.WriteString(pyLiteral(l.lookup(name), q))
}

// code copies code until the end, or in a replacement field (inField) until its closing '}'.
func (l *pyLexer) code(inField bool) {
	depth := 0
	for !l.eof() {
		if end, name, ok := l.placeholderAt(l.i); ok {
			l.emitLiteral(name)
			l.i = end
			continue
		}
		c := l.peek(0)
		switch {
		case c == '#':
			l.comment()
		case c == '"' || c == '\'':
			l.str()
		case c == '\\':
			l.copyN(2)
		case c == '(' || c == '[' || c == '{':
			depth++
			l.copyN(1)
		case c == ')' || c == ']' || c == '}':
			if depth == 0 && c == '}' {
				return
			}
			depth--
			l.copyN(1)
		case inField && depth == 0 && c == ':' && l.peek(1) != '=':
			l.copyN(1)
			l.formatSpec()
			return
		default:
			l.copyN(1)
		}
	}
}

// formatSpec copies a replacement field's format spec up to its closing '}', following the
// nested fields it may hold (f"{x:>{width}}"). Placeholders are refused there.
func (l *pyLexer) formatSpec() {
	for !l.eof() {
		if _, name, ok := l.placeholderAt(l.i); ok {
			l.fail("{{%s}} inside an f-string format spec cannot be filled safely", name)
			return
		}
		switch l.peek(0) {
		case '}':
			return
		case '{':
			l.copyN(1)
			l.code(true)
			l.copyN(1)
		case '\n':
			return
		default:
			l.copyN(1)
		}
	}
}

func (l *pyLexer) comment() {
	for !l.eof() && l.peek(0) != '\n' {
		if end, name, ok := l.placeholderAt(l.i); ok {
			// The literal is one line of ASCII, so it cannot end the comment.
			l.out.WriteString(pyLiteral(l.lookup(name), '"'))
			l.i = end
			continue
		}
		l.copyN(1)
	}
}

var pyPrefixes = map[string]bool{"r": true, "u": true, "b": true, "f": true, "t": true,
	"br": true, "rb": true, "fr": true, "rf": true, "tr": true, "rt": true}

// str handles a string literal starting at a quote; its prefix letters are already copied.
func (l *pyLexer) str() {
	// The prefix: the identifier characters just before the quote, when they spell one.
	j := l.i
	for j > 0 && isIdent(l.src[j-1]) {
		j--
	}
	prefix := strings.ToLower(l.src[j:l.i])
	if !pyPrefixes[prefix] {
		prefix = ""
	}
	q := l.src[l.i : l.i+1]
	if l.has(strings.Repeat(q, 3)) {
		q = strings.Repeat(q, 3)
	}
	// The whole body is one placeholder: the literal replaces the string, quotes and prefix.
	if end, name, ok := l.placeholderAt(l.i + len(q)); ok && strings.HasPrefix(l.src[end:], q) {
		s := l.out.String()
		l.out.Reset()
		l.out.WriteString(s[:len(s)-len(prefix)])
		l.emitLiteral(name)
		l.i = end + len(q)
		return
	}
	raw, fstr, bytes := strings.Contains(prefix, "r"), strings.ContainsAny(prefix, "ft"), strings.Contains(prefix, "b")
	l.copyN(len(q))
	for !l.eof() {
		if end, name, ok := l.placeholderAt(l.i); ok {
			if raw || bytes {
				l.fail("{{%s}} is inside a raw or bytes string literal, where it cannot be escaped; put it on its own (x = {{%s}})", name, name)
				return
			}
			s := pyEscape(scripts.Text(l.lookup(name)))
			if fstr {
				s = strings.NewReplacer("{", "{{", "}", "}}").Replace(s)
			}
			l.out.WriteString(s)
			l.i = end
			continue
		}
		c := l.peek(0)
		switch {
		case c == '\\':
			l.copyN(2)
		case l.has(q):
			l.copyN(len(q))
			return
		case c == '\n' && len(q) == 1:
			return // unterminated: Python reports it
		case fstr && (l.has("{{") || l.has("}}")):
			l.copyN(2)
		case fstr && c == '{':
			l.copyN(1)
			l.fquotes = append(l.fquotes, q[0])
			l.code(true)
			l.fquotes = l.fquotes[:len(l.fquotes)-1]
			l.copyN(1)
		default:
			l.copyN(1)
		}
	}
}

// ---- bash ----

// shWord renders a value as one single-quoted shell word: nothing inside is special, and a
// single quote is written as '\” (close, escaped quote, reopen).
func shWord(v any) string {
	return "'" + strings.ReplaceAll(strings.ReplaceAll(scripts.Text(v), "\x00", ""), "'", `'\''`) + "'"
}

type shLexer struct {
	*lexBase
	// heredocs are the delimiters of here-documents whose bodies start at the next line.
	heredocs []heredoc
}

type heredoc struct {
	delim     string
	stripTabs bool
}

func templateBash(code string, value func(string) (any, bool)) (string, error) {
	l := &shLexer{lexBase: newLexBase(code, value)}
	for !l.eof() {
		l.code(false)
		if !l.eof() { // a stray ')' at the top level
			l.copyN(1)
		}
	}
	return l.result()
}

// wordStart reports whether position i begins a shell word (for '#' comments).
func (l *shLexer) wordStart() bool {
	if l.i == 0 {
		return true
	}
	return strings.IndexByte(" \t\n;&|()<>", l.src[l.i-1]) >= 0
}

// code copies shell code until the end, or inside $( … ) (inSub) until its closing ')'.
func (l *shLexer) code(inSub bool) {
	depth, cases := 0, 0
	for !l.eof() {
		if end, name, ok := l.placeholderAt(l.i); ok {
			if prev := l.out.String(); len(prev) > 0 && prev[len(prev)-1] == '$' {
				l.fail("{{%s}} right after '$' cannot be filled safely", name)
				return
			}
			l.out.WriteString(shWord(l.lookup(name)))
			l.i = end
			continue
		}
		c := l.peek(0)
		switch {
		case c == '\\':
			l.copyN(2)
		case c == '#' && l.wordStart():
			l.comment()
		case c == '\'':
			l.single()
		case c == '"':
			l.double()
		case c == '$' && l.peek(1) == '\'':
			l.ansi()
		case c == '$' && l.peek(1) == '(':
			l.copyN(2)
			l.code(true)
			l.copyN(1)
		case c == '$' && l.peek(1) == '{':
			l.param()
		case c == '`':
			l.backquote()
		case l.has("<<<"):
			l.copyN(3)
		case l.has("<<"):
			l.heredocOp()
		case c == '\n':
			l.copyN(1)
			l.heredocBodies()
		case c == '(':
			depth++
			l.copyN(1)
		case c == ')':
			if depth == 0 && cases == 0 && inSub {
				return
			}
			if depth > 0 {
				depth--
			}
			l.copyN(1)
		case isIdent(c) && (l.i == 0 || !isIdent(l.src[l.i-1])):
			j := l.i
			for j < len(l.src) && isIdent(l.src[j]) {
				j++
			}
			switch l.src[l.i:j] {
			case "case":
				cases++
			case "esac":
				cases = max(cases-1, 0)
			}
			l.copyN(j - l.i)
		default:
			l.copyN(1)
		}
	}
}

func (l *shLexer) comment() {
	for !l.eof() && l.peek(0) != '\n' {
		if end, name, ok := l.placeholderAt(l.i); ok {
			// A comment ends at a line break: keep the value on one line.
			s := strings.Map(func(r rune) rune {
				if r < 0x20 || r == 0x7f {
					return ' '
				}
				return r
			}, scripts.Text(l.lookup(name)))
			l.out.WriteString(s)
			l.i = end
			continue
		}
		l.copyN(1)
	}
}

// single copies '…'; a placeholder inside closes the quote, adds the word and reopens.
func (l *shLexer) single() {
	if end, name, ok := l.placeholderAt(l.i + 1); ok && byteAt(l.src, end) == '\'' {
		l.out.WriteString(shWord(l.lookup(name)))
		l.i = end + 1
		return
	}
	l.copyN(1)
	for !l.eof() {
		if end, name, ok := l.placeholderAt(l.i); ok {
			l.out.WriteString("'" + shWord(l.lookup(name)) + "'")
			l.i = end
			continue
		}
		if l.peek(0) == '\'' {
			l.copyN(1)
			return
		}
		l.copyN(1)
	}
}

// ansi copies $'…' (backslash escapes inside).
func (l *shLexer) ansi() {
	if end, name, ok := l.placeholderAt(l.i + 2); ok && byteAt(l.src, end) == '\'' {
		l.out.WriteString(shWord(l.lookup(name)))
		l.i = end + 1
		return
	}
	l.copyN(2)
	for !l.eof() {
		if end, name, ok := l.placeholderAt(l.i); ok {
			l.out.WriteString("'" + shWord(l.lookup(name)) + "$'")
			l.i = end
			continue
		}
		switch l.peek(0) {
		case '\\':
			l.copyN(2)
		case '\'':
			l.copyN(1)
			return
		default:
			l.copyN(1)
		}
	}
}

// double copies "…", following $( … ) inside; a placeholder closes the quote, adds the word and
// reopens it.
func (l *shLexer) double() {
	if end, name, ok := l.placeholderAt(l.i + 1); ok && byteAt(l.src, end) == '"' {
		l.out.WriteString(shWord(l.lookup(name)))
		l.i = end + 1
		return
	}
	l.copyN(1)
	for !l.eof() {
		if end, name, ok := l.placeholderAt(l.i); ok {
			l.out.WriteString(`"` + shWord(l.lookup(name)) + `"`)
			l.i = end
			continue
		}
		c := l.peek(0)
		switch {
		case c == '\\':
			l.copyN(2)
		case c == '"':
			l.copyN(1)
			return
		case c == '$' && l.peek(1) == '(':
			l.copyN(2)
			l.code(true)
			l.copyN(1)
		case c == '$' && l.peek(1) == '{':
			l.param()
		case c == '`':
			l.backquote()
		default:
			l.copyN(1)
		}
	}
}

// param copies ${ … }; placeholders there are refused (the word after :- and friends is
// expanded in ways a quoted word does not survive).
func (l *shLexer) param() {
	l.copyN(2)
	depth := 0
	for !l.eof() {
		if _, name, ok := l.placeholderAt(l.i); ok {
			l.fail("{{%s}} inside ${…} cannot be filled safely; assign it first (v={{%s}}) and use ${v…}", name, name)
			return
		}
		switch l.peek(0) {
		case '\\':
			l.copyN(2)
		case '{':
			depth++
			l.copyN(1)
		case '}':
			l.copyN(1)
			if depth == 0 {
				return
			}
			depth--
		case '\'':
			l.single()
		case '"':
			l.double()
		default:
			l.copyN(1)
		}
	}
}

// backquote copies `…`; placeholders there are refused (a backquote in the value would end it).
func (l *shLexer) backquote() {
	l.copyN(1)
	for !l.eof() {
		if _, name, ok := l.placeholderAt(l.i); ok {
			l.fail("{{%s}} inside `…` cannot be filled safely; use $(…) instead of backquotes", name)
			return
		}
		switch l.peek(0) {
		case '\\':
			l.copyN(2)
		case '`':
			l.copyN(1)
			return
		default:
			l.copyN(1)
		}
	}
}

// heredocOp copies a << or <<- operator and its delimiter word and remembers the here-document.
func (l *shLexer) heredocOp() {
	l.copyN(2)
	h := heredoc{}
	if l.peek(0) == '-' {
		h.stripTabs = true
		l.copyN(1)
	}
	for l.peek(0) == ' ' || l.peek(0) == '\t' {
		l.copyN(1)
	}
	var delim strings.Builder
	for !l.eof() {
		c := l.peek(0)
		if strings.IndexByte(" \t\n;&|()<>", c) >= 0 {
			break
		}
		if _, name, ok := l.placeholderAt(l.i); ok {
			l.fail("{{%s}} as a here-document delimiter cannot be filled safely", name)
			return
		}
		switch c {
		case '\'', '"':
			j := strings.IndexByte(l.src[l.i+1:], c)
			if j < 0 {
				l.copyN(len(l.src))
				return
			}
			delim.WriteString(l.src[l.i+1 : l.i+1+j])
			l.copyN(j + 2)
		case '\\':
			delim.WriteByte(l.peek(1))
			l.copyN(2)
		default:
			delim.WriteByte(c)
			l.copyN(1)
		}
	}
	if delim.Len() > 0 {
		h.delim = delim.String()
		l.heredocs = append(l.heredocs, h)
	}
}

// heredocBodies copies the bodies of the pending here-documents, which start at this line.
// Placeholders there are refused: in an unquoted body $(…) runs and quotes mean nothing, and in
// a quoted one a line of the value could end the document.
func (l *shLexer) heredocBodies() {
	for _, h := range l.heredocs {
		for !l.eof() {
			end := strings.IndexByte(l.src[l.i:], '\n')
			if end < 0 {
				end = len(l.src) - l.i
			}
			line := l.src[l.i : l.i+end]
			for j := l.i; j < l.i+end; j++ {
				if _, name, ok := l.placeholderAt(j); ok {
					l.fail("{{%s}} inside a here-document cannot be filled safely; assign it first (v={{%s}}) and use \"$v\"", name, name)
					return
				}
			}
			l.copyN(end + 1)
			check := line
			if h.stripTabs {
				check = strings.TrimLeft(line, "\t")
			}
			if check == h.delim {
				break
			}
		}
	}
	l.heredocs = nil
}
