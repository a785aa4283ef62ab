package triggers

import (
	"crypto/hmac"
	"crypto/sha1"
	"encoding/base64"
	"html"
	"net/url"
	"sort"
	"strings"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/store"
)

// SMS and phone calls in Twilio's webhook format. A phone trigger has two URLs with an
// unguessable token in their path: Twilio posts an incoming SMS to the SMS URL, an incoming call
// to the call URL. Both are form posts; both answer TwiML. With an auth token, every post must
// carry a valid X-Twilio-Signature, or it is refused with 403 and runs nothing.

// DefaultPrompt is what a caller hears when the trigger has no prompt of its own.
const DefaultPrompt = "Please say your message after the tone."

// CreatePhone makes a phone trigger for the account's saved script name; a non-empty authToken
// turns signature checking on.
func (in *Inbound) CreatePhone(account, name, authToken, prompt string) (store.InboundTrigger, error) {
	if err := in.ensureScript(account, name); err != nil {
		return store.InboundTrigger{}, err
	}
	return in.cfg.Store.CreateInboundTrigger(store.InboundTrigger{Kind: store.InboundPhone, Account: account, Script: name,
		AuthToken: strings.TrimSpace(authToken), Prompt: strings.TrimSpace(prompt)})
}

// TwilioSignature is the X-Twilio-Signature of a post to fullURL with params: the base64 of the
// HMAC-SHA1, keyed with the auth token, of the URL followed by every parameter's name and value,
// sorted by name (a repeated name's distinct values sorted).
func TwilioSignature(authToken, fullURL string, params url.Values) string {
	names := make([]string, 0, len(params))
	for k := range params {
		names = append(names, k)
	}
	sort.Strings(names)
	mac := hmac.New(sha1.New, []byte(authToken))
	mac.Write([]byte(fullURL))
	for _, k := range names {
		vals := append([]string(nil), params[k]...)
		sort.Strings(vals)
		for i, v := range vals {
			if i > 0 && v == vals[i-1] {
				continue // a repeated value counts once, as in Twilio's own validators
			}
			mac.Write([]byte(k))
			mac.Write([]byte(v))
		}
	}
	return base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

// validSignature compares sig with the expected signature in constant time.
func validSignature(authToken, fullURL string, params url.Values, sig string) bool {
	want := TwilioSignature(authToken, fullURL, params)
	return hmac.Equal([]byte(want), []byte(strings.TrimSpace(sig)))
}

// PhonePost is one webhook post to a phone trigger.
type PhonePost struct {
	// Token is the token of the path; Step is "sms", "call" or "speech" (the call's action).
	Token, Step string
	// URL is the full URL Twilio posted to (the public URL plus the path and query).
	URL       string
	Params    url.Values
	Signature string
}

// Phone handles a webhook post and returns the TwiML to answer. An unknown token is not_found,
// a bad signature forbidden (nothing runs), and a full queue busy.
func (in *Inbound) Phone(p PhonePost) (string, error) {
	t, err := in.cfg.Store.InboundTriggerByToken(store.InboundPhone, p.Token)
	if err != nil {
		return "", err
	}
	from, to := p.Params.Get("From"), p.Params.Get("To")
	if t.AuthToken != "" && !validSignature(t.AuthToken, p.URL, p.Params, p.Signature) {
		in.recordPhone(t, store.Delivery{Kind: kindOf(p.Step), From: from, Result: "refused", Reason: "missing or wrong X-Twilio-Signature"})
		in.log.Warn("phone webhook refused: bad signature", "trigger", t.ID)
		return "", errs.E(errs.Forbidden, "the X-Twilio-Signature is missing or does not match this trigger's auth token")
	}
	switch p.Step {
	case "call":
		sms, _ := in.PhoneURLs(t.Token)
		action := strings.TrimSuffix(sms, "/sms") + "/call/speech"
		prompt := t.Prompt
		if prompt == "" {
			prompt = DefaultPrompt
		}
		return twiml(`<Gather input="speech" action="` + html.EscapeString(action) + `" method="POST"><Say>` +
			html.EscapeString(prompt) + `</Say></Gather>`), nil
	case "sms":
		body := p.Params.Get("Body")
		vars := map[string]any{"sms_transcript": body, "data": body,
			"sms": map[string]any{"from": from, "to": to, "body": body, "message_sid": p.Params.Get("MessageSid")}}
		if err := in.runPhone(t, "sms", from, vars); err != nil {
			return "", err
		}
		return twiml(""), nil
	case "speech":
		speech := p.Params.Get("SpeechResult")
		if strings.TrimSpace(speech) == "" {
			in.recordPhone(t, store.Delivery{Kind: "call", From: from, Result: "filtered", Reason: "the caller said nothing that was recognised"})
			return twiml(`<Say>Sorry, nothing was heard. Goodbye.</Say>`), nil
		}
		vars := map[string]any{"phone_transcript": speech, "data": speech,
			"call": map[string]any{"from": from, "to": to, "speech": speech, "call_sid": p.Params.Get("CallSid"),
				"confidence": p.Params.Get("Confidence")}}
		if err := in.runPhone(t, "call", from, vars); err != nil {
			return "", err
		}
		return twiml(`<Say>Thank you. Goodbye.</Say>`), nil
	}
	return "", errs.E(errs.NotFound, "no such phone webhook step %q", p.Step)
}

func kindOf(step string) string {
	if step == "sms" {
		return "sms"
	}
	return "call"
}

// runPhone queues the trigger's script with vars and records the delivery.
func (in *Inbound) runPhone(t store.InboundTrigger, source, from string, vars map[string]any) error {
	runID := store.NewID("r")
	d := store.Delivery{Kind: source, From: from}
	if _, err := in.start(t.Account, t.Script, source, t.ID, runID, vars); err != nil {
		_, msg := errs.Public(err)
		d.Result, d.Reason = "failed", msg
		in.recordPhone(t, d)
		return err
	}
	d.Result, d.RunID = "ran", runID
	in.recordPhone(t, d)
	in.log.Info("phone webhook started a run", "trigger", t.ID, "kind", source, "run", runID)
	return nil
}

func (in *Inbound) recordPhone(t store.InboundTrigger, d store.Delivery) {
	if err := in.cfg.Store.RecordDelivery(t.ID, d); err != nil && !errs.Is(err, errs.NotFound) {
		in.log.Error("record a phone delivery", "trigger", t.ID, "err", err)
	}
}

// twiml wraps verbs in a TwiML document.
func twiml(verbs string) string {
	if verbs == "" {
		return `<?xml version="1.0" encoding="UTF-8"?><Response/>`
	}
	return `<?xml version="1.0" encoding="UTF-8"?><Response>` + verbs + `</Response>`
}
