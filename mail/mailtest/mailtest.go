// Package mailtest runs a real, in-process SMTP server (github.com/emersion/go-smtp) for tests:
// it speaks the protocol, checks AUTH PLAIN, can offer STARTTLS or speak implicit TLS, and keeps
// every message it accepted.
//
// Tests over plain loopback TCP need two things for AUTH: the server must offer AUTH without TLS
// (Options.AllowInsecureAuth sets go-smtp's AllowInsecureAuth), and the client must agree to send
// PLAIN unencrypted — go-mail does so by itself towards 127.0.0.1/localhost, and anywhere with
// smtp://…?insecure_auth=true.
package mailtest

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"io"
	"math/big"
	"net"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Options configure a Server.
type Options struct {
	// Username and Password, when set, are required (AUTH PLAIN) before MAIL FROM.
	Username, Password string
	// AllowInsecureAuth offers AUTH on a connection without TLS.
	AllowInsecureAuth bool
	// TLS, when set, is offered with STARTTLS, or spoken from the first byte with ImplicitTLS.
	TLS         *tls.Config
	ImplicitTLS bool
	// RejectRcpt makes the server refuse recipients with this address (550).
	RejectRcpt string
	// RefuseFirst makes the server answer the first RefuseFirst MAIL FROM commands with a
	// temporary failure (451), as a server that is overloaded or greylists does.
	RefuseFirst int
}

// Message is one accepted message.
type Message struct {
	From string
	To   []string
	Data []byte
	// User is the authenticated user ("" without AUTH); TLS reports an encrypted connection.
	User string
	TLS  bool
}

// Server is a running SMTP server; Close it (Start registers that with t.Cleanup).
type Server struct {
	Host string
	Port int
	opts Options
	srv  *smtp.Server

	mu      sync.Mutex
	msgs    []Message
	refused int
}

// Start listens on 127.0.0.1 on a free port and serves until the test ends.
func Start(t testing.TB, opts Options) *Server {
	t.Helper()
	s := &Server{opts: opts}
	s.srv = smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		_, tlsOn := c.TLSConnectionState()
		return &session{s: s, tls: tlsOn}, nil
	}))
	s.srv.Domain = "mailtest.local"
	s.srv.AllowInsecureAuth = opts.AllowInsecureAuth
	s.srv.ReadTimeout = 10 * time.Second
	s.srv.WriteTimeout = 10 * time.Second
	s.srv.MaxMessageBytes = 30 << 20
	s.srv.TLSConfig = opts.TLS
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("mailtest: listen: %v", err)
	}
	if opts.ImplicitTLS {
		if opts.TLS == nil {
			t.Fatal("mailtest: ImplicitTLS needs TLS")
		}
		ln = tls.NewListener(ln, opts.TLS)
	}
	host, port, _ := net.SplitHostPort(ln.Addr().String())
	s.Host = host
	s.Port, _ = strconv.Atoi(port)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = s.srv.Serve(ln)
	}()
	t.Cleanup(func() {
		_ = s.srv.Close()
		<-done
	})
	return s
}

// Refused counts the MAIL FROM commands answered with RefuseFirst's temporary failure.
func (s *Server) Refused() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.refused
}

// Messages returns the messages accepted so far.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.msgs...)
}

type session struct {
	s    *Server
	tls  bool
	user string
	msg  Message
}

var errAuthRequired = &smtp.SMTPError{Code: 530, EnhancedCode: smtp.EnhancedCode{5, 7, 0}, Message: "authentication required"}

func (ss *session) AuthMechanisms() []string {
	if ss.s.opts.Username == "" {
		return nil
	}
	return []string{sasl.Plain}
}

func (ss *session) Auth(mech string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(identity, username, password string) error {
		if username != ss.s.opts.Username || password != ss.s.opts.Password {
			return errors.New("invalid credentials")
		}
		ss.user = username
		return nil
	}), nil
}

func (ss *session) Mail(from string, _ *smtp.MailOptions) error {
	if ss.s.opts.Username != "" && ss.user == "" {
		return errAuthRequired
	}
	ss.s.mu.Lock()
	refuse := ss.s.refused < ss.s.opts.RefuseFirst
	if refuse {
		ss.s.refused++
	}
	ss.s.mu.Unlock()
	if refuse {
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try again later"}
	}
	ss.msg = Message{From: from, User: ss.user, TLS: ss.tls}
	return nil
}

func (ss *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	if to == ss.s.opts.RejectRcpt {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "no such user"}
	}
	ss.msg.To = append(ss.msg.To, to)
	return nil
}

func (ss *session) Data(r io.Reader) error {
	var b bytes.Buffer
	if _, err := io.Copy(&b, r); err != nil {
		return err
	}
	ss.msg.Data = b.Bytes()
	ss.s.mu.Lock()
	ss.s.msgs = append(ss.s.msgs, ss.msg)
	ss.s.mu.Unlock()
	return nil
}

func (ss *session) Reset()        { ss.msg = Message{User: ss.user, TLS: ss.tls} }
func (ss *session) Logout() error { return nil }

// SelfSigned returns a server certificate for 127.0.0.1 and localhost, and a client config that
// trusts exactly it.
func SelfSigned(t testing.TB) (server, client *tls.Config) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "mailtest"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, DNSNames: []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	server = &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key, Leaf: cert}}, MinVersion: tls.VersionTLS12}
	client = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	return server, client
}
