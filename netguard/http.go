package netguard

import (
	"context"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// Transport returns the guard's HTTP transport: every connection, redirects' included, is dialled
// through DialContext. A proxy from the environment (HTTP_PROXY, HTTPS_PROXY, NO_PROXY) is the
// operator's and is dialled unchecked; the target behind it is checked on its resolution here
// (the proxy resolves it again, so behind a proxy the check is on the name, not the dialled
// address: the proxy's own policy is what holds then).
func (g *Guard) Transport() *http.Transport {
	g.transportOnce.Do(func() {
		g.transport = &http.Transport{
			Proxy:                 g.proxyFor,
			DialContext:           g.DialContext,
			TLSHandshakeTimeout:   10 * time.Second,
			MaxIdleConnsPerHost:   4,
			IdleConnTimeout:       60 * time.Second,
			ForceAttemptHTTP2:     true,
			ExpectContinueTimeout: time.Second,
		}
	})
	return g.transport
}

// proxyFor is http.ProxyFromEnvironment that checks the target when a proxy applies.
func (g *Guard) proxyFor(req *http.Request) (*url.URL, error) {
	p, err := http.ProxyFromEnvironment(req)
	if err != nil || p == nil {
		return p, err
	}
	if _, err := g.Lookup(req.Context(), req.URL.Hostname()); err != nil {
		return nil, err
	}
	g.trust(joinDefaultPort(p.Host, p.Scheme))
	return p, nil
}

// CheckURL resolves a URL's host and checks its addresses: the early, clear refusal for a target
// (open tab checks its URL before the browser navigates). A name that does not resolve is not
// refused here; whoever dials it reports that.
func (g *Guard) CheckURL(ctx context.Context, u *url.URL) error {
	if u == nil || u.Hostname() == "" {
		return nil
	}
	_, err := g.Lookup(ctx, u.Hostname())
	if isBlocked(err) {
		return err
	}
	return nil
}

// lazily built, shared HTTP transport (keep-alive connections are reused across nodes).
type transportState struct {
	transportOnce sync.Once
	transport     *http.Transport
}
