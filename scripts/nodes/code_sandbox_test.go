package nodes_test

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/sandbox"
	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/store"
)

// The sandbox hides the bbolt file, other runs' folders and the server's environment.
func TestSandbox_OutOfReach(t *testing.T) {
	t.Setenv("RODEO_SANDBOX_TEST_SECRET", "s3cret-env-value")
	data := t.TempDir()
	db, err := store.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	work := filepath.Join(data, "work")
	if err := os.MkdirAll(filepath.Join(work, "r_other"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "r_other", "secret.txt"), []byte("other run's secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	svc := &scripts.Services{CodeNodes: true, WorkDir: work, Store: db}
	cases := map[string]string{
		"the bbolt file":     "cat " + filepath.Join(data, "rodeo.db"),
		"another run":        "cat " + filepath.Join(work, "r_other", "secret.txt"),
		"/proc/1/environ":    "cat /proc/1/environ",
		"the server's /proc": "cat /proc/" + fmtInt(os.Getpid()) + "/environ",
		"writing outside":    "echo x > /usr/rodeo-was-here",
		"listing other runs": "ls " + work + " | grep r_other",
	}
	for name, command := range cases {
		t.Run(name, func(t *testing.T) {
			_, doc := codeRun(t, svc, []map[string]any{{"type": "bash", "command": command}}, nil)
			all := dump(doc)
			if doc.Status == scripts.StatusSucceeded || stepErr(doc, 0) != "code_failed" {
				t.Fatalf("%s was reachable: %s", name, all)
			}
			for _, leak := range []string{"s3cret-env-value", "other run's secret"} {
				if strings.Contains(all, leak) {
					t.Fatalf("leaked %q: %s", leak, all)
				}
			}
		})
	}
	// The run's own folder is writable and what other nodes left there is usable.
	_, doc := codeRun(t, svc, []map[string]any{{"type": "bash", "command": "echo made > mine.txt && cat mine.txt"}}, nil)
	if doc.Status != scripts.StatusSucceeded {
		t.Fatal(dump(doc))
	}
}

func fmtInt(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}

// A fork bomb and a memory hog are stopped by the limits; the server goes on running code.
func TestSandbox_LimitsStopAbuse(t *testing.T) {
	svc := &scripts.Services{CodeNodes: true, WorkDir: t.TempDir(),
		Sandbox: sandbox.Config{Memory: 512 << 20, Processes: 32, CPU: 3 * time.Second}}
	cases := []struct{ name, kind, code string }{
		{"fork bomb", "bash", "bomb() { bomb | bomb & }; bomb; sleep 2; exit 1"},
		{"memory hog", "python", "chunks = []\nwhile True:\n    chunks.append(bytearray(64 << 20))"},
		{"cpu burner", "python", "while True:\n    pass"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			field := map[string]string{"bash": "command", "python": "code"}[c.kind]
			begin := time.Now()
			_, doc := codeRun(t, svc, []map[string]any{{"type": c.kind, field: c.code, "timeout": 20}}, nil)
			if doc.Status == scripts.StatusSucceeded || stepErr(doc, 0) != "code_failed" {
				t.Fatalf("%s was not stopped by a limit: %s", c.name, dump(doc))
			}
			if took := time.Since(begin); took > 15*time.Second {
				t.Fatalf("%s ran %s", c.name, took)
			}
			// The server is fine: code still runs.
			_, after := codeRun(t, svc, []map[string]any{{"type": "bash", "command": "echo fine", "data": "out"}}, nil)
			if after.Status != scripts.StatusSucceeded || after.Data["out"] != "fine" {
				t.Fatalf("after %s: %s", c.name, dump(after))
			}
		})
	}
}

// Network is on by default (the host's loopback answers); --code-network=false takes it away.
func TestSandbox_Network(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("hello\n"))
			c.Close()
		}
	}()
	code := "import socket\ns = socket.create_connection(('127.0.0.1', " + fmtInt(ln.Addr().(*net.TCPAddr).Port) + "), timeout=3)\ngraph.global_variables['got'] = s.recv(10).decode().strip()"
	for _, off := range []bool{false, true} {
		svc := &scripts.Services{CodeNodes: true, WorkDir: t.TempDir(), Sandbox: sandbox.Config{NoNetwork: off}}
		_, doc := codeRun(t, svc, []map[string]any{{"type": "python", "code": code}}, nil)
		if ok := doc.Status == scripts.StatusSucceeded && doc.Data["got"] == "hello"; ok == off {
			t.Fatalf("no-network=%v: %s", off, dump(doc))
		}
	}
}

// Where bwrap cannot run, code is refused with sandbox_unavailable unless the sandbox is off.
func TestSandbox_UnavailableIsRefused(t *testing.T) {
	mark := filepath.Join(t.TempDir(), "ran")
	for _, off := range []bool{false, true} {
		svc := &scripts.Services{CodeNodes: true, WorkDir: t.TempDir(), Sandbox: sandbox.Config{Bwrap: "/nonexistent/bwrap", Off: off}}
		_, doc := codeRun(t, svc, []map[string]any{{"type": "bash", "command": "touch " + mark}}, nil)
		_, statErr := os.Stat(mark)
		switch {
		case !off && (stepErr(doc, 0) != sandbox.Unavailable || !strings.Contains(doc.Steps[0].Error.Message, "--code-sandbox=off") || statErr == nil):
			t.Fatalf("sandbox on, bwrap missing: %s", dump(doc))
		case off && (doc.Status != scripts.StatusSucceeded || statErr != nil):
			t.Fatalf("sandbox off: %s", dump(doc))
		}
	}
}
