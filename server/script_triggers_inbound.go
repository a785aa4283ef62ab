package server

import "github.com/rodeo-run/rodeo/store"

// The inbound kinds of GET /scripts/{name}/triggers: email addresses, phone webhooks, watches.
func init() {
	for _, k := range []struct {
		kind string
		list func(s *Server, account, name string) ([]ScriptTrigger, error)
	}{{"email", emailScriptTriggers}, {"phone", phoneScriptTriggers}, {"watch", watchScriptTriggers}} {
		scriptTriggerKinds = append(scriptTriggerKinds, scriptTriggerKind{Kind: k.kind, List: func(s *Server, account, name string) ([]any, error) {
			ts, err := k.list(s, account, name)
			out := make([]any, len(ts))
			for i, t := range ts {
				out[i] = t
			}
			return out, err
		}})
	}
}

// ScriptTrigger is one inbound trigger's view in the list: its kind, id and the fields that
// say how it fires (an address, URLs, a URL and a condition).
type ScriptTrigger map[string]any

func emailScriptTriggers(s *Server, account, name string) ([]ScriptTrigger, error) {
	list, err := s.cfg.Store.ListInboundTriggers(account, store.InboundEmail, name)
	if err != nil || len(list) == 0 {
		return nil, err
	}
	out := make([]ScriptTrigger, 0, len(list))
	for _, t := range list {
		b, err := s.emailView(t, false)
		if err != nil {
			return nil, err
		}
		out = append(out, ScriptTrigger{"kind": "email", "id": t.ID, "address": b.Address, "from": t.From, "subject": t.Subject,
			"created": t.Created, "url": "/triggers/email/" + t.ID})
	}
	return out, nil
}

func phoneScriptTriggers(s *Server, account, name string) ([]ScriptTrigger, error) {
	list, err := s.cfg.Store.ListInboundTriggers(account, store.InboundPhone, name)
	if err != nil || len(list) == 0 {
		return nil, err
	}
	out := make([]ScriptTrigger, 0, len(list))
	for _, t := range list {
		b, err := s.phoneView(t, false)
		if err != nil {
			return nil, err
		}
		out = append(out, ScriptTrigger{"kind": "phone", "id": t.ID, "sms_url": b.SMSURL, "call_url": b.CallURL, "signed": b.Signed,
			"created": t.Created, "url": "/triggers/phone/" + t.ID})
	}
	return out, nil
}

func watchScriptTriggers(s *Server, account, name string) ([]ScriptTrigger, error) {
	list, err := s.cfg.Store.ListWatches(account, name)
	if err != nil {
		return nil, err
	}
	out := make([]ScriptTrigger, 0, len(list))
	for _, w := range list {
		out = append(out, ScriptTrigger{"kind": "watch", "id": w.ID, "watch_url": w.URL, "condition": w.Condition, "every": w.Every,
			"paused": w.Paused, "created": w.Created, "url": "/watches/" + w.ID})
	}
	return out, nil
}
