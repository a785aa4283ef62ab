package nodes_test

import (
	"encoding/base64"
	"io"
	"mime"
	"mime/multipart"
	netmail "net/mail"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/mail"
	"github.com/rodeo-run/rodeo/mail/mailtest"
	"github.com/rodeo-run/rodeo/scripts"
)

// mailParts is a received message taken apart: header, text body, attachments by file name.
type mailParts struct {
	header netmail.Header
	text   string
	files  map[string][]byte
}

func parseMail(t *testing.T, data []byte) mailParts {
	t.Helper()
	msg, err := netmail.ReadMessage(strings.NewReader(string(data)))
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, data)
	}
	out := mailParts{header: msg.Header, files: map[string][]byte{}}
	mt, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(mt, "multipart/") {
		b, _ := io.ReadAll(msg.Body)
		out.text = string(b)
		return out
	}
	mr := multipart.NewReader(msg.Body, params["boundary"])
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(p) // quoted-printable is decoded by the reader
		if name := p.FileName(); name != "" {
			if strings.EqualFold(p.Header.Get("Content-Transfer-Encoding"), "base64") {
				dec, err := base64.StdEncoding.DecodeString(strings.NewReplacer("\r", "", "\n", "").Replace(string(b)))
				if err != nil {
					t.Fatalf("attachment %s: %v", name, err)
				}
				b = dec
			}
			out.files[name] = b
			continue
		}
		out.text += string(b)
	}
}

func smtpMailer(t *testing.T, peer *mailtest.Server, user, pass string) *mail.SMTP {
	t.Helper()
	m, err := mail.New(mail.Config{Host: peer.Host, Port: peer.Port, Username: user, Password: pass, From: "rodeo@example.com", Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// writeRunFile puts a file into the working folder of the run with id runID.
func writeRunFile(t *testing.T, rig *serviceRig, runID, name, content string) {
	t.Helper()
	dir := filepath.Join(rig.svc.WorkDir, runID)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestEmail_OverSMTP(t *testing.T) {
	// AUTH PLAIN over plain loopback TCP: the peer offers it (AllowInsecureAuth) and go-mail sends
	// it unencrypted only because the host is 127.0.0.1.
	peer := mailtest.Start(t, mailtest.Options{Username: "bot", Password: "s3cret", AllowInsecureAuth: true})
	rig := newServiceRig(t, smtpMailer(t, peer, "bot", "s3cret"), "")
	const runID = "r_email_smtp"
	writeRunFile(t, rig, runID, "report.csv", "item,price\ntea,3.5\n")
	d, err := rig.exec("acme", runID, `[{"type": "email", "to": "ops@example.com", "to_variable": "boss",
		"subject": "Prices for {{day}}", "body": "Hello,\nhere are the prices.", "body_variable": "summary", "data": "prices",
		"file": "report.csv"}]`,
		map[string]any{"day": "Monday", "boss": []any{"Boss <boss@example.com>", "ops@example.com"}, "summary": "All good.",
			"prices": map[string]any{"tea": 3.5}})
	if err != nil {
		t.Fatal(err)
	}
	if d.Status != scripts.StatusSucceeded || d.Steps[0].Detail["delivered"] != "smtp" || passedChecks(d.Steps[0]) != "smtp_accepted" {
		t.Fatal(dump(d))
	}
	msgs := peer.Messages()
	if len(msgs) != 1 {
		t.Fatalf("%d messages", len(msgs))
	}
	m := msgs[0]
	if m.User != "bot" || strings.Join(m.To, ",") != "ops@example.com,boss@example.com" {
		t.Fatalf("envelope %+v", m)
	}
	p := parseMail(t, m.Data)
	if p.header.Get("Subject") != "Prices for Monday" || !strings.Contains(p.header.Get("To"), "boss@example.com") ||
		!strings.Contains(p.header.Get("To"), "ops@example.com") || !strings.Contains(p.header.Get("From"), "rodeo@example.com") {
		t.Fatalf("header %v", p.header)
	}
	text := strings.ReplaceAll(p.text, "\r\n", "\n")
	if !strings.Contains(text, "Hello,\nhere are the prices.\n\nAll good.\n\n{\"tea\":3.5}") {
		t.Fatalf("body %q", text)
	}
	if got := string(p.files["report.csv"]); got != "item,price\ntea,3.5\n" {
		t.Fatalf("attachment %q (files %v)", got, p.files)
	}
	if !strings.Contains(dump(d), "2.0.0") {
		t.Errorf("no SMTP reply in the step: %s", dump(d))
	}
}

func TestEmail_SMTPFailureFailsTheStep(t *testing.T) {
	peer := mailtest.Start(t, mailtest.Options{Username: "bot", Password: "right", AllowInsecureAuth: true})
	rig := newServiceRig(t, smtpMailer(t, peer, "bot", "wrong-password"), "")
	d := rig.run(t, "acme", `[{"type": "email", "to": "ops@example.com", "subject": "x"}]`, nil)
	if stepErr(d, 0) != errs.NodeFailed || strings.Contains(dump(d), "wrong-password") || len(peer.Messages()) != 0 {
		t.Fatal(dump(d))
	}
	if d.Steps[0].Verification.Attempts != 1 {
		t.Fatalf("an email was tried %d times", d.Steps[0].Verification.Attempts)
	}
	if list, _ := rig.db.ListOutbox("acme", 0, ""); len(list) != 0 {
		t.Fatal("a failed SMTP delivery went to the outbox")
	}
}

func TestEmail_Outbox(t *testing.T) {
	rig := newServiceRig(t, nil, "")
	const runID = "r_email_outbox"
	writeRunFile(t, rig, runID, "shot.png", "\x89PNG\r\n\x1a\nfake")
	d, err := rig.exec("acme", runID, `[{"type": "email", "to_variable": "who", "subject": "Report\r\nBcc: evil@example.com",
		"body": "Total:", "data": "total", "file": "shot.png"}]`, map[string]any{"who": "ada@example.com", "total": 42})
	if err != nil {
		t.Fatal(err)
	}
	if d.Status != scripts.StatusSucceeded || d.Steps[0].Detail["delivered"] != "outbox" || passedChecks(d.Steps[0]) != "outbox_entry" {
		t.Fatal(dump(d))
	}
	list, err := rig.db.ListOutbox("acme", 0, "")
	if err != nil || len(list) != 1 {
		t.Fatalf("outbox %v %v", list, err)
	}
	m := list[0]
	if m.Subject != "Report Bcc: evil@example.com" || m.Body != "Total:\n\n42\n" || m.To[0] != "ada@example.com" || m.RunID != runID {
		t.Fatalf("entry %+v", m)
	}
	if len(m.Attachments) != 1 || m.Attachments[0].Name != "shot.png" || m.Attachments[0].Size != 12 || m.Attachments[0].ContentType != "image/png" {
		t.Fatalf("attachments %+v", m.Attachments)
	}
	if other, _ := rig.db.ListOutbox("other", 0, ""); len(other) != 0 {
		t.Fatal("the message is in another account's outbox")
	}
}

func TestEmail_BadInput(t *testing.T) {
	rig := newServiceRig(t, nil, "")
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A missing recipient is caught at compile time (TestValidate_LiteralMistakesAreRejectedUpFront);
	// a templated one can only fail when the run reaches the node.
	cases := []struct{ node, code string }{
		{`{"type": "email", "to": "{{empty}}"}`, errs.InvalidConfig},
		{`{"type": "email", "to": "not an address"}`, errs.InvalidConfig},
		{`{"type": "email", "to": "a@example.com, @bad"}`, errs.InvalidConfig},
		{`{"type": "email", "to_variable": "missing"}`, errs.VariableNotSet},
		{`{"type": "email", "to_variable": "empty"}`, errs.InvalidConfig},
		{`{"type": "email", "to": "a@example.com", "data": "missing"}`, errs.VariableNotSet},
		{`{"type": "email", "to": "a@example.com", "file": "../escape.txt"}`, errs.InvalidConfig},
		{`{"type": "email", "to": "a@example.com", "file": "nope.txt"}`, errs.NotFound},
		// Code nodes are off in the rig: absolute paths must stay under the working folders.
		{`{"type": "email", "to": "a@example.com", "file": "` + outside + `"}`, errs.InvalidConfig},
	}
	for _, c := range cases {
		d := rig.run(t, "acme", "["+c.node+"]", map[string]any{"empty": ""})
		if stepErr(d, 0) != c.code {
			t.Errorf("%s: want %s\n%s", c.node, c.code, dump(d))
		}
	}
	// `to` holds an address, not a variable name; the error says how to name a variable.
	d := rig.run(t, "acme", `[{"type": "email", "to": "who"}]`, map[string]any{"who": "ada@example.com"})
	if stepErr(d, 0) != errs.InvalidConfig || !strings.Contains(d.Steps[0].Error.Message, `"to_variable": "who"`) {
		t.Error(dump(d))
	}
	if list, _ := rig.db.ListOutbox("acme", 0, ""); len(list) != 0 {
		t.Fatalf("bad input reached the outbox: %+v", list)
	}
}

func TestEmail_AttachmentSymlinkCannotLeaveTheRunFolder(t *testing.T) {
	rig := newServiceRig(t, nil, "")
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	const runID = "r_email_link"
	dir := filepath.Join(rig.svc.WorkDir, runID)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	d, err := rig.exec("acme", runID, `[{"type": "email", "to": "a@example.com", "file": "link.txt"}]`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d.Status != scripts.StatusFailed || strings.Contains(dump(d), "secret\"") {
		t.Fatal(dump(d))
	}
}
