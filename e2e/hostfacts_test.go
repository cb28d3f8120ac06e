package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHostFacts re-measures, on the installed Claude Code, the facts about PreToolUse answers that
// the hooks rely on (DESIGN.md "Measured facts about the host"). If an update of the client
// changes one of them, this fails before the harness silently fails open.
func TestHostFacts(t *testing.T) {
	cli := claudeCLI(t)
	requireJQ(t)
	answer := func(decision string) string {
		return `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"` + decision + `","permissionDecisionReason":"fact check"},"oath":{"extra":true}}'`
	}
	envelope := func(decision string) string {
		return `jq -c '. + {oath: {classify: {domain: "x"}}, hookSpecificOutput: {hookEventName: "PreToolUse", permissionDecision: "` + decision + `", permissionDecisionReason: "fact check"}}'`
	}
	// Each run makes two calls: a read that Claude Code's own rules allow headless, and a write
	// that they refuse headless. Which of the two ran says whose answer counted.
	tests := []struct {
		name           string
		hook           string
		readRan, wrote bool
		reason         string // a substring of the refused tool_result
	}{
		{"allow runs without Claude Code's prompt", answer("allow"), true, true, ""},
		{"ask is a denial headless", answer("ask"), false, false, "fact check"},
		{"deny blocks and shows the reason", answer("deny"), false, false, "fact check"},
		{"an envelope (the event echoed, oath, the answer) counts: allow", envelope("allow"), true, true, ""},
		{"an envelope (the event echoed, oath, the answer) counts: deny", envelope("deny"), false, false, "fact check"},
		// The harness's answer for a call it leaves to Claude Code: hookEventName and nothing else.
		// Claude Code's own permission flow decides (headless: the write is refused), and the
		// hook's check for hookSpecificOutput still tells an answer from a pipeline that gave none.
		{"hookEventName without a decision is Claude Code's own flow", `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse"},"oath":{"decision":{"answer":"defer"}}}'`, true, false, ""},
		{"exit 2 blocks with stderr", "echo 'stopped by exit 2' >&2; exit 2", false, false, "stopped by exit 2"},
		{"exit 1 is fail-open: the normal permission flow", "echo 'ignored' >&2; exit 1", true, false, ""},
		{"garbage is the normal permission flow", "echo 'not json'", true, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			api := newFakeAPI(t)
			proj, home := t.TempDir(), t.TempDir()
			writeHooks(t, proj, map[string]string{"PreToolUse": tt.hook})
			if err := os.WriteFile(filepath.Join(proj, "probe.txt"), []byte("probe-content-42\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			api.SetScript(bash("cat probe.txt"), bash("touch marker"))
			s := runClaude(t, cli, proj, home, api.URL, "read and write")
			if len(s.Results) != 2 {
				t.Fatalf("want 2 tool_results, got %d\n%s", len(s.Results), s.Stdout)
			}
			readRan := strings.Contains(s.Results[0].Content, "probe-content-42")
			_, err := os.Stat(filepath.Join(proj, "marker"))
			wrote := err == nil
			if readRan != tt.readRan || wrote != tt.wrote {
				t.Errorf("read ran %v (want %v), write ran %v (want %v); tool_results %+v", readRan, tt.readRan, wrote, tt.wrote, s.Results)
			}
			for _, r := range s.Results[len(s.Results)-1:] {
				if !tt.wrote && !r.IsError {
					t.Errorf("a refused call must come back as an error tool_result: %+v", r)
				}
				if tt.reason != "" && !strings.Contains(r.Content, tt.reason) {
					t.Errorf("tool_result %q does not carry %q", r.Content, tt.reason)
				}
			}
		})
	}
}

// TestHostFactsOtherEvents checks that the envelope the other hooks print (the event echoed plus
// oath and, for SessionStart, additionalContext and on a first run a systemMessage for the person)
// neither blocks the prompt nor stops the session.
func TestHostFactsOtherEvents(t *testing.T) {
	cli := claudeCLI(t)
	requireJQ(t)
	api := newFakeAPI(t)
	proj, home := t.TempDir(), t.TempDir()
	echo := `jq -c '. + {oath: {x: 1}}'`
	writeHooks(t, proj, map[string]string{
		"SessionStart":     `jq -c '. + {oath: {x: 1}, systemMessage: "fact check first run", hookSpecificOutput: {hookEventName: "SessionStart", additionalContext: "fact check context"}}'`,
		"UserPromptSubmit": echo, "PostToolUse": echo, "PostToolUseFailure": echo, "Stop": echo, "SessionEnd": echo,
	})
	os.WriteFile(filepath.Join(proj, "probe.txt"), []byte("probe-content-42\n"), 0o644)
	api.SetScript(bash("cat probe.txt"), bash("cat missing.txt"))
	s := runClaude(t, cli, proj, home, api.URL, "read twice")
	if len(s.Results) != 2 || !strings.Contains(s.Results[0].Content, "probe-content-42") || !s.Results[1].IsError {
		t.Fatalf("the session must run both calls: %+v\n%s", s.Results, s.Stdout)
	}
	if !strings.Contains(s.Stdout, `"result":"Done."`) {
		t.Errorf("the session must end normally:\n%s", s.Stdout)
	}
}

// TestHostFactsToolInputKeyCase records what Claude Code does with a tool_input that spells one
// key in two cases ({"file_path": A, "FILE_PATH": B}): it refuses a built-in tool's input with a
// parameter the tool does not take, before any hook runs, and nothing is written. The harness
// does not rely on it. encoding/json, which the stages decode with, takes any case and keeps the
// last spelling, so classify marks such an input critical (input_key_variant) and the gate
// blocks it (event_unreadable): an MCP tool's schema may take keys it does not name, and a
// later client may validate less. If this test fails, the client changed: see which key its
// tool reads.
func TestHostFactsToolInputKeyCase(t *testing.T) {
	cli := claudeCLI(t)
	api := newFakeAPI(t)
	proj, home := t.TempDir(), t.TempDir()
	seen := filepath.Join(t.TempDir(), "seen.json")
	writeHooks(t, proj, map[string]string{"PreToolUse": `cat > '` + seen + `'; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"fact check"}}'`})
	exact, variant := filepath.Join(proj, "exact.txt"), filepath.Join(proj, "variant.txt")
	api.SetScript(ToolCall{Name: "Write", Input: map[string]any{"file_path": exact, "FILE_PATH": variant, "content": "written\n"}})
	s := runClaude(t, cli, proj, home, api.URL, "write")
	if len(s.Results) != 1 || !s.Results[0].IsError || !strings.Contains(s.Results[0].Content, "FILE_PATH") {
		t.Errorf("want one error tool_result naming FILE_PATH, got %+v", s.Results)
	}
	if data, err := os.ReadFile(seen); err == nil {
		var ev struct {
			ToolInput map[string]any `json:"tool_input"`
		}
		_ = json.Unmarshal(data, &ev)
		t.Errorf("the PreToolUse hook ran, with tool_input %v", ev.ToolInput)
	}
	for _, f := range []string{exact, variant} {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("%s was written", filepath.Base(f))
		}
	}
}

// TestHostFactsDeferReason measures what reaches the person of a reason given with a call the
// hook leaves to Claude Code (issue 28 item 3): a top-level systemMessage, additionalContext,
// and permissionDecisionReason beside no decision. Headless, the person's view is the
// stream-json output; the call itself is refused by Claude Code's own flow ("requires approval").
// Only systemMessage is shown there (internal/decide.Note relies on it); the other two are not.
func TestHostFactsDeferReason(t *testing.T) {
	cli := claudeCLI(t)
	api := newFakeAPI(t)
	proj, home := t.TempDir(), t.TempDir()
	hook := `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecisionReason":"REASON-42","additionalContext":"CONTEXT-42"},"systemMessage":"SYSMSG-42"}'`
	writeHooks(t, proj, map[string]string{"PreToolUse": hook})
	api.SetScript(bash("touch marker"))
	s := runClaude(t, cli, proj, home, api.URL, "write")
	if len(s.Results) != 1 {
		t.Fatalf("want 1 tool_result, got %d\n%s", len(s.Results), s.Stdout)
	}
	if _, err := os.Stat(filepath.Join(proj, "marker")); err == nil || !s.Results[0].IsError {
		t.Errorf("a call left to Claude Code ran headless: %+v", s.Results[0])
	}
	if !strings.Contains(s.Stdout, "SYSMSG-42") {
		t.Errorf("the systemMessage does not reach the person (stream-json output):\n%s", s.Stdout)
	}
	// Measured on 2.1.330 and 2.1.332: neither reaches the output. If one starts to, the
	// systemMessage may be a duplicate: revisit decide.Note.
	for _, not := range []string{"REASON-42", "CONTEXT-42"} {
		if strings.Contains(s.Stdout, not) {
			t.Errorf("fact changed: %s now reaches the person's output", not)
		}
	}
}
