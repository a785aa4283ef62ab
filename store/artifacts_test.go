package store

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/rodeo-run/rodeo/errs"
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
	if err != nil || !bytes.Equal(a.Data, png) || a.Size != len(png) || a.ContentType != "image/png" || a.V != recordVersion || a.Created.IsZero() {
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
