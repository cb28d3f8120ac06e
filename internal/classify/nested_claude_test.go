package classify

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/oath-harness/oath-harness/internal/risk"
)

// TestNestedClaude (issue 29 item 6): a claude started with the harness's variables, a start-up
// file, another configuration or home, or options that grant, skip or delegate permissions or
// load settings, plugins or MCP servers is an attempt to switch the harness off, however it is
// started; a plain claude, its version, and programs that merely look alike are not.
func TestNestedClaude(t *testing.T) {
	runCritical(t, []string{
		"OATH_BIN=/tmp/x claude -p hi", "OATH_HOME=/tmp/h claude -p hi", "env OATH_HOME=/tmp/x claude -p hi",
		"export BASH_ENV=/tmp/x; claude -p hi", "ENV=/tmp/x claude -p hi", "CLAUDE_CONFIG_DIR=/tmp/c claude", "HOME=/tmp/h claude -p hi",
		"XDG_STATE_HOME=/tmp/forged claude -p hi", "PATH=/tmp/evil:$PATH claude -p hi", "sh -c 'OATH_BIN=/x claude -p y'",
		"nohup claude --allowedTools Bash -p hi &", "claude --allowed-tools=Bash -p hi", "timeout 60 claude --permission-mode acceptEdits -p x",
		"claude --permission-mode=bypassPermissions -p x", "claude --permission-mode dontAsk -p x", "exec claude --setting-sources user -p hi",
		"claude --settings '{\"disableAllHooks\":true}' -p x", "claude --mcp-config m.json -p x", "claude --plugin-dir ./p -p x",
		"claude --dangerously-skip-permissions -p hi", "claude --permission-prompt-tool mcp__x__approve -p hi",
		`claude --agents '{"r":{"description":"x","prompt":"y","permissionMode":"bypassPermissions"}}' -p hi`,
		`claude --agents "$A" -p hi`, "claude --permission-mode \"$M\" -p hi",
		"npx -y @anthropic-ai/claude-code@2.1.0 --dangerously-skip-permissions -p hi", "npx @anthropic-ai/claude-code --allowedTools Bash -p x",
		"pnpm dlx @anthropic-ai/claude-code --settings s.json", "OATH_BIN=/x npx @anthropic-ai/claude-code -p hi",
		"node ~/.cache/oath-harness/claude-code/node_modules/@anthropic-ai/claude-code/cli.js --settings x.json -p hi",
		"env -i claude -p hi", "env -u OATH_HOME claude -p hi",
	})
	runCases(t, []tcase{
		{"claude -p 'what does main.go do?'", H, H, ""}, {"claude --version", L, L, ""}, {"claude --permission-mode plan -p x", H, H, ""},
		{"npx @anthropic-ai/claude-code -p hi", H, H, ""}, {"npx @anthropic-ai/claude-code --version", L, H, ""}, // npx downloads: high as any npx,
		{"claude --model sonnet -p 'explain' --output-format json", H, H, ""},
		{"node src/index.js", L, M, ""}, {"HOME=/tmp/h npm test", L, M, ""}, {"env FOO=1 go test ./...", L, M, ""},
	})
}

// TestStashTakesHarnessFiles (issue 29 item 6): git stash after git add -A, or with the
// harness's registration staged or changed, takes it out of the working tree: critical. A stash
// of other work is not.
func TestStashTakesHarnessFiles(t *testing.T) {
	dir, git, write := newRepo(t)
	write("main.go", "package main\n")
	git("add", ".")
	git("commit", "-qm", "i")
	write("main.go", "package main // changed\n")
	if err := os.MkdirAll(filepath.Join(dir, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(".claude/settings.local.json", `{"hooks":{}}`)
	c := newAt(t, dir)
	cases := []struct {
		cmd  string
		crit bool
	}{
		{"git add -A && git stash", true},
		{"git add . && git stash push", true},
		{"git add .claude && git stash save wip", true},
		{"git add --all; git stash -q", true},
		{"git stash -u", true},
		{"git stash", false}, // the registration is untracked: a plain stash leaves it
		{"git add main.go && git stash", false},
		{"git stash push main.go", false},
		{"git stash list", false},
	}
	for _, tc := range cases {
		got := c.Classify(bashAt(dir, tc.cmd))
		if crit := got.Risk == risk.Critical; crit != tc.crit {
			t.Errorf("%s: %s, want critical %v; reasons %+v", tc.cmd, got.Risk, tc.crit, got.Reasons)
		}
	}
	// Once staged (by an earlier call), a plain stash takes it.
	git("add", ".claude/settings.local.json")
	if got := c.Classify(bashAt(dir, "git stash")); got.Risk != risk.Critical {
		t.Errorf("git stash with the registration staged: %s, want critical; reasons %+v", got.Risk, got.Reasons)
	}
}
