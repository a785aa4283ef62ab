package main

// End-to-end test of scale-out over NATS JetStream: an embedded nats-server, the real binary as
// one `serve` (no browsers of its own) and `worker` processes with Chrome, all on loopback. A
// worker SIGKILLed mid-run loses no run (the run that had not acted runs again elsewhere, the
// one that had acted fails interrupted); 40 runs spread over two workers and all succeed; the
// SSE stream of a run on a worker shows its steps; cancel reaches the worker; a schedule with
// instances 4 fires 4 runs per slot over both workers, once per slot, also across a restart of
// the server inside the slot and with a standby server holding the same schedules.
// It reuses e2e_test.go's and e2e_schedules_test.go's helpers.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"

	"github.com/rodeo-run/rodeo/cluster"
	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/triggers"
)

// startNATS runs an embedded nats-server with JetStream on a loopback port, its store in a
// temporary directory.
func startNATS(t *testing.T) string {
	t.Helper()
	ns, err := natsserver.NewServer(&natsserver.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: t.TempDir(), NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		t.Fatal("nats-server not ready")
	}
	t.Cleanup(ns.Shutdown)
	return ns.ClientURL()
}

// worker starts `rodeo worker` named name and returns it once it pulls (base: its metrics URL).
func (e *e2e) worker(t *testing.T, natsURL, name string, args ...string) *rodeoServer {
	t.Helper()
	home := e.newHome(t)
	args = append([]string{"worker", "--nats-url", natsURL, "--name", name, "--data", filepath.Join(home, "data"),
		"--metrics-addr", "127.0.0.1:0", "--chrome-flag", offlineFlag}, args...)
	cmd := exec.Command(e.bin, args...)
	cmd.Env = e.env(home)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	w := &rodeoServer{cmd: cmd, home: home, stderr: &lockedBuffer{}, stdout: &lockedBuffer{}, exited: make(chan struct{})}
	cmd.Stderr = w.stderr
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		w.kill(t)
		if t.Failed() {
			t.Logf("worker %s stderr (tail):\n%s", name, w.stderrTail())
		}
	})
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			line := sc.Text()
			fmt.Fprintln(w.stdout, line)
			if _, after, ok := strings.Cut(line, "metrics on "); ok && strings.HasPrefix(line, "rodeo worker ") {
				ready <- after
			}
		}
		_ = cmd.Wait()
		close(w.exited)
	}()
	select {
	case w.base = <-ready:
	case <-w.exited:
		t.Fatalf("rodeo worker %s exited before pulling; stderr:\n%s", name, w.stderrTail())
	case <-time.After(90 * time.Second):
		t.Fatalf("rodeo worker %s not up within 90s; stderr:\n%s", name, w.stderrTail())
	}
	return w
}

func TestE2ENATS(t *testing.T) {
	e := newE2E(t)
	natsURL := startNATS(t)
	data := filepath.Join(e.root, "data-nats")
	flags := []string{"--nats-url", natsURL, "--nats-name", "api", "--browsers", "0", "--nats-ack-wait", "5s", "--schedule-min-every", "1s"}
	s := e.serve(t, data, flags...)
	workerFlags := []string{"--contexts", "2", "--nats-ack-wait", "5s"}

	// A worker dies mid-run: the run that had not acted yet runs again on another worker; the
	// one that had acted fails interrupted. Only w1 is up, so it holds both.
	w1 := e.worker(t, natsURL, "w1", workerFlags...)
	notActed := s.startRun(t, "wait, then scrape", []map[string]any{
		{"type": "delay", "time": 6}, {"type": "open tab", "target": e.site + "/form.html"},
		{"type": "semanticScrape", "target": "the main heading", "data": "title"}})
	acted := s.startRun(t, "open, wait, scrape", []map[string]any{
		{"type": "open tab", "target": e.site + "/form.html"}, {"type": "delay", "time": 6},
		{"type": "semanticScrape", "target": "the main heading", "data": "title"}})
	s.poll(t, notActed, 30*time.Second, "running on w1", func(d scripts.Doc) bool { return d.Status == "running" && d.Worker == "w1" })
	s.waitSteps(t, acted, 1)
	w1.kill(t)
	killed := time.Now()
	w2 := e.worker(t, natsURL, "w2", workerFlags...)
	w3 := e.worker(t, natsURL, "w3", workerFlags...)
	again := s.waitFinal(t, notActed, 60*time.Second)
	if again.Status != "succeeded" || again.Worker == "w1" || again.Worker == "" || len(again.Steps) != 3 {
		t.Errorf("the run w1 died in before it acted: want succeeded once on another worker with 3 steps: %s", dump(again))
	}
	stopped := s.waitFinal(t, acted, 30*time.Second)
	if stopped.Status != "failed" || stopped.Error == nil || stopped.Error.Code != cluster.CodeInterrupted || len(stopped.Steps) != 1 {
		t.Errorf("the run w1 died in after its first step: want failed interrupted with that step only: %s", dump(stopped))
	}
	t.Logf("w1 killed at %s; the run that had not acted ran on %s in %d ms", killed.Format(time.StampMilli), again.Worker, again.DurationMS)

	// 40 runs spread over the two workers, and all succeed.
	nodes := []map[string]any{{"type": "open tab", "target": e.site + "/form.html"},
		{"type": "semanticScrape", "target": "the main heading", "data": "title"}}
	ids := make([]string, 40)
	for i := range ids {
		ids[i] = s.startRun(t, fmt.Sprintf("run %d", i), nodes)
	}
	per := map[string]int{}
	for _, id := range ids {
		d := s.pollNoFatal(t, id, 120*time.Second)
		if !scripts.Final(d.Status) {
			for _, line := range strings.Split(s.stderr.String(), "\n") {
				if strings.Contains(line, id) && !strings.Contains(line, "GET") {
					t.Log(line)
				}
			}
			for _, w := range []*rodeoServer{w2, w3} {
				for _, line := range strings.Split(w.stderr.String(), "\n") {
					if strings.Contains(line, id) || strings.Contains(line, "WARN") || strings.Contains(line, "ERROR") {
						t.Log(line)
					}
				}
			}
			t.Fatalf("run %s not final: %s", id, dump(d))
		}
		if title, _ := d.Data["title"].(string); d.Status != "succeeded" || !strings.Contains(title, "Acme newsletter") {
			t.Errorf("run %s: %s", id, dump(d))
		}
		per[d.Worker]++
	}
	if per["w2"] == 0 || per["w3"] == 0 || per["w2"]+per["w3"] != 40 {
		t.Errorf("40 runs by worker: %v, want them spread over w2 and w3", per)
	}
	t.Logf("40 runs by worker: %v", per)

	// The SSE stream of a run on a worker shows its steps, then the document.
	id := s.startRun(t, "three steps", []map[string]any{{"type": "open tab", "target": e.site + "/form.html"},
		{"type": "delay", "time": 0.5}, {"type": "semanticScrape", "target": "the main heading", "data": "title"}})
	steps, done := readSSE(t, s, id)
	if steps != 3 || done == nil || done.Status != "succeeded" || done.Worker == "" {
		t.Errorf("SSE of a run on a worker: %d steps, done %s", steps, dump(done))
	}

	// Cancel reaches the worker.
	long := s.startRun(t, "a long wait", []map[string]any{{"type": "delay", "time": 60}})
	s.waitStatus(t, long, "running")
	s.postOK(t, "/runs/"+long+"/cancel")
	if d := s.waitFinal(t, long, 15*time.Second); d.Status != "canceled" || d.Worker == "" {
		t.Errorf("canceled run: %s", dump(d))
	}

	// The workers' metrics and the server's view of them.
	var redelivered bool
	counted := regexp.MustCompile(`(?m)^rodeo_worker_redeliveries_total [1-9]`)
	for _, w := range []*rodeoServer{w2, w3} {
		body := settledMetrics(t, w)
		if !strings.Contains(body, "rodeo_worker_pulls_total") || !strings.Contains(body, "rodeo_worker_runs_in_flight 0") ||
			!strings.Contains(body, `rodeo_worker_runs_total{status="succeeded"}`) {
			t.Errorf("worker metrics:\n%s", rodeoLines(body))
		}
		redelivered = redelivered || counted.MatchString(body)
	}
	if !redelivered {
		t.Error("no worker counted the redelivered run")
	}
	if m := s.metrics(t); !strings.Contains(m, `rodeo_runs_total{status="succeeded"}`) || strings.Contains(m, "rodeo_pool_capacity") {
		t.Errorf("the server's metrics, with no pool of its own:\n%s", m)
	}
	var health struct {
		Cluster cluster.Health `json:"cluster"`
	}
	s.getJSON(t, "/healthz", 200, &health)
	if h := health.Cluster; h.NATS != "connected" || h.Alive != 2 || len(h.Workers) != 3 {
		t.Errorf("healthz cluster: %+v", h)
	}

	testNATSSchedule(t, e, s, data, flags)
}

// testNATSSchedule: a schedule with instances 4 fires 4 runs per slot over both workers; a server
// SIGKILLed right after a fire and restarted inside the slot does not fire it again, and the
// fire's runs still finish; a standby server on a copy of the store fires no slot a second time.
func testNATSSchedule(t *testing.T, e *e2e, s *rodeoServer, data string, flags []string) {
	key := s.key
	st, _, raw := s.do(t, "PUT", "/scripts/heading", agentBody(key, "read the heading", []map[string]any{
		{"type": "open tab", "target": e.site + "/form.html"},
		{"type": "semanticScrape", "target": "the main heading", "data": "title"}}))
	if st != 201 {
		t.Fatalf("PUT /scripts/heading: %d %s", st, raw)
	}
	st, _, raw = s.post(t, "/schedules", map[string]any{"key": key, "name": "heading", "every": "4s", "instances": 4})
	var v triggers.ScheduleView
	if st != 201 || json.Unmarshal(raw, &v) != nil {
		t.Fatalf("POST /schedules: %d %s", st, raw)
	}
	first := waitFires(t, s, v.ID, 30*time.Second, func(f []triggers.FireView) bool { return len(f) > 0 && f[0].Status == "started" })[0]
	if len(first.Runs) != 4 {
		t.Fatalf("a fire of instances 4: %s", dump(first))
	}
	workers := map[string]bool{}
	for _, r := range first.Runs {
		d := s.waitFinal(t, r.RunID, 60*time.Second)
		if d.Status != "succeeded" || d.Trigger == nil || d.Trigger.ID != v.ID {
			t.Errorf("scheduled run %s: %s", r.RunID, dump(d))
		}
		workers[d.Worker] = true
	}
	if len(workers) != 2 {
		t.Errorf("the 4 runs of a fire ran on %v, want both workers", workers)
	}

	// Kill the server right after a fire, restart it inside the slot.
	prev := len(fires(t, s, v.ID))
	fired := waitFires(t, s, v.ID, 15*time.Second, func(f []triggers.FireView) bool { return len(f) > prev && f[0].Status == "started" })[0]
	s.kill(t)
	s = e.serve(t, data, flags...)
	s.key = key
	for _, r := range fired.Runs { // the fire's runs finish on the workers and are stored after the restart
		if d := s.waitFinal(t, r.RunID, 60*time.Second); d.Status != "succeeded" {
			t.Errorf("a run of the fire before the restart: %s", dump(d))
		}
	}

	// A standby server with a copy of the store holds the same schedule: each slot fires once.
	s.kill(t)
	standby := filepath.Join(e.root, "data-standby")
	if out, err := exec.Command("cp", "-r", data, standby).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	s = e.serve(t, data, flags...)
	s.key = key
	sflags := append(append([]string{}, flags...), "--nats-name", "standby")
	s2 := e.serve(t, standby, sflags...)
	s2.key = key
	both := time.Now()           // the standby's store holds the api's fires before the copy too: only later ones count
	time.Sleep(10 * time.Second) // two or three slots
	byServer := map[time.Time][]string{}
	for _, x := range []struct {
		name string
		srv  *rodeoServer
	}{{"api", s}, {"standby", s2}} {
		for _, f := range fires(t, x.srv, v.ID) {
			if f.Status == "started" && f.At.After(both.Add(-time.Second)) {
				if len(f.Runs) != 4 {
					t.Errorf("%s fired %s with %d runs", x.name, f.Slot, len(f.Runs))
				}
				byServer[f.Slot] = append(byServer[f.Slot], x.name)
			}
		}
	}
	for slot, who := range byServer {
		if len(who) > 1 {
			t.Errorf("slot %s fired by %v", slot, who)
		}
	}
	if len(byServer) < 2 {
		t.Errorf("fires: %v, want one per slot", byServer)
	}
	t.Logf("slots fired, by server: %v", byServer)
}

// settledMetrics reads a worker's metrics once it holds no run. A worker lets go of a run
// after the server stored its document and JetStream took the ack, so the gauge can lag the
// document the test saw by a moment; it waits up to 10 s for it, then returns what it has.
func settledMetrics(t *testing.T, w *rodeoServer) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		body := getText(t, w.base+"/metrics")
		if strings.Contains(body, "rodeo_worker_runs_in_flight 0") || time.Now().After(deadline) {
			return body
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// rodeoLines keeps rodeo's own metric samples, without the Go runtime's or the help text.
func rodeoLines(metrics string) string {
	var keep []string
	for _, line := range strings.Split(metrics, "\n") {
		if strings.HasPrefix(line, "rodeo_") {
			keep = append(keep, line)
		}
	}
	return strings.Join(keep, "\n")
}

// readSSE reads a run's event stream to its end: the step events and the final document.
func readSSE(t *testing.T, s *rodeoServer, id string) (int, *scripts.Doc) {
	t.Helper()
	req, _ := http.NewRequest("GET", s.base+"/runs/"+id+"/events", nil)
	req.Header.Set("Authorization", "Bearer "+s.key)
	resp, err := (&http.Client{Timeout: 60 * time.Second}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	steps := 0
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		raw, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var ev scripts.Event
		if err := json.Unmarshal([]byte(raw), &ev); err != nil {
			t.Fatalf("SSE data: %v: %s", err, raw)
		}
		switch ev.Type {
		case "step":
			steps++
		case "done":
			return steps, ev.Doc
		}
	}
	return steps, nil
}

func (s *rodeoServer) pollNoFatal(t *testing.T, id string, limit time.Duration) scripts.Doc {
	deadline := time.Now().Add(limit)
	for {
		var doc scripts.Doc
		s.getJSON(t, "/runs/"+id, 200, &doc)
		if scripts.Final(doc.Status) || time.Now().After(deadline) {
			return doc
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func getText(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}
