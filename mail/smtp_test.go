package mail_test

import (
	"context"
	"io"
	"mime"
	"mime/multipart"
	netmail "net/mail"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/mail"
	"github.com/rodeo-run/rodeo/mail/mailtest"
	"github.com/rodeo-run/rodeo/scripts"
)

func TestParseURL(t *testing.T) {
	cases := []struct {
		url  string
		want mail.Config
	}{
		{"smtp://bot:s3cret@mail.example.com:2525?from=bot@example.com",
			mail.Config{Host: "mail.example.com", Port: 2525, Username: "bot", Password: "s3cret", From: "bot@example.com", TLS: mail.TLSOpportunistic, Auth: "plain"}},
		{"smtp://relay.internal", mail.Config{Host: "relay.internal", Port: 587, TLS: mail.TLSOpportunistic, Auth: "plain"}},
		{"smtps://u:p%40ss@smtp.example.com", mail.Config{Host: "smtp.example.com", Port: 465, Username: "u", Password: "p@ss", TLS: mail.TLSImplicit, Auth: "plain"}},
		{"SMTP://h:25?tls=none&auth=login&insecure_auth=true", mail.Config{Host: "h", Port: 25, TLS: mail.TLSNone, Auth: "login", InsecureAuth: true}},
		{"smtp://h?tls=starttls", mail.Config{Host: "h", Port: 587, TLS: mail.TLSStartTLS, Auth: "plain"}},
	}
	for _, c := range cases {
		got, err := mail.ParseURL(c.url)
		if err != nil {
			t.Errorf("%s: %v", c.url, err)
			continue
		}
		got.Timeout = 0
		if got != c.want {
			t.Errorf("%s:\n got %+v\nwant %+v", c.url, got, c.want)
		}
	}
}

func TestParseURL_ErrorsNeverShowThePassword(t *testing.T) {
	bad := []string{
		"http://u:hunter2@h:25",
		"smtp://u:hunter2@:25",
		"smtp://u:hunter2@h:99999",
		"smtp://u:hunter2@h:abc",
		"smtp://u:hunter2@h:25?tls=maybe",
		"smtp://u:hunter2@h:25?auth=magic",
		"smtp://u:hunter2@h:25?colour=blue",
		"smtps://u:hunter2@h?tls=none",
		"smtp://u:hun ter2@h:25\x7f",
		"smtp://u:hunter2@h:25?insecure_auth=perhaps",
	}
	for _, u := range bad {
		_, err := mail.ParseURL(u)
		if err == nil {
			t.Errorf("%q was accepted", u)
			continue
		}
		if errs.Code(err) != errs.InvalidConfig || strings.Contains(err.Error(), "hunter2") || strings.Contains(err.Error(), "hun ter2") {
			t.Errorf("%q: %v (code %s)", u, err, errs.Code(err))
		}
	}
	cfg, err := mail.ParseURL("smtp://u:hunter2@h:25")
	if err != nil {
		t.Fatal(err)
	}
	if s := cfg.String(); strings.Contains(s, "hunter2") || !strings.Contains(s, "u:***@h:25") {
		t.Errorf("String: %s", s)
	}
	if v := cfg.LogValue().String(); strings.Contains(v, "hunter2") {
		t.Errorf("LogValue: %s", v)
	}
}

func TestNew_RejectsBadSender(t *testing.T) {
	if _, err := mail.New(mail.Config{Host: "h", From: "not an address"}); errs.Code(err) != errs.InvalidConfig {
		t.Fatalf("bad sender: %v", err)
	}
	m, err := mail.New(mail.Config{Host: "h"})
	if err != nil || !strings.HasPrefix(m.Config().From, "rodeo@") {
		t.Fatalf("default sender: %+v %v", m, err)
	}
}

// received parses a message the peer accepted: its header and its parts by content type.
func received(t *testing.T, data []byte) (*netmail.Message, map[string][]byte, map[string]string) {
	t.Helper()
	msg, err := netmail.ReadMessage(strings.NewReader(string(data)))
	if err != nil {
		t.Fatalf("parse message: %v\n%s", err, data)
	}
	parts, names := map[string][]byte{}, map[string]string{}
	mt, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil {
		t.Fatalf("content type: %v", err)
	}
	if !strings.HasPrefix(mt, "multipart/") {
		b, _ := io.ReadAll(msg.Body)
		parts[mt] = b
		return msg, parts, names
	}
	mr := multipart.NewReader(msg.Body, params["boundary"])
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(p)
		ct, _, _ := mime.ParseMediaType(p.Header.Get("Content-Type"))
		parts[ct] = b
		if fn := p.FileName(); fn != "" {
			names[fn] = p.Header.Get("Content-Transfer-Encoding")
		}
	}
	return msg, parts, names
}

func TestDeliver_PlainAuthOverLoopback(t *testing.T) {
	peer := mailtest.Start(t, mailtest.Options{Username: "bot", Password: "pw", AllowInsecureAuth: true})
	m, err := mail.New(mail.Config{Host: peer.Host, Port: peer.Port, Username: "bot", Password: "pw", From: "rodeo@example.com", Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	reply, err := m.Deliver(context.Background(), scripts.Mail{To: []string{"Ada <ada@example.com>"}, Subject: "Grüße", Body: "hello\nworld\n"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(reply, "2.0.0") {
		t.Errorf("server reply %q", reply)
	}
	msgs := peer.Messages()
	if len(msgs) != 1 || msgs[0].User != "bot" || msgs[0].From != "rodeo@example.com" || msgs[0].To[0] != "ada@example.com" || msgs[0].TLS {
		t.Fatalf("received %+v", msgs)
	}
	hdr, parts, _ := received(t, msgs[0].Data)
	subj, _ := new(mime.WordDecoder).DecodeHeader(hdr.Header.Get("Subject"))
	if subj != "Grüße" || !strings.Contains(hdr.Header.Get("To"), "ada@example.com") {
		t.Errorf("header %v", hdr.Header)
	}
	if body := string(parts["text/plain"]); !strings.Contains(body, "hello") {
		t.Errorf("body %q", body)
	}
}

func TestDeliver_WrongPasswordFails(t *testing.T) {
	peer := mailtest.Start(t, mailtest.Options{Username: "bot", Password: "right", AllowInsecureAuth: true})
	m, err := mail.New(mail.Config{Host: peer.Host, Port: peer.Port, Username: "bot", Password: "wrong-pw", Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	err = m.Send(context.Background(), scripts.Mail{To: []string{"ada@example.com"}, Subject: "x", Body: "x"})
	if err == nil || strings.Contains(err.Error(), "wrong-pw") || errs.Code(err) != errs.NodeFailed {
		t.Fatalf("err = %v", err)
	}
	if n := len(peer.Messages()); n != 0 {
		t.Fatalf("%d messages accepted", n)
	}
}

func TestDeliver_RejectedRecipient(t *testing.T) {
	peer := mailtest.Start(t, mailtest.Options{RejectRcpt: "nobody@example.com"})
	m, err := mail.New(mail.Config{Host: peer.Host, Port: peer.Port, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	err = m.Send(context.Background(), scripts.Mail{To: []string{"nobody@example.com"}, Subject: "x", Body: "x"})
	if err == nil || !strings.Contains(err.Error(), "550") {
		t.Fatalf("err = %v", err)
	}
}

func TestDeliver_STARTTLS(t *testing.T) {
	srvTLS, cliTLS := mailtest.SelfSigned(t)
	peer := mailtest.Start(t, mailtest.Options{Username: "bot", Password: "pw", TLS: srvTLS})
	for _, mode := range []string{mail.TLSOpportunistic, mail.TLSStartTLS} {
		m, err := mail.New(mail.Config{Host: peer.Host, Port: peer.Port, Username: "bot", Password: "pw", TLS: mode, TLSConfig: cliTLS, Timeout: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Send(context.Background(), scripts.Mail{To: []string{"ada@example.com"}, Subject: mode, Body: "x"}); err != nil {
			t.Fatalf("%s: %v", mode, err)
		}
	}
	msgs := peer.Messages()
	if len(msgs) != 2 || !msgs[0].TLS || !msgs[1].TLS || msgs[0].User != "bot" {
		t.Fatalf("received %+v", msgs)
	}
	// Without the test CA the certificate is refused: TLS is really verified.
	m, err := mail.New(mail.Config{Host: peer.Host, Port: peer.Port, TLS: mail.TLSStartTLS, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Send(context.Background(), scripts.Mail{To: []string{"ada@example.com"}, Body: "x"}); err == nil {
		t.Fatal("an untrusted certificate was accepted")
	}
}

func TestDeliver_ImplicitTLS(t *testing.T) {
	srvTLS, cliTLS := mailtest.SelfSigned(t)
	peer := mailtest.Start(t, mailtest.Options{TLS: srvTLS, ImplicitTLS: true})
	cfg, err := mail.ParseURL("smtps://" + peer.Host + ":" + strconv.Itoa(peer.Port) + "?from=bot@example.com")
	if err != nil {
		t.Fatal(err)
	}
	cfg.TLSConfig = cliTLS
	m, err := mail.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Send(context.Background(), scripts.Mail{To: []string{"ada@example.com"}, Subject: "tls", Body: "x"}); err != nil {
		t.Fatal(err)
	}
	if msgs := peer.Messages(); len(msgs) != 1 || !msgs[0].TLS || msgs[0].From != "bot@example.com" {
		t.Fatalf("received %+v", msgs)
	}
}

func TestDeliver_StartTLSRequiredButNotOffered(t *testing.T) {
	peer := mailtest.Start(t, mailtest.Options{})
	cfg, err := mail.ParseURL("smtp://" + peer.Host + ":" + strconv.Itoa(peer.Port) + "?tls=starttls")
	if err != nil {
		t.Fatal(err)
	}
	m, err := mail.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Send(context.Background(), scripts.Mail{To: []string{"ada@example.com"}, Body: "x"}); err == nil {
		t.Fatal("sent without the required STARTTLS")
	}
	if len(peer.Messages()) != 0 {
		t.Fatal("the peer accepted a message over plain text")
	}
}
