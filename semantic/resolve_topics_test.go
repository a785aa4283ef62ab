package semantic

import "testing"

// TestResolve_AboutTopic: "the X about Y" names an X by what its text covers (Y), not by the
// word "about" (the About link) nor by X alone (the Articles filter).
func TestResolve_AboutTopic(t *testing.T) {
	runResolveCases(t, "about-help.html", []resolveCase{
		{"the chapter about contractors", IntentClick, "", "ch3"},
		{"the article about missing columns", IntentClick, "", "r3"},
	})
}

// TestResolve_ContentUnderCaption: the answer, the sentence, the generated key are the text a
// caption introduces: the question's answer under it, the sentence under "Rewrite this
// sentence", the key under "Generate API key".
func TestResolve_ContentUnderCaption(t *testing.T) {
	runResolveCases(t, "about-help.html", []resolveCase{
		{"the answer about changing my pay date", IntentRead, "", "fa2p"},
	})
	runResolveCases(t, "about-tools.html", []resolveCase{
		{"the generated API key", IntentRead, "", "key-out"},
		{"the sentence to rewrite", IntentRead, "", "src"},
	})
}

// TestResolve_FileKinds: people name a file by its app or its kind ("the Figma file", "the
// spreadsheet"), pages by its extension (.fig, .xlsx).
func TestResolve_FileKinds(t *testing.T) {
	runResolveCases(t, "about-files.html", []resolveCase{
		{"check the box for the Figma file", IntentClick, "", "cb-3"},
		{"check the box for the spreadsheet", IntentClick, "", "cb-2"},
		{"open the Photoshop file", IntentClick, "", "f-4"},
	})
}

// TestResolve_LedText: what a notice says is its text after its leading label, not the label
// with it.
func TestResolve_LedText(t *testing.T) {
	runResolveCases(t, "about-files.html", []resolveCase{
		{"what the storage warning says", IntentRead, "", "quota-msg"},
	})
}
