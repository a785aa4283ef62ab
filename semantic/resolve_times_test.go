package semantic

import "testing"

// A timetable's entry by its day's column: the Nth or last of the column, the one after a
// break that crosses the grid (the break does not end the grid's columns), the one in the row
// a period's label names ("period 3" is the row headed P3). The day's header is its cell
// ("Fri <small>7 Mar</small>"), not the date inside it.
func TestResolve_TimetableEntry(t *testing.T) {
	runResolveCases(t, "time-timetable.html", []resolveCase{
		{"the first lesson on Thursday", IntentRead, "", "thu1"},
		{"what's the last class on Tuesday", IntentRead, "", "tue4"},
		{"what do I have after the break on Wednesday", IntentRead, "", "wed3"},
		{"who teaches period 3 on Friday", IntentRead, "", "fri3-who"},
		{"when does period 2 start?", IntentRead, "", "p2-start"},
	})
}

// A guide's line by the label that opens it: "the last show on Metro Two" is the last of the
// look-alikes in the row Metro Two heads; "One" after a name is the name's word, which tells
// Metro One from Metro Two.
func TestResolve_GuideLine(t *testing.T) {
	runResolveCases(t, "time-guide.html", []resolveCase{
		{"what's on Metro One at 7pm", IntentClick, "", "m1-b"},
		{"the last show on Metro Two", IntentClick, "", "m2-c"},
		{"the second programme on Pulse", IntentClick, "", "p-b"},
		{"the last programme on Metro One tonight", IntentClick, "", "m1-c"},
		{"the first programme on Pulse tonight", IntentClick, "", "p-a"},
	})
}

// "One" is a stop word, but the last word of a name when capitalized after one.
func TestNamedOne(t *testing.T) {
	for _, c := range []struct {
		desc string
		want bool
	}{
		{"what's on BBC One at 8pm", true},
		{"the Formula One standings", true},
		{"pick one of the plans", false},
		{"One more adult ticket", false},
	} {
		if got := namedOneRe.MatchString(c.desc); got != c.want {
			t.Errorf("namedOneRe(%q) = %v, want %v", c.desc, got, c.want)
		}
	}
}

// A month calendar that shows one month and names no other: "go to April" is its next-month
// control, "show me December" its previous-month one (the shorter way round), and a year
// said settles the way.
func TestResolve_MonthStep(t *testing.T) {
	runResolveCases(t, "time-calendar.html", []resolveCase{
		{"go to April", IntentClick, "", "cal-fwd"},
		{"go back to February", IntentClick, "", "cal-back"},
		{"show me December", IntentAny, "", "cal-back"},
		{"go to December 2026", IntentClick, "", "cal-fwd"},
	})
}

func TestMonthOf(t *testing.T) {
	for w, want := range map[string]int{"january": 1, "jan": 1, "may": 5, "sept": 9, "december": 12, "monday": 0, "june": 6, "march": 3} {
		if got := monthOf(w); got != want {
			t.Errorf("monthOf(%q) = %d, want %d", w, got, want)
		}
	}
}

// "Saturday's high and low" asks for the two temperatures a day's card shows ("11°/6°"),
// which no page names: the words ask for a temperature, the possessive for the day's card.
func TestResolve_HighAndLow(t *testing.T) {
	runResolveCases(t, "time-forecast.html", []resolveCase{
		{"Saturday's high and low", IntentRead, "", "sat-t"},
		{"the highs and lows for Monday", IntentRead, "", "mon-t"},
	})
}

// "jump back to what's on now" is a guide's Now control, which scrolls to the present.
func TestResolve_JumpToNow(t *testing.T) {
	runResolveCases(t, "time-guide.html", []resolveCase{
		{"jump back to what's on now", IntentClick, "", "to-now"},
		{"go to now", IntentAny, "", "to-now"},
	})
}
