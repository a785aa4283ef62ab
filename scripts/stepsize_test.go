package scripts

import (
	"log/slog"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestBoundDetail_WithoutStore: with nowhere to keep it, an outsized value is cut to its preview
// and says so; values within the bound are left as they are.
func TestBoundDetail_WithoutStore(t *testing.T) {
	long := strings.Repeat("é", MaxStepValue) // 2 bytes each: over the bound
	list := make([]string, 4000)              // 28 KB of JSON
	for i := range list {
		list[i] = "item"
	}
	step := &Step{Detail: map[string]any{"value": long, "items": list, "small": "ok", "count": 3}}
	e := &Env{RunID: "r_1", Account: "acme", Logger: slog.New(slog.DiscardHandler)}
	e.boundDetail(step, 0)

	for key, wantPrefix := range map[string]string{"value": "éé", "items": `["item","item"`} {
		link, ok := step.Detail[key].(map[string]any)
		if !ok || link["truncated"] != true || link["artifact"] != nil {
			t.Fatalf("%s: %.100v, want a truncated preview", key, step.Detail[key])
		}
		p := link["preview"].(string)
		if !strings.HasPrefix(p, wantPrefix) || utf8.RuneCountInString(p) != stepPreview+1 || !strings.HasSuffix(p, "…") {
			t.Errorf("%s preview %q", key, p)
		}
	}
	if step.Detail["small"] != "ok" || step.Detail["count"] != 3 {
		t.Errorf("small values changed: %v", step.Detail)
	}
}

func TestPreview(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"short", "short"},
		{strings.Repeat("a", stepPreview), strings.Repeat("a", stepPreview)},
		{strings.Repeat("ü", stepPreview+1), strings.Repeat("ü", stepPreview) + "…"},
	} {
		if got := preview(tc.in); got != tc.want {
			t.Errorf("preview(%d runes) = %q", utf8.RuneCountInString(tc.in), got)
		}
	}
}

// TestBoundDetail_Inline: a runner whose runs are not stored (rodeo run) keeps values whole.
func TestBoundDetail_Inline(t *testing.T) {
	long := strings.Repeat("x", 2*MaxStepValue)
	step := &Step{Detail: map[string]any{"value": long}}
	e := &Env{RunID: "r_1", Account: "acme", Logger: slog.New(slog.DiscardHandler),
		runner: &Runner{Services: &Services{InlineStepValues: true}}}
	e.boundDetail(step, 0)
	if step.Detail["value"] != long {
		t.Errorf("value became %.100v", step.Detail["value"])
	}
}
