package semantic

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/url"
	"sort"
	"strings"
	"time"
	"unicode"
)

// CacheStore keeps cache entries as opaque bytes per account and key; store.DB implements it
// in a bbolt bucket. GetResolution returns nil, nil for a missing entry.
type CacheStore interface {
	GetResolution(account, key string) ([]byte, error)
	PutResolution(account, key string, entry []byte) error
	DeleteResolution(account, key string) error
}

// Cache remembers resolutions so that a repeated run resolves without the model: the key is
// (site, page shape, description, intent, match), the entry says how to find the element again,
// and a hit is used only after the element is found again in the fresh snapshot and is still
// the same element (role, tag, name) and usable. Store errors make a miss, never a failure.
type Cache struct {
	st  CacheStore
	now func() time.Time
}

// NewCache returns a cache over st, or nil when st is nil.
func NewCache(st CacheStore) *Cache {
	if st == nil {
		return nil
	}
	return &Cache{st: st, now: time.Now}
}

// cacheVersion is the entry format version.
const cacheVersion = 1

// cacheEntry is how to find a resolved element again.
type cacheEntry struct {
	V        int    `json:"v"`
	Selector string `json:"selector"`
	Role     string `json:"role"`
	Tag      string `json:"tag"`
	Name     string `json:"name"`
	Text     string `json:"text,omitempty"`
	IDAttr   string `json:"id_attr,omitempty"`
	TestID   string `json:"test_id,omitempty"`
	Shape    string `json:"shape,omitempty"`
	Context  string `json:"context,omitempty"`
	// None records that neither the heuristic nor the model found anything: the next run skips
	// the model (it would only say the same) until the page's shape changes.
	None       bool      `json:"none,omitempty"`
	By         string    `json:"by"`
	Confidence float64   `json:"confidence"`
	Updated    time.Time `json:"updated"`
}

// cacheKey is the entry's key: the site (host and path shape), the page's structural
// fingerprint, the intent, the match and the normalized description.
func cacheKey(s *Snapshot, q Query) string {
	desc := normalize(q.Description)
	if len(desc) > 300 {
		desc = desc[:300]
	}
	return fmt.Sprintf("%s|%s|%s|%s|%s", siteShape(s.URL), PageShape(s), q.Intent, strings.ToLower(strings.TrimSpace(q.Match)), desc)
}

// siteShape is a URL's host and path with variable segments (numbers, ids, hashes) replaced by
// "*", so that /orders/1234 and /orders/5678 share entries.
func siteShape(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	segs := strings.Split(strings.Trim(u.Path, "/"), "/")
	for i, sg := range segs {
		digits := 0
		for _, r := range sg {
			if unicode.IsDigit(r) {
				digits++
			}
		}
		if digits > 0 && (digits*3 >= len(sg) || len(sg) >= 16) || len(sg) > 40 {
			segs[i] = "*"
		}
	}
	return u.Host + "/" + strings.Join(segs, "/")
}

// PageShape is a cheap structural fingerprint of a snapshot: a hash of the distinct (role,
// tag path) pairs of its interactive elements and dialogs. Text, counts and order do not
// count, so more search results or a new price keep the shape; a redesigned form changes it.
func PageShape(s *Snapshot) string {
	set := map[string]bool{}
	for i := range s.Elements {
		e := &s.Elements[i]
		if e.Interactive || e.Role == "dialog" || e.Role == "alertdialog" {
			set[e.Role+" "+e.Shape] = true
		}
	}
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	h := fnv.New64a()
	for _, k := range keys {
		h.Write([]byte(k))
		h.Write([]byte{0})
	}
	return fmt.Sprintf("%016x", h.Sum64())
}

func (c *Cache) store(account, key string, s *Snapshot, q Query, res Resolution) {
	e := res.Element
	ent := cacheEntry{V: cacheVersion, Selector: e.Selector, Role: e.Role, Tag: e.Tag, Name: e.Name, Text: clip(e.Text, 80),
		IDAttr: e.IDAttr, TestID: e.TestID, Shape: e.Shape, Context: e.Context, By: res.By, Confidence: res.Confidence, Updated: c.now().UTC()}
	b, err := json.Marshal(ent)
	if err != nil {
		return
	}
	_ = c.st.PutResolution(account, key, b)
}

func (c *Cache) forget(account, key string) { _ = c.st.DeleteResolution(account, key) }

// storeNone remembers that nothing fits q on pages shaped like s.
func (c *Cache) storeNone(account, key string) {
	b, err := json.Marshal(cacheEntry{V: cacheVersion, None: true, Updated: c.now().UTC()})
	if err == nil {
		_ = c.st.PutResolution(account, key, b)
	}
}

// lookup returns the cached resolution of q when there is one and it still holds on s; none is
// true when the cache remembers that nothing fits.
func (c *Cache) lookup(account, key string, s *Snapshot, q Query) (res Resolution, ok, none bool) {
	b, err := c.st.GetResolution(account, key)
	if err != nil || b == nil {
		return Resolution{}, false, false
	}
	var ent cacheEntry
	if json.Unmarshal(b, &ent) != nil || ent.V != cacheVersion {
		return Resolution{}, false, false
	}
	if ent.None {
		return Resolution{}, false, true
	}
	p := Parse(q.Description)
	e := ent.find(s)
	if e == nil || !ent.same(e) || !usable(e, intentOf(q, &p)) {
		return Resolution{}, false, false
	}
	return Resolution{Element: *e, Confidence: ent.Confidence, By: "cache",
		Why: fmt.Sprintf("remembered (first resolved by %s), still %s %q", ent.By, e.Role, clip(firstOf(e.Name, e.Text), 40))}, true, false
}

// find locates the entry's element in s: by selector, else by a unique id attribute or test
// id, else by a unique (role, name, shape).
func (ent *cacheEntry) find(s *Snapshot) *Element {
	for i := range s.Elements {
		if s.Elements[i].Selector == ent.Selector {
			return &s.Elements[i]
		}
	}
	unique := func(f func(*Element) bool) *Element {
		var got *Element
		for i := range s.Elements {
			if f(&s.Elements[i]) {
				if got != nil {
					return nil
				}
				got = &s.Elements[i]
			}
		}
		return got
	}
	if ent.IDAttr != "" {
		if e := unique(func(e *Element) bool { return e.IDAttr == ent.IDAttr }); e != nil {
			return e
		}
	}
	if ent.TestID != "" {
		if e := unique(func(e *Element) bool { return e.TestID == ent.TestID }); e != nil {
			return e
		}
	}
	if ent.Name != "" {
		return unique(func(e *Element) bool { return e.Role == ent.Role && e.Name == ent.Name && e.Shape == ent.Shape })
	}
	return nil
}

// same reports whether e is still the element the entry remembers: same role and tag, and the
// same name. Text that is data (a total, a count, a status) may change: a non-interactive
// element keeps its identity by its place (shape and context) instead.
func (ent *cacheEntry) same(e *Element) bool {
	if e.Role != ent.Role || e.Tag != ent.Tag {
		return false
	}
	if normalize(e.Name) == normalize(ent.Name) {
		return true
	}
	return !e.Interactive && e.Shape == ent.Shape && e.Context == ent.Context
}

// usable reports whether e can still serve the intent.
func usable(e *Element, intent Intent) bool {
	if intent == IntentClick || intent == IntentType {
		return e.Visible && e.Enabled
	}
	return true
}

func firstOf(vals ...string) string {
	for _, v := range vals {
		if strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}
