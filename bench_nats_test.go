package main

// The scale-out benchmark: runs per minute of a five-step browser agent through one `serve` on
// NATS with one and with two `worker` processes (real Chrome, an embedded nats-server, all on
// loopback). `make bench` runs it with the others; the figures are in docs/PERFORMANCE.md.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"

	"github.com/rodeo-run/rodeo/scripts"
)

const benchKey = "bench-key-0123456789"

// benchProc starts the rodeo binary with args and returns it with the value after prefix on
// the first stdout line holding it.
func benchProc(b *testing.B, bin, home, prefix string, args ...string) (string, *exec.Cmd) {
	b.Helper()
	cmd := exec.Command(bin, args...)
	env := []string{"HOME=" + home, "TMPDIR=" + home, "RODEO_LOG_LEVEL=warn", "PATH=" + os.Getenv("PATH"), "RODEO_API_KEY=" + benchKey}
	if v := os.Getenv("RODEO_CHROME"); v != "" {
		env = append(env, "RODEO_CHROME="+v)
	}
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	found := make(chan string, 2)
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			if _, v, ok := strings.Cut(sc.Text(), prefix); ok {
				found <- v
			}
		}
	}()
	select {
	case v := <-found:
		return v, cmd
	case <-time.After(90 * time.Second):
		b.Fatalf("%v: no %q within 90s", args, prefix)
	}
	return "", nil
}

// BenchmarkNATSWorkers posts b.N five-step runs at once and waits for all: the throughput of
// one worker process and of two (each with one Chrome of 2 contexts). It reports runs/min.
func BenchmarkNATSWorkers(b *testing.B) {
	root := b.TempDir()
	bin := filepath.Join(root, "rodeo")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	site := httptest.NewServer(http.FileServer(http.Dir("testdata/site")))
	b.Cleanup(site.Close)
	nodes := []map[string]any{
		{"type": "open tab", "target": site.URL + "/form.html"},
		{"type": "click", "target": "the email field"},
		{"type": "keypress", "prompt": "bench@example.com"},
		{"type": "click", "target": "the button that says Submit"},
		{"type": "semanticScrape", "target": "the confirmation message", "data": "msg"},
	}
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			ns, err := natsserver.NewServer(&natsserver.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: b.TempDir(), NoSigs: true})
			if err != nil {
				b.Fatal(err)
			}
			go ns.Start()
			if !ns.ReadyForConnections(10 * time.Second) {
				b.Fatal("nats-server not ready")
			}
			b.Cleanup(ns.Shutdown)
			home := b.TempDir()
			base, _ := benchProc(b, bin, home, "rodeo listening on ", "serve", "--addr", "127.0.0.1:0", "--data", filepath.Join(home, "data"),
				"--nats-url", ns.ClientURL(), "--nats-name", "api", "--browsers", "0")
			for i := range workers {
				benchProc(b, bin, b.TempDir(), "metrics on ", "worker", "--nats-url", ns.ClientURL(), "--name", fmt.Sprint("w", i),
					"--contexts", "2", "--metrics-addr", "127.0.0.1:0", "--chrome-flag", offlineFlag)
			}
			b.ResetTimer()
			start := time.Now()
			ids := make([]string, b.N)
			for i := range ids {
				body, _ := json.Marshal(agentBody(benchKey, "bench", nodes))
				res, err := http.Post(base+"/agents?wait=false", "application/json", bytes.NewReader(body))
				if err != nil {
					b.Fatal(err)
				}
				raw, _ := io.ReadAll(res.Body)
				res.Body.Close()
				var acc struct {
					RunID string `json:"run_id"`
				}
				if res.StatusCode != 202 || json.Unmarshal(raw, &acc) != nil {
					b.Fatalf("POST /agents: %d %s", res.StatusCode, raw)
				}
				ids[i] = acc.RunID
			}
			for _, id := range ids {
				for {
					var d scripts.Doc
					req, _ := http.NewRequest("GET", base+"/runs/"+id, nil)
					req.Header.Set("Authorization", "Bearer "+benchKey)
					res, err := http.DefaultClient.Do(req)
					if err != nil {
						b.Fatal(err)
					}
					raw, _ := io.ReadAll(res.Body)
					res.Body.Close()
					if json.Unmarshal(raw, &d) == nil && scripts.Final(d.Status) {
						if d.Status != scripts.StatusSucceeded {
							b.Fatalf("run %s: %s", id, raw)
						}
						break
					}
					time.Sleep(50 * time.Millisecond)
				}
			}
			b.ReportMetric(float64(b.N)/time.Since(start).Minutes(), "runs/min")
		})
	}
}
