package scripts

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/rodeo-run/rodeo/store"
)

// A step record stays small: a value of a step's detail (scraped text, a code node's stdout, an
// HTTP response excerpt, a model's trace) whose JSON is over MaxStepValue bytes is stored whole
// as a run artifact, step-<n>-<key>.txt (a string) or .json (anything else), n being the step's
// position in the run document's steps; the detail keeps a link in its place:
//
//	{"artifact": "/runs/<run>/artifacts/step-4-value.txt", "bytes": 81234, "preview": "first 200 characters…"}
//
// so the run document stays readable and its stored record small, and the value is one GET away.
// The run's own `data` (its answer) is not touched. Without a store, or when the run already
// keeps store.MaxArtifactsPerRun artifacts, the value is cut to its preview, with "truncated".
// `rodeo run`, which prints its run and stores none, keeps values whole (InlineStepValues).

// MaxStepValue bounds the JSON of one value in a step's detail.
const MaxStepValue = 16 << 10

// stepPreview is how many characters of an outsized value the step keeps.
const stepPreview = 200

// boundDetail replaces the outsized values of step's detail by artifact links. n is the index the
// step will have in the run document.
func (e *Env) boundDetail(step *Step, n int) {
	if e.Services().InlineStepValues {
		return
	}
	for key, val := range step.Detail {
		raw, err := json.Marshal(val)
		if err != nil || len(raw) <= MaxStepValue {
			continue
		}
		text, isText := val.(string)
		name, ctype, data := fmt.Sprintf("step-%d-%s.json", n, key), "application/json", raw
		if isText {
			name, ctype, data = fmt.Sprintf("step-%d-%s.txt", n, key), "text/plain; charset=utf-8", []byte(text)
		} else {
			text = string(raw)
		}
		link := map[string]any{"bytes": len(data), "preview": preview(text)}
		if path, err := e.keepArtifact(name, ctype, data); err == nil {
			link["artifact"] = path
		} else {
			link["truncated"] = true
			e.Logger.Info("large step value cut to its preview", "node", step.Path, "key", key, "err", err)
		}
		step.Detail[key] = link
	}
}

// keepArtifact stores data as the run's artifact name and returns the path it is served at.
func (e *Env) keepArtifact(name, contentType string, data []byte) (string, error) {
	db := e.Services().Store
	if db == nil || e.Account == "" {
		return "", fmt.Errorf("no store to keep %s in", name)
	}
	if !store.ValidArtifactName(name) {
		return "", fmt.Errorf("artifact name %q is not valid", name)
	}
	if err := db.PutArtifact(store.Artifact{Run: e.RunID, Account: e.Account, Name: name, ContentType: contentType, Data: data}); err != nil {
		return "", err
	}
	return store.ArtifactPath(e.RunID, name), nil
}

// preview is the first stepPreview characters of s, with "…" when there is more.
func preview(s string) string {
	if utf8.RuneCountInString(s) <= stepPreview {
		return s
	}
	i, n := 0, 0
	for i = range s {
		if n == stepPreview {
			break
		}
		n++
	}
	return s[:i] + "…"
}

// stepCount is how many steps the run document holds now.
func (r *Run) stepCount() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.doc.Steps)
}
