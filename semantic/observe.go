package semantic

import "strings"

// CandidateLine is an element as one line of a model's observation, in the LLM ranker's compact
// form with its id in square brackets: `[12] button "Save changes" text="…" @dialog Edit`. The
// general node lists a page this way, so that what a model reads about an element is the same
// whichever part of rodeo asks it.
func CandidateLine(e *Element) string {
	line := candidateLine(e)
	if i := strings.IndexByte(line, ' '); i > 0 {
		return "[" + line[:i] + "]" + line[i:]
	}
	return "[" + line + "]"
}
