package semantic

import "testing"

// freshPage is a small sign-up page as data: before is the page as the submit found it, after
// is the page the submit left, with its message and a help link that says "errors".
func freshPage(url string, message string) (before, after *Snapshot) {
	els := []Element{
		{ID: 0, Tag: "h1", Role: "heading", Name: "Create your account", Text: "Create your account", Parent: -1, Selector: "h1", Visible: true, Enabled: true},
		{ID: 1, Tag: "input", Role: "textbox", Name: "Password", Label: "Password", Parent: -1, Selector: "#pw", Visible: true, Enabled: true, Editable: true, Interactive: true},
		{ID: 2, Tag: "a", Role: "link", Name: "Common sign-up errors", Text: "Common sign-up errors", Href: "#errors", Parent: -1, Selector: "#help", Visible: true, Enabled: true, Interactive: true},
		{ID: 3, Tag: "button", Role: "button", Name: "Create account", Text: "Create account", Parent: -1, Selector: "#create", Visible: true, Enabled: true, Interactive: true},
	}
	before = &Snapshot{URL: url, Elements: els}
	typed := append([]Element(nil), els...)
	typed[1].Value = "***"
	msg := Element{ID: 4, Tag: "div", Role: "alert", Name: message, Text: message, Parent: -1, Selector: "#pw-err", Visible: true, Enabled: true}
	after = &Snapshot{URL: url, Elements: append(typed, msg)}
	return before, after
}

func TestResolve_FreshSinceTheLastAction(t *testing.T) {
	cases := []struct {
		desc, beforeURL, want string
	}{
		{"the error", "http://x/signup", "#pw-err"},
		{"what went wrong?", "http://x/signup", "#pw-err"},
		{"what did it say", "http://x/signup", "#pw-err"},
		// A description that says an older element's words whole still reads that element.
		{"the Common sign-up errors link", "http://x/signup", "#help"},
		// After a navigation the old page is no comparison: the words decide alone.
		{"the error", "http://x/other", "#help"},
	}
	for _, c := range cases {
		before, after := freshPage("http://x/signup", "Use at least 8 characters, including a number.")
		before.URL = c.beforeURL
		res, err := Resolve(after, Query{Description: c.desc, Intent: IntentRead, Before: before})
		if err != nil || res.Element.Selector != c.want {
			t.Errorf("%q (before at %s) -> %q, %v; want %s", c.desc, c.beforeURL, res.Element.Selector, err, c.want)
		}
	}
	// Without the page as the action found it, the message is no prior: "the error" is the
	// help link that says errors.
	_, after := freshPage("http://x/signup", "Use at least 8 characters, including a number.")
	if res, err := Resolve(after, Query{Description: "the error", Intent: IntentRead}); err != nil || res.Element.Selector != "#help" {
		t.Errorf("no before: %q, %v", res.Element.Selector, err)
	}
}

func TestFreshElements_TypedValuesAndContainersAreNotTheEffect(t *testing.T) {
	before, after := freshPage("http://x/a", "Saved.")
	// A section that now holds the message is fresh too, but the message is the innermost.
	after.Elements[4].Parent = 5
	after.Elements = append(after.Elements, Element{ID: 5, Tag: "section", Role: "region", Text: "Create account Saved.", Parent: -1, Selector: "section", Visible: true})
	got := freshElements(after, before)
	if len(got) != 1 || !got[4] {
		t.Errorf("fresh = %v, want only the message (4): not the typed field (1) nor its section (5)", got)
	}
}
