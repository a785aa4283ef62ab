package main

import (
	"log/slog"

	"github.com/rodeo-run/rodeo/browser"
	"github.com/rodeo-run/rodeo/netguard"
)

// outboundGuard is the run's outbound guard, built once from --deny-private-network.
func (sf *serviceFlags) outboundGuard() *netguard.Guard {
	if sf.guard == nil {
		sf.guard = netguard.New(netguard.Options{DenyPrivate: sf.denyPrivate})
	}
	return sf.guard
}

// guardBrowsers sends the traffic of the browsers the pool launches through the guard's local
// proxy (docs/security.md). A remote browser (RODEO_CHROME_URL) has its own network and is not
// covered; a --chrome-flag proxy-server of the operator's wins, with a warning. The returned
// stop ends the proxy.
func (sf *serviceFlags) guardBrowsers(cfg *browser.Config, log *slog.Logger) (stop func(), err error) {
	if cfg.RemoteURL != "" {
		log.Warn("the outbound guard does not cover a remote browser (RODEO_CHROME_URL): its pages can reach whatever its network allows; open tab still checks its URL")
		return func() {}, nil
	}
	if _, set := cfg.Flags["proxy-server"]; set {
		log.Warn("--chrome-flag proxy-server is set: the browser's traffic bypasses the outbound guard")
		return func() {}, nil
	}
	p, err := sf.outboundGuard().StartProxy(log)
	if err != nil {
		return nil, err
	}
	if cfg.Flags == nil {
		cfg.Flags = map[string]string{}
	}
	for k, v := range p.ChromeFlags() {
		cfg.Flags[k] = v
	}
	return func() { _ = p.Close() }, nil
}
