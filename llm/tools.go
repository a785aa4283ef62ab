package llm

import (
	"context"
	"encoding/json"

	openai "github.com/sashabaranov/go-openai"
)

// Tool is a function the model may call (chat-completions "tools"): its name, what it does, and
// its arguments as a JSON Schema object.
type Tool struct {
	Name        string
	Description string
	Parameters  map[string]any
}

// ToolCall is one function call the model asked for; Arguments is the JSON text it wrote, which
// may be malformed (the caller parses and, when it cannot, says so to the model).
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// ToolMessage is one message of a conversation with tools: a system, user or assistant message
// (an assistant's may carry the calls it made), or a "tool" message answering the call ToolCallID.
type ToolMessage struct {
	Role       string
	Content    string
	ToolCalls  []ToolCall
	ToolCallID string
}

// ToolRequest is one chat completion offering tools.
type ToolRequest struct {
	Messages []ToolMessage
	Tools    []Tool
	// MaxTokens caps the answer (optional).
	MaxTokens int
	// Temperature (optional; nil = the server's default).
	Temperature *float32
}

// ToolReply is the model's answer: its calls (in order), any text it wrote, and what it cost.
type ToolReply struct {
	Calls            []ToolCall
	Text             string
	Model            string
	PromptTokens     int
	CompletionTokens int
	// Attempts counts calls made, retries included.
	Attempts int
}

// ChatTools sends req and returns the model's tool calls, with the same retries and time limits
// as Chat. An answer with no call is not an error here: the caller decides what text alone means.
func (c *Client) ChatTools(ctx context.Context, req ToolRequest) (ToolReply, error) {
	if c == nil {
		return ToolReply{}, NotConfigured()
	}
	creq := openai.ChatCompletionRequest{Model: c.cfg.Model, Messages: toOpenAI(req.Messages)}
	for _, t := range req.Tools {
		params, _ := json.Marshal(t.Parameters)
		creq.Tools = append(creq.Tools, openai.Tool{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{
			Name: t.Name, Description: t.Description, Parameters: json.RawMessage(params)}})
	}
	if req.MaxTokens > 0 {
		//lint:ignore SA1019 max_tokens is what Ollama, llama.cpp and vLLM understand; OpenAI still accepts it
		creq.MaxTokens = req.MaxTokens
	}
	if req.Temperature != nil {
		creq.Temperature = *req.Temperature
	}
	reply := ToolReply{Model: c.cfg.Model}
	resp, attempts, err := c.create(ctx, creq)
	reply.Attempts = attempts
	if err != nil {
		return reply, err
	}
	msg := resp.Choices[0].Message
	reply.Text = msg.Content
	for _, tc := range msg.ToolCalls {
		reply.Calls = append(reply.Calls, ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
	}
	reply.PromptTokens = resp.Usage.PromptTokens
	reply.CompletionTokens = resp.Usage.CompletionTokens
	if resp.Model != "" {
		reply.Model = resp.Model
	}
	return reply, nil
}

func toOpenAI(msgs []ToolMessage) []openai.ChatCompletionMessage {
	out := make([]openai.ChatCompletionMessage, 0, len(msgs))
	for _, m := range msgs {
		om := openai.ChatCompletionMessage{Role: m.Role, Content: m.Content, ToolCallID: m.ToolCallID}
		for _, tc := range m.ToolCalls {
			om.ToolCalls = append(om.ToolCalls, openai.ToolCall{ID: tc.ID, Type: openai.ToolTypeFunction,
				Function: openai.FunctionCall{Name: tc.Name, Arguments: tc.Arguments}})
		}
		out = append(out, om)
	}
	return out
}
