package semantic

import "strings"

// A person's name is two to four capitalized words (personName), and so are a team's, a
// course's and a product tier's: "Human Resources", "Applied Regression", "Premium Support".
// Without a list of given names, the shape tells them apart by the words: a name whose every
// word is a common noun or adjective that pages use for teams, offices, courses and tiers is
// not a person's. One such word is not enough ("Dana Hill", "Sam Young").

// titleWords are common words of the names of teams, offices, courses and plans.
var titleWords = map[string]bool{
	"human": true, "resources": true, "support": true, "premium": true, "customer": true, "customers": true,
	"service": true, "services": true, "team": true, "department": true, "office": true, "desk": true,
	"help": true, "center": true, "centre": true, "sales": true, "billing": true, "accounts": true,
	"account": true, "operations": true, "engineering": true, "marketing": true, "finance": true,
	"legal": true, "security": true, "admin": true, "administration": true, "management": true,
	"payroll": true, "it": true, "applied": true, "advanced": true, "introduction": true, "intro": true,
	"general": true, "basic": true, "standard": true, "business": true, "enterprise": true, "pro": true,
	"plus": true, "free": true, "family": true, "studies": true, "science": true, "history": true,
	"statistics": true, "regression": true, "analysis": true, "design": true, "data": true,
	"research": true, "training": true, "safety": true, "quality": true, "product": true,
	"technical": true, "trust": true, "partner": true, "partners": true, "success": true, "care": true,
	"group": true, "committee": true, "board": true, "council": true, "unit": true, "division": true,
}

// allTitleWords reports whether every word of a capitalized name is a titleWords word (or a
// word the parser knows as a role or figure noun): a team's or a course's name, not a
// person's.
func allTitleWords(f []string) bool {
	for _, w := range f {
		w = strings.ToLower(strings.Trim(w, ",.'’"))
		if !titleWords[w] && roleWords[w] == nil && !figureWords[w] && !itemWords[w] {
			return false
		}
	}
	return true
}
