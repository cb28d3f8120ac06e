package classify

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/domain"
	"github.com/oath-harness/oath-harness/internal/risk"
	"github.com/oath-harness/oath-harness/internal/settings"
)

// TestToolKinds: every tool has a domain and a risk.
func TestToolKinds(t *testing.T) {
	c := newTest(t, settings.Defaults())
	cases := []struct {
		ev       *claude.Event
		min, max risk.Level
		domain   domain.Domain
	}{
		{event("Read", map[string]string{"file_path": "/proj/main.go"}), L, L, kernel.FileRead},
		{event("Read", map[string]string{"file_path": "~/.ssh/id_ed25519"}), H, H, kernel.FileRead},
		{event("Read", map[string]string{"file_path": "oath-harness/state/trust-scores.json"}), L, L, kernel.FileRead},
		{event("Glob", map[string]string{"pattern": "**/*.go"}), L, L, kernel.FileRead},
		{event("Grep", map[string]string{"pattern": "TODO", "path": "src"}), L, L, kernel.FileRead},
		{event("Write", map[string]string{"file_path": "/proj/main.go", "content": "x"}), M, M, kernel.FileWrite},
		{event("Write", map[string]string{"file_path": "/proj/docs/guide.md", "content": "x"}), M, M, kernel.DocsWrite},
		{event("Edit", map[string]string{"file_path": "docs/a/b.md"}), M, M, kernel.DocsWrite},
		{event("Edit", map[string]string{"file_path": "/proj/oath-harness/config/settings.json"}), C, C, kernel.FileWrite},
		{event("Write", map[string]string{"file_path": "/proj/oath-harness/../oath-harness/state/x"}), C, C, ""},
		{event("MultiEdit", map[string]string{"file_path": "/proj/.claude/settings.json"}), C, C, ""},
		{event("Write", map[string]string{"file_path": "/proj/.claude/settings.local.json"}), C, C, ""},
		{event("Write", map[string]string{"file_path": "~/.claude/settings.json"}), C, C, ""},
		{event("NotebookEdit", map[string]string{"notebook_path": "/proj/.claude/current-phase.md"}), C, C, ""},
		{event("Write", map[string]string{"file_path": "/proj/docs/../.claude/protected-files.txt"}), C, C, ""},
		{event("Write", map[string]string{"file_path": "/etc/hosts"}), H, H, kernel.FileWrite},
		{event("Write", map[string]string{"file_path": "/home/u/.bashrc"}), C, C, kernel.FileWrite},
		{event("Write", map[string]string{"file_path": "/home/u/.vimrc"}), H, H, kernel.FileWrite},
		{event("Write", map[string]string{"file_path": "/proj/.git/hooks/pre-commit"}), H, H, kernel.FileWrite},
		{event("Write", map[string]string{"content": "x"}), C, C, ""},
		{event("WebFetch", map[string]string{"url": "https://go.dev/doc", "prompt": "x"}), M, M, kernel.Web},
		{event("WebFetch", map[string]string{"url": "https://broker.example/api/trade"}), C, C, kernel.Web},
		{event("WebSearch", map[string]string{"query": "go testscript"}), L, L, kernel.Web},
		{event("mcp__db__query", map[string]string{"sql": "select 1"}), M, M, kernel.MCP},
		{event("Task", map[string]string{"prompt": "x"}), M, M, kernel.Global},
		{event("", nil), C, C, kernel.Global}, // malformed: a tool event names its tool
		{&claude.Event{HookEventName: claude.PreToolUse, ToolName: "Bash", ToolInput: json.RawMessage(`"rm -rf /"`)}, C, C, kernel.ShellExec},
		{&claude.Event{HookEventName: claude.PreToolUse, ToolName: "Bash", ToolInput: json.RawMessage(`{"command":""}`)}, L, L, kernel.ShellExec},
	}
	for i, tc := range cases {
		check(t, c.Classify(tc.ev), tc.ev.ToolName+" #"+itoa(i), tc.min, tc.max, tc.domain)
	}
}

// TestUnreadableInput: a Bash call or a write whose input cannot be read fails closed.
func TestUnreadableInput(t *testing.T) {
	runToolsCritical(t, "unreadable_input", []toolInput{
		{"Bash", `{}`}, {"Bash", `{"command":null}`}, {"Bash", `{"command":5}`}, {"Bash", `{"command":["ls"]}`}, {"Bash", `"ls"`},
		{"Write", `{"content":"x"}`}, {"Write", `{"file_path":null}`}, {"Edit", `{"file_path":7}`}, {"MultiEdit", `{}`},
		{"NotebookEdit", `{"new_source":"x"}`}, {"Write", `[]`},
	})
}

// TestReadInput: Read, NotebookRead and LS name their file in file_path, notebook_path or path
// (decoded once); a path that is not a string is ignored, a bad file_path fails the input.
func TestReadInput(t *testing.T) {
	c := newTest(t, settings.Defaults())
	for _, tc := range []struct {
		tool, in string
		want     risk.Level
		rule     string
	}{
		{"Read", `{"file_path":"src/a.go"}`, L, "read_only"}, {"LS", `{"path":"src"}`, L, "read_only"},
		{"NotebookRead", `{"notebook_path":"n.ipynb"}`, L, "read_only"}, {"Read", `{"file_path":"a","path":5}`, L, "read_only"},
		{"LS", `{"path":"~/.ssh/config"}`, H, "credential_read"}, {"Read", `{"file_path":7,"path":"a"}`, H, "unreadable_input"},
		{"LS", `{"path":5}`, H, "unreadable_input"}, {"Read", `{}`, H, "unreadable_input"}, {"Read", `[]`, H, "unreadable_input"},
	} {
		got := c.Classify(event(tc.tool, json.RawMessage(tc.in)))
		if got.Risk != tc.want || got.Reasons[0].Rule != tc.rule {
			t.Errorf("%s %s: %s %+v, want %s %s", tc.tool, tc.in, got.Risk, got.Reasons, tc.want, tc.rule)
		}
	}
}

// TestToolInputs: unknown tools, variants of built-in names, events without a tool, and MCP
// tools' protected paths, argv lists and write targets.
func TestToolInputs(t *testing.T) {
	c := newTest(t, settings.Defaults())
	for _, tc := range []struct {
		tool, in string
		min, max string
		writes   []string
	}{
		{"write", `{"file_path":"/proj/.claude/settings.json","content":"{}"}`, "critical", "critical", nil},
		{"WRITE", `{"file_path":"/proj/notes.txt","content":"x"}`, "critical", "critical", nil},
		{"Write ", `{"file_path":"/proj/notes.txt","content":"x"}`, "critical", "critical", nil},
		{"bash", `{"command":"ls"}`, "critical", "critical", nil},
		{"Web_Fetch", `{"url":"https://go.dev"}`, "critical", "critical", nil},
		{"", `{"command":"ls"}`, "critical", "critical", nil},
		{"Frobnicate", `{"command":"rm -rf ~"}`, "critical", "critical", nil},
		{"Frobnicate", `{"path":".claude/settings.json"}`, "critical", "critical", nil},
		{"Frobnicate", `{"command":"ls -la"}`, "medium", "medium", nil},
		{"Frobnicate", `{}`, "medium", "medium", nil},
		{"Task", `{"prompt":"fix .claude/settings.json"}`, "medium", "medium", nil},
		{"mcp__x__y", `{"path":"/proj/.claude/settings.json","content":"{}"}`, "critical", "critical", nil},
		{"mcp__x__y", `{"nested":{"deep":["oath-harness/state/trust-scores.json"]}}`, "critical", "critical", nil},
		{"mcp__x__y", `{"args":["rm","-rf","/"]}`, "critical", "critical", nil},
		{"mcp__x__y", `{"argv":["curl","https://evil.example"]}`, "critical", "critical", nil},
		{"mcp__x__y", `{"cmd":["sh","-c","rm -rf ~"]}`, "critical", "critical", nil},
		{"mcp__x__y", `{"command":"rm","args":["-rf","~"]}`, "critical", "critical", nil},
		{"mcp__proc__spawn", `{"command":"ls","args":["-la"]}`, "low", "medium", nil},
		{"mcp__x__y", `{"args":["--verbose","x"]}`, "medium", "medium", nil},
		{"mcp__x__y", `{"query":"see src/x.go and docs"}`, "medium", "medium", nil},
		{"mcp__filesystem__write_file", `{"path":"/proj/src/x.go","content":"package x"}`, "medium", "medium", []string{"/proj/src/x.go"}},
		{"mcp__filesystem__write_file", `{"path":"src/x.go","content":"a/b"}`, "medium", "medium", []string{"/proj/src/x.go"}},
		{"mcp__filesystem__write_file", `{"path":"/proj/state.md","content":"security: admin"}`, "critical", "critical", []string{"/proj/state.md"}}, // the Core Contract's state (issue 29)
		{"mcp__fs__move_file", `{"source":"/proj/a.go","destination":"/proj/b.go"}`, "medium", "medium", []string{"/proj/a.go", "/proj/b.go"}},
		{"mcp__fs__editFile", `{"file":"a.go","edits":[]}`, "medium", "medium", []string{"/proj/a.go"}},
		{"mcp__fs__write_file", `{"path":"/home/u/.ssh/authorized_keys","content":"ssh-ed25519 x"}`, "critical", "critical", []string{"/home/u/.ssh/authorized_keys"}},
		{"mcp__fs__write_file", `{"path":"/etc/hosts","content":"x"}`, "high", "high", []string{"/etc/hosts"}},
		{"mcp__fs__read_file", `{"path":"/proj/src/x.go"}`, "medium", "medium", []string{}},
		{"mcp__cfg__get_settings", `{"path":"/proj/src/x.go"}`, "medium", "medium", []string{}},
	} {
		ev := event(tc.tool, json.RawMessage(tc.in))
		got := c.Classify(ev)
		if got.Risk.Value() < riskOf(tc.min).Value() || got.Risk.Value() > riskOf(tc.max).Value() {
			t.Errorf("%q %s: %s, want %s..%s; reasons %+v", tc.tool, tc.in, got.Risk, tc.min, tc.max, got.Reasons)
		}
		if tc.writes != nil {
			w := slices.Clone(got.Paths.Write)
			slices.Sort(w)
			if !slices.Equal(w, tc.writes) {
				t.Errorf("%q %s: paths.write %v, want %v", tc.tool, tc.in, got.Paths.Write, tc.writes)
			}
		}
	}
	// A PostToolUse without a tool is as malformed as a PreToolUse.
	ev := &claude.Event{HookEventName: claude.PostToolUse, ToolInput: json.RawMessage(`{}`), Cwd: testProject}
	if got := c.Classify(ev); got.Risk != C {
		t.Errorf("PostToolUse without a tool: %s, want critical", got.Risk)
	}
}

// TestToolCatastrophes: MCP and built-in tools that write to the harness or run a catastrophe
// are critical whatever their name (red-team spellings).
func TestToolCatastrophes(t *testing.T) {
	runToolsCritical(t, "", []toolInput{
		{"mcp__filesystem__write_file", `{"path":"/proj/.claude/settings.json","content":"{}"}`},
		{"mcp__fs__edit_file", `{"path":".claude/settings.json","edits":[]}`},
		{"mcp__fs__move_file", `{"source":"/tmp/x","destination":"/proj/oath-harness/state/trust-scores.json"}`},
		{"mcp__shell__run", `{"command":"rm -rf ~"}`}, {"mcp__x__execute_command", `{"cmd":"rm -rf /"}`},
		{"Write", `{"file_path":"/proj/docs/../oath-harness/state/x","content":"{}"}`},
		{"NotebookEdit", `{"notebook_path":"/proj/oath-harness/state/x.ipynb","new_source":"x"}`},
		{"Write", `{"file_path":"/opt/oath/hooks/pre.sh","content":"x"}`},
	})
}
