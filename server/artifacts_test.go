package server_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/rodeo-run/rodeo/store"
)

func TestArtifacts_Serve(t *testing.T) {
	f := newFixture(t)
	r := f.do(t, http.MethodPost, "/agents", agent(f.key, "g", `{"type": "delay", "time": 0}`), "")
	id, _ := r.body["run_id"].(string)
	if r.status != http.StatusOK || id == "" {
		t.Fatalf("run: %d %s", r.status, r.raw)
	}
	png := []byte("\x89PNG\r\n\x1a\nbytes")
	if err := f.db.PutArtifact(store.Artifact{Run: id, Account: store.DefaultAccount, Name: "shot 1.png", ContentType: "image/png", Data: png}); err != nil {
		t.Fatal(err)
	}
	got := f.do(t, http.MethodGet, "/runs/"+id+"/artifacts/shot%201.png", "", f.key)
	if got.status != http.StatusOK || string(got.raw) != string(png) || got.header.Get("Content-Type") != "image/png" ||
		got.header.Get("X-Content-Type-Options") != "nosniff" {
		t.Fatalf("get: %d %v %q", got.status, got.header, got.raw)
	}
	list := f.do(t, http.MethodGet, "/runs/"+id+"/artifacts", "", f.key)
	arts, _ := list.body["artifacts"].([]any)
	if list.status != http.StatusOK || len(arts) != 1 {
		t.Fatalf("list: %d %s", list.status, list.raw)
	}
	if a := arts[0].(map[string]any); a["url"] != store.ArtifactPath(id, "shot 1.png") || a["size"] != float64(len(png)) {
		t.Fatalf("list item %v", a)
	}

	// another account, an unknown name, an unknown run: 404 alike; no key: 401
	for _, c := range []struct{ path, key string }{
		{"/runs/" + id + "/artifacts/shot%201.png", f.otherKey},
		{"/runs/" + id + "/artifacts", f.otherKey},
		{"/runs/" + id + "/artifacts/nope.png", f.key},
		{"/runs/r_unknown/artifacts/shot%201.png", f.key},
	} {
		r := f.do(t, http.MethodGet, c.path, "", c.key)
		checkError(t, r, http.StatusNotFound, "not_found", nil)
		if strings.Contains(string(r.raw), "PNG") {
			t.Fatalf("%s leaked bytes", c.path)
		}
	}
	checkError(t, f.do(t, http.MethodGet, "/runs/"+id+"/artifacts/shot%201.png", "", ""), http.StatusUnauthorized, "invalid_key", nil)
}
