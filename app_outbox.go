package main

import (
	"context"
	"flag"
	"log/slog"
	"sync"
	"time"

	"github.com/rodeo-run/rodeo/mail"
	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/store"
)

// outboxFlags configure the delivery of the outbox's backlog once SMTP is configured.
type outboxFlags struct {
	backoff  time.Duration
	attempts int
}

func (a *App) addOutboxFlags(fs *flag.FlagSet, f *outboxFlags) {
	fs.DurationVar(&f.backoff, "outbox-backoff", a.envDuration("RODEO_OUTBOX_BACKOFF", mail.DefaultOutboxBackoff),
		"with SMTP configured, the wait after a failed send of a kept outbox message; doubles after each failure, up to 1h (env RODEO_OUTBOX_BACKOFF)")
	fs.IntVar(&f.attempts, "outbox-attempts", a.envInt("RODEO_OUTBOX_ATTEMPTS", mail.DefaultOutboxAttempts),
		"how many times a kept outbox message is tried before it is marked failed (env RODEO_OUTBOX_ATTEMPTS)")
}

// startOutbox sends the mail kept in the outbox when the server has SMTP (svc.Mailer), in the
// background, until the returned stop is called (it waits for the sender to stop; a send cut
// short is tried again at the next start). Without SMTP it does nothing.
func startOutbox(f outboxFlags, svc *scripts.Services, db *store.DB, log *slog.Logger) (stop func()) {
	smtp, ok := svc.Mailer.(*mail.SMTP)
	if !ok {
		return func() {}
	}
	o := &mail.Outbox{DB: db, Sender: smtp, Backoff: f.backoff, Attempts: f.attempts, Logger: log.With("component", "outbox")}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { o.Run(ctx); close(done) }()
	var once sync.Once
	return func() { once.Do(func() { cancel(); <-done }) }
}
