package semantic

import (
	"regexp"
	"strings"
)

// Money as shops print it: a currency sign or code before or after the amount ("$1,299.00",
// "12,50 €", "1 299 kr", "CHF 12.50", "13,99 zł"), thousands grouped by commas, dots or spaces.
// One pattern serves "is this a price" and "how much is it", so the two never disagree.
const (
	currencySign = `[$€£¥₹₩₽₺₪₫฿₱₴₦]`
	currencyCode = `(?:USD|EUR|GBP|CHF|JPY|CNY|CAD|AUD|NZD|SEK|NOK|DKK|PLN|CZK|HUF|INR|BRL|MXN|ZAR|SGD|HKD|zł|kr|Kč|Ft|lei|R\$)`
	amount       = `\d{1,3}(?:[,.  ]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?`
)

var moneyRe = regexp.MustCompile(
	currencySign + `\s?(` + amount + `)` + // $12, € 9,50
		`|(?:^|[^\pL])` + currencyCode + `\s?(` + amount + `)` + // CHF 12.50
		`|(` + amount + `)\s?(?:` + currencySign + `|` + currencyCode + `(?:$|[^\pL]))`) // 12,50 €, 299 kr

// isPrice reports whether s holds an amount of money. Every match has a digit: the cheap test
// first.
func isPrice(s string) bool {
	return strings.ContainsAny(s, "0123456789") && moneyRe.MatchString(s)
}

// moneyIn reads the first amount of money in s.
func moneyIn(s string) (float64, bool) {
	m := moneyRe.FindStringSubmatch(s)
	if m == nil {
		return 0, false
	}
	return parseAmount(m[1] + m[2] + m[3])
}
