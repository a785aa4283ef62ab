package desktop

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/rodeo-run/rodeo/errs"
)

// Default media inputs (RODEO_WEBCAM, RODEO_AUDIO_INPUT).
const (
	DefaultWebcam     = "/dev/video0"
	DefaultAudioInput = "alsa:default"
)

// formatPrefix is an ffmpeg input format written before the input: "lavfi:testsrc",
// "v4l2:/dev/video1", "pulse:default".
var formatPrefix = regexp.MustCompile(`^([a-z0-9_]+):(.+)$`)

// InputArgs turns an input spec into ffmpeg's input arguments: "FORMAT:INPUT" gives -f FORMAT
// -i INPUT; a /dev/video* device is v4l2; anything else (a file) is opened as it is.
func InputArgs(spec string) []string {
	if m := formatPrefix.FindStringSubmatch(spec); m != nil && m[1] != "file" {
		return []string{"-f", m[1], "-i", m[2]}
	}
	spec = strings.TrimPrefix(spec, "file:")
	if strings.HasPrefix(spec, "/dev/video") {
		return []string{"-f", "v4l2", "-i", spec}
	}
	return []string{"-i", spec}
}

// ffmpeg runs Debian's ffmpeg with args; a failure carries the tail of what it printed.
func ffmpeg(ctx context.Context, args ...string) error {
	bin, err := exec.LookPath("ffmpeg")
	if err != nil {
		return errs.E(errs.DesktopUnavailable, "ffmpeg is not installed (the Makefile's deps target installs Debian's ffmpeg)")
	}
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, append([]string{"-hide_banner", "-nostdin", "-loglevel", "error", "-y"}, args...)...)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		msg := strings.TrimSpace(out.String())
		if len(msg) > 400 {
			msg = "…" + msg[len(msg)-400:]
		}
		return fmt.Errorf("ffmpeg: %v: %s", err, msg)
	}
	return nil
}

// GrabFrame writes one frame of the camera input (an ffmpeg input spec, see InputArgs) to out,
// a PNG or JPEG by its extension.
func GrabFrame(ctx context.Context, input, out string) error {
	args := append(InputArgs(input), "-frames:v", "1", "-update", "1", out)
	return ffmpeg(ctx, args...)
}

// RecordAudio records d of the audio input to out as 16 kHz mono 16-bit WAV, the format
// speech-to-text models take without conversion.
func RecordAudio(ctx context.Context, input string, d time.Duration, out string) error {
	secs := strconv.FormatFloat(d.Seconds(), 'f', 3, 64)
	args := append(InputArgs(input), "-t", secs, "-ac", "1", "-ar", "16000", "-c:a", "pcm_s16le", "-f", "wav", out)
	return ffmpeg(ctx, args...)
}
