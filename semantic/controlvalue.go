package semantic

// A control that holds a value answers a question about what it is set to: "who is the author"
// is the Author select's chosen "Tomás Aguirre", though the select's name only repeats the
// question. Its name is what the asker knows, its value what they ask.

// holdsAnswer reports whether element pe shows a value of its own (a select's chosen option, a
// read-only field's value) that says something the question does not: it answers the question
// its name repeats.
func holdsAnswer(pe *prepared, qt *queryText) bool {
	v := pe.toks[valueField]
	return len(v) > 0 && !allIn(v, qt.all)
}
