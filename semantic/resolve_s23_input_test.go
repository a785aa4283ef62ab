package semantic

import "testing"

// TestResolve_FreeTextBox: "where do I mention my allergy", "write back to the sender": prose is typed
// in a multi-line box (a textarea, a contenteditable composer), whatever its label says, and
// not in a search box whose name shares a word with the description.
func TestResolve_FreeTextBox(t *testing.T) {
	runResolveCases(t, "s23-input-booking.html", []resolveCase{
		{"where do I mention my peanut allergy?", IntentType, "", "notes"},
		{"where I can explain that we have a dog", IntentType, "", "notes"},
	})
	runResolveCases(t, "s23-input-mail.html", []resolveCase{
		{"where I write the email", IntentType, "", "reply-body"},
		{"write back to the sender", IntentType, "", "reply-body"},
	})
}

// TestFreeText: the descriptions that write prose.
func TestFreeText(t *testing.T) {
	for _, c := range []struct {
		desc string
		want bool
	}{
		{"where do I mention my nut allergy?", true},
		{"where I can explain my reason", true},
		{"write a new post", true},
		{"Describe the damage", true},
		{"where is the office", false},
		{"the email field", false},
		{"enter my email", false},
		{"rewrite the title", false},
	} {
		if got := freeText(c.desc); got != c.want {
			t.Errorf("freeText(%q) = %v, want %v", c.desc, got, c.want)
		}
	}
}
