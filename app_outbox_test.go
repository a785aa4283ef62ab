package main

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/mail/mailtest"
	"github.com/rodeo-run/rodeo/store"
)

// TestServeSendsTheOutboxBacklog: mail kept while the server had no SMTP is sent when it starts
// with --smtp-url, retried after the SMTP server first refuses it.
func TestServeSendsTheOutboxBacklog(t *testing.T) {
	if testing.Short() {
		t.Skip("rodeo serve starts Chrome; skipped with -short")
	}
	dir := t.TempDir()
	db, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	kept, err := db.AddOutbox(store.OutboxMessage{Account: store.DefaultAccount, To: []string{"ops@example.com"}, Subject: "kept while offline", Body: "hi\n"})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	peer := mailtest.Start(t, mailtest.Options{RefuseFirst: 1})
	env := map[string]string{"RODEO_CHROME_FLAGS": offlineFlag, "RODEO_API_KEY": "rk_outbox-test-key-0123456789"}
	var out, errOut bytes.Buffer
	app := &App{Stdout: &out, Stderr: &errOut, Stdin: strings.NewReader(""), Getenv: func(k string) string { return env[k] }}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := app.Main(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--data", dir, "--contexts", "1",
			"--smtp-url", fmt.Sprintf("smtp://%s:%d?tls=none", peer.Host, peer.Port), "--outbox-backoff", "100ms"})
		done <- err
	}()
	deadline := time.Now().Add(60 * time.Second)
	for len(peer.Messages()) == 0 {
		if time.Now().After(deadline) {
			cancel()
			<-done
			t.Fatalf("the kept message was not sent within 60s (refused %d times); log:\n%s", peer.Refused(), errOut.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve: %v", err)
	}
	if got := peer.Messages(); len(got) != 1 || !strings.Contains(string(got[0].Data), "Subject: kept while offline") || peer.Refused() != 1 {
		t.Fatalf("peer has %d messages after %d refusals", len(got), peer.Refused())
	}
	db, err = store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	m, err := db.GetOutbox(store.DefaultAccount, kept.ID)
	if err != nil || m.Delivery == nil || m.Delivery.Status != store.OutboxSent || m.Delivery.Attempts != 2 {
		t.Fatalf("stored delivery: %+v %v", m.Delivery, err)
	}
}
