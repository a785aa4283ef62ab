package semantic

import (
	"os"
	"strings"
	"testing"
)

// TestAblation checks that every rule it names has a switch and measures, with
// GROUNDING_ABLATE=1, what each named rule earns: the top-1 cases
// lost on the tuning pages and on each held-out part when it alone is switched off, as the
// table in docs/PERFORMANCE.md. A rule that costs no held-out case and at most one tuning case
// is a candidate for deletion.
func TestAblation(t *testing.T) {
	// Every rule the table names has a switch in the code (a misspelt name would measure nothing).
	src := ""
	for _, f := range []string{"resolve.go", "rank.go", "fresh.go"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src += string(b)
	}
	for _, r := range switchedRules() {
		if !strings.Contains(src, `ruleOn("`+r+`")`) {
			t.Errorf("rule %q has no switch (ruleOn) in the code", r)
		}
	}
	if os.Getenv("GROUNDING_ABLATE") == "" {
		return // the measurement itself takes about a minute: GROUNDING_ABLATE=1
	}
	pages := loadFrozen(t)
	base := tallyParts(evalFrozen(pages))
	t.Logf("| rule | tuning Δ | held-out y Δ | held-out p, q Δ |")
	for _, r := range switchedRules() {
		rulesOff = map[string]bool{r: true}
		got := tallyParts(evalFrozen(pages))
		rulesOff = nil
		t.Logf("| %s | %+d | %+d | %+d |", r, got["tuning"]-base["tuning"], got["y"]-base["y"], got["p"]+got["q"]-base["p"]-base["q"])
	}
}

// tallyParts counts top-1 cases on the tuning pages and per held-out part.
func tallyParts(outs []groundingOutcome) map[string]int {
	m := map[string]int{}
	for _, o := range outs {
		k := "tuning"
		if o.holdout {
			k = strings.TrimPrefix(o.page, heldOutDir+"/")[:1]
		}
		m[k] += int(b2f(o.top1))
	}
	return m
}
