package mail

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/store"
)

// Outbox sends the mail that email nodes kept in the store's outbox while the server had no
// SMTP server, once it has one: at start, every message not yet sent or given up on is sent, in
// the order it was kept, with retries and exponential backoff.
//
// Each attempt is marked in the store before it dials (status sending, attempts+1) and after the
// server's answer (sent, or pending with the next attempt's time, or failed after the last
// attempt). The delivery is at-least-once: a message found "sending" at start was being sent when
// the process died, and the server may or may not have accepted it; it is sent again rather than
// lost. Every attempt carries the same Message-ID (<outbox id@rodeo.outbox>), so a receiving
// system can recognize the repeat. Within one process one sender sends each message, one at a
// time, so nothing else sends it twice.
type Outbox struct {
	DB     *store.DB
	Sender interface {
		Deliver(ctx context.Context, m scripts.Mail) (string, error)
	}
	// Backoff is the wait after the first failed attempt; it doubles after each one, up to
	// MaxBackoff. Defaults 30s and 1h.
	Backoff, MaxBackoff time.Duration
	// Attempts is how many times a message is tried before it is marked failed. Default 8.
	Attempts int
	Logger   *slog.Logger
}

// Default retry settings of an Outbox.
const (
	DefaultOutboxBackoff    = 30 * time.Second
	DefaultOutboxMaxBackoff = time.Hour
	DefaultOutboxAttempts   = 8
)

// Run sends the outbox's backlog and retries failed messages until they are sent or given up,
// or until ctx ends. It returns when nothing is left to send.
func (o *Outbox) Run(ctx context.Context) {
	o.defaults()
	queue, err := o.DB.UndeliveredOutbox()
	if err != nil {
		o.Logger.Error("read the outbox", "err", err)
		return
	}
	if len(queue) > 0 {
		o.Logger.Info("sending the mail kept in the outbox", "messages", len(queue))
	}
	for len(queue) > 0 {
		next := 0
		for i, m := range queue {
			if due(m).Before(due(queue[next])) {
				next = i
			}
		}
		m := queue[next]
		if wait := time.Until(due(m)); wait > 0 {
			select {
			case <-ctx.Done():
				return
			case <-time.After(wait):
			}
		}
		if m, err = o.attempt(ctx, m); err != nil || m.Delivery.Done() {
			queue = append(queue[:next:next], queue[next+1:]...)
			continue
		}
		queue[next] = m
	}
}

func (o *Outbox) defaults() {
	if o.Backoff <= 0 {
		o.Backoff = DefaultOutboxBackoff
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = DefaultOutboxMaxBackoff
	}
	if o.Attempts <= 0 {
		o.Attempts = DefaultOutboxAttempts
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
}

// due is when m's next attempt may start (the zero time: now).
func due(m store.OutboxMessage) time.Time {
	if m.Delivery == nil || m.Delivery.NextAttempt == nil {
		return time.Time{}
	}
	return *m.Delivery.NextAttempt
}

// attempt sends m once and records the outcome; an error means the store could not be written
// (the message is left for the next start).
func (o *Outbox) attempt(ctx context.Context, m store.OutboxMessage) (store.OutboxMessage, error) {
	d := store.OutboxDelivery{Status: store.OutboxSending}
	if m.Delivery != nil {
		d = *m.Delivery
		d.Status = store.OutboxSending
	}
	now := time.Now().UTC()
	d.Attempts++
	d.LastAttempt, d.NextAttempt = &now, nil
	if _, err := o.DB.SetOutboxDelivery(m.Account, m.ID, d); err != nil {
		o.Logger.Error("mark outbox message sending", "message", m.ID, "err", err)
		return m, err
	}
	reply, err := o.send(ctx, m)
	if err != nil && ctx.Err() != nil {
		// Stopping mid-attempt: the mark stays "sending" and the next start tries again. (An
		// accepted message is marked sent below even when stopping.)
		return m, ctx.Err()
	}
	if err == nil {
		sent := time.Now().UTC()
		d.Status, d.Sent, d.Reply = store.OutboxSent, &sent, reply
		o.Logger.Info("outbox message sent", "message", m.ID, "account", m.Account, "attempts", d.Attempts)
	} else {
		d.LastError = err.Error()
		// A message the mailer cannot even compose (a malformed recipient) fails for good.
		if d.Attempts >= o.Attempts || errs.Is(err, errs.InvalidConfig) {
			d.Status = store.OutboxFailed
			o.Logger.Warn("outbox message given up", "message", m.ID, "account", m.Account, "attempts", d.Attempts, "err", err)
		} else {
			next := time.Now().UTC().Add(o.backoff(d.Attempts))
			d.Status, d.NextAttempt = store.OutboxPending, &next
			o.Logger.Info("outbox message not sent; will retry", "message", m.ID, "attempts", d.Attempts, "next", next, "err", err)
		}
	}
	m, werr := o.DB.SetOutboxDelivery(m.Account, m.ID, d)
	if werr != nil {
		o.Logger.Error("record outbox delivery", "message", m.ID, "err", werr)
	}
	return m, werr
}

// backoff is the wait after the n-th failed attempt: Backoff, doubled each time, capped.
func (o *Outbox) backoff(n int) time.Duration {
	d := o.Backoff
	for i := 1; i < n && d < o.MaxBackoff; i++ {
		d *= 2
	}
	return min(d, o.MaxBackoff)
}

// send delivers m with its kept attachments.
func (o *Outbox) send(ctx context.Context, m store.OutboxMessage) (string, error) {
	mail := scripts.Mail{To: m.To, Subject: m.Subject, Body: m.Body, MessageID: m.ID + "@rodeo.outbox"}
	content, err := o.DB.OutboxContent(m.Account, m.ID)
	if err != nil {
		return "", err
	}
	for i, a := range m.Attachments {
		if i >= len(content) { // kept by a rodeo that did not keep attachments' content
			mail.Body += fmt.Sprintf("\n[attachment %s (%d bytes) was not kept in the outbox]\n", a.Name, a.Size)
			continue
		}
		mail.Attachments = append(mail.Attachments, scripts.Attachment{Name: a.Name, ContentType: a.ContentType, Data: content[i]})
	}
	return o.Sender.Deliver(ctx, mail)
}
