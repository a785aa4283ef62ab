package semantic

import "testing"

// TestResolve_FieldOverItsLabel: a description that names a field by its label, with no verb
// or one that reads, means the field (to act on, or to read its value), not the <label> that
// only points to it and says the same words.
func TestResolve_FieldOverItsLabel(t *testing.T) {
	runResolveCases(t, "spell-uk-council.html", []resolveCase{
		{"registration number", IntentAny, "", "reg"},
		{"registration number", IntentRead, "", "reg"},
		{"the vehicle colour", IntentAny, "", "colour"},
		{"passport number", IntentAny, "", "passport"},
	})
}
