package semantic

import (
	"reflect"
	"strings"
	"testing"
)

// TestResolve_Typos: a description with a slip of the keyboard in a word the page lacks
// resolves as the page's nearest word would, says what it read, and costs some confidence.
func TestResolve_Typos(t *testing.T) {
	runResolveCases(t, "typos-checkout.html", []resolveCase{
		{"the shiping address", IntentType, "", "ship"},
		{"type into the bliling address", IntentType, "", "bill"},
		{"delivery instrucitons", IntentType, "", "instr"},
		{"open the calender", IntentClick, "", "calendar"},
		{"tick the newsleter box", IntentClick, "", "newsletter"},
	})
	_, s := snapFixture(t, "typos-checkout.html")
	res, err := Resolve(s, Query{Description: "type into the bliling address", Intent: IntentType})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Why, `read "bliling" as "billing"`) {
		t.Errorf("why = %q: want it to say what it read", res.Why)
	}
	exact, err := Resolve(s, Query{Description: "type into the billing address", Intent: IntentType})
	if err != nil {
		t.Fatal(err)
	}
	if res.Confidence >= exact.Confidence {
		t.Errorf("confidence %.2f after reading a typo, %.2f as written: want less", res.Confidence, exact.Confidence)
	}
}

// TestResolve_TyposNotRead: a word one slip from two page words with different meanings is
// not read as either, and a description that resolves as written is not rewritten.
func TestResolve_TyposNotRead(t *testing.T) {
	_, s := snapFixture(t, "typos-checkout.html")
	// "sumbit" is one swap from "submit" and one letter from "summit".
	if res, err := Resolve(s, Query{Description: "the sumbit thing", Intent: IntentClick}); err == nil {
		t.Errorf("Resolve(the sumbit thing) = %s (%s): want no guess between Submit and Summit", describe(&res.Element), res.Why)
	}
	res, err := Resolve(s, Query{Description: "the Submit order button", Intent: IntentClick})
	if err != nil || res.Element.IDAttr != "submit" || strings.Contains(res.Why, "read ") {
		t.Errorf("Resolve(the Submit order button) = %v, %v", res, err)
	}
}

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		max  int
		want int
	}{
		{"submit", "submit", 2, 0},
		{"sumbit", "submit", 2, 1},    // a swap of neighbours
		{"shiping", "shipping", 2, 1}, // a letter left out
		{"calender", "calendar", 2, 1},
		{"adress", "address", 2, 1},
		{"recieve", "receive", 2, 1},
		{"instrucitons", "instructions", 2, 1},
		{"newsleter", "newsletter", 2, 1},
		{"kitten", "sitting", 3, 3},
		{"kitten", "sitting", 1, 2}, // past max: max+1
		{"ca", "abc", 3, 3},
	} {
		if got := editDistance([]rune(c.a), []rune(c.b), c.max); got != c.want {
			t.Errorf("editDistance(%q, %q, %d) = %d, want %d", c.a, c.b, c.max, got, c.want)
		}
	}
}

func TestReplaceWord(t *testing.T) {
	for _, c := range []struct{ s, w, by, want string }{
		{"Click the Sumbit button", "sumbit", "submit", "Click the submit button"},
		{"the sumbitted sumbit", "sumbit", "submit", "the sumbitted submit"},
		{"no match here", "sumbit", "submit", "no match here"},
	} {
		if got, _ := replaceWord(c.s, c.w, c.by); got != c.want {
			t.Errorf("replaceWord(%q, %q, %q) = %q, want %q", c.s, c.w, c.by, got, c.want)
		}
	}
}

// TestPageVocab: the vocabulary kept on a Snap snapshot is the page's, and a snapshot built
// elsewhere (the extension's) gets its own each time.
func TestPageVocab(t *testing.T) {
	_, s := snapFixture(t, "typos-checkout.html")
	want := pageWords(prepare(s))
	if len(want) == 0 {
		t.Fatal("the fixture has no words")
	}
	for range 2 {
		if got := pageVocab(s); !reflect.DeepEqual(got, want) {
			t.Fatalf("pageVocab differs from pageWords: %d vs %d stems", len(got), len(want))
		}
	}
	plain := &Snapshot{Elements: s.Elements} // no prep cache
	if got := pageVocab(plain); !reflect.DeepEqual(got, want) {
		t.Fatalf("an uncached snapshot's vocabulary differs: %d vs %d stems", len(got), len(want))
	}
}
