package semantic

import "strings"

// Spans of days. "When is the conference" and "the dates of the trip" ask when something runs
// from and to, which a page says as a span ("12–14 March 2026", "Wed 11 Mar – Sun 15 Mar"),
// longer than a lone date elsewhere ("Call for papers closes 16 January") that valueBonus would
// otherwise favour for its shortness; "what day do I fly out" and "the start date" ask for one
// day, which a span only holds.

// spanSeps are what joins the two ends of a span, normalized, the most telling first: "12 –
// 14", "12—14", "mar 12 to mar 14", "until", "through". (A bare hyphen is read apart: see
// hyphenSpan.)
var spanSeps = []string{"–", "—", " - ", " to ", " until ", " till ", " through ", " thru "}

// daySpan reports whether s, a normalized text with a date, is a span of days: two ends that are
// each a date ("mar 12 – mar 14", "3/12/2026 - 3/14/2026"), or a day number and a date ("12–14
// march 2026", "jun 1 – 7"). A day's hours ("tue 9:00 – 17:00", "jun 13, 2 – 3 pm") are no
// span of days, nor is an ISO date ("2026-03-12").
func daySpan(s string) bool {
	at, end := -1, -1
	for _, sep := range spanSeps {
		if i := strings.Index(s, sep); i > 0 && (at < 0 || i < at) {
			at, end = i, i+len(sep)
		}
	}
	if at < 0 {
		if at = hyphenSpan(s); at < 0 {
			return false
		}
		end = at + 1
	}
	left, right := strings.TrimSpace(s[:at]), strings.TrimSpace(s[end:])
	ls, rs := pointShape(left), pointShape(right)
	switch {
	case ls&shapeDate != 0 && rs&shapeDate != 0:
		return true
	case ls&shapeDate != 0:
		return rs&shapeTime == 0 && dayNumber(right) // "jun 1 – 7"
	case rs&shapeDate != 0:
		return ls&shapeTime == 0 && dayNumber(lastField(left)) // "12–14 march 2026"
	}
	return false
}

// hyphenSpan returns where a bare hyphen joins two day numbers ("12-14 march"), or -1: one or
// two digits on each side, and no more hyphens after (a date written "03-12-2026" is one day).
func hyphenSpan(s string) int {
	i := strings.IndexByte(s, '-')
	if i < 1 || i+1 >= len(s) || strings.IndexByte(s[i+1:], '-') >= 0 {
		return -1
	}
	l := i
	for l > 0 && isDigitByte(s[l-1]) {
		l--
	}
	r := i + 1
	for r < len(s) && isDigitByte(s[r]) {
		r++
	}
	if n, m := i-l, r-i-1; n < 1 || n > 2 || m < 1 || m > 2 || l > 0 && isLetterByte(s[l-1]) {
		return -1
	}
	return i
}

// dayNumber reports whether s opens with a day of the month and says nothing else of time: "14",
// "14th", "7,".
func dayNumber(s string) bool {
	n, i := 0, 0
	for i < len(s) && isDigitByte(s[i]) && i < 3 {
		n = 10*n + int(s[i]-'0')
		i++
	}
	if i == 0 || i > 2 || n < 1 || n > 31 {
		return false
	}
	rest := strings.TrimLeft(s[i:], "stndrh")
	return rest == "" || rest[0] == ' ' || rest[0] == ',' || rest[0] == '.'
}

// lastField is the last space-separated word of s.
func lastField(s string) string {
	return s[strings.LastIndexByte(s, ' ')+1:]
}

// What a description asks of a span of days (queryText.span).
const (
	oneDayAsked    = -1 // "what day do I fly out", "the start date", "when is it due"
	spanMaybeAsked = 1  // "when is the conference": a span says when as well as a day does
	spanAsked      = 2  // "the dates of the trip", "when does it run from and to"
)

// oneDayWords ask for one day of what may run for several. ("Open" is not one: "when is the pool
// open" asks for its days, a span, and "when does the exhibition open" is a when-question like
// any other; "when it opens" asks for the day.)
var oneDayWords = map[string]bool{
	"day": true, "start": true, "starts": true, "begin": true, "begins": true, "end": true, "ends": true,
	"due": true, "deadline": true, "expire": true, "expires": true, "opens": true,
	"close": true, "closes": true, "first": true, "last": true, "birthday": true,
}

// spanWords ask for a span: several dates, a period, what something runs over.
var spanWords = map[string]bool{"dates": true, "period": true, "days": true, "run": true, "runs": true}

// spanOf says what a date description asks of a span of days (oneDayAsked, spanMaybeAsked,
// spanAsked), 0 for a description of no date or of neither.
func spanOf(p *Parsed) int {
	if p.Kind != "date" {
		return 0
	}
	ws := rawWords(firstOf(p.Said, p.Whole))
	from, to, when := false, false, false
	for _, w := range ws {
		switch {
		case oneDayWords[w]:
			return oneDayAsked
		case w == "from":
			from = true
		case w == "to" || w == "until" || w == "till":
			to = true
		case w == "when":
			when = true
		}
	}
	for _, w := range ws {
		if spanWords[w] {
			return spanAsked
		}
	}
	switch {
	case from && to:
		return spanAsked
	case when:
		return spanMaybeAsked
	}
	return 0
}

// spanBonus is what a date's bonus b (valueBonus) becomes for what the description asks of a
// span (qt.span): a span of days, however long its text, is the value itself, and more so when
// a span is asked for; when one day is asked for, a span only holds it.
func spanBonus(pe *prepared, span int, b, short float64) float64 {
	if pe.shape&shapeSpan == 0 || pe.descendants > 0 {
		return b // (a block that holds a span says other things too: "Pay period Jun 1 – Jun 30 · Pay date <b>Jul 3</b>")
	}
	b = max(b, short)
	if span == oneDayAsked {
		return b - 0.05 // but it still says the day, when no date says it alone
	}
	return b + 0.05*float64(span)
}
