package nodes

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/go-rod/rod"
)

// observerKey is the page-side property holding rodeo's change observer. It is non-enumerable
// and set with defineProperty, so page scripts don't see it in ordinary iteration.
const observerKey = "__rodeo_observer_7f3a"

// pageStateJS reads what a user could notice: URL, the focused element and its value, checked
// and value states of form controls, the selection, scroll, and how many resources loaded.
const pageStateJS = `function rodeoState() {
	let a = document.activeElement;
	while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
	try { while (a && a.tagName === 'IFRAME' && a.contentDocument && a.contentDocument.activeElement) a = a.contentDocument.activeElement; } catch (e) {}
	const focus = a && a !== document.body ? (a.tagName + '#' + (a.id || '') + '[' + (a.getAttribute('name') || '') + ']') : '';
	let value = '';
	if (a && a !== document.body) value = ('value' in a && typeof a.value === 'string') ? a.value : (a.isContentEditable ? a.innerText : '');
	const ctl = document.querySelectorAll('input,select,textarea');
	let forms = '';
	for (let i = 0; i < ctl.length && i < 500; i++) { const c = ctl[i]; forms += (c.checked ? '1' : '0') + (c.value || '').length + (c.value || '').slice(0, 8) + '|'; }
	const sel = String(window.getSelection ? window.getSelection() : '').length + ':' + (a && 'selectionStart' in a ? (a.selectionStart + '-' + a.selectionEnd) : '');
	const editable = !!(a && a !== document.body && (a.isContentEditable || a.tagName === 'TEXTAREA' || a.tagName === 'SELECT' ||
		(a.tagName === 'INPUT' && !/^(button|submit|reset|checkbox|radio|image|file|color|range|hidden)$/i.test(a.type))));
	const rs = performance.getEntriesByType('resource');
	return {url: location.href, focus, editable, value, forms, sel, scroll: Math.round(scrollX) + ',' + Math.round(scrollY),
		res: rs.length, lastRes: rs.length ? rs[rs.length - 1].name.slice(0, 200) : '', password: !!(a && a.type === 'password')};
}`

// pageState is one reading of pageStateJS.
type pageState struct {
	URL      string `json:"url"`
	Focus    string `json:"focus"`
	Editable bool   `json:"editable"`
	Value    string `json:"value"`
	Forms    string `json:"forms"`
	Sel      string `json:"sel"`
	Scroll   string `json:"scroll"`
	Res      int    `json:"res"`
	// LastRes is the address of the last resource loaded (capped): which request a check saw.
	LastRes  string `json:"lastRes"`
	Password bool   `json:"password"`
}

// observer watches a page across one action: it records the state before, counts DOM mutations
// during, and compares after. One round trip to install, one per reading.
type observer struct {
	page   *rod.Page
	before pageState
	// navigated is set when the document was replaced (the observer vanished with it).
	navigated bool
}

func observe(ctx context.Context, page *rod.Page) (*observer, error) {
	res, err := page.Context(ctx).Eval(`(key) => {
		`+pageStateJS+`
		const old = window[key];
		if (old) old.obs.disconnect();
		const rec = {mut: 0, before: rodeoState()};
		rec.obs = new MutationObserver(ms => { rec.mut += ms.length; });
		rec.obs.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
		Object.defineProperty(window, key, {value: rec, configurable: true, enumerable: false});
		return rec.before;
	}`, observerKey)
	if err != nil {
		return nil, fmt.Errorf("observe page: %w", err)
	}
	o := &observer{page: page}
	if err := res.Value.Unmarshal(&o.before); err != nil {
		return nil, fmt.Errorf("observe page: %w", err)
	}
	return o, nil
}

// change is what an observer saw change.
type change struct {
	Mutations int
	Before    pageState
	After     pageState
	Navigated bool
}

// focusedField reports a focus change into an editable field. Focus moving to a button or link
// is not an effect: Chrome focuses every clicked button, including ones that do nothing.
func (c change) focusedField() bool { return c.Before.Focus != c.After.Focus && c.After.Editable }

// selectionChanged reports a selection change within the same focused element (a focus change
// alone moves the selection too).
func (c change) selectionChanged() bool {
	return c.Before.Focus == c.After.Focus && c.Before.Sel != c.After.Sel
}

func (c change) stateChanged() bool {
	return c.Before.Forms != c.After.Forms || (c.Before.Focus == c.After.Focus && c.Before.Value != c.After.Value)
}

func (c change) any() bool {
	return c.Navigated || c.Mutations > 0 || c.Before.URL != c.After.URL || c.focusedField() || c.stateChanged() ||
		c.selectionChanged() || c.Before.Res != c.After.Res || c.Before.Scroll != c.After.Scroll
}

func (o *observer) read(ctx context.Context) (change, error) {
	res, err := o.page.Context(ctx).Eval(`(key) => {
		`+pageStateJS+`
		const rec = window[key];
		return {present: !!rec, mut: rec ? rec.mut : 0, now: rodeoState()};
	}`, observerKey)
	if err != nil {
		return change{}, err
	}
	var out struct {
		Present bool      `json:"present"`
		Mut     int       `json:"mut"`
		Now     pageState `json:"now"`
	}
	if err := res.Value.Unmarshal(&out); err != nil {
		return change{}, err
	}
	c := change{Mutations: out.Mut, Before: o.before, After: out.Now, Navigated: !out.Present || o.navigated}
	return c, nil
}

// wait polls until something changed or the window passes, and returns the last reading. A
// navigation in flight (the context was destroyed) counts as a change once the new document
// answers.
func (o *observer) wait(ctx context.Context, window time.Duration) change {
	deadline := time.Now().Add(window)
	var last change
	for {
		c, err := o.read(ctx)
		if err != nil {
			// The document is being replaced: wait for the new one to answer.
			o.navigated = true
			if ctx.Err() != nil {
				return change{Navigated: true, Before: o.before, After: o.before}
			}
		} else {
			last = c
			if c.any() {
				return c
			}
		}
		if time.Now().After(deadline) {
			if err != nil {
				last.Navigated = true
			}
			return last
		}
		select {
		case <-ctx.Done():
			return last
		case <-time.After(25 * time.Millisecond):
		}
	}
}

// checks renders a change as verification checks: one passed check per kind of change seen, or
// one failed "page_changed" check when nothing changed.
func (c change) checks(window time.Duration) []checkResult {
	var out []checkResult
	if c.Navigated || c.Before.URL != c.After.URL {
		out = append(out, checkResult{"url_changed", true, c.Before.URL + " -> " + c.After.URL})
	}
	if c.Mutations > 0 {
		out = append(out, checkResult{"dom_changed", true, fmt.Sprintf("%d DOM mutations", c.Mutations)})
	}
	if c.focusedField() {
		out = append(out, checkResult{"focus_changed", true, strings.TrimSpace(c.Before.Focus + " -> " + c.After.Focus)})
	}
	if c.stateChanged() {
		out = append(out, checkResult{"state_changed", true, "a form control's value or checked state changed"})
	}
	if c.selectionChanged() {
		out = append(out, checkResult{"selection_changed", true, ""})
	}
	if c.Before.Scroll != c.After.Scroll {
		out = append(out, checkResult{"scrolled", true, c.Before.Scroll + " -> " + c.After.Scroll})
	}
	if c.Before.Res != c.After.Res {
		out = append(out, checkResult{"request_started", true, fmt.Sprintf("%d new requests (the last: %s)", c.After.Res-c.Before.Res, c.After.LastRes)})
	}
	if len(out) == 0 {
		out = append(out, checkResult{"page_changed", false, fmt.Sprintf("no DOM, URL, focus, form state or network change within %s", window)})
	}
	return out
}

type checkResult struct {
	name   string
	passed bool
	detail string
}
