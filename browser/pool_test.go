package browser_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/proto"
	"github.com/rodeo-run/rodeo/browser"
	"github.com/rodeo-run/rodeo/browser/browsertest"
	"github.com/rodeo-run/rodeo/errs"
)

// testWriter sends the pool's log lines to the test log.
type testWriter struct{ tb testing.TB }

func (w testWriter) Write(b []byte) (int, error) {
	w.tb.Log(strings.TrimRight(string(b), "\n"))
	return len(b), nil
}

// newPool starts an offline pool for the test and closes it when the test ends.
func newPool(tb testing.TB, cfg browser.Config) *browser.Pool {
	tb.Helper()
	if testing.Short() {
		tb.Skip("launches Chrome")
	}
	cfg.Flags = browsertest.OfflineFlags
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(testWriter{tb}, &slog.HandlerOptions{Level: slog.LevelInfo}))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p, err := browser.NewPool(ctx, cfg)
	if err != nil {
		tb.Fatalf("NewPool: %v", err)
	}
	tb.Cleanup(func() { _ = p.Close() })
	return p
}

func lease(tb testing.TB, p *browser.Pool) *browser.Session {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := p.Lease(ctx)
	if err != nil {
		tb.Fatalf("Lease: %v (stats %+v)", err, p.Stats())
	}
	return s
}

// eventually polls cond until it holds or d passes.
func eventually(tb testing.TB, d time.Duration, what string, cond func() bool) {
	tb.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			tb.Fatalf("after %v: %s", d, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func navigate(tb testing.TB, page *rod.Page, url string) {
	tb.Helper()
	pg := page.Timeout(15 * time.Second)
	if err := pg.Navigate(url); err != nil {
		tb.Fatalf("navigate %s: %v", url, err)
	}
	if err := pg.WaitLoad(); err != nil {
		tb.Fatalf("load %s: %v", url, err)
	}
}

func eval(tb testing.TB, page *rod.Page, js string) any {
	tb.Helper()
	res, err := page.Timeout(10 * time.Second).Eval(js)
	if err != nil {
		tb.Fatalf("eval %s: %v", js, err)
	}
	return res.Value.Val()
}

// groupAlive lists the processes of process group pgid that still run. Zombies do not count:
// killed Chrome helpers are reparented to PID 1, which in a container may reap them late.
func groupAlive(pgid int) []int {
	ents, _ := os.ReadDir("/proc")
	var alive []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		if len(f) > 2 && f[0] != "Z" && f[2] == strconv.Itoa(pgid) {
			alive = append(alive, pid)
		}
	}
	return alive
}

// groupGone reports whether Chrome pgid (it leads its own process group) and all its helpers
// have exited.
func groupGone(pgid int) bool { return len(groupAlive(pgid)) == 0 }

func TestPool_LeaseRelease(t *testing.T) {
	base := browsertest.Serve(t, "testdata")
	p := newPool(t, browser.Config{Contexts: 2})

	st := p.Stats()
	if st.Browsers != 1 || st.Capacity != 2 || st.Idle != 2 || st.InUse != 0 || st.Leases != 0 {
		t.Fatalf("after start: %+v", st)
	}

	start := time.Now()
	s := lease(t, p)
	if d := time.Since(start); d > 500*time.Millisecond {
		t.Errorf("lease of a warm context took %v", d)
	}
	if st := p.Stats(); st.InUse != 1 || st.Idle != 1 || st.Leases != 1 {
		t.Fatalf("after lease: %+v", st)
	}
	if s.PID() <= 0 || s.Crashed() {
		t.Fatalf("PID %d, Crashed %v", s.PID(), s.Crashed())
	}
	if s.Browser().BrowserContextID == "" {
		t.Fatal("session browser is not an incognito context")
	}
	navigate(t, s.Page(), base+"/hello.html")
	if got := eval(t, s.Page(), `() => document.querySelector("h1").textContent`); got != "hello" {
		t.Fatalf("h1 = %v", got)
	}
	// A second tab in the same context.
	extra, err := s.NewPage(context.Background())
	if err != nil {
		t.Fatalf("NewPage: %v", err)
	}
	navigate(t, extra, base+"/hello.html")

	s.Release()
	s.Release() // idempotent
	eventually(t, 10*time.Second, "the released slot is warm again", func() bool {
		st := p.Stats()
		return st.Idle == 2 && st.InUse == 0
	})
	if st := p.Stats(); st.Leases != 1 || st.Crashes != 0 || st.Waiting != 0 {
		t.Fatalf("after release: %+v", st)
	}
}

func TestPool_Isolation(t *testing.T) {
	base := browsertest.Serve(t, "testdata")
	p := newPool(t, browser.Config{Contexts: 1})
	url := base + "/store.html"

	s1 := lease(t, p)
	navigate(t, s1.Page(), url)
	if got := eval(t, s1.Page(), `() => document.cookie + "|" + localStorage.getItem("rodeo")`); got != "rodeo=run1|run1" {
		t.Fatalf("run 1 stored %v", got)
	}
	s1.Release()

	s2 := lease(t, p) // Contexts=1: the same slot, a fresh context
	defer s2.Release()
	if s2.Browser().BrowserContextID == s1.Browser().BrowserContextID {
		t.Fatal("run 2 got run 1's context")
	}
	navigate(t, s2.Page(), url)
	before := eval(t, s2.Page(), `() => window.before`).(map[string]any)
	if before["cookie"] != "" || before["storage"] != nil {
		t.Fatalf("run 2 sees run 1's state: %v", before)
	}
}

func TestPool_Busy(t *testing.T) {
	p := newPool(t, browser.Config{Contexts: 1, LeaseTimeout: 300 * time.Millisecond})

	s1 := lease(t, p)
	start := time.Now()
	s2, err := p.Lease(context.Background())
	took := time.Since(start)
	if err == nil {
		s2.Release()
		t.Fatal("second Lease succeeded with Contexts=1")
	}
	if !errs.Is(err, errs.Busy) {
		t.Fatalf("err = %v (code %s), want busy", err, errs.Code(err))
	}
	if err.Error() != "all 1 browser contexts are busy" {
		t.Errorf("message %q", err.Error())
	}
	if took < 250*time.Millisecond || took > 2*time.Second {
		t.Errorf("busy after %v, want ~300ms", took)
	}

	// After the release, the slot is warm again within a bounded wait.
	s1.Release()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s3, err := leaseWithin(ctx, p)
	if err != nil {
		t.Fatalf("Lease after Release: %v", err)
	}
	s3.Release()
}

// leaseWithin retries Lease on busy until ctx ends (the pool's LeaseTimeout is short here).
func leaseWithin(ctx context.Context, p *browser.Pool) (*browser.Session, error) {
	for {
		s, err := p.Lease(ctx)
		if err == nil || !errs.Is(err, errs.Busy) || ctx.Err() != nil {
			return s, err
		}
	}
}

func TestPool_Canceled(t *testing.T) {
	p := newPool(t, browser.Config{Contexts: 1})
	s1 := lease(t, p)
	defer s1.Release()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err := p.Lease(ctx)
	if !errs.Is(err, errs.Canceled) || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want canceled", err)
	}
	if st := p.Stats(); st.Waiting != 0 {
		t.Fatalf("waiter left behind: %+v", st)
	}
}

func TestPool_FIFO(t *testing.T) {
	p := newPool(t, browser.Config{Contexts: 1, LeaseTimeout: 20 * time.Second})
	s := lease(t, p)
	const n = 3
	order := make(chan int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := p.Lease(context.Background())
			if err != nil {
				t.Errorf("waiter %d: %v", i, err)
				return
			}
			order <- i
			s.Release()
		}()
		eventually(t, 2*time.Second, "waiter queued", func() bool { return p.Stats().Waiting == i+1 })
	}
	s.Release()
	wg.Wait()
	close(order)
	var got []int
	for i := range order {
		got = append(got, i)
	}
	if !slices.Equal(got, []int{0, 1, 2}) {
		t.Fatalf("served in order %v, want FIFO", got)
	}
}

func TestPool_Crash(t *testing.T) {
	base := browsertest.Serve(t, "testdata")
	p := newPool(t, browser.Config{Contexts: 2})

	s := lease(t, p)
	navigate(t, s.Page(), base+"/hello.html")
	pid := s.PID()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	eventually(t, 2*time.Second, "Crashed() turns true", s.Crashed)
	if err := s.Page().Timeout(5 * time.Second).Navigate(base + "/hello.html"); err == nil {
		t.Fatal("navigation on a dead browser succeeded")
	}
	s.Release()
	s.Release()

	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	s2, err := leaseWithin(ctx, p)
	if err != nil {
		t.Fatalf("Lease after crash: %v", err)
	}
	defer s2.Release()
	if s2.PID() == pid || s2.Crashed() {
		t.Fatalf("new session: PID %d (old %d), Crashed %v", s2.PID(), pid, s2.Crashed())
	}
	navigate(t, s2.Page(), base+"/hello.html")
	if got := eval(t, s2.Page(), `() => document.title`); got != "hello" {
		t.Fatalf("title %v", got)
	}
	st := p.Stats()
	if st.Crashes != 1 || st.Browsers != 1 {
		t.Fatalf("after crash: %+v", st)
	}
	eventually(t, 5*time.Second, "the dead browser's process group is gone", func() bool { return groupGone(pid) })
	eventually(t, 10*time.Second, "the pool is full again", func() bool { return p.Stats().Idle == 1 })
}

func TestPool_Recycle(t *testing.T) {
	p := newPool(t, browser.Config{Contexts: 1, RecycleAfter: 2})

	s1 := lease(t, p)
	pid := s1.PID()
	s1.Release()
	s2 := lease(t, p)
	if s2.PID() != pid {
		t.Fatalf("second lease on PID %d, want %d", s2.PID(), pid)
	}
	s2.Release()
	s3 := lease(t, p)
	defer s3.Release()
	if s3.PID() == pid {
		t.Fatalf("third lease still on PID %d after RecycleAfter=2", pid)
	}
	eventually(t, 5*time.Second, "the recycled browser is gone", func() bool { return groupGone(pid) })
	if st := p.Stats(); st.Recycles != 1 || st.Crashes != 0 || st.Browsers != 1 || st.Leases != 3 {
		t.Fatalf("after recycle: %+v", st)
	}
}

func TestPool_Stealth(t *testing.T) {
	base := browsertest.Serve(t, "testdata")
	p := newPool(t, browser.Config{Contexts: 1, Stealth: true})
	s := lease(t, p)
	defer s.Release()

	navigate(t, s.Page(), base+"/hello.html")
	if wd := eval(t, s.Page(), `() => navigator.webdriver`); wd != nil && wd != false {
		t.Errorf("navigator.webdriver = %v", wd)
	}
	ua := eval(t, s.Page(), `() => navigator.userAgent`).(string)
	if strings.Contains(ua, "Headless") || !strings.Contains(ua, "Chrome/") {
		t.Errorf("navigator.userAgent = %q", ua)
	}
	brands := eval(t, s.Page(), `() => JSON.stringify(navigator.userAgentData ? navigator.userAgentData.brands : [])`).(string)
	if strings.Contains(brands, "Headless") || !strings.Contains(brands, "Chrom") { // empty hints are a tell too
		t.Errorf("navigator.userAgentData.brands = %s", brands)
	}
	t.Logf("user agent %q, brands %s", ua, brands)

	extra, err := s.NewPage(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	navigate(t, extra, base+"/hello.html")
	if ua := eval(t, extra, `() => navigator.userAgent`).(string); strings.Contains(ua, "Headless") {
		t.Errorf("NewPage user agent %q", ua)
	}
}

func TestPool_Close(t *testing.T) {
	if testing.Short() {
		t.Skip("launches Chrome")
	}
	runtime.GC()
	before := runtime.NumGoroutine()

	cfg := browser.Config{Browsers: 2, Contexts: 1, Flags: browsertest.OfflineFlags,
		Logger: slog.New(slog.NewTextHandler(testWriter{t}, nil))}
	p, err := browser.NewPool(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if st := p.Stats(); st.Browsers != 2 || st.Idle != 2 {
		t.Fatalf("after start: %+v", st)
	}
	a, b := lease(t, p), lease(t, p)
	pids := []int{a.PID(), b.PID()}
	if pids[0] == pids[1] {
		t.Fatalf("two browsers share PID %d", pids[0])
	}
	b.Release() // a stays leased through Close

	done := make(chan struct{})
	go func() { _ = p.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Close hangs")
	}
	if err := p.Close(); err != nil { // idempotent
		t.Fatal(err)
	}
	a.Release() // after Close: a no-op
	if !a.Crashed() {
		t.Error("a session of a closed pool does not report Crashed")
	}
	// Close waits for Chrome itself; its helpers got the same SIGKILL, which takes effect when
	// each is next scheduled: on a loaded machine one may still show as running for a moment
	// (a CI run saw one helper do so). They must be gone within that moment, not linger.
	for _, pid := range pids {
		alive := groupAlive(pid)
		for deadline := time.Now().Add(2 * time.Second); len(alive) > 0 && time.Now().Before(deadline); alive = groupAlive(pid) {
			time.Sleep(20 * time.Millisecond)
		}
		if len(alive) > 0 {
			t.Errorf("chrome %d: processes %v of its group still run 2s after Close", pid, alive)
		}
	}
	if _, err := p.Lease(context.Background()); !errs.Is(err, errs.BrowserUnavailable) {
		t.Errorf("Lease after Close: %v", err)
	}

	eventually(t, 5*time.Second, "goroutines end after Close", func() bool {
		return runtime.NumGoroutine() <= before+2
	})
}

func TestPool_Remote(t *testing.T) {
	if testing.Short() {
		t.Skip("launches Chrome")
	}
	bin, err := browser.FindChrome()
	if err != nil {
		t.Fatal(err)
	}
	l := launcher.New().Bin(bin).NoSandbox(true).Headless(true).Leakless(true).
		Set("disable-gpu").Set("host-resolver-rules", browsertest.OfflineFlags["host-resolver-rules"])
	u, err := l.Launch()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Kill(); l.Cleanup() })
	base := browsertest.Serve(t, "testdata")

	p := newPool(t, browser.Config{RemoteURL: u, Browsers: 3, Contexts: 2})
	if st := p.Stats(); st.Browsers != 1 || st.Capacity != 2 || st.Idle != 2 {
		t.Fatalf("remote pool: %+v", st)
	}
	s := lease(t, p)
	if s.PID() != 0 {
		t.Errorf("remote PID %d, want 0", s.PID())
	}
	navigate(t, s.Page(), base+"/hello.html")
	s.Release()
	eventually(t, 10*time.Second, "re-warmed", func() bool { return p.Stats().Idle == 2 })
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}

	// Close leaves the remote browser running, with none of the pool's contexts in it.
	b := rod.New().ControlURL(u)
	if err := b.Connect(); err != nil {
		t.Fatalf("remote browser gone after Close: %v", err)
	}
	res, err := proto.TargetGetBrowserContexts{}.Call(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.BrowserContextIDs) != 0 {
		t.Errorf("contexts left in the remote browser: %v", res.BrowserContextIDs)
	}

	// The remote browser dies: sessions see it, leases fail as unavailable while reconnecting.
	p2 := newPool(t, browser.Config{RemoteURL: u, Contexts: 1, LeaseTimeout: 500 * time.Millisecond})
	s2 := lease(t, p2)
	if err := syscall.Kill(l.PID(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	eventually(t, 2*time.Second, "Crashed() turns true", s2.Crashed)
	s2.Release()
	if _, err := p2.Lease(context.Background()); !errs.Is(err, errs.BrowserUnavailable) {
		t.Errorf("Lease with the remote browser down: %v", err)
	}
	if st := p2.Stats(); st.Crashes != 1 || st.Browsers != 0 {
		t.Errorf("after remote death: %+v", st)
	}
	start := time.Now()
	_ = p2.Close()
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("Close while reconnecting took %v", d)
	}
}

func TestPool_NoBrowser(t *testing.T) {
	_, err := browser.NewPool(context.Background(), browser.Config{Bin: "/nonexistent/chrome"})
	if !errs.Is(err, errs.BrowserUnavailable) {
		t.Fatalf("err = %v, want browser_unavailable", err)
	}
}

func BenchmarkLease(b *testing.B) {
	p := newPool(b, browser.Config{Browsers: 1, Contexts: 4, Logger: slog.New(slog.DiscardHandler)})
	ctx := context.Background()
	durs := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		for p.Stats().Idle == 0 { // measure a warm lease, never a cold creation
			time.Sleep(time.Millisecond)
		}
		b.StartTimer()
		start := time.Now()
		s, err := p.Lease(ctx)
		d := time.Since(start)
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		durs = append(durs, d)
		s.Release()
		b.StartTimer()
	}
	b.StopTimer()
	slices.Sort(durs)
	q := func(f float64) float64 {
		return float64(durs[int(f*float64(len(durs)-1))].Microseconds()) / 1000
	}
	b.ReportMetric(q(0.5), "p50-ms")
	b.ReportMetric(q(0.99), "p99-ms")
}

// Several remote browsers, comma-separated, are one pool slot each: the pool holds both, and a
// lease from each works.
func TestPool_RemoteSeveral(t *testing.T) {
	if testing.Short() {
		t.Skip("launches Chrome")
	}
	bin, err := browser.FindChrome()
	if err != nil {
		t.Fatal(err)
	}
	var urls []string
	for range 2 {
		l := launcher.New().Bin(bin).NoSandbox(true).Headless(true).Leakless(true).
			Set("disable-gpu").Set("host-resolver-rules", browsertest.OfflineFlags["host-resolver-rules"])
		u, err := l.Launch()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { l.Kill(); l.Cleanup() })
		urls = append(urls, u)
	}
	base := browsertest.Serve(t, "testdata")
	p := newPool(t, browser.Config{RemoteURL: urls[0] + " , " + urls[1], Contexts: 1})
	if st := p.Stats(); st.Browsers != 2 || st.Capacity != 2 {
		t.Fatalf("two remote browsers: %+v", st)
	}
	a, b := lease(t, p), lease(t, p)
	navigate(t, a.Page(), base+"/hello.html")
	navigate(t, b.Page(), base+"/hello.html")
	a.Release()
	b.Release()
}
