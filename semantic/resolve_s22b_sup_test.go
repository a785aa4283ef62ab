package semantic

import "testing"

// TestResolve_SizeSuperlatives: "the biggest", "the smallest" compare the choices by what they
// measure: a unit's dimensions by its volume, a garment by its letter size.
func TestResolve_SizeSuperlatives(t *testing.T) {
	runResolveCases(t, "s22b-sup-storage.html", []resolveCase{
		{"choose the biggest unit", IntentClick, "", "unit-l"},
		{"pick the smallest unit size", IntentClick, "", "unit-s"},
		{"the largest T-shirt", IntentClick, "", "tee-xl"},
	})
}

// TestResolve_Altogether: "altogether" asks for the sum of the parts, the figure labelled Total.
func TestResolve_Altogether(t *testing.T) {
	runResolveCases(t, "s22b-sup-storage.html", []resolveCase{
		{"how long does the move take altogether?", IntentRead, "", "plan-total"},
	})
}
