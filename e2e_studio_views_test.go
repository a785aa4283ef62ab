package main

// End-to-end tests of the studio's live view, run filters, script triggers and keys page, in the
// real Chromium against the real binary (the harness is in e2e_studio_test.go).

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
)

// statusWith answers the status of GET path sent with bearer as the key.
func statusWith(t *testing.T, s *rodeoServer, path, bearer string) int {
	t.Helper()
	req, err := http.NewRequest("GET", s.base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+bearer)
	res, err := client.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	res.Body.Close()
	return res.StatusCode
}

// waitEval waits up to 20 s for js (a function returning a boolean) to be true on the page.
func (p *studioPage) waitEval(t *testing.T, what, js string) {
	t.Helper()
	if err := p.Timeout(20 * time.Second).Wait(rod.Eval(js)); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// noteText is the text of selector now, or "" (for failure messages).
func (p *studioPage) noteText(selector string) string {
	if el, err := p.Timeout(time.Second).Element(selector); err == nil {
		txt, _ := el.Text()
		return txt
	}
	return ""
}

// studioLive: the page of a running browser run shows its tab live, frames from the
// screencast, and the live view goes away when the run ends (canceled from the page).
func studioLive(t *testing.T, e *e2e, s *rodeoServer, p *studioPage) {
	id := s.startRun(t, "watch the ticker", []map[string]any{
		{"type": "open tab", "target": e.site + "/ticker.html"},
		{"type": "delay", "time": 60}, // canceled from the page once the live view has shown it
	})
	p.MustNavigate(s.base + "/#/runs/" + id).MustWaitLoad()
	p.waitEval(t, "no live frame shown (note: "+p.noteText("#live-note")+")", `() => { const i = document.querySelector('#live-frame');
		return !!i && !i.hidden && i.complete && i.naturalWidth > 0 && i.src.startsWith('data:image/jpeg;base64,'); }`)
	p.wait(t, "#live-note", "^Live: \\d+×\\d+ page, \\d+ frames? so far")
	p.shot(t, "studio-live")
	p.MustElement("#cancel-run").MustClick()
	p.wait(t, ".run-head .badge", "canceled")
	p.waitEval(t, "the live view stayed after the run ended", `() => document.querySelector('section.live').hidden`)
	// The stream is listed once it is over: fetched at its own path, the key never in a URL.
	p.waitEval(t, "no request to the live stream", `() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/runs/`+id+`/live'))`)
	if u := p.MustEval(`() => performance.getEntriesByType('resource').map((e) => e.name).join(' ')`).Str(); strings.Contains(u, s.key) {
		t.Errorf("the key is in a request URL: %s", u)
	}
	p.checkNoErrors(t, "live view")
}

// studioFilters: the runs list asks the server for the chosen status, script and source, and
// shows only what matches.
func studioFilters(t *testing.T, s *rodeoServer, p *studioPage) {
	p.MustNavigate(s.base + "/#/runs").MustWaitLoad()
	p.wait(t, "table.runs tbody tr", ".")
	choose(p.MustElement("#filter-script"), "studio signup")
	p.waitEval(t, "the script filter", `() => { const rows = [...document.querySelectorAll('table.runs tbody tr')];
		return rows.length > 0 && rows.every((r) => r.children[2].textContent.startsWith('studio signup v')); }`)
	choose(p.MustElement("#filter-source"), "trigger")
	choose(p.MustElement("#filter-status"), "succeeded")
	p.waitEval(t, "status, script and source together", `() => { const rows = [...document.querySelectorAll('table.runs tbody tr')];
		return rows.length > 0 && rows.every((r) => r.children[3].textContent === 'trigger' && r.querySelector('.badge').textContent === 'succeeded'); }`)
	// The list asked the server for exactly these runs.
	p.waitEval(t, "no GET /runs with the three filters", `() => performance.getEntriesByType('resource').some((e) =>
		e.name.includes('/runs?') && ['status=succeeded', 'script=studio+signup', 'source=trigger'].every((q) => e.name.includes(q)))`)
	p.shot(t, "studio-runs-filtered")
	choose(p.MustElement("#filter-script"), "-")
	p.wait(t, "main p.hint", "No run matches")
	for _, f := range []string{"#filter-script", "#filter-source", "#filter-status"} {
		choose(p.MustElement(f), "")
	}
	p.wait(t, "table.runs tbody tr td:nth-child(2)", "watch the ticker")
	p.checkNoErrors(t, "filters")
}

// studioTriggers: the script page lists a schedule with its next fire times, pauses, resumes and
// deletes it, shows the server's error for a bad timing, and lists an email trigger.
func studioTriggers(t *testing.T, s *rodeoServer, p *studioPage) {
	if st, _, raw := s.post(t, "/triggers/email", map[string]any{"name": "studio signup"}); st != 201 {
		t.Fatalf("POST /triggers/email: %d %s", st, raw)
	}
	p.MustNavigate(s.base + "/#/scripts/studio%20signup").MustWaitLoad()
	p.wait(t, "#schedules p.hint", "No schedule")
	p.wait(t, "#inbound-triggers li", "mail to t-")
	choose(p.MustElement("#schedule-kind"), "every")
	p.MustElement("#schedule-value").MustInput("1h")
	p.MustElement("#schedule-tz").MustInput("UTC")
	p.MustElement("#add-schedule-button").MustClick()
	row := "#schedules tr[data-schedule]"
	p.wait(t, row+" td:first-child", "^every 1h$")
	if n := len(p.MustElements(row + " ul.next-times li")); n != 3 {
		t.Errorf("%d next fire times shown, want 3", n)
	}
	p.wait(t, row+" ul.next-times li", "\\((in (59|60) min|in 1 h)\\)$")
	var sc struct {
		Triggers []struct {
			Kind    string `json:"kind"`
			Trigger struct {
				ID   string   `json:"id"`
				Next []string `json:"next"`
			} `json:"trigger"`
		} `json:"triggers"`
	}
	s.getJSON(t, "/scripts/studio%20signup/triggers", 200, &sc)
	var id string
	for _, tr := range sc.Triggers {
		if tr.Kind == "schedule" {
			id = tr.Trigger.ID
			if title := p.MustElement(row + " ul.next-times li").MustAttribute("title"); title == nil || *title != tr.Trigger.Next[0] {
				t.Errorf("the first next time shown is %v, the API says %s", title, tr.Trigger.Next[0])
			}
		}
	}
	if id == "" {
		t.Fatalf("the API lists no schedule: %+v", sc)
	}
	p.shot(t, "studio-triggers")

	p.MustElement(row + " [data-act=pause]").MustClick()
	p.wait(t, row+" .badge", "paused")
	p.wait(t, row+" td:nth-child(3)", "none while paused")
	p.MustElement(row + " [data-act=resume]").MustClick()
	p.wait(t, row+" .badge", "active")

	// A timing the server cannot read: its problem is shown, nothing is added.
	p.mu.Lock()
	p.quiet = true // the refused POST's 400 is logged by Chrome as a failed request
	p.mu.Unlock()
	choose(p.MustElement("#schedule-kind"), "cron")
	p.MustElement("#schedule-value").MustInput("every so often")
	p.MustElement("#add-schedule-button").MustClick()
	p.wait(t, "#add-schedule .field-error p", "cron")
	p.mu.Lock()
	p.quiet = false
	p.mu.Unlock()
	if n := len(p.MustElements(row)); n != 1 {
		t.Errorf("%d schedules after a refused one, want 1", n)
	}

	del := p.MustElement(row + " [data-act=delete]")
	del.MustClick()
	p.wait(t, row+" [data-act=delete]", "Really delete")
	p.MustElement(row + " [data-act=delete]").MustClick()
	p.wait(t, "#schedules p.hint", "No schedule")
	if st, _, _ := s.get(t, "/schedules/"+id); st != 404 {
		t.Errorf("the deleted schedule answers %d, want 404", st)
	}
	p.checkNoErrors(t, "script triggers")
}

// studioKeys: the keys page creates a key and shows its secret once, the key works, and
// revoking it from the page stops it.
func studioKeys(t *testing.T, s *rodeoServer, p *studioPage) {
	p.MustNavigate(s.base + "/#/keys").MustWaitLoad()
	p.wait(t, "tr[data-key] .badge", "this studio")
	p.MustElement("#key-label").MustInput("e2e laptop")
	p.MustElement("#create-key button[type=submit]").MustClick()
	secret := p.wait(t, "#new-key-secret", "^rk_").MustText()
	if st := statusWith(t, s, "/runs", secret); st != 200 {
		t.Fatalf("the key made in the studio answers %d", st)
	}
	if strings.Contains(p.MustEval(`() => JSON.stringify(sessionStorage) + JSON.stringify(localStorage) + location.href`).Str(), secret) {
		t.Error("the new secret was stored or put in the URL")
	}
	var list struct {
		Keys []struct {
			ID, Label string
		}
	}
	s.getJSON(t, "/keys", 200, &list)
	var id string
	for _, k := range list.Keys {
		if k.Label == "e2e laptop" {
			id = k.ID
		}
	}
	if id == "" {
		t.Fatalf("GET /keys lists no key labelled e2e laptop: %+v", list)
	}
	row := `tr[data-key="` + id + `"]`
	p.wait(t, row+" td:nth-child(2)", "e2e laptop")
	p.MustElement("#dismiss-key").MustClick() // "I have copied it": the secret is gone from the page
	if strings.Contains(p.MustElement("main").MustText(), secret) {
		t.Error("the secret is still on the page after it was dismissed")
	}
	p.MustElement(row + " [data-act=revoke]").MustClick()
	p.wait(t, row+" [data-act=revoke]", "Really revoke")
	p.MustElement(row + " [data-act=revoke]").MustClick()
	p.wait(t, row+" .badge", "revoked")
	if st := statusWith(t, s, "/runs", secret); st != 401 {
		t.Errorf("the revoked key answers %d, want 401", st)
	}
	p.shot(t, "studio-keys")
	p.checkNoErrors(t, "keys")
}
