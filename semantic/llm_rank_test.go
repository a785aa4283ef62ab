package semantic

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/llm"
	"github.com/rodeo-run/rodeo/llm/llmtest"
)

// editorPage is a toolbar of icon buttons: "the button that makes text fat" shares no word with
// any of them, so the heuristic finds nothing and the model must choose.
func editorPage() *Snapshot {
	b := func(id int, label, text string) Element {
		return Element{ID: id, Tag: "button", Role: "button", Name: label, AriaLabel: label, Text: text, Visible: true, Enabled: true,
			Interactive: true, Parent: -1, Shape: "body>div>button", Selector: fmt.Sprintf("#b%d", id), Box: Box{X: float64(30 * id), W: 26, H: 20}}
	}
	return &Snapshot{URL: "https://docs.example/d/1", Title: "Untitled document", Elements: []Element{
		b(0, "Bold", "B"), b(1, "Italic", "I"), b(2, "Underline", "U"), b(3, "Insert link", "🔗"),
		{ID: 4, Tag: "div", Role: "textbox", Name: "Document body", Editable: true, Interactive: true, Visible: true, Enabled: true, Parent: -1, Selector: "#editor"},
	}}
}

func answer(content string) llmtest.Script {
	return func(int, llmtest.Request) llmtest.Reply { return llmtest.Reply{Content: content} }
}

func fastClient(srv *llmtest.Server) *llm.Client {
	cfg := srv.Config()
	cfg.Timeout = 2 * time.Second
	return llm.New(cfg)
}

func TestLLMRank_GoodAnswers(t *testing.T) {
	for _, content := range []string{`{"id": 0}`, `{"id":"0"}`, "```json\n{\"id\": 0}\n```", `Sure! {"id": 0}`, `0`} {
		t.Run(content, func(t *testing.T) {
			srv := llmtest.New(t, answer(content))
			g := &Engine{LLM: fastClient(srv)}
			res, err := g.Resolve(context.Background(), editorPage(), Query{Description: "the button that makes text fat", Intent: IntentClick})
			if err != nil {
				t.Fatal(err)
			}
			if res.By != "llm" || res.Element.Selector != "#b0" || res.Tokens.Prompt <= 0 || res.Tokens.Calls != 1 || res.Model == "" {
				t.Fatalf("%+v", res)
			}
			calls := srv.Calls()
			if len(calls) != 1 || calls[0].ResponseFormat == nil || calls[0].ResponseFormat.Type != "json_object" {
				t.Fatalf("calls %+v", calls)
			}
			prompt := calls[0].Messages[len(calls[0].Messages)-1].Content
			if !strings.Contains(prompt, `0 button "Bold"`) || strings.Contains(prompt, "<") {
				t.Errorf("prompt is not the compact candidate list:\n%s", prompt)
			}
		})
	}
}

func TestLLMRank_BadAnswersFallBack(t *testing.T) {
	cases := []struct {
		name    string
		script  llmtest.Script
		timeout time.Duration
		note    string
	}{
		{"malformed JSON", answer(`{"id": 0,}`), 0, "not valid JSON"},
		{"truncated JSON", answer(`{"id": 0`), 0, "not JSON"},
		{"prose", answer(`I think it is the bold one`), 0, "not JSON"},
		{"unknown id", answer(`{"id": 99}`), 0, "not one of the"},
		{"no id", answer(`{"element": "bold"}`), 0, "no \"id\""},
		{"server error", func(int, llmtest.Request) llmtest.Reply { return llmtest.Reply{Status: http.StatusBadRequest} }, 0, "HTTP 400"},
		{"timeout", func(int, llmtest.Request) llmtest.Reply {
			return llmtest.Reply{Delay: 3 * time.Second, Content: `{"id": 0}`}
		}, 300 * time.Millisecond, "model call stopped"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := llmtest.New(t, c.script)
			// LLMBelow 1: every heuristic answer, "Insert link" for "the link thing" too, goes to
			// the model, whose failure leaves the heuristic's answer, with a note.
			g := &Engine{LLM: fastClient(srv), LLMTimeout: c.timeout, LLMBelow: 1}
			t0 := time.Now()
			res, err := g.Resolve(context.Background(), editorPage(), Query{Description: "the link thing", Intent: IntentClick})
			if c.timeout > 0 && time.Since(t0) > c.timeout+time.Second {
				t.Errorf("took %v with a %v limit", time.Since(t0), c.timeout)
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.By != "heuristic" || res.Element.Selector != "#b3" || !strings.Contains(res.Note, c.note) {
				t.Fatalf("by %q el %s note %q", res.By, res.Element.Selector, res.Note)
			}
			// With nothing the heuristic can place, the error says both.
			_, err = g.Resolve(context.Background(), editorPage(), Query{Description: "the button that makes text fat", Intent: IntentClick})
			if !errs.Is(err, errs.TargetNotFound) || !strings.Contains(err.Error(), "model") {
				t.Fatalf("err %v", err)
			}
		})
	}
}

func TestLLMRank_RetriesA429(t *testing.T) {
	srv := llmtest.New(t, func(n int, _ llmtest.Request) llmtest.Reply {
		if n == 0 {
			return llmtest.Reply{Status: http.StatusTooManyRequests}
		}
		return llmtest.Reply{Content: `{"id": 0}`, PromptTokens: 321, CompletionTokens: 5}
	})
	g := &Engine{LLM: fastClient(srv)}
	res, err := g.Resolve(context.Background(), editorPage(), Query{Description: "the button that makes text fat", Intent: IntentClick})
	if err != nil || res.By != "llm" || res.Element.Selector != "#b0" {
		t.Fatalf("%+v %v", res, err)
	}
	if res.Tokens.Calls != 2 || res.Tokens.Prompt != 321 || res.Tokens.Completion != 5 {
		t.Errorf("tokens %+v", res.Tokens)
	}
}

func TestLLMRank_NullAnswerAndNoModel(t *testing.T) {
	srv := llmtest.New(t, answer(`{"id": null}`))
	g := &Engine{LLM: fastClient(srv)}
	if _, err := g.Resolve(context.Background(), editorPage(), Query{Description: "the button that makes text fat", Intent: IntentClick}); !errs.Is(err, errs.TargetNotFound) {
		t.Errorf("null answer: %v", err)
	}
	// No model: the heuristic decides, and a confident answer never calls one anyway.
	var none Engine
	res, err := none.Resolve(context.Background(), editorPage(), Query{Description: "Italic", Intent: IntentClick})
	if err != nil || res.By != "heuristic" || res.Element.Selector != "#b1" {
		t.Fatalf("%+v %v", res, err)
	}
	res, err = g.Resolve(context.Background(), editorPage(), Query{Description: "the Italic button", Intent: IntentClick})
	if err != nil || res.By != "heuristic" || len(srv.Calls()) != 1 {
		t.Fatalf("a confident heuristic answer called the model: %+v %v (%d calls)", res, err, len(srv.Calls()))
	}
}

// TestLLMRank_PromptBudget: on a 2,000-element page the prompt stays under 1,500 tokens.
func TestLLMRank_PromptBudget(t *testing.T) {
	s := &Snapshot{URL: "https://shop.example/c/all", Title: "All products"}
	for i := 0; i < 2000; i++ {
		s.Elements = append(s.Elements, Element{ID: i, Tag: "a", Role: "link", Name: fmt.Sprintf("Product %d with a long and descriptive marketing name, limited edition", i),
			Text: fmt.Sprintf("Product %d with a long and descriptive marketing name, limited edition $%d.99", i, i), Href: fmt.Sprintf("https://shop.example/p/%d", i),
			Context: "Featured products | All products | navigation Catalogue", Visible: true, Enabled: true, Interactive: true, Parent: -1, Shape: "body>ul>li>a"})
	}
	var prompt string
	srv := llmtest.New(t, func(_ int, req llmtest.Request) llmtest.Reply {
		prompt = req.Messages[0].Content + req.Messages[1].Content
		return llmtest.Reply{Content: `{"id": 7}`}
	})
	g := &Engine{LLM: fastClient(srv), MaxCandidates: 60}
	res, err := g.Resolve(context.Background(), s, Query{Description: "the one my friend recommended", Intent: IntentClick})
	if err != nil {
		t.Fatal(err)
	}
	if est := len(prompt) / 4; est > 1500 || res.Tokens.Prompt > 1500 {
		t.Errorf("prompt ~%d tokens (server counted %d)", est, res.Tokens.Prompt)
	}
	t.Logf("prompt: %d chars, ~%d tokens, %d candidate lines", len(prompt), len(prompt)/4, strings.Count(prompt, "\n"))
}

// TestLLMRank_WordlessTargetOnABusyPage: "hand in the exam" shares no word with "Submit quiz",
// and the page has fifty links before it: the model still gets to see the button (the default
// candidate count leaves room beyond the first screenful of named elements).
func TestLLMRank_WordlessTargetOnABusyPage(t *testing.T) {
	s := &Snapshot{URL: "https://school.example/quiz/5", Title: "Quiz 5"}
	for i := 0; i < 50; i++ {
		s.Elements = append(s.Elements, Element{ID: i, Tag: "a", Role: "link", Name: fmt.Sprintf("Lesson %d", i+1), Href: fmt.Sprintf("/l/%d", i+1),
			Visible: true, Enabled: true, Interactive: true, Parent: -1, Shape: "body>nav>a", Selector: fmt.Sprintf("#l%d", i+1)})
	}
	s.Elements = append(s.Elements, Element{ID: 50, Tag: "button", Role: "button", Name: "Submit quiz", Text: "Submit quiz", Visible: true, Enabled: true,
		Interactive: true, Parent: -1, Shape: "body>main>button", Selector: "#submit"})
	// The scripted model picks the submit button when it is shown, and nothing otherwise.
	srv := llmtest.New(t, func(_ int, req llmtest.Request) llmtest.Reply {
		if strings.Contains(req.Messages[len(req.Messages)-1].Content, `50 button "Submit quiz"`) {
			return llmtest.Reply{Content: `{"id": 50}`}
		}
		return llmtest.Reply{Content: `{"id": null}`}
	})
	g := &Engine{LLM: fastClient(srv)}
	res, err := g.Resolve(context.Background(), s, Query{Description: "hand in the exam", Intent: IntentClick})
	if err != nil || res.Element.Selector != "#submit" || res.By != "llm" {
		t.Fatalf("%+v %v", res, err)
	}
}

// TestExtract: what the heuristic scrapers cannot read, the model reads from the page's visible
// text (never its HTML); a null answer is target_not_found.
func TestExtract(t *testing.T) {
	srv := llmtest.New(t, func(n int, req llmtest.Request) llmtest.Reply {
		if n == 0 {
			return llmtest.Reply{Content: "```json\n{\"value\": [\"Bold\", \"Italic\"]}\n```"}
		}
		return llmtest.Reply{Content: `{"value": null}`}
	})
	g := &Engine{LLM: fastClient(srv)}
	v, tok, err := g.Extract(context.Background(), editorPage(), "all formatting buttons", ShapeList)
	if err != nil || fmt.Sprint(v) != "[Bold Italic]" || tok.Calls != 1 {
		t.Fatalf("%v %+v %v", v, tok, err)
	}
	prompt := srv.Calls()[0].Messages[1].Content
	if !strings.Contains(prompt, "Bold") || strings.Contains(prompt, "<button") {
		t.Errorf("prompt:\n%s", prompt)
	}
	if _, _, err := g.Extract(context.Background(), editorPage(), "the shipping address", ShapeValue); !errs.Is(err, errs.TargetNotFound) {
		t.Errorf("null answer: %v", err)
	}
	var none Engine
	if _, _, err := none.Extract(context.Background(), editorPage(), "x", ShapeValue); !errs.Is(err, errs.LLMNotConfigured) {
		t.Errorf("no model: %v", err)
	}
}

// rowsPage is two table rows, each with a Book button: "Book" ties them, the class names only
// one.
func rowsPage() *Snapshot {
	row := func(id, item int, name string) []Element {
		return []Element{
			{ID: id, Tag: "td", Role: "cell", Name: name, Text: name, Visible: true, Enabled: true, Parent: -1, Item: item, ItemKind: "tr@1", Selector: fmt.Sprintf("#c%d", id), Box: Box{Y: float64(20 * item), W: 100, H: 18}},
			{ID: id + 1, Tag: "button", Role: "button", Name: "Book", Text: "Book", Visible: true, Enabled: true, Interactive: true, Parent: -1, Item: item, ItemKind: "tr@1", Selector: fmt.Sprintf("#b%d", item), Box: Box{X: 200, Y: float64(20 * item), W: 40, H: 18}},
		}
	}
	return &Snapshot{URL: "https://gym.example/classes", Title: "Classes", Elements: append(row(0, 1, "Yoga 9:30"), row(2, 2, "Rhythm Ride 18:00")...)}
}

// TestEngine_AmbiguityGoesToTheModelOnlyWhenTheDescriptionSaysMore: look-alikes the
// description does not tell apart stay the user's to settle (no model call); when it says more
// than the look-alikes do, the model is asked and its choice is taken.
func TestEngine_AmbiguityGoesToTheModelOnlyWhenTheDescriptionSaysMore(t *testing.T) {
	srv := llmtest.New(t, answer(`{"id": 3}`))
	g := &Engine{LLM: fastClient(srv)}
	if _, err := g.Resolve(context.Background(), rowsPage(), Query{Description: "the Book button", Intent: IntentClick}); !errs.Is(err, errs.AmbiguousTarget) {
		t.Fatalf("generic description: want ambiguous_target, got %v", err)
	}
	if n := len(srv.Calls()); n != 0 {
		t.Fatalf("generic description: %d model calls, want 0", n)
	}
	res, err := g.Resolve(context.Background(), rowsPage(), Query{Description: "the Book button for the indoor cycling class", Intent: IntentClick})
	if err != nil {
		t.Fatal(err)
	}
	if res.By != "llm" || res.Element.Selector != "#b2" || len(srv.Calls()) != 1 {
		t.Fatalf("got %+v after %d calls, want the model's #b2 after 1", res, len(srv.Calls()))
	}
}

// TestEngine_UnlikeTiesGoToTheModel: a tie between elements that are not look-alikes (a
// "Pause length" list and a "Pause instead" button for "how long to pause for") is no
// user's choice between copies: the heuristic settles it by the kind asked for (a duration's
// length) only unsurely, the model is asked, and its choice is taken.
func TestEngine_UnlikeTiesGoToTheModel(t *testing.T) {
	s := &Snapshot{URL: "https://stream.example/account", Title: "Cancel subscription", Elements: []Element{
		{ID: 0, Tag: "select", Role: "combobox", Name: "Pause length", Text: "1 month", Visible: true, Enabled: true, Interactive: true, Parent: -1, Selector: "#pause-len", Box: Box{Y: 40, W: 160, H: 24}},
		{ID: 1, Tag: "button", Role: "button", Name: "Pause instead", Text: "Pause instead", Visible: true, Enabled: true, Interactive: true, Parent: -1, Selector: "#pause-instead", Box: Box{Y: 80, W: 120, H: 24}},
	}}
	q := Query{Description: "how long to pause for", Intent: IntentRead}
	if h, err := Resolve(s, q); err != nil || h.Element.Selector != "#pause-len" || h.Confidence >= MinConfidence() {
		t.Fatalf("the heuristic alone: %+v, %v; want #pause-len, unsure enough to ask (< %v)", h, err, MinConfidence())
	}
	srv := llmtest.New(t, answer(`{"id": 0}`))
	g := &Engine{LLM: fastClient(srv)}
	res, err := g.Resolve(context.Background(), s, q)
	if err != nil || res.By != "llm" || res.Element.Selector != "#pause-len" || len(srv.Calls()) != 1 {
		t.Fatalf("got %+v, %v after %d calls, want the model's #pause-len after 1", res, err, len(srv.Calls()))
	}
}

// TestEngine_ClickOnALabelGoesToTheModel: a click whose words are on text that takes no click
// (they named a person; the control beside them says "Message") goes to the model, however sure
// the heuristic is, even when it hands the click on to the control after the text itself;
// reading that text does not.
func TestEngine_ClickOnALabelGoesToTheModel(t *testing.T) {
	person := func(id, item int, name string) []Element {
		kind := "div.card@1"
		return []Element{
			{ID: id, Tag: "div", Role: "text", Name: name, Text: name, Visible: true, Enabled: true, Parent: -1, Item: item, ItemKind: kind, Selector: fmt.Sprintf("#n%d", item), Box: Box{Y: float64(40 * item), W: 120, H: 18}},
			{ID: id + 1, Tag: "button", Role: "button", Name: "Message", Text: "Message", Visible: true, Enabled: true, Interactive: true, Parent: -1, Item: item, ItemKind: kind, Selector: fmt.Sprintf("#m%d", item), Box: Box{X: 200, Y: float64(40 * item), W: 60, H: 18}},
		}
	}
	s := &Snapshot{URL: "https://jobs.example/applicants", Title: "Applicants", Elements: append(person(0, 1, "Ben Okoro"), person(2, 2, "Ada Obi")...)}
	q := Query{Description: "message Ben Okoro", Intent: IntentClick}
	if h, err := Resolve(s, q); err != nil || h.Element.Selector != "#m1" || !h.byLabel || h.Confidence < MinConfidence() {
		t.Fatalf("the heuristic alone: %+v, %v; want the button #m1 after the text, sure enough not to ask (>= %v)", h, err, MinConfidence())
	}
	srv := llmtest.New(t, answer(`{"id": 1}`))
	g := &Engine{LLM: fastClient(srv)}
	res, err := g.Resolve(context.Background(), s, q)
	if err != nil || res.By != "llm" || res.Element.Selector != "#m1" || len(srv.Calls()) != 1 {
		t.Fatalf("click: %+v, %v after %d calls; want the model's #m1 after 1", res, err, len(srv.Calls()))
	}
	if res, err := g.Resolve(context.Background(), s, Query{Description: "Ben Okoro", Intent: IntentRead}); err != nil || res.By != "heuristic" || len(srv.Calls()) != 1 {
		t.Fatalf("read: %+v, %v after %d calls; want the heuristic's answer and no new call", res, err, len(srv.Calls()))
	}
}

// TestItemMates: the model is shown the parts of the best candidate's card nearest to it, before
// the card's own text, and nothing of the other cards: "order total for Lukas Brandt" needs the
// total two lines under the buyer's name.
func TestItemMates(t *testing.T) {
	var els []Element
	add := func(e Element) int {
		e.ID, e.Visible, e.Enabled = len(els), true, true
		els = append(els, e)
		return e.ID
	}
	totals := map[int]int{}
	for card := 1; card <= 3; card++ {
		kind := "div.o-card@1"
		w := add(Element{Role: "listitem", Name: "the whole card", Text: "the whole card", Parent: -1, Item: card, ItemKind: kind})
		add(Element{Role: "checkbox", Name: "Select order", Interactive: true, Parent: w, Item: card, ItemKind: kind})
		add(Element{Role: "link", Name: fmt.Sprintf("#%d", 330+card), Interactive: true, Parent: w, Item: card, ItemKind: kind})
		add(Element{Role: "text", Name: fmt.Sprintf("Buyer %d", card), Text: fmt.Sprintf("Buyer %d", card), Parent: w, Item: card, ItemKind: kind})
		add(Element{Role: "text", Name: "Walnut board", Text: "Walnut board", Parent: w, Item: card, ItemKind: kind})
		totals[card] = add(Element{Role: "text", Name: "£64.00", Text: "£64.00", Parent: w, Item: card, ItemKind: kind})
		for _, b := range []string{"Message buyer", "Print label", "Mark shipped", "More actions"} {
			add(Element{Role: "button", Name: b, Interactive: true, Parent: w, Item: card, ItemKind: kind})
		}
	}
	s := &Snapshot{Elements: els}
	buyer := &s.Elements[totals[2]-2]
	got := itemMates(s, IntentRead, []*Element{buyer}, map[int]bool{buyer.ID: true}, 1, 10)
	pos := map[int]int{}
	for i, e := range got {
		pos[e.ID] = i
		if e.Item != 2 {
			t.Errorf("mate %q of card %d, want card 2's only", e.Name, e.Item)
		}
	}
	tot, okT := pos[totals[2]]
	wrap, okW := pos[totals[2]-5]
	if !okT || okW && wrap < tot {
		t.Errorf("mates %v: want card 2's total, before the card itself", got)
	}
}

// TestGateConfidence: what the model's gate halves (a click or typing on an element that takes
// neither, a read that only echoes the description) and what it leaves.
func TestGateConfidence(t *testing.T) {
	text := func(name string) Element { return Element{Role: "text", Name: name, Text: name, Visible: true} }
	button := Element{Role: "button", Name: "Message", Interactive: true, Visible: true, Enabled: true}
	field := Element{Role: "textbox", Name: "Notes", Editable: true, Interactive: true, Visible: true, Enabled: true}
	for _, c := range []struct {
		desc   string
		intent Intent
		el     Element
		halved bool
	}{
		{"message Ben Okoro", IntentClick, text("Ben Okoro"), true},
		{"message Ben Okoro", IntentClick, button, false},
		{"add a note", IntentType, text("Notes"), true},
		{"add a note", IntentType, field, false},
		{"the status of the dishwasher request", IntentRead, text("Status"), true},
		{"the non-refundable price", IntentRead, text("Non-refundable"), true},
		{"the status of the dishwasher request", IntentRead, text("Scheduled"), false},
		{"the non-refundable price", IntentRead, text("$246"), false},
		{"Ben Okoro", IntentRead, text("Ben Okoro"), false},
		{"how much does one bag cost", IntentRead, text("Bags are cheaper now than at the airport (€60,00)."), true},
		{"how much does one bag cost", IntentRead, text("€35,00"), false},
		{"the number of DNS records", IntentRead, text("Add DNS record"), true},
		{"the number of DNS records", IntentRead, text("20"), false},
		{"add a DNS record", IntentRead, text("Add DNS record"), false},
	} {
		p := Parse(c.desc)
		s := &Snapshot{Elements: []Element{c.el}}
		got := gateConfidence(s, Query{Description: c.desc, Intent: c.intent}, &p, Resolution{Element: c.el, Confidence: 1})
		base := 1 - unexplainedWeight*unexplained(s, &p, 0) // what the gate takes off for words nothing carries
		if halved := got < base*0.75; halved != c.halved {
			t.Errorf("%q (%v) on %s %q: gate confidence %.2f, halved %v, want %v", c.desc, c.intent, c.el.Role, c.el.Name, got, halved, c.halved)
		}
	}
	// The Message button the heuristic took the text "Ben Okoro" to name is a guess the model
	// confirms; the button found by its own words is not.
	for _, el := range []Element{button, field} {
		s := &Snapshot{Elements: []Element{el}}
		p := Parse("message Ben Okoro")
		q := Query{Description: "message Ben Okoro", Intent: IntentClick}
		if el.Editable {
			p, q = Parse("add a note"), Query{Description: "add a note", Intent: IntentType}
		}
		own := gateConfidence(s, q, &p, Resolution{Element: el, Confidence: 1})
		handed := gateConfidence(s, q, &p, Resolution{Element: el, Confidence: 1, byLabel: true})
		if handed > own*0.75 {
			t.Errorf("%q on the %s a label named: gate confidence %.2f, on its own words %.2f: want it halved", q.Description, el.Role, handed, own)
		}
	}
}
