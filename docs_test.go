package main

import (
	"os"
	"testing"

	"github.com/rodeo-run/rodeo/scripts"
)

// TestNodesDocIsCurrent fails when docs/nodes.md no longer matches the registry: run `make docs`.
func TestNodesDocIsCurrent(t *testing.T) {
	want := scripts.Markdown(scripts.DefaultRegistry.All())
	got, err := os.ReadFile("docs/nodes.md")
	if err != nil {
		t.Fatalf("docs/nodes.md: %v (run `make docs`)", err)
	}
	if string(got) != want {
		t.Fatal("docs/nodes.md is stale: run `make docs` and commit it")
	}
}

// TestEverySpecExampleValidates keeps the catalogue's examples honest: each compiles.
func TestEverySpecExampleValidates(t *testing.T) {
	// synthetic_video validates only on a server with a video service configured; nothing dials it.
	t.Setenv("RODEO_VIDEO_URL", "http://127.0.0.1:9/video")
	for _, s := range scripts.DefaultRegistry.All() {
		if len(s.Examples) == 0 {
			t.Errorf("%s: no example", s.Kind)
		}
		for _, ex := range s.Examples {
			raw, _ := jsonRaw(ex)
			if _, err := scripts.DefaultRegistry.Compile("example", raw, nil); err != nil {
				t.Errorf("%s example %v: %v", s.Kind, ex, err)
			}
		}
	}
}
