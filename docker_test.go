package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestDockerfilePackages keeps the image's Debian packages in step with what the Makefile
// installs for the tests and what the code runs: chromium (browser), bubblewrap (the code
// sandbox), util-linux (prlimit and setpriv inside it), python3 and bash (code nodes),
// ca-certificates (HTTPS), curl (the health check).
func TestDockerfilePackages(t *testing.T) {
	docker, err := os.ReadFile("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)apt-get install -y --no-install-recommends \\\s*\n(.*?)\s*&&`).FindSubmatch(docker)
	if m == nil {
		t.Fatal("Dockerfile: no apt-get install -y --no-install-recommends list")
	}
	have := map[string]bool{}
	for _, p := range strings.Fields(strings.ReplaceAll(string(m[1]), "\\", " ")) {
		have[p] = true
	}
	need := map[string]string{"chromium": "the browser", "bubblewrap": "the code sandbox", "util-linux": "prlimit and setpriv in the sandbox",
		"python3": "python nodes", "bash": "bash nodes", "ca-certificates": "HTTPS", "curl": "HEALTHCHECK"}
	makefile, err := os.ReadFile("Makefile")
	if err != nil {
		t.Fatal(err)
	}
	if mk := regexp.MustCompile(`(?m)^DEB_PACKAGES\s*=\s*(.*)$`).FindSubmatch(makefile); mk != nil {
		for _, p := range strings.Fields(string(mk[1])) {
			need[p] = "the Makefile's DEB_PACKAGES"
		}
	}
	for _, mk := range regexp.MustCompile(`missing="\$\$missing ([a-z0-9.+-]+)"`).FindAllSubmatch(makefile, -1) {
		need[string(mk[1])] = "the Makefile's deps"
	}
	for p, why := range need {
		if !have[p] {
			t.Errorf("Dockerfile does not install %s (%s)", p, why)
		}
	}
	for _, want := range []string{"USER rodeo", "VOLUME /data", "HEALTHCHECK", "/healthz"} {
		if !strings.Contains(string(docker), want) {
			t.Errorf("Dockerfile lacks %q", want)
		}
	}
}
