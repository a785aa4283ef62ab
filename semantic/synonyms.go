package semantic

import (
	"regexp"
	"strings"
)

// People describe controls by their looks or by a near word ("the magnifying glass", "the bin
// icon", "surname"), pages name them by their function ("Search", "Delete", "Last name"). Two
// small tables bridge the gap: a few lossless phrase rewrites applied to the description before
// parsing, and word alternatives the matcher accepts in place of a description word (at a small
// discount), so that a page that does say "Surname" still matches exactly.

// filterLead opens a filter instruction: "show only", "only show", "see only"...
const filterLead = `(?:(?:show|see|view|display|list)\s+only|only\s+(?:show|see|view|display|list))`

// filterTo opens a filter instruction by its verb: "filter to", "filter down to", "filter for".
const filterTo = `filter(?:\s+(?:it|them|this|the list|the results))?(?:\s+down)?\s+(?:to|for)`

// phraseRewrites are applied, whole words and case-insensitively, to descriptions.
var phraseRewrites = []struct {
	re  *regexp.Regexp
	out string
}{
	{regexp.MustCompile(`(?i)\be-mail\b`), "email"},
	{regexp.MustCompile(`(?i)\btrash ?can\b`), "trash"},
	{regexp.MustCompile(`(?i)\bthrow away\b`), "discard"},
	{regexp.MustCompile(`(?i)\bhang up\b`), "end call"},
	// A thumb's direction is its meaning: pages name the buttons Like and Dislike.
	{regexp.MustCompile(`(?i)\bthumbs? ?up\b`), "like"},
	{regexp.MustCompile(`(?i)\bthumbs? ?down\b`), "dislike"},
	// "Dismiss the popup with its X": an X is a close button; pages name it "Close".
	{regexp.MustCompile(`(?:^|\s)[xX](?:\s|$)`), " close "},
	// The kebab and meatball menus: pages name them "More" or by their icon ("ellipsis"); a
	// writer types the icon as three dots ("the ... menu").
	{regexp.MustCompile(`(?i)\b(?:three|3)[- ]dots?\b|\bkebab\b|\bmeatballs?\b|[⋮⋯…]|(?:^|\s)\.{3}(?:\s|$)`), " more "},
	{regexp.MustCompile(`(?:^|\s)\+(?:\s|$)`), " add "},
	{regexp.MustCompile(`(?i)\bquestion ?mark\b`), "help"},
	// "the info icon next to Hotspot Boost": what it is next to says which, as "for" does.
	{regexp.MustCompile(`(?i)\bnext to\b`), "for"},
	// A paper plane is the send button of a chat or a composer.
	{regexp.MustCompile(`(?i)\bpaper ?(?:air)?plane\b`), "send"},
	// Phrasal verbs for the actions pages name in one word.
	{regexp.MustCompile(`(?i)\bget rid of\b`), "delete"},
	{regexp.MustCompile(`(?i)\btake away\b`), "remove"},
	{regexp.MustCompile(`(?i)\btake (\S+(?: \S+)?) off\b`), "remove $1 from"},
	{regexp.MustCompile(`(?i)\b(?:bump|turn|crank|push) up\b|\b(?:add )?one more\b`), "increase"},
	{regexp.MustCompile(`(?i)\b(?:turn|bring) down\b|\b(?:remove )?one less\b`), "decrease"},
	// "turn the heating up a bit", "turn the volume down": the verb split around its object is
	// still an increase (a thermostat's + is "Raise target temperature"); "a bit" says how much,
	// which no control names.
	{regexp.MustCompile(`(?i)\b(?:turn|bump|crank|push) ((?:the|my|it|this) ?[\w-]*) up\b`), "increase $1"},
	{regexp.MustCompile(`(?i)\b(?:turn|bring) ((?:the|my|it|this) ?[\w-]*) down\b`), "decrease $1"},
	{regexp.MustCompile(`(?i)\b(?:a (?:little )?bit|a little|a touch|slightly)\b`), " "},
	// "is the meeting being recorded": a call being recorded shows "● REC" (no alternative for
	// "record" itself, which would let "REC" answer for DNS records).
	{regexp.MustCompile(`(?i)\bbeing recorded\b`), "recorded rec"},
	// "which folder is GitHub in", "which team is Dana on": the folder of GitHub (the noun is
	// what is asked, the name whose).
	// (A name, capitalised: "which group is it in" asks of the page's own item, and stays.)
	{regexp.MustCompile(`(?i)^\s*which ([a-z]+) (?:is|are|was|were) (?-i:([A-Z0-9].*?)) (?:in|on|under|filed under|part of)\s*\??\s*$`), "${2}'s $1"},
	// "what did it sell for in 2019", "what does it rent for": a price, asked with "what".
	{regexp.MustCompile(`(?i)^\s*what (did|does|do|will|would) (.+?) (sell|go|rent|list|lease|cost) for\b`), "how much $1 $2 $3 for"},
	// "let Rahul in": a waiting room's Admit; "take one coffee out": a basket's Remove.
	{regexp.MustCompile(`(?i)^\s*let (.+?) (?:in|join)\s*$`), "admit $1"},
	{regexp.MustCompile(`(?i)\btake (\S+(?: \S+)?) out\b`), "remove $1"},
	// "put money on the lunch card": a balance is topped up by its Add funds button.
	{regexp.MustCompile(`(?i)\bput (?:some |more )?(?:money|funds|cash|credit) (?:on|in|into|onto)\b`), "add funds to"},
	// Areas: listings write "2,386 sqft", "Price/sqft", "85 m²"; people say "square feet".
	{regexp.MustCompile(`(?i)\bsquare (?:feet|foot)\b|\bsq\.? ?(?:ft|feet)\b\.?`), "sqft"},
	{regexp.MustCompile(`(?i)\bsquare met(?:er|re)s?\b|\bsq\.? ?m\b\.?`), "sqm"},
	// An American's cell number is the form's Mobile or Mobile phone field, which the specific
	// word names better than "phone" ("cell" alone is a table's cell).
	{regexp.MustCompile(`(?i)(?:\bcell(?:ular)?[ -]?(?:phone|fone)\b|\bcellphone\b)(?:\s+(?:number|no\b|#))?|\bcell(?:ular)?[ -]?(?:number|no\b|#)`), "mobile"},
	{regexp.MustCompile(`(?i)\bgo on to\b|\bmove on to\b`), "continue to"},
	// "hand in the exam", "turn in my assignment": submit it.
	{regexp.MustCompile(`(?i)\b(?:hand|turn) in\b`), "submit"},
	{regexp.MustCompile(`(?i)\blook up\b`), "search"},
	// "see the rest of the replies", "read the rest of the review": what is not shown yet is
	// shown by a "Show more" (Show 12 more replies, Read more) control.
	{regexp.MustCompile(`(?i)\b(?:see|show|view|read|load|open) (?:all )?the rest of\b`), "show more"},
	// "mark Tom's answer as helpful": the Helpful button on Tom's answer. (A state, "mark all
	// as read", is set by a button that keeps the verb: "Mark all as read".)
	{regexp.MustCompile(`(?i)^\s*mark (.+?) (?:as )?(helpful|unhelpful|useful|important|favou?rite)\s*$`), "$2 on $1"},
	// "send a message to the seller": the Contact seller button ("Message" alone is a role word).
	{regexp.MustCompile(`(?i)^\s*(?:send|write|leave) (?:a |an )?(?:message|note) (?:to|for)\b`), "contact"},
	// "go with the Pro plan", "opt for express delivery": a choice, made by its Select button.
	{regexp.MustCompile(`(?i)^\s*(?:go with|opt for|settle on)\b`), "select"},
	// "move Yuki Sato to the next stage", "push the ticket on to the next step": a pipeline or
	// a board moves an item along by its Advance button (or "Next stage").
	{nextStageRe, "advance $1 next stage"},
	// "pay with Apple Pay", "pay by card": the means is the payment option named so, not the
	// Pay now button.
	{regexp.MustCompile(`(?i)^\s*pay (?:with|using|via|by) (.+)$`), "$1"},
	// "show only my favourite channels", "only show exceptions": a filter, set by the control
	// named for what is kept ("My channels only", "Exception"); the verb is no part of its name.
	// The list's own noun after the kept kind ("show only hot leads") says where the filter
	// is, not what its control is named: it becomes the context; but "my" things are what a
	// "Mine only" or "My channels only" control names.
	{regexp.MustCompile(`(?i)^\s*` + filterLead + `\s+my\b`), "only my"},
	{regexp.MustCompile(`(?i)^\s*` + filterLead + `\s+([\w'-]+(?:\s+[\w'-]+)?)\s+([a-z]+[^s]s)\s*$`), "only $1 in the $2"},
	{regexp.MustCompile(`(?i)^\s*` + filterLead + `\b`), "only"},
	// "switch to the resolved alerts", "show closed jobs": a list's tab or filter named for the
	// state kept (Resolved, Closed), the list's noun after it saying where.
	// ("list all open tickets" too: a list's verb, as "show" is.)
	{regexp.MustCompile(`(?i)^\s*(?:show|switch to|go to|view|see|list(?:\s+all)?)\s+(?:the\s+|my\s+)?([a-z]+ed|open|active|pending|unread|draft)\s+([a-z]+[^s]s)\s*$`), "only $1 in the $2"},
	// "filter to unread messages", "filter for urgent tickets": a filter, as "show only" is.
	{regexp.MustCompile(`(?i)^\s*` + filterTo + `\s+(?:the\s+)?([\w'-]+(?:\s+[\w'-]+)?)\s+([a-z]+[^s]s)\s*$`), "only $1 in the $2"},
	{regexp.MustCompile(`(?i)^\s*` + filterTo + `\b`), "only"},
	// "how long does it take altogether?", "what do I pay all told": a sum over the parts is
	// the figure a page labels Total, not one of its parts.
	{regexp.MustCompile(`(?i)\b(?:altogether|all together|all told|all in all|in all)\b`), "in total"},
	// "Wednesday's high and low": a day's forecast, the two temperatures a weather card shows
	// as "66°/47°" and never names.
	{regexp.MustCompile(`(?i)\b(?:highs? and lows?|highs?\s*/\s*lows?|hi\s*/\s*lo)\b`), "high and low temperature"},
	// "jump back to what's on now": a guide's or a calendar's control that scrolls to the
	// present is named Now ("now" alone is a stop word).
	{regexp.MustCompile(`(?i)^\s*(?:jump|go|skip|scroll|get)(?: back| right)? to (?:what'?s on |what is on |the present |right )?now\s*$`), "the button named now"},
	// "what did Ike ask": what someone said is their message, beside their name.
	{saidQuestionRe, "${1}'s message"},
	// "where is my package right now": now, as the page marks it (a step "current").
	{regexp.MustCompile(`(?i)\b(?:right now|at the moment|at present)\b`), "now"},
	// "waiting for approval", "awaiting review": a request's pending state, which a queue
	// names by its state ("Pending", "Requested").
	{regexp.MustCompile(`(?i)\b(?:waiting for|awaiting|pending) (?:approval|review|a decision)\b`), "pending"},
}

// saidQuestionRe asks what someone said: "what did Ike ask", "what did the customer say?".
var saidQuestionRe = regexp.MustCompile(`(?i)^\s*what (?:did|does|has) (.+?) (?:say|said|ask|asked|write|wrote|tell|told|reply|replied|comment|post|mention|suggest|want)(?: me| us| you)?\s*\??\s*$`)

func rewritePhrases(s string) string {
	return rewriteVocabulary(phraseRewriter.apply(s))
}

// phraseRewriter runs phraseRewrites, each only when its expression can match (prefilter.go).
var phraseRewriter = newRewriter(phraseRewrites)

// wordAlternatives maps a description word to words a page may use for it. Both sides are
// stemmed at init, like every compared token.
var wordAlternatives = map[string][]string{
	"cart": {"basket", "bag"}, "basket": {"cart", "bag"},
	// A description's "don't" is written out as "not" (see expandContractions); a page's
	// "Don't replace" leaves the "t" of its "n't".
	"not":   {"t"},
	"trash": {"delete", "bin", "remove", "discard"}, "bin": {"trash", "delete"},
	"delete": {"remove", "trash"}, "remove": {"delete", "trash"},
	"heart": {"wishlist", "favorite", "favourite", "like", "save"},
	"star":  {"favorite", "favourite", "watchlist"}, "favorite": {"star", "heart", "like"}, "favourite": {"star", "heart", "like"},
	"like": {"heart", "favorite"}, "pencil": {"edit"},
	"plus": {"increase", "add", "more"}, "minus": {"decrease", "remove", "fewer", "less"},
	"increase": {"plus", "more", "add", "raise"}, "decrease": {"minus", "fewer", "less", "remove", "lower"},
	"fewer": {"decrease", "remove", "minus", "less"}, "less": {"decrease", "remove", "minus", "fewer"},
	"paperclip": {"attach"}, "bell": {"notification"}, "eye": {"show", "reveal"}, "hamburger": {"menu"},
	// "the menu for the campaign": a row's menu opens from its More (⋯) button.
	"menu":  {"more", "options", "actions"},
	"phone": {"mobile", "tel", "telephone"}, "mobile": {"phone"}, "telephone": {"phone"},
	"zip": {"postcode", "postal"}, "postcode": {"zip", "postal"},
	"sign": {"log"}, "log": {"sign"}, "register": {"sign", "create"},
	"availability": {"stock", "available"}, "available": {"stock", "availability"},
	"photo": {"image", "picture"}, "picture": {"photo", "image"}, "image": {"photo", "picture"},
	"avatar": {"account", "profile"}, "profile": {"account"}, "account": {"profile"},
	"next": {"forward"}, "forward": {"next"}, "previous": {"prev", "back"}, "prev": {"previous", "back"}, "back": {"previous", "return"},
	"close": {"dismiss"}, "dismiss": {"close"}, "search": {"find", "filter"}, "find": {"search"},
	"temperature": {"temp"}, "tonight": {"evening", "night"}, "swap": {"reverse", "switch"}, "reverse": {"swap"},
	"captions": {"subtitles"}, "subtitles": {"captions"},
	"settings": {"preferences", "options", "gear", "cog"}, "preferences": {"settings"}, "options": {"settings"},
	"cost": {"price", "fee", "total"}, "price": {"cost"}, "amount": {"total"},
	"pharmacy": {"store"}, "shop": {"store"}, "email": {"mail"}, "mail": {"email"},
	// "save the new card": a stored thing is saved again by its Update button ("Update card").
	"quantity": {"qty"}, "qty": {"quantity"}, "bookmark": {"save", "wishlist"}, "save": {"bookmark", "update", "confirm"},
	"ebook": {"e-book"}, "author": {"by", "user", "username", "poster"},
	"magnifying": {"search"}, "glass": {"search"}, "thumb": {"like", "dislike"},
	"surname": {"last", "family"}, "forename": {"first", "given"}, "given": {"first"},
	"timezone": {"zone", "time"}, "checkout": {"check"}, "check": {"checkout"},
	// "the Google login": single sign-on buttons say "Continue with Google".
	"login": {"log", "sign", "continue"}, "signin": {"sign", "log"}, "signup": {"sign", "register"},
	"cog": {"settings", "gear"}, "gear": {"settings", "cog"},
	// Icon fonts' names ("fa-ellipsis-vertical", "mdi-chat-outline", "bi-bell") for what people call them.
	"more": {"ellipsis", "dots", "actions", "kebab", "options"}, "chat": {"message", "messages", "comment", "bubble"},
	"bubble": {"chat", "message", "comment"}, "notification": {"bell"}, "notifications": {"bell"}, "edit": {"pencil", "pen"},
	// A split button's arrow opens more of what it does ("More create options").
	"arrow": {"caret", "chevron", "dropdown", "more"}, "caret": {"arrow", "chevron", "dropdown", "more"},
	"chevron": {"arrow", "caret", "dropdown", "more"},
	"help":    {"question", "info"}, "info": {"information", "help"},
	"done": {"complete", "completed", "finished"}, "finished": {"complete", "done"},
	"create": {"add", "new"}, "add": {"create", "new"}, "decline": {"reject", "deny", "refuse", "ignore", "delete"},
	"reject": {"decline", "deny"}, "deny": {"reject", "decline"}, "accept": {"agree", "allow", "confirm", "approve"}, "agree": {"accept"},
	"export": {"download"}, "download": {"export"}, "discard": {"cancel"}, "coupon": {"promo", "voucher", "discount"},
	"voucher": {"promo", "coupon", "discount"}, "promo": {"coupon", "voucher", "discount"}, "reboot": {"restart"},
	"restart": {"reboot"}, "logout": {"log", "sign"}, "microphone": {"mic", "mute"}, "mic": {"microphone", "mute"},
	"camera": {"video"}, "video": {"camera"}, "present": {"share"}, "share": {"present"},
	"everything": {"all"}, "location": {"where", "city", "place", "address"}, "repo": {"repository"}, "repository": {"repo"},
	// Travel and booking forms ("where I drop the car off" is a hire's return; an arrival is
	// labelled "Arrives" as often).
	"drop": {"return"}, "origin": {"from", "departure", "leaving"}, "departure": {"from", "origin"},
	"destination": {"to", "where", "arrival", "going"}, "arrival": {"to", "destination", "arrives"},
	// A room or a fare is booked by its Select button.
	"book": {"reserve", "request", "select"}, "reserve": {"book"}, "booking": {"reservation"}, "reservation": {"booking"},
	"vehicle": {"car"}, "car": {"vehicle"},
	// Money and documents.
	"receipt": {"invoice", "bill"}, "invoice": {"receipt", "bill"}, "flight": {"airfare"}, "airfare": {"flight"},
	"fee": {"charge", "cost"}, "charge": {"fee", "amount"}, "total": {"sum", "amount"}, "custom": {"other"},
	// Actions apps name differently ("change my dates" is the block's Edit or Modify button).
	"change": {"edit", "modify"}, "rename": {"name", "edit"}, "stop": {"cancel", "end", "abort"}, "cancel": {"stop", "abort"}, "pause": {"freeze", "suspend", "hold"},
	"resume": {"continue", "unpause"}, "continue": {"next", "proceed"},
	"refresh": {"reload", "sync"}, "reload": {"refresh"}, "duplicate": {"copy", "clone"}, "copy": {"duplicate"},
	"upload": {"attach", "browse", "choose"}, "attach": {"upload"}, "reset": {"clear"}, "clear": {"reset"},
	"confirm": {"save", "submit", "apply"}, "apply": {"save", "confirm"},
	"submit": {"send", "confirm"}, "send": {"submit"}, "undo": {"revert"}, "buy": {"purchase", "checkout"},
	"purchase": {"buy"},
	// Moving an item on in a pipeline: "Advance", "Next stage", "Move to Interview", "Promote".
	"advance": {"next", "move", "promote"},
	// Keeping a thing from happening is what a control that disables or blocks it does.
	"prevent": {"disable", "block", "stop"},
	// "the zero excess cover" is the plan that says "No excess".
	"zero": {"no", "none"},
	// "ask for a human": support chats offer to "Talk to a person" or an agent.
	"human": {"person", "agent", "representative"},
	// People and groups.
	"participants": {"people", "members", "attendees", "everyone"}, "members": {"people", "participants"},
	"people": {"members", "participants", "everyone"}, "attendees": {"participants", "guests"},
	// "the number of guests": booking forms ask for the party size, or the people.
	"guests":  {"party", "people"},
	"company": {"organization", "organisation", "employer", "business"}, "organization": {"company"},
	"organisation": {"company"}, "owner": {"assignee", "owned"}, "assignee": {"owner", "assigned"},
	"kid": {"child", "student"}, "child": {"kid", "student"},
	// Calls and visits.
	"unmute": {"microphone", "mic"}, "mute": {"microphone", "mic"}, "telehealth": {"video", "virtual"},
	"virtual": {"video", "online"},
	// A file is named by its extension; people name the app or the kind ("the Figma file",
	// "the spreadsheet").
	"figma": {"fig"}, "photoshop": {"psd"}, "excel": {"xlsx", "xls"}, "powerpoint": {"pptx", "ppt"},
	"spreadsheet": {"xlsx", "xls", "csv", "ods"}, "presentation": {"pptx", "ppt", "odp"},
	"file": {"pdf", "docx", "xlsx", "csv", "pptx", "fig", "psd", "zip", "png", "jpg", "txt"},
	// Words for the same text.
	"notes": {"description", "comment"}, "details": {"info", "information"}, "summary": {"overview"},
	"overview": {"summary"}, "length": {"duration"}, "duration": {"length"}, "language": {"lang"},
	"cutlery": {"utensils"}, "utensils": {"cutlery"}, "wishlist": {"save", "heart", "favorite"},
	"support": {"help", "contact"}, "birthday": {"birth", "dob"}, "percentage": {"percent", "pct"}, "percent": {"percentage", "pct"},
	// Sizes, repeats and history.
	"empty": {"clear"}, "bigger": {"large", "larger", "increase"}, "larger": {"large", "increase"},
	"smaller": {"small", "decrease"}, "year": {"annual", "yearly"}, "annual": {"year", "yearly"}, "yearly": {"annual"},
	"month": {"monthly"}, "revisions": {"history"}, "versions": {"history"},
	// A rate is written as a figure per period: "$389/mo", "$12/wk", "$1,140/yr"; an estimate as
	// "Est.".
	"monthly": {"month", "mo"}, "weekly": {"week", "wk"}, "hourly": {"hour", "hr"}, "daily": {"day"}, "nightly": {"night"},
	"estimated": {"est"}, "points": {"pts"}, "pts": {"points"},
	// What one owes is the balance due ("how much I owe in fines": "Balance due: $3.75").
	"owe": {"due", "owed", "owing", "outstanding", "balance"},
	// What is left of a store of money or time is its balance, or what remains ("what's left
	// in my wallet": the Wallet balance).
	"left": {"remaining", "balance"},
	// A doer is named by the deed too: "who designed it" asks for the designer, whom a page
	// labels "Designed by" (not "author": "posted" is a post; owner and assignee above).
	"designer": {"designed"}, "publisher": {"published"},
	"developer": {"developed"}, "organizer": {"organized"}, "organiser": {"organised"}, "manager": {"managed"},
	"creator": {"created"}, "seller": {"sold"}, "recipient": {"sent", "audience"},
	// What a carrier carries.
	"package": {"parcel", "shipment"}, "parcel": {"package", "shipment"}, "shipment": {"package", "parcel"},
	// A request's state before anyone decides on it.
	"pending": {"awaiting", "waiting", "requested", "submitted"},
	// Mishaps: an insurer calls the accident the loss ("Date of loss"), or the incident.
	"accident": {"incident", "loss", "collision", "crash"}, "crash": {"accident", "incident", "loss", "collision"},
	// An identifier is a number or an ID as the page pleases: "the VAT number" is the VAT ID
	// field, "the order number" the Order ID.
	"number": {"id"},
	// Distances driven are mileage: "how many miles I drive per year" is Annual mileage.
	"miles": {"mileage"}, "mileage": {"miles"},
}

// alternatives is wordAlternatives stemmed: alternatives[stem(a)][stem(b)].
var alternatives = func() map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for a, bs := range wordAlternatives {
		m := out[stem(a)]
		if m == nil {
			m = map[string]bool{}
			out[stem(a)] = m
		}
		for _, b := range bs {
			for _, t := range tokens(strings.ToLower(b)) {
				m[t] = true
			}
		}
	}
	addAlternatives(out) // vocabulary.go
	return out
}()

// alternative reports whether the page word b may stand for the description word a.
func alternative(a, b string) bool { return alternatives[a][b] }
