package classify

import (
	"os"
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/sandbox"
	"github.com/oath-harness/oath-harness/internal/settings"
)

// TestMain keeps the boundary's facts independent of this machine: no managed settings are
// read from /etc, and the sandbox can start (tests that need it cannot say so themselves:
// the platform is package state).
func TestMain(m *testing.M) {
	sandbox.TestOnlyManaged = []string{}
	sandbox.TestOnlyPlatform = &sandbox.Platform{Available: true, Name: "linux", Why: "bubblewrap starts here (test)"}
	os.Exit(m.Run())
}

// Issue 29 item 2 (read in full): a single fail-closed fact, true only when every effect of
// the call was read.
func TestReadInFull(t *testing.T) {
	c := newTest(t, settings.Defaults())
	for _, tc := range []struct {
		cmd  string
		want bool
		why  string
	}{
		{"ls -la", true, ""},
		{"git status", true, ""},
		{"cd src && ls", true, ""},
		{"cat README.md > docs/copy.md", true, ""},
		{"rm -rf build", true, ""},
		{"git ls-files | xargs grep -n main", true, ""},
		{"sed -i s/a/b/ README.md", true, ""},
		{"sed -i s/a/b/ Makefile", false, "Makefile"}, // what make runs later is not read (issue 29 item 3)
		{"bash -c 'ls'", true, ""},
		{"x=1", true, ""},
		{"make clean", false, "make clean"},
		{"go test ./...", false, "go test"},
		{"npm install ./pkg", false, "npm install"},
		{"pip install -e .", false, "pip install"},
		{"python3 -c 'print(1)'", false, "python3 -c"},
		{"LD_PRELOAD=/tmp/x.so ls", false, "LD_PRELOAD"},
		{`eval "$X"`, false, "eval"},
		{`$CMD build`, false, ""},
		{`rm -rf "$X"`, false, ""},
		{`echo hi > "$F"`, false, `"$F"`},
		{"./configure", false, ""},
		{"! ! echo unparsed", false, "parser"}, // bash runs what the parser cannot read
		{"sudo rm build.log", false, "sudo"},
		{"curl https://example.com", false, ""},
	} {
		got := c.Classify(bash(tc.cmd))
		if got.ReadInFull == nil {
			t.Errorf("%s: read_in_full missing on a Bash call", tc.cmd)
			continue
		}
		if *got.ReadInFull != tc.want {
			t.Errorf("%s: read_in_full %v, want %v (unread %q)", tc.cmd, *got.ReadInFull, tc.want, got.Unread)
		}
		if !tc.want && (got.Unread == "" || !strings.Contains(got.Unread, tc.why)) {
			t.Errorf("%s: unread %q, want it to say %q", tc.cmd, got.Unread, tc.why)
		}
		if strings.Contains(got.Unread, "(rule") {
			t.Errorf("%s: unread %q names a rule id: it is read by people", tc.cmd, got.Unread)
		}
		if tc.want && got.Unread != "" {
			t.Errorf("%s: read in full but unread %q", tc.cmd, got.Unread)
		}
	}
	// Other tools carry neither fact: the rule is for Bash.
	if got := c.Classify(event("Read", map[string]string{"file_path": "/proj/README.md"})); got.ReadInFull != nil || got.Confined != nil {
		t.Errorf("a Read carries the boundary's facts: %+v", got)
	}
}

// Issue 29 item 2 (confined): the sandbox on in the settings Claude Code merges, able to
// start, no dangerouslyDisableSandbox, not an excluded command.
func TestConfined(t *testing.T) {
	local := `{"sandbox":{"enabled":true,"excludedCommands":["docker"]}}`
	for _, tc := range []struct {
		name  string
		files map[string]string
		input map[string]any
		want  bool
		why   string
		auto  bool
	}{
		{"no settings", nil, map[string]any{"command": "make"}, false, "no settings file", false},
		{"local settings on", map[string]string{".claude/settings.local.json": local}, map[string]any{"command": "make"}, true, "settings.local.json", true},
		{"user settings on", map[string]string{"~/.claude/settings.json": `{"sandbox":{"enabled":true,"autoAllowBashIfSandboxed":false}}`}, map[string]any{"command": "make"}, true, "inside", false},
		{"local off over user on", map[string]string{"~/.claude/settings.json": `{"sandbox":{"enabled":true}}`, ".claude/settings.local.json": `{"sandbox":{"enabled":false}}`}, map[string]any{"command": "make"}, false, "false in", false},
		{"broken project settings", map[string]string{".claude/settings.local.json": local, ".claude/settings.json": `{"sandbox":`}, map[string]any{"command": "make"}, false, "cannot tell", true},
		{"excluded", map[string]string{".claude/settings.local.json": local}, map[string]any{"command": "docker compose up"}, false, "excludedCommands", false},
		{"disabled by the call", map[string]string{".claude/settings.local.json": local}, map[string]any{"command": "make", "dangerouslyDisableSandbox": true}, false, "dangerouslyDisableSandbox", false},
		{"disabled with null", map[string]string{".claude/settings.local.json": local}, map[string]any{"command": "make", "dangerouslyDisableSandbox": nil}, false, "dangerouslyDisableSandbox", false},
		{"disabled with a string", map[string]string{".claude/settings.local.json": local}, map[string]any{"command": "make", "dangerouslyDisableSandbox": "false"}, false, "dangerouslyDisableSandbox", false},
		{"false is not disabled", map[string]string{".claude/settings.local.json": local}, map[string]any{"command": "make", "dangerouslyDisableSandbox": false}, true, "inside", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, dir := onDisk(t, tc.files)
			ev := event("Bash", tc.input)
			ev.Cwd = dir
			got := c.Classify(ev)
			if got.Confined == nil || *got.Confined != tc.want || !strings.Contains(got.ConfinedWhy, tc.why) || got.SandboxAutoAllow != tc.auto {
				t.Errorf("confined %v (%q), auto-allow %v; want %v with %q, auto-allow %v", got.Confined != nil && *got.Confined, got.ConfinedWhy, got.SandboxAutoAllow, tc.want, tc.why, tc.auto)
			}
		})
	}
}
