package nodes

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/rodeo-run/rodeo/desktop"
	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
	"github.com/rodeo-run/rodeo/store"
)

// pngMagic starts every PNG file.
var pngMagic = []byte("\x89PNG\r\n\x1a\n")

// screenshot captures the run's current page as a PNG file at `location` and keeps a copy with
// the run (store artifacts, served at /runs/<id>/artifacts/<name>, whose path goes into the step
// detail). It verifies the file on disk (the bytes captured, the PNG signature) and the stored
// copy.
type screenshot struct {
	location string
	fullPage bool

	path     string
	size     int
	artifact string
	// desktop captures the X display; shot is its size for the check.
	desktop bool
	shot    [2]int
}

func init() {
	scripts.Register(scripts.Spec{
		Kind:        "screenshot",
		Aliases:     []string{"Screenshot"},
		Summary:     "Save a PNG screenshot of the current page to a file and keep it with the run.",
		Category:    "browser",
		Browser:     true,
		Uses:        desktopWhenBrowserModeFalse,
		DesktopWhen: "browser_mode is false",
		Timeout:     30 * time.Second,
		Params: []scripts.Param{
			{Name: "location", Type: scripts.String, Required: true, Template: true,
				Description: "the PNG file to write (the studio's full file path); relative paths are in the run's working folder; .png is added when missing",
				Example:     "shots/checkout.png"},
			{Name: "full_page", Type: scripts.Bool, Default: false,
				Description: "capture the whole scrollable page instead of the visible part", Example: true},
			{Name: "browser_mode", Type: scripts.Bool, Default: true,
				Description: "true: the run's browser page; false: the whole X display", Example: false},
		},
		Examples: []map[string]any{{"type": "screenshot", "location": "shots/checkout.png"}},
		Build: func(p *scripts.Params) (scripts.Node, error) {
			loc, err := p.String("location")
			if err != nil {
				return nil, err
			}
			full, err := p.Bool("full_page")
			if err != nil {
				return nil, err
			}
			loc = strings.TrimSpace(loc)
			if strings.HasSuffix(loc, "/") {
				return nil, errInvalid("parameter location: %q names a folder; give the file's name too", loc)
			}
			if !strings.EqualFold(filepath.Ext(loc), ".png") {
				loc += ".png"
			}
			inBrowser, err := p.Bool("browser_mode")
			if err != nil {
				return nil, err
			}
			return &screenshot{location: loc, fullPage: full, desktop: !inBrowser}, nil
		},
	})
}

func (n *screenshot) Run(ctx context.Context, env *scripts.Env) error {
	n.size, n.artifact = 0, ""
	path, err := resolveFile(env, n.location)
	if err != nil {
		return err
	}
	n.path = path
	env.SetDetail("path", path)
	img, err := n.capture(ctx, env)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return errs.E(codeInvalidFile, "cannot create the folder of %s: %v", path, errors.Unwrap(err))
	}
	if err := writeFileAtomic(path, img); err != nil {
		return err
	}
	n.size = len(img)
	env.SetDetail("bytes", len(img))
	if db := env.Services().Store; db != nil && env.Account != "" {
		name := filepath.Base(path)
		err := db.PutArtifact(store.Artifact{Run: env.RunID, Account: env.Account, Name: name, ContentType: "image/png", Data: img})
		if err != nil {
			return err
		}
		n.artifact = store.ArtifactPath(env.RunID, name)
		env.SetDetail("artifact", n.artifact)
	}
	return nil
}

// writeFileAtomic writes b to a temporary file beside path and renames it into place.
func writeFileAtomic(path string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".part-*")
	if err != nil {
		return errs.E(codeInvalidFile, "cannot write to %s: %v", filepath.Dir(path), errors.Unwrap(err))
	}
	_, werr := tmp.Write(b)
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return errs.E(codeInvalidFile, "cannot write %s: %v", path, werr)
	}
	return nil
}

func (n *screenshot) Verify(ctx context.Context, env *scripts.Env) ([]scripts.Check, error) {
	b, err := os.ReadFile(n.path)
	if err != nil {
		return []scripts.Check{{Name: "file_written", Passed: false, Detail: fmt.Sprintf("%s: %v", n.path, errors.Unwrap(err))}}, nil
	}
	checks := []scripts.Check{
		{Name: "file_written", Passed: len(b) > 0 && len(b) == n.size, Detail: fmt.Sprintf("%s holds %d bytes", n.path, len(b))},
		{Name: "png", Passed: bytes.HasPrefix(b, pngMagic), Detail: "PNG signature"},
	}
	if n.desktop {
		cfg, err := png.DecodeConfig(bytes.NewReader(b))
		ok := err == nil && cfg.Width == n.shot[0] && cfg.Height == n.shot[1]
		checks = append(checks, scripts.Check{Name: "screen_size", Passed: ok, Detail: fmt.Sprintf("%dx%d PNG of a %dx%d screen", cfg.Width, cfg.Height, n.shot[0], n.shot[1])})
	}
	if db := env.Services().Store; db != nil && env.Account != "" {
		a, err := db.GetArtifact(env.Account, env.RunID, filepath.Base(n.path))
		checks = append(checks, scripts.Check{Name: "kept_with_run", Passed: err == nil && a.Size == n.size, Detail: n.artifact})
	}
	return checks, nil
}

var _ scripts.Verifier = (*screenshot)(nil)

// capture takes the PNG: of the page, or of the whole X display.
func (n *screenshot) capture(ctx context.Context, env *scripts.Env) ([]byte, error) {
	if !n.desktop {
		page, err := env.Page(ctx)
		if err != nil {
			return nil, err
		}
		img, err := page.Screenshot(n.fullPage, &proto.PageCaptureScreenshot{Format: proto.PageCaptureScreenshotFormatPng})
		if err != nil {
			return nil, fmt.Errorf("capture screenshot: %w", err)
		}
		return img, nil
	}
	s, err := desktopSession(ctx, env)
	if err != nil {
		return nil, err
	}
	img, err := s.Capture(ctx, image.Rectangle{})
	if err != nil {
		return nil, err
	}
	n.shot = [2]int{img.Bounds().Dx(), img.Bounds().Dy()}
	env.SetDetail("screen", fmt.Sprintf("%dx%d on %s", n.shot[0], n.shot[1], s.Name()))
	return desktop.EncodePNG(img)
}
