package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"sync"

	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/server"
	"github.com/rodeo-run/rodeo/store"
	"github.com/rodeo-run/rodeo/triggers"
)

// inboundFlags configure the inbound triggers of `rodeo serve`.
type inboundFlags struct {
	smtpListen, mailDomain string
}

func (a *App) addInboundFlags(fs *flag.FlagSet, f *inboundFlags) {
	fs.StringVar(&f.smtpListen, "smtp-listen", a.env("RODEO_SMTP_LISTEN", ""), "accept mail for email triggers on this address, e.g. 127.0.0.1:2525 (env RODEO_SMTP_LISTEN; default off)")
	fs.StringVar(&f.mailDomain, "mail-domain", a.env("RODEO_MAIL_DOMAIN", ""), "the domain of email trigger addresses, t-<token>@DOMAIN (env RODEO_MAIL_DOMAIN; default the hostname)")
}

// startInbound wires the email, phone and watch triggers to the engine and the server, starts
// the stored watches and, with --smtp-listen, the SMTP listener. stop ends both; call it before
// the engine shuts down, so nothing new is queued while runs finish (calling it again does nothing).
func (a *App) startInbound(ctx context.Context, f inboundFlags, engine *scripts.Engine, db *store.DB, publicURL string, log *slog.Logger) (stop func(), err error) {
	in := triggers.New(triggers.Config{Engine: engine, Store: db, Registry: scripts.DefaultRegistry, MailDomain: f.mailDomain,
		PublicURL: publicURL, Logger: log})
	server.AttachInbound(engine, in)
	if err := in.Start(ctx); err != nil {
		return nil, fmt.Errorf("start watches: %w", err)
	}
	var mail *triggers.MailServer
	if f.smtpListen != "" {
		if mail, err = in.ListenSMTP(f.smtpListen); err != nil {
			in.Close()
			return nil, err
		}
		fmt.Fprintf(a.Stdout, "smtp listening on %s for *@%s\n", mail.Addr(), in.Config().MailDomain)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			if mail != nil {
				_ = mail.Close()
			}
			in.Close()
		})
	}, nil
}
