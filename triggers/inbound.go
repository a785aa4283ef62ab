// Package triggers starts saved scripts on events from outside: mail to an unguessable address
// (an SMTP listener), SMS and calls in Twilio's webhook format, and screen-state watches that
// check a page and fire when an English condition about it turns true.
//
// Whatever arrives (a mail body, an SMS, a transcript, a value read off a page) reaches the
// script only as variables: values that placeholders copy into node parameters, never nodes or
// code. A trigger runs nothing but its account's saved script, at its latest version.
package triggers

import (
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/store"
)

// Defaults of Config.
const (
	// DefaultMaxMailBytes caps a message the SMTP listener accepts (552 above it).
	DefaultMaxMailBytes = 10 << 20
	// MinWatchEvery is the shortest interval between a watch's checks a user may ask for.
	MinWatchEvery = 10 * time.Second
	// DefaultCheckTimeout bounds one check of a watch (loading the page and reading the value).
	DefaultCheckTimeout = 60 * time.Second
)

// Config wires the inbound triggers to the rest of rodeo.
type Config struct {
	Engine   *scripts.Engine
	Store    *store.DB
	Registry *scripts.Registry
	// MailDomain is the domain of the addresses (t-<token>@MailDomain). Default: the hostname.
	MailDomain string
	// PublicURL is the server's external base URL: phone webhook URLs are written under it, and
	// Twilio signs the URL it posted to, which is this base plus the request's path.
	PublicURL string
	// MaxMailBytes caps an incoming message. Default DefaultMaxMailBytes.
	MaxMailBytes int64
	// MinWatchEvery is the shortest watch interval accepted. Default MinWatchEvery; tests lower it.
	MinWatchEvery time.Duration
	// CheckTimeout bounds one watch check. Default DefaultCheckTimeout.
	CheckTimeout time.Duration
	Logger       *slog.Logger
}

// Inbound runs the inbound triggers of one server.
type Inbound struct {
	cfg     Config
	log     *slog.Logger
	watches *watcher
}

// New returns the inbound triggers of cfg. Watches check nothing until Start.
func New(cfg Config) *Inbound {
	if cfg.Registry == nil {
		cfg.Registry = scripts.DefaultRegistry
	}
	if cfg.MailDomain == "" {
		cfg.MailDomain, _ = os.Hostname()
		if cfg.MailDomain == "" {
			cfg.MailDomain = "localhost"
		}
	}
	cfg.MailDomain = strings.ToLower(strings.TrimSuffix(cfg.MailDomain, "."))
	cfg.PublicURL = strings.TrimRight(cfg.PublicURL, "/")
	if cfg.MaxMailBytes <= 0 {
		cfg.MaxMailBytes = DefaultMaxMailBytes
	}
	if cfg.MinWatchEvery <= 0 {
		cfg.MinWatchEvery = MinWatchEvery
	}
	if cfg.CheckTimeout <= 0 {
		cfg.CheckTimeout = DefaultCheckTimeout
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	in := &Inbound{cfg: cfg, log: cfg.Logger}
	in.watches = newWatcher(in)
	return in
}

// Config returns the configuration in use (defaults filled in).
func (in *Inbound) Config() Config { return in.cfg }

// Address is the email address of a trigger's token.
func (in *Inbound) Address(token string) string { return "t-" + token + "@" + in.cfg.MailDomain }

// PhoneURLs are the webhook URLs of a phone trigger's token.
func (in *Inbound) PhoneURLs(token string) (sms, call string) {
	base := in.cfg.PublicURL + "/triggers/phone/" + token
	return base + "/sms", base + "/call"
}

// ensureScript checks that the account has a saved script name, for a trigger being created.
func (in *Inbound) ensureScript(account, name string) error {
	if strings.TrimSpace(name) == "" {
		return &errs.Error{Code: errs.InvalidConfig, Message: "name is required: the name of one of your saved scripts",
			Details: []errs.Detail{{Field: "name", Problem: "is required"}}}
	}
	_, err := in.cfg.Store.GetScript(account, name, 0)
	return err
}

// compile builds the latest version of the account's saved script name with vars as its
// variables. Only the stored nodes run; vars are values.
func (in *Inbound) compile(account, name string, vars map[string]any) (*scripts.Script, *scripts.ScriptRef, error) {
	v, err := in.cfg.Store.GetScript(account, name, 0)
	if err != nil {
		return nil, nil, err
	}
	var nodes []json.RawMessage
	if err := json.Unmarshal(v.JSONOutput, &nodes); err != nil {
		return nil, nil, errs.E(errs.Internal, "saved script %s: %v", name, err)
	}
	script, err := in.cfg.Registry.Compile(v.Goal, nodes, vars)
	if err != nil {
		return nil, nil, err
	}
	script.Profile = v.Profile
	return script, &scripts.ScriptRef{Name: v.Name, Version: v.Version}, nil
}

// start queues a run of the account's saved script name for the trigger triggerID: source is
// "email", "sms", "call" or "watch", runID the id chosen ahead (files may already wait in its
// folder). The run waits in the engine's queue when every browser is busy.
func (in *Inbound) start(account, name, source, triggerID, runID string, vars map[string]any) (*scripts.Run, error) {
	script, ref, err := in.compile(account, name, vars)
	if err != nil {
		return nil, err
	}
	return in.cfg.Engine.Enqueue(script, scripts.StartOptions{Account: account, Source: source, Script: ref,
		Trigger: &scripts.TriggerRef{ID: triggerID}, RunID: runID})
}

// runFolder is a run's working folder, where the nodes that read and write files work:
// Services.WorkDir/<run id>, or one under the system's temporary directory without a WorkDir
// (the rule of the nodes' own working folder).
func (in *Inbound) runFolder(runID string) string {
	base := ""
	if r := in.cfg.Engine.Runner; r != nil && r.Services != nil {
		base = r.Services.WorkDir
	}
	if base == "" {
		base = filepath.Join(os.TempDir(), "rodeo-work")
	}
	return filepath.Join(base, runID)
}
