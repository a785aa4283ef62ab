package triggers

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"

	"github.com/PuerkitoBio/goquery"
	"github.com/emersion/go-message"
	_ "github.com/emersion/go-message/charset" // decodes ISO-8859-*, Windows-125x, … bodies to UTF-8
	"github.com/emersion/go-message/mail"
)

// maxAttachments caps the files one message may bring; later ones are dropped and counted.
const maxAttachments = 50

// Email is an incoming message as a script sees it.
type Email struct {
	From    string
	To      string
	Subject string
	// Text is the plain-text body; a message with only HTML gets the HTML's text here.
	Text        string
	HTML        string
	Attachments []Attachment
	// Dropped counts attachments beyond maxAttachments.
	Dropped int
}

// Attachment is one file of a message, its name made safe for a folder.
type Attachment struct {
	Name        string
	ContentType string
	Data        []byte
}

// parseEmail reads a whole RFC 5322 message with go-message: headers decoded (RFC 2047), parts
// walked through any nesting of multiparts, transfer encodings and charsets undone. The first
// text/plain and text/html inline parts are the bodies; attachments, and inline parts that are
// not text but carry a file name, are files.
func parseEmail(raw []byte) (Email, error) {
	var m Email
	mr, err := mail.CreateReader(bytes.NewReader(raw))
	if err != nil && !lenient(err) {
		return m, fmt.Errorf("read the message header: %w", err)
	}
	if list, err := mr.Header.AddressList("From"); err == nil && len(list) > 0 {
		m.From = list[0].Address
	}
	if m.Subject, err = mr.Header.Subject(); err != nil {
		m.Subject = mr.Header.Get("Subject")
	}
	names := map[string]bool{}
	for {
		p, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil && !lenient(err) {
			return m, fmt.Errorf("read a part of the message: %w", err)
		}
		if p == nil {
			break
		}
		body, err := io.ReadAll(p.Body)
		if err != nil && !lenient(err) {
			return m, fmt.Errorf("read a part of the message: %w", err)
		}
		ctype, filename := partInfo(p)
		switch {
		case filename == "" && ctype == "text/plain" && m.Text == "":
			m.Text = string(body)
		case filename == "" && ctype == "text/html" && m.HTML == "":
			m.HTML = string(body)
		case filename != "" || !strings.HasPrefix(ctype, "text/"):
			if len(m.Attachments) >= maxAttachments {
				m.Dropped++
				continue
			}
			name := uniqueName(safeFileName(filename, ctype, len(m.Attachments)+1), names)
			m.Attachments = append(m.Attachments, Attachment{Name: name, ContentType: ctype, Data: body})
		}
	}
	// SMTP carries lines ending in CRLF; a script sees them as text files have them, "\n".
	m.Text, m.HTML = strings.ReplaceAll(m.Text, "\r\n", "\n"), strings.ReplaceAll(m.HTML, "\r\n", "\n")
	if m.Text == "" && m.HTML != "" {
		m.Text = htmlText(m.HTML)
	}
	return m, nil
}

// lenient reports errors that leave the message readable: an unknown charset or transfer
// encoding gives the part's bytes as they are.
func lenient(err error) bool {
	return message.IsUnknownCharset(err) || message.IsUnknownEncoding(err)
}

// partInfo is a part's media type and declared file name ("" for none).
func partInfo(p *mail.Part) (ctype, filename string) {
	switch h := p.Header.(type) {
	case *mail.AttachmentHeader:
		ctype, _, _ = h.ContentType()
		filename, _ = h.Filename()
		if filename == "" {
			filename = "attachment"
		}
	case *mail.InlineHeader:
		ctype, _, _ = h.ContentType()
		if _, params, err := h.ContentDisposition(); err == nil {
			filename = params["filename"]
		}
		if filename == "" {
			_, params, _ := h.ContentType()
			filename = params["name"]
		}
	}
	if ctype == "" {
		ctype = "text/plain"
	}
	return strings.ToLower(ctype), filename
}

// safeFileName makes a sender's file name safe to write in a run's folder: only its last path
// element, no control characters, no leading dot, at most 150 bytes; an empty one becomes
// attachment-N with an extension for its type.
func safeFileName(name, ctype string, n int) string {
	name = strings.ReplaceAll(name, "\\", "/")
	name = filepath.Base(name)
	name = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '/' || r == ':' || r == '*' || r == '?' || r == '"' || r == '<' || r == '>' || r == '|' {
			return '_'
		}
		return r
	}, name)
	name = strings.TrimLeft(strings.TrimSpace(name), ".")
	if len(name) > 150 {
		ext := filepath.Ext(name)
		if len(ext) > 20 {
			ext = ""
		}
		name = strings.ToValidUTF8(name[:150-len(ext)], "") + ext
	}
	if name == "" || name == "attachment" {
		ext := ""
		if exts, _ := mime.ExtensionsByType(ctype); len(exts) > 0 {
			ext = exts[0]
		}
		name = "attachment-" + strconv.Itoa(n) + ext
	}
	return name
}

// uniqueName returns name, or "name (2).ext", … when a file of that name is already taken.
func uniqueName(name string, taken map[string]bool) string {
	out := name
	ext := filepath.Ext(name)
	for i := 2; taken[strings.ToLower(out)]; i++ {
		out = fmt.Sprintf("%s (%d)%s", strings.TrimSuffix(name, ext), i, ext)
	}
	taken[strings.ToLower(out)] = true
	return out
}

// htmlText is the visible text of an HTML body (scripts and styles left out), for a message
// without a text part.
func htmlText(html string) string {
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(html))
	if err != nil {
		return ""
	}
	doc.Find("script, style, head").Remove()
	// Block elements end a line of the text, as they do on screen.
	doc.Find("br").ReplaceWithHtml("\n")
	doc.Find("p, div, li, tr, h1, h2, h3, h4, h5, h6, blockquote, pre, table").AppendHtml("\n")
	var lines []string
	for _, l := range strings.Split(doc.Text(), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}
