// Package netguardtest gives outbound-guard tests a resolver that answers from a table and a
// connect log that refuses anything but loopback, so a test can map a name to the cloud metadata
// address and prove the guard refused it without a single packet going there.
package netguardtest

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"sync"
	"syscall"
)

// Names are the test names and what they resolve to. Names that start with "rebind." answer
// one of their addresses per lookup, in turn (DNS rebinding).
var Names = map[string][]string{
	"metadata.test":  {"169.254.169.254"},
	"metadata6.test": {"fd00:ec2::254"},
	"alibaba.test":   {"100.100.100.200"},
	"mixed.test":     {"127.0.0.1", "169.254.169.254"},
	"private.test":   {"10.1.2.3"},
	"loopback.test":  {"127.0.0.1"},
	"mapped.test":    {"::ffff:169.254.169.254"},
	"rebind.test":    {"127.0.0.1", "169.254.169.254"},
}

// Resolver answers from a table and never asks a DNS server.
type Resolver struct {
	mu    sync.Mutex
	Names map[string][]string
	calls map[string]int
}

// NewResolver answers Names.
func NewResolver() *Resolver { return &Resolver{Names: Names} }

// LookupNetIP answers host from the table; an unknown name does not resolve.
func (r *Resolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.calls == nil {
		r.calls = map[string]int{}
	}
	answers, ok := r.Names[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	i := r.calls[host] % len(answers)
	r.calls[host]++
	if strings.HasPrefix(host, "rebind.") {
		answers = answers[i : i+1]
	}
	out := make([]netip.Addr, len(answers))
	for i, a := range answers {
		ip, err := netip.ParseAddr(a)
		if err != nil {
			return nil, err
		}
		out[i] = ip
	}
	return out, nil
}

// ConnectLog is a dialer Control hook, run after the guard's own decision right before connect:
// it records the address and refuses everything but loopback, so even a broken guard sends
// nothing off the machine, and the test sees that it got that far.
type ConnectLog struct {
	mu        sync.Mutex
	addresses []string
}

// Control records address and refuses it unless it is loopback.
func (l *ConnectLog) Control(_, address string, _ syscall.RawConn) error {
	l.mu.Lock()
	l.addresses = append(l.addresses, address)
	l.mu.Unlock()
	if !isLoopback(address) {
		return fmt.Errorf("test safety net: refusing to connect to %s", address)
	}
	return nil
}

// Reached lists every address that got as far as connect.
func (l *ConnectLog) Reached() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.addresses...)
}

// NonLoopback lists the addresses that got as far as connect and are not loopback: each one is
// a guard bug.
func (l *ConnectLog) NonLoopback() []string {
	var out []string
	for _, a := range l.Reached() {
		if !isLoopback(a) {
			out = append(out, a)
		}
	}
	return out
}

func isLoopback(address string) bool {
	ap, err := netip.ParseAddrPort(address)
	return err == nil && ap.Addr().Unmap().IsLoopback()
}
