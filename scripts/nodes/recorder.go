package nodes

import (
	"context"
	"encoding/binary"
	"fmt"
	"image"
	"os"
	"time"

	"github.com/rodeo-run/rodeo/desktop"
	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
)

// maxRecording bounds one recording: the node's time limit must cover it and the
// transcription after it.
const maxRecording = 600

// recorder records audio through ffmpeg (RODEO_AUDIO_INPUT: the ALSA default unless set; any
// ffmpeg input written FORMAT:INPUT, or a file) to a 16 kHz mono WAV kept with the run, and
// transcribes it through the configured OpenAI-compatible /v1/audio/transcriptions endpoint
// into a variable. With no model configured the WAV is kept and the step says that no
// transcript was made; it does not fail, since the recording is the user's data either way.
type recorder struct {
	audio, shot, output string
	seconds             float64

	path       string
	wavSeconds float64
	transcript *string
	shotSize   [2]int
}

func init() {
	scripts.Register(scripts.Spec{
		Kind:        "recorder",
		Aliases:     []string{"Recorder"},
		Summary:     "Record audio for some seconds to a WAV kept with the run and put its speech transcript in a variable.",
		Category:    "media",
		DesktopWhen: "screenshot_file is set",
		Uses: func(raw map[string]any) (bool, bool) {
			_, shot := raw["screenshot_file"]
			return false, shot
		},
		Timeout: 15 * time.Minute,
		Params: []scripts.Param{
			{Name: "audio_file", Type: scripts.String, Required: true, Template: true,
				Description: "Audio File: the recording's name without extension (.wav is added); relative paths are in the run's working folder", Example: "call"},
			{Name: "time", Type: scripts.Number, Required: true, Min: scripts.F(0.1), Max: scripts.F(maxRecording),
				Description: "Time: seconds to record", Example: 10},
			{Name: "screenshot_file", Type: scripts.String, Template: true,
				Description: "Screenshot File: also capture the X display (PNG) when the recording starts", Example: "call.png"},
			{Name: "data", Type: scripts.String, Default: "transcript",
				Description: "the variable that receives the transcript", Example: "transcript"},
		},
		Examples: []map[string]any{{"type": "recorder", "audio_file": "call", "time": 10}},
		Build: func(p *scripts.Params) (scripts.Node, error) {
			vals, err := p.Texts("audio_file", "screenshot_file")
			if err != nil {
				return nil, err
			}
			secs, err := p.Number("time")
			if err != nil {
				return nil, err
			}
			out, err := varParam(p, "data")
			if err != nil {
				return nil, err
			}
			return &recorder{audio: vals[0], shot: vals[1], seconds: secs, output: out}, nil
		},
	})
}

func (n *recorder) Run(ctx context.Context, env *scripts.Env) error {
	n.transcript, n.wavSeconds = nil, 0
	path, err := mediaPath(env, n.audio, ".wav")
	if err != nil {
		return err
	}
	n.path = path
	input := envOr("RODEO_AUDIO_INPUT", desktop.DefaultAudioInput)
	env.SetDetail("path", path)
	env.SetDetail("input", input)
	if n.shot != "" {
		if err := n.screenshot(ctx, env); err != nil {
			return err
		}
	}
	if err := desktop.RecordAudio(ctx, input, time.Duration(n.seconds*float64(time.Second)), path); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return errs.E(errs.NodeFailed, "record from %s: %v (set RODEO_AUDIO_INPUT, e.g. pulse:default or alsa:hw:1)", input, err)
	}
	n.wavSeconds = wavSeconds(path)
	env.SetDetail("seconds", round2(n.wavSeconds))
	if a, err := keepWithRun(env, path, "audio/wav"); err != nil {
		return err
	} else if a != "" {
		env.SetDetail("artifact", a)
	}
	model := env.Services().LLM
	if model == nil {
		env.SetDetail("transcript", "none: no language model is configured (OPENAI_API_KEY / OPENAI_BASE_URL); the WAV is kept")
		return nil
	}
	tr, err := model.Transcribe(ctx, path)
	env.SetDetail("model", tr.Model)
	if err != nil {
		return err
	}
	n.transcript = &tr.Text
	env.Vars.Set(n.output, tr.Text)
	env.SetDetail("transcript", truncateText(tr.Text, 200))
	return nil
}

// screenshot captures the display as the recording starts.
func (n *recorder) screenshot(ctx context.Context, env *scripts.Env) error {
	path, err := mediaPath(env, n.shot, ".png")
	if err != nil {
		return err
	}
	s, err := desktopSession(ctx, env)
	if err != nil {
		return err
	}
	img, err := s.Capture(ctx, image.Rectangle{})
	if err != nil {
		return err
	}
	b, err := desktop.EncodePNG(img)
	if err != nil {
		return err
	}
	if err := writeFileAtomic(path, b); err != nil {
		return err
	}
	n.shotSize = [2]int{img.Bounds().Dx(), img.Bounds().Dy()}
	env.SetDetail("screenshot", path)
	_, err = keepWithRun(env, path, "image/png")
	return err
}

// wavSeconds reads a canonical WAV header's length (0 when it is not one).
func wavSeconds(path string) float64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	var h struct {
		Riff     [4]byte
		Size     uint32
		Wave     [4]byte
		Fmt      [4]byte
		FmtSize  uint32
		Format   uint16
		Channels uint16
		Rate     uint32
		ByteRate uint32
	}
	if binary.Read(f, binary.LittleEndian, &h) != nil || string(h.Riff[:]) != "RIFF" || string(h.Wave[:]) != "WAVE" || h.ByteRate == 0 {
		return 0
	}
	st, err := f.Stat()
	if err != nil {
		return 0
	}
	return float64(st.Size()-44) / float64(h.ByteRate)
}

func (n *recorder) Verify(ctx context.Context, env *scripts.Env) ([]scripts.Check, error) {
	checks := []scripts.Check{{Name: "wav_written", Passed: n.wavSeconds > 0,
		Detail: fmt.Sprintf("%s: %.2fs of WAV (asked %.2fs)", n.path, n.wavSeconds, n.seconds)}}
	if n.transcript != nil {
		detail := fmt.Sprintf("%d characters in %s", len(*n.transcript), n.output)
		if *n.transcript == "" {
			detail = "the model heard no speech in the recording"
		}
		checks = append(checks, scripts.Check{Name: "transcribed", Passed: *n.transcript != "", Detail: detail})
	}
	if n.shot != "" {
		checks = append(checks, scripts.Check{Name: "screenshot_written", Passed: n.shotSize[0] > 0, Detail: fmt.Sprintf("%dx%d", n.shotSize[0], n.shotSize[1])})
	}
	return checks, nil
}

var _ scripts.Verifier = (*recorder)(nil)
