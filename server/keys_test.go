package server_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// keyOf decodes one key view.
type keyOf struct {
	ID      string `json:"id"`
	Account string `json:"account"`
	Prefix  string `json:"prefix"`
	Label   string `json:"label"`
	Revoked bool   `json:"revoked"`
	Current bool   `json:"current"`
	Secret  string `json:"secret"`
}

func listedKeys(t *testing.T, f *fixture, bearer string) []keyOf {
	t.Helper()
	r := f.do(t, "GET", "/keys", "", bearer)
	var out struct{ Keys []keyOf }
	if r.status != 200 || json.Unmarshal(r.raw, &out) != nil {
		t.Fatalf("GET /keys: %d %s", r.status, r.raw)
	}
	if strings.Contains(string(r.raw), `"hash"`) || strings.Contains(string(r.raw), `"secret"`) {
		t.Errorf("GET /keys shows secret material: %s", r.raw)
	}
	return out.Keys
}

// TestKeys_CreateListRevoke: a key creates a key of its account (the secret shown once, never
// cached), lists its account's keys only, revokes another of them, and revokes itself only when
// it says so.
func TestKeys_CreateListRevoke(t *testing.T) {
	f := newFixture(t)
	r := f.do(t, "POST", "/keys", `{"label":"studio laptop"}`, f.key)
	var made keyOf
	if r.status != 201 || json.Unmarshal(r.raw, &made) != nil {
		t.Fatalf("POST /keys: %d %s", r.status, r.raw)
	}
	if !strings.HasPrefix(made.Secret, "rk_") || made.Account != "default" || made.Label != "studio laptop" ||
		made.Revoked || !strings.HasPrefix(made.Secret, made.Prefix) || r.header.Get("Cache-Control") != "no-store" {
		t.Fatalf("created key %+v (Cache-Control %q)", made, r.header.Get("Cache-Control"))
	}
	if g := f.do(t, "GET", "/runs", "", made.Secret); g.status != 200 {
		t.Fatalf("the new key does not work: %d %s", g.status, g.raw)
	}
	if strings.Contains(f.logs.String(), made.Secret) {
		t.Error("the new secret is in the server's log")
	}

	keys := listedKeys(t, f, f.key)
	if len(keys) != 2 {
		t.Fatalf("%d keys listed for default, want its 2: %+v", len(keys), keys)
	}
	var self keyOf
	for _, k := range keys {
		if k.Account != "default" {
			t.Errorf("key %s of %s listed", k.ID, k.Account)
		}
		if k.Current {
			self = k
		}
	}
	if self.ID == "" || self.ID == made.ID {
		t.Fatalf("the calling key is not marked current: %+v", keys)
	}
	others := listedKeys(t, f, f.otherKey)
	if len(others) != 1 || others[0].Account != "other" {
		t.Fatalf("other's keys: %+v", others)
	}

	// Another account's key is not found; the caller's own key needs ?self=true.
	checkError(t, f.do(t, "DELETE", "/keys/"+others[0].ID, "", f.key), 404, "not_found", nil)
	checkError(t, f.do(t, "DELETE", "/keys/"+self.ID, "", f.key), 400, "invalid_config", []detail{{node: -1, field: "self"}})
	if g := f.do(t, "GET", "/runs", "", f.otherKey); g.status != 200 {
		t.Fatal("a refused revoke revoked another account's key")
	}

	// Revoking the made key: it stops working; the caller goes on.
	d := f.do(t, "DELETE", "/keys/"+made.ID, "", f.key)
	if d.status != 200 || d.body["revoked"] != true || d.body["revoked_at"] == nil {
		t.Fatalf("DELETE /keys/%s: %d %s", made.ID, d.status, d.raw)
	}
	checkError(t, f.do(t, "GET", "/runs", "", made.Secret), 401, "invalid_key", nil)
	if g := f.do(t, "GET", "/keys", "", f.key); g.status != 200 || !strings.Contains(string(g.raw), `"revoked":true`) {
		t.Errorf("the revoked key is not listed as revoked: %s", g.raw)
	}

	// ?self=true revokes the calling key.
	if d := f.do(t, "DELETE", "/keys/"+self.ID+"?self=true", "", f.key); d.status != 200 || d.body["current"] != true {
		t.Fatalf("self revoke: %d %s", d.status, d.raw)
	}
	checkError(t, f.do(t, "GET", "/keys", "", f.key), 401, "invalid_key", nil)
}

// TestKeys_BadRequestsCreateNothing: every refused creation leaves the store as it was.
func TestKeys_BadRequestsCreateNothing(t *testing.T) {
	f := newFixture(t)
	for _, tc := range []struct {
		name, body, bearer string
		status             int
		code, field        string
	}{
		{"other account", `{"account":"other"}`, f.key, 403, "forbidden", ""},
		{"unknown field", `{"lable":"x"}`, f.key, 400, "invalid_config", "lable"},
		{"label not a string", `{"label":5}`, f.key, 400, "invalid_config", "label"},
		{"label with a newline", `{"label":"a\nb"}`, f.key, 400, "invalid_config", "label"},
		{"label too long", `{"label":"` + strings.Repeat("x", 65) + `"}`, f.key, 400, "invalid_config", "label"},
		{"not JSON", `{`, f.key, 400, "invalid_json", ""},
		{"no key", `{}`, "", 401, "invalid_key", ""},
		{"wrong key", `{}`, "rk_" + strings.Repeat("x", 43), 401, "invalid_key", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var details []detail
			if tc.field != "" {
				details = []detail{{node: -1, field: tc.field}}
			}
			checkError(t, f.do(t, "POST", "/keys", tc.body, tc.bearer), tc.status, tc.code, details)
		})
	}
	if n, err := f.db.CountKeys(); err != nil || n != 2 {
		t.Errorf("%d keys after refused creations, want the fixture's 2 (%v)", n, err)
	}
	// The body's key works like the header, and an empty body is a key without a label.
	if r := f.do(t, "POST", "/keys", `{"key":"`+f.key+`"}`, ""); r.status != 201 {
		t.Errorf("body key: %d %s", r.status, r.raw)
	}
	if r := f.do(t, "POST", "/keys", "", f.key); r.status != 201 || r.body["label"] != nil {
		t.Errorf("empty body: %d %s", r.status, r.raw)
	}
}
