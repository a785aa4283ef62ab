package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/go-rod/stealth"
	"github.com/rodeo-run/rodeo/errs"
)

// Tuning of the pool's background work. Variables, not constants, so that tests can shorten them.
var (
	// warmTimeout bounds one warm-up (context + page + stealth). A warm-up still blocked after
	// twice this long means the browser hangs: it is killed and replaced.
	warmTimeout = 20 * time.Second
	// disposeTimeout bounds closing a released context.
	disposeTimeout = 5 * time.Second
	// launchTimeout bounds a background (re)launch or reconnect.
	launchTimeout = 60 * time.Second
	// startupLimit bounds NewPool's wait for its warm contexts when ctx has no deadline.
	startupLimit = 2 * time.Minute
	// backoffMin and backoffMax bound the wait between failed launches or warm-ups.
	backoffMin = 250 * time.Millisecond
	backoffMax = 10 * time.Second
	// maxWarmFailures consecutive failed warm-ups make a browser count as broken: it is replaced.
	maxWarmFailures = 3
	// warmParallel is how many contexts one browser warms at once: two keep a 2-core machine
	// busy without starving the runs.
	warmParallel = 2
)

// Config sizes and tunes a Pool. The zero value is usable: one local browser with four contexts.
type Config struct {
	// Bin is the Chrome executable. Optional. Default: FindChrome().
	Bin string
	// RemoteURL, when set, connects to a remote browser (RODEO_CHROME_URL: a DevTools websocket
	// URL, an http:// address or a port) instead of launching one. The pool then holds exactly one
	// browser and reconnects, with backoff, when the connection drops. Several URLs separated by
	// commas are several browsers, one per URL (RemoteURLs). Optional.
	RemoteURL string
	// Browsers is the number of Chrome processes. Optional. Default: 1 (with RemoteURL: one per URL).
	Browsers int
	// Contexts is the number of concurrent isolated contexts per browser. Optional. Default: 4.
	Contexts int
	// Stealth applies go-rod/stealth to every warm page and replaces "HeadlessChrome" with
	// "Chrome" in its user agent and client hints. Optional. Default: false (the server turns it on).
	Stealth bool
	// RecycleAfter is the number of leases after which a browser takes no new ones and is replaced
	// once its sessions are released. Optional. Default: 200; negative: never.
	RecycleAfter int
	// LeaseTimeout is how long Lease waits for a free context. Optional. Default: 10s.
	LeaseTimeout time.Duration
	// Flags are extra Chrome switches (name without dashes -> value). Optional.
	Flags map[string]string
	// Logger receives crashes, recycles and warm-up failures. Optional. Default: slog.Default().
	Logger *slog.Logger
}

func (c Config) withDefaults() Config {
	if c.Browsers <= 0 {
		c.Browsers = 1
	}
	if c.RemoteURL != "" {
		c.Browsers = len(c.RemoteURLs())
	}
	if c.Contexts <= 0 {
		c.Contexts = 4
	}
	if c.RecycleAfter == 0 {
		c.RecycleAfter = 200
	}
	if c.LeaseTimeout <= 0 {
		c.LeaseTimeout = 10 * time.Second
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return c
}

// RemoteURLs are the remote browsers RemoteURL names: several may be given separated by commas
// (a fleet of browserless containers), each one browser slot of the pool with Contexts contexts.
func (c Config) RemoteURLs() []string {
	var out []string
	for _, u := range strings.Split(c.RemoteURL, ",") {
		if u = strings.TrimSpace(u); u != "" {
			out = append(out, u)
		}
	}
	return out
}

// Stats is a snapshot of a pool's state and lifetime counters.
type Stats struct {
	Browsers int   // browsers up (connected and alive), including ones draining for a recycle
	Capacity int   // Browsers × Contexts as configured
	InUse    int   // leased sessions not yet released
	Idle     int   // warm contexts ready to lease
	Waiting  int   // goroutines blocked in Lease
	Leases   int64 // sessions handed out
	Crashes  int64 // browsers that died without the pool closing them
	Recycles int64 // browsers closed after RecycleAfter leases
}

// Pool keeps warm, isolated browser contexts ready to lease: a lease takes a context and a blank
// page created beforehand (a new one costs 125–220 ms), and a release disposes the context and
// warms a replacement in the background. Browsers that die are noticed by a watcher and replaced;
// browsers that served RecycleAfter leases are drained and replaced. A Pool is safe for
// concurrent use.
type Pool struct {
	cfg Config
	log *slog.Logger
	// ctx lives as long as the pool; Close cancels it to stop launches, warm-ups and backoffs.
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup // every background goroutine; Add only under mu while !closed
	warmed chan struct{}  // a signal per warm context offered (NewPool waits on it)

	closeOnce sync.Once

	mu       sync.Mutex
	closed   bool
	slots    []*slot
	idle     []*warmCtx // FIFO: the oldest warm context is leased first
	waiters  []*waiter  // FIFO of blocked Lease calls
	live     map[*instance]struct{}
	lastErr  error // the last launch failure, for the error of a Lease that finds no browser
	leases   int64
	crashes  int64
	recycles int64
}

// slot is one browser position: Contexts units of capacity that live on its current browser.
// When that browser dies or drains, the capacity moves to its replacement, so the pool never holds
// more than Browsers × Contexts contexts (though a draining browser and its replacement may run
// side by side for a while).
type slot struct {
	idx  int
	cur  *instance     // the browser new contexts are warmed on; nil while (re)launching
	want int           // contexts to warm: capacity not idle, leased, warming or being disposed
	kick chan struct{} // wakes the slot's keeper (buffered, 1)

	warmers    int           // warm-ups running
	backoff    time.Duration // after failed warm-ups; 0 after a success
	pauseUntil time.Time     // no warm-up starts before
}

// instance is one browser process (or remote connection) of a slot. Its fields are guarded by
// Pool.mu except the immutable ones and dead, which Crashed reads without the lock.
type instance struct {
	slot   *slot
	proc   *Process
	pid    int
	ua     string                            // stealth user agent, "" without stealth
	uaMeta *proto.EmulationUserAgentMetadata // its client hints, nil when unknown
	b      *rod.Browser                      // proc.Browser bound to ctx
	ctx    context.Context
	cancel context.CancelFunc

	dead      atomic.Bool   // the process or connection is gone
	deadCh    chan struct{} // closed when dead turns true
	leases    int
	inUse     int
	idle      int
	warming   int
	draining  bool // takes no new leases; closed once inUse is 0
	closing   bool // the pool ends it on purpose: its death is no crash
	retired   bool
	warmFails int
	ctxs      map[proto.BrowserBrowserContextID]struct{} // contexts not yet disposed
}

// warmCtx is a ready incognito context with its blank page.
type warmCtx struct {
	in   *instance
	inc  *rod.Browser
	page *rod.Page
}

type waiter struct{ ch chan *warmCtx } // buffered, 1: offer never blocks

// NewPool launches the browsers (or connects to RemoteURL) and warms Browsers × Contexts contexts
// before it returns. The ctx bounds only the start-up. It fails with errs.BrowserUnavailable when
// no browser starts or none of them could warm a context in time.
func NewPool(ctx context.Context, cfg Config) (*Pool, error) {
	cfg = cfg.withDefaults()
	pctx, cancel := context.WithCancel(context.Background())
	p := &Pool{
		cfg:    cfg,
		log:    cfg.Logger,
		ctx:    pctx,
		cancel: cancel,
		warmed: make(chan struct{}, 1),
		live:   map[*instance]struct{}{},
	}
	for i := range cfg.Browsers {
		p.slots = append(p.slots, &slot{idx: i, want: cfg.Contexts, kick: make(chan struct{}, 1)})
	}

	// Launch every browser in parallel; each slot's keeper then warms its contexts.
	type result struct {
		in  *instance
		err error
	}
	results := make(chan result, len(p.slots))
	for _, s := range p.slots {
		go func() {
			in, err := p.start(ctx, s)
			results <- result{in, err}
		}()
	}
	var launched int
	var firstErr error
	for range p.slots {
		r := <-results
		if r.err != nil {
			firstErr = cmpErr(firstErr, r.err)
			p.log.Error("browser pool: start browser", "err", r.err)
			continue
		}
		launched++
	}
	if launched == 0 {
		_ = p.Close()
		return nil, errs.Wrap(errs.BrowserUnavailable, firstErr)
	}
	p.mu.Lock()
	for _, s := range p.slots {
		if s.cur != nil {
			p.wg.Add(1)
			go p.watch(s.cur)
		}
		p.wg.Add(1)
		go p.keep(s)
		kick(s)
	}
	p.mu.Unlock()

	// Wait for the warm contexts of the browsers that started.
	want := launched * cfg.Contexts
	limit := time.NewTimer(startupLimit)
	defer limit.Stop()
	for {
		p.mu.Lock()
		idle := len(p.idle)
		p.mu.Unlock()
		if idle >= want {
			return p, nil
		}
		select {
		case <-p.warmed:
			continue
		case <-ctx.Done():
		case <-limit.C:
		}
		if idle > 0 {
			p.log.Warn("browser pool: start-up ended before every context was warm", "idle", idle, "want", want)
			return p, nil
		}
		_ = p.Close()
		return nil, errs.E(errs.BrowserUnavailable, "no browser context could be warmed: %w", cmpErr(ctx.Err(), errors.New("start-up timed out")))
	}
}

func cmpErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// start launches (or connects) the browser of slot s and makes it the slot's current one. It does
// not start the watcher or warm anything.
func (p *Pool) start(ctx context.Context, s *slot) (*instance, error) {
	var proc *Process
	var err error
	if p.cfg.RemoteURL != "" {
		proc, err = Connect(ctx, p.cfg.RemoteURLs()[s.idx])
	} else {
		proc, err = Launch(ctx, LaunchOptions{Bin: p.cfg.Bin, Flags: p.cfg.Flags})
	}
	if err != nil {
		p.mu.Lock()
		p.lastErr = err
		p.mu.Unlock()
		return nil, err
	}
	ictx, icancel := context.WithCancel(context.Background())
	in := &instance{
		slot:   s,
		proc:   proc,
		pid:    proc.PID(),
		b:      proc.Browser.Context(ictx),
		ctx:    ictx,
		cancel: icancel,
		deadCh: make(chan struct{}),
		ctxs:   map[proto.BrowserBrowserContextID]struct{}{},
	}
	if p.cfg.Stealth {
		if err = in.stealthIdentity(ctx, p.log); err != nil {
			icancel()
			proc.Close()
			err = errs.E(errs.BrowserUnavailable, "browser version: %w", err)
			p.mu.Lock()
			p.lastErr = err
			p.mu.Unlock()
			return nil, err
		}
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		proc.Close()
		icancel()
		return nil, errs.E(errs.BrowserUnavailable, "browser pool is closed")
	}
	p.live[in] = struct{}{}
	s.cur = in
	p.lastErr = nil
	p.mu.Unlock()
	p.log.Info("browser pool: browser up", "slot", s.idx, "pid", in.pid, "remote", p.cfg.RemoteURL != "")
	return in, nil
}

// stealthIdentity derives the user agent a headless browser should show: its own, with
// "HeadlessChrome" replaced by "Chrome". Overriding the user agent alone would empty the client
// hints (navigator.userAgentData, Sec-CH-UA), itself a tell, so their real values are read once
// from a secure page and passed along.
func (in *instance) stealthIdentity(ctx context.Context, log *slog.Logger) error {
	v, err := proto.BrowserGetVersion{}.Call(in.b.Context(ctx))
	if err != nil {
		return err
	}
	in.ua = strings.ReplaceAll(v.UserAgent, "HeadlessChrome", "Chrome")
	if in.uaMeta, err = in.clientHints(ctx); err != nil {
		log.Warn("browser pool: no client hints for the stealth user agent", "pid", in.pid, "err", err)
	}
	return nil
}

// clientHints reads the browser's user-agent client hints in a throwaway context, on
// chrome://version: the hints need a secure context, which about:blank is not, and the page
// needs no network.
func (in *instance) clientHints(ctx context.Context) (*proto.EmulationUserAgentMetadata, error) {
	inc, err := in.b.Context(ctx).Incognito()
	if err != nil {
		return nil, err
	}
	defer func() {
		_ = proto.TargetDisposeBrowserContext{BrowserContextID: inc.BrowserContextID}.Call(in.b.Context(ctx))
	}()
	t, err := proto.TargetCreateTarget{URL: "chrome://version", BrowserContextID: inc.BrowserContextID}.Call(inc)
	if err != nil {
		return nil, err
	}
	defer in.b.RemoveState(t.TargetID)
	page, err := inc.PageFromTarget(t.TargetID)
	if err != nil {
		return nil, err
	}
	if err := page.WaitLoad(); err != nil {
		return nil, err
	}
	res, err := page.Eval(`async () => navigator.userAgentData ? await navigator.userAgentData.getHighEntropyValues(
		["architecture", "bitness", "model", "platformVersion", "fullVersionList", "wow64"]) : null`)
	if err != nil {
		return nil, err
	}
	if res.Value.Nil() {
		return nil, nil
	}
	var meta proto.EmulationUserAgentMetadata
	if err := json.Unmarshal([]byte(res.Value.JSON("", "")), &meta); err != nil {
		return nil, err
	}
	for _, list := range [][]*proto.EmulationUserAgentBrandVersion{meta.Brands, meta.FullVersionList} {
		for _, b := range list {
			if b.Brand == "HeadlessChrome" {
				b.Brand = "Google Chrome"
			}
		}
	}
	return &meta, nil
}

// userAgentOverride is the stealth identity of in's pages.
func (in *instance) userAgentOverride() proto.EmulationSetUserAgentOverride {
	return proto.EmulationSetUserAgentOverride{UserAgent: in.ua, UserAgentMetadata: in.uaMeta}
}

// watch notices the death of in's process or connection and hands it to died. It returns once
// both the process and the connection are gone.
func (p *Pool) watch(in *instance) {
	defer p.wg.Done()
	var inner sync.WaitGroup
	gone := make(chan struct{})
	var once sync.Once
	mark := func() { once.Do(func() { close(gone) }) }
	inner.Add(2)
	go func() { // the process (a no-op for a remote browser)
		defer inner.Done()
		if in.pid > 0 {
			in.proc.exited()
			mark()
		}
	}()
	go func() { // the websocket: rod closes its event stream when the connection drops
		defer inner.Done()
		for range in.b.Event() {
		}
		mark()
	}()
	<-gone
	p.died(in)
	inner.Wait()
}

// died marks in dead: its sessions report Crashed, its idle contexts are dropped and its slot
// relaunches. A death the pool did not cause counts as a crash.
func (p *Pool) died(in *instance) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if in.dead.Swap(true) {
		return
	}
	close(in.deadCh)
	if !in.closing && !p.closed {
		p.crashes++
		p.log.Warn("browser pool: browser died", "slot", in.slot.idx, "pid", in.pid, "in_use", in.inUse)
	}
	s := in.slot
	if s.cur == in {
		s.cur = nil
	}
	s.want += p.dropIdle(in)
	in.ctxs = map[proto.BrowserBrowserContextID]struct{}{} // gone with the browser
	p.maybeRetire(in)
	kick(s)
}

// dropIdle removes in's idle contexts from the pool and returns how many there were. Under mu.
func (p *Pool) dropIdle(in *instance) int {
	kept := p.idle[:0]
	var dropped []*warmCtx
	for _, w := range p.idle {
		if w.in == in {
			dropped = append(dropped, w)
		} else {
			kept = append(kept, w)
		}
	}
	clear(p.idle[len(kept):])
	p.idle = kept
	in.idle -= len(dropped)
	if !in.dead.Load() {
		for _, w := range dropped {
			p.goDispose(w)
		}
	}
	return len(dropped)
}

// drain stops in from taking new leases: its idle contexts go, its slot launches a replacement,
// and it is closed once its last session is released. Under mu.
func (p *Pool) drain(in *instance, why string) {
	if in.draining || in.dead.Load() {
		return
	}
	in.draining = true
	s := in.slot
	if s.cur == in {
		s.cur = nil
	}
	s.want += p.dropIdle(in)
	p.log.Info("browser pool: draining browser", "slot", s.idx, "pid", in.pid, "why", why, "in_use", in.inUse)
	p.maybeRetire(in)
	kick(s)
}

// maybeRetire closes a dead or draining browser once nothing of it is in use. Under mu.
func (p *Pool) maybeRetire(in *instance) {
	if in.retired || !(in.dead.Load() || in.draining) || in.inUse > 0 || in.warming > 0 || in.idle > 0 {
		return
	}
	in.retired = true
	delete(p.live, in)
	if !in.dead.Load() {
		in.closing = true
		if in.draining && !p.closed {
			p.recycles++
		}
	}
	if p.closed { // Close ends every browser itself
		return
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		p.closeInstance(in)
	}()
}

// closeInstance ends in's browser (or, for a remote one, disposes the pool's contexts in it and
// drops the connection).
func (p *Pool) closeInstance(in *instance) {
	if in.pid == 0 && !in.dead.Load() {
		p.mu.Lock()
		ids := make([]proto.BrowserBrowserContextID, 0, len(in.ctxs))
		for id := range in.ctxs {
			ids = append(ids, id)
		}
		p.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), disposeTimeout)
		for _, id := range ids {
			_ = proto.TargetDisposeBrowserContext{BrowserContextID: id}.Call(in.b.Context(ctx))
		}
		cancel()
	}
	in.proc.Close()
	in.cancel()
}

// keep is slot s's keeper: it (re)launches the slot's browser, with backoff, and starts the
// warm-ups the slot wants, up to warmParallel at a time. It runs until Close.
func (p *Pool) keep(s *slot) {
	defer p.wg.Done()
	backoff := backoffMin
	for {
		select {
		case <-p.ctx.Done():
			return
		case <-s.kick:
		}
		for p.ctx.Err() == nil {
			p.mu.Lock()
			if p.closed {
				p.mu.Unlock()
				return
			}
			in := s.cur
			if in == nil {
				p.mu.Unlock()
				ctx, cancel := context.WithTimeout(p.ctx, launchTimeout)
				in, err := p.start(ctx, s)
				cancel()
				if err != nil {
					if p.ctx.Err() != nil {
						return
					}
					p.log.Error("browser pool: relaunch browser", "slot", s.idx, "err", err, "retry_in", backoff)
					t := time.NewTimer(backoff)
					select {
					case <-p.ctx.Done():
						t.Stop()
						return
					case <-t.C:
					}
					backoff = min(2*backoff, backoffMax)
					continue
				}
				backoff = backoffMin
				p.mu.Lock()
				if !p.closed {
					p.wg.Add(1)
					go p.watch(in)
				}
				p.mu.Unlock()
				continue
			}
			if s.want == 0 || s.warmers >= warmParallel || time.Now().Before(s.pauseUntil) {
				p.mu.Unlock()
				break
			}
			s.want--
			s.warmers++
			in.warming++
			p.wg.Add(1)
			go p.warmOne(s, in)
			p.mu.Unlock()
		}
	}
}

// warmOne warms a context for slot s on in and offers it; a failure gives the capacity back to
// the slot and pauses its warm-ups with backoff.
func (p *Pool) warmOne(s *slot, in *instance) {
	defer p.wg.Done()
	w, err := p.warm(in)

	p.mu.Lock()
	defer p.mu.Unlock()
	defer kick(s)
	s.warmers--
	in.warming--
	if err == nil && !in.dead.Load() && !in.draining && !p.closed {
		in.warmFails = 0
		s.backoff = 0
		p.offer(w)
		return
	}
	s.want++
	if w != nil && !in.dead.Load() {
		p.goDispose(w)
	}
	if err != nil && !in.dead.Load() && !in.draining && !p.closed {
		s.backoff = min(max(2*s.backoff, backoffMin), backoffMax)
		s.pauseUntil = time.Now().Add(s.backoff)
		time.AfterFunc(s.backoff, func() { kick(s) })
		in.warmFails++
		p.log.Warn("browser pool: warm-up failed", "slot", s.idx, "pid", in.pid, "err", err, "retry_in", s.backoff)
		if in.warmFails >= maxWarmFailures {
			p.drain(in, fmt.Sprintf("%d warm-ups failed in a row", in.warmFails))
		}
	}
	p.maybeRetire(in)
}

// warm creates an incognito context with a blank page in in, stealthy when configured. A warm-up
// that hangs past twice warmTimeout kills the browser (a call rod cannot bound otherwise).
func (p *Pool) warm(in *instance) (w *warmCtx, err error) {
	ctx, cancel := context.WithTimeout(in.ctx, warmTimeout)
	defer cancel()
	watchdog := time.AfterFunc(2*warmTimeout, func() {
		p.log.Error("browser pool: warm-up hangs, killing the browser", "pid", in.pid)
		in.proc.kill()
	})
	defer watchdog.Stop()

	inc, err := in.b.Context(ctx).Incognito()
	if err != nil {
		return nil, err
	}
	inc = inc.Context(in.ctx) // pages inherit the browser's context: keep them off the timeout
	p.mu.Lock()
	in.ctxs[inc.BrowserContextID] = struct{}{}
	p.mu.Unlock()
	w = &warmCtx{in: in, inc: inc}
	defer func() {
		if err != nil {
			p.dispose(w)
			w = nil
		}
	}()
	t, err := proto.TargetCreateTarget{URL: "about:blank", BrowserContextID: inc.BrowserContextID}.Call(inc.Context(ctx))
	if err != nil {
		return w, err
	}
	if w.page, err = inc.PageFromTarget(t.TargetID); err != nil {
		return w, err
	}
	if in.ua != "" {
		if err = in.userAgentOverride().Call(w.page.Context(ctx)); err != nil {
			return w, err
		}
	}
	if p.cfg.Stealth {
		if _, err = w.page.Context(ctx).EvalOnNewDocument(stealth.JS); err != nil {
			return w, err
		}
	}
	return w, nil
}

// offer hands w to the longest-waiting Lease, or puts it on the idle list. Under mu.
func (p *Pool) offer(w *warmCtx) {
	if len(p.waiters) > 0 {
		wt := p.waiters[0]
		p.waiters[0] = nil
		p.waiters = p.waiters[1:]
		p.take(w)
		wt.ch <- w
	} else {
		p.idle = append(p.idle, w)
		w.in.idle++
	}
	select {
	case p.warmed <- struct{}{}:
	default:
	}
}

// take accounts for the lease of w and drains its browser when it reached RecycleAfter. Under mu.
func (p *Pool) take(w *warmCtx) {
	in := w.in
	in.inUse++
	in.leases++
	p.leases++
	if p.cfg.RecycleAfter > 0 && in.leases >= p.cfg.RecycleAfter {
		p.drain(in, fmt.Sprintf("served %d leases", in.leases))
	}
}

// goDispose disposes w in the background. Under mu.
func (p *Pool) goDispose(w *warmCtx) {
	if p.closed {
		return
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		p.dispose(w)
	}()
}

// dispose closes w's context with all its pages. Disposing the context closes every tab in it
// and drops its cookies, storage and cache.
func (p *Pool) dispose(w *warmCtx) {
	in := w.in
	ctx, cancel := context.WithTimeout(in.ctx, disposeTimeout)
	defer cancel()
	b := in.b.Context(ctx)
	// rod caches a Page per target; forget the context's pages so a long-lived browser
	// does not accumulate them.
	var pages []proto.TargetTargetID
	if ts, err := (proto.TargetGetTargets{}).Call(b); err == nil {
		for _, t := range ts.TargetInfos {
			if t.BrowserContextID == w.inc.BrowserContextID {
				pages = append(pages, t.TargetID)
			}
		}
	}
	err := proto.TargetDisposeBrowserContext{BrowserContextID: w.inc.BrowserContextID}.Call(b)
	for _, id := range pages {
		in.b.RemoveState(id)
	}
	p.mu.Lock()
	delete(in.ctxs, w.inc.BrowserContextID)
	quiet := in.dead.Load() || in.closing || p.closed
	p.mu.Unlock()
	if err != nil && !quiet {
		p.log.Warn("browser pool: dispose context", "pid", in.pid, "err", err)
	}
}

func kick(s *slot) {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// Lease returns a warm session at once when one is idle; otherwise it waits, first come first
// served, up to LeaseTimeout (or ctx) for one and then fails with errs.Busy. It never creates a
// context itself. The caller must Release the session.
func (p *Pool) Lease(ctx context.Context) (*Session, error) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, errs.E(errs.BrowserUnavailable, "browser pool is closed")
	}
	if len(p.waiters) == 0 && len(p.idle) > 0 {
		w := p.idle[0]
		p.idle[0] = nil
		p.idle = p.idle[1:]
		w.in.idle--
		p.take(w)
		p.mu.Unlock()
		return &Session{p: p, w: w}, nil
	}
	wt := &waiter{ch: make(chan *warmCtx, 1)}
	p.waiters = append(p.waiters, wt)
	p.mu.Unlock()

	t := time.NewTimer(p.cfg.LeaseTimeout)
	defer t.Stop()
	var cause error
	select {
	case w := <-wt.ch:
		return &Session{p: p, w: w}, nil
	case <-t.C:
	case <-ctx.Done():
		cause = ctx.Err()
	case <-p.ctx.Done():
	}

	p.mu.Lock()
	queued := false
	for i, x := range p.waiters {
		if x == wt {
			p.waiters = append(p.waiters[:i], p.waiters[i+1:]...)
			queued = true
			break
		}
	}
	closed, up, lastErr := p.closed, p.up(), p.lastErr
	p.mu.Unlock()
	if !queued { // a context arrived as we gave up
		s := &Session{p: p, w: <-wt.ch}
		if !errors.Is(cause, context.Canceled) {
			return s, nil
		}
		s.Release()
	}
	switch {
	case closed:
		return nil, errs.E(errs.BrowserUnavailable, "browser pool is closed")
	case errors.Is(cause, context.Canceled):
		return nil, errs.E(errs.Canceled, "waiting for a browser context: %w", cause)
	case up == 0 && lastErr != nil:
		return nil, errs.E(errs.BrowserUnavailable, "no browser is running: %w", lastErr)
	}
	capacity := p.cfg.Browsers * p.cfg.Contexts
	if cause != nil {
		return nil, errs.E(errs.Busy, "all %d browser contexts are busy: %w", capacity, cause)
	}
	return nil, errs.E(errs.Busy, "all %d browser contexts are busy", capacity)
}

// up counts the browsers alive. Under mu.
func (p *Pool) up() int {
	n := 0
	for in := range p.live {
		if !in.dead.Load() {
			n++
		}
	}
	return n
}

// Stats returns a snapshot of the pool's state and counters.
func (p *Pool) Stats() Stats {
	p.mu.Lock()
	defer p.mu.Unlock()
	st := Stats{
		Browsers: p.up(),
		Capacity: p.cfg.Browsers * p.cfg.Contexts,
		Idle:     len(p.idle),
		Waiting:  len(p.waiters),
		Leases:   p.leases,
		Crashes:  p.crashes,
		Recycles: p.recycles,
	}
	for in := range p.live {
		st.InUse += in.inUse
	}
	return st
}

// Close ends every browser of the pool and waits for its background work. Sessions still leased
// report Crashed afterwards, and their Release does nothing. Close is idempotent.
func (p *Pool) Close() error {
	p.closeOnce.Do(func() {
		p.mu.Lock()
		p.closed = true
		p.cancel()
		p.waiters = nil
		p.idle = nil
		var all []*instance
		for in := range p.live {
			in.closing = true
			all = append(all, in)
		}
		// Retired browsers still closing are waited for through wg.
		p.mu.Unlock()

		var wg sync.WaitGroup
		for _, in := range all {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p.closeInstance(in)
			}()
		}
		wg.Wait()
		p.wg.Wait()
	})
	return nil
}

// Session is one leased isolated browser context with its warm page. It belongs to one run and
// must be released when the run ends, whatever happened.
type Session struct {
	p        *Pool
	w        *warmCtx
	released atomic.Bool
}

// Page is the session's warm page: blank, in the session's own incognito context.
func (s *Session) Page() *rod.Page { return s.w.page }

// Browser is the session's incognito context, for opening more tabs in it. Tabs opened here do
// not get the stealth patches of Page; use NewPage for that.
func (s *Session) Browser() *rod.Browser { return s.w.inc }

// NewPage opens another blank tab in the session's context, with the same stealth set-up as Page.
func (s *Session) NewPage(ctx context.Context) (*rod.Page, error) {
	in := s.w.in
	t, err := proto.TargetCreateTarget{URL: "about:blank", BrowserContextID: s.w.inc.BrowserContextID}.Call(s.w.inc.Context(ctx))
	if err != nil {
		return nil, s.wrapErr(err)
	}
	page, err := s.w.inc.PageFromTarget(t.TargetID)
	if err != nil {
		return nil, s.wrapErr(err)
	}
	if in.ua != "" {
		if err := in.userAgentOverride().Call(page.Context(ctx)); err != nil {
			return nil, s.wrapErr(err)
		}
	}
	if s.p.cfg.Stealth {
		if _, err := page.Context(ctx).EvalOnNewDocument(stealth.JS); err != nil {
			return nil, s.wrapErr(err)
		}
	}
	return page, nil
}

func (s *Session) wrapErr(err error) error {
	if s.Crashed() {
		return errs.E(errs.BrowserCrashed, "the browser crashed: %w", err)
	}
	return err
}

// Crashed reports whether the browser behind the session died (or the pool was closed under it).
// It is cheap: the pool's watcher flag, else a signal-0 probe of the process.
// Done is closed when the browser behind this session dies, so a run can stop at once instead
// of finding out at its next browser call.
func (s *Session) Done() <-chan struct{} { return s.w.in.deadCh }

func (s *Session) Crashed() bool {
	in := s.w.in
	if in.dead.Load() {
		return true
	}
	return in.pid > 0 && errors.Is(syscall.Kill(in.pid, 0), syscall.ESRCH)
}

// PID is the process id of the Chrome behind the session (0 for a remote browser).
func (s *Session) PID() int { return s.w.in.pid }

// Release gives the session back: its context is disposed (closing its tabs and dropping its
// cookies and storage) and a replacement is warmed, both in the background. It is idempotent and
// safe after a crash or Close.
func (s *Session) Release() {
	if s.released.Swap(true) {
		return
	}
	p, w, in := s.p, s.w, s.w.in
	p.mu.Lock()
	defer p.mu.Unlock()
	in.inUse--
	if p.closed {
		return
	}
	// A draining browser that has just lost its last session is closed whole: no need to
	// dispose the context first. A remote one is never killed, so its contexts always are.
	skip := in.dead.Load() || (in.pid > 0 && in.draining && in.inUse == 0)
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		if !skip {
			p.dispose(w)
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		in.slot.want++
		p.maybeRetire(in)
		kick(in.slot)
	}()
}
