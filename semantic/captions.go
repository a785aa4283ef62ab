package semantic

import "strings"

// A card's fields that say who are captioned: "Attendant: Marek Kowalski", "Driver: Sam Patel"
// (the caption often visually hidden, for a screen reader), while a room type or a van model
// that reads as a name ("Queen Double", "Mercedes Sprinter") is not. Of a card's fields that
// fit a who-question, the captioned one is the person.

// ledAnswer is, of an item's several fields that fit a who-question, the one a label leads
// ("Attendant: Marek Kowalski" beside a room type "Queen Double" that reads as a name too), or
// -1 when none or several are led (nLed). A person's name on a card is captioned, a room's or
// a product's name is not.
func ledAnswer(p *Parsed, led, nLed int) int {
	if !p.Who || nLed != 1 {
		return -1
	}
	return led
}

// captioned reports whether a label leads element d: its lead in the running text ("Attendant:
// Marek Kowalski" in one line), or a caption just before it that ends in a colon.
func captioned(s *Snapshot, ps []prepared, d int) bool {
	if ps[d].lead != "" {
		return true
	}
	if d == 0 || ps[d-1].descendants > 0 {
		return false
	}
	t := strings.TrimSpace(firstOf(s.Elements[d-1].Text, s.Elements[d-1].Name))
	return len(t) > 1 && strings.HasSuffix(t, ":")
}
