// Package semantic finds page elements from English descriptions ("the button that says Submit",
// "the email field", "the second result's title"). Snap takes one snapshot of a page's interactive
// and text-bearing elements in a single injected-JS round trip; Resolve ranks the snapshot's
// elements against a description with heuristics (no model, no network, milliseconds). The ranker
// works on a Snapshot as plain data, so a snapshot sent by the browser extension resolves the same
// way as one taken from a pooled page; Handle turns a resolved element back into a live rod element.
package semantic

// Box is an element's border box in CSS pixels, relative to the top-level viewport.
type Box struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	W float64 `json:"w"`
	H float64 `json:"h"`
}

// Element is one interactive or text-bearing element of a snapshot.
type Element struct {
	// ID is the element's index in the snapshot (document order).
	ID int `json:"id"`
	// Tag is the lowercase tag name.
	Tag string `json:"tag"`
	// Role is the explicit ARIA role or the implicit one (button, link, textbox, searchbox,
	// checkbox, radio, combobox, tab, menuitem, heading, img, listitem, cell, columnheader, label,
	// paragraph, status, alert, dialog, text...).
	Role string `json:"role"`
	// Name is the accessible name: aria-labelledby > aria-label > label > alt > title >
	// placeholder > own text, whitespace-collapsed and capped at 200 characters.
	Name string `json:"name"`
	// Text is the visible text of the element's subtree, capped at 300 characters.
	Text        string `json:"text,omitempty"`
	Label       string `json:"label,omitempty"`
	Placeholder string `json:"placeholder,omitempty"`
	AriaLabel   string `json:"aria_label,omitempty"`
	Title       string `json:"title,omitempty"`
	Alt         string `json:"alt,omitempty"`
	// Value is a field's current value ("***" for a non-empty password), a select's chosen option,
	// or a range widget's value: a progress bar's or meter's share of its range ("40%"), or what
	// aria-valuetext or aria-valuenow says of an ARIA slider, progress bar or spin button.
	Value     string `json:"value,omitempty"`
	InputType string `json:"input_type,omitempty"`
	Href      string `json:"href,omitempty"`
	NameAttr  string `json:"name_attr,omitempty"`
	IDAttr    string `json:"id_attr,omitempty"`
	// Class is the class attribute (capped), a weak hint ("price", "alert-success").
	Class string `json:"class,omitempty"`
	// TestID is data-testid (or data-test, data-qa) when present.
	TestID string `json:"test_id,omitempty"`
	// Context is the text of what the element sits in, innermost first, separated by " | ": a table
	// column header, enclosing landmarks/dialogs/fieldsets (their kind and label, e.g. "dialog Cookie
	// settings"), and the nearest preceding heading.
	Context string `json:"context,omitempty"`
	// Item numbers the innermost repeated container the element is in (a list item, a table
	// row, a card: an element whose sibling has its tag and first class), 0 for none; elements
	// with the same Item belong to the same item. ItemKind is that container's tag, first
	// class and list ("li.result@3": the third parent of repeated items): two elements in
	// different items of the same kind belong to look-alike items of one list.
	Item     int    `json:"item,omitempty"`
	ItemKind string `json:"item_kind,omitempty"`
	// ItemUp is the repeated container that holds the element's own (Item), 0 for none: a
	// post's author line inside a post of a feed.
	ItemUp int `json:"item_up,omitempty"`
	// Parent is the ID of the nearest included ancestor, -1 for none.
	Parent int `json:"parent"`
	// Shape is the element's tag path without indices (last levels only); repeated items such as
	// search results share a shape.
	Shape       string `json:"shape,omitempty"`
	Visible     bool   `json:"visible"`
	Enabled     bool   `json:"enabled"`
	Checked     bool   `json:"checked,omitempty"`
	Editable    bool   `json:"editable,omitempty"`
	Interactive bool   `json:"interactive,omitempty"`
	// Current is what aria-current says of the element, the one of a set that is current:
	// "page", "step", "location", "date", "time" or "true" (any other value but "false"
	// means "true"); empty for none. The current page of a pagination or a breadcrumb, the
	// step a wizard is at, today in a calendar.
	Current string `json:"current,omitempty"`
	// Options are a select's options, what it can be set to (its chosen one is Value), one a
	// line: at most 50, each whitespace-collapsed and capped at 60 characters. One string, as
	// Context is, so that Element stays comparable.
	Options string `json:"options,omitempty"`
	// Color is a coarse name of the colour a control, heading or banner (an alert, a status, a
	// promo or cookie strip) shows: "red", "orange", "yellow", "green", "blue", "purple",
	// "pink", "grey", "black" or "white". Its background's when that is opaque and not white,
	// else its text's when that is a clear hue (a white button with blue text is blue), else
	// "white" for a clearly white background (#f5f5f5 and lighter; light greys are "grey");
	// empty for a gradient or image background, an unstyled button's browser face, dark text
	// on a clear background, and other elements. What a user sees: "the red button", "the
	// green Save button".
	Color string `json:"color,omitempty"`
	// Covered is true when an open modal dialog sits over the element (it is outside the modal).
	Covered bool `json:"covered,omitempty"`
	// InFrame is true for an element of a same-origin iframe.
	InFrame bool `json:"in_frame,omitempty"`
	Box     Box  `json:"box"`
	// Selector is a CSS selector that identifies the element now: #id when the id is unique, else a
	// tag:nth-of-type path. Inside open shadow roots and iframes, " >>> " separates the host's
	// selector from the path inside it. It is for records and debugging, not for re-finding.
	Selector string `json:"selector"`
}

// rangeRoles are the roles whose Value is the widget's position in a range (snapshot.js's
// RANGE_ROLES, and <progress> and <meter>, whose implicit roles are among them).
var rangeRoles = map[string]bool{"progressbar": true, "slider": true, "spinbutton": true, "meter": true, "scrollbar": true}

// RangeValue is a range widget's value ("40%", "7 of 10"): what a reader of a progress bar or
// a slider wants, which is not in its text. ok is false for other elements.
func (e *Element) RangeValue() (v string, ok bool) {
	if !rangeRoles[e.Role] || e.Value == "" {
		return "", false
	}
	return e.Value, true
}

// Container is a repeated container seen only around others: its number (an Element.Item),
// its kind (as Element.ItemKind) and the container around it (as Element.ItemUp).
type Container struct {
	Item int    `json:"item"`
	Kind string `json:"kind"`
	Up   int    `json:"up,omitempty"`
}

// Snapshot is one page's elements at one moment, in document order.
type Snapshot struct {
	URL      string    `json:"url"`
	Title    string    `json:"title"`
	Elements []Element `json:"elements"`
	// Containers are the repeated containers that hold no element of their own, only other
	// containers (a card made of a name block and a buttons block): what elements' Item,
	// ItemKind and ItemUp cannot say about them.
	Containers []Container `json:"containers,omitempty"`
	// Gen identifies the page-side element array Handle reads (0 for a snapshot that did not
	// come from Snap, e.g. one sent by the extension).
	Gen int `json:"gen,omitempty"`

	// prep caches the ranker's per-element work for snapshots taken by Snap, which are never
	// modified afterwards. Snapshots built elsewhere are prepared per Resolve.
	prep *prepCache
	// prev is the snapshot this one was sent as a difference from, until this one is prepared:
	// the work that depends only on what both say alike is carried over (see carriedPrep).
	prev *Snapshot
}

// Intent is what the caller means to do with the element; it shifts the ranking (typing prefers
// editable fields, clicking interactive ones, reading text-bearing ones).
type Intent int

// Intents.
const (
	IntentAny Intent = iota
	IntentClick
	IntentType
	IntentRead
)

func (i Intent) String() string {
	switch i {
	case IntentClick:
		return "click"
	case IntentType:
		return "type"
	case IntentRead:
		return "read"
	}
	return "any"
}

// Query is one description to resolve.
type Query struct {
	Description string
	Intent      Intent
	// Match picks one of several equally good matches: "first", "last" or "1", "2"... Optional.
	// Default: none, and a tie is an AmbiguousTarget error unless the description has an ordinal.
	Match string
	// Before is the page as the last action found it, when the description is asked after an
	// action: what that action added or changed ("the confirmation" after a submit, "the error")
	// is then the strong prior for reading, whatever its words. Optional. Default: nil.
	Before *Snapshot
}

// Candidate is one scored element.
type Candidate struct {
	Element Element `json:"element"`
	Score   float64 `json:"score"`
	Why     string  `json:"why"`
}

// Resolution is the element a description resolved to.
type Resolution struct {
	Element Element
	// Confidence is 0..1: high when the top score is high and clearly above the runner-up.
	Confidence float64
	// By names the resolver: "heuristic", "llm" (the model chose among the heuristic's
	// candidates) or "cache" (a remembered resolution, re-validated on this snapshot).
	By  string
	Why string
	// RunnersUp are the next best candidates, at most 3.
	RunnersUp []Candidate
	// Tokens is what the model calls of this resolution cost (zero without a model call).
	Tokens Tokens
	// Model names the model that chose, when By is "llm".
	Model string
	// Note says why a configured model did not decide (it failed, timed out or found nothing),
	// when the resolution fell back to the heuristic.
	Note string
	// byLabel marks a heuristic answer handed on from the plain text the words named to the
	// control after it (handLabelToControl): an inference the model is asked to confirm.
	byLabel bool
	// signal is how the heuristic reached it, for calibration (zero for other resolvers).
	signal signal
}

// Tokens counts a model's tokens.
type Tokens struct {
	Prompt     int `json:"prompt"`
	Completion int `json:"completion"`
	// Calls is the number of model calls, retries included.
	Calls int `json:"calls"`
}
