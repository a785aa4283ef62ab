package nodes

import (
	"context"
	"fmt"
	"image"
	_ "image/jpeg" // DecodeConfig of .jpg frames
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rodeo-run/rodeo/desktop"
	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
)

// webcam grabs one frame from the camera through ffmpeg (RODEO_WEBCAM: a device such as
// /dev/video0, or any ffmpeg input written FORMAT:INPUT, e.g. lavfi:testsrc) to an image file
// kept with the run, and verifies that the file is an image.
type webcam struct {
	name string

	path string
	w, h int
}

func init() {
	scripts.Register(scripts.Spec{
		Kind:     "webcam",
		Aliases:  []string{"Webcam"},
		Summary:  "Take a picture with the webcam (one frame through ffmpeg) and keep it with the run.",
		Category: "media",
		Timeout:  30 * time.Second,
		Params: []scripts.Param{
			{Name: "file_name", Type: scripts.String, Required: true, Template: true,
				Description: "File Name: the image to write (.png unless it ends in .jpg); relative paths are in the run's working folder", Example: "shots/desk.png"},
		},
		Examples: []map[string]any{{"type": "webcam", "file_name": "shots/desk.png"}},
		Build: func(p *scripts.Params) (scripts.Node, error) {
			name, err := p.String("file_name")
			if err != nil {
				return nil, err
			}
			return &webcam{name: name}, nil
		},
	})
}

func (n *webcam) Run(ctx context.Context, env *scripts.Env) error {
	path, err := mediaPath(env, n.name, ".png", ".jpg", ".jpeg")
	if err != nil {
		return err
	}
	n.path = path
	input := envOr("RODEO_WEBCAM", desktop.DefaultWebcam)
	env.SetDetail("path", path)
	env.SetDetail("input", input)
	if err := desktop.GrabFrame(ctx, input, path); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return errs.E(errs.NodeFailed, "webcam %s: %v (set RODEO_WEBCAM to the camera, e.g. /dev/video1)", input, err)
	}
	f, err := os.Open(path)
	if err != nil {
		return errs.E(errs.NodeFailed, "webcam: ffmpeg wrote no %s", path)
	}
	cfg, _, err := image.DecodeConfig(f)
	f.Close()
	if err == nil {
		n.w, n.h = cfg.Width, cfg.Height
	}
	ct := "image/png"
	if !strings.EqualFold(filepath.Ext(path), ".png") {
		ct = "image/jpeg"
	}
	if a, err := keepWithRun(env, path, ct); err != nil {
		return err
	} else if a != "" {
		env.SetDetail("artifact", a)
	}
	return nil
}

func (n *webcam) Verify(ctx context.Context, env *scripts.Env) ([]scripts.Check, error) {
	return []scripts.Check{{Name: "image_written", Passed: n.w > 0 && n.h > 0, Detail: fmt.Sprintf("%s: %dx%d", n.path, n.w, n.h)}}, nil
}

var _ scripts.Verifier = (*webcam)(nil)
