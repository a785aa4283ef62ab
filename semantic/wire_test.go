package semantic

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/go-rod/rod"
)

// TestUnquote checks the fast JSON string decoder against encoding/json.
func TestUnquote(t *testing.T) {
	for _, s := range []string{
		``, `plain`, `a "quoted" \ back\slash / slash`, "tab\tnew\nline\r\f\b", "\x01\x1f ctl",
		`emoji 👍🏽 日本語 ©`, "\u2028\u2029", `\u00e9`,
	} {
		q, _ := json.Marshal(s)
		got, ok := unquote(q)
		if !ok || got != s {
			t.Errorf("unquote(%s) = %q, %v; want %q", q, got, ok, s)
		}
	}
	for _, q := range []string{`"\ud83d\udc4d"`, `"\ud800x"`, `"x\udc00"`, `"\ud800\ud800"`, `"\u00E9\/"`} {
		var want string
		if err := json.Unmarshal([]byte(q), &want); err != nil {
			t.Fatal(err)
		}
		if got, ok := unquote([]byte(q)); !ok || got != want {
			t.Errorf("unquote(%s) = %q, %v; want %q", q, got, ok, want)
		}
	}
	for _, q := range []string{`"`, `x`, `"a"b"`, `"\x"`, `"\u12"`, "\"a\nb\"", `"\"`} {
		if _, ok := unquote([]byte(q)); ok {
			t.Errorf("unquote(%s) accepted", q)
		}
	}
}

// TestDecodeWire_Malformed feeds truncated and corrupted snapshots: errors, never panics.
func TestDecodeWire_Malformed(t *testing.T) {
	// gen 1, url "u", title "", 1 element: bits 0, tag "a", role "b", no parent, shape "c",
	// selector "body", box 0 0 0 0, name "n".
	good := "B" + "Bu" + "A" + "B" + "A" + "ABa" + "ABb" + "A" + "ABc" + "A" + "Ebody" + "AAAA" + "ABn"
	s, err := decodeWire(good)
	if err != nil {
		t.Fatal(err)
	}
	if e := s.Elements[0]; e.Tag != "a" || e.Role != "b" || e.Shape != "c" || e.Selector != "body" || e.Name != "n" || e.Parent != -1 || !e.Visible {
		t.Fatalf("decoded %+v", e)
	}
	for i := 0; i < len(good); i++ {
		if _, err := decodeWire(good[:i]); err == nil {
			t.Errorf("truncated at %d: no error", i)
		}
		for _, c := range []byte{'!', '_', 'z', 'A'} {
			_, _ = decodeWire(good[:i] + string(c) + good[i+1:])
		}
	}
	if _, err := decodeWire(good + "A"); err == nil {
		t.Error("trailing data: no error")
	}
}

func TestExpandSelector(t *testing.T) {
	for c, want := range map[string]string{
		"body":                    "body",
		"body/main/1/a/12":        "body > main:nth-of-type(1) > a:nth-of-type(12)",
		`#a\/b/x-a!b/2`:           `#a\/b > x-a!b:nth-of-type(2)`,
		"#sh >>> #ih >>>/a/1":     "#sh >>> #ih >>> > a:nth-of-type(1)",
		"#fr >>> html/body/1/p/3": "#fr >>> html > body:nth-of-type(1) > p:nth-of-type(3)",
		`#\31 abc`:                `#\31 abc`,
		"body/div/":               "body/div/",
		strings.Repeat("/i/1", 3): strings.Repeat(" > i:nth-of-type(1)", 3),
	} {
		if got := expandSelector([]byte(c)); got != want {
			t.Errorf("expandSelector(%q) = %q, want %q", c, got, want)
		}
	}
}

// TestDecodeWire_MalformedContainers truncates and corrupts a real snapshot whose elements
// carry chains of containers (see itemTokOf): errors, never panics, never a loop.
func TestDecodeWire_MalformedContainers(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test")
	}
	p, s := snapFixture(t, "framework.html")
	if len(s.Containers) == 0 {
		t.Fatal("the fixture has no container described only by the chain")
	}
	res, err := p.Evaluate(rod.Eval(`(k, f) => window[k][f](0, 0, true)`, windowKey, snapFn))
	if err != nil {
		t.Fatal(err)
	}
	body := withoutGen(t, res.Value.Str())
	if got, err := decodeBody(&wireReader{s: body}, 1); err != nil || len(got.Containers) != len(s.Containers) {
		t.Fatalf("whole body: %v, %d containers, want %d", err, len(got.Containers), len(s.Containers))
	}
	for i := 0; i < len(body); i += max(1, len(body)/500) {
		if _, err := decodeBody(&wireReader{s: body[:i]}, 1); err == nil {
			t.Errorf("truncated at %d: no error", i)
		}
		for _, c := range []byte{'!', '_', 'z', 'A'} {
			_, _ = decodeBody(&wireReader{s: body[:i] + string(c) + body[i+1:]}, 1)
		}
	}
}
