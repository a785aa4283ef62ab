package semantic

import "testing"

// TestResolve_NegatedAnswers: a description that denies what a yes/no question asks answers it
// by the question's No control; one that says it as asked, by its Yes.
func TestResolve_NegatedAnswers(t *testing.T) {
	runResolveCases(t, "answers.html", []resolveCase{
		{"No, the bin was not left at the kerb", IntentClick, "", "kerb-no"},
		{"the bin is not damaged", IntentClick, "", "dmg-no"},
		{"the bin isn't damaged", IntentClick, "", "dmg-no"},
		{"this page didn't answer my question", IntentClick, "", "fb-no"},
		{"the bin is damaged", IntentClick, "", "dmg-yes"},
		{"this page answered my question", IntentClick, "", "fb-yes"},
	})
}

// TestResolve_WordAlternatives_Act: words a page says otherwise: keeping a thing from happening
// is disabling it, zero of a thing is "No" thing, saving choices is
// confirming them.
func TestResolve_WordAlternatives_Act(t *testing.T) {
	runResolveCases(t, "support.html", []resolveCase{
		{"prevent downloading files", IntentClick, "", "sw-dl"},
		{"choose the zero deductible plan", IntentClick, "", "plan-max"},
		{"save my privacy choices", IntentClick, "", "p-confirm"},
	})
}

// TestResolve_ParticipleClause: a participle after the noun ("the order marked as express")
// says which one; the noun is what is acted on, not the verb of a "Mark shipped" button.
func TestResolve_ParticipleClause(t *testing.T) {
	for desc, want := range map[string]string{"open the order marked as express": "order", "the file shared by Ana": "file"} {
		if h := Parse(desc).Head; h != want {
			t.Errorf("Parse(%q).Head = %q, want %q", desc, h, want)
		}
	}
	runResolveCases(t, "orders.html", []resolveCase{
		{"open the order marked as express", IntentClick, "", "o-5522"},
	})
}

// TestResolve_LongQuestionLabels: a question names the control after it however long it is:
// the answer box of a quiz question that takes two sentences to ask.
func TestResolve_LongQuestionLabels(t *testing.T) {
	runResolveCases(t, "quiz.html", []resolveCase{
		{"type the temperature the water boils at", IntentType, "", "q1-ans"},
		{"enter the elements of table salt", IntentType, "", "q2-ans"},
	})
}

// TestResolve_ChoiceNotJump: a link that scrolls to a part of the page does not choose: "pick
// argon for question 3" is the question's answer select, not the "3" that jumps to it.
func TestResolve_ChoiceNotJump(t *testing.T) {
	runResolveCases(t, "quiz.html", []resolveCase{
		{"pick argon for question 3", IntentClick, "", "q3-sel"},
	})
}

// TestResolve_ToggleOfAThing: "turn off the porch light" is the light's switch, not the
// Options button beside its name: a button that says neither the thing nor on, off or power
// is no toggle of it.
func TestResolve_ToggleOfAThing(t *testing.T) {
	runResolveCases(t, "devices.html", []resolveCase{
		{"turn off the porch light", IntentClick, "", "d1-sw"},
		{"turn on the attic fan", IntentClick, "", "d2-sw"},
	})
}

// TestResolve_HandIn: "hand in" and "turn in" are submitting, not an "in ..." phrase of place.
func TestResolve_HandIn(t *testing.T) {
	runResolveCases(t, "quiz.html", []resolveCase{
		{"hand in the check-in", IntentClick, "", "submit"},
		{"turn in my answers", IntentClick, "", "submit"},
	})
}

// TestResolve_ChangeIsEdit: changing a thing is editing it: "change my dates" is the block's
// Edit button, not one of the dates it shows.
func TestResolve_ChangeIsEdit(t *testing.T) {
	runResolveCases(t, "trip.html", []resolveCase{
		{"change my dates", IntentClick, "", "edit-trip"},
	})
}

// TestResolve_DropOffIsReturn: where a hired van is dropped off is its return.
func TestResolve_DropOffIsReturn(t *testing.T) {
	runResolveCases(t, "hire.html", []resolveCase{
		{"change where I drop the van off", IntentClick, "", "leg2-edit"},
	})
}
