package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// capture runs the real Claude Code CLI once, headless, in the project with the sandbox on,
// against a loopback stand-in for the Messages API that asks for one Bash call (`true`); a
// stand-in bwrap first on PATH writes down the arguments Claude Code starts bubblewrap with,
// then starts the real one. Those arguments (but the proxy's socket and file descriptors, which
// live only as long as that session) are what runConfined starts every attack with: the same
// read-only root, the same writable project and temp directory, the same files masked (.env,
// ~/.ssh, .git/hooks, .claude/settings*.json …), the same namespaces. Two things differ, both
// recorded in the report: no proxy listens inside the network namespace (with no domain
// allowed, Claude Code's proxy refuses every connection; here nothing answers), and Claude
// Code's seccomp filter (no Unix sockets) is not applied, so the replay allows more, never less.
func (b *bench) capture(cli string) error {
	if cli == "" {
		cli = os.Getenv("OATH_CLAUDE")
	}
	if cli == "" {
		cache := os.Getenv("XDG_CACHE_HOME")
		if cache == "" {
			cache = filepath.Join(os.Getenv("HOME"), ".cache")
		}
		if p := filepath.Join(cache, "oath-harness", "claude-code", "node_modules", ".bin", "claude"); fileExists(p) {
			cli = p
		}
	}
	if cli == "" {
		p, err := exec.LookPath("claude")
		if err != nil {
			return errors.New("no Claude Code CLI found (scripts/setup.sh installs it; or -claude PATH, or $OATH_CLAUDE): the sandbox's arguments are taken from it")
		}
		cli = p
	}
	realBwrap, err := exec.LookPath("bwrap")
	if err != nil {
		return err
	}
	shim := filepath.Join(b.golden, "capture-bin")
	logFile := filepath.Join(b.golden, "bwrap-args")
	if err := os.MkdirAll(shim, 0o755); err != nil {
		return err
	}
	script := fmt.Sprintf("#!/bin/sh\nfor a in \"$@\"; do printf '%%s\\0' \"$a\"; done >> %q\nprintf '\\n' >> %q\nexec %q \"$@\"\n", logFile, logFile, realBwrap)
	if err := os.WriteFile(filepath.Join(shim, "bwrap"), []byte(script), 0o755); err != nil {
		return err
	}
	api, err := newStandIn()
	if err != nil {
		return err
	}
	defer api.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, cli, "-p", "run true", "--output-format", "stream-json", "--verbose")
	cmd.Dir = b.project
	cmd.Env = []string{"HOME=" + b.home, "PATH=" + shim + ":" + os.Getenv("PATH"), "ANTHROPIC_BASE_URL=" + api.URL, "ANTHROPIC_API_KEY=sk-ant-bench-not-a-key",
		"DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"CLAUDE_CODE_TMPDIR=" + b.cctmp, "TMPDIR=" + b.cctmp, "TZ=UTC"}
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return fmt.Errorf("claude timed out: %s", clip(string(out), 400))
	}
	data, rerr := os.ReadFile(logFile)
	if rerr != nil {
		return fmt.Errorf("claude (%v) never started bubblewrap: is the sandbox able to start here? %s", err, clip(string(out), 600))
	}
	var args []string
	for _, line := range bytes.Split(data, []byte("\x00\n")) {
		parts := strings.Split(strings.TrimSuffix(string(line), "\x00"), "\x00")
		if len(parts) > 5 { // not `bwrap --version`
			args = parts
		}
	}
	if args == nil {
		return fmt.Errorf("claude started bubblewrap only to ask its version: the Bash call was not sandboxed. %s", clip(string(out), 600))
	}
	end := -1
	for i, a := range args {
		if a == "--" {
			end = i
			break
		}
	}
	if end < 0 {
		return errors.New("bubblewrap's arguments have no --")
	}
	b.sandboxArgs = keepable(args[:end])
	for i, o := range b.sandboxArgs {
		switch o {
		case "--bind-try", "--ro-bind-try", "--dev-bind-try":
			if i+2 < len(b.sandboxArgs) {
				b.mountPoints[b.sandboxArgs[i+2]] = true
			}
		case "--tmpfs":
			if i+1 < len(b.sandboxArgs) {
				b.mountPoints[b.sandboxArgs[i+1]] = true
			}
		}
	}
	b.captured = fmt.Sprintf("bubblewrap started with the %d options Claude Code (%s) passed it in this project, captured at start", len(b.sandboxArgs), cli)
	return nil
}

// keepable drops what lives only as long as the capturing session (the proxy's socket, the
// descriptors bubblewrap reports on) and turns binds into their -try forms, so that a path the
// session made and removed is skipped rather than an error.
func keepable(opts []string) []string {
	var out []string
	for i := 0; i < len(opts); i++ {
		switch o := opts[i]; o {
		case "--sync-fd", "--info-fd", "--json-status-fd", "--block-fd", "--userns-block-fd", "--seccomp", "--add-seccomp-fd":
			i++
		case "--bind", "--ro-bind", "--dev-bind":
			if i+2 >= len(opts) {
				return out
			}
			src, dst := opts[i+1], opts[i+2]
			i += 2
			if strings.HasSuffix(src, ".sock") {
				continue
			}
			out = append(out, o+"-try", src, dst)
		default:
			out = append(out, o)
		}
	}
	return out
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// standIn is a loopback stand-in for the Messages API: the first turn of a conversation asks
// for one Bash call, `true`; every other request gets a short text.
type standIn struct {
	URL string
	srv *http.Server
}

func newStandIn() (*standIn, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &standIn{URL: "http://" + ln.Addr().String()}
	s.srv = &http.Server{Handler: http.HandlerFunc(s.serve)}
	go s.srv.Serve(ln)
	return s, nil
}

func (s *standIn) Close() { s.srv.Close() }

func (s *standIn) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/v1/messages/count_tokens") {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"input_tokens":10}`)
		return
	}
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/v1/messages") {
		http.NotFound(w, r)
		return
	}
	var req struct {
		Stream   bool              `json:"stream"`
		Tools    []json.RawMessage `json:"tools"`
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, `{"type":"error","error":{"type":"invalid_request_error","message":"bad json"}}`, http.StatusBadRequest)
		return
	}
	done := false
	for _, m := range req.Messages {
		if bytes.Contains(m.Content, []byte(`"tool_result"`)) {
			done = true
		}
	}
	block := map[string]any{"type": "text", "text": "Done."}
	stop := "end_turn"
	if len(req.Tools) > 0 && !done {
		block = map[string]any{"type": "tool_use", "id": "toolu_capture", "name": "Bash", "input": map[string]any{"command": "true", "description": "capture"}}
		stop = "tool_use"
	}
	usage := map[string]any{"input_tokens": 10, "output_tokens": 5}
	msg := map[string]any{"id": "msg_bench", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5", "stop_reason": nil, "stop_sequence": nil, "usage": usage}
	if !req.Stream {
		msg["content"], msg["stop_reason"] = []any{block}, stop
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(msg)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	send := func(event string, data map[string]any) {
		data["type"] = event
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
	}
	msg["content"] = []any{}
	send("message_start", map[string]any{"message": msg})
	if block["type"] == "tool_use" {
		input, _ := json.Marshal(block["input"])
		send("content_block_start", map[string]any{"index": 0, "content_block": map[string]any{"type": "tool_use", "id": block["id"], "name": block["name"], "input": map[string]any{}}})
		send("content_block_delta", map[string]any{"index": 0, "delta": map[string]any{"type": "input_json_delta", "partial_json": string(input)}})
	} else {
		send("content_block_start", map[string]any{"index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
		send("content_block_delta", map[string]any{"index": 0, "delta": map[string]any{"type": "text_delta", "text": block["text"]}})
	}
	send("content_block_stop", map[string]any{"index": 0})
	send("message_delta", map[string]any{"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}})
	send("message_stop", map[string]any{})
}
