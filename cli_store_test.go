package main

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/store"
)

// TestStoreCompactCommand: rodeo store compact reports the file shrinking after runs were
// pruned, refuses while the directory is open elsewhere, and explains its usage.
func TestStoreCompactCommand(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"RODEO_DATA": dir}
	db, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	old := time.Now().UTC().Add(-48 * time.Hour)
	for i := range 20 {
		id := fmt.Sprintf("r_%02d", i)
		if err := db.PutRun(store.RunRecord{ID: id, Account: "default", Status: "succeeded", Created: old, Doc: []byte(`{}`)}); err != nil {
			t.Fatal(err)
		}
		if err := db.PutArtifact(store.Artifact{Run: id, Account: "default", Name: "shot.jpg", Data: bytes.Repeat([]byte{7}, 100<<10)}); err != nil {
			t.Fatal(err)
		}
	}
	if res, err := db.Prune(store.Retention{KeepFor: time.Hour}); err != nil || res.ByAge != 20 {
		t.Fatalf("prune: %+v %v", res, err)
	}

	code, out, errOut := inProcess(t, env, "store", "compact")
	if code != 1 || !strings.Contains(errOut, "in use by another rodeo process: stop the server") {
		t.Errorf("compact while open: %d %q %q", code, out, errOut)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	code, out, errOut = inProcess(t, env, "store", "compact", "--data", dir)
	m := regexp.MustCompile(`^compacted .+: ([0-9.]+) (MB|kB) -> ([0-9.]+) (kB|MB) \((\d+)% smaller\)\n$`).FindStringSubmatch(out)
	if code != 0 || m == nil {
		t.Fatalf("compact: %d %q %q", code, out, errOut)
	}
	if m[2] != "MB" || m[4] != "kB" {
		t.Errorf("compact of a store whose 2.7 MB of artifacts were deleted: %q", out)
	}

	if code, _, errOut := inProcess(t, env, "store", "vacuum"); code != 2 || !strings.Contains(errOut, "rodeo store compact") {
		t.Errorf("unknown store command: %d %q", code, errOut)
	}
}
