package semantic

import (
	"context"
	"strings"
	"testing"

	"github.com/rodeo-run/rodeo/errs"
)

// resolveCase is one description and the element it must resolve to, named by its id attribute.
type resolveCase struct {
	desc   string
	intent Intent
	match  string
	want   string
}

func runResolveCases(t *testing.T, fixtureName string, cases []resolveCase) {
	t.Helper()
	_, s := snapFixture(t, fixtureName)
	for _, c := range cases {
		t.Run(c.desc, func(t *testing.T) {
			res, err := Resolve(s, Query{Description: c.desc, Intent: c.intent, Match: c.match})
			if err != nil {
				t.Fatalf("Resolve(%q, %v): %v", c.desc, c.intent, err)
			}
			if res.Element.IDAttr != c.want {
				t.Errorf("Resolve(%q, %v) = %s (%s), want #%s; runners-up: %+v",
					c.desc, c.intent, describe(&res.Element), res.Why, c.want, res.RunnersUp)
			}
			if res.By != "heuristic" || res.Confidence <= 0 || res.Confidence > 1 {
				t.Errorf("by %q confidence %v", res.By, res.Confidence)
			}
		})
	}
}

func TestResolve_Signup(t *testing.T) {
	runResolveCases(t, "signup.html", []resolveCase{
		{"the email field", IntentType, "", "email"},
		{"Email address", IntentType, "", "email"},
		{"the first name field", IntentAny, "", "first"},
		{"last name", IntentType, "", "last"},
		{"the phone number input", IntentAny, "", "phone"},
		{"the field with placeholder \"you@example.com\"", IntentType, "", "email"},
		{"the password field", IntentType, "", "pw"},
		{"Confirm password", IntentType, "", "pw2"},
		{"the input with name=\"password_confirm\"", IntentAny, "", "pw2"},
		{"the country dropdown", IntentAny, "", "country"},
		{"Check the terms checkbox", IntentAny, "", "terms"},
		{"the \"I agree\" checkbox", IntentClick, "", "terms"},
		{"Click the \"Create account\" button.", IntentAny, "", "create"},
		{"Press Create account", IntentAny, "", "create"},
		{"the Sign in link", IntentClick, "", "signin"},
		{"the tell us about yourself box", IntentType, "", "bio"},
		{"Type hello into the bio textarea", IntentAny, "", "bio"},
		{"the logo", IntentClick, "", "logo"},
		{"the page heading", IntentRead, "", "h-signup"},
		{"Clear form", IntentClick, "", "reset"},
	})
}

func TestResolve_Login(t *testing.T) {
	runResolveCases(t, "login.html", []resolveCase{
		{"Put the cursor in the username field", IntentAny, "", "user"},
		{"the password", IntentType, "", "pass"},
		{"Remember me", IntentClick, "", "remember"},
		{"the remember me checkbox", IntentAny, "", "remember"},
		{"the button that says Log in", IntentAny, "", "login-btn"},
		{"Log in", IntentClick, "", "login-btn"},
		{"the forgot password link", IntentClick, "", "forgot"},
		{"the error message", IntentRead, "", "error"},
		{"the welcome heading", IntentRead, "", "welcome"},
	})
}

func TestResolve_Search(t *testing.T) {
	runResolveCases(t, "search.html", []resolveCase{
		{"the search box", IntentType, "", "q"},
		{"the search button", IntentClick, "", "go"},
		{"the second result's title", IntentRead, "", "t2"},
		{"the first result's title", IntentRead, "", "t1"},
		{"the last result's price", IntentRead, "", "p3"},
		{"the price of the second result", IntentRead, "", "p2"},
		{"the second Add to cart button", IntentClick, "", "add2"},
		{"Add to cart", IntentClick, "last", "add3"},
		{"Add to cart", IntentClick, "2", "add2"},
		{"the Red Widget Pro link", IntentClick, "", "l2"},
		{"the result count", IntentRead, "", "count"},
		{"Next page", IntentClick, "", "next"},
		{"#3 Add to cart button", IntentClick, "", "add3"},
	})
}

func TestResolve_Nav(t *testing.T) {
	runResolveCases(t, "nav.html", []resolveCase{
		{"the Pricing link", IntentClick, "", "nav-pricing"},
		{"About", IntentClick, "", "nav-about"},
		{"the Contact link in the footer", IntentClick, "", "foot-contact"},
		{"the Contact link in the navbar", IntentClick, "", "nav-contact"},
		{"Get started", IntentClick, "", "cta"},
		{"the Get started button", IntentClick, "", "cta"},
		{"the Yearly tab", IntentClick, "", "tab-yearly"},
		{"the third link", IntentClick, "", "nav-pricing"},
		{"the main heading", IntentRead, "", "hero"},
		{"the tagline", IntentRead, "", "tagline"},
	})
}

func TestResolve_Modal(t *testing.T) {
	runResolveCases(t, "modal.html", []resolveCase{
		{"Subscribe", IntentClick, "", "dlg-submit"},
		{"Close", IntentClick, "", "dlg-close"},
		{"the email field", IntentType, "", "dlg-email"},
		{"the Close button in the modal", IntentClick, "", "dlg-close"},
		{"Accept all cookies", IntentClick, "", "cookie-accept"},
		{"the cookie banner text", IntentRead, "", "cookie-text"},
		{"the dialog title", IntentRead, "", "dlg-title"},
	})
}

func TestResolve_Icons(t *testing.T) {
	runResolveCases(t, "icons.html", []resolveCase{
		{"the bold button", IntentClick, "", "bold"},
		{"the italic icon", IntentClick, "", "italic"},
		{"the trash icon", IntentClick, "", "trash"},
		{"Delete document", IntentClick, "", "trash"},
		{"the settings button", IntentClick, "", "settings"},
		{"Help", IntentClick, "", "help"},
		{"Share", IntentClick, "", "share"},
		{"the document body", IntentType, "", "editor"},
		{"the editor", IntentType, "", "editor"},
		{"the \"Save changes\" button", IntentAny, "", "save"},
		{"the button with data-testid=\"save-doc\"", IntentClick, "", "save"},
	})
}

func TestResolve_Checklist(t *testing.T) {
	runResolveCases(t, "checklist.html", []resolveCase{
		{"the SMS checkbox", IntentClick, "", "cb-sms"},
		{"Email", IntentClick, "", "cb-email"},
		{"the push notifications checkbox", IntentAny, "", "cb-push"},
		{"the Weekly radio button", IntentClick, "", "r-weekly"},
		{"the daily option", IntentClick, "", "r-daily"},
		{"the dark mode toggle", IntentClick, "", "aria-cb"},
		{"the second checkbox", IntentClick, "", "cb-sms"},
		{"the last checkbox", IntentClick, "", "aria-cb"},
		{"Apply", IntentClick, "", "apply"},
	})
}

func TestResolve_Table(t *testing.T) {
	runResolveCases(t, "table.html", []resolveCase{
		{"the customer of the second row", IntentRead, "", "c2"},
		{"Bob Stone", IntentRead, "", "c2"},
		{"the second Delete button", IntentClick, "", "del2"},
		{"the View link", IntentClick, "last", "view3"},
		// The value itself, led by its label in the paragraph's text ("Total: <span>$170.00</span>").
		{"the total in the cart summary", IntentRead, "", "grand-v"},
		{"the subtotal", IntentRead, "", "subtotal-v"},
		{"Pending", IntentRead, "", "s2"},
	})
}

func TestResolve_Hidden(t *testing.T) {
	runResolveCases(t, "hidden.html", []resolveCase{
		{"Pay now", IntentClick, "", "pay"},
		{"the Pay now button", IntentAny, "", "pay"},
		{"the note", IntentRead, "", "note"},
	})
}

func TestResolve_Shadow(t *testing.T) {
	runResolveCases(t, "shadow.html", []resolveCase{
		{"Thumbs up", IntentClick, "", "up"},
		{"the thumbs down button", IntentClick, "", "down"},
		{"the comment field", IntentType, "", "comment"},
		{"the experience question", IntentRead, "", "rate-q"},
		{"Framed button", IntentClick, "", "in-frame"},
		// The words of a design system's button are slotted in from the light DOM (session
		// 14: the host's text won, and a click on it may miss its button).
		{"Save draft", IntentClick, "", "ds-save-inner"},
		{"the untitled action button", IntentClick, "", "ds-empty-inner"},
	})
}

// TestSnap_SlottedTextRenames: a change to a shadow host's children renames the button in its
// shadow tree that shows them, in the next snapshot of the same page (the cached text of the
// shadow tree is dropped).
func TestSnap_SlottedTextRenames(t *testing.T) {
	p, _ := snapFixture(t, "shadow.html")
	if _, err := p.Eval(`() => { document.getElementById('ds-save').firstChild.data = 'Publish now' }`); err != nil {
		t.Fatal(err)
	}
	s, err := Snap(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Resolve(s, Query{Description: "Publish now", Intent: IntentClick})
	if err != nil || res.Element.IDAttr != "ds-save-inner" {
		t.Fatalf("Publish now -> %s, %v; want the button in #ds-save's shadow tree", describe(&res.Element), err)
	}
}

// errCase is a description that must fail with a code, and words the message must contain.
type errCase struct {
	fixture string
	desc    string
	intent  Intent
	code    string
	mention []string
}

func TestResolve_Errors(t *testing.T) {
	cases := []errCase{
		{"search.html", "Add to cart", IntentClick, errs.AmbiguousTarget, []string{"3 elements", "#add1", "#add3", "match"}},
		{"table.html", "the Delete button", IntentClick, errs.AmbiguousTarget, []string{"#del2", "first"}},
		{"nav.html", "Contact", IntentClick, errs.AmbiguousTarget, []string{"#nav-contact", "#foot-contact"}},
		{"signup.html", "the Frobnicate button", IntentClick, errs.TargetNotFound, []string{"Frobnicate", "closest"}},
		{"login.html", "the shopping cart icon", IntentClick, errs.TargetNotFound, []string{"shopping cart"}},
		{"hidden.html", "Apply coupon", IntentClick, errs.TargetNotFound, []string{"disabled", "#coupon"}},
		{"hidden.html", "Cancel order", IntentClick, errs.TargetNotFound, []string{"hidden"}},
		{"search.html", "the fifth Add to cart button", IntentClick, errs.TargetNotFound, []string{"only 3"}},
		{"checklist.html", "Never", IntentClick, errs.TargetNotFound, []string{"disabled"}},
	}
	snaps := map[string]*Snapshot{}
	for _, c := range cases {
		s := snaps[c.fixture]
		if s == nil {
			_, s = snapFixture(t, c.fixture)
			snaps[c.fixture] = s
		}
		t.Run(c.desc, func(t *testing.T) {
			res, err := Resolve(s, Query{Description: c.desc, Intent: c.intent})
			if err == nil {
				t.Fatalf("Resolve(%q) = %s, want error %s", c.desc, describe(&res.Element), c.code)
			}
			if got := errs.Code(err); got != c.code {
				t.Fatalf("Resolve(%q) error code %s (%v), want %s", c.desc, got, err, c.code)
			}
			for _, m := range c.mention {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("error %q does not mention %q", err, m)
				}
			}
		})
	}
}

// TestResolve_Relations covers relations on one fixture: an action and the post it
// acts on, a table lookup, key/value fields, values labelled in running text, questions, a
// setting's switch, and a tie between the navigation and the content.
func TestResolve_Relations(t *testing.T) {
	runResolveCases(t, "relations.html", []resolveCase{
		{"like Devon's post", IntentClick, "", "like-2"},
		{"reply to the post about the offline mode", IntentClick, "", "reply-1"},
		{"the status of shipment TW101", IntentRead, "", "st-2"},
		{"open shipment TW102", IntentClick, "", "pro-3"},
		{"who reported this bug", IntentRead, "", "reporter"},
		{"the assignee", IntentRead, "", "assignee"},
		{"when does boarding close", IntentRead, "", "board"},
		{"the gate", IntentRead, "", "gate"},
		{"how long is the appointment", IntentRead, "", "dur"},
		{"turn off auto-renew", IntentAny, "", "ar"},
	})
}

// TestResolve_Tables covers table lookups found on fresh pages: a header that abbreviates
// ("Pts" for points), rows styled in runs that are still one list ("the bottom team"), a rank
// said as a place, a row's key that labels its cells, and a row's button wrapped in a cell under
// a section heading that names every row; a count inside its sentence; times and days written
// another way; superlatives among look-alikes; a row
// told by what was typed in it.
func TestResolve_Tables(t *testing.T) {
	runResolveCases(t, "tables.html", []resolveCase{
		{"Kingsbridge's points", IntentRead, "", "pts-kin"},
		{"points of the bottom team", IntentRead, "", "pts-col"},
		{"the goal difference of the team in 4th place", IntentRead, "", "gd-har"},
		{"block the unknown device", IntentClick, "", "b2"},
		{"when is Circe due?", IntentRead, "", "due-2"},
		{"the number of pets available", IntentRead, "", "pet-count"},
		{"how many bags have I received", IntentRead, "", "bags"},
		{"the 3pm slot", IntentClick, "", "s-1500"},
		{"the 7pm entry", IntentClick, "", "s-1900"},
		{"Thursday tab", IntentClick, "", "tab-thu"},
		{"the cheapest rate", IntentRead, "", "r-nr"},
		{"the most expensive rate", IntentRead, "", "r-bb"},
		{"the earliest entry time", IntentClick, "", "s-1400"},
		{"delete the stock photography line", IntentClick, "", "del-2"},
		{"the SKU on the last line", IntentRead, "", "sku-4"},
		{"the SKU of the third line", IntentRead, "", "sku-3"},
	})
}

// TestResolve_IconButtons: icon-only controls named by nothing but their icon font's or
// sprite's class, or a tooltip library's attribute, as production pages ship them.
func TestResolve_IconButtons(t *testing.T) {
	runResolveCases(t, "icon-fonts.html", []resolveCase{
		{"the bell icon", IntentClick, "", "bell"},
		{"settings", IntentClick, "", "gear"},
		{"the gear", IntentClick, "", "gear"},
		{"the chat icon", IntentClick, "", "msgs"},
		{"the trash can next to photo.png", IntentClick, "", "del-2"},
		{"edit report.pdf", IntentClick, "", "edit-1"},
		{"the three dots", IntentClick, "", "more"},
		{"the work email field", IntentType, "", "work-email"},
		{"company", IntentType, "", "company"},
	})
}

// TestUnexplained: the share of a description's words nothing around an element carries, which
// sends a heuristic answer to the model sooner.
func TestUnexplained(t *testing.T) {
	_, s := snapFixture(t, "tables.html")
	p := Parse("block the unknown device")
	id := func(attr string) int {
		e := byID(s, attr)
		if e == nil {
			t.Fatalf("no #%s", attr)
		}
		return e.ID
	}
	if u := unexplained(s, &p, id("b2")); u != 0 {
		t.Errorf("the unknown device's Block: unexplained %.2f, want 0 (its row says unknown, its section devices)", u)
	}
	if u := unexplained(s, &p, id("b1")); u <= 0 {
		t.Errorf("another row's Block: unexplained %.2f, want > 0 (nothing around it says unknown)", u)
	}
}

// TestSnap_WrappedFieldLabel: a field with no label, inside a wrapper it is the only child of,
// is named by the short text just before the wrapper, as production forms lay them out.
func TestSnap_WrappedFieldLabel(t *testing.T) {
	_, s := snapFixture(t, "icon-fonts.html")
	for _, want := range []struct{ id, name string }{{"work-email", "Work email"}, {"company", "Company"}} {
		if e := byID(s, want.id); e == nil {
			t.Errorf("#%s is not in the snapshot", want.id)
		} else if e.Name != want.name {
			t.Errorf("#%s is named %q, want %q", want.id, e.Name, want.name)
		}
	}
}

// TestResolve_InvalidMatchFailsFirst: a match that is not first, last or a number fails the
// same way whatever path the description would take (here "the Nth item's X").
func TestResolve_InvalidMatchFailsFirst(t *testing.T) {
	_, s := snapFixture(t, "tables.html")
	_, err := Resolve(s, Query{Description: "the SKU of the third line", Intent: IntentRead, Match: "middle"})
	if !errs.Is(err, errs.TargetNotFound) || !strings.Contains(err.Error(), "middle") {
		t.Fatalf("match %q: got %v, want target_not_found naming it", "middle", err)
	}
}

// TestResolve_FrameworkMarkup: production markup says what things are by styling divs, not by
// headings, tables or labels: a bold title over each card, keys and values side by side, a grid
// of divs under a header row.
func TestResolve_FrameworkMarkup(t *testing.T) {
	runResolveCases(t, "framework.html", []resolveCase{
		{"mark the history homework as done", IntentClick, "", "hw-his"},
		{"tick off the chemistry homework", IntentClick, "", "hw-che"},
		{"who is my adjuster?", IntentRead, "", "adj"},
		{"what's the repair shop", IntentRead, "", "shop"},
		{"who is the requester?", IntentRead, "", "rq1"},
		{"the claims line", IntentRead, "", "line"},
		{"what's the subject of the open ticket?", IntentRead, "", "sj1"},
		{"the commit of the renovate pipeline", IntentRead, "", "c2"},
		{"the duration of nightly-e2e", IntentRead, "", "d3"},
		{"status of Aiden Chow's return", IntentRead, "", "st2"},
		// A div row's name cell and actions cell share a utility class: parts of one row.
		{"approve Priya Nair's request", IntentClick, "", "ok-pn"},
		{"decline Jonas Olsen", IntentClick, "", "dec-jo"},
		// Order cards in a list that itself repeats (a sibling div): cards stay apart.
		{"print the label for Tom Fletcher's order", IntentClick, "", "lbl-tf"},
		{"print the label for Olivia Hart's order", IntentClick, "", "lbl-oh"},
		// "The last applicant" counts cards, not the two unlike blocks inside one (its name
		// block and its buttons).
		{"reject the last applicant", IntentClick, "", "rej-mg"},
		{"reject the second applicant", IntentClick, "", "rej-bo"},
		{"print the label of the second order", IntentClick, "", "lbl-tf"},
		// A grid of divs with ARIA roles: a gridcell is under its columnheader.
		{"priority of the login loop ticket", IntentRead, "", "p2"},
		{"the Priority column header", IntentAny, "", "ph"},
		// "Select the Nth item" ticks its checkbox.
		{"select the second ticket", IntentClick, "", "sel-2"},
		// One word and a value's role word: the word is on the row beside the value.
		{"the hotel amount", IntentAny, "", "amt-2"},
	})
}

// TestResolve_RowWords: what a row says beside its controls, and what a description says in
// passing (each case failed before).
func TestResolve_RowWords(t *testing.T) {
	runResolveCases(t, "rowwords.html", []resolveCase{
		// The list item's own text names the fixture its Tickets link is for; "buy" is the
		// action, not a word the link must carry.
		{"buy tickets for Kingsbridge v Westfield", IntentClick, "", "tix-2"},
		// The line is named by the text typed in its Description field; "logo" is a word of
		// that name, not a picture.
		{"rate of the logo design line", IntentAny, "", "r2"},
		// Slot buttons in a bare row: the earliest one that can be booked, its 24-hour time
		// read without AM or PM.
		{"choose the earliest available entry time", IntentClick, "", "s-1100"},
		{"the latest available time", IntentClick, "", "s-1800"},
		// A help button named by the whole question.
		{"what is a security code", IntentAny, "", "cvv-help"},
	})
}

// TestResolve_CollectionsAreNotOne: a name that says a description word only in the plural is
// the section or list of those things, not the one the description qualifies (the first
// two failed before, finding the Claims link).
func TestResolve_CollectionsAreNotOne(t *testing.T) {
	runResolveCases(t, "collections.html", []resolveCase{
		{"open the water damage claim", IntentClick, "", "claim-water"},
		{"open my roof claim", IntentClick, "", "claim-hail"},
		{"file a new claim", IntentClick, "", "new-claim"},
		// The plural asked for is the collection.
		{"go to my claims", IntentClick, "", "nav-claims"},
		{"the reports link", IntentClick, "", "nav-reports"},
		// "ends" here is a verb: the label still says which date.
		{"when does my lease end", IntentRead, "", "lease-end"},
	})
}

// TestResolve_LabelsHandToTheirControls: a click or a keystroke whose words are on a plain
// text goes to the control that text names in its row or card (the vehicle, the
// property manager and the bed and breakfast rate failed before, finding the text; the others
// guard the cases the ranker already had).
func TestResolve_LabelsHandToTheirControls(t *testing.T) {
	runResolveCases(t, "labelcontrols.html", []resolveCase{
		{"change the vehicle", IntentClick, "", "veh"},
		{"enter the promo code", IntentType, "", "promo"},
		{"call the adjuster", IntentClick, "", "call-adj"},
		// Of a card's controls, the one that says a word of the description.
		{"message Ben Okoro", IntentClick, "", "ben-msg"},
		{"contact the property manager", IntentClick, "", "pm-msg"},
		{"choose the bed and breakfast rate", IntentClick, "", "sel-bb"},
	})
}

// TestResolve_WordsPagesUseInstead: a field named by the role word alone, and the words forms
// and apps use for what people call otherwise (each case failed before).
func TestResolve_WordsPagesUseInstead(t *testing.T) {
	issue := page(
		[5]string{"header", "text", "Forgebase / mapkit-js", "", ""},
		[5]string{"input", "textbox", "Title", "New issue", ""},
		[5]string{"textarea", "textbox", "Description", "New issue", ""},
		[5]string{"p", "paragraph", "Markdown is supported.", "New issue", ""},
	)
	flight := page(
		[5]string{"input", "combobox", "From", "Search flights", ""},
		[5]string{"button", "button", "Swap origin and destination", "Search flights", ""},
		[5]string{"input", "combobox", "To", "Search flights", ""},
		[5]string{"button", "button", "Search", "Search flights", ""},
	)
	account := page(
		[5]string{"a", "link", "Track package", "Order 1182", ""},
		[5]string{"a", "link", "Download invoice (PDF)", "Order 1182", ""},
		[5]string{"button", "button", "Turn on microphone", "Call controls", ""},
		[5]string{"button", "button", "Turn off camera", "Call controls", ""},
		[5]string{"input", "textbox", "Other amount", "Donate", ""},
		[5]string{"button", "button", "Donate $25", "Donate", ""},
	)
	auction := page(
		[5]string{"p", "paragraph", "Current bid: $14,200", "Lot 118", ""},
		[5]string{"td", "cell", "Bidder 4471", "Bid history", ""},
		[5]string{"td", "cell", "Bidder 0912", "Bid history", ""},
	)
	servers := page(
		[5]string{"input", "checkbox", "Select db-replica-east", "Instances", ""},
		[5]string{"a", "link", "db-replica-east", "Instances", ""},
		[5]string{"button", "button", "More actions for db-replica-east", "Instances", ""},
	)
	tickets := page(
		[5]string{"button", "button", "Remove one Adult ticket", "Adult", ""},
		[5]string{"span", "text", "2", "Adult", ""},
		[5]string{"button", "button", "Add one Adult ticket", "Adult", ""},
	)
	label := page(
		[5]string{"label", "label", "Label size", "Label", ""},
		[5]string{"select", "combobox", "Label size", "Label", ""},
		[5]string{"button", "button", "Print label", "Label", ""},
	)
	inbox := page(
		[5]string{"input", "checkbox", "Unread only", "Notification filters", ""},
		[5]string{"a", "link", "All", "Notification filters", ""},
		[5]string{"button", "button", "Mark all as read", "Notifications", ""},
	)
	board := page(
		[5]string{"input", "searchbox", "Search", "Header", ""},
		[5]string{"input", "searchbox", "Search board", "Sprint 14", ""},
		[5]string{"button", "button", "Only my issues", "Sprint 14", ""},
	)
	cases := []struct {
		s      *Snapshot
		desc   string
		intent Intent
		want   string
	}{
		{label, "the label size selector", IntentAny, "Label size"}, // the select, not its label
		{inbox, "mark everything as read", IntentClick, "Mark all as read"},
		{board, "search within the board", IntentType, "Search board"},
		{auction, "the current bid", IntentRead, "Current bid: $14,200"}, // a bidder is no bid
		{servers, "select db-replica-east", IntentClick, "Select db-replica-east"},
		{tickets, "one fewer adult", IntentClick, "Remove one Adult ticket"},
		{issue, "the description", IntentType, "Description"},
		{flight, "the destination box", IntentType, "To"},
		{account, "get the receipt", IntentClick, "Download invoice (PDF)"},
		{account, "unmute myself", IntentClick, "Turn on microphone"},
		{account, "a custom amount", IntentType, "Other amount"},
	}
	for _, c := range cases {
		res, err := Resolve(c.s, Query{Description: c.desc, Intent: c.intent})
		if err != nil || res.Element.Name != c.want || c.want == "Label size" && res.Element.Role != "combobox" {
			t.Errorf("%q: got %s %q (%v), want %q", c.desc, res.Element.Role, res.Element.Name, err, c.want)
		}
	}
}

// TestResolve_CustomElementCards: cards that are custom elements (<product-tile>) are items, so
// a card's parts are found by the card's name or place (each case failed before they were: the
// desk lamp's price for the floor lamp's, two Add to cart buttons alike).
func TestResolve_CustomElementCards(t *testing.T) {
	runResolveCases(t, "items.html", []resolveCase{
		{"the price of the floor lamp", IntentAny, "", "t2-price"},
		{"the price of the second product", IntentAny, "", "t2-price"},
		{"add the floor lamp to the cart", IntentClick, "", "t2-add"},
	})
}

// TestResolve_EditorPlaceholders: rich text editors with no label are named by the placeholder
// they show from an attribute (Quill's data-placeholder, Tiptap's on its empty paragraph, ARIA's
// aria-placeholder).
func TestResolve_EditorPlaceholders(t *testing.T) {
	runResolveCases(t, "editors.html", []resolveCase{
		{"write a comment", IntentType, "", "tiptap"},
		{"the task description field", IntentType, "", "quill"},
		{"type in the message #launch box", IntentType, "", "chat"},
	})
}

// TestResolve_DivGridHeaders: grids of divs whose header the ranker did not find:
// a header row whose first column is "#", a card whose title between two tables is an item of
// their list, and a flat CSS grid whose cells, day headers and row labels are all items.
func TestResolve_DivGridHeaders(t *testing.T) {
	runResolveCases(t, "divgrids.html", []resolveCase{
		{"parcels for shipment 318", IntentRead, "", "pc-318"},
		{"on time for shipment 318", IntentRead, "", "ot-318"},
		// The column's header says what the value is; it is not the value.
		{"status of the label printer ticket", IntentRead, "", "st-print"},
		{"status of the forklift ticket", IntentRead, "", "st-fork"},
	})
	_, s := snapFixture(t, "divgrids.html")
	ps := prepare(s)
	header := func(id string) string {
		e := byID(s, id)
		if e == nil {
			t.Fatalf("no #%s", id)
		}
		h := ps[e.ID].gridHead - 1
		if h < 0 {
			return ""
		}
		if !ps[h].gridHeader {
			t.Errorf("#%s's header is not marked a header", id)
		}
		return firstOf(s.Elements[h].Text, s.Elements[h].Name)
	}
	for id, want := range map[string]string{
		"st-dock": "Status",
		// The second table's rows, after the "Invoices" title, have no header.
		"amt-6": "", "amt-5": "",
		// The rota's days head the cells of every row, the row labels between them no titles.
		"s4": "Thu", "s8": "Wed", "s10": "Fri",
	} {
		if got := header(id); got != want {
			t.Errorf("#%s's column header is %q, want %q", id, got, want)
		}
	}
}

// TestResolve_ValuesBesideTheirWords: a reading whose words are on a key or a line that says
// what a value is reads the value (the username and the SUV's price failed before,
// finding the key or the line).
func TestResolve_ValuesBesideTheirWords(t *testing.T) {
	runResolveCases(t, "values.html", []resolveCase{
		// The key of something: the key says the head word alone.
		{"the username of this login", IntentRead, "", "user"},
		// A price asked for by the words of the line beside it, in its option.
		{"the non-refundable price for the SUV", IntentRead, "", "suv-full"},
		{"the non-refundable price of the compact", IntentRead, "", "cp-full"},
		// A card's title is the thing named, not a key of the text after it.
		{"the Blue mug", IntentRead, "", "mug-title"},
	})
}

// TestResolve_PartsOfDay: "the evening Spin Express" is the one at 7:10 PM, though every Spin
// Express row says its name alike; the time and the name are two parts of one row.
func TestResolve_PartsOfDay(t *testing.T) {
	runResolveCases(t, "times.html", []resolveCase{
		{"the book button for the evening Spin Express", IntentClick, "", "book-spin-eve"},
		{"book the morning Spin Express", IntentClick, "", "book-spin-am"},
		{"book the afternoon Spin Express class", IntentClick, "", "book-spin-pm"},
		// A name that says "Morning" is the one meant, not every row with a morning time.
		{"give kudos on Morning Swim", IntentClick, "", "a2-kudos"},
		// The run's stat, though its name and its stats sit in blocks of their own in its row.
		{"my distance on this morning's swim", IntentRead, "", "a2-dist"},
		// A facet's rows are one item: another row's label anchors nothing.
		{"check the Studio B filter", IntentClick, "", "st-b"},
	})
}

// TestResolve_WhatSomeoneSaid: "the requester's message" and "what did Ike ask" are the words
// beside the person's name, in their row: not the line that names them, not the unread count
// or the time beside the name, not the ticket's number under the same heading.
func TestResolve_WhatSomeoneSaid(t *testing.T) {
	runResolveCases(t, "messages.html", []resolveCase{
		{"the requester's message", IntentRead, "", "first-msg"},
		{"what did Ike ask", IntentRead, "", "m2-text"},
		{"what did Rafael ask me?", IntentRead, "", "n1-text"},
		{"what did Sana say", IntentRead, "", "m1-text"},
		{"Leo Brandt's message", IntentRead, "", "agent-msg"},
		// A name in bold on a line of its own with the time, the message below: one message's
		// header and body, not two rows of a list.
		{"what did Noor write", IntentRead, "", "m3-text"},
		{"what did Priya reply", IntentRead, "", "n3-text"},
		// Asked for a count: the badge beside her name, not the time beside it in her message.
		{"the unread count for Sana Park", IntentRead, "", "badge-sana"},
	})
}

// TestResolve_PriceInACondition: "how much is delivery" is the delivery line's price, not the
// threshold of the sentence about free delivery beside it.
func TestResolve_PriceInACondition(t *testing.T) {
	runResolveCases(t, "summary.html", []resolveCase{
		{"how much is delivery", IntentRead, "", "ship"},
		{"how much is gift wrap", IntentRead, "", "wrap"},
		{"the order total", IntentRead, "", "tot"},
	})
}

// TestPriceAsCondition: a price a sentence compares with, not one it states.
func TestPriceAsCondition(t *testing.T) {
	for text, want := range map[string]bool{"Free delivery on orders over £40": true, "Save 10% when you spend more than $100": true,
		"Orders over 50 € ship free": true, "Plans from $9 a month": false, "Delivery – Royal Mail £2.99": false, "Total £28.99": false} {
		if got := priceAsCondition.MatchString(text); got != want {
			t.Errorf("priceAsCondition(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestResolve_Counts reads counts as dashboards show them: a stat tile's figure above its label,
// a tab's or a filter chip's count beside its words, a result count in a heading over results
// that have figures of their own, and a date beside a figure in millions.
func TestResolve_Counts(t *testing.T) {
	runResolveCases(t, "counts.html", []resolveCase{
		// The label ends its tile: it labels the figure above it, not the next tile's.
		{"how many robots are charging", IntentRead, "", "n-charging"},
		{"how many faults", IntentRead, "", "n-faults"},
		// The row of tabs or chips holds every count: it is none of them.
		{"how many pending orders do I have", IntentRead, "", "c-open"},
		{"how many customers have a payment overdue", IntentRead, "", "c-overdue"},
		// "the number of trucks": what is counted owns nothing; a distance is no count.
		{"the number of trucks found", IntentRead, "", "c-trucks"},
		// "1.42M" is 1.42 million, not 1.42 minutes.
		{"when does my plan renew?", IntentRead, "", "next-bill"},
		// A figure used of a limit ("18 / 25", "3 of 5") is the figure, not the pair.
		{"how many seats are we using", IntentRead, "", "u-seats"},
		{"events used this month", IntentRead, "", "u-events"},
		{"how many projects do we have", IntentRead, "", "u-proj"},
		// A long text with a figure somewhere in it is no count.
		{"the number of DNS records", IntentRead, "", "rec-count"},
		// "the latest episode" is the one published last, wherever its row is; a rate is a
		// percentage.
		{"completion rate of the latest episode", IntentRead, "", "cmp-46"},
		{"completion rate of the oldest episode", IntentRead, "", "cmp-44"},
		// A total is a sum of money: the price in the buyer's card, though nothing says "total".
		{"order total for Priya Shah", IntentRead, "", "tot-priya"},
	})
}

// TestResolve_TableLookups finds where a row and a column meet when the description names the
// column by a word that stands for its header ("charge" for Amount) or names the row by a cell
// that is not its first ("the overdue bill": the row whose status says Overdue).
func TestResolve_TableLookups(t *testing.T) {
	runResolveCases(t, "lookups.html", []resolveCase{
		{"the Lyft charge", IntentRead, "", "a-2"},
		{"the Netflix charge", IntentRead, "", "a-1"},
		{"the amount of the salary deposit", IntentRead, "", "a-3"},
		{"the supplier on the overdue bill", IntentRead, "", "s-2"},
		{"the supplier on the draft bill", IntentRead, "", "s-3"},
		{"the due date of the overdue bill", IntentRead, "", "d-2"},
		// The summary's figure, not a bill's amount, is what is overdue in all.
		{"the overdue total", IntentRead, "", "total-2"},
		// A line of values: the one whose label says it, not the line.
		{"how much interest will I pay over the life of the car loan", IntentRead, "", "v-2"},
		{"the amount financed", IntentRead, "", "v-1"},
		{"how much more can I send today", IntentRead, "", "v-4"},
		{"my daily limit", IntentRead, "", "v-3"},
		// A count is a number: the cell in a club's row under L (Lost), not the form guide's
		// letter named Lost beside it.
		{"how many games has Millbrook lost", IntentRead, "", "l-1"},
		{"how many games has Eastfield lost", IntentRead, "", "l-2"},
		// A label hands on to the value inside its wrapper, not the wrapper and its icon.
		{"how long has it been deploying", IntentRead, "", "v-5"},
	})
}

// TestResolve_Filters reads "show only X" as setting the filter that keeps X: the control named
// for X, not an item that shows X or says "show".
func TestResolve_Filters(t *testing.T) {
	runResolveCases(t, "lookups.html", []resolveCase{
		{"show only my channels", IntentClick, "", "f-3"},
		{"only mentions", IntentClick, "", "f-2"},
		{"only show unread", IntentClick, "", "f-1"},
		// The list's noun after the kept kind says where the filter is, not its name.
		{"show only hot leads", IntentClick, "", "f-4"},
		{"only show cold leads", IntentClick, "", "f-5"},
		{"open the hot leads report", IntentClick, "", "r-1"},
		// A name in capitals may abbreviate the words (AWD, FWD).
		{"only show all-wheel drive", IntentClick, "", "f-6"},
		{"front wheel drive", IntentClick, "", "f-7"},
	})
}

// TestResolve_ForeignPages resolves English targets on pages in French, Spanish and Dutch: the
// interface words are read as the English a description uses ("Supprimer" is delete, a
// compound "Verzendkosten" is shipping cost), and "Free" is the price of what costs nothing.
func TestResolve_ForeignPages(t *testing.T) {
	runResolveCases(t, "foreign.html", []resolveCase{
		{"proceed to checkout", IntentClick, "", "e12"},
		{"delete the lamp from the cart", IntentClick, "", "e6"},
		{"the quantity", IntentClick, "", "e5"},
		{"the total amount", IntentRead, "", "e9"},
		{"type a discount code", IntentType, "", "e10"},
		{"the search box", IntentType, "", "e1"},
		{"change the language", IntentClick, "", "e4"},
		{"my account", IntentClick, "", "e2"},
		{"the password field", IntentType, "", "e15"},
		{"the username", IntentType, "", "e14"},
		{"save", IntentClick, "", "e17"},
		{"the shipping cost", IntentRead, "", "e18"},
		{"pay for the order", IntentClick, "", "e19"},
		{"close", IntentClick, "", "e20"},
		// "Free" answers a price; "free shipping over $35" states a condition.
		{"the delivery cost", IntentRead, "", "e22"},
		{"how much is delivery", IntentRead, "", "e22"},
	})
}

// TestResolve_Spreadsheet looks a value up in a spreadsheet by the words of its first row and
// of its row: "how much is left for dining out" is D4, not the cell that says Left.
func TestResolve_Spreadsheet(t *testing.T) {
	runResolveCases(t, "sheet.html", []resolveCase{
		{"the amount spent on utilities", IntentRead, "", "s-C3"},
		{"the budget for groceries", IntentRead, "", "s-B2"},
		{"how much is left for dining out", IntentRead, "", "s-D4"},
		{"the total spent", IntentRead, "", "s-C5"},
		{"the actual spend on groceries", IntentRead, "", "s-C2"},
	})
}

// TestResolve_TripLegs reads a trip's legs, each a row of side-by-side blocks (a label and a
// day, a time and an airport): the block that says "Outbound" is part of its own leg's row, so
// its times are the outbound flight's, not the return's.
func TestResolve_TripLegs(t *testing.T) {
	runResolveCases(t, "legs.html", []resolveCase{
		{"what time does the outbound flight leave", IntentRead, "", "dep-1"},
		{"what time does the return flight leave", IntentRead, "", "dep-2"},
		{"what day is the return flight", IntentRead, "", "day-2"},
	})
}

// TestResolve_ActionOnAThing: "remove the dog photo" is the control in the dog photo's row
// named by another word for the action ("delete"), not the photo itself.
func TestResolve_ActionOnAThing(t *testing.T) {
	runResolveCases(t, "photos.html", []resolveCase{
		{"remove the dog photo", IntentClick, "", "del-2"},
		{"remove the fireworks picture", IntentClick, "", "del-3"},
		{"delete the lake photo", IntentClick, "", "del-1"},
	})
}

// TestResolve_RequestAnswers: a request is accepted by its Confirm or Approve button and
// declined by its Delete or Ignore button, in its own row.
func TestResolve_RequestAnswers(t *testing.T) {
	runResolveCases(t, "requests.html", []resolveCase{
		{"accept Hana's friend request", IntentClick, "", "ok-1"},
		{"decline the friend request", IntentClick, "", "no-1"},
		{"accept Omar's request", IntentClick, "", "ok-2"},
		{"decline Omar", IntentClick, "", "no-2"},
	})
}

// TestResolve_OtherWords: a list's Filter box is where to search it, an asking price is the
// price, and what one checks by looking is a button, not a check box.
func TestResolve_OtherWords(t *testing.T) {
	runResolveCases(t, "listing.html", []resolveCase{
		{"search pipelines", IntentType, "", "pfilter"},
		{"the asking price", IntentRead, "", "price"},
		// "check availability" is a button that says so; "check" a box is still ticking it.
		{"check availability of the Honda Civic", IntentClick, "", "avail-2"},
		{"check my availability for the Mazda", IntentClick, "", "avail-1"},
		{"check compare on the Civic", IntentClick, "", "cmp-2"},
		{"tick compare on the first car", IntentClick, "", "cmp-1"},
		{"tick compare on the second car", IntentClick, "", "cmp-2"},
		// "act" abbreviates activity: the activities' list is the one counted over, not the
		// blocks inside one activity.
		{"the time of the last activity in the list", IntentRead, "", "t-3"},
		{"the distance of the second activity", IntentRead, "", "d-2"},
	})
}

// TestResolve_StrictKinds: "how long will delivery take" is answered by a duration only, not by
// the line that says "Delivery fee".
func TestResolve_StrictKinds(t *testing.T) {
	runResolveCases(t, "listing.html", []resolveCase{
		{"how long will delivery take", IntentRead, "", "eta"},
		{"how much is delivery", IntentRead, "", "fee"},
	})
}

// TestResolve_MoneyQuestions: "how much money is in my checking account" asks for an amount in
// the checking account's row; "money" is the kind asked for, not a word to find.
func TestResolve_MoneyQuestions(t *testing.T) {
	runResolveCases(t, "accounts.html", []resolveCase{
		{"how much money is in my checking account", IntentRead, "", "bal-chk"},
		{"how much money do I have in savings", IntentRead, "", "bal-sav"},
		{"how much more can I send today", IntentRead, "", "remaining"},
	})
}

// TestResolve_Idioms: the ways people ask that pages word otherwise. A "who" question asks for
// the doer a row header labels ("Designed by"), or whom a thing went to ("assigned to" is the
// assignee, "sent to" the recipients); "how tall" for a height; phrasal verbs for one-word
// actions ("one more" is Increase, "get rid of" Delete, "take away" Remove, "go on to"
// Continue, "look up" Search); "bigger" for Large, "empty" for Clear; an icon font's cross
// ("fa-times") for Close. The label of a stepper hands "one more" to its Increase button, not
// to the first button after it.
func TestResolve_Idioms(t *testing.T) {
	runResolveCases(t, "idioms.html", []resolveCase{
		{"who designed it?", IntentRead, "", "designer"},
		{"how tall is the lighthouse", IntentRead, "", "height"},
		{"who is T-102 assigned to?", IntentRead, "", "as-102"},
		{"who was the newsletter sent to", IntentRead, "", "sent-to"},
		{"one more child seat please", IntentClick, "", "inc-seat"},
		{"one less child seat", IntentClick, "", "dec-seat"},
		{"empty the queue", IntentClick, "", "clear-q"},
		{"make the text bigger", IntentClick, "", "ts-large"},
		{"dismiss the notice", IntentClick, "", "dismiss-notice"},
		{"go on to the payment step", IntentClick, "", "continue"},
		{"look up a student", IntentType, "", "find-student"},
		{"take away Tom's access", IntentClick, "", "tom-remove"},
		{"get rid of this report", IntentClick, "", "del-report"},
	})
}

// TestResolve_LongListsAndCards: a row's control found by the row's words wherever the row is
// in a long list of look-alikes (every Unblock scores alike; the 93rd row's handle says which);
// a card's control named by the instruction's verb past the card's other blocks ("Select the
// red-eye"); a grid's column named by the role word ("the third track's title" is under
// Title, no heading); repeated blocks counted by the noun that titles them ("the second
// reference" is the block titled Reference 2, not the landlord's block before it).
func TestResolve_LongListsAndCards(t *testing.T) {
	runResolveCases(t, "longlists.html", []resolveCase{
		{"unblock @felix.castillo", IntentClick, "", "ub-92"},
		{"Select the red-eye", IntentClick, "", "sel-2"},
		{"the third track's title", IntentAny, "", "t3"},
		{"the second reference's phone number", IntentType, "", "r2p"},
	})
}

// TestResolve_BareQualifiers: an "in X" phrase with no article qualifies what is asked for
// when no part of the page is called X: "in metric" is the Metric units switch, "in pounds"
// the option that says pound, "in April" the April row's amount; "in the cart" would still be
// a place. A state word before a list's noun after "show" or "switch to" names the list's tab or
// filter, not the page's link to the list.
func TestResolve_BareQualifiers(t *testing.T) {
	runResolveCases(t, "qualifiers.html", []resolveCase{
		{"show measurements in metric", IntentClick, "", "metric"},
		{"show prices in pounds", IntentClick, "", "gbp"},
		{"how much did I pay in April", IntentRead, "", "pay-apr"},
		// A list's tab named for the state it keeps, the list's noun after it.
		{"show closed jobs", IntentClick, "", "tab-closed"},
		{"switch to the archived projects", IntentClick, "", "tab-archived"},
		// A percentage is a percent.
		{"set the down payment percentage", IntentType, "", "dp-pct"},
	})
}

// TestResolve_Questions2: questions and value look-ups whose answer is a figure on the page.
// A price breakdown's line whose label is a button (it explains the fee when pressed) labels the
// figure at the far end of its line. "a First class ticket" is a fare class, not the first of
// anything. "the total I'll be charged" is a total: the clause after the noun says nothing of
// which element, nor does the "'ll" of its contraction. "Essentials per line" is Essentials' price:
// what follows "per" is the unit, not the head. A nutrition tile's "<b>412</b>Calories", its
// figure laid out as a block, reads "412 Calories", and reading it reads the figure. "How long"
// is not answered by a time of day ("9:40 AM – 3:31 PM"). The time in "⏱ <span>08:15</span> left"
// is the span.
func TestResolve_Questions2(t *testing.T) {
	runResolveCases(t, "questions2.html", []resolveCase{
		{"the cleaning fee", IntentRead, "", "cleaning"},
		{"how much are the taxes?", IntentRead, "", "taxes"},
		{"how much is a First class ticket?", IntentRead, "", "fare-first"},
		{"what's the total I'll be charged", IntentRead, "", "due-today"},
		{"how much is Essentials per line?", IntentRead, "", "plan-ess"},
		{"calories per serving", IntentRead, "", "kcal"},
		{"how long is the Delta flight that leaves at 9:40?", IntentRead, "", "dur-dl"},
		{"how much time is left?", IntentRead, "", "qz-clock"},
	})
}

// TestResolve_Questions3: "how much time" asks for a duration as "how long" does, not the Time
// field of a booking (a time of day). "in April" says when, not where: the payment of the row
// that says April.
func TestResolve_Questions3(t *testing.T) {
	runResolveCases(t, "questions3.html", []resolveCase{
		{"how much time is left on the table hold?", IntentRead, "", "hold-t"},
		{"how much did I pay in April", IntentRead, "", "pay-apr"},
	})
}

// TestResolve_Questions4: what a "how much" question spends says only that a price is asked
// for: "how much did I spend at Whole Foods" is the price in the row of Whole Foods, not the
// spending limits, and "how much does an additional driver cost per day" the driver's price.
// The "has" of "how many items has the shopper found" is an auxiliary, not a word of the answer.
func TestResolve_Questions4(t *testing.T) {
	runResolveCases(t, "questions4.html", []resolveCase{
		{"how much did I spend at whole foods", IntentRead, "", "tx-2"},
		{"how much does an additional driver cost per day?", IntentRead, "", "x-driver"},
		{"how many items has the shopper found?", IntentRead, "", "found-n"},
	})
}

// TestResolve_Ties: a tie the description settles in words the score weighs too little. "zoom
// in on the map" says the name "Zoom in" word for word, stop words included; "skip" is Next and
// "start" From (one of a pair of opposites); "in pounds" is the lb field, not the oz one; an
// identifier written in full ("redis-cart-0") is its row's; "my resume" is the Attach button
// whose id says resume.
func TestResolve_Ties(t *testing.T) {
	runResolveCases(t, "ties.html", []resolveCase{
		{"zoom in on the map", IntentClick, "", "zoom-in"},
		{"zoom out", IntentClick, "", "zoom-out"},
		{"skip this song", IntentClick, "", "next"},
		{"set when quiet hours start", IntentType, "", "qh-from"},
		{"the package weight in pounds", IntentType, "", "wt-lb"},
		{"the bin icon for redis-cart-0", IntentClick, "", "del-0"},
		{"upload my resume", IntentClick, "", "resume-btn"},
	})
}

// TestResolve_TiesInOrder: "sort the unit test scores from highest to lowest" says both sides
// of high and low, and their order says which sort; "the checkout date" is the Checkout box,
// not the Check-in box that starts the same.
func TestResolve_TiesInOrder(t *testing.T) {
	runResolveCases(t, "ties.html", []resolveCase{
		{"sort the unit test scores from highest to lowest", IntentClick, "", "sort-desc"},
		{"sort the scores from lowest to highest", IntentClick, "", "sort-asc"},
		{"change the checkout date", IntentType, "", "check-out"},
	})
}

// TestResolve_TiesByKind: "the essay answer box" is the answer box that takes lines of text;
// "view the flight receipt" is the receipt of the row whose category says Airfare (a select's
// chosen option is what its row says); "how long to pause for" asks for a duration, which the
// Pause length box holds.
func TestResolve_TiesByKind(t *testing.T) {
	runResolveCases(t, "ties.html", []resolveCase{
		{"the essay answer box", IntentType, "", "q5-ans"},
		{"view the flight receipt", IntentClick, "", "rc1"},
		{"how long to pause for", IntentClick, "", "pause-len"},
	})
}

// TestResolve_NearTies: a control that carries every word of the description beats one close
// ahead of it that needs a neighbour for some ("bump up the servings by one" is the Increase
// servings button, not the Servings box it anchors).
func TestResolve_NearTies(t *testing.T) {
	runResolveCases(t, "ties.html", []resolveCase{
		{"bump up the servings by one", IntentClick, "", "srv-inc"},
	})
	// The menus of the call and the note tie, a little ahead of the task's, which says task.
	runResolveCases(t, "crm-activity.html", []resolveCase{
		{"the three-dot menu on the task", IntentClick, "", "k4"},
	})
}

// TestResolve_IconPictures: an icon named by its picture. A button or link that shows no words
// is an icon ("the gear icon" is the bare button labelled Class settings, not the Settings
// link); a star is a watchlist as well as a favourite, a bookmark a wishlist, and a paper plane
// the send button.
func TestResolve_IconPictures(t *testing.T) {
	runResolveCases(t, "icon-controls.html", []resolveCase{
		{"the gear icon", IntentClick, "", "class-settings"},
		{"the star icon", IntentClick, "", "watch"},
		{"the bookmark icon", IntentClick, "", "wishlist"},
		{"the paper plane button", IntentClick, "", "send"},
	})
}

// TestResolve_IconGlyphs: a button or text that shows a symbol says its word: "the trash can
// icon in the toolbar" is the 🗑 button, not the Trash folder; "the star rating" is "4.6★". A
// trash can on a draft is its Discard button.
func TestResolve_IconGlyphs(t *testing.T) {
	runResolveCases(t, "icon-controls.html", []resolveCase{
		{"the trash can icon in the toolbar", IntentClick, "", "trash-btn"},
		{"the star rating", IntentRead, "", "rating"},
	})
	// A trash can on a draft discards it.
	runResolveCases(t, "compose.html", []resolveCase{
		{"the trash can at the bottom of the draft", IntentClick, "", "discard"},
	})
}

// TestResolve_ThreeDots: the three dots are a menu's "More" and also its "Options" ("Options
// for notification from Bay Area Climbers").
func TestResolve_ThreeDots(t *testing.T) {
	runResolveCases(t, "notifications.html", []resolveCase{
		{"the three dots on the climbing group notification", IntentClick, "", "n3-menu"},
	})
}

// TestResolve_NextTo: "the info icon next to the panoramic roof" is the icon in the row that
// says it, as "for" would say; an arrow beside a button is its split button's "More ...
// options".
func TestResolve_NextTo(t *testing.T) {
	runResolveCases(t, "icon-controls.html", []resolveCase{
		{"the info icon next to the panoramic roof", IntentClick, "", "info-roof"},
		{"the arrow next to Create campaign", IntentClick, "", "create-more"},
	})
}

// TestResolve_ChoiceOrdinals: "the last answer choice" counts a question's radios, not the
// quiz's navigation links: a choice is a control to pick, so the radios are the items.
func TestResolve_ChoiceOrdinals(t *testing.T) {
	runResolveCases(t, "relations2.html", []resolveCase{
		{"the last answer choice", IntentAny, "", "c-d"},
		{"the second answer choice", IntentAny, "", "c-b"},
		{"pick the first option", IntentClick, "", "c-a"},
	})
}

// TestResolve_WeekdayOrdinals: "the last Friday in August" is a date the calendar's buttons
// name, the last of those that say Friday and August, not the last of the page's day buttons.
func TestResolve_WeekdayOrdinals(t *testing.T) {
	runResolveCases(t, "relations2-dates.html", []resolveCase{
		{"the last Friday in August", IntentAny, "", "aug-29"},
		{"the first Monday in July", IntentClick, "", "jul-7"},
	})
}

// TestResolve_DayOrdinals: a calendar's week is a row of days, each one an item: "the last
// day of July" is the 31st, not the first day of July's last week.
func TestResolve_DayOrdinals(t *testing.T) {
	runResolveCases(t, "relations2-dates.html", []resolveCase{
		{"the last day of July", IntentAny, "", "jul-31"},
	})
}

// TestResolve_FieldOfNthRole: "hostname of the third alert in the list" reads a field of the
// third row, not the third element of the alert role.
func TestResolve_FieldOfNthRole(t *testing.T) {
	runResolveCases(t, "relations2-alerts.html", []resolveCase{
		{"hostname of the third alert in the list", IntentAny, "", "h3"},
	})
}

// TestResolve_ActionInstructions: an instruction's verb names the control's action. "Confirm
// the pick for TP-11802" is the row's "Confirm pick" button, not the quantity box the SKU
// also names.
func TestResolve_ActionInstructions(t *testing.T) {
	runResolveCases(t, "actions2.html", []resolveCase{
		{"confirm the pick for TP-11802", IntentAny, "", "ok-08"},
		{"confirm the pick for BX-20931", IntentClick, "", "ok-07"},
	})
	// "pay with Apple Pay": the means is the payment option, not the Pay now button.
	runResolveCases(t, "actions3.html", []resolveCase{
		{"pay with Apple Pay", IntentAny, "", "pm-applepay"},
		{"pay now", IntentClick, "", "pay-now"},
	})
	// "+ Contact" is the add button: "add a new contact" is not the New this week filter.
	runResolveCases(t, "actions4.html", []resolveCase{
		{"add a new contact", IntentAny, "", "add-contact"},
		{"growth this quarter", IntentRead, "", "growth"},
	})
	// "send a message to the host" is Contact Host; "go with the Week plan" its Select plan
	// button; "the number of guests" the Party size.
	runResolveCases(t, "actions5.html", []resolveCase{
		{"send a message to the host", IntentAny, "", "contact-host"},
		{"go with the Week plan", IntentAny, "", "sel-week"},
		{"change the number of guests", IntentAny, "", "party"},
	})
	// "book the loft" is the loft's Select button; "chat with support" the Chat with us link,
	// not the Support page.
	runResolveCases(t, "actions6.html", []resolveCase{
		{"book the loft", IntentAny, "", "sel-loft"},
		{"chat with support", IntentAny, "", "chat"},
	})
	// "the Google login" is Continue with Google, not the password form's Log in; "save the
	// new card" is Update card, not the billing details' Save.
	runResolveCases(t, "actions7.html", []resolveCase{
		{"the Google login", IntentAny, "", "google"},
		{"save the new card", IntentAny, "", "update-card"},
	})
	// "trash the ID I uploaded" is its Delete file button, not an Upload; "mark Tomás's review
	// as helpful" the Helpful button on his review.
	runResolveCases(t, "actions8.html", []resolveCase{
		{"trash the ID I uploaded", IntentAny, "", "del-id"},
		{"mark Tomás's review as helpful", IntentAny, "", "rv2-helpful"},
	})
}

// TestResolve_Sides: of look-alikes in one row (or column) that the words do not part, "on the
// left", "on the right", "top" and "bottom" say which by where each is.
func TestResolve_Sides(t *testing.T) {
	runResolveCases(t, "sides.html", []resolveCase{
		{"the aisle seat on the left in row 14", IntentClick, "", "s14c"},
		{"the aisle seat on the right", IntentClick, "", "s14d"},
		{"the change flight button on the right", IntentClick, "", "edit-ret"},
		{"the bottom move passenger button", IntentClick, "", "up2"},
		{"the window seat on the right", IntentClick, "", "s14f"},
	})
}

// TestResolve_NotOrdinals: "top up" is a verb, and "last season" with no article the season
// before this one, not an ordinal over the page's items; "the last match" still counts.
func TestResolve_NotOrdinals(t *testing.T) {
	runResolveCases(t, "lastseason.html", []resolveCase{
		{"Top up", IntentClick, "", "topup"},
		{"top up my credit", IntentClick, "", "topup"},
		{"pick last season", IntentAny, "", "season"},
		{"the last match", IntentClick, "", "m3"},
	})
}

// TestResolve_LabelHandsToControl: a label element that the words find, through its control's
// chosen option, hands a choice on to that control; a check box's label, after it, hands on to
// it, not to the next check box.
func TestResolve_LabelHandsToControl(t *testing.T) {
	runResolveCases(t, "labelhand.html", []resolveCase{
		{"choose an annual membership", IntentAny, "", "plan"},
		{"choose my other child", IntentAny, "", "kid"},
		{"tick email me offers", IntentClick, "", "news"},
	})
}

// TestResolve_ValueByLeadAndMenuDots checks values read off running text and a menu named by
// its dots: "the subscription end date" is the date the words "ends on" lead, not the date
// whose id says "agreement-date" ("end" tells it, "subscription" is on every line); "the card
// expiry date" is the "expires 11/28", not the date a label that says only "date" labels; "the
// ... menu for brand-kit.zip" is that row's More actions button, not its Star button.
func TestResolve_ValueByLeadAndMenuDots(t *testing.T) {
	runResolveCases(t, "values-lead.html", []resolveCase{
		{"the subscription end date", IntentAny, "", "term-end"},
		{"the subscription start date", IntentAny, "", "term-start"},
		{"the card expiry date", IntentAny, "", "card-exp"},
		{"the next invoice date", IntentAny, "", "next-invoice"},
		{"the ... menu for brand-kit.zip", IntentAny, "", "more-2"},
	})
}

// TestResolve_LookupOverRowmates checks a table lookup where the row and the column the
// description names meet: "wins for Millhaven Albion" is the cell under W (Won) in the row the
// club's row header opens (the position cell before it is no key), not a "Won" badge of its
// Form column; "Lancashire's overall sellout rate" is the cell in Lancashire's row, not the
// page's Overall sellout rate figure, which is nobody's in particular.
func TestResolve_LookupOverRowmates(t *testing.T) {
	runResolveCases(t, "league-lookups.html", []resolveCase{
		{"wins for Millhaven Albion", IntentAny, "", "w-mill"},
		{"points for Stoneleigh", IntentAny, "", "pts-stone"},
		{"Lancashire's overall sellout rate", IntentAny, "", "c-b2"},
		{"the overall sellout rate", IntentAny, "", "k-1"},
	})
}

// TestResolve_LastOfSiblingsWithModifiers checks that siblings alike but for a modifier class
// are one list: "the last log line" is the ERROR line that ends the log, though its class
// ("ln lv-error") is not the INFO lines' ("ln lv-info").
func TestResolve_LastOfSiblingsWithModifiers(t *testing.T) {
	runResolveCases(t, "logs-panel.html", []resolveCase{
		{"the last log line", IntentAny, "", "last-line"},
	})
}

// TestResolve_ValueShapedLikeItsWord checks values that look like what the description names,
// though no word on the page says it: "the firmware version" is the "4.2.7 Build 250118" that
// "Firmware" leads, not the Firmware Upgrade link; "commit hash of the renovate build" is the
// "7d3e9a1f" in the renovate build's cell, not the renovate-bot who triggered it.
func TestResolve_ValueShapedLikeItsWord(t *testing.T) {
	runResolveCases(t, "version-hash.html", []resolveCase{
		{"the firmware version", IntentAny, "", "fw-ver"},
		{"commit hash of the renovate build", IntentAny, "", "b1-sha"},
	})
}

// TestResolve_OrdinalOfPossessor checks "X's last message": the last of the messages that are
// X's (the lines in the items that name X), not the last line that names X, even when the
// message's id says whose it is (id="jon-last" does not make it a line naming Jon).
func TestResolve_OrdinalOfPossessor(t *testing.T) {
	runResolveCases(t, "chat-panel.html", []resolveCase{
		{"Maya's last message", IntentAny, "", "m4"},
		{"Jon's last message", IntentAny, "", "jon-last"},
		{"Maya's first message", IntentAny, "", "m2"},
	})
}

// TestResolve_RoleWordOfTheOwner checks a role word that names whose value is asked for, not
// what: "the fare for the electric option" is the fare in the option that says Electric, not
// the option (a radio); "fare" asks for a price as "price" does.
func TestResolve_RoleWordOfTheOwner(t *testing.T) {
	runResolveCases(t, "ride-fares.html", []resolveCase{
		{"the fare for the electric option", IntentAny, "", "fare-eco"},
		{"the price of the XL option", IntentAny, "", "fare-xl"},
	})
}

// TestResolve_PossessorOnAnotherPart checks a value whose best anchor says part of the
// description while another part of its own item says whose it is: "price for 10+ packs of the
// decking screws" is the 10+ tier's price in the row that names the decking screw (the "10+"
// on every row says which tier, the row's name whose), not the 1+ price of that row nor the
// tier line around the price.
func TestResolve_PossessorOnAnotherPart(t *testing.T) {
	runResolveCases(t, "tier-prices.html", []resolveCase{
		{"price for 10+ packs of the decking screws", IntentAny, "", "pf"},
		{"price for 10+ packs of the plasterboard screws", IntentAny, "", "ph"},
	})
}

// TestResolve_SetterVerbs checks that "change X" finds the control whose value is X, though its
// name says no "change": the row's Category select (the row says which), the Account manager
// select for "who manages" (a who clause names the doer); a button named for the change stays
// the target when the description says its words.
func TestResolve_SetterVerbs(t *testing.T) {
	runResolveCases(t, "setters.html", []resolveCase{
		{"change the category of the train ride", IntentAny, "", "cat-tfl"},
		{"change the category of the coffee purchase", IntentAny, "", "cat-bb"},
		{"set the category of the grocery shopping", IntentAny, "", "cat-tesco"},
		{"change who manages this account", IntentAny, "", "manager"},
		{"change the plan", IntentAny, "", "change-plan"},
	})
}

// TestResolve_NamedForAction checks that a control named after the instruction's verb is the
// target though it shares no other word, its section or row saying which: the Mute check box
// under the 5 GHz heading, not the Network link; the Select box of the row with that address.
func TestResolve_NamedForAction(t *testing.T) {
	runResolveCases(t, "named-actions.html", []resolveCase{
		{"mute the 5 GHz network", IntentAny, "", "hide5"},
		{"mute the 2.4 GHz network", IntentAny, "", "hide24"},
		{"select the client with L-4051", IntentAny, "", "dev3"},
		{"select the client on lease L-3318", IntentAny, "", "dev2"},
	})
}

// TestResolve_ChooseAChoice checks that "choose X" is the radio button of that answer, not a
// link whose name starts with the word.
func TestResolve_ChooseAChoice(t *testing.T) {
	runResolveCases(t, "choices.html", []resolveCase{
		{"choose Median", IntentAny, "", "opt-b"},
		{"pick Variance", IntentAny, "", "opt-a"},
	})
}

// TestResolve_OpenNamedControl checks that "open the locker from my phone" is the control
// named after the verb ("Open locker remotely"), not another locker's Change locker button.
func TestResolve_OpenNamedControl(t *testing.T) {
	runResolveCases(t, "open-actions.html", []resolveCase{
		{"open the locker from my phone", IntentAny, "", "open-1"},
	})
}

// TestResolve_MakeTheNthX checks that "make the second print matte" is the Matte choice of the
// second print: the word after the counted item is the choice, not part of what is counted.
func TestResolve_MakeTheNthX(t *testing.T) {
	runResolveCases(t, "finishes.html", []resolveCase{
		{"make the second print matte", IntentAny, "", "l2-matte"},
		{"make the third print glossy", IntentClick, "", "l3-gloss"},
	})
}

// TestResolve_VerbAndObject checks that a control named for the action and its object ("Delete
// selected") beats one named for the action alone beside the other words, and that a name
// saying the verb only as done ("Deleted files", "Saved address") does not do the action.
func TestResolve_VerbAndObject(t *testing.T) {
	runResolveCases(t, "verb-forms.html", []resolveCase{
		{"delete the selected files", IntentAny, "", "del-sel"},
		{"save the recipient to my address book", IntentAny, "", "save-contact"},
	})
}

// TestResolve_JumpLinkIsNoAction checks that an action is its control, not a link that jumps
// to the part of the page where the control is ("Submit it below" for "send the meter
// reading").
func TestResolve_JumpLinkIsNoAction(t *testing.T) {
	runResolveCases(t, "jump-links.html", []resolveCase{
		{"send the meter reading", IntentAny, "", "send"},
	})
}

// TestResolve_AddAnOption checks that "add the roof rack" is the Roof Rack check box (checking
// it adds the option), not one of the accessories' Add buttons that say only the verb.
func TestResolve_AddAnOption(t *testing.T) {
	runResolveCases(t, "options.html", []resolveCase{
		{"add the roof rack", IntentAny, "", "o-rack"},
		{"add the cargo organiser", IntentAny, "", "acc-2"},
	})
}

// TestResolve_LabelHandsToItsControl checks that a label element beside its select hands the
// click to the select it names ("choose a 20 year loan": the Loan program select, whose options
// say 20-year), and not to another control after it.
func TestResolve_LabelHandsToItsControl(t *testing.T) {
	runResolveCases(t, "label-for.html", []resolveCase{
		{"choose a 20 year loan", IntentAny, "", "program"},
		{"browse files", IntentAny, "", "browse"},
	})
}

// TestResolve_StateQuestions checks that a yes-or-no question about a thing's state ("is the
// search service working?") reads the status shown beside the thing, not the thing's name.
func TestResolve_StateQuestions(t *testing.T) {
	runResolveCases(t, "wh-questions.html", []resolveCase{
		{"is search working?", IntentRead, "", "c2-state"},
		{"is the gateway up right now?", IntentRead, "", "c3-state"},
		{"is storage still online", IntentRead, "", "c4-state"},
	})
}

// TestResolve_WhoNameInSentence checks that a question asking who is answered by the person's
// name inside the sentence that says the rest ("... goes to <span>Harriet Osei</span> for
// approval"), not by the whole sentence.
func TestResolve_WhoNameInSentence(t *testing.T) {
	runResolveCases(t, "wh-approvals.html", []resolveCase{
		{"who will approve my claim?", IntentRead, "", "approver"},
		{"who does my claim go to", IntentRead, "", "approver"},
	})
}

// TestResolve_WhereWhyQuestions checks that "where is X going" reads X's destination (the cell
// under Destination in X's row) and that "why ..." asks for the reason a page labels Reason.
func TestResolve_WhereWhyQuestions(t *testing.T) {
	runResolveCases(t, "wh-shipments.html", []resolveCase{
		{"where is FL-20417 going", IntentRead, "", "d2"},
		{"where is FL-20430 headed?", IntentRead, "", "d4"},
		{"why I'm writing in", IntentClick, "", "topic"},
	})
}

// TestResolve_CountUnits: in "how many X ..." the plural X is the unit counted, which a page's
// total says ("Vans 64 vans", "Tickets 212"); the count asked for is the one the other words
// label: a state the vans are in ("Maintenance 5"), the new tickets' badge.
func TestResolve_CountUnits(t *testing.T) {
	runResolveCases(t, "quantities.html", []resolveCase{
		{"how many vans are in Maintenance?", IntentRead, "", "f-maint"},
		{"how many vans are in OnRoute", IntentRead, "", "f-onroute"},
		{"how many new tickets are waiting", IntentRead, "", "new-tickets"},
		{"how many new tickets are there", IntentRead, "", "new-tickets"},
		{"how many drivers are on shift", IntentRead, "", "k-drivers"},
	})
}

// TestResolve_PlaceCounts: "how many things are in my X" counts whatever is in X, which the
// page says with a badge on X's link; a link named by its label that shows only an icon and
// the badge hands the count to the badge.
func TestResolve_PlaceCounts(t *testing.T) {
	runResolveCases(t, "quantities.html", []resolveCase{
		{"how many things are in my parts order", IntentRead, "", "parts-n"},
		{"how many items are in the inbox?", IntentRead, "", "inbox-n"},
	})
}

// TestResolve_ResultCounts: what a search found is its results: "how many hotels did the search
// find" reads the figure of "87 results"; and on a listing that never says "results", the
// heading that ends in its count ("Backpacking Tents (24)") answers "how many results".
func TestResolve_ResultCounts(t *testing.T) {
	runResolveCases(t, "hotelsearch.html", []resolveCase{
		{"how many hotels did the search find?", IntentRead, "", "result-n"},
		{"how many stays did my search return", IntentRead, "", "result-n"},
	})
	runResolveCases(t, "tentshop.html", []resolveCase{
		{"how many results", IntentRead, "", "listing-title"},
		{"how many results are there?", IntentRead, "", "listing-title"},
	})
}

// TestResolve_CountHasFigure: a count is read off an element with a figure; a heading of the
// people who have access ("People with access") answers no "how many people".
func TestResolve_CountHasFigure(t *testing.T) {
	runResolveCases(t, "sharepanel.html", []resolveCase{
		{"how many people are in the Design Team?", IntentRead, "", "design-members"},
	})
}

// TestResolve_NumberedLabels: a funnel step's number ("2. Added to cart") is no figure: the
// step's words still label the figure under them.
func TestResolve_NumberedLabels(t *testing.T) {
	runResolveCases(t, "funnel.html", []resolveCase{
		{"how many shoppers added to cart", IntentRead, "", "v2"},
		{"how many shoppers began checkout?", IntentRead, "", "v3"},
	})
}

// TestResolve_Sizes: "how big" asks for a size, which a file list writes in data units ("6.2
// MB" under File size); "how much storage am I using" is the quota line ("am I" says
// nothing of it).
func TestResolve_Sizes(t *testing.T) {
	runResolveCases(t, "drive.html", []resolveCase{
		{"how big is the Q4 forecast deck?", IntentRead, "", "sz-deck"},
		{"how much storage am I using?", IntentRead, "", "quota"},
	})
}

// TestResolve_CountNotPrice: "how many student tickets" is the stepper's quantity, not the
// price beside the ticket's name: a price is no count.
func TestResolve_CountNotPrice(t *testing.T) {
	runResolveCases(t, "tickets.html", []resolveCase{
		{"how many student tickets are selected", IntentRead, "", "student-qty"},
		{"how many child tickets are selected?", IntentRead, "", "child-qty"},
	})
}

// TestResolve_ThisNotNav: "this show" is the one the page is about; an entry of the navigation
// names another ("Show · 212 episodes").
func TestResolve_ThisNotNav(t *testing.T) {
	runResolveCases(t, "podcastapp.html", []resolveCase{
		{"how many episodes are in this show", IntentRead, "", "ep-count"},
	})
}

// TestResolve_TimeAhead: "how long until the auction ends" asks for a time to come: the
// countdown, not a bid's "4 min ago".
func TestResolve_TimeAhead(t *testing.T) {
	runResolveCases(t, "auction.html", []resolveCase{
		{"how long until the auction ends", IntentRead, "", "closes"},
	})
}

// TestResolve_ComparedPrice: a price a sentence compares with ("cheaper now than at the gate
// ($30)") is not what a thing costs.
func TestResolve_ComparedPrice(t *testing.T) {
	runResolveCases(t, "parking.html", []resolveCase{
		{"how much does one spot cost", IntentRead, "", "spot-price"},
	})
}
