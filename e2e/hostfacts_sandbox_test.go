package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// requireSandbox skips (fails in CI) where Claude Code's Bash sandbox cannot start.
func requireSandbox(t *testing.T) {
	t.Helper()
	for _, p := range []string{"bwrap", "socat"} {
		if _, err := exec.LookPath(p); err != nil {
			skipUnlessRequired(t, p+" not installed (scripts/setup.sh installs bubblewrap and socat)")
		}
	}
	if err := exec.Command("bwrap", "--ro-bind", "/", "/", "true").Run(); err != nil {
		skipUnlessRequired(t, "bwrap cannot create a namespace here: "+err.Error())
	}
}

// allowEveryCall is a PreToolUse hook that allows every call: Claude Code's own permission
// rules then ask nothing, and only the sandbox decides what a Bash call can do.
var allowEveryCall = map[string]any{"PreToolUse": []any{map[string]any{"matcher": "*", "hooks": []any{map[string]any{
	"type": "command", "timeout": 30,
	"command": `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"fact check"}}'`}}}}}

// harnessFiles are the harness's own files in a project, as hooks/sandbox.json lists them.
func harnessFiles(t *testing.T) []string {
	t.Helper()
	var v struct {
		DenyWriteProject []string `json:"deny_write_project"`
	}
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "hooks", "sandbox.json"))
	if err != nil || json.Unmarshal(b, &v) != nil || len(v.DenyWriteProject) == 0 {
		t.Fatalf("hooks/sandbox.json: no deny_write_project (%v)", err)
	}
	return v.DenyWriteProject
}

// TestHostFactsSandboxDenyWrite measures, on the real Claude Code and its real sandbox, what the
// denyWrite entries install.sh writes for the harness's own files (state.md,
// .claude/current-phase.md, .claude/protected-files.txt, spelled ./PATH in the project's
// settings) do to a sandboxed Bash call, with the harness's hooks replaced by one that allows
// every call, so that only the sandbox decides (issue 29 item 1):
//   - an existing file cannot be overwritten, appended to, truncated, replaced by sed -i or cp,
//     deleted, or renamed (Read-only file system, or Device or resource busy: Claude Code binds
//     each one read-only);
//   - a missing one cannot be created (Permission denied; a link in its place: File exists):
//     Claude Code binds /dev/null over it for the command, so inside the sandbox it shows as a
//     character device, unreadable, and nothing is left behind; so install need not create the
//     files to protect them;
//   - .claude, which holds two of them, cannot be renamed or deleted (the binds keep it busy);
//   - other project files stay writable.
//
// It also records the sandbox's temp directory: TMPDIR is $TMPDIR/claude-<uid> of Claude Code's
// own environment (/tmp/claude-0 for root), writable, kept after the command and shared by every
// session of that user, while the rest of /tmp is read-only.
//
// And the fact behind the user scope's choice: the same relative entries in
// ~/.claude/settings.json protect nothing in the project (Claude Code reads them against
// ~/.claude), so install writes none there.
func TestHostFactsSandboxDenyWrite(t *testing.T) {
	cli := claudeCLI(t)
	requireSandbox(t)
	requireJQ(t)
	t.Run("project settings", func(t *testing.T) {
		t.Parallel()
		home, proj, outside := t.TempDir(), t.TempDir(), t.TempDir()
		mustWrite(t, filepath.Join(proj, "state.md"), "## config\nsecurity: strict\n")
		mustWrite(t, filepath.Join(proj, ".claude", "protected-files.txt"), "secrets/**\n")
		mustWrite(t, filepath.Join(proj, "other.md"), "other\n")
		if msg, code := installSh(t, home, "--claude", cli, proj); code != 0 {
			t.Fatalf("install: %d %s", code, msg)
		}
		settings := filepath.Join(proj, ".claude", "settings.local.json")
		v := readJSON(t, settings)
		deny, _ := v["sandbox"].(map[string]any)["filesystem"].(map[string]any)["denyWrite"].([]any)
		if fmt.Sprint(deny) != fmt.Sprint(harnessFiles(t)) {
			t.Fatalf("install wrote denyWrite %v, want %v", deny, harnessFiles(t))
		}
		v["hooks"] = allowEveryCall
		b, _ := json.MarshalIndent(v, "", "  ")
		mustWrite(t, settings, string(b))
		// (b) needs the phase file missing: install set it.
		if err := os.Remove(filepath.Join(proj, ".claude", "current-phase.md")); err != nil {
			t.Fatal(err)
		}
		probe := fmt.Sprintf("oath-e2e-%d-%s", os.Getpid(), filepath.Base(proj))
		calls := []struct {
			cmd     string
			refused bool
		}{
			{"echo 'security: admin' > state.md", true},              // (a) overwrite
			{"echo extra >> .claude/protected-files.txt", true},      // (a) append
			{"truncate -s0 state.md", true},                          // (a) truncate
			{"sed -i s/strict/admin/ state.md", true},                // (a) a new file renamed over it
			{"cp other.md state.md", true},                           // (a) copy over it
			{"echo building > .claude/current-phase.md", true},       // (b) create a missing one
			{"ln -s other.md .claude/current-phase.md", true},        // (b) a link in its place
			{"rm -f state.md", true},                                 // (c) delete
			{"rm -f .claude/protected-files.txt", true},              // (c) delete
			{"mv -f other.md state.md", true},                        // (c) rename over it
			{"mv state.md state-moved.md", true},                     // (c) rename it away
			{"mv .claude .claude2", true},                            // (c) rename its directory
			{"rm -rf .claude", true},                                 // (c) delete its directory
			{"echo written > other.txt", false},                      // other project files stay writable
			{`printf '%s' "$TMPDIR"`, false},                         // the sandbox's temp directory
			{`echo t > "$TMPDIR/` + probe + `"`, false},              // … is writable
			{"touch " + filepath.Join(outside, "outside.txt"), true}, // the rest of /tmp is not
		}
		script := make([]ToolCall, len(calls))
		for i, c := range calls {
			script[i] = bash(c.cmd)
		}
		api := newFakeAPI(t)
		api.SetScript(script...)
		s := runClaude(t, cli, proj, home, api.URL, "try the harness's files")
		if len(s.Results) != len(calls) {
			t.Fatalf("want %d tool results, got %d: %+v\n%s", len(calls), len(s.Results), s.Results, s.Stderr)
		}
		for i, c := range calls {
			r := s.Results[i]
			t.Logf("%-45s → error %v: %s", c.cmd, r.IsError, strings.ReplaceAll(r.Content, "\n", " | "))
			if r.IsError != c.refused {
				t.Errorf("%s: refused %v, want %v: %s", c.cmd, r.IsError, c.refused, r.Content)
			}
			if c.refused && !strings.Contains(r.Content, "Read-only file system") && !strings.Contains(r.Content, "Device or resource busy") &&
				!strings.Contains(r.Content, "Permission denied") && !strings.Contains(r.Content, "File exists") {
				t.Errorf("%s must be stopped by the sandbox, got: %s", c.cmd, r.Content)
			}
		}
		// What is on disk afterwards, whatever the calls said.
		for f, want := range map[string]string{"state.md": "## config\nsecurity: strict\n", ".claude/protected-files.txt": "secrets/**\n", "other.md": "other\n", "other.txt": "written\n"} {
			if b, err := os.ReadFile(filepath.Join(proj, f)); err != nil || string(b) != want {
				t.Errorf("%s: %q %v, want %q", f, b, err, want)
			}
		}
		for _, f := range []string{".claude/current-phase.md", "state-moved.md", ".claude2"} {
			if _, err := os.Lstat(filepath.Join(proj, f)); err == nil {
				t.Errorf("%s exists: a sandboxed call made it", f)
			}
		}
		// TMPDIR: Claude Code's own TMPDIR (claudeEnv passes the test's) plus claude-<uid>.
		base := os.Getenv("TMPDIR")
		if base == "" {
			base = "/tmp"
		}
		want := filepath.Join(base, fmt.Sprintf("claude-%d", os.Getuid()))
		if got := s.Results[len(calls)-3].Content; got != want {
			t.Errorf("TMPDIR inside the sandbox is %q, want %q", got, want)
		}
		if b, err := os.ReadFile(filepath.Join(want, probe)); err != nil || string(b) != "t\n" {
			t.Errorf("a file written in the sandbox's TMPDIR is kept after the command: %q %v", b, err)
		}
		os.Remove(filepath.Join(want, probe))
		if _, err := os.Stat(filepath.Join(outside, "outside.txt")); err == nil {
			t.Errorf("a sandboxed call wrote /tmp outside its TMPDIR")
		}
	})
	t.Run("user settings protect no project", func(t *testing.T) {
		t.Parallel()
		home, proj := t.TempDir(), t.TempDir()
		mustWrite(t, filepath.Join(proj, "state.md"), "## config\nsecurity: strict\n")
		var deny []any
		for _, f := range harnessFiles(t) {
			deny = append(deny, f)
		}
		b, _ := json.MarshalIndent(map[string]any{
			"sandbox": map[string]any{"enabled": true, "autoAllowBashIfSandboxed": true, "filesystem": map[string]any{"denyWrite": deny}},
			"hooks":   allowEveryCall,
		}, "", "  ")
		mustWrite(t, filepath.Join(home, ".claude", "settings.json"), string(b))
		api := newFakeAPI(t)
		api.SetScript(bash("echo 'security: admin' > state.md"))
		s := runClaude(t, cli, proj, home, api.URL, "write state.md")
		if len(s.Results) != 1 {
			t.Fatalf("want 1 tool result: %+v\n%s", s.Results, s.Stderr)
		}
		// If this fails, Claude Code now reads a relative path in the user's settings against
		// the project: install.sh could then write the list in the user scope too.
		if b, _ := os.ReadFile(filepath.Join(proj, "state.md")); string(b) != "security: admin\n" {
			t.Errorf("fact changed: ./state.md in ~/.claude/settings.json now protects the project's state.md (%q; %+v)", b, s.Results[0])
		}
	})
}
