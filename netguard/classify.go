package netguard

import "net/netip"

// Class is what kind of address an IP is, as far as outbound requests are concerned.
type Class int

// The classes, from always refused to public.
const (
	Public Class = iota
	// Metadata is a cloud provider's instance metadata or host endpoint (credentials live there).
	Metadata
	// LinkLocal is 169.254.0.0/16 or fe80::/10: metadata services and the host's neighbours.
	LinkLocal
	// Loopback is 127.0.0.0/8, ::1 and the unspecified address (0.0.0.0 reaches the host itself).
	Loopback
	// Private is RFC 1918, unique-local IPv6, CGNAT and the other non-public ranges.
	Private
)

// Always reports whether the class is refused whatever the policy.
func (c Class) Always() bool { return c == Metadata || c == LinkLocal }

func (c Class) words() string {
	switch c {
	case Metadata:
		return "a cloud metadata address"
	case LinkLocal:
		return "a link-local address"
	case Loopback:
		return "a loopback address"
	case Private:
		return "a private address"
	}
	return "a public address"
}

// String names the class as the docs do.
func (c Class) String() string {
	return [...]string{"public", "metadata", "link-local", "loopback", "private"}[c]
}

// metadataAddrs are cloud endpoints outside 169.254.0.0/16 that hand out credentials or control
// the instance: AWS's IPv6 metadata, Alibaba Cloud's metadata, Oracle's legacy metadata and
// Azure's WireServer.
var metadataAddrs = map[netip.Addr]bool{
	addr("fd00:ec2::254"):   true,
	addr("100.100.100.200"): true,
	addr("192.0.0.192"):     true,
	addr("168.63.129.16"):   true,
}

// privatePrefixes are the non-public ranges netip has no predicate for.
var privatePrefixes = []netip.Prefix{
	prefix("0.0.0.0/8"),     // "this network"
	prefix("100.64.0.0/10"), // carrier-grade NAT, also cloud-internal
	prefix("192.0.0.0/24"),  // IETF protocol assignments
	prefix("198.18.0.0/15"), // benchmarking
	prefix("240.0.0.0/4"),   // reserved, and the broadcast address
	prefix("fec0::/10"),     // deprecated site-local
	prefix("100::/64"),      // discard-only
}

// Embedded IPv4 forms: an IPv6 address that a NAT64 gateway, a 6to4 relay or the deprecated
// IPv4-compatible form turns into the IPv4 address it carries.
var (
	nat64     = prefix("64:ff9b::/96")
	nat64Locl = prefix("64:ff9b:1::/48")
	sixToFour = prefix("2002::/16")
	v4compat  = prefix("::/96")
)

// Classify says what kind of address ip is. IPv6 forms that carry an IPv4 address (mapped,
// NAT64, 6to4, IPv4-compatible) are judged by the IPv4 address they carry.
func Classify(ip netip.Addr) Class {
	ip = ip.Unmap().WithZone("")
	if v4, ok := embeddedV4(ip); ok {
		if c := Classify(v4); c != Public {
			return c
		}
	}
	switch {
	case metadataAddrs[ip]:
		return Metadata
	case ip.IsLinkLocalUnicast(), ip.IsLinkLocalMulticast():
		return LinkLocal
	case ip.IsLoopback(), ip.IsUnspecified():
		return Loopback
	case ip.IsPrivate(), ip.IsMulticast(), ip.IsInterfaceLocalMulticast():
		return Private
	}
	for _, p := range privatePrefixes {
		if p.Contains(ip) {
			return Private
		}
	}
	return Public
}

// embeddedV4 returns the IPv4 address an IPv6 transition address carries.
func embeddedV4(ip netip.Addr) (netip.Addr, bool) {
	if !ip.Is6() {
		return netip.Addr{}, false
	}
	b := ip.As16()
	switch {
	case nat64.Contains(ip), nat64Locl.Contains(ip):
		return netip.AddrFrom4([4]byte(b[12:16])), true
	case sixToFour.Contains(ip):
		return netip.AddrFrom4([4]byte(b[2:6])), true
	case v4compat.Contains(ip) && !ip.IsUnspecified() && !ip.IsLoopback():
		return netip.AddrFrom4([4]byte(b[12:16])), true
	}
	return netip.Addr{}, false
}

// addr and prefix parse the literals of the tables above (a typo there panics at start).
func addr(s string) netip.Addr {
	a, err := netip.ParseAddr(s)
	if err != nil {
		panic(err)
	}
	return a
}

func prefix(s string) netip.Prefix {
	p, err := netip.ParsePrefix(s)
	if err != nil {
		panic(err)
	}
	return p
}
