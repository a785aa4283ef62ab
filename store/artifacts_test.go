package store

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	bolt "go.etcd.io/bbolt"
)

func TestArtifacts_PutGetList(t *testing.T) {
	db := openTestDB(t, "")
	png := []byte("\x89PNG\r\n\x1a\nfake")
	if err := db.PutArtifact(Artifact{Run: "r_1", Account: "acme", Name: "b.png", ContentType: "image/png", Data: png}); err != nil {
		t.Fatal(err)
	}
	if err := db.PutArtifact(Artifact{Run: "r_1", Account: "acme", Name: "a.bin", Data: []byte{1, 2}}); err != nil {
		t.Fatal(err)
	}
	if err := db.PutArtifact(Artifact{Run: "r_10", Account: "acme", Name: "c.png", Data: []byte{3}}); err != nil {
		t.Fatal(err)
	}
	a, err := db.GetArtifact("acme", "r_1", "b.png")
	if err != nil || !bytes.Equal(a.Data, png) || a.Size != len(png) || a.ContentType != "image/png" || a.V != artifactVersion || a.Created.IsZero() {
		t.Fatalf("get: %+v %v", a, err)
	}
	list, err := db.ListArtifacts("acme", "r_1")
	if err != nil || len(list) != 2 || list[0].Name != "a.bin" || list[1].Name != "b.png" || list[0].Data != nil || list[0].ContentType != "application/octet-stream" {
		t.Fatalf("list (r_10's must not show): %+v %v", list, err)
	}
	// replacing keeps one artifact
	if err := db.PutArtifact(Artifact{Run: "r_1", Account: "acme", Name: "b.png", Data: []byte("new")}); err != nil {
		t.Fatal(err)
	}
	if a, _ := db.GetArtifact("acme", "r_1", "b.png"); string(a.Data) != "new" {
		t.Fatalf("replaced: %q", a.Data)
	}
}

func TestArtifacts_OtherAccountIsNotFound(t *testing.T) {
	db := openTestDB(t, "")
	if err := db.PutArtifact(Artifact{Run: "r_1", Account: "acme", Name: "x.png", Data: []byte{1}}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ account, run, name string }{{"other", "r_1", "x.png"}, {"acme", "r_2", "x.png"}, {"acme", "r_1", "y.png"}, {"acme", "r_1", "../x"}} {
		if _, err := db.GetArtifact(c.account, c.run, c.name); !errs.Is(err, errs.NotFound) {
			t.Errorf("%v: %v", c, err)
		}
	}
	if list, err := db.ListArtifacts("other", "r_1"); err != nil || len(list) != 0 {
		t.Fatalf("other's list: %v %v", list, err)
	}
	if err := db.PutArtifact(Artifact{Run: "r_1", Account: "other", Name: "x.png", Data: []byte{2}}); err == nil {
		t.Fatal("another account replaced the artifact")
	}
}

func TestArtifacts_Limits(t *testing.T) {
	db := openTestDB(t, "")
	for _, bad := range []Artifact{
		{Run: "", Account: "a", Name: "x"},
		{Run: "r", Account: "", Name: "x"},
		{Run: "r", Account: "a", Name: ""},
		{Run: "r", Account: "a", Name: "a/b"},
		{Run: "r", Account: "a", Name: ".."},
		{Run: "r/x", Account: "a", Name: "n"},
	} {
		if err := db.PutArtifact(bad); !errs.Is(err, errs.InvalidConfig) {
			t.Errorf("%+v: %v", bad, err)
		}
	}
	if err := db.PutArtifact(Artifact{Run: "r", Account: "a", Name: "big", Data: make([]byte, MaxArtifactSize+1)}); !errs.Is(err, errs.TooLarge) {
		t.Fatalf("too big: %v", err)
	}
	for i := 0; i < MaxArtifactsPerRun; i++ {
		if err := db.PutArtifact(Artifact{Run: "r", Account: "a", Name: fmt.Sprintf("s%03d.png", i), Data: []byte{1}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.PutArtifact(Artifact{Run: "r", Account: "a", Name: "one-more.png", Data: []byte{1}}); !errs.Is(err, errs.TooLarge) {
		t.Fatalf("past the count: %v", err)
	}
	// replacing an existing one is still allowed
	if err := db.PutArtifact(Artifact{Run: "r", Account: "a", Name: "s000.png", Data: []byte{2}}); err != nil {
		t.Fatal(err)
	}
}

// TestArtifacts_BytesKeptRaw: the bytes are stored as they are beside a record without them, so
// an artifact takes its size, not the third more base64 inside JSON would.
func TestArtifacts_BytesKeptRaw(t *testing.T) {
	db := openTestDB(t, "")
	img := bytes.Repeat([]byte{0xff, 0xd8, 0x00, 0x7f}, 10<<10)
	if err := db.PutArtifact(Artifact{Run: "r_1", Account: "acme", Name: "s.jpg", ContentType: "image/jpeg", Data: img}); err != nil {
		t.Fatal(err)
	}
	_ = db.bolt.View(func(tx *bolt.Tx) error {
		rec := tx.Bucket(bucketArtifacts).Get([]byte("r_1/s.jpg"))
		if len(rec) > 300 || bytes.Contains(rec, []byte(`"data"`)) {
			t.Errorf("the record holds the bytes: %d bytes: %.200s", len(rec), rec)
		}
		if d := tx.Bucket(bucketArtifactData).Get([]byte("r_1/s.jpg")); !bytes.Equal(d, img) {
			t.Errorf("artifact_data holds %d bytes, want the %d given", len(d), len(img))
		}
		return nil
	})
	if a, err := db.GetArtifact("acme", "r_1", "s.jpg"); err != nil || !bytes.Equal(a.Data, img) || a.Size != len(img) {
		t.Fatalf("get: %d bytes, %v", len(a.Data), err)
	}
}

// TestArtifacts_FormatOne: an artifact written by an older rodeo, its bytes inline in the record,
// is served, listed, replaced in the new form, and pruned with its run.
func TestArtifacts_FormatOne(t *testing.T) {
	db := openTestDB(t, "")
	old := []byte(`{"v":1,"run":"r_1","account":"acme","name":"old.png","content_type":"image/png","size":3,"created":"2026-01-02T03:04:05Z","data":"AQID"}`)
	if err := db.PutRun(RunRecord{ID: "r_1", Account: "acme", Status: "succeeded", Created: time.Now().Add(-48 * time.Hour), Doc: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	put := func(name string) {
		t.Helper()
		err := db.bolt.Update(func(tx *bolt.Tx) error {
			return tx.Bucket(bucketArtifacts).Put([]byte("r_1/"+name), bytes.Replace(old, []byte("old.png"), []byte(name), 1))
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	put("old.png")
	put("other.png")
	if a, err := db.GetArtifact("acme", "r_1", "old.png"); err != nil || !bytes.Equal(a.Data, []byte{1, 2, 3}) || a.ContentType != "image/png" {
		t.Fatalf("get of a format 1 artifact: %+v %v", a, err)
	}
	if list, err := db.ListArtifacts("acme", "r_1"); err != nil || len(list) != 2 || list[0].Data != nil || list[0].Size != 3 {
		t.Fatalf("list: %+v %v", list, err)
	}
	if err := db.PutArtifact(Artifact{Run: "r_1", Account: "acme", Name: "old.png", Data: []byte{9}}); err != nil {
		t.Fatal(err)
	}
	if a, _ := db.GetArtifact("acme", "r_1", "old.png"); !bytes.Equal(a.Data, []byte{9}) || a.V != artifactVersion {
		t.Fatalf("replaced: %+v", a)
	}
	if res, err := db.Prune(Retention{KeepFor: time.Hour}); err != nil || res.Artifacts != 2 {
		t.Fatalf("prune: %+v %v", res, err)
	}
	if list, _ := db.ListArtifacts("acme", "r_1"); len(list) != 0 {
		t.Fatalf("left after pruning: %+v", list)
	}
}

// TestArtifacts_NewerFormatRefused: a record of a format this build does not know is an error,
// never an empty file.
func TestArtifacts_NewerFormatRefused(t *testing.T) {
	db := openTestDB(t, "")
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketArtifacts).Put([]byte("r_1/x.bin"), []byte(`{"v":3,"run":"r_1","account":"acme","name":"x.bin"}`))
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.GetArtifact("acme", "r_1", "x.bin"); !errors.Is(err, ErrUnsupportedVersion) {
		t.Fatalf("get of a format 3 artifact: %v", err)
	}
	_ = db.bolt.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketArtifacts).Delete([]byte("r_1/x.bin")) })
}
