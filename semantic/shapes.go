package semantic

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Value shapes: what kind of value an element's text is, so that "the cook time" prefers
// "25 min", "the due date" prefers "May 3" or "Yesterday" and "the percent change" prefers
// "(+2.04%)" even when the words of the description are only on a label beside it. The
// classifier is a hand-written scan (no regular expressions): it runs on every short element of
// every snapshot.

type shape uint16

const (
	shapeTime    shape = 1 << iota // a duration or a clock time: "25 min", "1h 20m", "9:14 AM"
	shapeDate                      // a date or a day: "May 3", "3/14/2025", "Yesterday", "Wednesday"
	shapePercent                   // "+2.04%"
	shapeNumber                    // a bare figure: "912.40", "1,204"
	shapeMeasure                   // a quantity with a unit: "18 mph", "66°", "2.4 km", "5 lb"
	shapeClock                     // a time of day (with shapeTime): "9:14 AM", "07:05", "3pm"
	shapeDotted                    // a version or an address: "3.16.0", "v2.14.3", "198.51.100.7"
	shapeHex                       // a hash or a hex id: "a91f03c2", "9f1c2ab"
	shapeSpan                      // with shapeDate, a span of days: "12–14 March", "Wed 11 Mar – Sun 15 Mar"
)

// kindShapes maps a description's kind to the shapes that satisfy it.
var kindShapes = map[string]shape{
	"time":    shapeTime,
	"date":    shapeDate | shapeTime,
	"percent": shapePercent,
	"measure": shapeMeasure,
	"clock":   shapeClock, // "what time does the flight leave": not how long it takes
}

// kindPhrase names a value kind in an explanation: "a time of day", not "a clock".
func kindPhrase(kind string) string {
	if kind == "clock" {
		return "a time of day"
	}
	return "a " + kind
}

// kindWords map description words to the value kind they ask for.
var kindWords = map[string]string{
	"time": "time", "duration": "time", "runtime": "time", "eta": "time",
	"date": "date", "dates": "date", "when": "date", "deadline": "date", "day": "date",
	"percent": "percent", "percentage": "percent",
	"speed": "measure", "distance": "measure", "weight": "measure", "temperature": "measure", "temp": "measure",
	"height": "measure", "elevation": "measure", "altitude": "measure",
}

// shapeOfWord is the shape that is what a description word names when the page does not say
// the word: a percentage is an open rate or a completion rate.
var shapeOfWord = map[string]shape{stem("rate"): shapePercent, stem("share"): shapePercent,
	stem("version"): shapeDotted, stem("ip"): shapeDotted,
	stem("hash"): shapeHex, stem("sha"): shapeHex, stem("commit"): shapeHex}

var measureUnits = map[string]bool{
	"mph": true, "kph": true, "kmh": true, "km": true, "mi": true, "miles": true, "mile": true, "ft": true,
	"feet": true, "kg": true, "lb": true, "lbs": true, "oz": true, "ml": true, "cm": true, "mm": true, "in": true,
	"kn": true, "knots": true, "kmph": true, "kilometers": true, "kilometres": true, "meters": true, "metres": true,
	// A file's or a disk's size: "184 KB", "12.4 GB" (not "48K", a thousand as often).
	"kb": true, "mb": true, "gb": true, "tb": true, "bytes": true,
}

var timeUnits = map[string]bool{
	"s": true, "sec": true, "secs": true, "second": true, "seconds": true, "m": true, "min": true, "mins": true,
	"minute": true, "minutes": true, "h": true, "hr": true, "hrs": true, "hour": true, "hours": true, "am": true,
	"pm": true, "d": true, "day": true, "days": true, "wk": true, "wks": true, "week": true, "weeks": true,
	"a": true, "p": true, // "9:14 a.m."
}

// durationQualifiers say which days or hours a duration counts, between its number and its
// unit: "3 working days", "5 business days", "10 calendar days".
var durationQualifiers = map[string]bool{"working": true, "business": true, "calendar": true, "school": true,
	"banking": true, "full": true, "clear": true}

// qualifiedUnit is the word after the qualifier that ends at s[e] ("days" in "3 working
// days"), or "" when a space and a word do not follow it.
func qualifiedUnit(s string, e int) string {
	if e >= len(s) || s[e] != ' ' {
		return ""
	}
	k := e + 1
	for k < len(s) && isLetterByte(s[k]) {
		k++
	}
	return s[e+1 : k]
}

var dateWords = map[string]bool{
	"jan": true, "january": true, "feb": true, "february": true, "mar": true, "march": true, "apr": true,
	"april": true, "may": true, "jun": true, "june": true, "jul": true, "july": true, "aug": true, "august": true,
	"sep": true, "sept": true, "september": true, "oct": true, "october": true, "nov": true, "november": true,
	"dec": true, "december": true,
}

var dayWords = map[string]bool{
	"today": true, "yesterday": true, "tomorrow": true, "monday": true, "tuesday": true, "wednesday": true,
	"thursday": true, "friday": true, "saturday": true, "sunday": true, "mon": true, "tue": true, "wed": true,
	"thu": true, "fri": true, "sat": true, "sun": true,
}

// valueShape classifies a normalized (lowercased) text of at most 60 characters.
func valueShape(s string) shape {
	sh := pointShape(s)
	if sh&shapeDate != 0 && daySpan(s) {
		sh |= shapeSpan
	}
	if bareYear(s) {
		sh |= shapeDate // "Built 1998": a year answers "when was it built"
	}
	return sh
}

// bareYear reports whether s is a year alone, 1900 to 2099.
func bareYear(s string) bool {
	return len(s) == 4 && (s[:2] == "19" || s[:2] == "20") && isDigitByte(s[2]) && isDigitByte(s[3])
}

// pointShape is valueShape but for spans of days.
func pointShape(s string) shape {
	if s == "" || len(s) > 60 {
		return 0
	}
	var sh shape
	digits, letters := false, false
	months := false
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case unicode.IsDigit(r):
			digits = true
			j := i
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.' || s[j] == ',') {
				j++
			}
			if dottedRun(s[i:j]) {
				sh |= shapeDotted
			}
			k := j
			for k < len(s) && s[k] == ' ' {
				k++
			}
			switch {
			case k < len(s) && s[k] == '%':
				sh |= shapePercent
			case strings.HasPrefix(s[k:], "°"):
				sh |= shapeMeasure
			case j < len(s) && (s[j] == ':' && j+2 < len(s) && isDigitByte(s[j+1]) && isDigitByte(s[j+2])):
				sh |= shapeTime | shapeClock
			case j < len(s) && s[j] == '/' && j+1 < len(s) && isDigitByte(s[j+1]), isoDate(s[i:]):
				sh |= shapeDate
			case k < len(s) && isLetterByte(s[k]):
				e := k
				for e < len(s) && isLetterByte(s[e]) {
					e++
				}
				if u := s[k:e]; durationQualifiers[u] {
					u = qualifiedUnit(s, e) // "3 working days": the unit after the qualifier
					if timeUnits[u] && u != "am" && u != "pm" && u != "a" && u != "p" {
						sh |= shapeTime
					}
				} else if timeUnits[u] {
					sh |= shapeTime
					if u == "am" || u == "pm" || u == "a" || u == "p" {
						sh |= shapeClock
					}
				} else if measureUnits[s[k:e]] {
					sh |= shapeMeasure
				}
			}
			i = j
			continue
		case unicode.IsLetter(r):
			letters = true
			e := i
			for e < len(s) && isLetterByte(s[e]) {
				e++
			}
			if e == i { // a non-ASCII letter
				i += n
				continue
			}
			w := s[i:e]
			if dateWords[w] {
				months = true
			} else if dayWords[w] {
				sh |= shapeDate
			}
			i = e
			continue
		}
		i += n
	}
	if months && digits {
		sh |= shapeDate
	}
	if digits && hasHexWord(s) {
		sh |= shapeHex
	}
	if digits && !letters && sh == 0 {
		sh |= shapeNumber
	}
	return sh
}

// isoDate reports whether s opens with a date written the ISO way, year first ("2025-05-07",
// "2025-05-07T09:30"): episode lists, logs and exports write their dates so.
func isoDate(s string) bool {
	if len(s) < 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	for _, i := range []int{0, 1, 2, 3, 5, 6, 8, 9} {
		if !isDigitByte(s[i]) {
			return false
		}
	}
	return len(s) == 10 || !isDigitByte(s[10])
}

// dottedRun reports whether a run of digits, dots and commas is a version or an IPv4 address
// ("3.16.0", "198.51.100.7"): two dots or more, no comma, and not thousands grouped by dots
// ("1.234.567", whose groups after the first have three digits each; four groups are an
// address all the same).
func dottedRun(r string) bool {
	if strings.Count(r, ".") < 2 || strings.ContainsRune(r, ',') {
		return false
	}
	groups := strings.Split(r, ".")
	if len(groups) >= 4 {
		return true
	}
	for _, g := range groups[1:] {
		if len(g) != 3 {
			return true
		}
	}
	return false
}

// hasHexWord reports whether s has a word of 7 to 40 hex digits with both a digit and a letter:
// a commit hash ("a91f03c2") or a hex id, not a number or a word.
func hasHexWord(s string) bool {
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !isDigitByte(byte(r)) && !isLetterByte(byte(r)) || r > 127 }) {
		if len(w) < 7 || len(w) > 40 {
			continue
		}
		digit, letter, hex := false, false, true
		for k := 0; k < len(w) && hex; k++ {
			switch b := w[k]; {
			case isDigitByte(b):
				digit = true
			case b >= 'a' && b <= 'f':
				letter = true
			default:
				hex = false
			}
		}
		if hex && digit && letter {
			return true
		}
	}
	return false
}

func isDigitByte(b byte) bool  { return b >= '0' && b <= '9' }
func isLetterByte(b byte) bool { return b >= 'a' && b <= 'z' }

// kindOf returns the value kind the description's words ask for, "" for none.
func kindOf(words []string) string {
	for i, w := range words {
		if k, ok := kindWords[strings.ToLower(w)]; ok {
			if k == "time" && i > 0 && clockEvents[strings.ToLower(words[i-1])] {
				return "clock" // "the departure time" is a time of day, not a duration
			}
			return k
		}
	}
	return ""
}

// clockEvents name moments whose time is a time of day: "the departure time", "pickup time".
var clockEvents = map[string]bool{"departure": true, "arrival": true, "start": true, "end": true,
	"pickup": true, "boarding": true, "opening": true, "closing": true, "dropoff": true}

// dropMagnitudes returns v without the capital K, M or B right after a figure, a dashboard's
// thousands, millions and billions ("1.42M / 2M" -> "1.42 / 2"): lowercased, "1.42m" would read
// as minutes, as "2m ago" does. v itself when it has none.
func dropMagnitudes(v string) string {
	mag := func(i int) bool {
		return (v[i] == 'K' || v[i] == 'M' || v[i] == 'B') && i > 0 && isDigitByte(v[i-1]) && (i+1 == len(v) || !isLetterByte(v[i+1]|0x20))
	}
	i := 0
	for i < len(v) && !mag(i) {
		i++
	}
	if i == len(v) {
		return v
	}
	b := []byte(v[:i])
	for ; i < len(v); i++ {
		if !mag(i) {
			b = append(b, v[i])
		}
	}
	return string(b)
}
