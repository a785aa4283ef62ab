package nodes

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/store"
)

// mediaPath resolves a media node's output file (see resolveFile), adding ext when the name
// has none of exts, and creates its folder.
func mediaPath(env *scripts.Env, name, ext string, exts ...string) (string, error) {
	name = strings.TrimSpace(name)
	if strings.HasSuffix(name, "/") {
		return "", errInvalid("%q names a folder; give the file's name too", name)
	}
	known := false
	for _, e := range append(exts, ext) {
		known = known || strings.EqualFold(filepath.Ext(name), e)
	}
	if !known {
		name += ext
	}
	path, err := resolveFile(env, name)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", errs.E(codeInvalidFile, "cannot create the folder of %s: %v", path, errors.Unwrap(err))
	}
	return path, nil
}

// keepWithRun stores the file at path as an artifact of the run (served at
// /runs/<id>/artifacts/<name>) when the run has a store, and records its path in the detail.
func keepWithRun(env *scripts.Env, path, contentType string) (string, error) {
	db := env.Services().Store
	if db == nil || env.Account == "" {
		return "", nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", errs.E(codeInvalidFile, "read %s: %v", path, errors.Unwrap(err))
	}
	name := filepath.Base(path)
	if err := db.PutArtifact(store.Artifact{Run: env.RunID, Account: env.Account, Name: name, ContentType: contentType, Data: data}); err != nil {
		return "", err
	}
	return store.ArtifactPath(env.RunID, name), nil
}

// envOr returns $name or def.
func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
