package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// These tests run the hook scripts without Claude Code: the contract between Claude Code and a
// hook is stdin, stdout, stderr and the exit code, so that is what they check.

const readEvent = `{"session_id":"s-1","cwd":"/tmp","hook_event_name":"PreToolUse","permission_mode":"default","tool_name":"Read","tool_input":{"file_path":"/etc/hostname"},"tool_use_id":"toolu_1"}`

type hookRun struct {
	stdout, stderr string
	code           int
}

// runHook runs hook (a path) with stdin and env added to a minimal environment.
func runHook(t *testing.T, hook, stdin string, env ...string) hookRun {
	t.Helper()
	cmd := exec.Command(hook)
	cmd.Dir = t.TempDir()
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "CLAUDE_PROJECT_DIR=" + cmd.Dir, "HOME=" + cmd.Dir}, env...)
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := hookRun{stdout: stdout.String(), stderr: stderr.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return r
}

// fakeStages makes a directory of oath-* stand-ins: each passes stdin through, except those
// named in failing, which print one error line and exit 1 as a real stage does.
func fakeStages(t *testing.T, failing ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"classify", "gate", "trust", "decide", "audit"} {
		body := "#!/bin/sh\ncat\n"
		for _, f := range failing {
			if f == name {
				body = "#!/bin/sh\ncat >/dev/null\necho 'oath-" + name + ": something went wrong' >&2\nexit 1\n"
			}
		}
		if err := os.WriteFile(filepath.Join(dir, "oath-"+name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func hookPath(t *testing.T, name string) string { return filepath.Join(repoRoot(t), "hooks", name) }

func TestPreToolUseHookAnswersWithTheRealPipeline(t *testing.T) {
	r := runHook(t, hookPath(t, "pre-tool-use.sh"), readEvent, "OATH_BIN="+binaries(t))
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var out struct {
		HookSpecificOutput struct {
			HookEventName, PermissionDecision, PermissionDecisionReason string
		} `json:"hookSpecificOutput"`
		Decision *json.RawMessage `json:"decision"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, r.stdout)
	}
	h := out.HookSpecificOutput
	if h.HookEventName != "PreToolUse" || h.PermissionDecision == "" || h.PermissionDecisionReason == "" {
		t.Errorf("the answer needs hookEventName, a decision and its reason: %+v", h)
	}
	if out.Decision != nil {
		t.Errorf("no top-level decision key may appear: %s", r.stdout)
	}
}

// Any failure of the PreToolUse hook must be exit 2 (blocked): exit 1 lets the call through.
func TestHooksFailClosed(t *testing.T) {
	tests := []struct {
		name, hook, stdin string
		env               []string
		code              int
		stderr            string
	}{
		{"a failing stage blocks, with the stage's own message", "pre-tool-use.sh", readEvent,
			[]string{"OATH_BIN=" + fakeStages(t, "gate")}, 2, "oath-gate: something went wrong"},
		{"the last stage failing blocks", "pre-tool-use.sh", readEvent,
			[]string{"OATH_BIN=" + fakeStages(t, "audit")}, 2, "oath-audit: something went wrong"},
		{"a missing binary blocks", "pre-tool-use.sh", readEvent,
			[]string{"OATH_BIN=" + t.TempDir()}, 2, "No such file or directory"}, // whichever stage bash reports first
		{"empty input blocks", "pre-tool-use.sh", "", []string{"OATH_BIN=" + binaries(t)}, 2, "oath-"},
		{"a failing Post hook is reported as a blocking error", "post-tool-use.sh", readEvent,
			[]string{"OATH_BIN=" + fakeStages(t, "trust")}, 2, "oath-trust: something went wrong"},
		{"a failing phase switch blocks the prompt", "user-prompt-submit.sh", `{}`,
			[]string{"OATH_BIN=" + fakeStages(t, "decide")}, 2, "the prompt is blocked"},
		{"a failing Stop hook is a warning, not a reason to keep working", "stop.sh", `{}`,
			[]string{"OATH_BIN=" + fakeStages(t, "audit")}, 1, "the turn ends unrecorded"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runHook(t, hookPath(t, tt.hook), tt.stdin, tt.env...)
			if r.code != tt.code {
				t.Errorf("exit %d, want %d (stderr %q)", r.code, tt.code, r.stderr)
			}
			if strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, tt.stderr) || !strings.HasPrefix(r.stderr, "oath-harness ") {
				t.Errorf("want one line starting oath-harness and naming %q, got %q", tt.stderr, r.stderr)
			}
			if r.stdout != "" {
				t.Errorf("a failing hook prints nothing on stdout: %q", r.stdout)
			}
		})
	}
}

func TestPostHookPrintsNothing(t *testing.T) {
	r := runHook(t, hookPath(t, "post-tool-use.sh"), `{"hook_event_name":"PostToolUse","decision":"block"}`, "OATH_BIN="+fakeStages(t))
	if r.code != 0 || r.stdout != "" {
		t.Errorf("a Post hook's stdout must stay empty (Claude Code reads a decision there): exit %d, %q", r.code, r.stdout)
	}
}

// The binaries are found in $OATH_BIN, else in bin/ next to the hooks' real location (through a
// symlink), else on PATH.
func TestHooksFindTheBinaries(t *testing.T) {
	checkout := t.TempDir()
	if err := os.CopyFS(filepath.Join(checkout, "hooks"), os.DirFS(filepath.Join(repoRoot(t), "hooks"))); err != nil {
		t.Fatal(err)
	}
	marker := func(dir, word string) string {
		t.Helper()
		os.MkdirAll(dir, 0o755)
		for _, name := range []string{"classify", "gate", "trust", "decide", "audit"} {
			body := "#!/bin/sh\ncat\n"
			if name == "audit" {
				body = "#!/bin/sh\ncat >/dev/null\necho " + word + "\n"
			}
			os.WriteFile(filepath.Join(dir, "oath-"+name), []byte(body), 0o755)
		}
		return dir
	}
	onPath := marker(filepath.Join(t.TempDir(), "path"), "from-path")
	explicit := marker(filepath.Join(t.TempDir(), "explicit"), "from-oath-bin")
	link := filepath.Join(t.TempDir(), "hook.sh")
	os.Symlink(filepath.Join(checkout, "hooks", "pre-tool-use.sh"), link)
	path := "PATH=" + onPath + ":" + os.Getenv("PATH")

	if r := runHook(t, link, "{}", path); r.stdout != "from-path\n" {
		t.Errorf("without OATH_BIN or bin/: want PATH, got %+v", r)
	}
	marker(filepath.Join(checkout, "bin"), "from-checkout")
	if r := runHook(t, link, "{}", path); r.stdout != "from-checkout\n" {
		t.Errorf("through a symlink, bin/ of the checkout comes before PATH, got %+v", r)
	}
	if r := runHook(t, link, "{}", path, "OATH_BIN="+explicit); r.stdout != "from-oath-bin\n" {
		t.Errorf("OATH_BIN comes first, got %+v", r)
	}
}
