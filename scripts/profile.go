package scripts

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/store"
)

// Named browser profiles. A run whose script names a profile gets the cookies and local storage
// the profile's last run left, loaded into its fresh incognito context when it leases its
// browser, and saves them back when it releases it. Without a profile nothing is loaded or
// saved: every run starts from an empty context.
//
// Cookies go through CDP's Storage.getCookies/setCookies for the context. Local storage is per
// origin and CDP reads or writes it only through a frame of that origin, so a tab of the context
// is navigated to each origin in turn with every request answered by an empty page from here
// (Fetch interception: nothing reaches the network and no site script runs), and the values are
// read or written there. The tab is the run's blank warm page at load (left blank again, its
// history cleared) and its current tab at the end (the run is over); a new tab would cost more
// than all the rest. The origins saved are those the profile already had plus those of the
// context's tabs at the run's end; an origin the run visited only in a tab it closed, or
// navigated away from, keeps its previous values.

// profileSaveTimeout bounds saving a profile at a run's end.
const profileSaveTimeout = 15 * time.Second

// loadProfile loads the run's profile into its session once (browser.mu held).
func (e *Env) loadProfile(ctx context.Context) error {
	if e.browser.profileTried {
		return nil
	}
	e.browser.profileTried = true
	name, db := e.profileName(), e.Services().Store
	if name == "" || db == nil {
		return nil
	}
	if b := e.browser.session.Browser(); b == nil || b.BrowserContextID == "" {
		// The extension's tab in the user's own browser: its cookies are the user's, not a
		// profile's to overwrite or copy.
		e.Logger.Info("browser profile not used: the run's browser is not an isolated context", "profile", name)
		return nil
	}
	p, err := db.GetProfile(e.Account, name)
	if errs.Is(err, errs.NotFound) {
		e.browser.profile = name // a new profile: this run's state becomes it
		return nil
	}
	if err != nil {
		return err
	}
	if err := restoreState(ctx, e.browser.session.Browser(), e.browser.page, p); err != nil {
		return errs.E(errs.BrowserUnavailable, "browser profile %s could not be loaded: %v", name, err)
	}
	e.browser.profile = name
	e.Logger.Info("browser profile loaded", "profile", name, "origins", len(p.LocalStorage))
	return nil
}

// saveProfile stores the session's state in the loaded profile (browser.mu held). A crashed
// browser saves nothing: the profile keeps its last good state.
func (e *Env) saveProfile() {
	name, s := e.browser.profile, e.browser.session
	if name == "" || s.Crashed() {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), profileSaveTimeout)
	defer cancel()
	db := e.Services().Store
	old, err := db.GetProfile(e.Account, name)
	if err != nil && !errs.Is(err, errs.NotFound) {
		e.Logger.Error("browser profile not saved", "profile", name, "err", err)
		return
	}
	p, err := captureState(ctx, s.Browser(), e.browser.page, old.LocalStorage)
	if err != nil {
		e.Logger.Error("browser profile not saved", "profile", name, "err", err)
		return
	}
	p.Account, p.Name, p.LastRun = e.Account, name, e.RunID
	if _, err := db.SaveProfile(p); err != nil {
		e.Logger.Error("browser profile not saved", "profile", name, "err", err)
		return
	}
	e.Logger.Info("browser profile saved", "profile", name, "origins", len(p.LocalStorage))
}

func (e *Env) profileName() string {
	if e.run == nil || e.run.Script == nil {
		return ""
	}
	return e.run.Script.Profile
}

// restoreState puts p's cookies and local storage into the context of b, through its blank warm
// page, which it leaves blank again with no history (a later "go back" must not reach the empty
// stand-in pages).
func restoreState(ctx context.Context, b *rod.Browser, page *rod.Page, p store.Profile) error {
	b = b.Context(ctx)
	if len(p.Cookies) > 0 {
		var cookies []*proto.NetworkCookie
		if err := json.Unmarshal(p.Cookies, &cookies); err != nil {
			return fmt.Errorf("stored cookies: %w", err)
		}
		if len(cookies) > 0 {
			if err := b.SetCookies(proto.CookiesToParams(cookies)); err != nil {
				return fmt.Errorf("set cookies: %w", err)
			}
		}
	}
	if len(p.LocalStorage) == 0 {
		return nil
	}
	page = page.Context(ctx)
	err := atOrigins(page, sortedOrigins(p.LocalStorage), func(page *rod.Page, origin string) error {
		_, err := page.Eval(`items => { for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v) }`, p.LocalStorage[origin])
		return err
	})
	if err != nil {
		return err
	}
	if err := page.Navigate("about:blank"); err != nil {
		return fmt.Errorf("blank the page again: %w", err)
	}
	if err := page.WaitLoad(); err != nil {
		return fmt.Errorf("blank the page again: %w", err)
	}
	if err := (proto.PageResetNavigationHistory{}).Call(page); err != nil {
		return fmt.Errorf("clear the page's history: %w", err)
	}
	return nil
}

// captureState reads the cookies and local storage of b's context: of the origins in known and
// of the context's open tabs, through page (the run's current tab: the run is over, so it may
// navigate away).
func captureState(ctx context.Context, b *rod.Browser, page *rod.Page, known map[string]map[string]string) (store.Profile, error) {
	b = b.Context(ctx)
	var p store.Profile
	cookies, err := b.GetCookies()
	if err != nil {
		return p, fmt.Errorf("get cookies: %w", err)
	}
	if p.Cookies, err = json.Marshal(cookies); err != nil {
		return p, err
	}
	origins := map[string]bool{}
	for o := range known {
		origins[o] = true
	}
	targets, err := proto.TargetGetTargets{}.Call(b)
	if err != nil {
		return p, fmt.Errorf("list tabs: %w", err)
	}
	for _, t := range targets.TargetInfos {
		if t.Type == proto.TargetTargetInfoTypePage && t.BrowserContextID == b.BrowserContextID {
			if o := originOf(t.URL); o != "" {
				origins[o] = true
			}
		}
	}
	p.LocalStorage = map[string]map[string]string{}
	if page == nil {
		return p, nil
	}
	err = atOrigins(page.Context(ctx), sortedOrigins(origins), func(page *rod.Page, origin string) error {
		res, err := page.Eval(`() => Object.fromEntries(Object.entries(localStorage))`)
		if err != nil {
			return err
		}
		items := map[string]string{}
		if err := res.Value.Unmarshal(&items); err != nil {
			return err
		}
		if len(items) > 0 {
			p.LocalStorage[origin] = items
		}
		return nil
	})
	return p, err
}

// atOrigins navigates page to each origin in turn and calls f there. While it does, every
// request of the page is answered here with an empty page, so no request leaves and no site
// script runs.
func atOrigins(page *rod.Page, origins []string, f func(*rod.Page, string) error) error {
	if len(origins) == 0 {
		return nil
	}
	router := page.HijackRequests()
	if err := router.Add("*", "", func(h *rod.Hijack) {
		h.Response.SetHeader("Content-Type", "text/html; charset=utf-8")
		h.Response.SetBody("<!doctype html><title></title>")
	}); err != nil {
		return fmt.Errorf("intercept the tab: %w", err)
	}
	go router.Run()
	defer func() { _ = router.Stop() }()
	for _, origin := range origins {
		if err := page.Navigate(origin + "/"); err != nil {
			return fmt.Errorf("open %s: %w", origin, err)
		}
		if err := page.WaitLoad(); err != nil {
			return fmt.Errorf("open %s: %w", origin, err)
		}
		if err := f(page, origin); err != nil {
			return fmt.Errorf("local storage of %s: %w", origin, err)
		}
	}
	return nil
}

// originOf is the http(s) origin of a tab's URL, "" for any other (about:blank, data:, file:).
func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

func sortedOrigins[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for o := range m {
		if originOf(o) == o { // stored origins are re-checked: only http(s) origins are opened
			out = append(out, o)
		}
	}
	sort.Strings(out)
	return out
}
