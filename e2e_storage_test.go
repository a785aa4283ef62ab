package main

// End-to-end test of bounded storage over the real binary, Chrome and bbolt file: a recorded run's
// screenshots and a large step value are artifacts served with the run, both go with it once it
// is older than --keep-runs, /metrics counts it, and `rodeo store compact` refuses while the
// server holds the file and shrinks it once it is stopped. It reuses e2e_test.go's helpers.

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestE2EStorage(t *testing.T) {
	e := newE2E(t)
	data := filepath.Join(e.root, "data-storage")
	// Runs live 20 s from their creation here: long enough to run and read them back on a loaded
	// machine, short enough to watch them go.
	s := e.serve(t, data, "--contexts", "2", "--record", "--keep-runs", "20s", "--prune-every", "200ms")

	doc := s.run(t, "sign up, recorded", e.exampleNodes())
	if doc.Status != "succeeded" {
		t.Fatalf("run %s: %s", doc.Status, dump(doc))
	}
	shot, _ := doc.Steps[0].Detail["screenshot"].(string)
	big := strings.Repeat("a long scraped text ", 1200) // 24,000 characters
	text := s.run(t, "print a lot", []map[string]any{{"type": "print", "text": big}})
	link, _ := text.Steps[0].Detail["text"].(map[string]any)
	value, _ := link["artifact"].(string)
	if shot == "" || value == "" {
		t.Fatalf("no screenshot (%q) or no value artifact (%v)", shot, text.Steps[0].Detail["text"])
	}
	for path, want := range map[string]string{shot: "image/jpeg", value: "text/plain; charset=utf-8"} {
		if st, hdr, raw := s.get(t, path); st != 200 || hdr.Get("Content-Type") != want || len(raw) == 0 {
			t.Fatalf("GET %s: %d %s, %d bytes", path, st, hdr.Get("Content-Type"), len(raw))
		}
	}
	if _, _, raw := s.get(t, value); string(raw) != big {
		t.Errorf("the value artifact holds %d bytes, want the %d printed", len(raw), len(big))
	}

	// Past --keep-runs, the runs, their screenshots and their values are gone.
	deadline := time.Now().Add(60 * time.Second)
	for _, path := range []string{"/runs/" + doc.RunID, shot, "/runs/" + text.RunID, value} {
		for {
			st, _, raw := s.get(t, path)
			if st == 404 && errorCode(raw) == "not_found" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("GET %s still answers %d after --keep-runs", path, st)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	m := s.metrics(t)
	if !regexp.MustCompile(`(?m)^rodeo_store_pruned_runs_total [2-9]`).MatchString(m) || !strings.Contains(m, "rodeo_store_used_bytes ") {
		t.Errorf("/metrics after pruning:\n%s", regexp.MustCompile(`(?m)^rodeo_store.*$`).FindAllString(m, -1))
	}

	if code, out, errOut := e.cli(t, "", "store", "compact", "--data", data); code != 1 || !strings.Contains(errOut, "stop the server before compacting") {
		t.Errorf("compact while serving: %d %q %q", code, out, errOut)
	}
	s.kill(t)
	code, out, errOut := e.cli(t, "", "store", "compact", "--data", data)
	if code != 0 || !regexp.MustCompile(`^compacted .+: .+ -> .+ \(\d+% smaller\)\n$`).MatchString(out) {
		t.Fatalf("compact after the server stopped: %d %q %q", code, out, errOut)
	}
	t.Log(strings.TrimSpace(out))
}
