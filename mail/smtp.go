// Package mail sends the email node's messages over SMTP. It implements scripts.Mailer on
// github.com/wneessen/go-mail, configured by one URL (RODEO_SMTP_URL):
//
//	smtp://user:pass@host:587?from=bot@example.com   STARTTLS when the server offers it
//	smtps://user:pass@host:465                       implicit TLS
//
// A server without this URL keeps its mail in the store's outbox instead (see the email node).
// The password is kept only in the Config and is never part of an error, a log line or String.
package mail

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	netmail "net/mail"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
)

// TLS modes of a Config.
const (
	// TLSOpportunistic upgrades with STARTTLS when the server offers it (smtp:// default).
	TLSOpportunistic = "opportunistic"
	// TLSStartTLS requires STARTTLS (smtp://…?tls=starttls).
	TLSStartTLS = "starttls"
	// TLSImplicit speaks TLS from the first byte (smtps://).
	TLSImplicit = "implicit"
	// TLSNone never encrypts (smtp://…?tls=none), for a relay on a trusted network.
	TLSNone = "none"
)

// Config is a parsed SMTP URL.
type Config struct {
	Host     string
	Port     int
	Username string
	Password string
	// From is the sender address. Optional. Default: rodeo@<hostname>.
	From string
	// TLS is one of the TLS* modes. Optional. Default: TLSOpportunistic.
	TLS string
	// Auth is the SASL mechanism used when Username is set: "plain" (default), "login",
	// "cram-md5" or "auto" (the strongest the server offers).
	Auth string
	// InsecureAuth allows PLAIN or LOGIN over a connection that is not encrypted (go-mail
	// refuses that by default except towards localhost). Optional. Default: false.
	InsecureAuth bool
	// TLSConfig overrides the TLS settings (tests trust their own certificate with it).
	// Optional. Default: the system roots, server name = Host.
	TLSConfig *tls.Config
	// Timeout bounds connecting and each command. Optional. Default: 30s.
	Timeout time.Duration
}

// String describes c without its password.
func (c Config) String() string {
	user := ""
	if c.Username != "" {
		user = c.Username + ":***@"
	}
	scheme := "smtp"
	if c.TLS == TLSImplicit {
		scheme = "smtps"
	}
	return fmt.Sprintf("%s://%s%s:%d (tls %s, from %s)", scheme, user, c.Host, c.Port, c.TLS, c.From)
}

// LogValue keeps the password out of structured logs.
func (c Config) LogValue() slog.Value {
	return slog.GroupValue(slog.String("host", c.Host), slog.Int("port", c.Port), slog.String("user", c.Username),
		slog.String("tls", c.TLS), slog.String("from", c.From))
}

// invalid is a configuration error; it never quotes the URL (it may hold a password).
func invalid(format string, args ...any) error {
	return errs.E(errs.InvalidConfig, "smtp url: "+format, args...)
}

// ParseURL reads smtp://[user[:pass]@]host[:port][?from=addr&tls=…&auth=…&insecure_auth=true]
// or smtps://…. Ports default to 587 (smtp) and 465 (smtps). Errors never repeat the URL.
func ParseURL(raw string) (Config, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		// url.Error quotes the whole URL, password included: say only what kind of problem it is.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		if strings.Contains(err.Error(), "@") || strings.Contains(err.Error(), ":") {
			err = errors.New("malformed URL")
		}
		return Config{}, invalid("cannot parse it (%v); the form is smtp://user:pass@host:port (percent-encode special characters of the password)", err)
	}
	c := Config{Host: u.Hostname(), Auth: "plain", Timeout: 30 * time.Second}
	switch strings.ToLower(u.Scheme) {
	case "smtp":
		c.TLS, c.Port = TLSOpportunistic, 587
	case "smtps":
		c.TLS, c.Port = TLSImplicit, 465
	default:
		return Config{}, invalid("scheme must be smtp or smtps, not %q", u.Scheme)
	}
	if c.Host == "" {
		return Config{}, invalid("it has no host; the form is smtp://user:pass@host:port")
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return Config{}, invalid("port %q is not a number between 1 and 65535", p)
		}
		c.Port = n
	}
	if u.User != nil {
		c.Username = u.User.Username()
		c.Password, _ = u.User.Password()
	}
	q := u.Query()
	for name := range q {
		switch name {
		case "from", "tls", "auth", "insecure_auth", "timeout":
		default:
			return Config{}, invalid("unknown query parameter %q (known: from, tls, auth, insecure_auth, timeout)", name)
		}
	}
	if from := q.Get("from"); from != "" {
		c.From = from
	}
	if t := strings.ToLower(q.Get("tls")); t != "" {
		switch {
		case c.TLS == TLSImplicit && t != TLSImplicit:
			return Config{}, invalid("smtps:// always uses implicit TLS; drop tls=%s or use smtp://", t)
		case t == TLSOpportunistic || t == TLSStartTLS || t == TLSNone || t == TLSImplicit:
			c.TLS = t
		default:
			return Config{}, invalid("tls must be opportunistic, starttls, implicit or none, not %q", t)
		}
	}
	if a := strings.ToLower(q.Get("auth")); a != "" {
		switch a {
		case "plain", "login", "cram-md5", "auto":
			c.Auth = a
		default:
			return Config{}, invalid("auth must be plain, login, cram-md5 or auto, not %q", a)
		}
	}
	if v := q.Get("insecure_auth"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return Config{}, invalid("insecure_auth must be true or false, not %q", v)
		}
		c.InsecureAuth = b
	}
	if v := q.Get("timeout"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return Config{}, invalid("timeout must be a duration such as 30s, not %q", v)
		}
		c.Timeout = d
	}
	return c, nil
}

// DefaultFrom is rodeo@<hostname>, the sender when none is configured.
func DefaultFrom() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "localhost"
	}
	return "rodeo@" + host
}

// SMTP is a scripts.Mailer that opens one SMTP connection per message.
type SMTP struct {
	cfg  Config
	from *netmail.Address
	opts []gomail.Option
}

// New checks cfg and prepares a mailer; it does not connect.
func New(cfg Config) (*SMTP, error) {
	if cfg.Host == "" {
		return nil, invalid("no host")
	}
	if cfg.Port == 0 {
		cfg.Port = 587
	}
	if cfg.TLS == "" {
		cfg.TLS = TLSOpportunistic
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 30 * time.Second
	}
	if cfg.From == "" {
		cfg.From = DefaultFrom()
	}
	from, err := netmail.ParseAddress(cfg.From)
	if err != nil {
		return nil, invalid("sender %q is not an email address: %v", cfg.From, err)
	}
	opts := []gomail.Option{gomail.WithPort(cfg.Port), gomail.WithTimeout(cfg.Timeout)}
	switch cfg.TLS {
	case TLSOpportunistic:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
	case TLSStartTLS:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
	case TLSImplicit:
		opts = append(opts, gomail.WithSSL())
	case TLSNone:
		opts = append(opts, gomail.WithTLSPolicy(gomail.NoTLS))
	default:
		return nil, invalid("unknown TLS mode %q", cfg.TLS)
	}
	if cfg.TLSConfig != nil {
		tc := cfg.TLSConfig.Clone()
		if tc.ServerName == "" {
			tc.ServerName = cfg.Host
		}
		opts = append(opts, gomail.WithTLSConfig(tc))
	}
	if cfg.Username != "" {
		var mech gomail.SMTPAuthType
		switch cfg.Auth {
		case "", "plain":
			mech = gomail.SMTPAuthPlain
			if cfg.InsecureAuth {
				mech = gomail.SMTPAuthPlainNoEnc
			}
		case "login":
			mech = gomail.SMTPAuthLogin
			if cfg.InsecureAuth {
				mech = gomail.SMTPAuthLoginNoEnc
			}
		case "cram-md5":
			mech = gomail.SMTPAuthCramMD5
		case "auto":
			mech = gomail.SMTPAuthAutoDiscover
		default:
			return nil, invalid("unknown auth mechanism %q", cfg.Auth)
		}
		opts = append(opts, gomail.WithSMTPAuth(mech), gomail.WithUsername(cfg.Username), gomail.WithPassword(cfg.Password))
	}
	// Build one client now so that a bad option fails at start, not at the first email.
	if _, err := gomail.NewClient(cfg.Host, opts...); err != nil {
		return nil, invalid("%v", err)
	}
	return &SMTP{cfg: cfg, from: from, opts: opts}, nil
}

// Config returns the mailer's settings (password included; do not log it whole).
func (s *SMTP) Config() Config { return s.cfg }

// String describes the mailer without its password.
func (s *SMTP) String() string { return s.cfg.String() }

// Send delivers m; see Deliver.
func (s *SMTP) Send(ctx context.Context, m scripts.Mail) error {
	_, err := s.Deliver(ctx, m)
	return err
}

// Deliver sends m and returns the server's reply to the end of DATA (its 250 line, e.g.
// "2.0.0 OK: queued as 1234"). Only a message the server accepted returns a nil error.
func (s *SMTP) Deliver(ctx context.Context, m scripts.Mail) (string, error) {
	msg := gomail.NewMsg()
	msg.FromMailAddress(s.from)
	if err := msg.To(m.To...); err != nil {
		return "", errs.E(errs.InvalidConfig, "recipients: %v", err)
	}
	msg.Subject(m.Subject)
	msg.SetDate()
	if m.MessageID != "" {
		msg.SetMessageIDWithValue(m.MessageID)
	} else {
		msg.SetMessageID()
	}
	msg.SetBodyString(gomail.TypeTextPlain, m.Body)
	for _, a := range m.Attachments {
		var opts []gomail.FileOption
		if a.ContentType != "" {
			opts = append(opts, gomail.WithFileContentType(gomail.ContentType(a.ContentType)))
		}
		if err := msg.AttachReader(a.Name, strings.NewReader(string(a.Data)), opts...); err != nil {
			return "", fmt.Errorf("attach %s: %w", a.Name, err)
		}
	}
	client, err := gomail.NewClient(s.cfg.Host, s.opts...)
	if err != nil {
		return "", invalid("%v", err)
	}
	if err := client.DialAndSendWithContext(ctx, msg); err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", errs.E(errs.NodeFailed, "smtp %s:%d did not accept the message: %s", s.cfg.Host, s.cfg.Port, redact(err.Error(), s.cfg.Password))
	}
	return msg.ServerResponse(), nil
}

// redact removes the password from text, should a server or library ever echo it.
func redact(text, password string) string {
	if password == "" {
		return text
	}
	return strings.ReplaceAll(text, password, "***")
}

var _ scripts.Mailer = (*SMTP)(nil)
