package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// ToolCall is one scripted turn of the stand-in model: the tool it asks Claude Code to run.
type ToolCall struct {
	Name  string
	Input map[string]any
}

// bash is a Bash tool call, the most common turn in the scenarios.
func bash(command string) ToolCall {
	return ToolCall{Name: "Bash", Input: map[string]any{"command": command, "description": "scripted by the e2e test"}}
}

// fakeAPI is a loopback stand-in for the Anthropic Messages API. For a conversation (a request
// that offers tools) it answers with the next scripted tool call, found by counting the
// tool_result blocks Claude Code has sent back so far, and with a short text once the script is
// done. Every other request (title generation, quota checks …) gets a plain text message, so the
// client never needs the network.
type fakeAPI struct {
	URL string

	mu       sync.Mutex
	script   []ToolCall
	requests int
}

func newFakeAPI(t *testing.T) *fakeAPI {
	t.Helper()
	f := &fakeAPI{}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listen: %v", err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(f.serve)}
	go srv.Serve(ln) //nolint:errcheck // ends with Close
	t.Cleanup(func() { srv.Close() })
	f.URL = "http://" + ln.Addr().String()
	return f
}

// SetScript replaces the tool calls the next conversation is given.
func (f *fakeAPI) SetScript(calls ...ToolCall) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.script = calls
}

type apiRequest struct {
	Stream   bool              `json:"stream"`
	Tools    []json.RawMessage `json:"tools"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
}

// toolResults counts the tool_result blocks in the conversation so far: the number of turns done.
func (r *apiRequest) toolResults() int {
	n := 0
	for _, m := range r.Messages {
		var blocks []struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(m.Content, &blocks) != nil {
			continue // a plain string content
		}
		for _, b := range blocks {
			if b.Type == "tool_result" {
				n++
			}
		}
	}
	return n
}

func (f *fakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.requests++
	script := f.script
	f.mu.Unlock()

	switch {
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/v1/messages/count_tokens"):
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"input_tokens":10}`)
		return
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/v1/messages"):
	default:
		http.NotFound(w, r)
		return
	}
	var req apiRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, `{"type":"error","error":{"type":"invalid_request_error","message":"bad json"}}`, http.StatusBadRequest)
		return
	}
	var block map[string]any
	stop := "end_turn"
	if len(req.Tools) > 0 {
		if done := req.toolResults(); done < len(script) {
			call := script[done]
			block = map[string]any{"type": "tool_use", "id": toolUseID(done), "name": call.Name, "input": call.Input}
			stop = "tool_use"
		}
	}
	if block == nil {
		block = map[string]any{"type": "text", "text": "Done."}
	}
	if req.Stream {
		writeStream(w, block, stop)
	} else {
		writeMessage(w, block, stop)
	}
}

const model = "claude-sonnet-4-5"

func usage() map[string]any { return map[string]any{"input_tokens": 10, "output_tokens": 5} }

func writeMessage(w http.ResponseWriter, block map[string]any, stop string) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"id": "msg_e2e", "type": "message", "role": "assistant", "model": model,
		"content": []any{block}, "stop_reason": stop, "stop_sequence": nil, "usage": usage(),
	})
}

// writeStream sends the SSE sequence of one assistant message with one content block; a
// tool_use block's input arrives as one input_json_delta, as the real API streams it.
func writeStream(w http.ResponseWriter, block map[string]any, stop string) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	send := func(event string, data map[string]any) {
		data["type"] = event
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
	}
	send("message_start", map[string]any{"message": map[string]any{
		"id": "msg_e2e", "type": "message", "role": "assistant", "model": model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": usage(),
	}})
	switch block["type"] {
	case "tool_use":
		input, _ := json.Marshal(block["input"])
		send("content_block_start", map[string]any{"index": 0, "content_block": map[string]any{
			"type": "tool_use", "id": block["id"], "name": block["name"], "input": map[string]any{},
		}})
		send("content_block_delta", map[string]any{"index": 0, "delta": map[string]any{"type": "input_json_delta", "partial_json": string(input)}})
	default:
		send("content_block_start", map[string]any{"index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
		send("content_block_delta", map[string]any{"index": 0, "delta": map[string]any{"type": "text_delta", "text": block["text"]}})
	}
	send("content_block_stop", map[string]any{"index": 0})
	send("message_delta", map[string]any{"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}})
	send("message_stop", map[string]any{})
}
