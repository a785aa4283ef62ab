package semantic

import "testing"

func TestMoney(t *testing.T) {
	for _, c := range []struct {
		text string
		want float64 // 0: not money
	}{
		{"$1,299.00", 1299},
		{"12,50 €", 12.5},
		{"91,30 € inkl. MwSt.", 91.3},
		{"€1.049,50", 1049.5},
		{"1 299 kr", 1299},
		{"1 299 kr/mån", 1299},
		{"13,99 zł", 13.99},
		{"CHF 12.50", 12.5},
		{"20 USD", 20},
		{"Total: 20 EUR/month", 20},
		{"£8", 8},
		{"From $899 / night", 899},
		{"¥1,200", 1200},
		{"R$ 49,90", 49.9},
		{"Sold out", 0},
		{"Order #12345", 0},
		{"12 items", 0},
		{"Ukraine 2024", 0},
		{"5 krona", 0},
		{"3.5 km", 0},
	} {
		got, ok := moneyIn(c.text)
		if ok != (c.want != 0) || got != c.want || isPrice(c.text) != ok {
			t.Errorf("moneyIn(%q) = %v, %v, isPrice %v; want %v", c.text, got, ok, isPrice(c.text), c.want)
		}
	}
}
