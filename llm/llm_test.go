package llm_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/llm"
	"github.com/rodeo-run/rodeo/llm/llmtest"
)

func TestChat_Answers(t *testing.T) {
	srv := llmtest.New(t, func(n int, req llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Content: `{"ok": true}`, PromptTokens: 42, CompletionTokens: 7}
	})
	c := llm.New(srv.Config())
	rep, err := c.Chat(context.Background(), llm.Request{System: "be terse", Messages: []llm.Message{{Role: "user", Content: "hi"}}, JSON: true})
	if err != nil || rep.Text != `{"ok": true}` || rep.PromptTokens != 42 || rep.CompletionTokens != 7 || rep.Attempts != 1 {
		t.Fatalf("%+v %v", rep, err)
	}
	calls := srv.Calls()
	if len(calls) != 1 || calls[0].Model != "test-model" || calls[0].Auth != "Bearer test-key" || calls[0].ResponseFormat == nil ||
		calls[0].ResponseFormat.Type != "json_object" || calls[0].Messages[0].Role != "system" || calls[0].Messages[1].Content != "hi" {
		t.Fatalf("request %+v", calls)
	}
}

func TestChat_RetriesThenSucceeds(t *testing.T) {
	for _, status := range []int{http.StatusTooManyRequests, http.StatusBadGateway} {
		srv := llmtest.New(t, func(n int, req llmtest.Request) llmtest.Reply {
			if n < 2 {
				return llmtest.Reply{Status: status}
			}
			return llmtest.Reply{Content: "fine"}
		})
		rep, err := llm.New(srv.Config()).Chat(context.Background(), llm.Request{Messages: []llm.Message{{Role: "user", Content: "x"}}})
		if err != nil || rep.Text != "fine" || rep.Attempts != 3 {
			t.Fatalf("status %d: %+v %v", status, rep, err)
		}
	}
}

func TestChat_Failures(t *testing.T) {
	cases := []struct {
		name  string
		reply llmtest.Reply
		code  string
		calls int
	}{
		{"429 forever", llmtest.Reply{Status: 429}, errs.RateLimited, 4},
		{"500 forever", llmtest.Reply{Status: 500}, llm.CodeFailed, 4},
		{"401 is not retried", llmtest.Reply{Status: 401}, llm.CodeFailed, 1},
		{"malformed body", llmtest.Reply{Body: `{"choices": [`}, llm.CodeFailed, 1},
		{"no choices", llmtest.Reply{Body: `{"choices": []}`}, llm.CodeFailed, 1},
		{"too slow", llmtest.Reply{Delay: 2 * time.Second, Content: "late"}, errs.Timeout, 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := llmtest.New(t, func(n int, req llmtest.Request) llmtest.Reply { return c.reply })
			cfg := srv.Config()
			cfg.Timeout = 100 * time.Millisecond
			_, err := llm.New(cfg).Chat(context.Background(), llm.Request{Messages: []llm.Message{{Role: "user", Content: "x"}}})
			if errs.Code(err) != c.code || len(srv.Calls()) != c.calls {
				t.Fatalf("got %v (%s) after %d calls; want %s after %d", err, errs.Code(err), len(srv.Calls()), c.code, c.calls)
			}
		})
	}
}

func TestChat_NotConfigured(t *testing.T) {
	c := llm.New(llm.ConfigFromEnv(func(string) string { return "" }))
	if c != nil {
		t.Fatal("a client without key or URL must be nil")
	}
	_, err := c.Chat(context.Background(), llm.Request{})
	if errs.Code(err) != errs.LLMNotConfigured || !strings.Contains(err.Error(), "OPENAI_API_KEY") {
		t.Fatalf("%v", err)
	}
}

func TestChat_CallerCancel(t *testing.T) {
	srv := llmtest.New(t, func(n int, req llmtest.Request) llmtest.Reply { return llmtest.Reply{Delay: 5 * time.Second} })
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := llm.New(srv.Config()).Chat(ctx, llm.Request{Messages: []llm.Message{{Role: "user", Content: "x"}}})
	if errs.Code(err) != errs.Timeout || time.Since(start) > time.Second {
		t.Fatalf("%v after %s", err, time.Since(start))
	}
}
