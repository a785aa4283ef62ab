// Package llmtest is an in-process HTTP server that speaks the OpenAI chat-completions protocol,
// scripted by the test: the real client code, the real HTTP and JSON, and answers the test chooses
// (good ones, malformed ones, 429s, 5xx, slow ones). No mock of the client.
package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/llm"
)

// Request is what the server received in one chat-completions call.
type Request struct {
	Model    string    `json:"model"`
	Messages []Message `json:"messages"`
	// Tools are the functions offered to the model (tool-calling requests).
	Tools []struct {
		Function struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
		} `json:"function"`
	} `json:"tools,omitempty"`
	ResponseFormat *struct {
		Type string `json:"type"`
	} `json:"response_format,omitempty"`
	Auth string `json:"-"`
	Raw  []byte `json:"-"`
}

// Message is one message of a request: its role and text, and for tool conversations the calls
// an assistant message made or the call a "tool" message answers.
type Message struct {
	Role      string `json:"role"`
	Content   string `json:"content"`
	ToolCalls []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls,omitempty"`
	ToolCallID string `json:"tool_call_id,omitempty"`
}

// ToolCall is a function call the scripted model makes; Arguments is sent as it is (malformed
// JSON included).
type ToolCall struct {
	Name      string
	Arguments string
}

// Reply is how the server answers one call. The zero value answers 200 with empty content.
type Reply struct {
	// Status is the HTTP status; 0 means 200.
	Status int
	// Content is the assistant message's content of a 200 answer.
	Content string
	// Body, when set, is sent as it is instead of a well-formed completion (malformed answers).
	Body string
	// Delay holds the answer back (time limits).
	Delay time.Duration
	// ToolCalls are the calls of the assistant message (finish_reason "tool_calls").
	ToolCalls []ToolCall
	// PromptTokens and CompletionTokens go into usage; 0 estimates from the text (len/4): the
	// messages' content, plus for tool conversations the calls' arguments and the tool
	// definitions, which a real model reads too.
	PromptTokens, CompletionTokens int
}

// Script decides the reply to the n-th call (0-based).
type Script func(n int, req Request) Reply

// Server is a running scripted endpoint.
type Server struct {
	URL    string
	mu     sync.Mutex
	calls  []Request
	script Script

	transcriber    Transcriber
	transcriptions []Transcription
}

// New starts a server answering with script; it stops when the test ends.
func New(tb testing.TB, script Script) *Server {
	s := &Server{script: script}
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	tb.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

// Config points an llm client at this server, with fast retries.
func (s *Server) Config() llm.Config {
	return llm.Config{APIKey: "test-key", BaseURL: s.URL + "/v1", Model: "test-model", Backoff: 5 * time.Millisecond, Timeout: 5 * time.Second}
}

// Calls returns the requests received so far.
func (s *Server) Calls() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.calls...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/v1/audio/transcriptions" && r.Method == http.MethodPost {
		s.serveTranscription(w, r)
		return
	}
	if r.URL.Path != "/v1/chat/completions" || r.Method != http.MethodPost {
		http.Error(w, `{"error":{"message":"not found","type":"invalid_request_error"}}`, http.StatusNotFound)
		return
	}
	raw, _ := io.ReadAll(r.Body)
	var req Request
	if err := json.Unmarshal(raw, &req); err != nil {
		http.Error(w, `{"error":{"message":"bad json","type":"invalid_request_error"}}`, http.StatusBadRequest)
		return
	}
	req.Raw, req.Auth = raw, r.Header.Get("Authorization")
	s.mu.Lock()
	n := len(s.calls)
	s.calls = append(s.calls, req)
	s.mu.Unlock()
	rep := s.script(n, req)
	if rep.Delay > 0 {
		select {
		case <-time.After(rep.Delay):
		case <-r.Context().Done():
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	if rep.Status != 0 && rep.Status != http.StatusOK {
		w.WriteHeader(rep.Status)
		fmt.Fprintf(w, `{"error":{"message":"scripted %d","type":"server_error"}}`, rep.Status)
		return
	}
	if rep.Body != "" {
		_, _ = io.WriteString(w, rep.Body)
		return
	}
	prompt := rep.PromptTokens
	if prompt == 0 {
		prompt = estimatePrompt(req)
	}
	completion := rep.CompletionTokens
	if completion == 0 {
		completion = len(rep.Content)/4 + 1
		for _, tc := range rep.ToolCalls {
			completion += (len(tc.Name) + len(tc.Arguments)) / 4
		}
	}
	msg := map[string]any{"role": "assistant", "content": rep.Content}
	finish := "stop"
	if len(rep.ToolCalls) > 0 {
		var calls []map[string]any
		for i, tc := range rep.ToolCalls {
			calls = append(calls, map[string]any{"id": fmt.Sprintf("call_%d_%d", n, i), "type": "function",
				"function": map[string]string{"name": tc.Name, "arguments": tc.Arguments}})
		}
		msg["tool_calls"], finish = calls, "tool_calls"
	}
	_ = json.NewEncoder(w).Encode(map[string]any{
		"id": fmt.Sprintf("chatcmpl-%d", n), "object": "chat.completion", "created": time.Now().Unix(), "model": req.Model,
		"choices": []map[string]any{{"index": 0, "finish_reason": finish, "message": msg}},
		"usage":   map[string]int{"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion},
	})
}

// estimatePrompt is the prompt's size in tokens at four characters a token: the messages'
// content, and in a tool conversation the calls' arguments and the tools' definitions too.
func estimatePrompt(req Request) int {
	tokens, chars := 0, 0
	for _, m := range req.Messages {
		tokens += len(m.Content) / 4 // per message, as before tools were counted
		for _, tc := range m.ToolCalls {
			chars += len(tc.Function.Name) + len(tc.Function.Arguments)
		}
	}
	for _, t := range req.Tools {
		chars += len(t.Function.Name) + len(t.Function.Description) + len(t.Function.Parameters)
	}
	return tokens + chars/4
}
