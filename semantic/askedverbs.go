package semantic

import "strings"

// A question asks with a verb what a page shows under a noun: "what does Pepper weigh" is
// answered by the value labelled Weight, "what time does the flight leave" by the one labelled
// Departs or Departure, "when do we land back in Lisbon" by the arrival. The verb itself is no
// word of the page's ("leave" is not "Departs"), so left as it is it matches nothing, or the
// wrong thing; put as the noun, it names the label the answer sits under.

// askedVerbNouns map the verb of a question, after its subject, to the noun pages label its
// answer with.
var askedVerbNouns = map[string]string{
	"weigh": "weight", "weighs": "weight", "weighed": "weight",
	"leave": "departure", "leaves": "departure", "depart": "departure", "departs": "departure",
	"arrive": "arrival", "arrives": "arrival", "land": "arrival", "lands": "arrival",
}

// verbTailWords may follow the asked verb without being its object: "land back in Lisbon",
// "leave for Paris", "arrive at the hotel".
var verbTailWords = map[string]bool{"back": true, "in": true, "at": true, "on": true, "from": true, "to": true,
	"for": true, "into": true, "off": true, "out": true, "today": true, "tomorrow": true, "tonight": true}

// intentVerbs put the asked verb after "to" and say only that the asker means to do it: "when
// do I plan to arrive" asks the arrival ("Intended arrival date").
var intentVerbs = map[string]bool{"plan": true, "planning": true, "intend": true, "expect": true, "hope": true,
	"want": true, "going": true, "need": true}

// askedVerbNoun rewrites the rest of an inverted question ("does Pepper weigh": its auxiliary
// ends the question words q, "what does", or is aux, the first word after them) whose verb a
// page shows as a noun (askedVerbNouns): "Pepper weigh" -> "weight of Pepper", "plan to
// arrive" -> "arrival", "land back in Lisbon" -> "arrival back in Lisbon". Other rests are
// returned as they are. The verb must end the rest or be followed by a tail word
// (verbTailWords), so that a noun that reads as a verb ("my annual leave starts") stays a
// noun.
func askedVerbNoun(q, aux, rest string) string {
	if _, qAux, _ := strings.Cut(q, " "); !doAuxiliaries[qAux] && !doAuxiliaries[strings.ToLower(aux)] {
		return rest
	}
	f := strings.Fields(rest)
	for i, w := range f {
		noun, ok := askedVerbNouns[strings.ToLower(w)]
		if !ok || i+1 < len(f) && !verbTailWords[strings.ToLower(f[i+1])] {
			continue
		}
		subject := f[:i]
		if n := len(subject); n >= 2 && strings.EqualFold(subject[n-1], "to") && intentVerbs[strings.ToLower(subject[n-2])] {
			subject = subject[:n-2] // "plan to arrive": the asker's intent, no subject
		}
		out := []string{noun}
		if len(subject) > 0 {
			out = append(out, "of")
			out = append(out, subject...)
		}
		return strings.Join(append(out, f[i+1:]...), " ")
	}
	return rest
}

// progressive reports whether v is a verb in "-ing" ("cleaning", "driving", "teaching") that a
// who-question asks about: the doer's name is on the thing done, which the rest names.
func progressive(v string) bool {
	base, ok := strings.CutSuffix(v, "ing")
	return ok && len(base) >= 3 && strings.ContainsAny(base, "aeiouy")
}
