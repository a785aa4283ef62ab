package semantic

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

// The lexicon is the engine's vocabulary as data (data/lexicon.json): phrase rewrites of what
// people say into the words pages use, word alternatives a page may say for a description's
// word (one way or among a group that names one concept), American and British spellings, and
// the interface words of other languages read as English. Each entry carries the example that
// says why it is there. Adding a word is an edit of the file, measured on the corpus like any
// change; the code that reads it is the same for every entry.

//go:embed data/lexicon.json
var lexiconJSON []byte

// lexiconVersion is the format of data/lexicon.json this code reads.
const lexiconVersion = 1

// lexiconFile is data/lexicon.json.
type lexiconFile struct {
	V     int    `json:"v"`
	About string `json:"about"`
	// Patterns are named expressions, used on their own by the parser and inside rewrites as
	// {{name}}.
	Patterns map[string]string `json:"patterns"`
	// Rewrites apply to a description before it is parsed, in order; VocabularyRewrites after
	// them.
	Rewrites           []lexRewrite `json:"rewrites"`
	VocabularyRewrites []lexRewrite `json:"vocabulary_rewrites"`
	// Alternatives and DirectedAlternatives: the page may say PageSays for the description's
	// Word (alternatives holds the tables people and pages share most; directed ones the
	// narrower equivalences, which are the same in kind).
	Alternatives         []lexAlternative `json:"alternatives"`
	DirectedAlternatives []lexAlternative `json:"directed_alternatives"`
	// Concepts are groups of words each of which may stand for every other.
	Concepts  []lexConcept `json:"concepts"`
	Spellings struct {
		Pairs    [][2]string `json:"pairs"`     // American, British, base forms
		IzeVerbs []string    `json:"ize_verbs"` // -ize verbs that British spelling writes -ise
		Suffixes []string    `json:"suffixes"`  // the inflections made of both forms of a pair
	} `json:"spellings"`
	// ForeignWords maps a language's interface words to the English words they are read as.
	ForeignWords map[string]map[string]string `json:"foreign_words"`
}

type lexRewrite struct {
	Match   string `json:"match"`
	To      string `json:"to"`
	Example string `json:"example,omitempty"`
}

type lexAlternative struct {
	Word     string   `json:"word"`
	PageSays []string `json:"page_says"`
	Example  string   `json:"example,omitempty"`
}

type lexConcept struct {
	Words   []string `json:"words"`
	Example string   `json:"example,omitempty"`
}

// lexicon is the shipped lexicon, read once at start: a broken file stops the program at
// once, with the entry at fault (a test reads it too).
var lexicon = mustLexicon(lexiconJSON)

func mustLexicon(raw []byte) *lexiconFile {
	l, err := loadLexicon(raw)
	if err != nil {
		panic(err)
	}
	return l
}

// loadLexicon decodes and checks a lexicon: unknown fields, a wrong version, an expression that
// does not compile or names no pattern, a word listed twice, and a foreign word that is not a
// lowercase word are errors.
func loadLexicon(raw []byte) (*lexiconFile, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var l lexiconFile
	if err := dec.Decode(&l); err != nil {
		return nil, fmt.Errorf("lexicon: %w", err)
	}
	if l.V != lexiconVersion {
		return nil, fmt.Errorf("lexicon: version %d, this code reads %d", l.V, lexiconVersion)
	}
	for _, rs := range [][]lexRewrite{l.Rewrites, l.VocabularyRewrites} {
		for _, r := range rs {
			if _, err := l.compile(r.Match); err != nil {
				return nil, err
			}
		}
	}
	for _, table := range [][]lexAlternative{l.Alternatives, l.DirectedAlternatives} {
		seen := map[string]bool{}
		for _, a := range table {
			if a.Word == "" || len(a.PageSays) == 0 || seen[a.Word] {
				return nil, fmt.Errorf("lexicon: alternative %q is empty or listed twice", a.Word)
			}
			seen[a.Word] = true
		}
	}
	seen := map[string]bool{}
	for lang, words := range l.ForeignWords {
		for w, en := range words {
			if w != strings.ToLower(w) || strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }) >= 0 || en == "" || seen[w] {
				return nil, fmt.Errorf("lexicon: %s word %q (%q): keys are lowercase words, once, with English words", lang, w, en)
			}
			seen[w] = true
		}
	}
	return &l, nil
}

// compile compiles an expression of the lexicon, its {{name}}s replaced by their patterns.
func (l *lexiconFile) compile(expr string) (*regexp.Regexp, error) {
	var missing error
	full := patternRef.ReplaceAllStringFunc(expr, func(ref string) string {
		p, ok := l.Patterns[ref[2:len(ref)-2]]
		if !ok {
			missing = fmt.Errorf("lexicon: %q names no pattern %s", expr, ref)
		}
		return p
	})
	if missing != nil {
		return nil, missing
	}
	re, err := regexp.Compile(full)
	if err != nil {
		return nil, fmt.Errorf("lexicon: %q: %w", expr, err)
	}
	return re, nil
}

var patternRef = regexp.MustCompile(`\{\{[a-z_]+\}\}`)

// pattern is the named pattern compiled; a name the file lacks stops the program at start.
func (l *lexiconFile) pattern(name string) *regexp.Regexp {
	re, err := l.compile("{{" + name + "}}")
	if err != nil {
		panic(err)
	}
	return re
}

// rules are rewrites as the rewriter runs them (loadLexicon has compiled each once already).
func (l *lexiconFile) rules(rs []lexRewrite) []rewriteRule {
	out := make([]rewriteRule, len(rs))
	for i, r := range rs {
		re, _ := l.compile(r.Match)
		out[i] = rewriteRule{re: re, out: r.To}
	}
	return out
}

// alternativeMap is a table of alternatives as a map from word to what a page may say.
func alternativeMap(table []lexAlternative) map[string][]string {
	m := make(map[string][]string, len(table))
	for _, a := range table {
		m[a.Word] = a.PageSays
	}
	return m
}

// conceptWords are the concept groups' words.
func (l *lexiconFile) conceptWords() [][]string {
	out := make([][]string, len(l.Concepts))
	for i, c := range l.Concepts {
		out[i] = c.Words
	}
	return out
}

// foreign is every language's words in one map.
func (l *lexiconFile) foreign() map[string]string {
	m := map[string]string{}
	for _, words := range l.ForeignWords {
		for w, en := range words {
			m[w] = en
		}
	}
	return m
}
