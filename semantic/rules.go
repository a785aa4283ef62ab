package semantic

// Named rules can be switched off in evaluation, to measure what each one earns on the corpus
// (the ablation table in docs/PERFORMANCE.md): a rule that earns nothing on pages it was not
// drawn from is deleted. Production never switches one off.

// rulesOff names the rules switched off; nil in production, set by the corpus tests only.
var rulesOff map[string]bool

// ruleOn reports whether the named rule applies.
func ruleOn(name string) bool { return !rulesOff[name] }
