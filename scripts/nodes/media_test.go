package nodes_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/llm"
	"github.com/rodeo-run/rodeo/llm/llmtest"
	"github.com/rodeo-run/rodeo/scripts"
)

// runMedia compiles and runs nodes without a browser or a desktop.
func runMedia(t *testing.T, nodes string, svc *scripts.Services) scripts.Doc {
	t.Helper()
	var raw []json.RawMessage
	if err := json.Unmarshal([]byte(nodes), &raw); err != nil {
		t.Fatalf("test JSON: %v", err)
	}
	s, err := scripts.DefaultRegistry.Compile(t.Name(), raw, nil)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	runner := &scripts.Runner{Registry: scripts.DefaultRegistry, Services: svc}
	r := scripts.NewRun("r_"+strings.ReplaceAll(t.Name(), "/", "_"), "test", "test", s)
	runner.Execute(context.Background(), r, scripts.ExecOptions{Timeout: time.Minute})
	return r.Doc()
}

func needFFmpeg(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs ffmpeg; skipped with -short")
	}
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Fatal("no ffmpeg (the Makefile's deps target installs it)")
	}
}

func TestWebcam_GrabsAFrameFromTheInput(t *testing.T) {
	needFFmpeg(t)
	t.Setenv("RODEO_WEBCAM", "lavfi:testsrc=size=320x240:rate=5")
	work := t.TempDir()
	d := runMedia(t, `[{"type":"Webcam","file_name":"cam/frame"}]`, &scripts.Services{WorkDir: work})
	if d.Status != scripts.StatusSucceeded || !hasCheck(d.Steps[0], "image_written") {
		t.Fatal(dump(d))
	}
	if !strings.HasSuffix(d.Steps[0].Detail["path"].(string), "cam/frame.png") {
		t.Fatalf("path %v", d.Steps[0].Detail["path"])
	}
}

func TestWebcam_NoCameraFails(t *testing.T) {
	needFFmpeg(t)
	t.Setenv("RODEO_WEBCAM", "/dev/video97")
	d := runMedia(t, `[{"type":"webcam","file_name":"frame.png"}]`, &scripts.Services{WorkDir: t.TempDir()})
	if stepErr(d, 0) != errs.NodeFailed || !strings.Contains(d.Steps[0].Error.Message, "RODEO_WEBCAM") {
		t.Fatal(dump(d))
	}
}

// speech writes a WAV of espeak-ng saying text.
func speech(t *testing.T, text string) string {
	t.Helper()
	if _, err := exec.LookPath("espeak-ng"); err != nil {
		t.Fatal("no espeak-ng (the Makefile's deps target installs it)")
	}
	path := filepath.Join(t.TempDir(), "speech.wav")
	if out, err := exec.Command("espeak-ng", "-w", path, text).CombinedOutput(); err != nil {
		t.Fatalf("espeak-ng: %v %s", err, out)
	}
	return path
}

func TestRecorder_TranscribesTheRecording(t *testing.T) {
	needFFmpeg(t)
	t.Setenv("RODEO_AUDIO_INPUT", speech(t, "please book a table for two"))
	srv := llmtest.New(t, func(int, llmtest.Request) llmtest.Reply { return llmtest.Reply{} })
	srv.OnTranscription(func(req llmtest.Transcription) (string, int) {
		// The server checks what a speech model would need: a 16 kHz mono PCM WAV.
		if !bytes.HasPrefix(req.Audio, []byte("RIFF")) || binary.LittleEndian.Uint32(req.Audio[24:28]) != 16000 || binary.LittleEndian.Uint16(req.Audio[22:24]) != 1 {
			return "", http.StatusBadRequest
		}
		return "please book a table for two", 0
	})
	work := t.TempDir()
	d := runMedia(t, `[{"type":"Recorder","audio_file":"calls/booking","time":1.5,"data":"heard"},{"type":"print","text":"{{heard}}"}]`,
		&scripts.Services{WorkDir: work, LLM: llm.New(srv.Config())})
	if d.Status != scripts.StatusSucceeded || !hasCheck(d.Steps[0], "transcribed") || !hasCheck(d.Steps[0], "wav_written") {
		t.Fatal(dump(d))
	}
	if d.Data["heard"] != "please book a table for two" {
		t.Fatalf("heard %v", d.Data["heard"])
	}
	calls := srv.Transcriptions()
	if len(calls) != 1 || calls[0].Model != llm.DefaultTranscriptionModel || calls[0].Filename != "booking.wav" {
		t.Fatalf("calls %+v", calls)
	}
	if secs := d.Steps[0].Detail["seconds"].(float64); secs < 1.4 || secs > 1.6 {
		t.Fatalf("recorded %vs, want 1.5", secs)
	}
}

func TestRecorder_WithoutAModelKeepsTheWAV(t *testing.T) {
	needFFmpeg(t)
	t.Setenv("RODEO_AUDIO_INPUT", "lavfi:sine=frequency=440")
	work := t.TempDir()
	d := runMedia(t, `[{"type":"recorder","audio_file":"tone","time":0.5}]`, &scripts.Services{WorkDir: work})
	if d.Status != scripts.StatusSucceeded || !hasCheck(d.Steps[0], "wav_written") {
		t.Fatal(dump(d))
	}
	if msg, _ := d.Steps[0].Detail["transcript"].(string); !strings.Contains(msg, "no language model is configured") {
		t.Fatalf("transcript detail %q", msg)
	}
	if _, ok := d.Data["transcript"]; ok {
		t.Fatal("a transcript variable was set without a model")
	}
	if _, err := os.Stat(d.Steps[0].Detail["path"].(string)); err != nil {
		t.Fatal(err)
	}
}

func TestSyntheticVideo_CallsTheVideoService(t *testing.T) {
	var got map[string]any
	var auth string
	video := []byte("\x00\x00\x00\x18ftypmp42 a tiny stand-in for an mp4")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth = r.Header.Get("Authorization")
		raw, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(raw, &got)
		if r.URL.Query().Get("as") == "json" {
			_ = json.NewEncoder(w).Encode(map[string]string{"video": base64.StdEncoding.EncodeToString(video), "format": "webm"})
			return
		}
		w.Header().Set("Content-Type", "video/mp4")
		_, _ = w.Write(video)
	}))
	defer srv.Close()
	work := t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "start.png"), pngMagicBytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("RODEO_VIDEO_TOKEN", "video-secret")
	for _, tc := range []struct{ query, output, ext string }{{"", "clip", ".mp4"}, {"?as=json", "clip2", ".webm"}} {
		t.Setenv("RODEO_VIDEO_URL", srv.URL+"/v1/video"+tc.query)
		d := runMedia(t, `[{"type":"Synthetic Video","prompt":"waves at sunset","file":"`+filepath.Join(work, "start.png")+`","output":"`+tc.output+`","frames":"14_frames_with_svd","motion_bucket":90,"resolution":"crop_to_16_9"}]`,
			&scripts.Services{WorkDir: work, CodeNodes: true})
		if d.Status != scripts.StatusSucceeded || !hasCheck(d.Steps[0], "video_written") {
			t.Fatal(dump(d))
		}
		if p, _ := d.Data["video"].(string); !strings.HasSuffix(p, tc.output+tc.ext) {
			t.Fatalf("video path %q, want %s%s", p, tc.output, tc.ext)
		}
		if auth != "Bearer video-secret" || got["prompt"] != "waves at sunset" || got["frames"] != 14.0 || got["model"] != "svd" ||
			got["motion_bucket_id"] != 90.0 || got["resolution"] != "crop_to_16_9" || got["image_type"] != "image/png" {
			t.Fatalf("request %v auth %q", got, auth)
		}
	}
}

func pngMagicBytes() []byte { return []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR") }

func TestSyntheticVideo_NotConfiguredAtValidation(t *testing.T) {
	t.Setenv("RODEO_VIDEO_URL", "")
	_, err := scripts.DefaultRegistry.Compile("g", []json.RawMessage{json.RawMessage(`{"type":"synthetic_video","prompt":"x"}`)}, nil)
	if !errs.Is(err, errs.IntegrationNotConfigured) {
		t.Fatalf("got %v, want integration_not_configured", err)
	}
}
