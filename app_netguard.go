package main

import (
	"fmt"
	"log/slog"

	"github.com/rodeo-run/rodeo/browser"
	"github.com/rodeo-run/rodeo/netguard"
	"github.com/rodeo-run/rodeo/scripts"
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

// sandbox sets the code sandbox from --code-sandbox and --code-network, and says at start when
// bwrap cannot run (code nodes then fail with sandbox_unavailable; the server still serves).
func (sf *serviceFlags) sandbox(svc *scripts.Services, log *slog.Logger) error {
	switch sf.codeSandbox {
	case "on", "":
	case "off":
		svc.Sandbox.Off = true
		log.Warn("code nodes run without a sandbox (--code-sandbox=off)")
	default:
		return fmt.Errorf("--code-sandbox / RODEO_CODE_SANDBOX: want on or off, got %q", sf.codeSandbox)
	}
	svc.Sandbox.NoNetwork = !sf.codeNetwork
	if sf.codeNodes && !svc.Sandbox.Off {
		if _, err := svc.Sandbox.Available(); err != nil {
			log.Warn("code nodes will be refused", "reason", err.Error())
		}
	}
	return nil
}
