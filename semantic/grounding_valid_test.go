package semantic

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGroundingCorpusValid checks the corpus itself, not the ranker: every file decodes with no
// unknown field, every case has a description, a known intent and a valid match, no page asks the
// same thing twice, and every expected element exists, is in the snapshot and is visible (hidden
// elements never win, so a case expecting one would be a corpus bug). It prints no accuracy, so
// whoever writes held-out pages can run it without seeing how the ranker does on them.
func TestGroundingCorpusValid(t *testing.T) {
	// A selector that matches no snapshot element fails the page's load in Chrome; the frozen
	// pages were loaded so when they were frozen, and their digests say they are the pages now.
	pages := corpusPages(t)
	held, cases := 0, 0
	for _, gp := range pages {
		raw, err := os.ReadFile(filepath.Join(groundingDir, gp.name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		var strict groundingFile
		if err := dec.Decode(&strict); err != nil {
			t.Errorf("%s: %v", gp.name, err)
		}
		if len(gp.file.Cases) == 0 {
			t.Errorf("%s: no cases", gp.name)
		}
		seen := map[string]bool{}
		for i, c := range gp.file.Cases {
			cases++
			where := gp.name + ": " + c.Description
			switch {
			case strings.TrimSpace(c.Description) == "":
				t.Errorf("%s: case %d has no description", gp.name, i)
			case seen[strings.ToLower(c.Description)]:
				t.Errorf("%s: asked twice", where)
			}
			seen[strings.ToLower(c.Description)] = true
			switch c.Intent {
			case "click", "type", "read", "any", "":
			default:
				t.Errorf("%s: intent %q is not click, type, read or any", where, c.Intent)
			}
			if c.Match != "" {
				if !validMatch(c.Match) {
					t.Errorf("%s: match %q is not first, last or a number", where, c.Match)
				}
			}
			visible := false
			for _, id := range gp.ok[i] {
				visible = visible || gp.snapOf(i).Elements[id].Visible
			}
			if !visible {
				t.Errorf("%s: the expected element %q is not visible", where, c.Want)
			}
		}
		if gp.holdout {
			held++
		}
	}
	t.Logf("corpus: %d pages (%d held out), %d cases", len(pages), held, cases)
}
