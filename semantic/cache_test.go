package semantic

import (
	"context"
	"testing"

	"github.com/rodeo-run/rodeo/llm/llmtest"
	"github.com/rodeo-run/rodeo/store"
)

func openCache(t *testing.T) (*Cache, *store.DB) {
	t.Helper()
	db, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return NewCache(db), db
}

// TestCache_SecondRunCallsNoModel: the model's choice is remembered; the same description on
// the same page shape resolves from the cache, re-validated, without a model call.
func TestCache_SecondRunCallsNoModel(t *testing.T) {
	srv := llmtest.New(t, answer(`{"id": 0}`))
	c, _ := openCache(t)
	g := &Engine{LLM: fastClient(srv), Cache: c, Account: "acct_1"}
	q := Query{Description: "the button that makes text fat", Intent: IntentClick}
	res, err := g.Resolve(context.Background(), editorPage(), q)
	if err != nil || res.By != "llm" {
		t.Fatalf("first: %+v %v", res, err)
	}
	res, err = g.Resolve(context.Background(), editorPage(), q)
	if err != nil || res.By != "cache" || res.Element.Selector != "#b0" || res.Confidence != 0.75 {
		t.Fatalf("second: %+v %v", res, err)
	}
	if n := len(srv.Calls()); n != 1 {
		t.Fatalf("%d model calls, want 1", n)
	}
	// Another account does not see it.
	other := &Engine{LLM: fastClient(srv), Cache: c, Account: "acct_2"}
	if res, _ := other.Resolve(context.Background(), editorPage(), q); res.By != "llm" {
		t.Errorf("another account got %q", res.By)
	}
}

// TestCache_HealsWhenTheElementChanged: the remembered element is gone (renamed): the entry
// is not used, the description is resolved again and the entry updated.
func TestCache_HealsWhenTheElementChanged(t *testing.T) {
	srv := llmtest.New(t, func(n int, _ llmtest.Request) llmtest.Reply {
		if n == 0 {
			return llmtest.Reply{Content: `{"id": 0}`}
		}
		return llmtest.Reply{Content: `{"id": 2}`}
	})
	c, _ := openCache(t)
	g := &Engine{LLM: fastClient(srv), Cache: c, Account: "a"}
	q := Query{Description: "the button that makes text fat", Intent: IntentClick}
	if res, err := g.Resolve(context.Background(), editorPage(), q); err != nil || res.Element.Selector != "#b0" {
		t.Fatalf("%+v %v", res, err)
	}
	// Same shape, but #b0 is now "Strikethrough" and the bold button moved to #b2.
	changed := editorPage()
	changed.Elements[0].Name, changed.Elements[0].AriaLabel = "Strikethrough", "Strikethrough"
	changed.Elements[2].Name, changed.Elements[2].AriaLabel = "Bold", "Bold"
	if PageShape(changed) != PageShape(editorPage()) {
		t.Fatal("renaming changed the page shape")
	}
	res, err := g.Resolve(context.Background(), changed, q)
	if err != nil || res.By != "llm" || res.Element.Selector != "#b2" {
		t.Fatalf("healing: %+v %v", res, err)
	}
	res, err = g.Resolve(context.Background(), changed, q)
	if err != nil || res.By != "cache" || res.Element.Selector != "#b2" {
		t.Fatalf("after healing: %+v %v", res, err)
	}
	if n := len(srv.Calls()); n != 2 {
		t.Fatalf("%d model calls, want 2", n)
	}
}

// TestCache_Invalidation: a hidden or disabled element, a different page shape, a different
// intent or match never use the entry; Forget drops it.
func TestCache_Invalidation(t *testing.T) {
	c, _ := openCache(t)
	g := &Engine{Cache: c, Account: "a"}
	q := Query{Description: "Italic", Intent: IntentClick}
	ctx := context.Background()
	if res, err := g.Resolve(ctx, editorPage(), q); err != nil || res.By != "heuristic" {
		t.Fatalf("%+v %v", res, err)
	}
	if res, _ := g.Resolve(ctx, editorPage(), q); res.By != "cache" || res.Element.Selector != "#b1" {
		t.Fatalf("not cached: %+v", res)
	}
	hidden := editorPage()
	hidden.Elements[1].Visible = false
	hidden.Elements = append(hidden.Elements, Element{ID: 5, Tag: "button", Role: "button", Name: "Italic", Visible: true, Enabled: true, Interactive: true, Parent: -1, Shape: "body>div>button", Selector: "#b5"})
	if res, _ := g.Resolve(ctx, hidden, q); res.By == "cache" {
		t.Errorf("a hidden element came from the cache: %+v", res)
	}
	grown := editorPage()
	grown.Elements = append(grown.Elements, Element{ID: 5, Tag: "a", Role: "link", Name: "Help", Visible: true, Enabled: true, Interactive: true, Parent: -1, Shape: "body>footer>a", Selector: "#help"})
	if PageShape(grown) == PageShape(editorPage()) {
		t.Fatal("a new kind of control did not change the page shape")
	}
	if res, _ := g.Resolve(ctx, grown, q); res.By == "cache" {
		t.Errorf("another page shape used the entry")
	}
	if res, _ := g.Resolve(ctx, editorPage(), Query{Description: "Italic", Intent: IntentRead}); res.By == "cache" {
		t.Errorf("another intent used the entry")
	}
	g.Forget(editorPage(), q)
	if res, _ := g.Resolve(ctx, editorPage(), q); res.By == "cache" {
		t.Errorf("a forgotten entry was used")
	}
}

// TestCache_ValuesMayChange: a read target whose text is data (a total) is still found by its
// place when the figure changed.
func TestCache_ValuesMayChange(t *testing.T) {
	c, _ := openCache(t)
	g := &Engine{Cache: c, Account: "a"}
	page := func(total string) *Snapshot {
		return &Snapshot{URL: "https://shop.example/cart", Elements: []Element{
			{ID: 0, Tag: "dt", Role: "text", Name: "Order total", Text: "Order total", Visible: true, Enabled: true, Parent: -1, Shape: "body>aside>dl>dt", Selector: "aside > dl > dt", Context: "Order summary"},
			{ID: 1, Tag: "dd", Role: "text", Name: total, Text: total, Visible: true, Enabled: true, Parent: -1, Shape: "body>aside>dl>dd", Selector: "#total", IDAttr: "total", Context: "Order summary"},
			{ID: 2, Tag: "button", Role: "button", Name: "Check out", Visible: true, Enabled: true, Interactive: true, Parent: -1, Shape: "body>aside>button", Selector: "#go"},
		}}
	}
	q := Query{Description: "the order total", Intent: IntentRead}
	res, err := g.Resolve(context.Background(), page("$10.00"), q)
	if err != nil || res.Element.Selector != "#total" {
		t.Fatalf("%+v %v", res, err)
	}
	res, err = g.Resolve(context.Background(), page("$12.50"), q)
	if err != nil || res.By != "cache" || res.Element.Name != "$12.50" {
		t.Fatalf("%+v %v", res, err)
	}
}

func TestSiteShape(t *testing.T) {
	for in, want := range map[string]string{
		"https://shop.example/orders/12345?x=1":           "shop.example/orders/*",
		"https://shop.example/p/aeropress-go":             "shop.example/p/aeropress-go",
		"https://app.example/d/7f3a9c2e-11aa-4b7e-9d1c/e": "app.example/d/*/e",
		"https://app.example/":                            "app.example/",
	} {
		if got := siteShape(in); got != want {
			t.Errorf("siteShape(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCache_RemembersNothingFits: when neither the heuristic nor the model finds anything, the
// next run on the same page shape does not ask the model again.
func TestCache_RemembersNothingFits(t *testing.T) {
	srv := llmtest.New(t, answer(`{"id": null}`))
	c, _ := openCache(t)
	g := &Engine{LLM: fastClient(srv), Cache: c, Account: "a"}
	q := Query{Description: "the spaceship launch lever", Intent: IntentClick}
	for i := 0; i < 2; i++ {
		if _, err := g.Resolve(context.Background(), editorPage(), q); err == nil {
			t.Fatal("found something")
		}
	}
	if n := len(srv.Calls()); n != 1 {
		t.Fatalf("%d model calls, want 1", n)
	}
}
