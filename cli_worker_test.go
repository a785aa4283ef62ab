package main

import (
	"net"
	"strings"
	"testing"
)

// TestWorkerCommandConfig: `rodeo worker` without a NATS URL, with one nothing answers at, or
// with an ack wait too short to signal progress in, is an invalid configuration (exit 2) that
// says what is wrong, before any browser starts.
func TestWorkerCommandConfig(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0") // a loopback port, closed again: nothing answers there
	if err != nil {
		t.Fatal(err)
	}
	closed := "nats://" + ln.Addr().String()
	ln.Close()
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{"no url", map[string]string{}, nil, "needs --nats-url"},
		{"nothing answers", map[string]string{}, []string{"--nats-url", closed}, "nats " + closed},
		{"ack wait too short", map[string]string{"RODEO_NATS_URL": closed}, []string{"--nats-ack-wait", "10ms"}, "must be at least 1s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := tc.env
			env["RODEO_DATA"] = t.TempDir()
			code, _, errOut := inProcess(t, env, append([]string{"worker"}, tc.args...)...)
			if code != exitInvalid || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errOut, exitInvalid, tc.want)
			}
		})
	}
}
