package semantic

import (
	"strings"
	"testing"
)

// TestCalibration_MonotoneInTheMargin: with everything else alike, a wider lead over the
// runner-up never lowers the confidence, whatever the step and the intent.
func TestCalibration_MonotoneInTheMargin(t *testing.T) {
	e := &Element{Role: "button", Name: "Save", Interactive: true, Enabled: true}
	p := Parse("the save button")
	for _, step := range append([]string{"ranked"}, decidingSteps...) {
		for _, in := range []Intent{IntentAny, IntentClick, IntentType, IntentRead} {
			last := -1.0
			for second := 1.4; second >= -0.2; second -= 0.05 {
				sg := signal{step: step, stepConf: 0.6, top: 1.2, second: second, eligible: 5}
				c := calibration.probability(featureVector(e, sg, 0.2, false, in, &p, "the save button", answerFacts{}))
				if c < last-1e-12 {
					t.Fatalf("step %s intent %v: confidence fell from %.4f to %.4f as the runner-up fell to %.2f", step, in, last, c, second)
				}
				last = c
			}
		}
	}
}

// TestLoadCalibration_BadFilesFailLoudly: a file out of step with the code is refused with a
// message that says what is wrong, never read as zeros.
func TestLoadCalibration_BadFilesFailLoudly(t *testing.T) {
	good := `{"v":1,"accept":0.9,"weights":{` + weightsJSON(calibrationFeatures) + `}}`
	if _, err := loadCalibration([]byte(good)); err != nil {
		t.Fatalf("a complete file: %v", err)
	}
	cases := []struct{ name, raw, want string }{
		{"not JSON", `{"v":1,`, "calibration:"},
		{"another version", `{"v":2,"accept":0.9,"weights":{}}`, "format v2"},
		{"no threshold", `{"v":1,"weights":{` + weightsJSON(calibrationFeatures) + `}}`, "accept"},
		{"a feature missing", `{"v":1,"accept":0.9,"weights":{` + weightsJSON(calibrationFeatures[1:]) + `}}`, `no weight for feature "bias"`},
		{"an unknown feature", `{"v":1,"accept":0.9,"weights":{` + weightsJSON(append([]string{"colour_of_sky"}, calibrationFeatures...)) + `}}`, `unknown feature "colour_of_sky"`},
	}
	for _, c := range cases {
		if _, err := loadCalibration([]byte(c.raw)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
}

func weightsJSON(names []string) string {
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = `"` + n + `":0.1`
	}
	return strings.Join(parts, ",")
}
