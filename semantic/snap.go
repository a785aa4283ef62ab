package semantic

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/rodeo-run/rodeo/errs"
)

// windowKey is the non-enumerable window property holding the page-side element arrays of recent
// snapshots. It is long and odd so that no page's own globals collide with it.
const windowKey = "__rodeo_semantic_snapshots_7c1f"

//go:embed snapshot.js
var snapshotJS string

// Snap takes a snapshot of page in one round trip: injected JS walks the DOM (open shadow roots
// and same-origin iframes included) and returns the interactive and text-bearing elements as JSON.
// It does not modify the DOM. The live elements stay reachable through Handle until the page
// navigates or eight newer snapshots are taken.
func Snap(ctx context.Context, page *rod.Page) (*Snapshot, error) {
	res, err := page.Context(ctx).Evaluate(rod.Eval(snapshotJS, windowKey))
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	var w wireSnapshot
	if err := json.Unmarshal([]byte(res.Value.Str()), &w); err != nil {
		return nil, fmt.Errorf("snapshot: decode: %w", err)
	}
	return w.snapshot()
}

// wireSnapshot is the compact form snapshot.js sends: the bytes cross CDP and get decoded twice
// (by rod, then here), so repeated strings are interned and defaults left out.
type wireSnapshot struct {
	URL      string        `json:"url"`
	Title    string        `json:"title"`
	Gen      int           `json:"gen"`
	Strs     []string      `json:"strs"`
	Elements []wireElement `json:"elements"`
}

type wireElement struct {
	Element
	ShapeIdx   int    `json:"sh"`
	ContextIdx *int   `json:"cx"`
	SelPrefix  int    `json:"sp"`
	SelRest    string `json:"sel"`
	Hidden     int    `json:"hd"`
	Disabled   int    `json:"ds"`
	TextSame   int    `json:"ts"`
}

func (w *wireSnapshot) snapshot() (*Snapshot, error) {
	s := &Snapshot{URL: w.URL, Title: w.Title, Gen: w.Gen, Elements: make([]Element, len(w.Elements)), prep: &prepCache{}}
	str := func(i int) (string, error) {
		if i < 0 || i >= len(w.Strs) {
			return "", fmt.Errorf("snapshot: decode: string %d out of range", i)
		}
		return w.Strs[i], nil
	}
	prev := ""
	for i := range w.Elements {
		we := &w.Elements[i]
		e := we.Element
		var err error
		if e.Shape, err = str(we.ShapeIdx); err != nil {
			return nil, err
		}
		if we.ContextIdx != nil {
			if e.Context, err = str(*we.ContextIdx); err != nil {
				return nil, err
			}
		}
		if we.SelPrefix > len(prev) {
			return nil, fmt.Errorf("snapshot: decode: selector prefix %d of %q", we.SelPrefix, prev)
		}
		e.Selector = prev[:we.SelPrefix] + we.SelRest
		prev = e.Selector
		e.Visible = we.Hidden == 0
		e.Enabled = we.Disabled == 0
		if we.TextSame != 0 {
			e.Text = e.Name
		}
		s.Elements[i] = e
	}
	return s, nil
}

// handleJS returns the live element of snapshot gen at index i, or null when it is gone (the
// page navigated, the snapshot was evicted, or the element was removed from the document).
const handleJS = `(key, gen, i) => {
	const store = window[key];
	const els = store && store.snaps.get(gen);
	const el = els && els[i];
	return el && el.isConnected ? el : null;
}`

// Handle returns the live element that the snapshot's element id refers to. It fails with
// errs.TargetNotFound when the element is gone: removed from the page, or the page navigated.
func (s *Snapshot) Handle(ctx context.Context, page *rod.Page, id int) (*rod.Element, error) {
	if s.Gen == 0 {
		return nil, fmt.Errorf("snapshot has no page-side handles (it was not taken by Snap)")
	}
	if id < 0 || id >= len(s.Elements) {
		return nil, fmt.Errorf("element id %d out of range 0..%d", id, len(s.Elements)-1)
	}
	p := page.Context(ctx)
	res, err := p.Evaluate(rod.Eval(handleJS, windowKey, s.Gen, id).ByObject())
	if err != nil {
		return nil, fmt.Errorf("element handle: %w", err)
	}
	if res.Subtype != proto.RuntimeRemoteObjectSubtypeNode {
		el := s.Elements[id]
		return nil, errs.E(errs.TargetNotFound, "element %s %q (%s) is no longer on the page", el.Role, el.Name, el.Selector)
	}
	if !s.Elements[id].InFrame {
		return p.ElementFromObject(res)
	}
	// An iframe's element must be addressed in its own frame's JS world, or rod's helpers fail
	// ("Argument should belong to the same JavaScript world"): re-resolve it by backend node id.
	desc, err := proto.DOMDescribeNode{ObjectID: res.ObjectID}.Call(p)
	if err != nil {
		return nil, fmt.Errorf("element handle: %w", err)
	}
	return p.ElementFromNode(&proto.DOMNode{BackendNodeID: desc.Node.BackendNodeID})
}
