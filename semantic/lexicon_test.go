package semantic

import (
	"strings"
	"testing"
)

// TestLexiconLoads checks the shipped lexicon and that a broken one is refused with the entry
// at fault named, so a bad edit of data/lexicon.json stops the program at start.
func TestLexiconLoads(t *testing.T) {
	l, err := loadLexicon(lexiconJSON)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Rewrites) == 0 || len(l.Alternatives) == 0 || len(l.Concepts) == 0 || len(l.Spellings.Pairs) == 0 || len(l.ForeignWords) == 0 {
		t.Fatalf("the shipped lexicon lacks a table: %d rewrites, %d alternatives, %d concepts, %d spellings, %d languages",
			len(l.Rewrites), len(l.Alternatives), len(l.Concepts), len(l.Spellings.Pairs), len(l.ForeignWords))
	}
	cases := []struct{ name, raw, want string }{
		{"not json", `{`, "unexpected EOF"},
		{"unknown field", `{"v": 1, "synonyms": []}`, `unknown field "synonyms"`},
		{"wrong version", `{"v": 2}`, "version 2"},
		{"bad expression", `{"v": 1, "rewrites": [{"match": "(?i)\\bcart(", "to": "basket"}]}`, "missing closing )"},
		{"unknown pattern", `{"v": 1, "rewrites": [{"match": "{{nowhere}} x", "to": "y"}]}`, "names no pattern {{nowhere}}"},
		{"word twice", `{"v": 1, "alternatives": [{"word": "cart", "page_says": ["bag"]}, {"word": "cart", "page_says": ["basket"]}]}`, `"cart" is empty or listed twice`},
		{"empty alternative", `{"v": 1, "directed_alternatives": [{"word": "cart", "page_says": []}]}`, `"cart" is empty`},
		{"foreign word not lowercase", `{"v": 1, "foreign_words": {"German": {"Kasse": "checkout"}}}`, `word "Kasse"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := loadLexicon([]byte(c.raw))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("loadLexicon = %v, want an error with %q", err, c.want)
			}
		})
	}
}

// TestLexiconRewritesApply checks that the lexicon's rewrites and patterns reach the parser: a
// phrase people say becomes the page's word, and a named pattern works inside a rewrite.
func TestLexiconRewritesApply(t *testing.T) {
	cases := []struct{ in, want string }{
		{"the thumbs up on the first answer", "the like on the first answer"},
		{"show only unread messages", "only unread in the messages"},
		{"move Yuki Sato to the next stage", "advance Yuki Sato next stage"},
	}
	for _, c := range cases {
		if got := strings.Join(strings.Fields(rewritePhrases(c.in)), " "); got != c.want {
			t.Errorf("rewritePhrases(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
