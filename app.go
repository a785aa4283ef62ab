package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/rodeo-run/rodeo/browser"
	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/extension"
	"github.com/rodeo-run/rodeo/llm"
	"github.com/rodeo-run/rodeo/mail"
	"github.com/rodeo-run/rodeo/netguard"
	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/semantic"
	"github.com/rodeo-run/rodeo/server"
	"github.com/rodeo-run/rodeo/store"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

// App is rodeo's command line and its wiring; end-to-end tests run it in process too.
type App struct {
	Stdout, Stderr io.Writer
	Stdin          io.Reader
	Getenv         func(string) string
	// Ready, when set, receives the server's address once it listens (tests use it).
	Ready func(addr string)
}

const usage = `rodeo: a self-hosted, browser-first automation server

usage:
  rodeo serve [flags]                  run the HTTP API (see rodeo serve -h)
  rodeo run FILE|-  [flags]            run one agent (a POST /agents body) without a server
  rodeo worker --nats-url URL [flags]  run the runs a server queues on NATS (docs/scale-out.md)
  rodeo keys create [--account NAME]   create an API key (the secret is shown once)
  rodeo keys list                      list keys
  rodeo keys revoke ID                 revoke a key
  rodeo scripts save NAME FILE|- | list | show NAME [--version N] | delete NAME
                                       saved scripts of an account (--key or RODEO_API_KEY)
  rodeo schedules list | add NAME (--cron C | --every D | --text T) | rm ID
                                       schedules of an account's saved scripts
  rodeo store compact                  rewrite the store file without its free space (offline)
  rodeo nodes [--json|--markdown]      the node catalogue
  rodeo version

every command takes --data DIR (env RODEO_DATA, default ./data)
`

// exit codes of rodeo run: 0 succeeded, 1 failed, 2 invalid configuration or usage.
const (
	exitOK      = 0
	exitFailed  = 1
	exitInvalid = 2
)

// Main runs one command and returns its exit code.
func (a *App) Main(ctx context.Context, args []string) (int, error) {
	if len(args) == 0 {
		fmt.Fprint(a.Stderr, usage)
		return exitInvalid, nil
	}
	cmd, rest := args[0], args[1:]
	var err error
	switch cmd {
	case "serve":
		err = a.serve(ctx, rest)
	case "worker":
		err = a.worker(ctx, rest)
	case "run":
		return a.run(ctx, rest)
	case "keys":
		err = a.keys(rest)
	case "nodes":
		err = a.nodes(rest)
	case "scripts":
		err = a.scripts(rest)
	case "schedules":
		err = a.schedules(rest)
	case "store":
		err = a.storeCmd(rest)
	case "version", "--version":
		fmt.Fprintln(a.Stdout, "rodeo", version)
	case "help", "-h", "--help":
		fmt.Fprint(a.Stdout, usage)
	default:
		fmt.Fprintf(a.Stderr, "unknown command %q\n\n%s", cmd, usage)
		return exitInvalid, nil
	}
	if errors.Is(err, flag.ErrHelp) {
		return exitOK, nil
	}
	if err != nil {
		if errs.Is(err, errs.InvalidConfig) {
			return exitInvalid, err
		}
		return exitFailed, err
	}
	return exitOK, nil
}

// env returns $name or def.
func (a *App) env(name, def string) string {
	if v := a.Getenv(name); v != "" {
		return v
	}
	return def
}

func (a *App) envInt(name string, def int) int {
	if v, err := strconv.Atoi(a.Getenv(name)); err == nil {
		return v
	}
	return def
}

func (a *App) envDuration(name string, def time.Duration) time.Duration {
	if v, err := time.ParseDuration(a.Getenv(name)); err == nil {
		return v
	}
	return def
}

func (a *App) envBool(name string, def bool) bool {
	if v, err := strconv.ParseBool(a.Getenv(name)); err == nil {
		return v
	}
	return def
}

// browserFlags are the settings of the browser pool, shared by serve and run.
type browserFlags struct {
	browsers, contexts, recycle int
	stealth                     bool
	leaseTimeout                time.Duration
	chromeFlags                 multiFlag
}

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ";") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

func (a *App) addBrowserFlags(fs *flag.FlagSet, bf *browserFlags, contexts int) {
	fs.IntVar(&bf.browsers, "browsers", a.envInt("RODEO_BROWSERS", 1), "Chrome processes (env RODEO_BROWSERS)")
	fs.IntVar(&bf.contexts, "contexts", a.envInt("RODEO_CONTEXTS", contexts), "concurrent isolated contexts per browser (env RODEO_CONTEXTS)")
	fs.IntVar(&bf.recycle, "recycle-after", a.envInt("RODEO_RECYCLE_AFTER", 200), "replace a browser after this many runs (env RODEO_RECYCLE_AFTER)")
	fs.BoolVar(&bf.stealth, "stealth", a.envBool("RODEO_STEALTH", true), "hide headless tells with go-rod/stealth (env RODEO_STEALTH)")
	fs.DurationVar(&bf.leaseTimeout, "lease-timeout", a.envDuration("RODEO_LEASE_TIMEOUT", 10*time.Second), "how long a run waits for a free browser context before 503 busy (env RODEO_LEASE_TIMEOUT)")
	if v := a.Getenv("RODEO_CHROME_FLAGS"); v != "" {
		for _, f := range strings.Split(v, ";;") {
			if f = strings.TrimSpace(f); f != "" {
				bf.chromeFlags = append(bf.chromeFlags, f)
			}
		}
	}
	fs.Var(&bf.chromeFlags, "chrome-flag", "extra Chrome switch name=value, repeatable (env RODEO_CHROME_FLAGS, ';;'-separated)")
}

func (bf *browserFlags) config(logger *slog.Logger, getenv func(string) string) browser.Config {
	flags := map[string]string{}
	for _, f := range bf.chromeFlags {
		name, val, _ := strings.Cut(strings.TrimLeft(f, "-"), "=")
		flags[name] = val
	}
	return browser.Config{
		Bin: getenv("RODEO_CHROME"), RemoteURL: getenv("RODEO_CHROME_URL"),
		Browsers: bf.browsers, Contexts: bf.contexts, RecycleAfter: bf.recycle, Stealth: bf.stealth,
		LeaseTimeout: bf.leaseTimeout, Flags: flags, Logger: logger,
	}
}

func (a *App) logger(level, format string) *slog.Logger {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(level)); err != nil {
		lv = slog.LevelInfo
	}
	opts := &slog.HandlerOptions{Level: lv}
	if format == "json" {
		return slog.New(slog.NewJSONHandler(a.Stderr, opts))
	}
	return slog.New(slog.NewTextHandler(a.Stderr, opts))
}

// leaser adapts the pool to the runner (a nil *Session must not become a non-nil interface).
func leaser(p *browser.Pool) scripts.Leaser {
	if p == nil {
		return nil
	}
	return scripts.LeaserFunc(func(ctx context.Context) (scripts.BrowserSession, error) {
		s, err := p.Lease(ctx)
		if err != nil {
			return nil, err
		}
		return s, nil
	})
}

func (a *App) serve(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(a.Stderr)
	addr := fs.String("addr", a.env("RODEO_ADDR", "127.0.0.1:8080"), "listen address (env RODEO_ADDR)")
	data := fs.String("data", a.env("RODEO_DATA", "./data"), "data directory (env RODEO_DATA)")
	runTimeout := fs.Duration("run-timeout", a.envDuration("RODEO_RUN_TIMEOUT", 10*time.Minute), "default time limit of a run (env RODEO_RUN_TIMEOUT)")
	bodyLimit := fs.Int("body-limit", a.envInt("RODEO_BODY_LIMIT", 2<<20), "request body limit in bytes (env RODEO_BODY_LIMIT)")
	grace := fs.Duration("shutdown-grace", a.envDuration("RODEO_SHUTDOWN_GRACE", 30*time.Second), "on shutdown, how long running runs may finish before they are canceled (env RODEO_SHUTDOWN_GRACE)")
	logLevel := fs.String("log-level", a.env("RODEO_LOG_LEVEL", "info"), "debug, info, warn or error (env RODEO_LOG_LEVEL)")
	logFormat := fs.String("log-format", a.env("RODEO_LOG_FORMAT", "text"), "text or json (env RODEO_LOG_FORMAT)")
	queueTTL := fs.Duration("extension-queue-ttl", a.envDuration("RODEO_EXTENSION_QUEUE_TTL", extension.DefaultQueueTTL), "how long a run triggered for the companion extension waits for one to connect before it expires (env RODEO_EXTENSION_QUEUE_TTL)")
	queueSize := fs.Int("queue", a.envInt("RODEO_QUEUE", 100), "webhook-triggered runs that may wait for a free browser before triggers answer 503 busy; 0 = no waiting (env RODEO_QUEUE)")
	rateLimit := fs.Int("rate-limit", a.envInt("RODEO_RATE_LIMIT", 0), "requests a minute per API key before 429 rate_limited; 0 = no limit (env RODEO_RATE_LIMIT)")
	publicURL := fs.String("public-url", a.env("RODEO_PUBLIC_URL", ""), "the server's external base URL, for links it writes (env RODEO_PUBLIC_URL; default http://ADDR)")
	var bf browserFlags
	a.addBrowserFlags(fs, &bf, 4)
	var sf serviceFlags
	a.addServiceFlags(fs, &sf)
	var schedf scheduleFlags
	a.addScheduleFlags(fs, &schedf)
	var rf retentionFlags // app_retention.go
	a.addRetentionFlags(fs, &rf)
	display := a.addDisplayFlag(fs)
	var inf inboundFlags
	a.addInboundFlags(fs, &inf)
	var of outboxFlags
	a.addOutboxFlags(fs, &of)
	var cf clusterFlags // app_cluster.go
	a.addClusterFlags(fs, &cf, "serve")
	if err := fs.Parse(args); err != nil {
		return err
	}
	log := a.logger(*logLevel, *logFormat)
	retention, err := rf.policy()
	if err != nil {
		return errs.Wrap(errs.InvalidConfig, err)
	}

	db, err := store.Open(*data)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := a.ensureKey(db); err != nil {
		return err
	}

	bcfg := bf.config(log, a.Getenv)
	stopProxy, err := sf.guardBrowsers(&bcfg, log)
	if err != nil {
		return err
	}
	defer stopProxy()
	pool, err := cf.localPool(ctx, bcfg, bf.browsers) // nil on NATS with --browsers 0
	if err != nil {
		return fmt.Errorf("browser pool: %w", err)
	}
	defer closePool(pool)

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", *addr, err)
	}
	if *publicURL == "" {
		*publicURL = "http://" + ln.Addr().String()
	}
	services, err := a.services(&sf, db, *publicURL, *data, log)
	if err != nil {
		return err
	}
	runner := &scripts.Runner{Registry: scripts.DefaultRegistry, Browsers: leaser(pool), Logger: log, Services: services}
	runner.Desktops = a.desktops(*display, a.Stdout, log)
	engine := scripts.NewEngine(runner, db, log)
	engine.RunTimeout = *runTimeout
	engine.QueueSize = *queueSize
	if err := a.startCluster(ctx, &cf, engine, runner, pool, db, &schedf, log); err != nil {
		return err
	}
	defer cf.stop()
	// The hub first: it claims the runs of its persisted queue, which recovery must leave queued.
	hub := extension.New(extension.Config{Engine: engine, Store: db, QueueTTL: *queueTTL, Logger: log})
	defer hub.Close()
	if n, err := engine.RecoverInterrupted(); err != nil {
		return err
	} else if n > 0 {
		log.Warn("marked runs interrupted by the last stop as failed", "runs", n)
	}
	hub.Resume()
	if n := engine.ResumeQueued(); n > 0 {
		log.Info("resumed runs that were waiting for a browser at the last stop", "runs", n)
	}
	server.AttachExtensionHub(engine, hub)
	stopScheduler := a.startScheduler(schedf, db, engine, log)
	defer stopScheduler() // on every return; a shutdown stops it before the engine, so nothing fires into a closing engine
	// Retention after recovery: runs interrupted by the last stop are finished (and prunable) now.
	stopRetention := startRetention(db, filepath.Join(*data, "work"), retention, rf.every, log)
	defer stopRetention()
	stopInbound, err := a.startInbound(ctx, inf, engine, db, *publicURL, log)
	if err != nil {
		return err
	}
	defer stopInbound()
	stopOutbox := startOutbox(of, services, db, log)
	defer stopOutbox()
	srv := server.New(server.Config{Engine: engine, Registry: scripts.DefaultRegistry, Store: db, BodyLimit: *bodyLimit, Services: services, RateLimit: *rateLimit,
		Logger: log, Version: version, Pool: poolStats(pool), Cluster: cf.health})

	fmt.Fprintf(a.Stdout, "rodeo listening on http://%s\n", ln.Addr())
	log.Info("serving", "addr", ln.Addr().String(), "data", *data, "browsers", bf.browsers, "contexts", bf.contexts)
	if a.Ready != nil {
		a.Ready(ln.Addr().String())
	}
	served := make(chan error, 1)
	go func() { served <- srv.App().Listener(ln) }()

	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	stopScheduler()
	log.Info("shutting down: finishing runs", "grace", grace.String())
	stopInbound()
	graceCtx, cancel := context.WithTimeout(context.Background(), *grace)
	defer cancel()
	cf.stop() // runs on workers go on; their documents are stored after a restart
	shutdownHTTP := make(chan error, 1)
	go func() { shutdownHTTP <- srv.Shutdown(context.Background()) }()
	if err := engine.Shutdown(graceCtx); err != nil {
		log.Error("shutdown", "err", err)
	}
	select {
	case <-shutdownHTTP:
	case <-time.After(5 * time.Second):
	}
	log.Info("stopped")
	return nil
}

// serviceFlags configure the non-browser services of the runner.
type serviceFlags struct {
	codeNodes bool
	smtpURL   string
	llmBelow  string
	record    bool
	// denyPrivate is --deny-private-network; guard is built from it once (outboundGuard).
	denyPrivate bool
	guard       *netguard.Guard
	// codeSandbox is --code-sandbox (on|off), codeNetwork --code-network.
	codeSandbox string
	codeNetwork bool
}

func (a *App) addServiceFlags(fs *flag.FlagSet, sf *serviceFlags) {
	fs.BoolVar(&sf.codeNodes, "code-nodes", a.envBool("RODEO_CODE_NODES", true), "allow python and bash nodes (env RODEO_CODE_NODES)")
	// No env default here: -h prints defaults, and this one holds a password (see services).
	fs.StringVar(&sf.smtpURL, "smtp-url", "", "send email through smtp://user:pass@host:port or smtps://… (env RODEO_SMTP_URL; sender: ?from= or RODEO_SMTP_FROM); unset keeps mail in the outbox")
	fs.BoolVar(&sf.record, "record", a.envBool("RODEO_RECORD", false), "keep a screenshot after every browser step of every run as a run artifact (env RODEO_RECORD)")
	fs.StringVar(&sf.codeSandbox, "code-sandbox", a.env("RODEO_CODE_SANDBOX", "on"), "run code nodes in a bubblewrap sandbox (on), or unsandboxed (off); where bwrap cannot run, code nodes fail with sandbox_unavailable (env RODEO_CODE_SANDBOX)")
	fs.BoolVar(&sf.codeNetwork, "code-network", a.envBool("RODEO_CODE_NETWORK", true), "give sandboxed code nodes the network (env RODEO_CODE_NETWORK)")
	fs.BoolVar(&sf.denyPrivate, "deny-private-network", a.envBool("RODEO_DENY_PRIVATE_NETWORK", false), "outbound requests (HTTP nodes, open tab, the browser's pages) may not reach private ranges or loopback either; cloud metadata and link-local are always refused (env RODEO_DENY_PRIVATE_NETWORK)")
	fs.StringVar(&sf.llmBelow, "llm-below", a.env("RODEO_LLM_BELOW", ""), "with a model configured, the semantic engine asks it when its own confidence is below this; default: the confidence a heuristic answer needs to be acted on; lower saves calls, higher catches more (env RODEO_LLM_BELOW)")
}

// services builds the runner's services: the store, the model (OPENAI_API_KEY, OPENAI_BASE_URL,
// RODEO_LLM_MODEL), mail, the code policy and the runs' working folder.
func (a *App) services(sf *serviceFlags, db *store.DB, publicURL, dataDir string, log *slog.Logger) (*scripts.Services, error) {
	work := filepath.Join(dataDir, "work")
	if err := os.MkdirAll(work, 0o700); err != nil {
		return nil, fmt.Errorf("work directory: %w", err)
	}
	below := semantic.MinConfidence()
	if sf.llmBelow != "" {
		v, err := strconv.ParseFloat(sf.llmBelow, 64)
		if err != nil || !(v > 0 && v < 1) {
			return nil, fmt.Errorf("--llm-below / RODEO_LLM_BELOW: want a confidence between 0 and 1, got %q", sf.llmBelow)
		}
		below = v
	}
	model := llm.New(llm.ConfigFromEnv(a.Getenv))
	if model != nil {
		log.Info("language model configured", "model", model.Model(), "asked_below", below)
	}
	svc := &scripts.Services{Store: db, LLM: model, LLMBelow: below, CodeNodes: sf.codeNodes, PublicURL: publicURL, WorkDir: work, RecordSteps: sf.record}
	svc.Net = sf.outboundGuard()
	if err := sf.sandbox(svc, log); err != nil {
		return nil, err
	}
	if sf.smtpURL == "" {
		sf.smtpURL = a.Getenv("RODEO_SMTP_URL")
	}
	if sf.smtpURL != "" {
		cfg, err := mail.ParseURL(sf.smtpURL)
		if err != nil {
			return nil, fmt.Errorf("--smtp-url / RODEO_SMTP_URL: %w", err)
		}
		if cfg.From == "" {
			cfg.From = a.Getenv("RODEO_SMTP_FROM")
		}
		mailer, err := mail.New(cfg)
		if err != nil {
			return nil, fmt.Errorf("--smtp-url / RODEO_SMTP_URL: %w", err)
		}
		svc.Mailer = mailer
		log.Info("email goes out over SMTP", "smtp", mailer.Config())
	}
	return svc, nil
}

// ensureKey accepts RODEO_API_KEY as a key and, on a store with no key at all, creates one and
// prints it once.
func (a *App) ensureKey(db *store.DB) error {
	if secret := a.Getenv("RODEO_API_KEY"); secret != "" {
		if _, err := db.ImportKey(secret, store.DefaultAccount); err != nil {
			return fmt.Errorf("RODEO_API_KEY: %w", err)
		}
	}
	n, err := db.CountKeys()
	if err != nil || n > 0 {
		return err
	}
	secret, _, err := db.CreateKey(store.DefaultAccount)
	if err != nil {
		return err
	}
	fmt.Fprintf(a.Stdout, "api key: %s\n", secret)
	return nil
}

// run executes one agent configuration without a server and prints its run document.
func (a *App) run(ctx context.Context, args []string) (int, error) {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(a.Stderr)
	fs.String("data", a.env("RODEO_DATA", "./data"), "data directory (env RODEO_DATA; runs of `rodeo run` are not stored)")
	timeout := fs.Duration("timeout", a.envDuration("RODEO_RUN_TIMEOUT", 10*time.Minute), "time limit of the run")
	logLevel := fs.String("log-level", a.env("RODEO_LOG_LEVEL", "warn"), "debug, info, warn or error")
	var bf browserFlags
	a.addBrowserFlags(fs, &bf, 1)
	var sf serviceFlags
	a.addServiceFlags(fs, &sf)
	display := a.addDisplayFlag(fs)
	data := fs.Lookup("data")
	if err := fs.Parse(reorder(args)); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK, nil
		}
		return exitInvalid, err
	}
	if fs.NArg() != 1 {
		return exitInvalid, errors.New("usage: rodeo run FILE|- (a POST /agents body)")
	}
	var body []byte
	var err error
	if fs.Arg(0) == "-" {
		body, err = io.ReadAll(a.Stdin)
	} else {
		body, err = os.ReadFile(fs.Arg(0))
	}
	if err != nil {
		return exitInvalid, err
	}
	log := a.logger(*logLevel, "text")
	req, err := scripts.DecodeRequest(body)
	if err != nil {
		return exitInvalid, describe(err)
	}
	script, err := scripts.DefaultRegistry.Compile(req.Goal, req.JSONOutput, req.Data)
	if err != nil {
		return exitInvalid, describe(err)
	}
	// The store is optional here: a running server holds its lock, and most agents don't need it.
	var db *store.DB
	if d, err := store.Open(data.Value.String()); err == nil {
		db = d
		defer db.Close()
	} else {
		log.Warn("running without the data directory (sheets and the outbox are unavailable)", "err", err)
	}
	services, err := a.services(&sf, db, "", data.Value.String(), log)
	if err != nil {
		return exitInvalid, err
	}
	services.InlineStepValues = true // the run is printed whole, never stored
	runner := &scripts.Runner{Registry: scripts.DefaultRegistry, Logger: log, Services: services}
	if scripts.NeedsDesktop(script.Nodes) {
		runner.Desktops = a.desktops(*display, a.Stderr, log)
	}
	if scripts.NeedsBrowser(script.Nodes) {
		cfg := bf.config(log, a.Getenv)
		cfg.Browsers = 1
		stopProxy, err := sf.guardBrowsers(&cfg, log)
		if err != nil {
			return exitFailed, err
		}
		defer stopProxy()
		pool, err := browser.NewPool(ctx, cfg)
		if err != nil {
			return exitFailed, err
		}
		defer pool.Close()
		runner.Browsers = leaser(pool)
	}
	engine := scripts.NewEngine(runner, nil, log)
	if req.Timeout > 0 {
		*timeout = time.Duration(req.Timeout * float64(time.Second))
	}
	r, err := engine.Start(ctx, script, scripts.StartOptions{Account: store.DefaultAccount, Source: "cli", Timeout: *timeout})
	if err != nil {
		return exitFailed, err
	}
	go func() { <-ctx.Done(); r.Cancel() }()
	doc := engine.Wait(context.Background(), r)
	enc := json.NewEncoder(a.Stdout)
	enc.SetIndent("", "  ")
	_ = enc.Encode(doc)
	if doc.Status != scripts.StatusSucceeded {
		return exitFailed, nil
	}
	return exitOK, nil
}

// describe renders a coded error with its details for the terminal.
func describe(err error) error {
	var e *errs.Error
	if !errors.As(err, &e) || len(e.Details) == 0 {
		return err
	}
	var b strings.Builder
	b.WriteString(e.Message)
	for _, d := range e.Details {
		b.WriteString("\n  - ")
		if d.Node != nil {
			fmt.Fprintf(&b, "node %d: ", *d.Node)
		}
		if d.Field != "" {
			b.WriteString(d.Field + " ")
		}
		b.WriteString(d.Problem)
	}
	return &errs.Error{Code: e.Code, Message: b.String(), Details: e.Details}
}

// reorder moves flags before positional arguments so `rodeo run file.json --timeout 1m` works.
func reorder(args []string) []string {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if strings.HasPrefix(arg, "-") && arg != "-" {
			flags = append(flags, arg)
			if !strings.Contains(arg, "=") && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") && !isBoolFlag(arg) {
				flags = append(flags, args[i+1])
				i++
			}
			continue
		}
		pos = append(pos, arg)
	}
	return append(flags, pos...)
}

func isBoolFlag(arg string) bool {
	name := strings.TrimLeft(arg, "-")
	return name == "stealth" || name == "json" || name == "markdown"
}

func (a *App) openStore(fs *flag.FlagSet, args []string) (*store.DB, []string, error) {
	data := fs.String("data", a.env("RODEO_DATA", "./data"), "data directory (env RODEO_DATA)")
	if err := fs.Parse(reorder(args)); err != nil {
		return nil, nil, err
	}
	db, err := store.Open(*data)
	if err != nil {
		return nil, nil, err
	}
	return db, fs.Args(), nil
}

func (a *App) keys(args []string) error {
	if len(args) == 0 {
		return errs.E(errs.InvalidConfig, "usage: rodeo keys create [--account NAME] | list | revoke ID")
	}
	fs := flag.NewFlagSet("keys "+args[0], flag.ContinueOnError)
	fs.SetOutput(a.Stderr)
	account := fs.String("account", store.DefaultAccount, "the account the key belongs to (create)")
	db, rest, err := a.openStore(fs, args[1:])
	if err != nil {
		return err
	}
	defer db.Close()
	switch args[0] {
	case "create":
		secret, k, err := db.CreateKey(*account)
		if err != nil {
			return err
		}
		fmt.Fprintf(a.Stdout, "api key: %s\nid: %s\naccount: %s\n(the key is shown only now; it is stored hashed)\n", secret, k.ID, k.Account)
	case "list":
		keys, err := db.ListKeys()
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(a.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tACCOUNT\tPREFIX\tCREATED\tSTATE")
		for _, k := range keys {
			state := "active"
			if k.Revoked {
				state = "revoked"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s…\t%s\t%s\n", k.ID, k.Account, k.Prefix, k.Created.Format(time.RFC3339), state)
		}
		return tw.Flush()
	case "revoke":
		if len(rest) != 1 {
			return errs.E(errs.InvalidConfig, "usage: rodeo keys revoke ID")
		}
		if err := db.RevokeKey(rest[0]); err != nil {
			return err
		}
		fmt.Fprintf(a.Stdout, "revoked %s\n", rest[0])
	default:
		return errs.E(errs.InvalidConfig, "unknown keys command %q: use create, list or revoke", args[0])
	}
	return nil
}

func (a *App) nodes(args []string) error {
	fs := flag.NewFlagSet("nodes", flag.ContinueOnError)
	fs.SetOutput(a.Stderr)
	fs.String("data", a.env("RODEO_DATA", "./data"), "data directory (unused: the catalogue is built in)")
	asJSON := fs.Bool("json", false, "print the catalogue as JSON")
	asMarkdown := fs.Bool("markdown", false, "print the catalogue as Markdown (docs/nodes.md)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	specs := scripts.DefaultRegistry.All()
	switch {
	case *asJSON:
		enc := json.NewEncoder(a.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(specs)
	case *asMarkdown:
		_, err := io.WriteString(a.Stdout, scripts.Markdown(specs))
		return err
	}
	tw := tabwriter.NewWriter(a.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TYPE\tCATEGORY\tPARAMETERS\tSUMMARY")
	for _, s := range specs {
		var ps []string
		for _, p := range s.Params {
			name := p.Name + ":" + string(p.Type)
			if !p.Required {
				name += "?"
			}
			ps = append(ps, name)
		}
		sort.Strings(ps)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.Kind, s.Category+desktopMark(s), strings.Join(ps, " "), s.Summary)
	}
	return tw.Flush()
}
