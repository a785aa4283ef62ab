package llm

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	openai "github.com/sashabaranov/go-openai"
)

// DefaultTranscriptionModel is used when RODEO_TRANSCRIBE_MODEL is not set.
const DefaultTranscriptionModel = "whisper-1"

// Transcript is the text of a recording with what the call cost.
type Transcript struct {
	Text     string  `json:"text"`
	Model    string  `json:"model"`
	Language string  `json:"language,omitempty"`
	Duration float64 `json:"duration,omitempty"`
	Attempts int     `json:"attempts"`
}

// Transcribe sends the audio file at path to the endpoint's /audio/transcriptions (go-openai's
// CreateTranscription) and returns its text. 429 and 5xx answers are retried as Chat retries.
func (c *Client) Transcribe(ctx context.Context, path string) (Transcript, error) {
	if c == nil {
		return Transcript{}, NotConfigured()
	}
	model := c.cfg.TranscriptionModel
	if model == "" {
		model = DefaultTranscriptionModel
	}
	out := Transcript{Model: model}
	backoff := c.cfg.Backoff
	for {
		out.Attempts++
		// A recording is larger than a chat message: give an attempt twice the time.
		actx, cancel := context.WithTimeout(ctx, 2*c.cfg.Timeout)
		resp, err := c.api.CreateTranscription(actx, openai.AudioRequest{Model: model, FilePath: path, Format: openai.AudioResponseFormatJSON})
		cancel()
		if err == nil {
			out.Text, out.Language, out.Duration = strings.TrimSpace(resp.Text), resp.Language, resp.Duration
			return out, nil
		}
		if ctx.Err() != nil {
			return out, errs.E(errs.Timeout, "transcription stopped: %v", ctx.Err())
		}
		status := statusOf(err)
		retryable := status == http.StatusTooManyRequests || status >= 500 || status == 0 && isTimeout(err)
		if !retryable || out.Attempts > c.cfg.Retries {
			cfg := c.cfg
			cfg.Model = model
			return out, failure(cfg, status, err, out.Attempts)
		}
		select {
		case <-time.After(backoff):
		case <-ctx.Done():
			return out, errs.E(errs.Timeout, "transcription stopped: %v", ctx.Err())
		}
		backoff *= 2
	}
}
