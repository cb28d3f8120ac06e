package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/oath-harness/oath-harness/internal/claude"
)

// repoRoot is the checkout the test runs in (the package directory is e2e/).
func repoRoot(t testing.TB) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Dir(wd)
}

// claudeCLI finds the Claude Code CLI: $OATH_CLAUDE, the pinned copy scripts/setup.sh installs
// in the user's cache directory (pinnedCLI), then PATH. The end-to-end tests skip only when none
// exists (and fail then in CI).
func claudeCLI(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("OATH_CLAUDE"); p != "" {
		return p
	}
	if local := pinnedCLI(); local != "" {
		if _, err := os.Stat(local); err == nil {
			return local
		}
	}
	if p, err := exec.LookPath("claude"); err == nil {
		return p
	}
	skipUnlessRequired(t, "claude CLI not installed (scripts/setup.sh installs it with npm): skipping the end-to-end test")
	return ""
}

// pinnedCLI is where scripts/setup.sh installs the pinned Claude Code CLI: outside the
// checkout, which a plugin install copies whole.
func pinnedCLI() string {
	cache := os.Getenv("XDG_CACHE_HOME")
	if cache == "" {
		home := os.Getenv("HOME")
		if home == "" {
			return ""
		}
		cache = filepath.Join(home, ".cache")
	}
	return filepath.Join(cache, "oath-harness", "claude-code", "node_modules", ".bin", "claude")
}

// toolResult is one tool_result block Claude Code sent back to the model.
type toolResult struct {
	ToolUseID string
	Content   string
	IsError   bool
}

// session is what one headless run produced.
type session struct {
	Results []toolResult
	Stdout  string
	Stderr  string
}

// claudeEnv is the environment of a headless run: a private HOME, the loopback API, and every
// switch that keeps the client off the network.
func claudeEnv(home, apiURL string, extra ...string) []string {
	env := []string{
		"HOME=" + home,
		"PATH=" + os.Getenv("PATH"),
		"ANTHROPIC_BASE_URL=" + apiURL,
		"ANTHROPIC_API_KEY=sk-ant-e2e-not-a-key",
		"DISABLE_AUTOUPDATER=1",
		"DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"TZ=UTC",
	}
	if v := os.Getenv("TMPDIR"); v != "" {
		env = append(env, "TMPDIR="+v)
	}
	return append(env, extra...)
}

// runClaude drives the real CLI headless in dir with prompt, against api, and returns the
// tool_result blocks from its stream-json output.
func runClaude(t testing.TB, cli, dir, home, apiURL, prompt string, extraEnv ...string) session {
	t.Helper()
	return runClaudeArgs(t, cli, dir, home, apiURL, []string{"-p", prompt}, extraEnv...)
}

// runClaudeArgs is runClaude with the CLI's arguments given (-p PROMPT and any others).
func runClaudeArgs(t testing.TB, cli, dir, home, apiURL string, args []string, extraEnv ...string) session {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, cli, append(args, "--output-format", "stream-json", "--verbose")...)
	cmd.Dir = dir
	cmd.Env = claudeEnv(home, apiURL, extraEnv...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	s := session{Stdout: stdout.String(), Stderr: stderr.String()}
	if ctx.Err() != nil {
		t.Fatalf("claude timed out\nstdout:\n%s\nstderr:\n%s", s.Stdout, s.Stderr)
	}
	if err != nil {
		t.Logf("claude exited with %v\nstderr:\n%s", err, s.Stderr)
	}
	s.Results = parseToolResults(t, stdout.Bytes())
	return s
}

// parseToolResults reads the tool_result blocks out of stream-json lines.
func parseToolResults(t testing.TB, out []byte) []toolResult {
	t.Helper()
	var results []toolResult
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var line struct {
			Type    string `json:"type"`
			Message struct {
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil || line.Type != "user" {
			continue
		}
		var blocks []struct {
			Type      string          `json:"type"`
			ToolUseID string          `json:"tool_use_id"`
			Content   json.RawMessage `json:"content"`
			IsError   bool            `json:"is_error"`
		}
		if json.Unmarshal(line.Message.Content, &blocks) != nil {
			continue
		}
		for _, b := range blocks {
			if b.Type == "tool_result" {
				results = append(results, toolResult{ToolUseID: b.ToolUseID, Content: claude.ToolResultText(b.Content), IsError: b.IsError})
			}
		}
	}
	return results
}
