package classify

import (
	"encoding/json"
	"testing"

	"github.com/oath-harness/oath-harness/internal/risk"
	"github.com/oath-harness/oath-harness/internal/settings"
)

// TestStartupFiles: shell start-up, Claude Code's host settings and the harness's variables.
func TestStartupFiles(t *testing.T) {
	runCases(t, []tcase{
		{"echo x >> ~/.bashrc", C, C, ""}, {"echo x >> ~/.zshrc", C, C, ""}, {"echo x > ~/.profile", C, C, ""},
		{"echo x > ~/.bash_profile", C, C, ""}, {"echo x > ~/.bash_login", C, C, ""}, {"echo x > ~/.zshenv", C, C, ""},
		{"echo x > ~/.zprofile", C, C, ""}, {"echo x > ~/.zlogin", C, C, ""}, {"echo x > ~/.config/fish/config.fish", C, C, ""},
		{"echo x > ~/.config/fish/conf.d/oath.fish", C, C, ""}, {"echo x > /etc/profile", C, C, ""},
		{"echo x > /etc/profile.d/z.sh", C, C, ""}, {"echo x > /etc/bash.bashrc", C, C, ""}, {"echo x > /etc/environment", C, C, ""},
		{"echo x > /etc/zsh/zshrc", C, C, ""}, {"echo '{}' > /etc/claude-code/managed-settings.json", C, C, ""},
		{"echo '{}' > '/Library/Application Support/ClaudeCode/managed-settings.json'", C, C, ""},
		{"echo '{}' > ~/.claude.json", C, C, ""}, {"echo '{}' > ~/.claude/settings.local.json", C, C, ""},
		{"rm -rf ~/.config/fish", C, C, ""}, {"echo 'export OATH_BIN=/tmp/evil' >> ~/.config/fish/functions/x.fish", C, C, ""},
		{"echo 'OATH_HOME=/tmp/h' > .envrc", C, C, ""}, {"printf 'setenv CLAUDE_PROJECT_DIR /tmp\\n' >> /tmp/x.cshrc", C, C, ""},
		{"echo x > ~/.vimrc", H, H, ""}, {"echo 'OATH_HOME=/x' > notes.md", M, M, ""}, {"cat ~/.bashrc", L, L, ""},
	})
	c := newTest(t, settings.Defaults())
	for _, tc := range []struct {
		in   string
		want risk.Level
	}{
		{`{"file_path":"/home/u/.local/env","content":"export OATH_BIN=/tmp/evil\n"}`, C},
		{`{"file_path":"/proj/.envrc","content":"export OATH_HOOKS_DIR=/tmp\n"}`, C},
		{`{"file_path":"/proj/README.md","content":"run OATH_HOME=/x oath-trust show\n"}`, M},
		{`{"file_path":"/etc/claude-code/managed-settings.json","content":"{}"}`, C},
	} {
		if got := c.Classify(event("Write", json.RawMessage(tc.in))); got.Risk != tc.want {
			t.Errorf("Write %s: %s, want %s; %+v", tc.in, got.Risk, tc.want, got.Reasons)
		}
	}
}

// TestKeysAndUserConfig: keys, Claude Code's user settings and the project's MCP servers are
// critical writes, and git's user config (issue 29: a start-up file of every later git); agents and commands high; losing .git or the keys critical.
func TestKeysAndUserConfig(t *testing.T) {
	runCases(t, []tcase{
		{"echo k >> ~/.ssh/authorized_keys", C, C, ""}, {"cp k.pub /home/u/.ssh/authorized_keys", C, C, ""},
		{"echo x > ~/.gnupg/gpg.conf", C, C, ""}, {"echo x > ~/.claude/CLAUDE.md", C, C, ""}, {"cp a.md ~/.claude/agents/", C, C, ""},
		{"echo '{}' > .mcp.json", C, C, ""}, {"rm -rf .git", C, C, ""}, {"rm -rf /proj/.git", C, C, ""}, {"rm -rf ~/.ssh", C, C, ""},
		{"rm -rf ~/.gnupg", C, C, ""}, {"rm -rf ~/.s*", C, C, ""}, {"echo x >> ~/.gitconfig", C, C, ""},
		{"echo x > ~/.config/git/config", C, C, ""}, {"echo x > .claude/agents/reviewer.md", H, H, ""},
		{"echo x > .claude/commands/ship.md", H, H, ""}, {"rm -rf .git/rebase-merge", H, H, ""}, {"cat ~/.ssh/config", H, H, ""},
		{"ls ~/.claude", L, L, ""},
	})
	runToolLevels(t, "Write", "file_path", map[string]string{"content": "x"}, []levelCase{
		{"/home/u/.ssh/authorized_keys", "critical", "critical"}, {"~/.claude/CLAUDE.md", "critical", "critical"},
		{"/home/u/.claude/commands/x.md", "critical", "critical"}, {"/proj/.mcp.json", "critical", "critical"},
		{"/home/u/.gitconfig", "critical", "critical"}, {"/proj/.claude/agents/x.md", "high", "high"},
		{"/proj/.claude/commands/x.md", "high", "high"}, {"/proj/src/x.go", "medium", "medium"},
	})
}
