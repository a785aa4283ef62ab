package nodes

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
)

// maxAttachment bounds an email attachment (most SMTP servers refuse messages over 25 MB, and
// base64 adds a third).
const maxAttachment = 15 << 20

// emailWorkDir is the run's working folder, <WorkDir>/<run id> (the folder the code, download
// and screenshot nodes use), or one under the system's temporary directory without a WorkDir.
func emailWorkDir(env *scripts.Env) string {
	base := env.Services().WorkDir
	if base == "" {
		base = filepath.Join(os.TempDir(), "rodeo-work")
	}
	id := env.RunID
	if id == "" || !filepath.IsLocal(id) {
		id = "run"
	}
	return filepath.Join(base, id)
}

// readAttachment reads the file an email node attaches. A relative path is inside the run's
// working folder and cannot leave it, neither through ".." nor through a symbolic link
// (os.OpenInRoot enforces that). An absolute path is the same policy as the file nodes': allowed
// while code nodes are enabled (a run could read any file through bash anyway), confined to the
// working folders (Services.WorkDir) when an operator turned code nodes off.
func readAttachment(env *scripts.Env, path string) (scripts.Attachment, error) {
	dir, rel := emailWorkDir(env), filepath.Clean(strings.TrimPrefix(strings.TrimSpace(path), "file://"))
	if rel == "." || rel == "" {
		return scripts.Attachment{}, errs.E(errs.InvalidConfig, "file: the path is empty")
	}
	if filepath.IsAbs(rel) {
		svc := env.Services()
		if !svc.CodeNodes {
			if svc.WorkDir == "" {
				return scripts.Attachment{}, errs.E(errs.InvalidConfig, "file %s: give a path relative to the run's working folder", path)
			}
			r, err := filepath.Rel(filepath.Clean(svc.WorkDir), rel)
			if err != nil || !filepath.IsLocal(r) {
				return scripts.Attachment{}, errs.E(errs.InvalidConfig, "file %s is outside the working folder: with code nodes disabled (RODEO_CODE_NODES=false) attachments must stay under %s", path, svc.WorkDir)
			}
			dir, rel = filepath.Clean(svc.WorkDir), r // opened inside WorkDir: no link leads out
		} else {
			dir, rel = filepath.Dir(rel), filepath.Base(rel)
		}
	} else if !filepath.IsLocal(rel) {
		return scripts.Attachment{}, errs.E(errs.InvalidConfig, "file %s leaves the run's working folder; give a path inside it", path)
	}
	f, err := os.OpenInRoot(dir, rel)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return scripts.Attachment{}, errs.E(errs.NotFound, "file %s does not exist in the run's working folder", path)
		}
		return scripts.Attachment{}, errs.E(errs.InvalidConfig, "file %s cannot be attached: it must be a file inside the run's working folder", path)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		return scripts.Attachment{}, errs.E(errs.InvalidConfig, "file %s is not a regular file", path)
	}
	if info.Size() > maxAttachment {
		return scripts.Attachment{}, errs.E(errs.InvalidConfig, "file %s has %d bytes; attachments may have at most %d", path, info.Size(), maxAttachment)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxAttachment+1))
	if err != nil {
		return scripts.Attachment{}, fmt.Errorf("read attachment %s: %w", path, err)
	}
	if len(data) > maxAttachment {
		return scripts.Attachment{}, errs.E(errs.InvalidConfig, "file %s is larger than %d bytes", path, maxAttachment)
	}
	name := filepath.Base(rel)
	ctype := mime.TypeByExtension(filepath.Ext(name))
	if ctype == "" {
		ctype = http.DetectContentType(data)
	}
	return scripts.Attachment{Name: name, ContentType: ctype, Data: data}, nil
}
