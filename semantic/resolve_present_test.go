package semantic

import "testing"

// TestResolve_MarkedPresent: a question about what is so now is answered from what the page
// marks as present (a region named "Now playing", a step of class "is-current"), not from a
// Play button or an upload number that only shares a word.
func TestResolve_MarkedPresent(t *testing.T) {
	runResolveCases(t, "now-present.html", []resolveCase{
		{"what episode is playing right now?", IntentRead, "", "np-title"},
		{"what's playing", IntentRead, "", "np-title"},
		{"what stage is my upload at", IntentRead, "", "step-now"},
	})
}

// TestResolve_PresentOfKind: a count asked of the present is a figure, not what the "Now
// playing" region holds: only a question of what plays reads a mark that says play.
func TestResolve_PresentOfKind(t *testing.T) {
	runResolveCases(t, "now-present.html", []resolveCase{
		{"how many live listeners are there right now", IntentRead, "", "live-count"},
	})
}

// TestResolve_PlayingControl: "heart the episode that's playing" is the player's Like
// button, in the region marked as playing, not a Play button that shares "play".
func TestResolve_PlayingControl(t *testing.T) {
	runResolveCases(t, "now-present.html", []resolveCase{
		{"heart the episode that's playing", IntentClick, "", "np-fav"},
		{"like the episode that is playing", IntentClick, "", "np-fav"},
	})
}

// TestResolve_PresentAboutAsked: the header's link of class "current" marks where one is,
// which says nothing of "the plan I'm on now": a mark answers only a question about it.
func TestResolve_PresentAboutAsked(t *testing.T) {
	runResolveCases(t, "now-present.html", []resolveCase{
		{"what plan am I currently on?", IntentRead, "", "plan"},
		{"what's my plan now", IntentRead, "", "plan"},
	})
}
