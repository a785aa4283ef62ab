package triggers_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/store"
	"github.com/rodeo-run/rodeo/triggers"
)

// Twilio's published request-validation vectors (their helper libraries test against them).
func TestTwilioSignature_MatchesTwilioVectors(t *testing.T) {
	const u = "https://mycompany.com/myapp.php?foo=1&bar=2"
	cases := []struct {
		name   string
		params url.Values
		want   string
	}{
		{"documented example", url.Values{"CallSid": {"CA1234567890ABCDE"}, "Caller": {"+14158675309"}, "Digits": {"1234"},
			"From": {"+14158675309"}, "To": {"+18005551212"}}, "RSOYDt4T1cUTdK1PDd93/VVr8B8="},
		{"repeated names sort by value", url.Values{"Sid": {"CA123"}, "SidAccount": {"AC123"}, "Digits": {"5678", "1234", "1234"}},
			"IK+Dwps556ElfBT0I3Rgjkr1wJU="},
	}
	for _, c := range cases {
		if got := triggers.TwilioSignature("12345", u, c.params); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}

const publicURL = "https://rodeo.example.com"

func phoneFixture(t *testing.T, authToken string) (*fixture, store.InboundTrigger) {
	t.Helper()
	f := newFixture(t, triggers.Config{PublicURL: publicURL + "/"}, nil)
	f.save(t, "texts", map[string]any{"type": "print", "text": "{{data}}"})
	tr, err := f.in.CreatePhone(store.DefaultAccount, "texts", authToken, `Say "hi" & <wait>`)
	if err != nil {
		t.Fatal(err)
	}
	return f, tr
}

// post is a webhook post to the trigger's step URL as Twilio would sign it with authToken
// ("" leaves the signature out).
func post(tr store.InboundTrigger, step, authToken string, params url.Values) triggers.PhonePost {
	path := "/triggers/phone/" + tr.Token + "/" + map[string]string{"sms": "sms", "call": "call", "speech": "call/speech"}[step]
	p := triggers.PhonePost{Token: tr.Token, Step: step, URL: publicURL + path, Params: params}
	if authToken != "" {
		p.Signature = triggers.TwilioSignature(authToken, p.URL, params)
	}
	return p
}

var smsParams = url.Values{"From": {"+15551230001"}, "To": {"+15559870002"}, "Body": {"order {{data}} $(reboot) 'now'"},
	"MessageSid": {"SM0123456789"}, "AccountSid": {"AC1"}}

func TestPhone_SignedSMSRunsTheScript(t *testing.T) {
	f, tr := phoneFixture(t, "secret-auth-token")
	out, err := f.in.Phone(post(tr, "sms", "secret-auth-token", smsParams))
	if err != nil {
		t.Fatal(err)
	}
	if out != `<?xml version="1.0" encoding="UTF-8"?><Response/>` {
		t.Errorf("TwiML: %s", out)
	}
	got, _ := f.db.GetInboundTrigger(store.DefaultAccount, store.InboundPhone, tr.ID)
	if len(got.Deliveries) != 1 || got.Deliveries[0].Result != "ran" || got.Deliveries[0].Kind != "sms" {
		t.Fatalf("deliveries: %+v", got.Deliveries)
	}
	doc := f.waitRun(t, got.Deliveries[0].RunID)
	body := smsParams.Get("Body")
	sms, _ := doc.Data["sms"].(map[string]any)
	if doc.Status != "succeeded" || doc.Data["sms_transcript"] != body || sms["body"] != body || sms["from"] != "+15551230001" ||
		sms["to"] != "+15559870002" || sms["message_sid"] != "SM0123456789" {
		t.Errorf("run: %s %v", doc.Status, doc.Data)
	}
	if doc.Source != "sms" || doc.Trigger == nil || doc.Trigger.ID != tr.ID {
		t.Errorf("source %q trigger %+v", doc.Source, doc.Trigger)
	}
}

func TestPhone_MissingOrWrongSignaturesAreForbiddenAndRunNothing(t *testing.T) {
	f, tr := phoneFixture(t, "secret-auth-token")
	tampered := url.Values{}
	for k, v := range smsParams {
		tampered[k] = v
	}
	tampered.Set("Body", "something else")
	cases := []struct {
		name string
		p    triggers.PhonePost
	}{
		{"no signature", post(tr, "sms", "", smsParams)},
		{"signed with another token", post(tr, "sms", "another-token", smsParams)},
		{"body changed after signing", func() triggers.PhonePost {
			p := post(tr, "sms", "secret-auth-token", smsParams)
			p.Params = tampered
			return p
		}()},
		{"signed for another URL", func() triggers.PhonePost {
			p := post(tr, "sms", "secret-auth-token", smsParams)
			p.URL += "?x=1"
			return p
		}()},
		{"garbage", func() triggers.PhonePost {
			p := post(tr, "sms", "", smsParams)
			p.Signature = "not base64 ☃"
			return p
		}()},
		{"a call, unsigned", post(tr, "call", "", url.Values{"From": {"+1"}})},
		{"speech, unsigned", post(tr, "speech", "", url.Values{"SpeechResult": {"hello"}})},
	}
	for _, c := range cases {
		out, err := f.in.Phone(c.p)
		if !errs.Is(err, errs.Forbidden) || out != "" {
			t.Errorf("%s: %q %v, want forbidden", c.name, out, err)
		}
	}
	got, _ := f.db.GetInboundTrigger(store.DefaultAccount, store.InboundPhone, tr.ID)
	if len(got.Deliveries) != len(cases) {
		t.Errorf("%d deliveries recorded, want %d refusals", len(got.Deliveries), len(cases))
	}
	for _, d := range got.Deliveries {
		if d.Result != "refused" || d.RunID != "" {
			t.Errorf("delivery %+v, want refused", d)
		}
	}
	if runs := f.runsOf(t); len(runs) != 0 {
		t.Errorf("%d runs, want none", len(runs))
	}
}

func TestPhone_CallGathersSpeechThenRunsTheScript(t *testing.T) {
	f, tr := phoneFixture(t, "secret-auth-token")
	out, err := f.in.Phone(post(tr, "call", "secret-auth-token", url.Values{"From": {"+15551230001"}, "CallSid": {"CA9"}}))
	if err != nil {
		t.Fatal(err)
	}
	action := publicURL + "/triggers/phone/" + tr.Token + "/call/speech"
	want := `<?xml version="1.0" encoding="UTF-8"?><Response><Gather input="speech" action="` + action +
		`" method="POST"><Say>Say &#34;hi&#34; &amp; &lt;wait&gt;</Say></Gather></Response>`
	if out != want {
		t.Errorf("call TwiML:\n%s\nwant\n%s", out, want)
	}
	if runs := f.runsOf(t); len(runs) != 0 {
		t.Fatalf("answering the call ran %d scripts, want none before the speech", len(runs))
	}
	// Nothing heard: nothing runs.
	if out, err := f.in.Phone(post(tr, "speech", "secret-auth-token", url.Values{"SpeechResult": {"  "}, "From": {"+15551230001"}})); err != nil || !strings.Contains(out, "<Say>") {
		t.Errorf("empty speech: %q %v", out, err)
	}
	speech := url.Values{"SpeechResult": {"Cancel order 42, please."}, "Confidence": {"0.93"}, "From": {"+15551230001"},
		"To": {"+15559870002"}, "CallSid": {"CA9"}}
	out, err = f.in.Phone(post(tr, "speech", "secret-auth-token", speech))
	if err != nil || !strings.Contains(out, "<Say>Thank you. Goodbye.</Say>") {
		t.Fatalf("speech TwiML: %q %v", out, err)
	}
	got, _ := f.db.GetInboundTrigger(store.DefaultAccount, store.InboundPhone, tr.ID)
	if len(got.Deliveries) != 2 || got.Deliveries[0].Result != "filtered" || got.Deliveries[1].Result != "ran" {
		t.Fatalf("deliveries: %+v", got.Deliveries)
	}
	doc := f.waitRun(t, got.Deliveries[1].RunID)
	call, _ := doc.Data["call"].(map[string]any)
	if doc.Status != "succeeded" || doc.Source != "call" || doc.Data["phone_transcript"] != "Cancel order 42, please." ||
		call["speech"] != "Cancel order 42, please." || call["from"] != "+15551230001" || call["to"] != "+15559870002" || call["call_sid"] != "CA9" {
		t.Errorf("run: %s %s %v", doc.Status, doc.Source, doc.Data)
	}
	if runs := f.runsOf(t); len(runs) != 1 {
		t.Errorf("%d runs, want 1", len(runs))
	}
}

func TestPhone_WithoutAnAuthTokenTheTokenPathIsTheCredential(t *testing.T) {
	f, tr := phoneFixture(t, "")
	if _, err := f.in.Phone(post(tr, "sms", "", smsParams)); err != nil {
		t.Fatalf("unsigned post to an unsigned trigger: %v", err)
	}
	p := post(tr, "sms", "", smsParams)
	p.Token = strings.Repeat("a", len(tr.Token))
	if _, err := f.in.Phone(p); !errs.Is(err, errs.NotFound) {
		t.Errorf("a guessed token: %v, want not_found", err)
	}
	if runs := f.runsOf(t); len(runs) != 1 {
		t.Errorf("%d runs, want 1", len(runs))
	}
}
