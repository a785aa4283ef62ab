package semantic

import "testing"

// A grid whose cells hold a nameless box: typing the row's and the column's value goes in the
// box of the cell where they meet, not the cell around it.
func TestResolve_GridCellControl(t *testing.T) {
	runResolveCases(t, "quota-sheet.html", []resolveCase{
		{"West's Q3 quota", IntentType, "", "box33"},
		{"the Q4 quota for East", IntentType, "", "box24"},
	})
}

// A control a grid's cell holds is in the cell's column: "Thursday's spin class" is the Spin
// button under Thursday, not the day's whole cell nor Tuesday's Spin.
func TestResolve_ControlInColumn(t *testing.T) {
	runResolveCases(t, "class-week.html", []resolveCase{
		{"Thursday's spin class", IntentClick, "", "k3"},
		{"Saturday's spin", IntentClick, "", "k6"},
		{"Sunday's yoga", IntentClick, "", "k7"},
	})
}

// Reading a grid's summary row by its header and a column: the cell where they meet, not the
// row header that says the row's words.
func TestResolve_SummaryRowCell(t *testing.T) {
	runResolveCases(t, "hours-grid.html", []resolveCase{
		{"studio average on week 3", IntentRead, "", "tot3"},
		{"the studio average for Week 2", IntentAny, "", "tot2"},
	})
}

// Look-alike rows that do not show their numbers are counted by their order: "guest 2" is the
// second guest's row.
func TestResolve_NumberedItem(t *testing.T) {
	runResolveCases(t, "rsvp-guests.html", []resolveCase{
		{"full name for guest 2", IntentType, "", "g-b-name"},
		{"the meal for guest 3", IntentClick, "", "g-c-meal"},
	})
}

// "after X" and "before X" in a line of look-alikes: the neighbour of the one X names.
func TestResolve_NeighbourInLine(t *testing.T) {
	runResolveCases(t, "train-stops.html", []resolveCase{
		{"the stop after York", IntentClick, "", "st4"},
		{"the station before Newcastle", IntentClick, "", "st4"},
		{"what's the stop after Peterborough", IntentAny, "", "st2"},
	})
}
