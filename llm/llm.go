// Package llm is rodeo's one door to language models: any OpenAI-compatible chat-completions
// endpoint (OpenAI, Azure, Ollama, vLLM, llama.cpp) through go-openai, with retries on 429 and 5xx,
// time limits, and token accounting that steps record. The semantic engine's LLM ranker and the
// llm4/gpt4 nodes both use it; with no model configured it says how to configure one.
package llm

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	openai "github.com/sashabaranov/go-openai"
)

// DefaultModel is used when RODEO_LLM_MODEL is not set.
const DefaultModel = "gpt-4o-mini"

// Config says where the model is. The zero value means "no model configured".
type Config struct {
	// APIKey is OPENAI_API_KEY. Local servers (Ollama, llama.cpp) accept any value.
	APIKey string
	// BaseURL is OPENAI_BASE_URL, e.g. http://127.0.0.1:11434/v1. Optional. Default: OpenAI's.
	BaseURL string
	// Model is RODEO_LLM_MODEL. Optional. Default: DefaultModel.
	Model string
	// TranscriptionModel is RODEO_TRANSCRIBE_MODEL, the speech-to-text model of the recorder
	// node. Optional. Default: DefaultTranscriptionModel.
	TranscriptionModel string
	// Timeout bounds one attempt. Optional. Default: 60s.
	Timeout time.Duration
	// Retries is how many times a 429 or 5xx answer is retried. Optional. Default: 3.
	Retries int
	// Backoff is the first pause between retries, doubling each time.
	// Optional. Default: 500ms.
	Backoff time.Duration
}

// ConfigFromEnv reads OPENAI_API_KEY, OPENAI_BASE_URL and RODEO_LLM_MODEL.
func ConfigFromEnv(getenv func(string) string) Config {
	return Config{APIKey: getenv("OPENAI_API_KEY"), BaseURL: getenv("OPENAI_BASE_URL"), Model: getenv("RODEO_LLM_MODEL"),
		TranscriptionModel: getenv("RODEO_TRANSCRIBE_MODEL")}
}

// Enabled reports whether a model is configured (a key or a base URL is set).
func (c Config) Enabled() bool { return c.APIKey != "" || c.BaseURL != "" }

// Client talks to one configured model. A nil *Client is valid and answers every call with
// llm_not_configured.
type Client struct {
	cfg Config
	api *openai.Client
}

// New returns a client for cfg, or nil when cfg configures no model.
func New(cfg Config) *Client {
	if !cfg.Enabled() {
		return nil
	}
	if cfg.Model == "" {
		cfg.Model = DefaultModel
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 60 * time.Second
	}
	if cfg.Retries == 0 {
		cfg.Retries = 3
	}
	if cfg.Backoff <= 0 {
		cfg.Backoff = 500 * time.Millisecond
	}
	oc := openai.DefaultConfig(cfg.APIKey)
	if cfg.BaseURL != "" {
		oc.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	}
	oc.HTTPClient = &http.Client{}
	return &Client{cfg: cfg, api: openai.NewClientWithConfig(oc)}
}

// Model names the configured model ("" for a nil client).
func (c *Client) Model() string {
	if c == nil {
		return ""
	}
	return c.cfg.Model
}

// Message is one chat message; Role is "system", "user" or "assistant".
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Request is one chat completion.
type Request struct {
	// System is the system message (optional).
	System   string
	Messages []Message
	// JSON asks for a JSON object answer (response_format json_object).
	JSON bool
	// MaxTokens caps the answer (optional).
	MaxTokens int
	// Temperature (optional; nil = the server's default).
	Temperature *float32
}

// Reply is a model's answer with what it cost.
type Reply struct {
	Text             string `json:"text"`
	Model            string `json:"model"`
	PromptTokens     int    `json:"prompt_tokens"`
	CompletionTokens int    `json:"completion_tokens"`
	// Attempts counts calls made, retries included.
	Attempts int `json:"attempts"`
}

// Error codes of this package, beyond errs' shared ones.
const (
	// CodeFailed is a model call that failed for good (4xx, bad answers, retries exhausted).
	CodeFailed = "llm_failed"
)

// NotConfigured is the error of a nil client: it says how to configure a model.
func NotConfigured() error {
	return errs.E(errs.LLMNotConfigured,
		"no language model is configured: set OPENAI_API_KEY (and OPENAI_BASE_URL for a local or other OpenAI-compatible server, e.g. http://127.0.0.1:11434/v1 for Ollama; RODEO_LLM_MODEL picks the model, default %s)", DefaultModel)
}

// Chat sends req and returns the answer. 429 and 5xx answers are retried with backoff (the
// doubling) up to Retries times; each attempt has its own time limit.
func (c *Client) Chat(ctx context.Context, req Request) (Reply, error) {
	if c == nil {
		return Reply{}, NotConfigured()
	}
	msgs := make([]openai.ChatCompletionMessage, 0, len(req.Messages)+1)
	if req.System != "" {
		msgs = append(msgs, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleSystem, Content: req.System})
	}
	for _, m := range req.Messages {
		msgs = append(msgs, openai.ChatCompletionMessage{Role: m.Role, Content: m.Content})
	}
	creq := openai.ChatCompletionRequest{Model: c.cfg.Model, Messages: msgs}
	if req.MaxTokens > 0 {
		//lint:ignore SA1019 max_tokens is what Ollama, llama.cpp and vLLM understand; OpenAI still accepts it
		creq.MaxTokens = req.MaxTokens
	}
	if req.Temperature != nil {
		creq.Temperature = *req.Temperature
	}
	if req.JSON {
		creq.ResponseFormat = &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONObject}
	}
	reply := Reply{Model: c.cfg.Model}
	resp, attempts, err := c.create(ctx, creq)
	reply.Attempts = attempts
	if err != nil {
		return reply, err
	}
	reply.Text = resp.Choices[0].Message.Content
	reply.PromptTokens = resp.Usage.PromptTokens
	reply.CompletionTokens = resp.Usage.CompletionTokens
	if resp.Model != "" {
		reply.Model = resp.Model
	}
	return reply, nil
}

// create sends one completion request. 429 and 5xx answers are retried with backoff (the
// doubling) up to Retries times; each attempt has its own time limit. A successful answer has at
// least one choice. It returns the answer and how many calls were made.
func (c *Client) create(ctx context.Context, creq openai.ChatCompletionRequest) (openai.ChatCompletionResponse, int, error) {
	backoff := c.cfg.Backoff
	for attempts := 1; ; attempts++ {
		actx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
		resp, err := c.api.CreateChatCompletion(actx, creq)
		cancel()
		if err == nil {
			if len(resp.Choices) == 0 {
				return resp, attempts, errs.E(CodeFailed, "the model (%s) answered with no choices", c.cfg.Model)
			}
			return resp, attempts, nil
		}
		if ctx.Err() != nil {
			return resp, attempts, errs.E(errs.Timeout, "model call stopped: %v", ctx.Err())
		}
		status := statusOf(err)
		retryable := status == http.StatusTooManyRequests || status >= 500 || status == 0 && isTimeout(err)
		if !retryable || attempts > c.cfg.Retries {
			return resp, attempts, failure(c.cfg, status, err, attempts)
		}
		select {
		case <-time.After(backoff):
		case <-ctx.Done():
			return resp, attempts, errs.E(errs.Timeout, "model call stopped: %v", ctx.Err())
		}
		backoff *= 2
	}
}

func failure(cfg Config, status int, err error, attempts int) error {
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return errs.E(CodeFailed, "the model endpoint refused the API key (HTTP %d): check OPENAI_API_KEY", status)
	case status == http.StatusNotFound:
		return errs.E(CodeFailed, "the model endpoint answered 404: check OPENAI_BASE_URL and RODEO_LLM_MODEL (%s)", cfg.Model)
	case status == http.StatusTooManyRequests:
		return errs.E(errs.RateLimited, "the model endpoint kept answering 429 (rate limited) after %d attempts", attempts)
	case isTimeout(err):
		return errs.E(errs.Timeout, "the model did not answer within %s (%d attempts)", cfg.Timeout, attempts)
	case status > 0:
		return errs.E(CodeFailed, "the model endpoint answered HTTP %d after %d attempts: %s", status, attempts, short(err))
	}
	return errs.E(CodeFailed, "model call failed: %s", short(err))
}

// statusOf extracts the HTTP status of a go-openai error (0 for transport errors).
func statusOf(err error) int {
	var apiErr *openai.APIError
	if errors.As(err, &apiErr) {
		return apiErr.HTTPStatusCode
	}
	var reqErr *openai.RequestError
	if errors.As(err, &reqErr) {
		return reqErr.HTTPStatusCode
	}
	return 0
}

func isTimeout(err error) bool {
	return errors.Is(err, context.DeadlineExceeded) || strings.Contains(err.Error(), "Client.Timeout")
}

func short(err error) string {
	s := err.Error()
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// Tokens is a helper for step details: {"prompt": n, "completion": m}.
func (r Reply) Tokens() map[string]int {
	return map[string]int{"prompt": r.PromptTokens, "completion": r.CompletionTokens}
}
