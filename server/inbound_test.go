package server_test

import (
	"encoding/json"
	"io"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/server"
	"github.com/rodeo-run/rodeo/store"
	"github.com/rodeo-run/rodeo/triggers"
)

const inboundPublicURL = "https://rodeo.example.com"

// withInbound attaches inbound triggers (mail domain in.rodeo.test) to the fixture's server and
// saves the script "orders". Watches are not started: these tests check the HTTP contract.
func withInbound(t *testing.T, f *fixture) *triggers.Inbound {
	t.Helper()
	in := triggers.New(triggers.Config{Engine: f.engine, Store: f.db, MailDomain: "in.rodeo.test", PublicURL: inboundPublicURL})
	server.AttachInbound(f.engine, in)
	t.Cleanup(func() { server.AttachInbound(f.engine, nil); in.Close() })
	if r := f.do(t, "PUT", "/scripts/orders", script(f.key, "orders", `{"type":"print","text":"{{data}}"}`), ""); r.status != 201 {
		t.Fatalf("save script: %d %s", r.status, r.raw)
	}
	return in
}

func TestEmailTriggers_CreateShowListDelete(t *testing.T) {
	f := newFixture(t)
	withInbound(t, f)
	r := f.do(t, "POST", "/triggers/email", `{"key":"`+f.key+`","name":"orders","from":"@example.com","subject":"invoice"}`, "")
	if r.status != 201 {
		t.Fatalf("create: %d %s", r.status, r.raw)
	}
	id, _ := r.body["id"].(string)
	addr, _ := r.body["address"].(string)
	if !strings.HasPrefix(id, "em_") || !strings.HasPrefix(addr, "t-") || !strings.HasSuffix(addr, "@in.rodeo.test") ||
		r.body["from"] != "@example.com" || r.body["subject"] != "invoice" || r.body["name"] != "orders" {
		t.Errorf("create: %s", r.raw)
	}
	again := f.do(t, "POST", "/triggers/email", `{"name":"orders"}`, f.key)
	if again.status != 201 || again.body["address"] == addr {
		t.Errorf("a second address for the same script must differ: %s", again.raw)
	}

	checkError(t, f.do(t, "POST", "/triggers/email", `{"name":"nope"}`, f.key), 404, "not_found", nil)
	checkError(t, f.do(t, "POST", "/triggers/email", `{"name":""}`, f.key), 400, "invalid_config", []detail{{-1, "name"}})
	checkError(t, f.do(t, "POST", "/triggers/email", `{"name":"orders","from":7}`, f.key), 400, "invalid_config", []detail{{-1, "from"}})
	checkError(t, f.do(t, "POST", "/triggers/email", `{"name":"orders"}`, ""), 401, "invalid_key", nil)

	r = f.do(t, "GET", "/triggers/email/"+id, "", f.key)
	if r.status != 200 || r.body["address"] != addr {
		t.Fatalf("show: %d %s", r.status, r.raw)
	}
	if d, ok := r.body["deliveries"].([]any); !ok || len(d) != 0 {
		t.Errorf("show lists deliveries (none yet): %s", r.raw)
	}
	checkError(t, f.do(t, "GET", "/triggers/email/"+id, "", f.otherKey), 404, "not_found", nil)
	r = f.do(t, "GET", "/triggers/email", "", f.key)
	if list, _ := r.body["triggers"].([]any); r.status != 200 || len(list) != 2 {
		t.Errorf("list: %d %s", r.status, r.raw)
	}
	if r := f.do(t, "GET", "/triggers/email", "", f.otherKey); len(r.body["triggers"].([]any)) != 0 {
		t.Errorf("another account sees the addresses: %s", r.raw)
	}
	checkError(t, f.do(t, "DELETE", "/triggers/email/"+id, "", f.otherKey), 404, "not_found", nil)
	if r := f.do(t, "DELETE", "/triggers/email/"+id, "", f.key); r.status != 200 || r.body["deleted"] != true {
		t.Errorf("delete: %d %s", r.status, r.raw)
	}
	checkError(t, f.do(t, "GET", "/triggers/email/"+id, "", f.key), 404, "not_found", nil)
}

// formPost posts a form to the app as Twilio does, signed with authToken when it is not empty.
func (f *fixture) formPost(t *testing.T, path string, params url.Values, authToken string) response {
	t.Helper()
	req := httptest.NewRequest("POST", path, strings.NewReader(params.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if authToken != "" {
		req.Header.Set("X-Twilio-Signature", triggers.TwilioSignature(authToken, inboundPublicURL+path, params))
	}
	res, err := f.srv.App().Test(req, -1)
	if err != nil {
		t.Fatalf("POST %s: %v", path, err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	out := response{status: res.StatusCode, header: res.Header, raw: raw}
	if strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		_ = json.Unmarshal(raw, &out.body)
	}
	return out
}

func TestPhoneTriggers_WebhooksCheckTwilioSignatures(t *testing.T) {
	f := newFixture(t)
	withInbound(t, f)
	r := f.do(t, "POST", "/triggers/phone", `{"name":"orders","auth_token":"tw-secret-123","prompt":"What do you need?"}`, f.key)
	if r.status != 201 {
		t.Fatalf("create: %d %s", r.status, r.raw)
	}
	id, _ := r.body["id"].(string)
	smsURL, _ := r.body["sms_url"].(string)
	callURL, _ := r.body["call_url"].(string)
	if !strings.HasPrefix(smsURL, inboundPublicURL+"/triggers/phone/") || !strings.HasSuffix(smsURL, "/sms") ||
		strings.TrimSuffix(callURL, "/call") != strings.TrimSuffix(smsURL, "/sms") || r.body["signed"] != true {
		t.Errorf("create: %s", r.raw)
	}
	if strings.Contains(string(r.raw), "tw-secret-123") {
		t.Errorf("the auth token is shown: %s", r.raw)
	}
	smsPath := strings.TrimPrefix(smsURL, inboundPublicURL)
	params := url.Values{"From": {"+15551230001"}, "To": {"+15559870002"}, "Body": {"where is order 42?"}, "MessageSid": {"SM1"}}

	bad := f.formPost(t, smsPath, params, "wrong-token")
	checkError(t, bad, 403, "forbidden", nil)
	checkError(t, f.formPost(t, smsPath, params, ""), 403, "forbidden", nil)
	if runs, _ := f.db.ListRuns(store.DefaultAccount, 10, ""); len(runs) != 0 {
		t.Fatalf("a refused webhook started %d runs", len(runs))
	}

	ok := f.formPost(t, smsPath, params, "tw-secret-123")
	if ok.status != 200 || !strings.HasPrefix(ok.header.Get("Content-Type"), "application/xml") || !strings.HasSuffix(string(ok.raw), "<Response/>") {
		t.Fatalf("signed SMS: %d %s %s", ok.status, ok.header.Get("Content-Type"), ok.raw)
	}
	call := f.formPost(t, strings.TrimPrefix(callURL, inboundPublicURL), url.Values{"From": {"+1555"}, "CallSid": {"CA1"}}, "tw-secret-123")
	if call.status != 200 || !strings.Contains(string(call.raw), `<Gather input="speech" action="`+callURL+`/speech"`) ||
		!strings.Contains(string(call.raw), "<Say>What do you need?</Say>") {
		t.Errorf("call: %d %s", call.status, call.raw)
	}
	checkError(t, f.formPost(t, "/triggers/phone/"+strings.Repeat("a", 32)+"/sms", params, ""), 404, "not_found", nil)

	r = f.do(t, "GET", "/triggers/phone/"+id, "", f.key)
	deliveries, _ := r.body["deliveries"].([]any)
	if r.status != 200 || len(deliveries) != 3 || strings.Contains(string(r.raw), "tw-secret-123") {
		t.Fatalf("show: %d %s", r.status, r.raw)
	}
	last := deliveries[2].(map[string]any)
	runID, _ := last["run_id"].(string)
	if last["result"] != "ran" || deliveries[0].(map[string]any)["result"] != "refused" || runID == "" {
		t.Errorf("deliveries: %s", r.raw)
	}
	doc := waitFinal(t, f, runID)
	if doc.Status != "succeeded" || doc.Source != "sms" || doc.Data["data"] != "where is order 42?" || doc.Trigger == nil || doc.Trigger.ID != id {
		t.Errorf("run: %+v", doc)
	}
}

func waitFinal(t *testing.T, f *fixture, id string) scripts.Doc {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		d, err := f.engine.Get(store.DefaultAccount, id)
		if _, active := f.engine.Active(store.DefaultAccount, id); err == nil && scripts.Final(d.Status) && !active {
			return d
		}
		if time.Now().After(deadline) {
			t.Fatalf("run %s did not finish: %+v %v", id, d, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestWatches_CreateValidatePauseDelete(t *testing.T) {
	f := newFixture(t)
	withInbound(t, f)
	r := f.do(t, "POST", "/watches", `{"name":"orders","url":"ftp://x","condition":"Shipped","every":5,"cooldown":-1}`, f.key)
	checkError(t, r, 400, "invalid_config", []detail{{-1, "url"}, {-1, "condition"}, {-1, "every"}, {-1, "cooldown"}})
	checkError(t, f.do(t, "POST", "/watches", `{"name":"orders","url":"http://127.0.0.1:1/","condition":"the price is below 5","every":"often"}`, f.key),
		400, "invalid_config", []detail{{-1, "every"}})
	checkError(t, f.do(t, "POST", "/watches", `{"name":"nope","url":"http://127.0.0.1:1/","condition":"the price is below 5"}`, f.key), 404, "not_found", nil)

	r = f.do(t, "POST", "/watches", `{"name":"orders","url":"http://127.0.0.1:1/order","condition":"the status says Shipped","every":30,"cooldown":600}`, f.key)
	if r.status != 201 {
		t.Fatalf("create: %d %s", r.status, r.raw)
	}
	id, _ := r.body["id"].(string)
	reads, _ := r.body["reads"].(map[string]any)
	if !strings.HasPrefix(id, "wt_") || r.body["every"] != 30.0 || r.body["cooldown"] != 600.0 || r.body["paused"] != false ||
		reads["target"] != "the status" || reads["op"] != "says" || reads["text"] != "Shipped" || r.body["next_check"] == nil {
		t.Errorf("create: %s", r.raw)
	}
	if r := f.do(t, "POST", "/watches", `{"name":"orders","url":"http://127.0.0.1:1/","condition":"the price is below 5"}`, f.key); r.body["every"] != 60.0 {
		t.Errorf("default interval: %s", r.raw)
	}
	r = f.do(t, "POST", "/watches/"+id+"/pause", "", f.key)
	if r.status != 200 || r.body["paused"] != true || r.body["next_check"] != nil {
		t.Errorf("pause: %d %s", r.status, r.raw)
	}
	checkError(t, f.do(t, "POST", "/watches/"+id+"/pause", "", f.otherKey), 404, "not_found", nil)
	if r := f.do(t, "POST", "/watches/"+id+"/resume", "", f.key); r.status != 200 || r.body["paused"] != false {
		t.Errorf("resume: %d %s", r.status, r.raw)
	}
	r = f.do(t, "GET", "/watches/"+id, "", f.key)
	if checks, ok := r.body["checks"].([]any); r.status != 200 || !ok || len(checks) != 0 {
		t.Errorf("show: %d %s", r.status, r.raw)
	}
	if r := f.do(t, "GET", "/watches", "", f.key); len(r.body["watches"].([]any)) != 2 {
		t.Errorf("list: %s", r.raw)
	}
	if r := f.do(t, "DELETE", "/watches/"+id, "", f.key); r.status != 200 {
		t.Errorf("delete: %d %s", r.status, r.raw)
	}
	checkError(t, f.do(t, "GET", "/watches/"+id, "", f.key), 404, "not_found", nil)
}

func TestScriptTriggers_ListsWhatStartsAScript(t *testing.T) {
	f := newFixture(t)
	withInbound(t, f)
	for _, c := range []struct{ path, body string }{
		{"/triggers/email", `{"name":"orders"}`},
		{"/triggers/phone", `{"name":"orders"}`},
		{"/watches", `{"name":"orders","url":"http://127.0.0.1:1/","condition":"the price is below 5"}`},
	} {
		if r := f.do(t, "POST", c.path, c.body, f.key); r.status != 201 {
			t.Fatalf("POST %s: %d %s", c.path, r.status, r.raw)
		}
	}
	if r := f.do(t, "PUT", "/scripts/other", script(f.key, "other", `{"type":"print","text":"x"}`), ""); r.status != 201 {
		t.Fatal(r.status)
	}
	r := f.do(t, "GET", "/scripts/orders/triggers", "", f.key)
	list, _ := r.body["triggers"].([]any)
	if r.status != 200 || len(list) != 3 {
		t.Fatalf("triggers: %d %s", r.status, r.raw)
	}
	var kinds []string
	for _, x := range list {
		kinds = append(kinds, x.(map[string]any)["kind"].(string))
	}
	view := func(i int) map[string]any { return list[i].(map[string]any)["trigger"].(map[string]any) }
	if strings.Join(kinds, ",") != "email,phone,watch" || view(0)["address"] == nil || view(1)["sms_url"] == nil {
		t.Errorf("triggers: %s", r.raw)
	}
	if r := f.do(t, "GET", "/scripts/other/triggers", "", f.key); r.status != 200 || len(r.body["triggers"].([]any)) != 0 {
		t.Errorf("a script with no triggers: %d %s", r.status, r.raw)
	}
	checkError(t, f.do(t, "GET", "/scripts/nope/triggers", "", f.key), 404, "not_found", nil)
	checkError(t, f.do(t, "GET", "/scripts/orders/triggers", "", f.otherKey), 404, "not_found", nil)
}
