package triggers

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-smtp"
	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/store"
)

// Incoming mail: an SMTP listener (emersion/go-smtp) that accepts mail only for the addresses
// of email triggers, t-<token>@<mail domain>, refusing every other recipient at RCPT, and runs
// each address's script with the message as variables. It takes no AUTH and offers no STARTTLS:
// it is meant to sit behind the organisation's mail relay or on loopback, and the address's
// token is the credential.

// maxRecipients caps the trigger addresses of one message.
const maxRecipients = 20

// CreateEmail makes an email trigger for the account's saved script name with optional from and
// subject filters.
func (in *Inbound) CreateEmail(account, name, from, subject string) (store.InboundTrigger, error) {
	if err := in.ensureScript(account, name); err != nil {
		return store.InboundTrigger{}, err
	}
	return in.cfg.Store.CreateInboundTrigger(store.InboundTrigger{Kind: store.InboundEmail, Account: account, Script: name,
		From: strings.TrimSpace(from), Subject: strings.TrimSpace(subject)})
}

// MailServer is a running SMTP listener.
type MailServer struct {
	srv *smtp.Server
	ln  net.Listener
	wg  sync.WaitGroup
}

// Addr is the address the listener accepts connections on.
func (m *MailServer) Addr() net.Addr { return m.ln.Addr() }

// Close stops accepting mail and closes open connections.
func (m *MailServer) Close() error {
	err := m.srv.Close()
	m.wg.Wait()
	return err
}

// ListenSMTP starts the SMTP listener on addr (host:port).
func (in *Inbound) ListenSMTP(addr string) (*MailServer, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("smtp listen on %s: %w", addr, err)
	}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		return &mailSession{in: in, remote: c.Conn().RemoteAddr().String()}, nil
	}))
	srv.Domain = in.cfg.MailDomain
	srv.MaxMessageBytes = in.cfg.MaxMailBytes
	srv.MaxRecipients = maxRecipients
	srv.ReadTimeout = time.Minute
	srv.WriteTimeout = time.Minute
	m := &MailServer{srv: srv, ln: ln}
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		if err := srv.Serve(ln); err != nil && !errors.Is(err, smtp.ErrServerClosed) && !errors.Is(err, net.ErrClosed) {
			in.log.Error("smtp listener stopped", "err", err)
		}
	}()
	in.log.Info("smtp listening", "addr", ln.Addr().String(), "domain", in.cfg.MailDomain)
	return m, nil
}

// mailSession is one SMTP transaction's state.
type mailSession struct {
	in     *Inbound
	remote string
	from   string
	rcpts  []store.InboundTrigger
}

var errNoMailbox = &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "No such mailbox here"}

func (s *mailSession) Reset()        { s.from, s.rcpts = "", nil }
func (s *mailSession) Logout() error { return nil }

func (s *mailSession) Mail(from string, _ *smtp.MailOptions) error {
	s.from = from
	return nil
}

// Rcpt accepts only a trigger address of the mail domain: t-<token>@domain.
func (s *mailSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	local, domain, ok := strings.Cut(strings.ToLower(strings.TrimSpace(to)), "@")
	token, isTrigger := strings.CutPrefix(local, "t-")
	if !ok || domain != s.in.cfg.MailDomain || !isTrigger || token == "" {
		return errNoMailbox
	}
	t, err := s.in.cfg.Store.InboundTriggerByToken(store.InboundEmail, token)
	if errs.Is(err, errs.NotFound) {
		return errNoMailbox
	}
	if err != nil {
		s.in.log.Error("smtp: look up a recipient", "err", err)
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "Temporary failure, try again later"}
	}
	for _, r := range s.rcpts {
		if r.ID == t.ID {
			return nil
		}
	}
	s.rcpts = append(s.rcpts, t)
	return nil
}

// Data reads the message (go-smtp stops it at the size limit with 552), parses it and runs the
// script of each recipient. A message that cannot be parsed is refused (554). When no recipient's
// run could start because the server is busy, the sender is told to try again later (451);
// runs that did start are not undone.
func (s *mailSession) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err // ErrDataTooLarge and the like, as go-smtp words them
	}
	msg, err := parseEmail(raw)
	if err != nil {
		return &smtp.SMTPError{Code: 554, EnhancedCode: smtp.EnhancedCode{5, 6, 0}, Message: "The message could not be read as MIME"}
	}
	if msg.From == "" {
		msg.From = s.from
	}
	ran, busy := 0, false
	for _, t := range s.rcpts {
		err := s.in.deliverEmail(t, msg)
		switch {
		case err == nil:
			ran++
		case errs.Is(err, errs.Busy):
			busy = true
		}
	}
	if ran == 0 && busy {
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 2}, Message: "Too busy, try again later"}
	}
	return nil
}

// deliverEmail runs t's script for msg, unless t's filters leave it out, and records the
// delivery. Attachments are written to the run's folder before the run is queued, and kept as
// the run's artifacts. A filtered message returns nil: it was delivered, and ran nothing.
func (in *Inbound) deliverEmail(t store.InboundTrigger, msg Email) error {
	d := store.Delivery{Kind: "email", From: msg.From, Subject: msg.Subject}
	record := func() {
		if err := in.cfg.Store.RecordDelivery(t.ID, d); err != nil && !errs.Is(err, errs.NotFound) {
			in.log.Error("record an email delivery", "trigger", t.ID, "err", err)
		}
	}
	if reason := filterMiss(t, msg); reason != "" {
		d.Result, d.Reason = "filtered", reason
		record()
		in.log.Info("email filtered", "trigger", t.ID, "reason", reason)
		return nil
	}
	runID := store.NewID("r")
	names, err := in.saveAttachments(runID, msg.Attachments)
	if err == nil {
		msg.To = in.Address(t.Token)
		_, err = in.start(t.Account, t.Script, "email", t.ID, runID, emailVars(msg, names))
	}
	if err != nil {
		_ = os.RemoveAll(in.runFolder(runID))
		_, text := errs.Public(err)
		d.Result, d.Reason = "failed", text
		record()
		in.log.Warn("email run did not start", "trigger", t.ID, "err", err)
		return err
	}
	for _, a := range msg.Attachments {
		err := in.cfg.Store.PutArtifact(store.Artifact{Run: runID, Account: t.Account, Name: a.Name, ContentType: a.ContentType, Data: a.Data})
		if err != nil {
			in.log.Warn("keep an attachment as an artifact", "run", runID, "name", a.Name, "err", err)
		}
	}
	d.Result, d.RunID = "ran", runID
	if msg.Dropped > 0 {
		d.Reason = fmt.Sprintf("%d attachments beyond the first %d were dropped", msg.Dropped, maxAttachments)
	}
	record()
	in.log.Info("email started a run", "trigger", t.ID, "run", runID, "attachments", len(names))
	return nil
}

// filterMiss says why msg does not pass t's filters ("" when it does): the sender and the
// subject must contain the filters' text, ignoring case.
func filterMiss(t store.InboundTrigger, msg Email) string {
	if t.From != "" && !strings.Contains(strings.ToLower(msg.From), strings.ToLower(t.From)) {
		return fmt.Sprintf("the sender %q does not contain the from filter %q", msg.From, t.From)
	}
	if t.Subject != "" && !strings.Contains(strings.ToLower(msg.Subject), strings.ToLower(t.Subject)) {
		return fmt.Sprintf("the subject %q does not contain the subject filter %q", msg.Subject, t.Subject)
	}
	return ""
}

// saveAttachments writes the files into the run's folder and returns their names.
func (in *Inbound) saveAttachments(runID string, files []Attachment) ([]string, error) {
	names := []string{}
	if len(files) == 0 {
		return names, nil
	}
	dir := in.runFolder(runID)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create the run's folder: %w", err)
	}
	for _, a := range files {
		if err := os.WriteFile(filepath.Join(dir, a.Name), a.Data, 0o600); err != nil {
			return nil, fmt.Errorf("save attachment %s: %w", a.Name, err)
		}
		names = append(names, a.Name)
	}
	return names, nil
}

// emailVars are the run's variables for msg: email_transcript (the text body), email (from, to,
// subject, text, html, attachments: the file names in the run's folder) and data (the text body,
// so a script written for webhooks reads it too).
func emailVars(msg Email, attachments []string) map[string]any {
	names := make([]any, len(attachments))
	for i, n := range attachments {
		names[i] = n
	}
	return map[string]any{
		"email_transcript": msg.Text,
		"data":             msg.Text,
		"email": map[string]any{"from": msg.From, "to": msg.To, "subject": msg.Subject, "text": msg.Text,
			"html": msg.HTML, "attachments": names},
	}
}

var _ smtp.Session = (*mailSession)(nil)
