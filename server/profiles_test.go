package server_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/store"
)

// do sends a request with an optional JSON body and the key as a bearer token.
func (s *sheetServer) do(t *testing.T, method, path, key, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, s.base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, raw
}

func errCode(raw []byte) string {
	var e struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	_ = json.Unmarshal(raw, &e)
	return e.Error.Code
}

func TestProfilesHTTP(t *testing.T) {
	s := newSheetServer(t)
	agent := func(profile string) string {
		return `{"goal": "g", "profile": ` + profile + `, "json_output": [{"type": "delay", "time": 0.6}]}`
	}
	// Bad names are refused with invalid_profile, and nothing is stored.
	for _, bad := range []string{`"has space"`, `"../up"`, `"-lead"`, `"` + strings.Repeat("x", 65) + `"`} {
		if st, raw := s.do(t, "POST", "/agents", s.key, agent(bad)); st != 400 || errCode(raw) != "invalid_profile" {
			t.Errorf("POST /agents with profile %s: %d %s", bad, st, raw)
		}
		if st, raw := s.do(t, "PUT", "/scripts/saved", s.key, agent(bad)); st != 400 || errCode(raw) != "invalid_profile" {
			t.Errorf("PUT /scripts with profile %s: %d %s", bad, st, raw)
		}
	}
	if recs, _ := s.db.ListRuns(store.DefaultAccount, 0, ""); len(recs) != 0 {
		t.Errorf("%d runs stored for refused requests", len(recs))
	}
	if _, err := s.db.GetScript(store.DefaultAccount, "saved", 0); err == nil {
		t.Error("a script with a bad profile was saved")
	}
	// A saved script keeps its profile.
	if st, raw := s.do(t, "PUT", "/scripts/saved", s.key, agent(`"work"`)); st != 201 {
		t.Fatalf("PUT /scripts/saved: %d %s", st, raw)
	}
	if st, raw := s.do(t, "GET", "/scripts/saved", s.key, ""); st != 200 || !strings.Contains(string(raw), `"profile":"work"`) {
		t.Errorf("GET /scripts/saved: %d %s", st, raw)
	}

	// What a run saved is listed without its values.
	cookies := `[{"name":"session","value":"s3cret-token","domain":"127.0.0.1","path":"/"}]`
	if _, err := s.db.SaveProfile(store.Profile{Account: store.DefaultAccount, Name: "work", Cookies: json.RawMessage(cookies),
		LocalStorage: map[string]map[string]string{"http://127.0.0.1:9": {"k": "v"}}, LastRun: "r_1"}); err != nil {
		t.Fatal(err)
	}
	st, raw := s.do(t, "GET", "/profiles", s.key, "")
	var list struct {
		Profiles []struct {
			Name    string   `json:"name"`
			Cookies int      `json:"cookies"`
			Origins []string `json:"origins"`
			Runs    int      `json:"runs"`
			InUse   string   `json:"in_use"`
		} `json:"profiles"`
	}
	if err := json.Unmarshal(raw, &list); st != 200 || err != nil || len(list.Profiles) != 1 {
		t.Fatalf("GET /profiles: %d %s", st, raw)
	}
	if p := list.Profiles[0]; p.Name != "work" || p.Cookies != 1 || len(p.Origins) != 1 || p.Origins[0] != "http://127.0.0.1:9" || p.Runs != 1 || p.InUse != "" {
		t.Errorf("listed profile %+v", p)
	}
	if strings.Contains(string(raw), "s3cret-token") {
		t.Errorf("GET /profiles shows a cookie's value: %s", raw)
	}
	if st, raw := s.do(t, "GET", "/profiles", s.otherKey, ""); st != 200 || !strings.Contains(string(raw), `"profiles":[]`) {
		t.Errorf("another account's profiles: %d %s", st, raw)
	}

	// A profile in use cannot be deleted; once its run has ended it can.
	st, raw = s.do(t, "POST", "/agents?wait=false", s.key, agent(`"work"`))
	if st != 202 {
		t.Fatalf("run on the profile: %d %s", st, raw)
	}
	if st, raw := s.do(t, "DELETE", "/profiles/work", s.key, ""); st != 503 || errCode(raw) != "busy" {
		t.Errorf("DELETE of a profile in use: %d %s", st, raw)
	}
	if st, raw := s.do(t, "POST", "/agents", s.key, agent(`"work"`)); st != 503 || errCode(raw) != "busy" {
		t.Errorf("a second direct run on the profile in use: %d %s", st, raw)
	}
	if st, raw := s.do(t, "DELETE", "/profiles/work", s.otherKey, ""); st != 404 {
		t.Errorf("another account deletes the profile: %d %s", st, raw)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		st, raw := s.do(t, "DELETE", "/profiles/work", s.key, "")
		if st == 200 {
			break
		}
		if st != 503 || time.Now().After(deadline) {
			t.Fatalf("DELETE /profiles/work after its run: %d %s", st, raw)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if st, raw := s.do(t, "DELETE", "/profiles/work", s.key, ""); st != 404 || errCode(raw) != "not_found" {
		t.Errorf("DELETE of a deleted profile: %d %s", st, raw)
	}
	if st, raw := s.do(t, "DELETE", "/profiles/has%20space", s.key, ""); st != 400 || errCode(raw) != "invalid_profile" {
		t.Errorf("DELETE with a bad name: %d %s", st, raw)
	}
}
