package semantic

import "strings"

// Reading one field of one item: "the estimated monthly payment for the Civic", "the price per
// kWh for electricity". The field is a figure, and what tells it from the item's other figures
// is often not a label but how the figure is written: a rate puts its unit after the figure
// ("$389/mo", "24.50p per kWh", "$45 a night").

// rateAdjectives are the words that ask for a figure per period ("the monthly payment"), and
// the period.
var rateAdjectives = map[string]string{
	"monthly": "month", "yearly": "year", "annual": "year", "annually": "year", "weekly": "week",
	"hourly": "hour", "daily": "day", "nightly": "night",
}

// rateUnitWords are the ways pages write a rate's unit after "/" or "per", as the unit they
// name ("$389/mo", "$1,140/yr", "$28/hr"); a word not here is its own unit ("per kWh").
var rateUnitWords = map[string]string{
	"mo": "month", "mos": "month", "mth": "month", "month": "month", "months": "month",
	"yr": "year", "yrs": "year", "year": "year", "years": "year", "annum": "year",
	"wk": "week", "week": "week", "weeks": "week",
	"hr": "hour", "h": "hour", "hour": "hour", "hours": "hour",
	"day": "day", "days": "day", "night": "night", "nights": "night", "nt": "night",
}

// periods are the units a rate may take after "a" or "an" ("$45 a night", "£9 an hour"): a
// period, not any noun ("a box" is no rate).
var periods = map[string]bool{"month": true, "year": true, "week": true, "hour": true, "day": true, "night": true}

// descRate returns the unit of the rate a description asks for, or "": "monthly" and "per
// month" ask for a figure per month, "per kWh" for one per kWh. words are the description's
// words, lower case.
func descRate(words []string) string {
	for i, w := range words {
		if u := rateAdjectives[w]; u != "" {
			return u
		}
		if i+1 == len(words) {
			break
		}
		next := words[i+1]
		u := rateUnitWords[next]
		switch {
		case w == "per" && u != "":
			return u
		case w == "per" && hasLetter(next):
			return singular(next)
		case (w == "a" || w == "an" || w == "each" || w == "every") && i > 0 && periods[u]:
			return u
		}
	}
	return ""
}

// figureRate returns the unit of the rate a short text writes after its first figure ("$389/mo"
// -> month, "24.50p per kWh" -> kwh, "$45 a night" -> night), or "" when the figure is no rate.
// text is lower case; a date ("3/14") or a fraction ("1/2") has a digit after the slash, no unit.
func figureRate(text string) string {
	if len(text) > 60 {
		return ""
	}
	d := strings.IndexFunc(text, func(r rune) bool { return r >= '0' && r <= '9' })
	if d < 0 {
		return ""
	}
	rest := text[d:]
	// The figure, then a few letters of its own unit ("24.50p", "120 km") before the rate's.
	i := 0
	for i < len(rest) && (isDigitByte(rest[i]) || rest[i] == '.' || rest[i] == ',') {
		i++
	}
	for i < len(rest) && rest[i] == ' ' {
		i++
	}
	j := i
	for j < len(rest) && isLetterByte(rest[j]) {
		j++
	}
	if j-i > 4 {
		return ""
	}
	if w := rest[i:j]; w == "a" || w == "an" || w == "per" {
		j = i // "$45 a night": the rate's own word, not the figure's unit
	}
	after := strings.TrimLeft(rest[j:], " ")
	var w string
	switch {
	case strings.HasPrefix(after, "/"):
		w = leadingWord(strings.TrimLeft(after[1:], " "))
	case strings.HasPrefix(after, "per "):
		w = leadingWord(after[4:])
	case strings.HasPrefix(after, "a "), strings.HasPrefix(after, "an "):
		_, tail, _ := strings.Cut(after, " ")
		if u := rateUnitWords[leadingWord(tail)]; periods[u] {
			return u
		}
		return ""
	default:
		return ""
	}
	if u := rateUnitWords[w]; u != "" {
		return u
	}
	if len(w) > 1 {
		return singular(w) // "per kWh", "/person"
	}
	return ""
}

// leadingWord is the run of ASCII letters s opens with.
func leadingWord(s string) string {
	i := 0
	for i < len(s) && isLetterByte(s[i]) {
		i++
	}
	return s[:i]
}

// rateBonus is what a figure written per the unit the description asks for gains: "$389/mo"
// is the monthly payment whatever label it lacks.
const rateBonus = 0.15

// atRate reports whether an element's text writes a figure per the unit rate (from descRate;
// "" is none).
func atRate(pe *prepared, rate string) bool {
	if rate == "" {
		return false
	}
	t := pe.norm[textField]
	if t == "" {
		t = pe.norm[0]
	}
	return t != "" && hasDigit(t) && figureRate(t) == rate
}

// rateFit is what an element gains when its text writes a figure per the unit the description
// asks for (rate, from descRate), and the reason.
func rateFit(pe *prepared, rate string) (float64, string) {
	if !atRate(pe, rate) {
		return 0, ""
	}
	return rateBonus, "a figure per " + rate
}

// attrHasAlternative reports whether the element's id, class or test id carries a word pages use
// for w (wordAlternatives): class="pts" says a card's story points as class="points" would.
func attrHasAlternative(pe *prepared, w string) bool {
	alts := alternatives[w]
	if len(alts) == 0 {
		return false
	}
	for _, f := range attrFields {
		for _, t := range pe.toks[f] {
			if alts[t] {
				return true
			}
		}
	}
	return false
}

// plainField reports whether e is a plain text (no control) that says it is the field w only by
// its id, class or test id in a word pages use for w: an item's "8" with class="pts" is its story
// points. A control's class says how it looks ("more" on a row's ⋯ button), not a field.
func plainField(e *Element, pe *prepared, w string) bool {
	return !e.Interactive && !e.Editable && attrHasAlternative(pe, w)
}

// pricedItem reports whether a price (a table's cell) may answer a "how much" question whose
// words name the row it is the price of, not a field: "how much was the April invoice?" is the
// amount in the row of the April invoice, which says "invoice" (the head) only in another cell.
func pricedItem(p *Parsed, pe *prepared) bool {
	return p.Question && p.Kind == "price" && pe.price
}

// quantityBefore returns the quantity just before label l when the value after it, vt, is in
// brackets, or -1: an ingredient line "<span>1 ¾ cups</span> <span>all-purpose flour</span>
// <span>(220 g)</span>" leads with the quantity, and the bracket restates it in other units (a
// conversion). The quantity is a short leaf with a figure, a sibling of the label.
func quantityBefore(s *Snapshot, ps []prepared, l int, vt string) int {
	if len(vt) < 3 || vt[0] != '(' || vt[len(vt)-1] != ')' || !hasDigit(vt) || l == 0 {
		return -1
	}
	q := l - 1
	e, qe := &s.Elements[l], &s.Elements[q]
	if qe.Parent != e.Parent || ps[q].descendants > 0 || qe.Interactive || qe.Editable {
		return -1
	}
	qt := strings.TrimSpace(firstOf(qe.Text, qe.Name))
	if !hasDigit(qt) || len([]rune(qt)) > 24 || strings.HasPrefix(qt, "(") {
		return -1
	}
	return q
}
