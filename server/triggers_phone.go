package server

import (
	"net/url"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/store"
	"github.com/rodeo-run/rodeo/triggers"
)

// Phone triggers (Twilio's webhook format): POST /triggers/phone {key, name, auth_token?,
// prompt?} makes a pair of webhook URLs with an unguessable token, to paste into a Twilio
// number's "A message comes in" and "A call comes in" settings. GET /triggers/phone lists the
// account's, GET /triggers/phone/{id} shows one with its last deliveries, DELETE removes one.
// The webhooks themselves (POST /triggers/phone/{token}/sms, …/call, …/call/speech) take no API
// key: the token in the path, and the signature when an auth token is set, are the credential.

func init() {
	mounts = append(mounts, func(s *Server) {
		s.app.Post("/triggers/phone", s.createPhoneTrigger())
		inboundRoutes(s, "/triggers/phone", store.InboundPhone, s.phoneView)
		s.app.Post("/triggers/phone/:token/sms", s.phoneWebhook("sms"))
		s.app.Post("/triggers/phone/:token/call", s.phoneWebhook("call"))
		s.app.Post("/triggers/phone/:token/call/speech", s.phoneWebhook("speech"))
	})
}

type phoneTriggerBody struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	SMSURL  string `json:"sms_url"`
	CallURL string `json:"call_url"`
	// Signed says whether posts must carry a valid X-Twilio-Signature (an auth token is set;
	// the token itself is never shown).
	Signed     bool              `json:"signed"`
	Prompt     string            `json:"prompt"`
	Created    time.Time         `json:"created"`
	Deliveries *[]store.Delivery `json:"deliveries,omitempty"`
}

func (s *Server) phoneView(t store.InboundTrigger, deliveries bool) (phoneTriggerBody, error) {
	in, err := s.inbound()
	if err != nil {
		return phoneTriggerBody{}, err
	}
	sms, call := in.PhoneURLs(t.Token)
	prompt := t.Prompt
	if prompt == "" {
		prompt = triggers.DefaultPrompt
	}
	b := phoneTriggerBody{ID: t.ID, Name: t.Script, SMSURL: sms, CallURL: call, Signed: t.AuthToken != "", Prompt: prompt, Created: t.Created}
	if deliveries {
		b.Deliveries = deliveriesOf(t)
	}
	return b, nil
}

// phoneTriggerRequest is the body of POST /triggers/phone.
type phoneTriggerRequest struct {
	Key       string `json:"key"`
	Name      string `json:"name"`
	AuthToken string `json:"auth_token"`
	Prompt    string `json:"prompt"`
}

func (s *Server) createPhoneTrigger() fiber.Handler {
	return createInbound(s, "{key, name, auth_token, prompt}", func(r *phoneTriggerRequest) string { return r.Key },
		func(in *triggers.Inbound, account string, r *phoneTriggerRequest) (store.InboundTrigger, error) {
			return in.CreatePhone(account, r.Name, r.AuthToken, r.Prompt)
		}, s.phoneView)
}

// phoneWebhook answers Twilio's form post for step ("sms", "call" or "speech") with TwiML. The
// URL checked against the signature is the public URL plus the path and query as received.
func (s *Server) phoneWebhook(step string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		in, err := s.inbound()
		if err != nil {
			return err
		}
		params, err := url.ParseQuery(string(c.Body()))
		if err != nil {
			return errs.E(errs.InvalidConfig, "the body must be a form post (application/x-www-form-urlencoded): %v", err)
		}
		out, err := in.Phone(triggers.PhonePost{Token: c.Params("token"), Step: step,
			URL: in.Config().PublicURL + c.OriginalURL(), Params: params, Signature: c.Get("X-Twilio-Signature")})
		if err != nil {
			return err
		}
		c.Set(fiber.HeaderContentType, "application/xml; charset=utf-8")
		return c.SendString(out)
	}
}
