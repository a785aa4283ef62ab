package semantic

import "testing"

// TestResolve_AskedVerbIsTheLabel: a question asks with a verb what the page labels with a
// noun. "what does the bike box weigh" is the value labelled Weight on the bike box's card,
// "what time does the train leave" the one labelled Departs, "what time does the flight land"
// the flight's Arrives; "when do I plan to arrive" is the Arrival date a form asks for, "when do we
// plan to leave" its Departure date.
func TestResolve_AskedVerbIsTheLabel(t *testing.T) {
	runResolveCases(t, "questions-rail.html", []resolveCase{
		{"what does the bike box weigh?", IntentRead, "", "w2"},
		{"what time does the train leave?", IntentRead, "", "dep"},
		{"what time does the flight land?", IntentRead, "", "fl-arr"},
	})
	runResolveCases(t, "questions-cottage.html", []resolveCase{
		{"when do I plan to arrive?", IntentType, "", "arr"},
		{"when do we plan to leave?", IntentType, "", "dep"},
	})
}

// TestResolve_AskerClauseSaysNothing: the possession clause of a question ("does Priya have
// today", "has Tom got") is no word of the answer's: "how many sessions does Priya have today"
// is Priya's count, beside her name.
func TestResolve_AskerClauseSaysNothing(t *testing.T) {
	runResolveCases(t, "questions-gym.html", []resolveCase{
		{"how many sessions does Priya have today", IntentRead, "", "c-priya"},
		{"how many sessions has Tom got today?", IntentRead, "", "c-tom"},
	})
}

// TestResolve_FirstSeenIsNoOrdinal: "first" before a participle says when ("when was it first
// seen"), the label of a date, not the first of a list: the issue's First seen date, not the
// first row's.
func TestResolve_FirstSeenIsNoOrdinal(t *testing.T) {
	runResolveCases(t, "questions-monitor.html", []resolveCase{
		{"when was the gateway timeout first seen?", IntentRead, "", "first-seen"},
	})
}

// TestResolve_ControlHoldsTheAnswer: a select whose name repeats the question holds the
// answer in its chosen option: "who is the assignee" is the Assignee select (Dana Whitfield),
// not the "Assignee" caption beside it, which only says what the asker already knows.
func TestResolve_ControlHoldsTheAnswer(t *testing.T) {
	runResolveCases(t, "questions-ticket.html", []resolveCase{
		{"who is the assignee?", IntentRead, "", "assignee"},
		{"who is the ticket assigned to?", IntentRead, "", "assignee"},
		{"what's the priority?", IntentRead, "", "priority"},
		{"which group is it in?", IntentRead, "", "group"},
	})
}

// TestResolve_QualifiedDuration: "5 working days" is a duration, its qualifier between the
// number and the unit: "how long does a refund take" is the Usual refund time, not the refund
// fee beside it.
func TestResolve_QualifiedDuration(t *testing.T) {
	runResolveCases(t, "questions-rail.html", []resolveCase{
		{"how long does a refund take?", IntentRead, "", "refund-time"},
	})
}

// TestResolve_WhoIsOnTheCard: "who is driving van 417" asks for the person on van 417's card:
// the deed ("driving", "delivering") is no word of the card's, which shows the doer by name,
// captioned "Driver:" for a screen reader; the van's model ("Mercedes Sprinter") reads as a
// name too, but no caption leads it.
func TestResolve_WhoIsOnTheCard(t *testing.T) {
	runResolveCases(t, "questions-dispatch.html", []resolveCase{
		{"who is driving van 417?", IntentRead, "", "drv-417"},
		{"who is delivering van 412", IntentRead, "", "drv-412"},
		{"who has van 419?", IntentRead, "", "drv-419"},
	})
}

// TestResolve_WhatIsLeftIsTheBalance: what is left of a store of money is its balance: "what's
// left on my travel card" is the Card balance, not the caption or what was spent.
func TestResolve_WhatIsLeftIsTheBalance(t *testing.T) {
	runResolveCases(t, "questions-transit.html", []resolveCase{
		{"what's left on my travel card?", IntentRead, "", "card-balance"},
	})
}

// TestResolve_PresentIsTheOwners: "which seat does Leo have right now" is Leo's seat; the
// check-in stepper's current step ("Seats & extras", aria-current) shares the word seat and is
// marked as present, but says nothing of Leo.
func TestResolve_PresentIsTheOwners(t *testing.T) {
	runResolveCases(t, "questions-checkin.html", []resolveCase{
		{"which seat does Leo have right now?", IntentRead, "", "seat-leo"},
		{"which seat does Inês have now", IntentRead, "", "seat-ines"},
	})
}
