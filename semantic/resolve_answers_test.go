package semantic

import "testing"

// TestResolve_AnswerNo: a description that says no answers the question it names by the
// question's No control, not by the Yes that comes first after it: "nobody in my family had
// joint surgery" answers "Has anyone else in your family had joint surgery?". "no" is a stop
// word, so the denial is read from the description before its words are.
func TestResolve_AnswerNo(t *testing.T) {
	runResolveCases(t, "answers-intake.html", []resolveCase{
		{"nobody else has had joint surgery", IntentClick, "", "fam-no"},
		{"answer no to the pacemaker question", IntentClick, "", "pace-no"},
		{"no accident caused the pain", IntentClick, "", "acc-no"},
		{"say no to 'Are you off work because of this injury?'", IntentClick, "", "work-no"},
	})
}

// TestResolve_OneLessIsRemove: "one less child ticket" is read as decrease, which a ticket
// counter's minus button says as Remove ("Remove carer ticket"), not the Add button of
// another ticket type.
func TestResolve_OneLessIsRemove(t *testing.T) {
	runResolveCases(t, "answers-tickets.html", []resolveCase{
		{"one less carer ticket", IntentClick, "", "carer-dec"},
	})
}

// TestDenies: the words that say no, outside quotes.
func TestDenies(t *testing.T) {
	for _, c := range []struct {
		desc string
		want bool
	}{
		{"nobody was injured", true},
		{"answer No to the visa question", true},
		{"I don't smoke", true},
		{"I have never been refused a visa", true},
		{"answer yes to the smoking question", false},
		{"the notes field", false},
		{"the knot tying guide", false},
	} {
		if got := Parse(c.desc).Denies; got != c.want {
			t.Errorf("Parse(%q).Denies = %v, want %v", c.desc, got, c.want)
		}
	}
}

// TestResolve_VerbSaysTheAction: a verb that names what a control does in other words. "top
// up my charging credit" puts money on a store of it, which the page offers as Add funds;
// "favorite Canal St station" puts a named thing among one's favourites, by the Add to
// favourites control on its card (not the row of a past session at that station).
func TestResolve_VerbSaysTheAction(t *testing.T) {
	runResolveCases(t, "answers-stations.html", []resolveCase{
		{"top up my charging credit", IntentClick, "", "add-funds"},
		{"recharge my balance", IntentClick, "", "add-funds"},
		{"favorite Canal St station", IntentClick, "", "fav-canal"},
	})
}

// TestResolve_Require2FA: "2FA" is how people write two-factor authentication, on both sides:
// "turn on 'require 2FA'" is the workspace's "Require two-factor authentication" switch, not a
// row's "Send 2FA reminder" menu item.
func TestResolve_Require2FA(t *testing.T) {
	runResolveCases(t, "answers-members.html", []resolveCase{
		{"turn on 'require 2FA' for everyone", IntentClick, "", "req-2fa"},
		{"enable required 2FA", IntentClick, "", "req-2fa"},
	})
}

// TestResolve_AnswerAsTheUser: a description that speaks as the user ("I will wrap it
// myself") is answered by the option said from the user's side ("I'll wrap it myself"),
// not the shop's ("We wrap it in tissue and twine"), though both say wrap; "for me" is whom it
// is done for, not who does it.
func TestResolve_AnswerAsTheUser(t *testing.T) {
	runResolveCases(t, "answers-gift.html", []resolveCase{
		{"I will wrap it myself", IntentClick, "", "wrap-self"},
	})
}

// TestFirstPerson: the user speaks as the one who acts; "me" is whom it is for.
func TestFirstPerson(t *testing.T) {
	for _, c := range []struct {
		desc string
		want bool
	}{
		{"I'll pay the import duties myself", true},
		{"I will wrap it myself", true},
		{"gift wrap it for me", false},
		{"the iPhone case", false},
	} {
		if got := Parse(c.desc).FirstPerson; got != c.want {
			t.Errorf("Parse(%q).FirstPerson = %v, want %v", c.desc, got, c.want)
		}
	}
}
