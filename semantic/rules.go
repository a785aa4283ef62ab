package semantic

// The resolver's named parts, in one place. A deciding step ends a resolution with its own
// answer (an ordinal counted over look-alikes, a tie broken by the description's words...): the
// calibration reads which step decided (a feature each; "ranked", the plain ranking, is the
// baseline), and the ablation switches each off. A scoring rule adjusts the candidates' scores
// before any step decides. Named rules can be switched off in evaluation, to measure what each
// earns on the corpus (the ablation table in docs/PERFORMANCE.md): a rule that earns nothing on
// pages it was not drawn from is deleted. Production never switches one off.

// decidingSteps are the steps that decide a resolution; "ordinal" (the Nth match in document
// order) is the one without a switch, as an ordinal said must be counted somehow.
var decidingSteps = []string{"page_step", "item_ordinal", "time_grid", "month_step", "item_field",
	"superlative", "neighbour", "ordinal", "near_tie_break", "content_over_chrome", "tie_break"}

// scoringRules are the rules that adjust candidates' scores, and the typo reading.
var scoringRules = []string{"typos", "value_words_name_a_field", "words_in_context", "color_said", "initial_numbers",
	"relate", "look", "fresh_prior"}

// switchedRules are every rule with a switch: the deciding steps but "ordinal", and the
// scoring rules.
func switchedRules() []string {
	var out []string
	for _, s := range decidingSteps {
		if s != "ordinal" {
			out = append(out, s)
		}
	}
	return append(out, scoringRules...)
}

// rulesOff names the rules switched off; nil in production, set by the corpus tests only.
var rulesOff map[string]bool

// ruleOn reports whether the named rule applies.
func ruleOn(name string) bool { return !rulesOff[name] }
