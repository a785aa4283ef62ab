package mail_test

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/mail"
	"github.com/rodeo-run/rodeo/mail/mailtest"
	"github.com/rodeo-run/rodeo/store"
)

// outboxFixture is a store with kept messages and a sender pointed at an in-process SMTP peer.
func outboxFixture(t *testing.T, opts mailtest.Options) (*store.DB, *mailtest.Server, *mail.Outbox) {
	t.Helper()
	db, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	peer := mailtest.Start(t, opts)
	m, err := mail.New(mail.Config{Host: peer.Host, Port: peer.Port, From: "rodeo@example.com", TLS: mail.TLSNone, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	o := &mail.Outbox{DB: db, Sender: m, Backoff: 100 * time.Millisecond, MaxBackoff: time.Second, Attempts: 4,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	return db, peer, o
}

func keep(t *testing.T, db *store.DB, subject string, content ...[]byte) store.OutboxMessage {
	t.Helper()
	m := store.OutboxMessage{Account: "acct", To: []string{"ops@example.com"}, Subject: subject, Body: "hello\n"}
	for i := range content {
		m.Attachments = append(m.Attachments, store.OutboxAttachment{Name: "report.csv", Size: len(content[i]), ContentType: "text/csv"})
	}
	saved, err := db.AddOutbox(m, content...)
	if err != nil {
		t.Fatal(err)
	}
	return saved
}

func runOutbox(t *testing.T, o *mail.Outbox) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	o.Run(ctx)
	if ctx.Err() != nil {
		t.Fatal("the outbox was still sending after 20s")
	}
}

func TestOutbox_RetriesWithBackoffAndSendsEachMessageOnce(t *testing.T) {
	db, peer, o := outboxFixture(t, mailtest.Options{RefuseFirst: 3})
	first := keep(t, db, "first", []byte("a,b\n1,2\n"))
	second := keep(t, db, "second")
	runOutbox(t, o)

	got := peer.Messages()
	if len(got) != 2 || peer.Refused() != 3 {
		t.Fatalf("the peer accepted %d messages after refusing %d, want 2 after 3", len(got), peer.Refused())
	}
	// Retries interleave, so the order of arrival is not the order of keeping: find each by subject.
	bySubject := map[string]string{}
	for _, m := range got {
		data := string(m.Data)
		for _, s := range []string{"first", "second"} {
			if strings.Contains(data, "Subject: "+s+"\r\n") {
				bySubject[s] = data
			}
		}
	}
	for _, want := range []store.OutboxMessage{first, second} {
		if data := bySubject[want.Subject]; !strings.Contains(data, "Message-ID: <"+want.ID+"@rodeo.outbox>") {
			t.Errorf("%s was not sent with its outbox Message-ID:\n%s", want.Subject, data)
		}
	}
	if data := bySubject["first"]; !strings.Contains(data, "report.csv") || !strings.Contains(data, "YSxiCjEsMgo=") {
		t.Errorf("the kept attachment was not sent:\n%s", data)
	}
	for _, m := range []store.OutboxMessage{first, second} {
		m, err := db.GetOutbox("acct", m.ID)
		if err != nil {
			t.Fatal(err)
		}
		d := m.Delivery
		if d == nil || d.Status != store.OutboxSent || d.Sent == nil || !strings.Contains(d.LastError, "451") {
			t.Fatalf("%s delivery: %+v, want sent after a 451", m.Subject, d)
		}
		if d.Attempts < 2 {
			t.Errorf("%s took %d attempts, want at least 2 (the first was refused)", m.Subject, d.Attempts)
		}
	}
	// The peer refused 3 times: one of the messages was refused twice, so waited 100ms and then
	// 200ms: its last attempt is at least 300ms after the run began.
	m1, _ := db.GetOutbox("acct", first.ID)
	m2, _ := db.GetOutbox("acct", second.ID)
	third := m1
	if m2.Delivery.Attempts == 3 {
		third = m2
	}
	if third.Delivery.Attempts != 3 || third.Delivery.LastAttempt.Sub(third.Created) < 300*time.Millisecond {
		t.Errorf("the twice-refused message: %d attempts, last %s after it was kept; want 3 and ≥ 300ms of backoff",
			third.Delivery.Attempts, third.Delivery.LastAttempt.Sub(third.Created))
	}
	// A second start sends nothing again.
	runOutbox(t, o)
	if n := len(peer.Messages()); n != 2 {
		t.Errorf("after a second start the peer has %d messages, want still 2", n)
	}
}

func TestOutbox_GivesUpAfterTheLastAttempt(t *testing.T) {
	db, peer, o := outboxFixture(t, mailtest.Options{RefuseFirst: 100})
	o.Attempts = 2
	m := keep(t, db, "never")
	runOutbox(t, o)
	got, _ := db.GetOutbox("acct", m.ID)
	if d := got.Delivery; d == nil || d.Status != store.OutboxFailed || d.Attempts != 2 || !strings.Contains(d.LastError, "451") {
		t.Fatalf("delivery after 2 refusals: %+v, want failed after 2 attempts", got.Delivery)
	}
	if peer.Refused() != 2 || len(peer.Messages()) != 0 {
		t.Errorf("peer saw %d refusals and %d messages", peer.Refused(), len(peer.Messages()))
	}
	runOutbox(t, o)
	if peer.Refused() != 2 {
		t.Errorf("a message given up on was tried again")
	}
}

// A message marked sending when the server died may or may not have reached the SMTP server:
// it is sent again (at-least-once), with the same Message-ID.
func TestOutbox_ResendsAMessageInterruptedWhileSending(t *testing.T) {
	db, peer, o := outboxFixture(t, mailtest.Options{})
	m := keep(t, db, "interrupted")
	if _, err := db.SetOutboxDelivery("acct", m.ID, store.OutboxDelivery{Status: store.OutboxSending, Attempts: 1}); err != nil {
		t.Fatal(err)
	}
	runOutbox(t, o)
	got, _ := db.GetOutbox("acct", m.ID)
	if d := got.Delivery; d == nil || d.Status != store.OutboxSent || d.Attempts != 2 {
		t.Fatalf("delivery: %+v, want sent on attempt 2", got.Delivery)
	}
	if len(peer.Messages()) != 1 {
		t.Errorf("peer has %d messages, want 1", len(peer.Messages()))
	}
}
