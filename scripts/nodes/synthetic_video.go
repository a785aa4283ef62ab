package nodes

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
)

// syntheticVideo asks an external model-hosting service (RODEO_VIDEO_URL, with
// RODEO_VIDEO_TOKEN as a bearer token) for a short video from a prompt and optionally an
// image (Stable Video Diffusion's inputs: motion bucket, frame count, resolution handling), and
// writes it to a file kept with the run. The request and answer are in docs/desktop.md. Not
// configured is integration_not_configured when the agent is validated.
type syntheticVideo struct {
	prompt, variable, image, output, data string
	motion                                int
	frames                                int
	model, resolution                     string

	path  string
	bytes int
	ctype string
}

// videoFrames are the studio's frame options; other "N_frames_with_MODEL" names are read the
// same way.
var (
	videoFrames  = []string{"14_frames_with_svd", "25_frames_with_svd_xt"}
	framesRe     = regexp.MustCompile(`^(\d{1,3})_frames_with_([a-z0-9_]+)$`)
	resolutions  = []string{"maintain_aspect_ratio", "crop_to_16_9", "use_image_dimensions"}
	videoMaxSize = int64(512 << 20)
)

func init() {
	scripts.Register(scripts.Spec{
		Kind:     "synthetic_video",
		Aliases:  []string{"Synthetic Video"},
		Summary:  "Generate a short video from a prompt (and an image) through an external model-hosting API (RODEO_VIDEO_URL).",
		Category: "media",
		Timeout:  10 * time.Minute,
		Params: []scripts.Param{
			{Name: "prompt", Type: scripts.String, Template: true, Description: "what the video shows", Example: "waves rolling onto a beach at sunset"},
			{Name: "automation_input", Type: scripts.String, Description: "a variable whose value is the prompt (instead of prompt)", Example: "sms_transcript"},
			{Name: "file", Type: scripts.String, Template: true, Description: "an image the video starts from (PNG or JPEG; image-to-video models need one)", Example: "shots/beach.png"},
			{Name: "output", Type: scripts.String, Template: true, Default: "synthetic_video.mp4", Description: "the video file to write (the service's format decides the extension when none is given)", Example: "clips/beach.mp4"},
			{Name: "motion_bucket", Type: scripts.Number, Default: 127, Min: scripts.F(1), Max: scripts.F(255), Description: "how much the picture moves (SVD's motion bucket id, 1-255)", Example: 127},
			{Name: "frames", Type: scripts.String, Default: "25_frames_with_svd_xt", Description: "frame count and model, as N_frames_with_MODEL: " + strings.Join(videoFrames, ", "), Example: "14_frames_with_svd"},
			{Name: "resolution", Type: scripts.String, Default: "maintain_aspect_ratio", Enum: resolutions, Description: "how the image's size becomes the video's", Example: "crop_to_16_9"},
			{Name: "data", Type: scripts.String, Default: "video", Description: "the variable that receives the video file's path", Example: "clip"},
		},
		Examples: []map[string]any{{"type": "synthetic_video", "prompt": "waves rolling onto a beach", "file": "beach.png", "frames": "25_frames_with_svd_xt"}},
		Build:    buildSyntheticVideo,
		Validate: func(p *scripts.Params) error {
			if os.Getenv("RODEO_VIDEO_URL") == "" {
				return errs.E(errs.IntegrationNotConfigured, "synthetic_video needs a model-hosting service: set RODEO_VIDEO_URL (and RODEO_VIDEO_TOKEN) on the server; see docs/desktop.md for the API it speaks")
			}
			if p.Templated() {
				return nil
			}
			_, err := buildSyntheticVideo(p)
			return err
		},
	})
}

func buildSyntheticVideo(p *scripts.Params) (scripts.Node, error) {
	vals, err := p.Texts("prompt", "automation_input", "file", "output", "frames", "resolution")
	if err != nil {
		return nil, err
	}
	n := &syntheticVideo{prompt: vals[0], variable: vals[1], image: vals[2], output: vals[3], resolution: vals[5]}
	if n.prompt == "" && n.variable == "" && n.image == "" {
		return nil, errInvalid("synthetic_video needs prompt, automation_input or file")
	}
	m := framesRe.FindStringSubmatch(strings.ToLower(vals[4]))
	if m == nil {
		return nil, errInvalid("frames: %q is not N_frames_with_MODEL (%s)", vals[4], strings.Join(videoFrames, ", "))
	}
	n.frames, _ = strconv.Atoi(m[1])
	n.model = m[2]
	mb, err := p.Number("motion_bucket")
	if err != nil {
		return nil, err
	}
	n.motion = int(mb)
	if n.data, err = varParam(p, "data"); err != nil {
		return nil, err
	}
	return n, nil
}

// videoRequest is the JSON body sent to RODEO_VIDEO_URL.
type videoRequest struct {
	Prompt         string `json:"prompt,omitempty"`
	Image          string `json:"image,omitempty"` // base64
	ImageType      string `json:"image_type,omitempty"`
	MotionBucketID int    `json:"motion_bucket_id"`
	Frames         int    `json:"frames"`
	Model          string `json:"model"`
	Resolution     string `json:"resolution"`
}

// videoResponse is the JSON answer (the other accepted answer is the video itself, video/*).
type videoResponse struct {
	Video  string `json:"video"` // base64
	Format string `json:"format"`
}

func (n *syntheticVideo) Run(ctx context.Context, env *scripts.Env) error {
	url, token := os.Getenv("RODEO_VIDEO_URL"), os.Getenv("RODEO_VIDEO_TOKEN")
	if url == "" {
		return errs.E(errs.IntegrationNotConfigured, "synthetic_video needs RODEO_VIDEO_URL on the server")
	}
	req := videoRequest{Prompt: n.prompt, MotionBucketID: n.motion, Frames: n.frames, Model: n.model, Resolution: n.resolution}
	if n.variable != "" {
		v, ok := env.Vars.Get(n.variable)
		if !ok {
			return errs.E(errs.VariableNotSet, "automation_input: variable %s is not set", n.variable)
		}
		req.Prompt = scripts.Text(v)
	}
	if n.image != "" {
		path, err := resolveFile(env, n.image)
		if err != nil {
			return err
		}
		img, err := os.ReadFile(path)
		if err != nil {
			return errs.E(codeInvalidFile, "file: cannot read %s", path)
		}
		req.Image, req.ImageType = base64.StdEncoding.EncodeToString(img), http.DetectContentType(img)
	}
	video, ctype, err := n.call(ctx, url, token, req)
	if err != nil {
		return err
	}
	name := n.output
	if filepath.Ext(name) == "" {
		name += videoExt(ctype)
	}
	path, err := mediaPath(env, name, filepath.Ext(name))
	if err != nil {
		return err
	}
	if err := writeFileAtomic(path, video); err != nil {
		return err
	}
	n.path, n.bytes, n.ctype = path, len(video), ctype
	env.Vars.Set(n.data, path)
	env.SetDetail("path", path)
	env.SetDetail("bytes", len(video))
	env.SetDetail("content_type", ctype)
	if a, err := keepWithRun(env, path, ctype); err != nil {
		return err
	} else if a != "" {
		env.SetDetail("artifact", a)
	}
	return nil
}

// call posts req and returns the video and its content type.
func (n *syntheticVideo) call(ctx context.Context, url, token string, req videoRequest) ([]byte, string, error) {
	body, _ := json.Marshal(req)
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, "", errs.E(errs.IntegrationNotConfigured, "RODEO_VIDEO_URL: %v", err)
	}
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("Accept", "video/*, application/json")
	if token != "" {
		hr.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(hr)
	if err != nil {
		if ctx.Err() != nil {
			return nil, "", ctx.Err()
		}
		return nil, "", errs.E(errs.NodeFailed, "the video service did not answer: %v", err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, videoMaxSize+1))
	if err != nil {
		return nil, "", errs.E(errs.NodeFailed, "reading the video service's answer: %v", err)
	}
	if int64(len(raw)) > videoMaxSize {
		return nil, "", errs.E(errs.NodeFailed, "the video service sent more than %d MiB", videoMaxSize>>20)
	}
	if resp.StatusCode/100 != 2 {
		return nil, "", errs.E(errs.NodeFailed, "the video service answered HTTP %d: %s", resp.StatusCode, truncateText(strings.TrimSpace(string(raw)), 200))
	}
	ctype, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if strings.HasPrefix(ctype, "video/") {
		return raw, ctype, nil
	}
	var vr videoResponse
	if err := json.Unmarshal(raw, &vr); err != nil || vr.Video == "" {
		return nil, "", errs.E(errs.NodeFailed, "the video service answered %s without a video (want video/* or JSON {\"video\": base64, \"format\": \"mp4\"})", firstNonEmpty(ctype, "no content type"))
	}
	video, err := base64.StdEncoding.DecodeString(vr.Video)
	if err != nil {
		return nil, "", errs.E(errs.NodeFailed, "the video service's video is not base64: %v", err)
	}
	return video, "video/" + firstNonEmpty(vr.Format, "mp4"), nil
}

// videoExt is the usual extension of a video type (mime's list starts with rarer ones: .f4v
// for video/mp4).
func videoExt(ctype string) string {
	switch ctype {
	case "video/mp4":
		return ".mp4"
	case "video/webm":
		return ".webm"
	case "video/quicktime":
		return ".mov"
	case "image/gif":
		return ".gif"
	}
	if exts, _ := mime.ExtensionsByType(ctype); len(exts) > 0 {
		return exts[0]
	}
	return ".bin"
}

func (n *syntheticVideo) Verify(ctx context.Context, env *scripts.Env) ([]scripts.Check, error) {
	st, err := os.Stat(n.path)
	ok := err == nil && st.Size() == int64(n.bytes) && n.bytes > 0
	return []scripts.Check{{Name: "video_written", Passed: ok, Detail: fmt.Sprintf("%s: %d bytes of %s", n.path, n.bytes, n.ctype)}}, nil
}

var _ scripts.Verifier = (*syntheticVideo)(nil)
