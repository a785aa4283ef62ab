package semantic

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestParse_Roles(t *testing.T) {
	cases := []struct {
		desc  string
		role  string // first role
		words []string
	}{
		{"the email field", "textbox", []string{"email"}},
		{"the Submit button", "button", []string{"submit"}},
		{"the search box", "searchbox", []string{"search"}},
		{"the Menu button", "button", []string{"menu"}},
		{"the Remember me checkbox", "checkbox", []string{"remember"}},
		{"the Weekly radio button", "radio", []string{"weekly"}},
		{"the country dropdown", "combobox", []string{"country"}},
		{"the Settings tab", "tab", []string{"settings"}},
		{"the File menu item", "menuitem", []string{"file"}},
		{"the trash icon", "button", []string{"trash"}},
		{"the page heading", "heading", nil},
		{"the confirmation message", "alert", []string{"confirmation"}},
		{"the comment text box", "textbox", []string{"comment"}},
		{"the About link", "link", []string{"about"}},
	}
	for _, c := range cases {
		p := Parse(c.desc)
		if len(p.Roles) == 0 || p.Roles[0] != c.role {
			t.Errorf("Parse(%q).Roles = %v, want %s first", c.desc, p.Roles, c.role)
		}
		if !reflect.DeepEqual(p.Words, c.words) {
			t.Errorf("Parse(%q).Words = %q, want %q", c.desc, p.Words, c.words)
		}
	}
}

func TestParse_Quoted(t *testing.T) {
	cases := []struct {
		desc   string
		quoted []string
		role   string
	}{
		{`Click the "Save changes" button.`, []string{"Save changes"}, "button"},
		{`the 'Submit' button`, []string{"Submit"}, "button"},
		{`the “Submit” button`, []string{"Submit"}, "button"},
		{`the button that says Log in`, []string{"Log in"}, "button"},
		{`the field labeled Email address`, []string{"Email address"}, "textbox"},
		{`the link named Pricing in the footer`, []string{"Pricing"}, "link"},
		{`the button with the text Add to cart`, []string{"Add to cart"}, "button"},
		{`the result's title`, nil, "heading"},
	}
	for _, c := range cases {
		p := Parse(c.desc)
		if !reflect.DeepEqual(p.Quoted, c.quoted) {
			t.Errorf("Parse(%q).Quoted = %q, want %q", c.desc, p.Quoted, c.quoted)
		}
		if len(p.Roles) == 0 || p.Roles[0] != c.role {
			t.Errorf("Parse(%q).Roles = %v, want %s first", c.desc, p.Roles, c.role)
		}
	}
}

func TestParse_Ordinals(t *testing.T) {
	cases := []struct {
		desc string
		ord  int
		item string
	}{
		{"the first link", 1, ""},
		{"the second result's title", 2, "result"},
		{"the third checkbox", 3, ""},
		{"the 2nd button", 2, ""},
		{"the 3rd row's Delete button", 3, "row"},
		{"the last item", -1, ""},
		{"#2 Add to cart", 2, ""},
		{"the second to last link", -2, ""},
		{"the price of the fourth product", 4, "product"},
		{"the first name field", 0, ""},
		{"last name", 0, ""},
		{"the Submit button", 0, ""},
	}
	for _, c := range cases {
		p := Parse(c.desc)
		if p.Ordinal != c.ord || p.Item != c.item {
			t.Errorf("Parse(%q) ordinal %d item %q, want %d %q", c.desc, p.Ordinal, p.Item, c.ord, c.item)
		}
	}
}

func TestParse_Instructions(t *testing.T) {
	cases := []struct {
		desc   string
		intent Intent
		words  []string
		quoted []string
	}{
		{"Press Submit", IntentClick, []string{"submit"}, nil},
		{"Click on Sign in", IntentClick, []string{"sign"}, nil},
		{"Put the cursor in the search field", IntentType, []string{"search"}, nil},
		{"Type hello world into the email field", IntentType, []string{"email"}, nil},
		{"Fill the username field with bob", IntentType, []string{"username"}, nil},
		{"Read the confirmation message", IntentRead, []string{"confirmation"}, nil},
		{"Select France in the country dropdown", IntentClick, []string{"country"}, nil},
		{`Click the "Save changes" button.`, IntentClick, nil, []string{"Save changes"}},
		{"the email field", IntentAny, []string{"email"}, nil},
		// A hyphen goes on with the word: no instruction to check anything.
		{"check-in date", IntentAny, []string{"check-in", "date"}, nil},
		// A metric named after a verb is no instruction to open anything.
		{"open rate of the June newsletter", IntentAny, []string{"open", "rate", "june", "newsletter"}, nil},
		// The asker having what is counted is said by no page.
		{"how many new orders do I have", IntentRead, []string{"new", "orders"}, nil},
		// What is counted owns nothing.
		{"the number of cars found", IntentAny, []string{"cars", "found"}, nil},
		// The asker's own clause after a question's subject says nothing of the element.
		{"which broadband plan am I on?", IntentRead, []string{"broadband", "plan"}, nil},
		{"which gate are we at", IntentRead, []string{"gate"}, nil},
		// Where a thing came from is its source; where it is going, its destination.
		{"where did the Okafor lead come from", IntentRead, []string{"source", "okafor", "lead"}, nil},
		{"where is PRO 4471 headed", IntentRead, []string{"destination", "pro", "4471"}, nil},
	}
	for _, c := range cases {
		p := Parse(c.desc)
		if p.Intent != c.intent {
			t.Errorf("Parse(%q).Intent = %v, want %v", c.desc, p.Intent, c.intent)
		}
		if !reflect.DeepEqual(p.Words, c.words) || !reflect.DeepEqual(p.Quoted, c.quoted) {
			t.Errorf("Parse(%q) words %q quoted %q, want %q %q", c.desc, p.Words, p.Quoted, c.words, c.quoted)
		}
		if strings.Contains(c.desc, "number of") && len(p.Possessor) > 0 {
			t.Errorf("Parse(%q).Possessor = %q, want none", c.desc, p.Possessor)
		}
	}
}

func TestParse_Attrs(t *testing.T) {
	cases := []struct {
		desc string
		want map[string]string
	}{
		{`the input with name="email"`, map[string]string{"name": "email"}},
		{`the field with placeholder "Search products"`, map[string]string{"placeholder": "Search products"}},
		{`the button with aria-label 'Close dialog'`, map[string]string{"aria-label": "Close dialog"}},
		{`the image with alt text "Company logo"`, map[string]string{"alt": "Company logo"}},
		{`the link with title="Help center"`, map[string]string{"title": "Help center"}},
		{`id=submit-btn`, map[string]string{"id": "submit-btn"}},
	}
	for _, c := range cases {
		p := Parse(c.desc)
		if !reflect.DeepEqual(p.Attrs, c.want) {
			t.Errorf("Parse(%q).Attrs = %v, want %v", c.desc, p.Attrs, c.want)
		}
		if len(p.Quoted) != 0 {
			t.Errorf("Parse(%q).Quoted = %q, want none (attribute values are hints, not text)", c.desc, p.Quoted)
		}
	}
}

func TestParse_Context(t *testing.T) {
	p := Parse("the Contact link in the footer")
	if !reflect.DeepEqual(p.Context, []string{"footer"}) || !reflect.DeepEqual(p.Words, []string{"contact"}) {
		t.Errorf("context %q words %q", p.Context, p.Words)
	}
	p = Parse("the total in the cart summary")
	if !reflect.DeepEqual(p.Context, []string{"cart", "summary"}) {
		t.Errorf("context %q", p.Context)
	}
	p = Parse("the Close button in the modal")
	if !reflect.DeepEqual(p.Context, []string{"dialog"}) {
		t.Errorf("context %q", p.Context)
	}
}

func TestStem(t *testing.T) {
	for _, pair := range [][2]string{{"cookies", "cookie"}, {"entries", "entry"}, {"results", "result"}, {"boxes", "box"}, {"pricing", "price"},
		// Irregular past forms meet their verbs: "Total interest paid" for "how much will I pay".
		{"paid", "pay"}, {"paid", "paying"}, {"sent", "send"}, {"made", "make"}, {"taken", "take"}, {"chose", "choose"}, {"written", "writing"},
		// A long -ture noun meets its verb: "Departure" answers "when does the train leave" as "Departs" does.
		{"departure", "departs"}, {"departure", "departing"}, {"shipped", "shipping"}} {
		if stem(pair[0]) != stem(pair[1]) {
			t.Errorf("stem(%q) = %q, stem(%q) = %q", pair[0], stem(pair[0]), pair[1], stem(pair[1]))
		}
	}
}

// TestParse_Relations: the parts of a description that say whose, which kind of value, or
// name a thing rather than quote it.
func TestParse_Relations(t *testing.T) {
	cases := []struct {
		desc      string
		intent    Intent
		role      string // first role, "" for none
		words     []string
		nameOf    []string
		possessor []string
		itemLink  bool
	}{
		{"mark Renew passport as done", IntentClick, "checkbox", []string{"done", "renew", "passport"}, nil, nil, false},
		{"check in for the flight", IntentClick, "", []string{"check"}, nil, nil, false}, // "in the flight" is its context
		{"Sign up", IntentClick, "", []string{"sign", "up"}, nil, nil, false},
		{"the hotel name", IntentAny, "", []string{"hotel", "name"}, []string{"hotel"}, nil, false},
		{"the article headline", IntentAny, "heading", []string{"article"}, []string{"article"}, nil, false},
		{"the full name field", IntentAny, "textbox", []string{"full", "name"}, nil, nil, false},
		{"the requester's message", IntentAny, "alert", []string{"requester"}, nil, []string{"requester"}, false},
		{"Click the REI result", IntentClick, "link", []string{"rei", "result"}, nil, nil, true},
		// A possessive inside the phrase after the head says whose: this morning's run, not the pace's morning.
		{"my pace on this morning's run", IntentAny, "", []string{"pace", "morning", "run"}, nil, []string{"morning"}, false},
		// What someone said is their message.
		{"what did Ike ask?", IntentAny, "alert", []string{"ike"}, nil, []string{"ike"}, false},
		{"What did the customer say", IntentAny, "alert", []string{"customer"}, nil, []string{"customer"}, false},
		{"the tracking number on Mira's order", IntentAny, "", []string{"tracking", "number", "mira", "order"}, nil, []string{"mira"}, false},
	}
	for _, c := range cases {
		p := Parse(c.desc)
		role := ""
		if len(p.Roles) > 0 {
			role = p.Roles[0]
		}
		if p.Intent != c.intent || role != c.role || !reflect.DeepEqual(p.Words, c.words) ||
			!reflect.DeepEqual(p.NameOf, c.nameOf) || !reflect.DeepEqual(p.Possessor, c.possessor) || p.ItemLink != c.itemLink {
			t.Errorf("Parse(%q) = intent %v role %q words %q nameOf %q possessor %q itemLink %v; want %v %q %q %q %q %v",
				c.desc, p.Intent, role, p.Words, p.NameOf, p.Possessor, p.ItemLink, c.intent, c.role, c.words, c.nameOf, c.possessor, c.itemLink)
		}
	}
}

// TestParse_Session3 covers questions, toggles, dates that are not ordinals, "last" that says
// when, "the X of Y" possessors, verbs that stay words and "Enter X to Y".
func TestParse_Session3(t *testing.T) {
	cases := []struct {
		desc      string
		intent    Intent
		role      string
		words     []string
		kind      string
		strict    bool
		ordinal   int
		possessor []string
	}{
		{"how long is the appointment", IntentRead, "", []string{"appointment"}, "time", true, 0, nil},
		{"how long will delivery take", IntentRead, "", []string{"delivery"}, "time", true, 0, nil},
		{"how much are the samosas", IntentRead, "", []string{"samosas"}, "price", false, 0, nil},
		{"how heavy is the Lumina Pro", IntentRead, "", []string{"weight", "lumina", "pro"}, "measure", true, 0, []string{"lumina", "pro"}},
		{"who reported this bug", IntentRead, "", []string{"reporter", "bug"}, "", false, 0, []string{"bug"}},
		{"when does boarding close", IntentRead, "", []string{"when", "boarding", "close"}, "date", true, 0, nil},
		{"where do I type my message", IntentType, "textbox", []string{"message"}, "", false, 0, nil},
		{"how long does it take", IntentAny, "", []string{"how", "long", "take"}, "", false, 0, nil},
		{"turn off auto-renew", IntentClick, "switch", []string{"auto-renew"}, "", false, 0, nil},
		{"enable mandatory 2FA", IntentClick, "switch", []string{"mandatory", "2fa"}, "", false, 0, nil},
		{"check the Salomon brand filter", IntentClick, "checkbox", []string{"salomon", "brand", "filter"}, "", false, 0, nil},
		{"August 9th", IntentAny, "", []string{"august", "9"}, "", false, 0, nil},
		{"the 9th result", IntentAny, "", []string{"result"}, "", false, 9, nil},
		{"when was the mockup file last changed", IntentRead, "", []string{"when", "mockup", "file", "last", "changed"}, "date", true, 0, nil},
		{"the amount of INV-0141", IntentAny, "text", []string{"inv-0141"}, "price", false, 0, []string{"inv-0141"}},
		{"like Devon's post", IntentAny, "", []string{"like", "devon", "post"}, "", false, 0, []string{"devon"}},
		{"follow Rust Weekly", IntentClick, "", []string{"follow", "rust", "weekly"}, "", false, 0, nil},
		{"Enter the amount to transfer", IntentType, "text", []string{"transfer"}, "price", false, 0, nil},
		// "make the Nth ITEM X": X is the choice, the item what is counted; "turn ... off" stays a toggle.
		{"make the second print matte", IntentAny, "", []string{"matte"}, "", false, 2, nil},
		{"turn the second lamp off", IntentClick, "switch", []string{"lamp"}, "", false, 2, nil},
	}
	for _, c := range cases {
		p := Parse(c.desc)
		role := ""
		if len(p.Roles) > 0 {
			role = p.Roles[0]
		}
		if p.Intent != c.intent || role != c.role || !reflect.DeepEqual(p.Words, c.words) || p.Kind != c.kind ||
			p.KindStrict != c.strict || p.Ordinal != c.ordinal || !reflect.DeepEqual(p.Possessor, c.possessor) {
			t.Errorf("Parse(%q) = intent %v role %q words %q kind %q strict %v ordinal %d possessor %q;\n want %v %q %q %q %v %d %q",
				c.desc, p.Intent, role, p.Words, p.Kind, p.KindStrict, p.Ordinal, p.Possessor,
				c.intent, c.role, c.words, c.kind, c.strict, c.ordinal, c.possessor)
		}
	}
}

func TestParse_Ranks(t *testing.T) {
	cases := []struct {
		desc    string
		ordinal int
		item    string
		context []string
	}{
		{"points of the bottom team", -1, "team", nil},
		{"the top story", 1, "", nil},
		{"scroll to the top", 0, "", nil},
		{"the goal difference of the team in 6th place", 6, "team", nil},
		{"the button at the bottom", 0, "", nil},
		{"the Save button in the sidebar", 0, "", []string{"sidebar"}},
	}
	for _, c := range cases {
		p := Parse(c.desc)
		if p.Ordinal != c.ordinal || p.Item != c.item || !reflect.DeepEqual(p.Context, c.context) {
			t.Errorf("Parse(%q) = ordinal %d item %q context %q; want %d %q %q", c.desc, p.Ordinal, p.Item, p.Context, c.ordinal, c.item, c.context)
		}
	}
}

// TestTokens_TimesAndDays: the same time of day or day name written differently makes the same
// tokens, so "the 3pm slot" finds "15:00" and "Thursday tab" finds "Thu 12".
func TestTokens_TimesAndDays(t *testing.T) {
	cases := []struct{ a, b string }{
		{"3pm", "15:00"},
		{"3 pm", "3:00 PM"},
		{"2:00pm", "14:00"},
		{"12am", "00:00"},
		{"thursday", "thu"},
		{"july", "jul"},
	}
	for _, c := range cases {
		if a, b := tokens(strings.ToLower(c.a)), tokens(strings.ToLower(c.b)); !reflect.DeepEqual(a, b) {
			t.Errorf("tokens(%q) = %q, tokens(%q) = %q: want the same", c.a, a, c.b, b)
		}
	}
	// A time that does not say which half of the day is the clock face of both.
	if got := tokens("9:30"); !reflect.DeepEqual(got, []string{"c0930"}) {
		t.Errorf(`tokens("9:30") = %q`, got)
	}
	if got := tokens("9:30 pm"); !contains(got, "c0930") || !contains(got, "t2130") {
		t.Errorf(`tokens("9:30 pm") = %q, want c0930 and t2130`, got)
	}
	for _, s := range []string{"5 comments", "item 3 of 12", "32 mm"} {
		if mayHaveClock(s) {
			t.Errorf("mayHaveClock(%q) = true", s)
		}
	}
	for _, s := range []string{"3pm", "9 a.m.", "10:00Sold out", "at 7 PM"} {
		if !mayHaveClock(s) {
			t.Errorf("mayHaveClock(%q) = false", s)
		}
	}
	if got := tokens("42:41"); !reflect.DeepEqual(got, []string{"42", "41"}) {
		t.Errorf(`tokens("42:41") = %q: a duration, not a time`, got)
	}
	// A time says its part of the day ("the evening class"); a sentence or a card that
	// mentions one does not, or every card with a morning time would say "Morning Run".
	for in, part := range map[string]string{"6:45 PM 45 min": "evening", "6:42 am": "morning", "14:30": "afternoon",
		"11:30 PM": "night", "12:00 AM": "night", "12:00 PM": "afternoon", "Mon, Jun 2 · 6:35 AM · Mt Tabor": "", "9:30": ""} {
		got := tokens(strings.ToLower(in))
		for _, p := range []string{"morning", "afternoon", "evening", "night"} {
			if has := contains(got, stem(p)); has != (p == part) {
				t.Errorf("tokens(%q) = %q: has %q %v, want part of the day %q", in, got, p, has, part)
			}
		}
	}
}

func TestSuperlativeValues(t *testing.T) {
	for _, c := range []struct {
		text, kind string
		want       float64
		ok         bool
	}{
		{"$1,299.00", "price", 1299, true},
		{"13,99 zł", "price", 13.99, true},
		{"€1.049,50", "price", 1049.5, true},
		{"From $899 / night", "price", 899, true},
		{"Sold out", "price", 0, false},
		{"3pm", "time", 900, true},
		{"18:00 Late opening", "time", 1080, true},
		{"9:30 AM", "time", 570, true},
		{"2025-06-04", "date", 20250604, true},
		{"Jun 4, 2025", "date", 20250604, true},
		{"Published 4 June 2025", "date", 20250604, true},
		{"Tue, Sep 30", "date", 930, true},
		{"12 results", "date", 0, false},
		{"Maybe later", "date", 0, false},
	} {
		got, ok := valueIn(c.text, c.kind)
		if ok != c.ok || got != c.want {
			t.Errorf("valueIn(%q, %s) = %v, %v; want %v, %v", c.text, c.kind, got, ok, c.want, c.ok)
		}
	}
	for desc, want := range map[string]string{"the cheapest rate": "min-price", "the most expensive laptop": "max-price", "the earliest slot": "min-time", "the last row": "",
		"completion rate of the latest episode": "max-date", "the oldest ticket": "min-date", "the size of the older brand guidelines": "min-date", "the newer invoice": "max-date", "the latest available time": "max-time"} {
		if got := superlativeOf(desc); got != want {
			t.Errorf("superlativeOf(%q) = %q, want %q", desc, got, want)
		}
	}
}

func TestContainsAtWordStart(t *testing.T) {
	for _, c := range []struct {
		v, q string
		want bool
	}{
		{"barbell strength", "bell", false},
		{"the bell", "bell", true},
		{"sign-in options", "sign-in", true},
		{"nullpointerexception at line 3", "exception", true},
		{"typeerror: x is undefined", "error", true},
		{"debell", "bell", false},
	} {
		if got := containsAtWordStart(c.v, c.q); got != c.want {
			t.Errorf("containsAtWordStart(%q, %q) = %v", c.v, c.q, got)
		}
	}
}

// TestAgentNoun: "who approves this report" asks for the approver.
func TestAgentNoun(t *testing.T) {
	for _, c := range [][2]string{{"approves", "approver"}, {"approved", "approver"}, {"reviews", "reviewer"},
		{"reviewed", "reviewer"}, {"requested", "requester"}, {"signs", "signer"}, {"teaches", "teacher"}, {"is", ""}} {
		if got := agentNoun(c[0]); got != c[1] {
			t.Errorf("agentNoun(%q) = %q, want %q", c[0], got, c[1])
		}
	}
	if p := Parse("who approves this report"); !reflect.DeepEqual(p.Words, []string{"approver", "report"}) {
		t.Errorf("Parse(who approves this report).Words = %q", p.Words)
	}
}

// TestParse_MarkAs: "mark X as done" is X's checkbox; marking everything is a bulk action's
// button ("Mark all as read"), no checkbox.
func TestParse_MarkAs(t *testing.T) {
	cases := []struct {
		desc     string
		checkbox bool
	}{
		{"mark Renew passport as done", true},
		{"mark everything as read", false},
		{"mark all as read", false},
		{"mark it as read", false}, // the open item's "Mark as read" button
		{"mark these as done", false},
		{"mark them all as read", false},
	}
	for _, c := range cases {
		p := Parse(c.desc)
		if got := slices.Contains(p.Roles, "checkbox"); got != c.checkbox {
			t.Errorf("Parse(%q).Roles = %q: checkbox %v, want %v", c.desc, p.Roles, got, c.checkbox)
		}
	}
}

// TestParse_WordsInPassing: "as" is no word to match ("pick July 25 as the checkout date" is not
// the 18th "selected as check-in date"), and a role word inside a name is one of its words ("the
// logo design line" is a line, and "logo" tells it from the website design line).
func TestParse_WordsInPassing(t *testing.T) {
	cases := []struct {
		desc      string
		words     []string
		roleWords []string
	}{
		{"pick July 25 as the checkout date", []string{"july", "25", "checkout", "date"}, nil},
		{"rate of the logo design line", []string{"rate", "design", "line", "logo"}, nil},
		{"the logo", nil, []string{"logo"}},
		{"click the button Save changes", []string{"save", "changes"}, []string{"button"}},
		{"the Submit button", []string{"submit"}, []string{"button"}},
	}
	for _, c := range cases {
		p := Parse(c.desc)
		if !slices.Equal(p.Words, c.words) || !slices.Equal(p.RoleWords, c.roleWords) {
			t.Errorf("Parse(%q): words %q role words %q, want %q %q", c.desc, p.Words, p.RoleWords, c.words, c.roleWords)
		}
	}
}

// TestTokens_ForeignWords: a foreign interface word makes the tokens of the English words a
// description uses, a compound all of them; an English word is not mistaken for one.
func TestTokens_ForeignWords(t *testing.T) {
	cases := []struct{ foreign, english string }{
		{"Zur Kasse", "zur checkout"},
		{"Versandkosten", "shipping cost"},
		{"Gutscheincode", "voucher code"},
		{"Supprimer", "delete"},
		{"Contraseña", "password"},
		{"Quantità", "quantity"},
		{"Wachtwoord", "password"},
		{"Endereço", "address"},
	}
	for _, c := range cases {
		if a, b := tokens(strings.ToLower(c.foreign)), tokens(c.english); !reflect.DeepEqual(a, b) {
			t.Errorf("tokens(%q) = %q, want %q as tokens(%q)", c.foreign, a, b, c.english)
		}
	}
	for _, w := range []string{"commander", "article", "plus", "land", "total", "code", "name"} {
		if got := tokens(w); len(got) != 1 || got[0] != stemRules(w) {
			t.Errorf("tokens(%q) = %q: an English word reads as itself", w, got)
		}
	}
	for w, en := range foreignWords {
		if w != strings.ToLower(strings.TrimSpace(w)) || en == "" {
			t.Errorf("foreignWords[%q] = %q: keys are lowercase words, values English words", w, en)
		}
	}
}

// TestParse_QuestionAuxiliaries: an auxiliary inside a question ("how many items has the
// shopper found"), or what a contraction leaves of one ("they're"), says nothing of the answer
// and is no word to match.
func TestParse_QuestionAuxiliaries(t *testing.T) {
	for desc, want := range map[string][]string{
		"how many items has the shopper found so far?": {"items", "shopper", "found", "so", "far"},
		"how many games had the Rovers won by May":     {"games", "rovers", "won", "may"},
		"the discount they're offering":                {"discount", "offering"},
	} {
		if p := Parse(desc); !reflect.DeepEqual(p.Words, want) {
			t.Errorf("Parse(%q).Words = %q, want %q", desc, p.Words, want)
		}
	}
}

// TestParse_QuantityQuestions: "how far along" asks for progress, a percentage, not a distance;
// "how big" for a measure; "how many" keeps the unit it counts when other words say which.
func TestParse_QuantityQuestions(t *testing.T) {
	for _, c := range []struct{ desc, kind, countNoun, words string }{
		{"how far along is the upload", "percent", "", "progress upload"},
		{"how far is the station", "measure", "", "distance station"},
		{"how big is the Q3 budget spreadsheet?", "measure", "", "size q3 budget spreadsheet"},
		{"how many new orders are waiting", "count", "orders", "new orders waiting"},
		{"how many results were found", "count", "", "results found"},
		// "how much did X change" asks for the change, a percentage on a dashboard.
		{"how much did sessions change", "percent", "", "sessions change"},
	} {
		p := Parse(c.desc)
		if p.Kind != c.kind || p.CountNoun != c.countNoun || strings.Join(p.Words, " ") != c.words {
			t.Errorf("Parse(%q): kind %q count noun %q words %q, want %q %q %q", c.desc, p.Kind, p.CountNoun, strings.Join(p.Words, " "), c.kind, c.countNoun, c.words)
		}
	}
}

// TestParse_Pronouns: a pronoun stands for someone named before and is no word an element must
// say; a subject pronoun after a noun opens a clause, and the noun is the head.
func TestParse_Pronouns(t *testing.T) {
	for _, c := range []struct{ desc, words, head string }{
		{"his phone number", "phone number", "number"},
		{"reply to them", "reply", "reply"},
		{"her email address", "email address", "address"},
		{"the budget spreadsheet she shared", "budget spreadsheet", "spreadsheet"},
		{"the file they shared with me", "file", "file"},
		{"open their latest invoice", "latest invoice", "invoice"},
		{"the contract he sent", "contract", "contract"},
		{"the message she sent yesterday", "yesterday", "yesterday"},
		{"the ticket where they can't export invoices", "ticket where not export invoices", "invoices"},
	} {
		p := Parse(c.desc)
		if strings.Join(p.Words, " ") != c.words || p.Head != c.head {
			t.Errorf("Parse(%q): words %q head %q, want %q %q", c.desc, strings.Join(p.Words, " "), p.Head, c.words, c.head)
		}
	}
}

// TestParse_BackAdverb: "back" after a verb of motion says where to and is no word of the
// target; "go back to" a place goes to it; back where one was before ("go back to the
// previous step"), or alone, it is the Back control's word, as it is a noun's ("the back
// cover photo").
func TestParse_BackAdverb(t *testing.T) {
	for _, c := range []struct{ desc, words string }{
		{"the flight that lands back in Boston", "flight lands"},
		{"when does the parcel get back to the sender", "when parcel get sender"},
		{"go back to the cart", "go cart"}, // a place: the "Back to cart" link says it
		{"go back to step 1", "go step 1"},
		{"go back to the previous step", "go back previous step"},
		{"go back", "back"},
		{"the back cover photo", "back cover"},
		{"the Back button", "back"},
	} {
		if p := Parse(c.desc); strings.Join(p.Words, " ") != c.words {
			t.Errorf("Parse(%q).Words = %q, want %q", c.desc, strings.Join(p.Words, " "), c.words)
		}
	}
}

// TestParse_FixedFor: "for" in a fixed phrase ("ready for pickup", "eligible for return") or
// before the action a control does ("the button for sign up") introduces no owner; an owner's
// "for" still does.
func TestParse_FixedFor(t *testing.T) {
	for _, c := range []struct{ desc, possessor string }{
		{"the orders ready for pickup", ""},
		{"items eligible for return", ""},
		{"the button for sign up", ""},
		{"story points for the push migration", "push migration"},
		{"the fare for the electric option", "electric"},
		{"the slots available for Friday", "friday"},
	} {
		if p := Parse(c.desc); strings.Join(p.Possessor, " ") != c.possessor {
			t.Errorf("Parse(%q).Possessor = %q, want %q", c.desc, p.Possessor, c.possessor)
		}
	}
}

// TestParse_QuestionWithoutMark: a question reads the same without its question mark.
func TestParse_QuestionWithoutMark(t *testing.T) {
	for _, desc := range []string{
		"what is the total", "how many items are in my cart", "when does the sale end",
		"who is the assignee", "is the API working", "what did the customer say",
	} {
		if a, b := Parse(desc), Parse(desc+"?"); !reflect.DeepEqual(a, b) || !a.Question {
			t.Errorf("Parse(%q) = %+v; with a question mark %+v", desc, a, b)
		}
	}
}

// TestParse_GetIntent: "get" reads when its object is a value ("get the order total"); before
// what a control offers ("get directions", "Get the app") it is the control's own word.
func TestParse_GetIntent(t *testing.T) {
	for _, c := range []struct {
		desc   string
		intent Intent
		words  string
	}{
		{"get the order total", IntentRead, "order total"},
		{"get the tracking number", IntentRead, "tracking number"},
		{"get directions", IntentAny, "get directions"},
		{"Get the app", IntentAny, "get app"},
		{"get a quote", IntentAny, "get quote"},
	} {
		if p := Parse(c.desc); p.Intent != c.intent || strings.Join(p.Words, " ") != c.words {
			t.Errorf("Parse(%q): intent %v words %q, want %v %q", c.desc, p.Intent, strings.Join(p.Words, " "), c.intent, c.words)
		}
	}
}

// TestParse_Contractions: a contraction leaves no one-letter fragment among the words, a
// question word's contraction opens the question ("what’s", curly, as "what is"), a
// possessive stays one.
func TestParse_Contractions(t *testing.T) {
	for _, c := range []struct {
		desc     string
		words    []string
		question bool
	}{
		{"I'm looking for the returns form", []string{"looking", "returns", "form"}, false},
		{"I’d need the returns form", []string{"need", "returns", "form"}, false},
		{"what's the total", []string{"total"}, true},
		{"what’s the total", []string{"total"}, true},
		{"who’s my dentist", []string{"dentist"}, true},
		{"where's the returns form", []string{"where", "returns", "form"}, true},
		{"let's go to checkout", []string{"go", "checkout"}, false},
		{"I can't log in", []string{"not", "log"}, false},
		{"don't show again", []string{"not", "show", "again"}, false},
		{"won't renew", []string{"not", "renew"}, false},
		{"you've got mail", []string{"got", "mail"}, false},
		{"Dara's role", []string{"dara", "role"}, false},
		{"I'd like the returns form", []string{"returns", "form"}, false},
		{"I would like to return the boots", []string{"return", "boots"}, false},
	} {
		p := Parse(c.desc)
		if !reflect.DeepEqual(p.Words, c.words) || p.Question != c.question {
			t.Errorf("Parse(%q): words %q question %v, want %q %v", c.desc, p.Words, p.Question, c.words, c.question)
		}
	}
}

// TestParse_SwitchVerb: a leading "switch" is the instruction's verb, its object the target;
// "the X switch" names the switch role.
func TestParse_SwitchVerb(t *testing.T) {
	for _, c := range []struct {
		desc  string
		words []string
		role  string
	}{
		{"switch to the annual plan", []string{"annual", "plan"}, ""},
		{"switch the order to sell", []string{"sell", "order"}, ""},
		{"switch account", []string{"account"}, ""},
		{"the dark mode switch", []string{"dark", "mode"}, "switch"},
	} {
		p := Parse(c.desc)
		role := ""
		if len(p.Roles) > 0 {
			role = p.Roles[0]
		}
		if !reflect.DeepEqual(p.Words, c.words) || role != c.role {
			t.Errorf("Parse(%q): words %q role %q, want %q %q", c.desc, p.Words, role, c.words, c.role)
		}
	}
}

// TestParse_ActionOnAFigureNoun: an action verb before a money noun acts on the row the noun
// names; no figure is asked for ("dispute the Amazon charge"); a read still asks for one.
func TestParse_ActionOnAFigureNoun(t *testing.T) {
	for _, c := range []struct{ desc, kind, head string }{
		{"dispute the Amazon charge", "", "dispute"},
		{"split the PG&E payment", "", "split"},
		{"the Amazon charge", "figure", "charge"},
		{"view the deposit", "figure", "view"},
	} {
		if p := Parse(c.desc); p.Kind != c.kind || p.Head != c.head {
			t.Errorf("Parse(%q): kind %q head %q, want %q %q", c.desc, p.Kind, p.Head, c.kind, c.head)
		}
	}
}
