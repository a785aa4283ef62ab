package netguard

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httputil"
	"sync/atomic"
	"time"

	"github.com/rodeo-run/rodeo/errs"
)

// BlockedHeader marks the proxy's refusal answers, with the refusal's message as its value.
const BlockedHeader = "X-Rodeo-Blocked"

// Proxy is a forward HTTP proxy on loopback that dials every browser connection through the
// guard: Chrome launched with --proxy-server pointing at it (and --proxy-bypass-list=<-loopback>,
// so loopback goes through it too) can reach only what the guard allows, whatever a page, a
// redirect, a subresource, a fetch or a WebSocket asks for, and Chrome never resolves a name
// itself (the proxy does, and dials the address it checked).
type Proxy struct {
	g       *Guard
	ln      net.Listener
	srv     *http.Server
	rp      *httputil.ReverseProxy
	log     *slog.Logger
	refused atomic.Int64
}

// StartProxy listens on 127.0.0.1 (a free port) and serves until Close.
func (g *Guard) StartProxy(log *slog.Logger) (*Proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("outbound proxy: %w", err)
	}
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	p := &Proxy{g: g, ln: ln, log: log}
	tr := g.Transport().Clone()
	tr.Proxy = g.proxyFor
	p.rp = &httputil.ReverseProxy{
		// Rewrite (not Director) drops X-Forwarded-* and adds none: the target sees the browser.
		Rewrite:      func(r *httputil.ProxyRequest) { r.Out.URL = r.In.URL; r.Out.Host = r.In.Host },
		Transport:    tr,
		ErrorHandler: p.answerError,
	}
	p.srv = &http.Server{Handler: p, ReadHeaderTimeout: 30 * time.Second}
	go func() { _ = p.srv.Serve(ln) }()
	return p, nil
}

// URL is the proxy's address for Chrome's --proxy-server.
func (p *Proxy) URL() string { return "http://" + p.ln.Addr().String() }

// Refused counts the connections the proxy refused.
func (p *Proxy) Refused() int64 { return p.refused.Load() }

// ChromeFlags are the Chrome switches that send all of a browser's traffic through the proxy:
// loopback too (Chrome bypasses proxies for loopback unless told <-loopback>), and WebRTC may
// not use UDP outside the proxy.
func (p *Proxy) ChromeFlags() map[string]string {
	return map[string]string{
		"proxy-server":                    p.URL(),
		"proxy-bypass-list":               "<-loopback>",
		"force-webrtc-ip-handling-policy": "disable_non_proxied_udp",
	}
}

// Close stops the proxy and ends its tunnels.
func (p *Proxy) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	err := p.srv.Shutdown(ctx)
	_ = p.srv.Close()
	return err
}

func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodConnect {
		p.tunnel(w, r)
		return
	}
	if !r.URL.IsAbs() {
		http.Error(w, "rodeo's outbound proxy serves proxy requests only", http.StatusBadRequest)
		return
	}
	p.rp.ServeHTTP(w, r)
}

// tunnel answers CONNECT (HTTPS, WebSockets) with a byte pipe to the checked address.
func (p *Proxy) tunnel(w http.ResponseWriter, r *http.Request) {
	up, err := p.g.DialContext(r.Context(), "tcp", r.Host)
	if err != nil {
		p.answerError(w, r, err)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		up.Close()
		http.Error(w, "no tunnel", http.StatusInternalServerError)
		return
	}
	down, buf, err := hj.Hijack()
	if err != nil {
		up.Close()
		return
	}
	_, _ = down.Write([]byte("HTTP/1.1 200 Connection Established\r\n\r\n"))
	go pipe(up, down, buf.Reader)
}

// pipe copies both ways until either side closes.
func pipe(up, down net.Conn, pending io.Reader) {
	done := make(chan struct{}, 2)
	go func() { _, _ = io.Copy(up, pending); done <- struct{}{} }()
	go func() { _, _ = io.Copy(down, up); done <- struct{}{} }()
	<-done
	up.Close()
	down.Close()
	<-done
}

// answerError tells the browser why: 403 with the guard's message for a refusal, 502 otherwise.
func (p *Proxy) answerError(w http.ResponseWriter, r *http.Request, err error) {
	if isBlocked(err) {
		p.refused.Add(1)
		_, msg := errs.Public(blockedError(err))
		p.log.Warn("outbound request refused", "host", r.Host, "reason", msg)
		w.Header().Set(BlockedHeader, msg)
		http.Error(w, "rodeo refused this request: "+msg, http.StatusForbidden)
		return
	}
	if errors.Is(err, context.Canceled) {
		return
	}
	http.Error(w, "rodeo's outbound proxy could not reach "+r.Host, http.StatusBadGateway)
}

func isBlocked(err error) bool { return errs.Is(err, errs.AddressBlocked) }

// blockedError is the address_blocked error in err's chain.
func blockedError(err error) error {
	var e *errs.Error
	if errors.As(err, &e) {
		return e
	}
	return err
}
