package triggers

import (
	"strings"
	"testing"
)

func TestParseEmail_BodiesAndCharsets(t *testing.T) {
	cases := []struct {
		name, raw        string
		text, html, subj string
		files            []string
	}{
		{"plain, no MIME headers", "From: Bob <bob@example.com>\r\nSubject: hi\r\n\r\nline 1\r\nline 2\r\n", "line 1\nline 2\n", "", "hi", nil},
		{"HTML only: its visible text is the transcript",
			"From: a@example.com\r\nSubject: s\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<html><head><title>t</title></head><body><p>Your order</p><script>x()</script><p>has shipped</p></body></html>\r\n",
			"Your order\nhas shipped", "<html><head><title>t</title></head><body><p>Your order</p><script>x()</script><p>has shipped</p></body></html>\n", "s", nil},
		{"ISO-8859-1 body and an encoded subject", "From: a@example.com\r\nSubject: =?ISO-8859-1?Q?Caf=E9?=\r\nContent-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nna=EFve\r\n", "naïve\n", "", "Café", nil},
		{"an inline image with a name is a file", "From: a@example.com\r\nSubject: s\r\nContent-Type: multipart/related; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nsee picture\r\n--b\r\nContent-Type: image/png; name=\"logo.png\"\r\nContent-Disposition: inline\r\nContent-Transfer-Encoding: base64\r\n\r\niVBORw0KGgo=\r\n--b--\r\n", "see picture", "", "s", []string{"logo.png"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := parseEmail([]byte(c.raw))
			if err != nil {
				t.Fatal(err)
			}
			var files []string
			for _, a := range m.Attachments {
				files = append(files, a.Name)
			}
			if m.Text != c.text || m.HTML != c.html || m.Subject != c.subj || strings.Join(files, ",") != strings.Join(c.files, ",") {
				t.Errorf("got text %q html %q subject %q files %v", m.Text, m.HTML, m.Subject, files)
			}
		})
	}
}

func TestSafeFileName(t *testing.T) {
	taken := map[string]bool{}
	cases := []struct{ in, ctype, want string }{
		{"report.pdf", "application/pdf", "report.pdf"},
		{"report.pdf", "application/pdf", "report (2).pdf"},
		{"../../etc/passwd", "text/plain", "passwd"},
		{`C:\Users\ada\evil.exe`, "application/octet-stream", "evil.exe"},
		{".bashrc", "text/plain", "bashrc"},
		{"a\x00b\nc.txt", "text/plain", "a_b_c.txt"},
		{"..", "text/csv", "attachment-7.csv"},
		{"", "image/png", "attachment-7.png"},
		{strings.Repeat("x", 300) + ".txt", "text/plain", strings.Repeat("x", 146) + ".txt"},
	}
	for _, c := range cases {
		if got := uniqueName(safeFileName(c.in, c.ctype, 7), taken); got != c.want {
			t.Errorf("%q: %q, want %q", c.in, got, c.want)
		}
	}
}
