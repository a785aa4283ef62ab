package nodes

import (
	"context"
	"fmt"
	netmail "net/mail"
	"strings"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/store"
)

// Limits of one email.
const (
	maxRecipients = 50
	maxBody       = 1 << 20
)

// email sends one message: over SMTP when the server has a mailer (RODEO_SMTP_URL), otherwise
// into the account's outbox in the store (GET /outbox), so that the node's effect is always real
// and checkable. It is the spec's `email` node and the studio's Email node in one kind. It is
// never retried: a second attempt could send the message twice.
type email struct {
	to, toVar        string
	subject, body    string
	bodyVar, dataVar string
	file             string

	msg       scripts.Mail
	delivered string // "smtp" or "outbox"
	reply     string // the SMTP server's answer to DATA
	outboxID  string
}

// replyMailer is a Mailer that also reports the server's reply to the message (mail.SMTP).
type replyMailer interface {
	Deliver(ctx context.Context, m scripts.Mail) (string, error)
}

func init() {
	scripts.Register(scripts.Spec{
		Kind:     "email",
		Summary:  "Send an email (over SMTP when configured, else into the account's outbox); body, a body variable and a data variable are joined.",
		Category: "data",
		Timeout:  60 * time.Second,
		Params: []scripts.Param{
			{Name: "to", Type: scripts.String, Template: true,
				Description: "recipient address(es), comma-separated; `to` or `to_variable` is required", Example: "ops@example.com"},
			{Name: "to_variable", Type: scripts.String,
				Description: "a variable holding recipient address(es): a text (comma-separated) or a list", Example: "customer_email"},
			{Name: "subject", Type: scripts.String, Template: true, Default: "",
				Description: "the subject line", Example: "Daily report {{day}}"},
			{Name: "body", Type: scripts.String, Template: true, Default: "",
				Description: "the message text", Example: "Hello,\n\nhere is today's report."},
			{Name: "body_variable", Type: scripts.String,
				Description: "a variable whose content follows `body`", Example: "summary"},
			{Name: "data", Type: scripts.String,
				Description: "a variable whose content is appended at the end (lists and objects as JSON)", Example: "results"},
			{Name: "file", Type: scripts.String, Template: true,
				Description: "a file to attach, relative to the run's working folder", Example: "report.csv"},
		},
		Examples: []map[string]any{{"type": "email", "to": "ops@example.com", "subject": "Prices", "body": "Today's prices:", "data": "prices"}},
		Build:    buildEmail,
		Validate: validateByBuilding(buildEmail),
	})
}

// buildEmail reads the params; it is pure, so it also validates literal params at compile time.
func buildEmail(p *scripts.Params) (scripts.Node, error) {
	t, err := p.Texts("to", "to_variable", "subject", "body", "body_variable", "data", "file")
	if err != nil {
		return nil, err
	}
	n := &email{to: t[0], toVar: t[1], subject: t[2], body: t[3], bodyVar: t[4], dataVar: t[5], file: t[6]}
	if strings.TrimSpace(n.to) == "" && strings.TrimSpace(n.toVar) == "" {
		return nil, errInvalid("email needs a recipient: `to` (an address) or `to_variable` (a variable holding one)")
	}
	return n, nil
}

// recipients collects and checks the addresses of `to` and `to_variable`.
func (n *email) recipients(env *scripts.Env) ([]string, error) {
	var lists []string
	if strings.TrimSpace(n.to) != "" {
		lists = append(lists, n.to)
	}
	if name := strings.TrimSpace(n.toVar); name != "" {
		v, ok := env.Vars.Get(name)
		if !ok {
			return nil, errs.E(errs.VariableNotSet, "to_variable: variable %s is not set", name)
		}
		if list, isList := v.([]any); isList {
			for _, x := range list {
				lists = append(lists, scripts.Text(x))
			}
		} else {
			lists = append(lists, scripts.Text(v))
		}
	}
	seen := map[string]bool{}
	var out []string
	for _, l := range lists {
		if strings.TrimSpace(l) == "" {
			continue
		}
		addrs, err := netmail.ParseAddressList(l)
		if err != nil {
			hint := ""
			if _, isVar := env.Vars.Get(l); isVar && l == n.to {
				hint = fmt.Sprintf(" (to name the variable %s, use \"to_variable\": %q or \"to\": \"{{%s}}\")", l, l, l)
			}
			return nil, errs.E(errs.InvalidConfig, "%q is not a valid email address (or comma-separated list): %v%s", truncateText(l, 80), err, hint)
		}
		for _, a := range addrs {
			if key := strings.ToLower(a.Address); !seen[key] {
				seen[key] = true
				if a.Name == "" {
					out = append(out, a.Address)
				} else {
					out = append(out, a.String())
				}
			}
		}
	}
	if len(out) == 0 {
		return nil, errs.E(errs.InvalidConfig, "email has no recipient: `to` and `to_variable` are empty")
	}
	if len(out) > maxRecipients {
		return nil, errs.E(errs.InvalidConfig, "email has %d recipients; at most %d are allowed", len(out), maxRecipients)
	}
	return out, nil
}

// compose builds the message: body, then body_variable's content, then data's content, each
// separated by a blank line; a missing variable is an error, not a silently shorter mail.
func (n *email) compose(env *scripts.Env) (scripts.Mail, error) {
	to, err := n.recipients(env)
	if err != nil {
		return scripts.Mail{}, err
	}
	parts := []string{n.body}
	for _, v := range []struct{ param, name string }{{"body_variable", n.bodyVar}, {"data", n.dataVar}} {
		name := strings.TrimSpace(v.name)
		if name == "" {
			continue
		}
		val, ok := env.Vars.Get(name)
		if !ok {
			return scripts.Mail{}, errs.E(errs.VariableNotSet, "%s: variable %s is not set", v.param, name)
		}
		parts = append(parts, scripts.Text(val))
	}
	var body []string
	for _, p := range parts {
		if strings.TrimSpace(p) != "" {
			body = append(body, strings.TrimRight(p, "\n"))
		}
	}
	m := scripts.Mail{To: to, Body: strings.Join(body, "\n\n") + "\n",
		// A line break in a subject would end the header; untrusted data must not add headers.
		Subject: strings.Join(strings.Fields(n.subject), " ")}
	if len(m.Body) > maxBody {
		return scripts.Mail{}, errs.E(errs.InvalidConfig, "the email body has %d bytes; at most %d are allowed (attach large data as a file)", len(m.Body), maxBody)
	}
	if strings.TrimSpace(n.file) != "" {
		a, err := readAttachment(env, n.file)
		if err != nil {
			return scripts.Mail{}, err
		}
		m.Attachments = []scripts.Attachment{a}
	}
	return m, nil
}

func (n *email) Run(ctx context.Context, env *scripts.Env) error {
	m, err := n.compose(env)
	if err != nil {
		return err
	}
	n.msg = m
	detail := map[string]any{"to": m.To, "subject": m.Subject, "body_bytes": len(m.Body)}
	if len(m.Attachments) > 0 {
		a := m.Attachments[0]
		detail["attachment"] = map[string]any{"name": a.Name, "size": len(a.Data), "content_type": a.ContentType}
	}
	svc := env.Services()
	if svc.Mailer != nil {
		if rm, ok := svc.Mailer.(replyMailer); ok {
			n.reply, err = rm.Deliver(ctx, m)
		} else {
			err = svc.Mailer.Send(ctx, m)
		}
		if err != nil {
			return errs.Wrap(errs.NodeFailed, err)
		}
		n.delivered = "smtp"
		if n.reply != "" {
			detail["smtp_reply"] = n.reply
		}
		env.SetDetail("email", detail)
		env.SetDetail("delivered", "smtp")
		return nil
	}
	if svc.Store == nil {
		return errs.E(errs.NodeFailed, "email cannot be sent: no SMTP server is configured (RODEO_SMTP_URL) and there is no data directory for the outbox")
	}
	entry := store.OutboxMessage{Account: env.Account, RunID: env.RunID, To: m.To, Subject: m.Subject, Body: m.Body}
	var content [][]byte // kept for a later SMTP delivery (mail.Outbox)
	for _, a := range m.Attachments {
		entry.Attachments = append(entry.Attachments, store.OutboxAttachment{Name: a.Name, Size: len(a.Data), ContentType: a.ContentType})
		content = append(content, a.Data)
	}
	saved, err := svc.Store.AddOutbox(entry, content...)
	if err != nil {
		return err
	}
	n.delivered, n.outboxID = "outbox", saved.ID
	detail["outbox_id"] = saved.ID
	env.SetDetail("email", detail)
	env.SetDetail("delivered", "outbox")
	return nil
}

func (n *email) Verify(ctx context.Context, env *scripts.Env) ([]scripts.Check, error) {
	if n.delivered == "smtp" {
		c := scripts.Check{Name: "smtp_accepted", Passed: true,
			Detail: fmt.Sprintf("the SMTP server accepted the message for %s", strings.Join(n.msg.To, ", "))}
		if n.reply != "" {
			c.Detail += ": 250 " + n.reply
		}
		return []scripts.Check{c}, nil
	}
	got, err := env.Services().Store.GetOutbox(env.Account, n.outboxID)
	c := scripts.Check{Name: "outbox_entry", Passed: err == nil && got.Subject == n.msg.Subject && len(got.To) == len(n.msg.To)}
	if err != nil {
		c.Detail = err.Error()
	} else {
		c.Detail = fmt.Sprintf("message %s is in the outbox (no SMTP server is configured)", got.ID)
	}
	return []scripts.Check{c}, nil
}

var _ scripts.Verifier = (*email)(nil)
