package store

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// benchRuns is how many runs BenchmarkStoreSize stores.
const benchRuns = 10_000

// BenchmarkStoreSize measures what 10,000 five-step runs take in the store, written as the engine
// writes them (queued, running, then finished: three puts a run). The document is a real run's,
// testdata/run-five-steps.json (open tab, click, keypress, click, semanticScrape on
// testdata/site/form.html). It reports bytes per step of the file, of the data in use in it, and
// of the file once compacted; its ns/op is the cost of DB.Size.
//
//	go test -run '^$' -bench StoreSize ./store/
func BenchmarkStoreSize(b *testing.B) {
	raw, err := os.ReadFile(filepath.Join("testdata", "run-five-steps.json"))
	if err != nil {
		b.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		b.Fatal(err)
	}
	steps := len(doc["steps"].([]any))
	dir := b.TempDir()
	db, err := Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	db.bolt.NoSync = true // the layout is what is measured, not the disk's fsync
	for range benchRuns {
		putBenchRun(b, db, doc)
	}
	// The timed operation is reading the size, what every scrape of /metrics does; b.Loop runs
	// the setup above once whatever -benchtime says.
	var size Size
	for b.Loop() {
		if size, err = db.Size(); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if err := db.Close(); err != nil {
		b.Fatal(err)
	}
	res, err := Compact(dir)
	if err != nil {
		b.Fatal(err)
	}
	per := float64(benchRuns * steps)
	b.ReportMetric(float64(size.File)/per, "file-B/step")
	b.ReportMetric(float64(size.Used)/per, "used-B/step")
	b.ReportMetric(float64(res.After)/per, "compacted-B/step")
}

// putBenchRun stores one run of doc the way the engine does (queued, running, finished) and
// returns its id.
func putBenchRun(b *testing.B, db *DB, doc map[string]any) string {
	id := NewID("r")
	created := time.Now().UTC()
	for _, status := range []string{StatusQueued, StatusRunning, "succeeded"} {
		d := map[string]any{"run_id": id, "status": status, "goal": doc["goal"], "data": map[string]any{}, "steps": []any{},
			"error": nil, "source": "api", "created": created, "duration_ms": 0}
		if status == "succeeded" {
			for k, v := range doc {
				d[k] = v
			}
			d["run_id"], d["source"] = id, "api"
		}
		raw, err := json.Marshal(d)
		if err != nil {
			b.Fatal(err)
		}
		if err := db.PutRun(RunRecord{ID: id, Account: DefaultAccount, Status: status, Created: created, Doc: raw}); err != nil {
			b.Fatal(err)
		}
	}
	return id
}

// BenchmarkStoreSize_Recorded is BenchmarkStoreSize for runs recorded with --record: 1,000 of the
// same runs, each with a screenshot per step (40 KB of incompressible bytes, like a JPEG of the
// fixture form at quality 70). It reports bytes per step of the file and of the data in it.
//
//	go test -run '^$' -bench StoreSize_Recorded ./store/
func BenchmarkStoreSize_Recorded(b *testing.B) {
	const runs, shot = 1000, 40 << 10
	raw, err := os.ReadFile(filepath.Join("testdata", "run-five-steps.json"))
	if err != nil {
		b.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		b.Fatal(err)
	}
	steps := len(doc["steps"].([]any))
	db, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	db.bolt.NoSync = true
	rng := rand.New(rand.NewPCG(1, 2))
	img := make([]byte, shot)
	for range runs {
		id := putBenchRun(b, db, doc)
		for i := range steps {
			for j := range img {
				img[j] = byte(rng.Uint32())
			}
			name := "step-" + strconv.Itoa(i) + ".jpg"
			if err := db.PutArtifact(Artifact{Run: id, Account: DefaultAccount, Name: name, ContentType: "image/jpeg", Data: img}); err != nil {
				b.Fatal(err)
			}
		}
	}
	var size Size
	for b.Loop() {
		if size, err = db.Size(); err != nil {
			b.Fatal(err)
		}
	}
	per := float64(runs * steps)
	b.ReportMetric(float64(size.File)/per, "file-B/step")
	b.ReportMetric(float64(size.Used)/per, "used-B/step")
}
