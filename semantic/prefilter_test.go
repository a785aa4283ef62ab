package semantic

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
)

func TestLiteralNeeds(t *testing.T) {
	cases := []struct {
		re   string
		want []string // nil: the expression may match anything
	}{
		{`(?i)\bthumbs? ?up\b`, []string{"THUMB"}},
		{`(?i)\bhang up\b`, []string{"HANG UP"}},
		{`(?:^|\s)[xX](?:\s|$)`, []string{"X"}},
		{`(?i)\bkebab\b|\bmeatballs?\b`, []string{"KEBAB", "MEATBALL"}},
		{`[⋮⋯]`, []string{"⋮", "⋯"}},
		{`(?i)^\s*pay (?:with|by) (.+)$`, []string{"PAY "}},
		{`(?i)\b(?:that|which)?\s*not\s+full\b`, []string{"FULL"}},
		{`(?i)ſ`, []string{"S"}},             // the long s folds to S, as a description's "s" does
		{`\d+`, nil},                         // a class too large to branch on
		{`(?i)(?:a|\w+)b?`, nil},             // one alternative needs nothing
		{`(?i)^\s*(?:go|get)?\s*$`, nil},     // only optional parts
		{`(?i)x{2,}`, []string{"X"}},         // a repeat of at least one
		{`(?i)(?:foo)*bar`, []string{"BAR"}}, // a star needs nothing, the rest does
	}
	for _, c := range cases {
		got := literalNeeds(regexp.MustCompile(c.re))
		if !slices.Equal(got, c.want) {
			t.Errorf("literalNeeds(%q) = %q, want %q", c.re, got, c.want)
		}
	}
}

// TestRewriteNeeds: a rewrite is skipped only when it cannot match. Every tuning description
// (and each as the rewrites before a rule leave it) is tried against every rewrite: when the
// expression matches, its needs must say it may. And the rewritten descriptions are the ones
// the plain loop over all expressions gives.
func TestRewriteNeeds(t *testing.T) {
	descs := []string{
		"send an E-MAIL to support", "the ⋯ menu", "the … button", "give it a thumbs-up",
		"what did the ſeller say", "show only my favourite channels", "x", "the X in the corner",
		"switch the from and to airports", "classes that aren't full", "pay by card",
	}
	files, _ := filepath.Glob(filepath.Join(groundingDir, "*.json"))
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var gf groundingFile
		if err := json.Unmarshal(raw, &gf); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, c := range gf.Cases {
			descs = append(descs, c.Description)
		}
	}
	if len(descs) < 1000 {
		t.Fatalf("only %d descriptions: is the corpus at %s?", len(descs), groundingDir)
	}
	check := func(w *rewriter, s string) string {
		for i, r := range w.rules {
			if r.re.MatchString(s) && !mayMatch(foldCase(s), w.needs[i]) {
				t.Errorf("%q matches %q, but its needs %q skip it", s, r.re, w.needs[i])
			}
			s = r.re.ReplaceAllString(s, r.out)
		}
		return s
	}
	skipped := 0
	for _, d := range descs {
		plain := check(vocabularyRewriter, check(phraseRewriter, d))
		if got := vocabularyRewriter.apply(phraseRewriter.apply(d)); got != plain {
			t.Errorf("%q: rewritten to %q, the plain loop gives %q", d, got, plain)
		}
		for i := range phraseRewriter.rules {
			if !mayMatch(foldCase(d), phraseRewriter.needs[i]) {
				skipped++
			}
		}
	}
	t.Logf("%d descriptions; %.0f%% of phrase rewrites skipped", len(descs), 100*float64(skipped)/float64(len(descs)*len(phraseRewriter.rules)))
}
