package semantic

import (
	"slices"
	"testing"
)

// TestResolve_ColorNamesTheButton: "the red button" is the one that shows red, though no
// element says "red"; the colour word is a look, not a word the button must say, and it
// picks among buttons that say none of the other words.
func TestResolve_ColorNamesTheButton(t *testing.T) {
	runResolveCases(t, "look-checkout.html", []resolveCase{
		{"the red button", IntentClick, "", "cancel-order"},
		{"click the green button", IntentClick, "", "pay-now"},
		{"the big red button", IntentClick, "", "cancel-order"},
		{"the dark green button", IntentClick, "", "pay-now"},
		{"the red button at the bottom right", IntentClick, "", "cancel-order"},
	})
}

// TestResolve_PlaceInARow: of buttons in one row, the corner named picks the one furthest
// that way, not a tie between neighbours that are nearly as far.
func TestResolve_PlaceInARow(t *testing.T) {
	runResolveCases(t, "look-checkout.html", []resolveCase{
		{"the button at the bottom left", IntentClick, "", "cancel-order"},
	})
}

// TestResolve_PlaceNamesTheButton: "at the end of the form", "at the bottom of the page" put
// the target at the end: of two blue buttons, the one lower down; "at the end" is no word
// the button must say.
func TestResolve_PlaceNamesTheButton(t *testing.T) {
	runResolveCases(t, "look-intake.html", []resolveCase{
		{"the blue button at the end of the form", IntentClick, "", "submit-intake"},
		{"click the blue button at the bottom of the page", IntentClick, "", "submit-intake"},
		{"the blue button at the top of the form", IntentClick, "", "verify"},
	})
}

// TestResolve_CornerIcons: the icons in the corners of a board, by the corner a description
// names ("the icon at the top left", "the button in the bottom right corner").
func TestResolve_CornerIcons(t *testing.T) {
	runResolveCases(t, "look-corners.html", []resolveCase{
		{"the icon at the top left", IntentClick, "", "menu-icon"},
		{"the icon in the top right corner", IntentClick, "", "bell-icon"},
		{"click the button in the bottom left corner", IntentClick, "", "help-icon"},
		{"the bottom right corner icon", IntentClick, "", "chat-icon"},
		{"the link in the bottom right corner", IntentClick, "", "board-settings"},
	})
}

// TestParse_LookHints: colour and place phrases are hints, not words; a colour that is the
// thing chosen ("make it red") and a place that ranks ("the top story") keep their meaning.
func TestParse_LookHints(t *testing.T) {
	for _, c := range []struct {
		desc  string
		color string
		place Place
		words []string
	}{
		{"the red button at the bottom right", "red", Place{1, 1}, nil},
		{"the blue button at the end of the form", "blue", Place{1, 0}, nil},
		{"the link in the top-left corner", "", Place{-1, -1}, nil},
		{"the green Save button", "green", Place{}, []string{"save"}},
		{"the gray Archive link", "grey", Place{}, []string{"archive"}},
		{"the big orange banner", "orange", Place{}, nil},
		{"the large size", "", Place{}, []string{"large", "size"}},
		{"make it red", "", Place{}, []string{"make", "red"}},
		{"the blue button at the end", "blue", Place{1, 0}, nil},
		{"the delete button at the end of the row", "", Place{}, []string{"delete", "end", "row"}},
		{"the Next link at the bottom", "", Place{}, []string{"next", "bottom"}},
	} {
		p := Parse(c.desc)
		if p.Color != c.color || p.Place != c.place || !slices.Equal(p.Words, c.words) {
			t.Errorf("Parse(%q): colour %q, place %+v, words %q; want %q, %+v, %q", c.desc, p.Color, p.Place, p.Words, c.color, c.place, c.words)
		}
	}
}
