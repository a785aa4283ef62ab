package triggers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/browser"
	"github.com/rodeo-run/rodeo/browser/browsertest"
	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/store"
	"github.com/rodeo-run/rodeo/triggers"
)

// pool is a real Chrome pool for the test (Debian's chromium, kept off the network).
func pool(t *testing.T) scripts.Leaser {
	t.Helper()
	p, err := browser.NewPool(context.Background(), browser.Config{Browsers: 1, Contexts: 2, Flags: browsertest.OfflineFlags, LeaseTimeout: 20 * time.Second})
	if err != nil {
		t.Fatalf("browser pool: %v (the Makefile installs Debian's chromium; or set RODEO_CHROME)", err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return scripts.LeaserFunc(func(ctx context.Context) (scripts.BrowserSession, error) {
		s, err := p.Lease(ctx)
		if err != nil {
			return nil, err
		}
		return s, nil
	})
}

// orderPage serves an order page whose status the test changes between checks.
type orderPage struct {
	mu     sync.Mutex
	status string
}

func (o *orderPage) set(s string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.status = s
}

func (o *orderPage) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	o.mu.Lock()
	status := o.status
	o.mu.Unlock()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, `<!doctype html><html><head><title>Order 1042</title></head><body>
<h1>Order 1042</h1>
<p>Placed on 1 December</p>
<table><tr><th>Shipping status</th><td id="status">%s</td></tr><tr><th>Total</th><td>$48.20</td></tr></table>
</body></html>`, status)
}

// waitWatch polls the watch until done says so.
func (f *fixture) waitWatch(t *testing.T, id, what string, done func(store.Watch) bool) store.Watch {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		w, err := f.db.GetWatch(store.DefaultAccount, id)
		if err != nil {
			t.Fatalf("get watch: %v", err)
		}
		if done(w) {
			return w
		}
		if time.Now().After(deadline) {
			b, _ := json.Marshal(w.Checks)
			t.Fatalf("watch never %s: %s", what, b)
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// checksSince counts checks after time at with a result (errors excluded).
func checksSince(w store.Watch, at time.Time) (n int) {
	for _, c := range w.Checks {
		if c.At.After(at) && c.Result != nil {
			n++
		}
	}
	return n
}

func watchRuns(t *testing.T, f *fixture) []scripts.Doc {
	var out []scripts.Doc
	for _, d := range f.runsOf(t) {
		if d.Source == "watch" {
			out = append(out, d)
		}
	}
	return out
}

func TestWatch_FiresOnceWhenTheStatusChangesNotOnEveryCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Chrome; skipped with -short")
	}
	leaser := pool(t)
	page := &orderPage{status: "Pending"}
	site := httptest.NewServer(page)
	t.Cleanup(site.Close)
	cfg := triggers.Config{MinWatchEvery: 50 * time.Millisecond}
	f := newFixture(t, cfg, leaser)
	f.save(t, "shipped", map[string]any{"type": "print", "text": "order shipped: {{watch.value}}"})
	if err := f.in.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	w, err := f.in.CreateWatch(store.DefaultAccount, triggers.WatchSpec{Script: "shipped", URL: site.URL + "/order/1042",
		Condition: "the shipping status says Shipped", Every: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	f.waitWatch(t, w.ID, "checked twice while Pending", func(w store.Watch) bool { return checksSince(w, start) >= 2 })
	if runs := watchRuns(t, f); len(runs) != 0 {
		t.Fatalf("fired while the status was Pending: %d runs", len(runs))
	}

	page.set("Shipped")
	fired := f.waitWatch(t, w.ID, "fired", func(w store.Watch) bool { return w.Fires == 1 })
	firedAt := *fired.LastFired
	after := f.waitWatch(t, w.ID, "checked three times after firing", func(w store.Watch) bool { return checksSince(w, firedAt) >= 3 })
	if after.Fires != 1 || !after.LastResult {
		t.Errorf("after three more true checks: fires %d, last result %v", after.Fires, after.LastResult)
	}
	var fireCheck store.WatchCheck
	for _, c := range after.Checks {
		if c.Fired {
			fireCheck = c
		}
		if c.At.After(firedAt) && (c.Fired || c.Note == "") {
			t.Errorf("a later true check: %+v, want not fired with a note", c)
		}
	}
	if fireCheck.RunID == "" || fireCheck.Value != "Shipped" || fireCheck.Result == nil || !*fireCheck.Result {
		t.Fatalf("the firing check: %+v", fireCheck)
	}
	doc := f.waitRun(t, fireCheck.RunID)
	watch, _ := doc.Data["watch"].(map[string]any)
	if doc.Status != "succeeded" || doc.Source != "watch" || doc.Trigger == nil || doc.Trigger.ID != w.ID ||
		watch["value"] != "Shipped" || watch["condition"] != "the shipping status says Shipped" || doc.Data["data"] != "Shipped" {
		t.Errorf("run: %s %s %+v %v", doc.Status, doc.Source, doc.Trigger, doc.Data)
	}

	// Back to Pending, then Shipped again: a second edge, a second fire.
	page.set("Pending")
	f.waitWatch(t, w.ID, "saw Pending again", func(w store.Watch) bool { return !w.LastResult })
	page.set("Shipped")
	again := f.waitWatch(t, w.ID, "fired again", func(w store.Watch) bool { return w.Fires == 2 })
	for i := len(again.Checks) - 1; i >= 0; i-- {
		if again.Checks[i].Fired {
			f.waitRun(t, again.Checks[i].RunID)
			break
		}
	}
	if runs := watchRuns(t, f); len(runs) != 2 {
		t.Errorf("%d watch runs, want 2 (one per edge)", len(runs))
	}

	// A restart keeps the state: still Shipped, so the new watcher does not fire again.
	f.in.Close()
	in2 := triggers.New(triggers.Config{Engine: f.engine, Store: f.db, MinWatchEvery: cfg.MinWatchEvery})
	t.Cleanup(in2.Close)
	restarted := time.Now()
	if err := in2.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	after = f.waitWatch(t, w.ID, "checked after the restart", func(w store.Watch) bool { return checksSince(w, restarted) >= 3 })
	if after.Fires != 2 {
		t.Errorf("fires %d after a restart on a condition still true, want 2", after.Fires)
	}

	// Paused: no more checks; resumed: checks again.
	if _, err := in2.PauseWatch(store.DefaultAccount, w.ID, true); err != nil {
		t.Fatal(err)
	}
	paused, _ := f.db.GetWatch(store.DefaultAccount, w.ID)
	time.Sleep(600 * time.Millisecond)
	still, _ := f.db.GetWatch(store.DefaultAccount, w.ID)
	if n := checksSince(still, paused.Checks[len(paused.Checks)-1].At); n != 0 {
		t.Errorf("%d checks while paused", n)
	}
	resumed := time.Now()
	if _, err := in2.PauseWatch(store.DefaultAccount, w.ID, false); err != nil {
		t.Fatal(err)
	}
	f.waitWatch(t, w.ID, "checked after resuming", func(w store.Watch) bool { return checksSince(w, resumed) >= 1 })
	if err := in2.DeleteWatch(store.DefaultAccount, w.ID); err != nil {
		t.Fatal(err)
	}
}

func TestWatch_ErrorsAreRecordedAndBackOff(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Chrome; skipped with -short")
	}
	leaser := pool(t)
	page := &orderPage{status: "Pending"}
	site := httptest.NewServer(page)
	t.Cleanup(site.Close)
	f := newFixture(t, triggers.Config{MinWatchEvery: 50 * time.Millisecond, CheckTimeout: 20 * time.Second}, leaser)
	f.save(t, "notify", map[string]any{"type": "print", "text": "{{watch.value}}"})
	if err := f.in.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	// The total is a price, not a number below: a value without a number cannot be compared.
	w, err := f.in.CreateWatch(store.DefaultAccount, triggers.WatchSpec{Script: "notify", URL: site.URL,
		Condition: "the order status is below 10", Every: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	got := f.waitWatch(t, w.ID, "failed three times", func(w store.Watch) bool { return w.Failures >= 3 })
	c1, c2, c3 := got.Checks[0], got.Checks[1], got.Checks[2]
	for _, c := range []store.WatchCheck{c1, c2, c3} {
		if c.Error == nil || c.Error.Code != triggers.CodeValueUnreadable || c.Result != nil {
			t.Errorf("check %+v, want a %s error", c, triggers.CodeValueUnreadable)
		}
	}
	// The waits double: 0.2 s after the first failure, 0.4 s after the second.
	if gap := c3.At.Sub(c2.At); gap < 400*time.Millisecond {
		t.Errorf("the third check came %v after the second, want at least 400ms (backed off)", gap)
	}
	if gap := c2.At.Sub(c1.At); gap < 200*time.Millisecond {
		t.Errorf("the second check came %v after the first, want at least 200ms", gap)
	}
	if runs := watchRuns(t, f); len(runs) != 0 {
		t.Errorf("failed checks fired %d runs", len(runs))
	}
}
