// Package netguard decides which network addresses rodeo's outbound requests may reach: the HTTP
// nodes (api, send_data, get_data, download) and, through a local forward proxy, the browser.
// Cloud metadata and link-local addresses are always refused; a server started with
// --deny-private-network also refuses private ranges and loopback. The decision is made on the
// address actually dialled, after name resolution, in the dialer's Control hook, so neither a name
// that resolves to a refused address (DNS rebinding) nor a redirect gets past it.
package netguard

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/rodeo-run/rodeo/errs"
)

// Resolver looks up a host's addresses (*net.Resolver satisfies it; tests inject a map).
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Options configure a Guard.
type Options struct {
	// DenyPrivate also refuses private ranges, loopback, CGNAT and other non-public addresses,
	// for servers whose users must not reach the server's own network.
	DenyPrivate bool
	// Resolver resolves host names. Optional. Default: net.DefaultResolver.
	Resolver Resolver
	// Control, when set, runs after the guard's own decision, just before the connect system call,
	// with the address about to be dialled. Tests use it as a safety net that records and refuses
	// every non-loopback connect.
	Control func(network, address string, c syscall.RawConn) error
}

// Guard refuses connections to addresses its policy forbids. A Guard is safe for concurrent use.
type Guard struct {
	denyPrivate bool
	resolver    Resolver
	dialer      *net.Dialer
	// trusted are the addresses of proxies the operator configured (HTTP_PROXY ...): dials to
	// them are the operator's choice, not a user's, and are not checked.
	trusted sync.Map
	transportState
}

// New returns a guard with the given policy.
func New(o Options) *Guard {
	g := &Guard{denyPrivate: o.DenyPrivate, resolver: o.Resolver}
	if g.resolver == nil {
		g.resolver = net.DefaultResolver
	}
	extra := o.Control
	g.dialer = &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second,
		Control: func(network, address string, c syscall.RawConn) error {
			if err := g.checkAddress(address); err != nil {
				return err
			}
			if extra != nil {
				return extra(network, address, c)
			}
			return nil
		}}
	return g
}

var defaultGuard = sync.OnceValue(func() *Guard { return New(Options{}) })

// Default is the guard of the default policy (metadata and link-local refused, nothing else),
// for callers that were given none.
func Default() *Guard { return defaultGuard() }

// DenyPrivate reports whether the guard refuses private addresses too.
func (g *Guard) DenyPrivate() bool { return g.denyPrivate }

// Check decides on one address: nil when it may be dialled, else an address_blocked error that
// names the address and why.
func (g *Guard) Check(ip netip.Addr) error {
	class := Classify(ip)
	switch {
	case class == Public:
		return nil
	case class.Always():
		return errs.E(errs.AddressBlocked, "%s is %s: rodeo never connects to it", ip.Unmap(), class.words())
	case g.denyPrivate:
		return errs.E(errs.AddressBlocked, "%s is %s and this server runs with --deny-private-network", ip.Unmap(), class.words())
	}
	return nil
}

// checkAddress decides on a "host:port" whose host is an IP literal (what Control is given).
func (g *Guard) checkAddress(address string) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		host, _, serr := net.SplitHostPort(address)
		if serr != nil {
			host = address
		}
		ip, perr := netip.ParseAddr(host)
		if perr != nil {
			return errs.E(errs.AddressBlocked, "%s is not an IP address: refused", address)
		}
		return g.Check(ip)
	}
	return g.Check(ap.Addr())
}

// Lookup resolves host (an IP literal is its own answer) and checks every address. A name with
// any refused address is refused as a whole: a name that mixes public and metadata addresses is
// an attack, not a configuration.
func (g *Guard) Lookup(ctx context.Context, host string) ([]netip.Addr, error) {
	if ip, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{ip.Unmap()}, g.Check(ip)
	}
	ips, err := g.resolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return nil, err
	}
	if len(ips) == 0 {
		return nil, &net.DNSError{Err: "no addresses", Name: host, IsNotFound: true}
	}
	for i, ip := range ips {
		ips[i] = ip.Unmap()
		if err := g.Check(ip); err != nil {
			return nil, errs.E(errs.AddressBlocked, "%s resolves to %s", host, err.Error())
		}
	}
	return ips, nil
}

// DialContext resolves address's host with the guard's resolver, refuses it when any of its
// addresses is refused, and dials the resolved addresses themselves (never the name again), with
// the Control hook checking each one right before connect.
func (g *Guard) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	if _, ok := g.trusted.Load(address); ok {
		return g.rawDialer().DialContext(ctx, network, address)
	}
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return nil, err
	}
	ips, err := g.Lookup(ctx, host)
	if err != nil {
		return nil, err
	}
	var first error
	for _, ip := range ips {
		if (network == "tcp4" && !ip.Is4()) || (network == "tcp6" && !ip.Is6()) {
			continue
		}
		c, err := g.dialer.DialContext(ctx, network, net.JoinHostPort(ip.String(), port))
		if err == nil {
			return c, nil
		}
		if first == nil {
			first = err
		}
		if ctx.Err() != nil {
			break
		}
	}
	if first == nil {
		first = fmt.Errorf("dial %s: no %s address", address, network)
	}
	return nil, first
}

// rawDialer dials without the guard (only for the operator's proxies).
func (g *Guard) rawDialer() *net.Dialer {
	return &net.Dialer{Timeout: g.dialer.Timeout, KeepAlive: g.dialer.KeepAlive}
}

// trust marks host:port (a proxy of the environment) as the operator's.
func (g *Guard) trust(hostport string) { g.trusted.Store(hostport, true) }

// joinDefaultPort adds a scheme's default port to a host without one.
func joinDefaultPort(host, scheme string) string {
	if _, _, err := net.SplitHostPort(host); err == nil {
		return host
	}
	port := 80
	if scheme == "https" {
		port = 443
	}
	return net.JoinHostPort(host, strconv.Itoa(port))
}
