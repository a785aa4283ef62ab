package server_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/store"
)

// TestMetrics_Store: /metrics reports the store file's size, the bytes in use in it and the runs
// retention pruned.
func TestMetrics_Store(t *testing.T) {
	f := newFixture(t)
	old := time.Now().UTC().Add(-48 * time.Hour)
	for _, id := range []string{"r_a", "r_b"} {
		if err := f.db.PutRun(store.RunRecord{ID: id, Account: store.DefaultAccount, Status: "succeeded", Created: old, Doc: []byte(`{}`)}); err != nil {
			t.Fatal(err)
		}
	}
	if res, err := f.db.Prune(store.Retention{KeepFor: time.Hour}); err != nil || res.ByAge != 2 {
		t.Fatalf("prune: %+v %v", res, err)
	}
	r := f.do(t, "GET", "/metrics", "", "")
	text := string(r.raw)
	if !strings.Contains(text, "rodeo_store_pruned_runs_total 2\n") {
		t.Errorf("pruned counter missing:\n%s", grep(text, "rodeo_store"))
	}
	value := func(name string) float64 {
		m := regexp.MustCompile(`(?m)^` + name + ` (\S+)$`).FindStringSubmatch(text)
		if m == nil {
			t.Fatalf("%s missing:\n%s", name, grep(text, "rodeo_store"))
		}
		v, _ := strconv.ParseFloat(m[1], 64)
		return v
	}
	file, used := value("rodeo_store_file_bytes"), value("rodeo_store_used_bytes")
	if size, _ := f.db.Size(); file != float64(size.File) || used <= 0 || used > file {
		t.Errorf("file %v used %v bytes, store says %+v", file, used, size)
	}
}
