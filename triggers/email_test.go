package triggers_test

import (
	"errors"
	"net/smtp"
	"net/textproto"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/store"
	"github.com/rodeo-run/rodeo/triggers"
)

const mailDomain = "in.rodeo.test"

// listen starts the fixture's SMTP listener on a loopback port.
func (f *fixture) listen(t *testing.T) string {
	t.Helper()
	ms, err := f.in.ListenSMTP("127.0.0.1:0")
	if err != nil {
		t.Fatalf("listen: %v", err)
	}
	t.Cleanup(func() { _ = ms.Close() })
	return ms.Addr().String()
}

// sendMail has one SMTP conversation with addr (net/smtp): MAIL FROM, one RCPT per recipient,
// DATA. It returns the first error the server answered with.
func sendMail(t *testing.T, addr, from string, to []string, msg []byte) error {
	t.Helper()
	c, err := smtp.Dial(addr)
	if err != nil {
		t.Fatalf("dial %s: %v", addr, err)
	}
	defer c.Close()
	if err := c.Hello("client.test"); err != nil {
		return err
	}
	if err := c.Mail(from); err != nil {
		return err
	}
	for _, rcpt := range to {
		if err := c.Rcpt(rcpt); err != nil {
			return err
		}
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write(msg); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return c.Quit()
}

func smtpCode(err error) int {
	var te *textproto.Error
	if errors.As(err, &te) {
		return te.Code
	}
	return 0
}

func fixtureMail(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/multipart_attachment.eml")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The hostile text body of testdata/multipart_attachment.eml, decoded.
const hostileText = "Please ship order 1042 — {{data}} {{email.subject}}\n" +
	"$(touch pwned) `touch pwned` '; touch pwned; echo ' \"quoted\" \\n"

func TestEmail_MultipartMessageWithAttachmentRunsTheSavedScript(t *testing.T) {
	f := newFixture(t, triggers.Config{MailDomain: mailDomain}, nil)
	f.save(t, "orders",
		map[string]any{"type": "add_data", "target": "notes", "data": "{{email.attachments.0}}"},
		map[string]any{"type": "print", "text": "mail from {{email.from}}: {{email_transcript}}"},
		map[string]any{"type": "bash", "command": "printf '%s' '{{email_transcript}}'", "data": "echoed"},
	)
	tr, err := f.in.CreateEmail(store.DefaultAccount, "orders", "", "")
	if err != nil {
		t.Fatal(err)
	}
	addr := f.in.Address(tr.Token)
	if !strings.HasPrefix(addr, "t-") || !strings.HasSuffix(addr, "@"+mailDomain) || len(addr) < len("t-@"+mailDomain)+32 {
		t.Fatalf("address %q: want t-<32-character token>@%s", addr, mailDomain)
	}
	// The address arrives in upper case, as some relays pass it on.
	if err := sendMail(t, f.listen(t), "bounce@example.com", []string{strings.ToUpper(addr)}, fixtureMail(t)); err != nil {
		t.Fatalf("send: %v", err)
	}
	got, err := f.db.GetInboundTrigger(store.DefaultAccount, store.InboundEmail, tr.ID)
	if err != nil || len(got.Deliveries) != 1 || got.Deliveries[0].Result != "ran" {
		t.Fatalf("deliveries: %+v (%v)", got.Deliveries, err)
	}
	d := got.Deliveries[0]
	if d.From != "ada@example.com" || d.Subject != "Invoice 1042 — ACME" {
		t.Errorf("delivery: %+v", d)
	}
	doc := f.waitRun(t, d.RunID)
	if doc.Status != "succeeded" {
		t.Fatalf("run: %s %+v %+v", doc.Status, doc.Error, doc.Steps)
	}
	if doc.Source != "email" || doc.Trigger == nil || doc.Trigger.ID != tr.ID || doc.Script == nil || doc.Script.Name != "orders" {
		t.Errorf("the run does not say what started it: source %q trigger %+v script %+v", doc.Source, doc.Trigger, doc.Script)
	}
	if doc.Data["email_transcript"] != hostileText || doc.Data["data"] != hostileText {
		t.Errorf("email_transcript = %q, want it intact: %q", doc.Data["email_transcript"], hostileText)
	}
	if doc.Data["echoed"] != hostileText {
		t.Errorf("bash echoed %q, want the body as it was", doc.Data["echoed"])
	}
	email, _ := doc.Data["email"].(map[string]any)
	want := map[string]any{"from": "ada@example.com", "to": addr, "subject": "Invoice 1042 — ACME", "text": hostileText,
		"html": "<p>Please ship order <b>1042</b></p><script>alert(1)</script>", "attachments": []any{"notes.txt", "evil.sh"}}
	if !reflect.DeepEqual(email, want) {
		t.Errorf("email =\n%#v\nwant\n%#v", email, want)
	}
	if doc.Data["notes"] != "order 1042: 3 boxes\nship to: ACME Ltd\n" {
		t.Errorf("add_data read the attachment as %q", doc.Data["notes"])
	}
	folder := filepath.Join(f.work, doc.RunID)
	if _, err := os.Stat(filepath.Join(folder, "pwned")); err == nil {
		t.Error("the mail body ran as code: pwned exists in the run's folder")
	}
	if b, err := os.ReadFile(filepath.Join(folder, "evil.sh")); err != nil || !strings.Contains(string(b), "touch pwned") {
		t.Errorf("the attachment named ../../../etc/evil.sh was not kept as evil.sh in the run's folder: %v", err)
	}
	arts, err := f.db.ListArtifacts(store.DefaultAccount, doc.RunID)
	if err != nil || len(arts) != 2 || arts[0].Name != "evil.sh" || arts[1].Name != "notes.txt" || arts[1].ContentType != "text/plain" {
		t.Errorf("artifacts: %+v (%v)", arts, err)
	}
}

func TestEmail_UnknownRecipientsAreRefusedAtRcpt(t *testing.T) {
	f := newFixture(t, triggers.Config{MailDomain: mailDomain}, nil)
	f.save(t, "orders", map[string]any{"type": "print", "text": "{{email_transcript}}"})
	tr, err := f.in.CreateEmail(store.DefaultAccount, "orders", "", "")
	if err != nil {
		t.Fatal(err)
	}
	gone, err := f.in.CreateEmail(store.DefaultAccount, "orders", "", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := f.db.DeleteInboundTrigger(store.DefaultAccount, store.InboundEmail, gone.ID); err != nil {
		t.Fatal(err)
	}
	addr := f.listen(t)
	for _, rcpt := range []string{
		"t-" + tr.Token + "@elsewhere.test",     // another domain
		"t-" + tr.Token[:31] + "@" + mailDomain, // a guessed token
		tr.Token + "@" + mailDomain,             // no t- prefix
		"postmaster@" + mailDomain,
		f.in.Address(gone.Token), // a deleted trigger
	} {
		err := sendMail(t, addr, "a@example.com", []string{rcpt}, fixtureMail(t))
		if smtpCode(err) != 550 {
			t.Errorf("RCPT %s: %v, want 550", rcpt, err)
		}
	}
	if runs := f.runsOf(t); len(runs) != 0 {
		t.Errorf("refused mail started %d runs", len(runs))
	}
}

func TestEmail_MessagesOverTheSizeLimitAreRefused(t *testing.T) {
	f := newFixture(t, triggers.Config{MailDomain: mailDomain, MaxMailBytes: 4 << 10}, nil)
	f.save(t, "orders", map[string]any{"type": "print", "text": "{{email_transcript}}"})
	tr, err := f.in.CreateEmail(store.DefaultAccount, "orders", "", "")
	if err != nil {
		t.Fatal(err)
	}
	big := "From: a@example.com\r\nSubject: big\r\n\r\n" + strings.Repeat("0123456789abcdef\r\n", 1024)
	err = sendMail(t, f.listen(t), "a@example.com", []string{f.in.Address(tr.Token)}, []byte(big))
	if smtpCode(err) != 552 {
		t.Errorf("a 18 KiB message to a 4 KiB listener: %v, want 552", err)
	}
	if runs := f.runsOf(t); len(runs) != 0 {
		t.Errorf("refused mail started %d runs", len(runs))
	}
}

func TestEmail_FiltersThatDoNotMatchAreRecordedAndRunNothing(t *testing.T) {
	f := newFixture(t, triggers.Config{MailDomain: mailDomain}, nil)
	f.save(t, "orders", map[string]any{"type": "print", "text": "{{email.subject}}"})
	tr, err := f.in.CreateEmail(store.DefaultAccount, "orders", "@example.com", "invoice")
	if err != nil {
		t.Fatal(err)
	}
	addr, rcpt := f.listen(t), []string{f.in.Address(tr.Token)}
	cases := []struct{ from, subject, result, reason string }{
		{"mallory@evil.test", "Invoice 7", "filtered", `the sender "mallory@evil.test" does not contain the from filter "@example.com"`},
		{"ada@example.com", "Lunch?", "filtered", `the subject "Lunch?" does not contain the subject filter "invoice"`},
		{"ada@EXAMPLE.com", "Your INVOICE 7", "ran", ""},
	}
	for _, c := range cases {
		msg := "From: " + c.from + "\r\nTo: x@" + mailDomain + "\r\nSubject: " + c.subject + "\r\n\r\nhello\r\n"
		if err := sendMail(t, addr, c.from, rcpt, []byte(msg)); err != nil {
			t.Fatalf("send: %v", err)
		}
	}
	got, err := f.db.GetInboundTrigger(store.DefaultAccount, store.InboundEmail, tr.ID)
	if err != nil || len(got.Deliveries) != len(cases) {
		t.Fatalf("deliveries: %+v (%v)", got.Deliveries, err)
	}
	for i, c := range cases {
		d := got.Deliveries[i]
		if d.Result != c.result || d.Reason != c.reason || (c.result == "ran") != (d.RunID != "") {
			t.Errorf("mail %d: %+v, want %s %q", i, d, c.result, c.reason)
		}
	}
	if doc := f.waitRun(t, got.Deliveries[2].RunID); doc.Status != "succeeded" || doc.Data["email"].(map[string]any)["subject"] != "Your INVOICE 7" {
		t.Errorf("the matching mail's run: %s %v", doc.Status, doc.Data)
	}
	if runs := f.runsOf(t); len(runs) != 1 {
		t.Errorf("%d runs, want 1 (filtered mail runs nothing)", len(runs))
	}
}

// A message for a script that was deleted after its address was made is accepted (the address
// exists) and recorded as failed; nothing runs.
func TestEmail_AScriptDeletedSinceIsRecordedAsFailed(t *testing.T) {
	f := newFixture(t, triggers.Config{MailDomain: mailDomain}, nil)
	f.save(t, "orders", map[string]any{"type": "print", "text": "x"})
	tr, err := f.in.CreateEmail(store.DefaultAccount, "orders", "", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := f.db.DeleteScript(store.DefaultAccount, "orders"); err != nil {
		t.Fatal(err)
	}
	if err := sendMail(t, f.listen(t), "a@example.com", []string{f.in.Address(tr.Token)}, []byte("Subject: x\r\n\r\nbody\r\n")); err != nil {
		t.Fatalf("send: %v", err)
	}
	got, _ := f.db.GetInboundTrigger(store.DefaultAccount, store.InboundEmail, tr.ID)
	if len(got.Deliveries) != 1 || got.Deliveries[0].Result != "failed" || !strings.Contains(got.Deliveries[0].Reason, "orders") {
		t.Errorf("deliveries: %+v", got.Deliveries)
	}
	time.Sleep(50 * time.Millisecond)
	if runs := f.runsOf(t); len(runs) != 0 {
		t.Errorf("%d runs, want none", len(runs))
	}
}

func TestEmail_CreatingNeedsASavedScript(t *testing.T) {
	f := newFixture(t, triggers.Config{MailDomain: mailDomain}, nil)
	if _, err := f.in.CreateEmail(store.DefaultAccount, "missing", "", ""); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("an address for a script that does not exist: %v", err)
	}
	if _, err := f.in.CreateEmail(store.DefaultAccount, "", "", ""); err == nil {
		t.Error("an address without a script name was made")
	}
}
