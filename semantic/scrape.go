package semantic

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/PuerkitoBio/goquery"
	"github.com/go-rod/rod"
	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/llm"
)

// Shape is what a scrape description asks for.
type Shape int

// Shapes of scraped data.
const (
	// ShapeValue is one string: "the order total".
	ShapeValue Shape = iota
	// ShapeList is a list of strings: "all product names".
	ShapeList
	// ShapeTable is a list of objects keyed by column header: "the pricing table".
	ShapeTable
)

func (k Shape) String() string {
	switch k {
	case ShapeList:
		return "list"
	case ShapeTable:
		return "table"
	}
	return "value"
}

var (
	listRe  = regexp.MustCompile(`(?i)^\s*(?:get |scrape |extract |read |grab |list )?(?:all|every|each|the list of|a list of|list of|the names of all)\b\s*(?:the\s+|of the\s+)?`)
	tableRe = regexp.MustCompile(`(?i)\b(?:table|grid|spreadsheet)\b`)
)

// ShapeOf tells a description's shape: a table ("the pricing table"), a list ("all product
// names", "every price", "the list of ingredients") or a single value.
func ShapeOf(description string) Shape {
	switch {
	case tableRe.MatchString(description):
		return ShapeTable
	case listRe.MatchString(description):
		return ShapeList
	}
	return ShapeValue
}

// List returns the texts of the repeated elements a list description names ("all product
// names" -> the product titles), in document order, from the snapshot alone: the most item-like
// group of repeated elements for the description's noun and context (see bestGroup).
func List(s *Snapshot, description string) ([]string, error) {
	rest := listRe.ReplaceAllString(description, "")
	p := Parse(rest)
	words := append(append([]string{}, p.Words...), p.RoleWords...)
	if len(words) == 0 {
		return nil, errs.E(errs.TargetNotFound, "%q does not say what to list", description)
	}
	one := singular(words[len(words)-1])
	noun := stem(one)
	var ctxWords []string
	for _, w := range append(append([]string{}, words[:len(words)-1]...), p.Context...) {
		ctxWords = append(ctxWords, tokens(w)...)
	}
	wantPrice := p.Kind == "price" || priceRoleWords[one] // "all prices": the plural is no role word
	g, _ := bestGroup(s, noun, ctxWords, IntentRead, 2, wantPrice, false)
	if g == nil {
		return nil, errs.E(errs.TargetNotFound, "no repeated elements on %s fit %q", siteOf(s.URL), description)
	}
	out := make([]string, 0, len(g))
	for _, i := range g {
		e := &s.Elements[i]
		out = append(out, strings.TrimSpace(firstOf(e.Text, e.Name, e.Value)))
	}
	return out, nil
}

// tableJS returns the outer HTML of the table (or ARIA table or grid) around an element.
const tableJS = `function () {
	const t = this.closest('table,[role=table],[role=grid],[role=treegrid]');
	return t ? t.outerHTML : '';
}`

// Table finds the table a description names ("the pricing table", "the recent transactions
// table") and returns its rows as objects keyed by column header. The table is the one whose
// label (caption, aria-label) or heading best matches the description; its HTML is read from
// the live page and parsed with goquery.
func Table(ctx context.Context, page *rod.Page, s *Snapshot, description string) ([]map[string]string, error) {
	desc := tableRe.ReplaceAllString(description, " ")
	p := Parse(desc)
	var qtoks []string
	for _, t := range append(append(append([]string{}, p.Quoted...), p.Words...), p.Context...) {
		qtoks = append(qtoks, tokens(normalize(t))...)
	}
	ps := prepare(s)
	best, bestScore := -1, -1.0
	for i := range s.Elements {
		e := &s.Elements[i]
		if !strings.Contains(e.Context, "table") && e.Role != "grid" && e.Role != "table" && e.Role != "gridcell" && e.Role != "columnheader" {
			continue
		}
		sc := overlap(qtoks, ps[i].toks[ctxField])
		if e.Role == "grid" || e.Role == "table" {
			sc += overlap(qtoks, ps[i].toks[0]) + 0.01
		}
		if e.Visible {
			sc += 0.001
		}
		if sc > bestScore {
			best, bestScore = i, sc
		}
	}
	if best < 0 || (len(qtoks) > 0 && bestScore < 0.01) {
		return nil, errs.E(errs.TargetNotFound, "no table on %s matches %q", siteOf(s.URL), description)
	}
	el, err := s.Handle(ctx, page, best)
	if err != nil {
		return nil, err
	}
	res, err := el.Eval(tableJS)
	if err != nil {
		return nil, fmt.Errorf("read table: %w", err)
	}
	rows, err := TableFromHTML(res.Value.Str())
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, errs.E(errs.TargetNotFound, "the table for %q has no rows", description)
	}
	return rows, nil
}

// TableFromHTML parses an HTML table (or an ARIA table/grid of role=row elements) into rows
// keyed by column header: the thead's (or first row's) header cells; a row whose cells are all
// headers is a header row, not data. Columns without a header are named "Column N".
func TableFromHTML(html string) ([]map[string]string, error) {
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(html))
	if err != nil {
		return nil, fmt.Errorf("parse table: %w", err)
	}
	rowSel := "tr"
	cellSel := "th,td"
	if doc.Find("tr").Length() == 0 {
		rowSel, cellSel = "[role=row]", "[role=columnheader],[role=rowheader],[role=cell],[role=gridcell]"
	}
	var header []string
	var out []map[string]string
	doc.Find(rowSel).Each(func(_ int, row *goquery.Selection) {
		cells := row.Find(cellSel)
		var texts []string
		allHead := true
		cells.Each(func(_ int, c *goquery.Selection) {
			texts = append(texts, strings.Join(strings.Fields(c.Text()), " "))
			if !c.Is("th,[role=columnheader]") {
				allHead = false
			}
		})
		if len(texts) == 0 {
			return
		}
		inHead := row.ParentsFiltered("thead").Length() > 0
		if header == nil && (inHead || allHead) {
			header = texts
			return
		}
		if header == nil {
			header = make([]string, len(texts))
		}
		obj := map[string]string{}
		for i, t := range texts {
			k := ""
			if i < len(header) {
				k = header[i]
			}
			if k == "" {
				k = fmt.Sprintf("Column %d", i+1)
			}
			obj[k] = t
		}
		out = append(out, obj)
	})
	return out, nil
}

// extractSystem is the model's instruction for scraping what the heuristics could not.
const extractSystem = `You extract data from a web page's visible text for a user's description.
Reply with JSON only: {"value": ...} where the value is a string for a single value, an array of strings for a list, or an array of objects keyed by column name for a table; {"value": null} when the page does not contain it.`

// Extract asks the model for what description names, given the page's visible text in document
// order (capped to about 1,200 tokens). It is the fallback for what List and Table cannot do.
func (g *Engine) Extract(ctx context.Context, s *Snapshot, description string, shape Shape) (any, Tokens, error) {
	if g.LLM == nil {
		return nil, Tokens{}, llm.NotConfigured()
	}
	var b strings.Builder
	seen := map[string]bool{}
	for i := range s.Elements {
		e := &s.Elements[i]
		t := strings.TrimSpace(firstOf(e.Name, e.Text))
		if !e.Visible || t == "" || seen[t] || s.Elements[i].Parent >= 0 && strings.Contains(s.Elements[e.Parent].Text, t) && len(s.Elements[e.Parent].Text) < 300 {
			continue
		}
		seen[t] = true
		line := clip(t, 120) + "\n"
		if b.Len()+len(line) > 4800 {
			break
		}
		b.WriteString(line)
	}
	user := fmt.Sprintf("Page: %s\nWanted (%s): %s\nPage text:\n%s", clip(s.Title, 60), shape, clip(description, 200), b.String())
	ctx, cancel := context.WithTimeout(ctx, g.llmTimeout())
	defer cancel()
	zero := float32(0)
	rep, err := g.LLM.Chat(ctx, llm.Request{System: extractSystem, Messages: []llm.Message{{Role: "user", Content: user}}, JSON: true, MaxTokens: 800, Temperature: &zero})
	tok := Tokens{Prompt: rep.PromptTokens, Completion: rep.CompletionTokens, Calls: rep.Attempts}
	if err != nil {
		return nil, tok, err
	}
	t := strings.TrimSpace(rep.Text)
	t = strings.TrimPrefix(t, "```json")
	t = strings.TrimSuffix(strings.TrimPrefix(t, "```"), "```")
	var out struct {
		Value any `json:"value"`
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(t)), &out); err != nil {
		return nil, tok, errs.E(llm.CodeFailed, "the model's answer is not valid JSON: %q", clip(rep.Text, 80))
	}
	if out.Value == nil {
		return nil, tok, errs.E(errs.TargetNotFound, "the model found no %q on the page", description)
	}
	return out.Value, tok, nil
}
