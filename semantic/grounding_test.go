package semantic

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"
	"github.com/rodeo-run/rodeo/browser/browsertest"
	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/llm"
	"github.com/rodeo-run/rodeo/llm/llmtest"
	"github.com/rodeo-run/rodeo/store"
)

// The grounding corpus: testdata/grounding/NAME.html, a page written to look like a real site,
// and NAME.json, English descriptions of its elements with the element each must resolve to
// (a CSS selector; " >>> " steps into a shadow root or an iframe). The pages in
// testdata/grounding/heldout/ are held out: they were written by someone who never saw the
// ranker, the ranker is tuned on the others only, and the held-out accuracy is the honest
// estimate. TestGrounding logs only the tuning pages' misses (GROUNDING_SHOW_HOLDOUT=1 shows the
// others). docs/PERFORMANCE.md says how each part of the corpus was written and measured.
//
// The tests that only resolve read the frozen pages (see grounding_frozen_test.go), in pure Go;
// GROUNDING_LIVE=1 has them load every page in Chrome instead. The tests that need a live page
// load only the pages they need: a sample to check the frozen files against this Chrome
// (GROUNDING_ALL=1 loads every page), the pages with scrape cases.
//
// Tuning aids: GROUNDING_DUMP=NAME logs a page's snapshot, GROUNDING_DEBUG='NAME|description'
// logs the ranking of its cases (several separated by ";;"), GROUNDING_FAST=1 stops after the
// heuristic (its tuning misses and figures; with GROUNDING_WANT=1 each miss says where the
// expected element ranked, or that it scored nothing), GROUNDING_TUNING_ONLY=1 loads no held-out page,
// GROUNDING_LLM_MISSES=1 logs the tuning cases the model was asked about without being shown the
// expected element, and those it was not asked about that the heuristic had wrong, GROUNDING_CONF=file writes (correct, confidence, score, runner-up,
// text score, unexplained share) rows of the tuning cases for calibrating Resolve's confidence, GROUNDING_OUT=file
// writes the figures as JSON.

// debugTop is how many candidates GROUNDING_DEBUG logs (GROUNDING_DEBUG_TOP=N for more).
var debugTop = func() int {
	if n, err := strconv.Atoi(os.Getenv("GROUNDING_DEBUG_TOP")); err == nil && n > 0 {
		return n
	}
	return 12
}()

// groundingDir is the corpus; GROUNDING_CORPUS names another one, so a writer of new pages can
// validate them (TestGroundingCorpusValid) in a staging directory before they join the corpus.
var groundingDir = func() string {
	if d := os.Getenv("GROUNDING_CORPUS"); d != "" {
		return d
	}
	return "../testdata/grounding"
}()

type groundingCase struct {
	Description string `json:"description"`
	Intent      string `json:"intent"`
	Want        string `json:"want"`
	Match       string `json:"match,omitempty"`
	// After are steps done on a fresh load of the page before the description is resolved: what
	// an action produced ("the confirmation" after a submit) is asked of the page it left.
	After []afterStep `json:"after,omitempty"`
}

// afterStep is one action of a case's After: a click, typing a text into a field, or a key.
type afterStep struct {
	Click string `json:"click,omitempty"`
	Type  string `json:"type,omitempty"`
	Text  string `json:"text,omitempty"`
	Press string `json:"press,omitempty"`
}

type groundingFile struct {
	Cases  []groundingCase `json:"cases"`
	Scrape []scrapeCase    `json:"scrape,omitempty"`
}

// scrapeCase is a semanticScrape description and what it must return: a string, a list of
// strings or a list of objects.
type scrapeCase struct {
	Description string `json:"description"`
	Want        any    `json:"want"`
}

// groundedPage is a corpus page loaded in Chrome and snapshotted (page is its tab), or read from
// its frozen file (page is nil), with each case's acceptable snapshot ids (the expected element,
// or a descendant with exactly its text).
type groundedPage struct {
	name    string
	holdout bool
	page    *rod.Page
	snap    *Snapshot
	file    groundingFile
	ok      [][]int
	// after holds, for a case with After steps, the page as those steps left it, and the
	// snapshot taken just before them on the same fresh load (what the steps changed is the
	// difference); nil for the other cases, which are asked of snap.
	after  []*Snapshot
	before []*Snapshot
}

// beforeOf is the page as case i's steps found it, nil for a case without steps.
func (gp *groundedPage) beforeOf(i int) *Snapshot {
	if i < len(gp.before) {
		return gp.before[i]
	}
	return nil
}

// snapOf is the snapshot case i is asked of.
func (gp *groundedPage) snapOf(i int) *Snapshot {
	if i < len(gp.after) && gp.after[i] != nil {
		return gp.after[i]
	}
	return gp.snap
}

// heldOutDir is the held-out part of the corpus, under groundingDir.
const heldOutDir = "heldout"

func parseIntent(s string) Intent {
	switch s {
	case "click":
		return IntentClick
	case "type":
		return IntentType
	case "read":
		return IntentRead
	}
	return IntentAny
}

// expectJS returns, per [selector, reading] pair, the snapshot ids that count as that element
// (null when the selector matches nothing; a selector list names alternatives, each counting):
// the element, a descendant with exactly its text, and, when reading, an ancestor that is the
// element's text behind a short label. It reads the page-side element array through handleJS.
const expectJS = `(key, gen, n, sels) => {
	const h = ` + handleJS + `;
	const els = [];
	for (let i = 0; i < n; i++) els.push(h(key, gen, i));
	// find returns every element the selector's last part matches: a selector list ("#pg-next,
	// #pg-2") names alternatives, each as good as the other.
	const find = (sel) => {
		let root = document;
		const parts = sel.split(' >>> ');
		for (let k = 0; k < parts.length - 1; k++) {
			const el = root.querySelector(parts[k]);
			if (!el) return [];
			root = el.shadowRoot || el.contentDocument;
			if (!root) return [];
		}
		return [...root.querySelectorAll(parts[parts.length - 1])];
	};
	const txt = (e) => (e.innerText || e.textContent || '').trim();
	return sels.map(([sel, read]) => {
		const ts = find(sel);
		if (!ts.length) return null;
		const ok = [];
		els.forEach((e, i) => {
			if (!e) return;
			for (const t of ts) {
				const tt = txt(t);
				if (e === t || (t.contains(e) && txt(e) === tt) ||
					// Reading a heading whose only text is its title link reads the same as the link.
					(read && e.contains(t) && tt && txt(e) === tt) ||
					// Reading "Total: $12" for "the total" is as good as reading "$12".
					(read && e.contains(t) && tt && txt(e).endsWith(tt) && txt(e).length - tt.length < 40 && /[A-Za-z]/.test(txt(e).slice(0, -tt.length)))) {
					ok.push(i);
					return;
				}
			}
		});
		return ok;
	});
}`

// livePages holds the corpus pages loaded in Chrome so far, by name, each in its own tab kept
// for the test binary's life, so that tests asking for the same page share one load.
var livePages struct {
	sync.Mutex
	byName map[string]*groundedPage
}

// liveAll says whether the Chrome tests load the whole corpus rather than a sample:
// GROUNDING_ALL=1, a freeze (make corpus) or another corpus (GROUNDING_CORPUS) do.
func liveAll() bool {
	return os.Getenv("GROUNDING_ALL") != "" || os.Getenv("GROUNDING_FREEZE") != "" || os.Getenv("GROUNDING_CORPUS") != ""
}

// corpusPages is the corpus as the tests that need no live page read it: the frozen pages, in
// pure Go (TestGroundingFrozenDigests checks they are the pages as they are now), or, with
// GROUNDING_CORPUS or GROUNDING_LIVE set, every page loaded in Chrome now.
func corpusPages(t *testing.T) []*groundedPage {
	t.Helper()
	if os.Getenv("GROUNDING_CORPUS") != "" || os.Getenv("GROUNDING_LIVE") != "" {
		return loadGrounding(t, func(string, *groundingFile) bool { return true })
	}
	var out []*groundedPage
	for _, fp := range loadFrozen(t) {
		out = append(out, fp.grounded())
	}
	return out
}

// liveSampleEvery is the share of the corpus the Chrome check of the frozen files loads in
// make test: every liveSampleEvery-th page in name order (GROUNDING_ALL=1 loads them all).
const liveSampleEvery = 6

// liveSample keeps every liveSampleEvery-th page of the corpus, or all of them when liveAll.
func liveSample() func(string, *groundingFile) bool {
	n := 0
	return func(string, *groundingFile) bool {
		n++
		return liveAll() || (n-1)%liveSampleEvery == 0
	}
}

// loadGrounding opens the corpus pages keep chooses in the shared Chrome and snapshots them,
// tuning pages first, each in name order.
func loadGrounding(t *testing.T, keep func(name string, f *groundingFile) bool) []*groundedPage {
	t.Helper()
	if testing.Short() {
		t.Skip("browser test")
	}
	files, err := corpusFiles()
	if err != nil {
		t.Fatal(err)
	}
	livePages.Lock()
	defer livePages.Unlock()
	if livePages.byName == nil {
		livePages.byName = map[string]*groundedPage{}
	}
	var out []*groundedPage
	var inc *rod.Browser
	for _, cf := range files {
		if !keep(cf.name, &cf.file) {
			continue
		}
		gp := livePages.byName[cf.name]
		if gp == nil {
			if inc == nil {
				if inc, err = browsertest.Browser(t).Incognito(); err != nil {
					t.Fatal(err)
				}
			}
			if gp, err = loadPage(inc, serveForever(groundingDir), cf); err != nil {
				t.Fatal(err)
			}
			livePages.byName[cf.name] = gp
		}
		out = append(out, gp)
	}
	if len(out) == 0 {
		t.Fatalf("no corpus page in %s to load", groundingDir)
	}
	return out
}

// corpusFile is one page's case file, by the name the page is served at.
type corpusFile struct {
	name string // "heldout/NAME" for a held-out page
	file groundingFile
}

// corpusFiles reads every case file of the corpus, tuning pages first, each in name order.
func corpusFiles() ([]corpusFile, error) {
	names, err := filepath.Glob(filepath.Join(groundingDir, "*.json"))
	if err != nil || len(names) == 0 {
		return nil, fmt.Errorf("no corpus in %s: %v", groundingDir, err)
	}
	held, err := filepath.Glob(filepath.Join(groundingDir, heldOutDir, "*.json"))
	if err != nil {
		return nil, err
	}
	if os.Getenv("GROUNDING_TUNING_ONLY") != "" { // a tuning loop that skips the held-out pages
		held = nil
	}
	sort.Strings(names)
	sort.Strings(held)
	var out []corpusFile
	for _, jf := range append(names, held...) {
		rel, _ := filepath.Rel(groundingDir, jf)
		cf := corpusFile{name: filepath.ToSlash(strings.TrimSuffix(rel, ".json"))}
		raw, err := os.ReadFile(jf)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(raw, &cf.file); err != nil {
			return nil, fmt.Errorf("%s: %v", jf, err)
		}
		out = append(out, cf)
	}
	return out, nil
}

// loadPage opens one corpus page in a tab of its own (the scrape cases read the live page
// later), snapshots it, and finds each case's expected elements.
func loadPage(inc *rod.Browser, base string, cf corpusFile) (*groundedPage, error) {
	name := cf.name
	gp := &groundedPage{name: name, holdout: strings.HasPrefix(name, heldOutDir+"/"), file: cf.file}
	tab, err := inc.Page(proto.TargetCreateTarget{URL: base + "/" + name + ".html"})
	if err != nil {
		return nil, err
	}
	if err := tab.WaitLoad(); err != nil {
		return nil, fmt.Errorf("%s: load: %v", name, err)
	}
	gp.page = tab
	if gp.snap, err = Snap(context.Background(), tab); err != nil {
		return nil, fmt.Errorf("%s: snap: %v", name, err)
	}
	if gp.ok, err = expectedIDs(tab, gp.snap, gp.file.Cases); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if err := gp.loadAfterCases(inc, base+"/"+name+".html"); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	for i, ok := range gp.ok {
		if len(ok) == 0 {
			return nil, fmt.Errorf("%s: case %q: selector %q matches no snapshot element", name, gp.file.Cases[i].Description, gp.file.Cases[i].Want)
		}
	}
	return gp, nil
}

// expectedIDs is, per case, the ids of snap's elements that count as the case's expected one.
func expectedIDs(tab *rod.Page, snap *Snapshot, cases []groundingCase) ([][]int, error) {
	var sels [][]any
	for _, c := range cases {
		sels = append(sels, []any{c.Want, c.Intent == "read"})
	}
	res, err := tab.Evaluate(rod.Eval(expectJS, windowKey, snap.Gen, len(snap.Elements), sels))
	if err != nil {
		return nil, fmt.Errorf("expect: %v", err)
	}
	var ok [][]int
	if err := json.Unmarshal([]byte(res.Value.JSON("", "")), &ok); err != nil {
		return nil, fmt.Errorf("expect: %v", err)
	}
	return ok, nil
}

// loadAfterCases gives each case with After steps its own fresh load of the page in a scratch
// tab: a snapshot before the steps, the steps, and the snapshot the case is asked of.
func (gp *groundedPage) loadAfterCases(inc *rod.Browser, url string) error {
	var tab *rod.Page
	defer func() {
		if tab != nil {
			_ = tab.Close()
		}
	}()
	for i, c := range gp.file.Cases {
		if len(c.After) == 0 {
			continue
		}
		if tab == nil {
			var err error
			if tab, err = inc.Page(proto.TargetCreateTarget{}); err != nil {
				return err
			}
		}
		if gp.after == nil {
			gp.after, gp.before = make([]*Snapshot, len(gp.file.Cases)), make([]*Snapshot, len(gp.file.Cases))
		}
		before, after, err := snapAround(tab, url, c.After)
		if err != nil {
			return fmt.Errorf("case %q: %v", c.Description, err)
		}
		ok, err := expectedIDs(tab, after, []groundingCase{c})
		if err != nil {
			return fmt.Errorf("case %q: %v", c.Description, err)
		}
		gp.before[i], gp.after[i], gp.ok[i] = before, after, ok[0]
	}
	return nil
}

// snapAround loads url afresh, snapshots it, does the steps with real input events, waits for
// the page to settle and snapshots it again.
func snapAround(tab *rod.Page, url string, steps []afterStep) (before, after *Snapshot, err error) {
	if err := tab.Navigate(url); err != nil {
		return nil, nil, err
	}
	if err := tab.WaitLoad(); err != nil {
		return nil, nil, err
	}
	ctx := context.Background()
	if before, err = Snap(ctx, tab); err != nil {
		return nil, nil, err
	}
	for _, st := range steps {
		if err := doStep(tab, st); err != nil {
			return nil, nil, err
		}
	}
	// A corpus page answers an action within 300 ms (a timer, a fake request): wait that long,
	// then for the DOM to settle.
	time.Sleep(350 * time.Millisecond)
	if err := tab.WaitDOMStable(100*time.Millisecond, 0); err != nil {
		return nil, nil, err
	}
	after, err = Snap(ctx, tab)
	return before, after, err
}

// doStep does one After step: a left click, typing into a field (inserted as a paste is: input
// events, no key events), or pressing a key by its name ("Enter", "Escape", "Tab").
func doStep(tab *rod.Page, st afterStep) error {
	t := tab.Timeout(5 * time.Second)
	defer t.CancelTimeout()
	switch {
	case st.Click != "":
		el, err := findStepElement(t, st.Click)
		if err != nil {
			return err
		}
		return el.Click(proto.InputMouseButtonLeft, 1)
	case st.Type != "":
		el, err := findStepElement(t, st.Type)
		if err != nil {
			return err
		}
		if err := el.Focus(); err != nil {
			return err
		}
		return t.InsertText(st.Text)
	case st.Press != "":
		k, ok := stepKeys[st.Press]
		if !ok {
			return fmt.Errorf("after: unknown key %q (known: Enter, Escape, Tab, Backspace, ArrowDown, ArrowUp, Space)", st.Press)
		}
		return t.Keyboard.Type(k)
	}
	return fmt.Errorf("after: a step says none of click, type or press")
}

var stepKeys = map[string]input.Key{
	"Enter": input.Enter, "Escape": input.Escape, "Tab": input.Tab, "Backspace": input.Backspace,
	"ArrowDown": input.ArrowDown, "ArrowUp": input.ArrowUp, "Space": input.Space,
}

// findStepElement finds an After step's element by a corpus selector (" >>> " steps into a
// shadow root or an iframe).
func findStepElement(tab *rod.Page, sel string) (*rod.Element, error) {
	parts := strings.Split(sel, " >>> ")
	el, err := tab.Element(parts[0])
	if err != nil {
		return nil, fmt.Errorf("after: %q: %v", sel, err)
	}
	for _, part := range parts[1:] {
		if sr, err := el.ShadowRoot(); err == nil {
			el, err = sr.Element(part)
			if err != nil {
				return nil, fmt.Errorf("after: %q: %v", sel, err)
			}
			continue
		}
		fr, err := el.Frame()
		if err != nil {
			return nil, fmt.Errorf("after: %q: %v", sel, err)
		}
		if el, err = fr.Element(part); err != nil {
			return nil, fmt.Errorf("after: %q: %v", sel, err)
		}
	}
	return el, nil
}

// serveForever serves dir for the test binary's life (the corpus is shared by several tests).
func serveForever(dir string) string {
	srvOnce.Do(func() { srvURL = httptest.NewServer(http.FileServer(http.Dir(dir))).URL })
	return srvURL
}

var (
	srvOnce sync.Once
	srvURL  string
)

// groundingOutcome is one case's result.
type groundingOutcome struct {
	page, desc string
	holdout    bool
	correct    bool // the expected element, with a confidence a node acts on (MinConfidence)
	top1       bool // the expected element, whatever the confidence
	got        string
	want       string // with GROUNDING_WANT, where the expected element ranked on a miss
	err        error
	dur        time.Duration
	tokens     Tokens
	by         string
	shown      int // with a scripted model: -1 not asked, 0 asked without the expected element among the candidates, 1 with it
	intent     string
	after      bool // the case was asked after steps
	wrongOK    bool // another element, with a confidence a node acts on
}

type tally struct{ n, ok int }

func (t tally) pct() float64 {
	if t.n == 0 {
		return 0
	}
	return 100 * float64(t.ok) / float64(t.n)
}

func summarize(outs []groundingOutcome) (tune, hold, all tally) {
	for _, o := range outs {
		all.n++
		if o.correct {
			all.ok++
		}
		if o.holdout {
			hold.n++
			if o.correct {
				hold.ok++
			}
		} else {
			tune.n++
			if o.correct {
				tune.ok++
			}
		}
	}
	return
}

func pct(ds []time.Duration, p float64) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	if len(s) == 0 {
		return 0
	}
	return s[min(len(s)-1, int(float64(len(s))*p))]
}

func contains1(ok []int, id int) bool {
	for _, x := range ok {
		if x == id {
			return true
		}
	}
	return false
}

// answerFromExpected scripts the model as an oracle that knows the expected element: it answers
// that element's id when the prompt lists it, else null. It measures the plumbing and the
// prompt (is the right element among the candidates? how many tokens?), not a model's skill.
type answerFromExpected struct {
	mu     sync.Mutex
	expect []int
	shown  int // for the last case: -1 not asked, 0 asked without the expected element, 1 with it
}

var candLineRe = regexp.MustCompile(`(?m)^(\d+) `)

func (a *answerFromExpected) script(_ int, req llmtest.Request) llmtest.Reply {
	a.mu.Lock()
	defer a.mu.Unlock()
	prompt := req.Messages[len(req.Messages)-1].Content
	for _, m := range candLineRe.FindAllStringSubmatch(prompt, -1) {
		id, _ := strconv.Atoi(m[1])
		if contains1(a.expect, id) {
			a.shown = 1
			return llmtest.Reply{Content: fmt.Sprintf(`{"id": %d}`, id)}
		}
	}
	a.shown = max(a.shown, 0)
	return llmtest.Reply{Content: `{"id": null}`}
}

// wantRankOf says where the ranker put the expected element of a missed case: its place and
// score, or that it scored nothing (the words do not reach it: the model's business).
func wantRankOf(s *Snapshot, c groundingCase, ok []int) string {
	q := Query{Description: c.Description, Intent: parseIntent(c.Intent)}
	p := Parse(c.Description)
	for r, cand := range rankScored(s, q, &p) {
		if contains1(ok, cand.Element.ID) {
			return fmt.Sprintf(" || want #%d %.3f %s", r+1, cand.Score, clip(describe(cand.Element), 90))
		}
	}
	if len(ok) == 0 {
		return ""
	}
	return " || want unranked " + clip(describe(&s.Elements[ok[0]]), 90)
}

// TestGrounding measures top-1 accuracy on the corpus: the heuristic alone, the engine with a
// scripted model, and a second engine run over a warm cache (which must call no model).
func TestGrounding(t *testing.T) {
	pages := corpusPages(t)
	if dump := os.Getenv("GROUNDING_DUMP"); dump != "" {
		for _, gp := range pages {
			if gp.name == dump {
				for _, e := range gp.snap.Elements {
					t.Logf("%3d p%-3d %-12s %-8s %-40q ctx=%q sh=%q it=%d/%s", e.ID, e.Parent, e.Role, e.Tag, clip(firstOf(e.Name, e.Text), 40), clip(e.Context, 50), clip(e.Shape, 40), e.Item, e.ItemKind)
				}
			}
		}
	}
	for _, dbg := range strings.Split(os.Getenv("GROUNDING_DEBUG"), ";;") {
		if dbg == "" {
			continue
		}
		name, desc, _ := strings.Cut(dbg, "|")
		for _, gp := range pages {
			for _, c := range gp.file.Cases {
				if gp.name == name && (desc == "" || c.Description == desc) {
					q := Query{Description: c.Description, Intent: parseIntent(c.Intent)}
					p := Parse(q.Description)
					t.Logf("%q parsed %+v", c.Description, p)
					for i, cand := range rankScored(gp.snap, q, &p) {
						if i == debugTop {
							break
						}
						t.Logf("  %.3f elig=%v %s: %s", cand.Score, cand.eligible, describe(cand.Element), cand.Why)
					}
					res, err := Resolve(gp.snap, q)
					t.Logf("  resolved: %s (conf %.2f) %s; err %v", describe(&res.Element), res.Confidence, res.Why, err)
				}
			}
		}
	}
	showHoldout := os.Getenv("GROUNDING_SHOW_HOLDOUT") != ""
	ctx := context.Background()

	// 1. The heuristic alone.
	var confOut *os.File
	if f := os.Getenv("GROUNDING_CONF"); f != "" {
		confOut, _ = os.Create(f)
		defer confOut.Close()
	}
	wantRank := os.Getenv("GROUNDING_WANT") != ""
	var heur []groundingOutcome
	var durs []time.Duration
	for _, gp := range pages {
		for i, c := range gp.file.Cases {
			s := freshCopy(gp.snapOf(i))
			t0 := time.Now()
			res, err := Resolve(s, Query{Description: c.Description, Intent: parseIntent(c.Intent), Match: c.Match, Before: gp.beforeOf(i)})
			d := time.Since(t0)
			durs = append(durs, d)
			o := groundingOutcome{page: gp.name, desc: c.Description, holdout: gp.holdout, err: err, dur: d}
			if err == nil {
				o.top1 = contains1(gp.ok[i], res.Element.ID)
				o.correct = o.top1 && res.Confidence >= MinConfidence()
				o.got = fmt.Sprintf("%s (conf %.2f)", describe(&res.Element), res.Confidence)
			}
			if !o.top1 && wantRank {
				o.want = wantRankOf(s, c, gp.ok[i])
			}
			heur = append(heur, o)
			if confOut != nil && err == nil && !gp.holdout {
				second := 0.0
				if len(res.RunnersUp) > 0 {
					second = res.RunnersUp[0].Score
				}
				top, text := topScore(s, c, res)
				p := Parse(c.Description)
				fmt.Fprintf(confOut, "%v,%.2f,%.3f,%.3f,%.2f,%.2f,%q\n", o.top1, res.Confidence, top, second, text, unexplained(s, &p, res.Element.ID), c.Description)
			}
		}
	}
	if os.Getenv("GROUNDING_FAST") != "" { // a tuning loop: the heuristic's misses and figures only
		for _, o := range heur {
			if !o.top1 && !o.holdout {
				t.Logf("MISS [%s] %s %q -> %s%s", descForm(o.desc), o.page, o.desc, clip(firstOf(o.got, fmt.Sprint(o.err)), 200), o.want)
			}
		}
		tt, th, ta := summarizeTop1(heur)
		t.Logf("heuristic misses by kind: tuning %s; held-out %s", missKinds(heur, false), missKinds(heur, true))
		t.Logf("heuristic misses by description form (misses/cases): tuning %s; held-out %s", missForms(heur, false), missForms(heur, true))
		t.Logf("heuristic top-1 (any confidence): tuning %.1f%% (%d/%d), held-out %.1f%% (%d/%d), all %.1f%%", tt.pct(), tt.ok, tt.n, th.pct(), th.ok, th.n, ta.pct())
		return
	}
	// 2. The engine with the scripted model (no cache).
	oracle := &answerFromExpected{}
	srv := llmtest.New(t, oracle.script)
	client := llm.New(srv.Config())
	withLLM, llmCalls, promptTokens := runEngine(t, ctx, pages, &Engine{LLM: client}, oracle, srv)
	// 3. Two runs with a cache in a real bbolt file: the second must call no model.
	db, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	cached := &Engine{LLM: client, Cache: NewCache(db), Account: "acct"}
	_, firstCalls, _ := runEngine(t, ctx, pages, cached, oracle, srv)
	second, secondCalls, _ := runEngine(t, ctx, pages, cached, oracle, srv)

	for _, o := range second {
		if o.tokens.Calls > 0 && (!o.holdout || showHoldout) {
			t.Logf("second run called the model: %s %q (by %q, err %v)", o.page, o.desc, o.by, o.err)
		}
	}
	if os.Getenv("GROUNDING_LLM_MISSES") != "" {
		for _, o := range withLLM {
			if !o.correct && !o.holdout && o.shown >= 0 {
				t.Logf("LLM MISS (the model was not shown it) %s %q", o.page, o.desc)
			}
			if !o.correct && !o.holdout && o.shown < 0 {
				t.Logf("LLM MISS (the model was not asked) %s %q -> %s", o.page, o.desc, clip(firstOf(o.got, fmt.Sprint(o.err)), 160))
			}
		}
	}
	for _, o := range heur {
		if !o.correct && (!o.holdout || showHoldout) {
			what := o.got
			if o.err != nil {
				what = "error: " + o.err.Error()
			}
			t.Logf("MISS %s %q -> %s", o.page, o.desc, clip(what, 300))
		}
	}
	ht, hh, ha := summarize(heur)
	tt, th, ta := summarizeTop1(heur)
	lt, lh, la := summarize(withLLM)
	_, _, ca := summarize(second)
	sort.Ints(promptTokens)
	maxTok, meanTok := 0, 0.0
	for _, n := range promptTokens {
		maxTok = max(maxTok, n)
		meanTok += float64(n)
	}
	if len(promptTokens) > 0 {
		meanTok /= float64(len(promptTokens))
	}
	t.Logf("corpus: %d pages (%d held out), %d cases", len(pages), countHoldout(pages), ha.n)
	t.Logf("heuristic misses by kind: tuning %s; held-out %s", missKinds(heur, false), missKinds(heur, true))
	t.Logf("heuristic misses by description form (misses/cases): tuning %s; held-out %s", missForms(heur, false), missForms(heur, true))
	t.Logf("heuristic top-1 (any confidence): tuning %.1f%% (%d/%d), held-out %.1f%% (%d/%d), all %.1f%%", tt.pct(), tt.ok, tt.n, th.pct(), th.ok, th.n, ta.pct())
	t.Logf("heuristic top-1 accepted (confidence >= MinConfidence): tuning %.1f%% (%d/%d), held-out %.1f%% (%d/%d), all %.1f%%", ht.pct(), ht.ok, ht.n, hh.pct(), hh.ok, hh.n, ha.pct())
	t.Logf("heuristic+LLM top-1: tuning %.1f%%, held-out %.1f%%, all %.1f%% (%d/%d); %d model calls", lt.pct(), lh.pct(), la.pct(), la.ok, la.n, llmCalls)
	// The same cases in the same order: what the model was asked about, by what the heuristic
	// alone had (a real model may overrule a right answer; the oracle never does).
	askedRight, askedWrong := 0, 0
	for i := range withLLM {
		if withLLM[i].tokens.Calls > 0 {
			if heur[i].correct {
				askedRight++
			} else {
				askedWrong++
			}
		}
	}
	t.Logf("cases the model was asked about: %d the heuristic had right, %d it had wrong", askedRight, askedWrong)
	t.Logf("heuristic+LLM misses: tuning %s; held-out %s", llmMisses(withLLM, false), llmMisses(withLLM, true))
	t.Logf("prompt tokens per LLM-assisted resolution: mean %.0f, max %d (n=%d)", meanTok, maxTok, len(promptTokens))
	t.Logf("cache: first run %d model calls, second run %d model calls, second run top-1 %.1f%%", firstCalls, secondCalls, ca.pct())
	t.Logf("heuristic latency on corpus pages: p50 %v p95 %v", pct(durs, 0.5), pct(durs, 0.95))
	if out := os.Getenv("GROUNDING_OUT"); out != "" {
		b, _ := json.MarshalIndent(map[string]any{
			"pages": len(pages), "holdout_pages": countHoldout(pages), "cases": ha.n,
			"heuristic":      map[string]float64{"tuning": ht.pct(), "holdout": hh.pct(), "all": ha.pct()},
			"heuristic_top1": map[string]float64{"tuning": tt.pct(), "holdout": th.pct(), "all": ta.pct()},
			"llm":            map[string]float64{"tuning": lt.pct(), "holdout": lh.pct(), "all": la.pct()},
			"llm_calls":      llmCalls, "prompt_tokens_mean": meanTok, "prompt_tokens_max": maxTok,
			"cache_first_calls": firstCalls, "cache_second_calls": secondCalls, "cache_second_top1": ca.pct(),
			"p50_us": pct(durs, 0.5).Microseconds(), "p95_us": pct(durs, 0.95).Microseconds(),
		}, "", "  ")
		_ = os.WriteFile(out, b, 0o644)
	}

	// Floors, a little below the measured figures of each part of the corpus, so that a
	// regression fails the build. (The target is 90 % for the heuristic alone; see
	// docs/PERFORMANCE.md for where it stands. These floors only catch regressions.) The
	// held-out part has its own, lower floors: a change tuned on the tuning pages must not buy
	// its gain there with a loss on pages nobody tuned for.
	if ht.pct() < 68 || tt.pct() < 75 {
		t.Errorf("tuning pages: heuristic top-1 %.1f%% accepted, %.1f%% any confidence: below the floors (68%%, 75%%)", ht.pct(), tt.pct())
	}
	if lt.pct() < 92 {
		t.Errorf("tuning pages: heuristic+LLM top-1 %.1f%% < 92%%", lt.pct())
	}
	if th.n > 0 && (th.pct() < 57 || lh.pct() < 78) {
		t.Errorf("held-out pages: heuristic top-1 %.1f%%, heuristic+LLM %.1f%%: below the floors (57%%, 78%%)", th.pct(), lh.pct())
	}
	if la.ok < ha.ok {
		t.Errorf("the model made things worse: %d < %d", la.ok, ha.ok)
	}
	if secondCalls != 0 {
		t.Errorf("second run with a warm cache made %d model calls", secondCalls)
	}
	if ca.ok < la.ok-ca.n/100 {
		t.Errorf("cached run top-1 %d/%d, below the uncached %d", ca.ok, ca.n, la.ok)
	}
	if maxTok > 1500 {
		t.Errorf("a prompt took %d tokens > 1500", maxTok)
	}
}

// yesNoQuestionRe opens a question answered yes or no ("is the meeting being recorded", "does
// the plan include taxes"), which the parser's questionRe (what, how, when...) does not read.
var yesNoQuestionRe = regexp.MustCompile(`(?i)^(?:is|are|was|were|does|do|did|can|could|will|has|have|am)\s+\S+`)

// descForm is the form a description takes, as the parser reads it: a question, an instruction
// (a leading verb), an ordinal, a relation (a possessor, an anchor's "of/for", a context), or a
// plain noun phrase.
func descForm(desc string) string {
	p := Parse(desc)
	low := strings.ToLower(strings.TrimSpace(desc))
	switch {
	case questionRe.MatchString(low) || yesNoQuestionRe.MatchString(low) || strings.HasSuffix(low, "?"):
		return "question"
	case p.Ordinal != 0:
		return "ordinal"
	case p.Verb != "" || p.Intent != IntentAny || verbHeads[p.First] && p.First == firstWordOf(low):
		return "instruction"
	case len(p.Possessor) > 0 || len(p.Context) > 0 || strings.Contains(" "+low+" ", " of ") || strings.Contains(" "+low+" ", " for "):
		return "relation"
	}
	return "noun phrase"
}

// missForms counts one side's top-1 misses and cases by descForm. Only the counts: held-out
// cases stay unread.
func missForms(outs []groundingOutcome, holdout bool) string {
	miss, all := map[string]int{}, map[string]int{}
	for _, o := range outs {
		if o.holdout != holdout {
			continue
		}
		f := descForm(o.desc)
		all[f]++
		if !o.top1 {
			miss[f]++
		}
	}
	var b strings.Builder
	for i, f := range []string{"noun phrase", "relation", "ordinal", "instruction", "question"} {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %d/%d", f, miss[f], all[f])
	}
	return b.String()
}

// missKinds counts the top-1 misses of one side of the corpus by what went wrong: another
// element, a tie (ambiguous_target), nothing found. Only the counts: held-out cases stay unread.
// llmMisses says why the engine with the scripted model missed: the model was not asked (the
// heuristic was confident, and wrong), or asked without the expected element among the
// candidates it was shown, or shown it and the engine still answered otherwise.
func llmMisses(outs []groundingOutcome, holdout bool) string {
	var notAsked, notShown, shown int
	for _, o := range outs {
		if o.holdout != holdout || o.correct {
			continue
		}
		switch o.shown {
		case -1:
			notAsked++
		case 0:
			notShown++
		default:
			shown++
		}
	}
	return fmt.Sprintf("not asked %d, asked without it among the candidates %d, shown it %d", notAsked, notShown, shown)
}

func missKinds(outs []groundingOutcome, holdout bool) string {
	kinds := map[string]int{}
	for _, o := range outs {
		if o.holdout != holdout || o.top1 {
			continue
		}
		switch code := errs.Code(o.err); {
		case o.err == nil:
			kinds["wrong element"]++
		default:
			kinds[code]++
		}
	}
	keys := make([]string, 0, len(kinds))
	for k := range kinds {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %d", k, kinds[k])
	}
	return b.String()
}

// summarizeTop1 is summarize counting the right element whatever its confidence.
func summarizeTop1(outs []groundingOutcome) (tally, tally, tally) {
	t1 := make([]groundingOutcome, len(outs))
	for i, o := range outs {
		o.correct = o.top1
		t1[i] = o
	}
	return summarize(t1)
}

func countHoldout(pages []*groundedPage) int {
	n := 0
	for _, p := range pages {
		if p.holdout {
			n++
		}
	}
	return n
}

// runEngine resolves every case with g, telling the oracle which element is expected, and
// returns the outcomes, the model calls made and the prompt tokens of each model call.
func runEngine(t *testing.T, ctx context.Context, pages []*groundedPage, g *Engine, oracle *answerFromExpected, srv *llmtest.Server) ([]groundingOutcome, int, []int) {
	t.Helper()
	before := len(srv.Calls())
	var outs []groundingOutcome
	var toks []int
	for _, gp := range pages {
		for i, c := range gp.file.Cases {
			oracle.mu.Lock()
			oracle.expect, oracle.shown = gp.ok[i], -1
			oracle.mu.Unlock()
			res, err := g.Resolve(ctx, gp.snapOf(i), Query{Description: c.Description, Intent: parseIntent(c.Intent), Match: c.Match, Before: gp.beforeOf(i)})
			oracle.mu.Lock()
			shown := oracle.shown
			oracle.mu.Unlock()
			o := groundingOutcome{page: gp.name, desc: c.Description, holdout: gp.holdout, err: err, by: res.By, tokens: res.Tokens, shown: shown}
			if err == nil {
				o.correct = contains1(gp.ok[i], res.Element.ID) && (res.By != "heuristic" || res.Confidence >= MinConfidence())
			}
			if res.Tokens.Prompt > 0 {
				toks = append(toks, res.Tokens.Prompt)
			}
			outs = append(outs, o)
		}
	}
	return outs, len(srv.Calls()) - before, toks
}

// topScore is the chosen candidate's ranker score and text score, for calibration dumps.
func topScore(s *Snapshot, c groundingCase, res Resolution) (float64, float64) {
	q := Query{Description: c.Description, Intent: parseIntent(c.Intent), Match: c.Match}
	p := Parse(q.Description)
	for _, cand := range rankScored(s, q, &p) {
		if cand.Element.ID == res.Element.ID {
			return cand.Score, cand.text
		}
	}
	return 0, 0
}
