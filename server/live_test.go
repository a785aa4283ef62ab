package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image/jpeg"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/browser"
	"github.com/rodeo-run/rodeo/browser/browsertest"
	"github.com/rodeo-run/rodeo/scripts"
)

// withBrowsers gives the fixture's engine a real warm pool of one browser context.
func withBrowsers(t *testing.T, f *fixture) {
	t.Helper()
	pool, err := browser.NewPool(context.Background(), browser.Config{Contexts: 1, Flags: browsertest.OfflineFlags})
	if err != nil {
		t.Fatalf("pool: %v", err)
	}
	// Cleanups run last first, so the pool closes before the engine shuts down: the tests
	// wait for their runs to end.
	t.Cleanup(func() { _ = pool.Close() })
	f.engine.Runner.Browsers = scripts.LeaserFunc(func(ctx context.Context) (scripts.BrowserSession, error) {
		s, err := pool.Lease(ctx)
		if err != nil {
			return nil, err
		}
		return s, nil
	})
}

// liveFrame is the payload of a "frame" or "end" event of GET /runs/{id}/live.
type liveFrame struct {
	JPEG   []byte    `json:"jpeg"`
	Width  int       `json:"width"`
	At     time.Time `json:"at"`
	Status string    `json:"status"`
}

// TestRunLive_SharedScreencastUntilTheRunEnds: two viewers of a running browser run get JPEG
// frames of its tab, the same frames (one screencast), at most four a second, then "end" with
// the run's status when it finishes.
func TestRunLive_SharedScreencastUntilTheRunEnds(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Chrome; skipped with -short")
	}
	f := newFixture(t)
	withBrowsers(t, f)
	base := f.listen(t)
	site := browsertest.Serve(t, "testdata")

	r := f.do(t, "POST", "/agents?wait=false", agent(f.key, "watch me",
		`{"type":"open tab","target":"`+site+`/ticker.html"}`, `{"type":"delay","time":2.5}`), "")
	if r.status != 202 {
		t.Fatalf("status %d: %s", r.status, r.raw)
	}
	id := r.body["run_id"].(string)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	seen := make([][]sseEvent, 2)
	for i := range seen {
		wg.Add(1)
		go func() {
			defer wg.Done()
			seen[i] = readSSE(t, ctx, base+"/runs/"+id+"/live", f.key)
		}()
	}
	wg.Wait()

	var at [2]map[time.Time]bool
	for v, events := range seen {
		at[v] = map[time.Time]bool{}
		if len(events) == 0 || events[len(events)-1].name != "end" {
			t.Fatalf("viewer %d: the stream does not end with end: %d events", v, len(events))
		}
		var end liveFrame
		if err := json.Unmarshal([]byte(events[len(events)-1].data), &end); err != nil || end.Status != "succeeded" {
			t.Errorf("viewer %d: end event %s", v, events[len(events)-1].data)
		}
		frames := 0
		for _, ev := range events {
			if ev.name != "frame" {
				continue
			}
			frames++
			var fr liveFrame
			if err := json.Unmarshal([]byte(ev.data), &fr); err != nil {
				t.Fatalf("viewer %d: frame is not JSON: %v", v, err)
			}
			img, err := jpeg.Decode(bytes.NewReader(fr.JPEG))
			if err != nil {
				t.Fatalf("viewer %d: frame is not a JPEG: %v", v, err)
			}
			if w := img.Bounds().Dx(); w == 0 || w > 1280 || fr.Width == 0 {
				t.Errorf("viewer %d: frame %d px wide (page %d)", v, w, fr.Width)
			}
			at[v][fr.At] = true
		}
		// The ticker repaints every 50 ms for about 2.5 s: several frames, but 4 a second at most.
		if frames < 2 || frames > 14 {
			t.Errorf("viewer %d: %d frames, want 2 to 14", v, frames)
		}
	}
	shared := 0
	for a := range at[0] {
		if at[1][a] {
			shared++
		}
	}
	if shared == 0 {
		t.Error("the two viewers got no frame in common: each had its own screencast")
	}

	// The finished run's stream says so at once.
	after := readSSE(t, ctx, base+"/runs/"+id+"/live", f.key)
	if len(after) != 1 || after[0].name != "end" {
		t.Errorf("a finished run's live stream: %+v", after)
	}
}

// TestRunLive_NoTabAndOtherAccounts: a run without a browser says "waiting" then "end"; another
// account's run and an unknown run are 404; a missing key is 401.
func TestRunLive_NoTabAndOtherAccounts(t *testing.T) {
	f := newFixture(t)
	base := f.listen(t)
	r := f.do(t, "POST", "/agents?wait=false", agent(f.key, "no browser", `{"type":"delay","time":0.5}`), "")
	if r.status != 202 {
		t.Fatalf("status %d: %s", r.status, r.raw)
	}
	id := r.body["run_id"].(string)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	events := readSSE(t, ctx, base+"/runs/"+id+"/live", f.key)
	if len(events) < 1 || events[len(events)-1].name != "end" {
		t.Fatalf("events %+v, want end last", events)
	}
	for _, ev := range events {
		if ev.name == "frame" {
			t.Errorf("a run without a browser sent a frame")
		}
	}
	for _, tc := range []struct {
		name, path, key string
		status          int
	}{
		{"other account", "/runs/" + id + "/live", f.otherKey, 404},
		{"unknown run", "/runs/r_nope/live", f.key, 404},
		{"no key", "/runs/" + id + "/live", "", 401},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := f.do(t, "GET", tc.path, "", tc.key); got.status != tc.status {
				t.Errorf("status %d, want %d: %s", got.status, tc.status, got.raw)
			}
		})
	}
}

// TestRunLive_FollowsANewTab: when the run opens a second tab, the live view shows that tab.
func TestRunLive_FollowsANewTab(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Chrome; skipped with -short")
	}
	f := newFixture(t)
	withBrowsers(t, f)
	base := f.listen(t)
	site := browsertest.Serve(t, "testdata")
	r := f.do(t, "POST", "/agents?wait=false", agent(f.key, "two tabs",
		`{"type":"open tab","target":"`+site+`/ticker.html"}`, `{"type":"delay","time":1.5}`,
		`{"type":"open tab","target":"`+site+`/red.html"}`, `{"type":"delay","time":1.5}`), "")
	if r.status != 202 {
		t.Fatalf("status %d: %s", r.status, r.raw)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	events := readSSE(t, ctx, base+"/runs/"+r.body["run_id"].(string)+"/live", f.key)
	var reds, whites int
	for _, ev := range events {
		if ev.name != "frame" {
			continue
		}
		var fr liveFrame
		if err := json.Unmarshal([]byte(ev.data), &fr); err != nil {
			t.Fatal(err)
		}
		img, err := jpeg.Decode(bytes.NewReader(fr.JPEG))
		if err != nil {
			t.Fatal(err)
		}
		b := img.Bounds()
		cr, cg, _, _ := img.At(b.Min.X+b.Dx()/2, b.Min.Y+b.Dy()*3/4).RGBA()
		switch {
		case cr > 0xc000 && cg < 0x4000:
			reds++
		case cr > 0xc000 && cg > 0xc000:
			whites++
		}
	}
	if whites == 0 || reds == 0 {
		t.Errorf("%d frames of the first tab (white), %d of the second (red): want both", whites, reds)
	}
}

// TestRunLive_ViewerLimit: a run takes eight live viewers; a ninth gets 503 busy, and a place
// frees up when a viewer leaves.
func TestRunLive_ViewerLimit(t *testing.T) {
	f := newFixture(t)
	base := f.listen(t)
	r := f.do(t, "POST", "/agents?wait=false", agent(f.key, "crowded", `{"type":"delay","time":30}`), "")
	if r.status != 202 {
		t.Fatalf("status %d: %s", r.status, r.raw)
	}
	id := r.body["run_id"].(string)
	// Still running when the test ends: a finished run's stream would open for anyone.
	defer f.do(t, "POST", "/runs/"+id+"/cancel", "", f.key)
	url := base + "/runs/" + id + "/live"
	open := func() *http.Response {
		t.Helper()
		req, _ := http.NewRequest("GET", url, nil)
		req.Header.Set("Authorization", "Bearer "+f.key)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	var viewers []*http.Response
	for range 8 {
		res := open()
		if res.StatusCode != 200 {
			t.Fatalf("viewer %d: status %d", len(viewers)+1, res.StatusCode)
		}
		viewers = append(viewers, res)
	}
	if res := open(); res.StatusCode != 503 {
		t.Errorf("the ninth viewer: status %d, want 503", res.StatusCode)
		res.Body.Close()
	} else {
		res.Body.Close()
	}
	viewers[0].Body.Close() // noticed at a write: within two keepalives, 4 s
	deadline := time.Now().Add(8 * time.Second)
	for {
		res := open()
		res.Body.Close()
		if res.StatusCode == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no place freed after a viewer left: status %d", res.StatusCode)
		}
		time.Sleep(200 * time.Millisecond)
	}
	for _, v := range viewers[1:] {
		v.Body.Close()
	}
}
