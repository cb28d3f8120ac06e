package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
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
	r, _ := runHookWithin(t, time.Minute, hook, stdin, env...)
	return r
}

// runHookWithin is runHook that kills the hook after limit, and says how long it ran.
func runHookWithin(t *testing.T, limit time.Duration, hook, stdin string, env ...string) (hookRun, time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	env, args := hookArgs(env)
	cmd := exec.CommandContext(ctx, hook, args...)
	cmd.WaitDelay = time.Second // a stage left behind must not hold the test on its pipes
	cmd.Dir = t.TempDir()
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "CLAUDE_PROJECT_DIR=" + cmd.Dir, "HOME=" + cmd.Dir}, env...)
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	if ctx.Err() != nil {
		t.Fatalf("%s still running after %v (Claude Code would let the call through): stderr %q", filepath.Base(hook), limit, stderr.String())
	}
	r := hookRun{stdout: stdout.String(), stderr: stderr.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return r, took
}

// hookArgs turns OATH_BIN=DIR and OATH_HOME=DIR of env into the hooks' arguments --bin DIR and
// --home DIR, the way install.sh and hooks/plugin.sh pass them: the hooks take neither from the
// environment.
func hookArgs(env []string) (rest, args []string) {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "OATH_BIN="); ok {
			args = append(args, "--bin", v)
		} else if v, ok := strings.CutPrefix(kv, "OATH_HOME="); ok {
			args = append(args, "--home", v)
		} else {
			rest = append(rest, kv)
		}
	}
	return rest, args
}

// fakeStages makes a directory of oath-* stand-ins: each passes stdin through, except those
// named in failing, which print one error line and exit 1 as a real stage does.
func fakeStages(t *testing.T, failing ...string) string {
	t.Helper()
	bodies := map[string]string{}
	for _, f := range failing {
		bodies[f] = "cat >/dev/null\necho 'oath-" + f + ": something went wrong' >&2\nexit 1"
	}
	return fakeStagesWith(t, bodies)
}

// fakeStagesWith makes a directory of oath-* stand-ins running the sh bodies given by stage
// name; the others pass stdin through.
func fakeStagesWith(t *testing.T, bodies map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"classify", "gate", "trust", "decide", "audit"} {
		body, ok := bodies[name]
		if !ok {
			body = "cat"
		}
		if err := os.WriteFile(filepath.Join(dir, "oath-"+name), []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// hooks are every hook with the exit code of its failures: Stop's is 1, because exit 2 on Stop
// makes Claude keep working; every other hook blocks (2).
var hooks = []struct {
	name, effect string
	code         int
}{
	{"pre-tool-use.sh", "the call is blocked", 2},
	{"post-tool-use.sh", "the outcome is not learned from", 2},
	{"session-start.sh", "the session starts without a trust update", 2},
	{"user-prompt-submit.sh", "the prompt is blocked", 2},
	{"stop.sh", "the turn ends unrecorded", 1},
	{"session-end.sh", "the session end is unrecorded", 2},
}

// oneLine fails t unless stderr is one line starting "oath-harness " and holding want.
func oneLine(t *testing.T, stderr, want string) {
	t.Helper()
	if strings.Count(stderr, "\n") != 1 || !strings.HasSuffix(stderr, "\n") || !strings.HasPrefix(stderr, "oath-harness ") || !strings.Contains(stderr, want) {
		t.Errorf("want one line starting oath-harness and naming %q, got %q", want, stderr)
	}
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

		// What is reported is the first stage in pipeline order that failed: the later ones fail
		// only for want of input, whichever of them wrote first.
		{"the first failing stage is named, not a later one", "pre-tool-use.sh", readEvent,
			[]string{"OATH_BIN=" + fakeStagesWith(t, map[string]string{
				"gate":  "cat >/dev/null; sleep 0.3; echo 'oath-gate: the first failure' >&2; exit 1",
				"trust": "echo 'oath-trust: no input' >&2; exit 1",
				"audit": "echo 'oath-audit: no input' >&2; exit 1"})},
			2, "oath-gate: the first failure"},
		{"a stage killed by a closed pipe (SIGPIPE) is not the cause", "pre-tool-use.sh", readEvent,
			[]string{"OATH_BIN=" + fakeStagesWith(t, map[string]string{
				"classify": "echo 'oath-classify: broken pipe' >&2; exit 141",
				"gate":     "echo 'oath-gate: the cause' >&2; exit 1"})},
			2, "oath-gate: the cause"},
		{"a failing stage that says nothing is named with its status", "pre-tool-use.sh", readEvent,
			[]string{"OATH_BIN=" + fakeStagesWith(t, map[string]string{"decide": "cat >/dev/null; exit 3"})},
			2, "oath-decide exited with status 3"},
		{"settings.json a directory: oath-classify's message, the first stage to read it", "pre-tool-use.sh", readEvent,
			[]string{"OATH_BIN=" + binaries(t), "OATH_HOME=" + dirAt(t, "config/settings.json")}, 2, "oath-classify: "},

		// An event that oath-decide does not answer must not fall through to Claude Code's own
		// permission flow with exit 0.
		{"an event without hook_event_name blocks", "pre-tool-use.sh", `{"session_id":"s-1","tool_name":"Read","tool_input":{"file_path":"/etc/hostname"}}`,
			[]string{"OATH_BIN=" + binaries(t)}, 2, "oath-"},
		{"a PostToolUse event sent to the PreToolUse hook blocks", "pre-tool-use.sh", strings.Replace(readEvent, `"PreToolUse"`, `"PostToolUse"`, 1),
			[]string{"OATH_BIN=" + binaries(t)}, 2, "oath-"},
		{"stages that succeed without an answer block", "pre-tool-use.sh", readEvent,
			[]string{"OATH_BIN=" + fakeStages(t)}, 2, "no hookSpecificOutput"},
		{"a raw \\x1e in the answer blocks (it is not JSON)", "pre-tool-use.sh", readEvent,
			[]string{"OATH_BIN=" + fakeStagesWith(t, map[string]string{
				"audit": `cat >/dev/null; printf '%s\036%s\036%s\n' '{"hookSpecificOutput":1}' '0 0 0 0 0' '{"hookSpecificOutput":2}'`})},
			2, "raw"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runHook(t, hookPath(t, tt.hook), tt.stdin, tt.env...)
			if r.code != tt.code {
				t.Errorf("exit %d, want %d (stderr %q)", r.code, tt.code, r.stderr)
			}
			oneLine(t, r.stderr, tt.stderr)
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

// The binaries are found where the hook's command line says (--bin), else in bin/ next to the
// hooks' real location (through a symlink); never through OATH_BIN or PATH, which a nested
// session started by the agent could set (issue 29 item 6).
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
				body = "#!/bin/sh\ncat >/dev/null\necho '{\"hookSpecificOutput\":\"" + word + "\"}'\n"
			}
			os.WriteFile(filepath.Join(dir, "oath-"+name), []byte(body), 0o755)
		}
		return dir
	}
	onPath := marker(filepath.Join(t.TempDir(), "path"), "from-path")
	fromEnv := marker(filepath.Join(t.TempDir(), "env"), "from-oath-bin")
	explicit := marker(filepath.Join(t.TempDir(), "explicit"), "from-command-line")
	link := filepath.Join(t.TempDir(), "hook.sh")
	os.Symlink(filepath.Join(checkout, "hooks", "pre-tool-use.sh"), link)
	path := "PATH=" + onPath + ":" + os.Getenv("PATH")
	run := func(args []string, env ...string) hookRun {
		cmd := exec.Command(link, args...)
		cmd.Dir = t.TempDir()
		cmd.Env = append([]string{path, "CLAUDE_PROJECT_DIR=" + cmd.Dir, "HOME=" + cmd.Dir}, env...)
		cmd.Stdin = strings.NewReader("{}")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		r := hookRun{stdout: stdout.String(), stderr: stderr.String()}
		if ee, ok := err.(*exec.ExitError); ok {
			r.code = ee.ExitCode()
		}
		return r
	}

	if r := run(nil, "OATH_BIN="+fromEnv); r.code != 2 || !strings.Contains(r.stderr, "no oath-* binaries") {
		t.Errorf("without --bin or bin/, neither OATH_BIN nor PATH: want a block, got %+v", r)
	}
	marker(filepath.Join(checkout, "bin"), "from-checkout")
	if r := run(nil, "OATH_BIN="+fromEnv); r.stdout != `{"hookSpecificOutput":"from-checkout"}`+"\n" {
		t.Errorf("through a symlink, bin/ of the checkout, not OATH_BIN: got %+v", r)
	}
	if r := run([]string{"--bin", explicit}, "OATH_BIN="+fromEnv); r.stdout != `{"hookSpecificOutput":"from-command-line"}`+"\n" {
		t.Errorf("--bin comes first, got %+v", r)
	}
	for _, args := range [][]string{{"--bin", "relative/bin"}, {"--home"}, {"--verbose"}} {
		if r := run(args); r.code != 2 {
			t.Errorf("%q: want a block, got %+v", args, r)
		}
	}
}

// dirAt makes a harness root (OATH_HOME) with a directory at rel, where a file belongs.
func dirAt(t *testing.T, rel string) string {
	t.Helper()
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, rel), 0o755); err != nil {
		t.Fatal(err)
	}
	return root
}

// No exit code and no wording of a failure comes from the environment: a process that can set
// the environment of Claude Code must not turn "blocked" into "allowed" (exit 0).
func TestHooksTakeNoFailureCodeFromTheEnvironment(t *testing.T) {
	failing := fakeStages(t, "classify", "gate", "trust", "decide", "audit")
	for _, h := range hooks {
		t.Run(h.name, func(t *testing.T) {
			r := runHook(t, hookPath(t, h.name), readEvent, "OATH_BIN="+failing,
				"OATH_FAIL_CODE=0", "OATH_FAIL_EFFECT=the call goes ahead", "oath_fail_code=0", "oath_fail_effect=the call goes ahead")
			if r.code != h.code {
				t.Errorf("exit %d, want the hook's own %d", r.code, h.code)
			}
			oneLine(t, r.stderr, h.effect)
			if strings.Contains(r.stderr, "goes ahead") {
				t.Errorf("the effect came from the environment: %q", r.stderr)
			}
		})
	}
}

// A hook whose lib.sh is missing fails with its own code and one line (bash's own complaint
// about a missing file is not printed).
func TestHooksWithoutLibShFailInOneLine(t *testing.T) {
	for _, h := range hooks {
		t.Run(h.name, func(t *testing.T) {
			dir := t.TempDir()
			b, err := os.ReadFile(hookPath(t, h.name))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, h.name), b, 0o755); err != nil {
				t.Fatal(err)
			}
			for _, lib := range []func() error{
				func() error { return nil }, // missing
				func() error { return os.Mkdir(filepath.Join(dir, "lib.sh"), 0o755) },
			} {
				if err := lib(); err != nil {
					t.Fatal(err)
				}
				r := runHook(t, filepath.Join(dir, h.name), readEvent, "OATH_BIN="+fakeStages(t))
				if r.code != h.code || r.stdout != "" {
					t.Errorf("exit %d, stdout %q; want exit %d and nothing on stdout", r.code, r.stdout, h.code)
				}
				if strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, "cannot load "+filepath.Join(dir, "lib.sh")) || !strings.Contains(r.stderr, h.effect) {
					t.Errorf("want one line naming lib.sh and %q, got %q", h.effect, r.stderr)
				}
			}
		})
	}
}

// Stages that succeed keep their warnings on stderr; the answer is stdout, unchanged.
func TestHookPassesWarningsAndTheAnswerThrough(t *testing.T) {
	bin := fakeStagesWith(t, map[string]string{
		"gate":  "echo 'oath-gate: warning: something to know' >&2; cat",
		"audit": `cat >/dev/null; echo '{"hookSpecificOutput":{"permissionDecision":"ask"}}'`,
	})
	r := runHook(t, hookPath(t, "pre-tool-use.sh"), readEvent, "OATH_BIN="+bin)
	if r.code != 0 || r.stdout != `{"hookSpecificOutput":{"permissionDecision":"ask"}}`+"\n" || r.stderr != "oath-gate: warning: something to know\n" {
		t.Errorf("got %+v", r)
	}
}

// lib.sh exports OATH_HOOKS_DIR, the absolute real directory of the running hooks, so that
// oath-classify protects them wherever the binaries come from; the environment cannot move it.
func TestHooksExportTheirDirectory(t *testing.T) {
	checkout := t.TempDir()
	hooksDir := filepath.Join(checkout, "hooks")
	if err := os.CopyFS(hooksDir, os.DirFS(filepath.Join(repoRoot(t), "hooks"))); err != nil {
		t.Fatal(err)
	}
	bin := fakeStagesWith(t, map[string]string{
		"audit": `cat >/dev/null; printf '{"hookSpecificOutput":"%s"}\n' "$OATH_HOOKS_DIR"`,
	})
	want := `{"hookSpecificOutput":"` + hooksDir + `"}` + "\n"
	link := filepath.Join(t.TempDir(), "hook.sh")
	if err := os.Symlink(filepath.Join(hooksDir, "pre-tool-use.sh"), link); err != nil {
		t.Fatal(err)
	}
	for _, hook := range []string{filepath.Join(hooksDir, "pre-tool-use.sh"), link} {
		r := runHook(t, hook, readEvent, "OATH_BIN="+bin, "OATH_HOOKS_DIR=/somewhere/else")
		if r.stdout != want {
			t.Errorf("%s: OATH_HOOKS_DIR seen by the stages: %q, want %q (stderr %q)", hook, r.stdout, want, r.stderr)
		}
	}

	// Run by a relative path from the checkout: still absolute.
	cmd := exec.Command("hooks/pre-tool-use.sh", "--bin", bin)
	cmd.Dir = checkout
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + checkout, "CLAUDE_PROJECT_DIR=" + checkout}
	cmd.Stdin = strings.NewReader(readEvent)
	out, err := cmd.Output()
	if err != nil || !strings.HasPrefix(string(out), `{"hookSpecificOutput":"/`) || !strings.Contains(string(out), "/hooks") {
		t.Errorf("relative run: %q, %v", out, err)
	}

	// With the binaries elsewhere (OATH_BIN), the real oath-classify protects the hooks only
	// through OATH_HOOKS_DIR: a Write to this checkout's lib.sh is critical and denied.
	project := t.TempDir()
	os.MkdirAll(filepath.Join(project, ".claude"), 0o755)
	os.WriteFile(filepath.Join(project, ".claude", "current-phase.md"), []byte("building\n"), 0o644)
	for _, c := range []struct{ path, decision string }{
		{filepath.Join(hooksDir, "lib.sh"), "deny"},
		{filepath.Join(project, "notes.txt"), "allow"}, // the control: an ordinary write in the project
	} {
		event := `{"session_id":"s-1","cwd":"` + project + `","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"` + c.path + `","content":"x"},"tool_use_id":"toolu_1"}`
		r := runHook(t, filepath.Join(hooksDir, "pre-tool-use.sh"), event, "OATH_BIN="+binaries(t), "CLAUDE_PROJECT_DIR="+project)
		var out struct {
			HookSpecificOutput struct{ PermissionDecision string } `json:"hookSpecificOutput"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || out.HookSpecificOutput.PermissionDecision != c.decision {
			t.Errorf("Write %s: decision %q, want %q (exit %d, %s)", c.path, out.HookSpecificOutput.PermissionDecision, c.decision, r.code, r.stderr)
		}
	}
}

// A harness file that blocks on read (a FIFO planted where a file belongs) must not hold the
// PreToolUse hook until Claude Code's timeout (30 s as install.sh registers it), which lets the
// call through. The stages open harness files without blocking and use only regular files, and
// each gives up after cli.StageTimeout (10 s) in any case, so the hook ends well within the
// timeout: blocked (exit 2, one line) where the file is needed, or answered where the stage
// knows what to do without it (trust state: set aside, trust starts again; phase: none means
// auditing).
func TestHookEndsInTimeWhenAHarnessFileHangs(t *testing.T) {
	day := time.Now().UTC().Format("2006-01-02")
	for _, tt := range []struct {
		rel  string
		code int
	}{
		{"oath-harness/config/settings.json", 2},
		{"oath-harness/state/trust-scores.json", 0},
		{".claude/current-phase.md", 0}, // no phase file: auditing, the strictest phase
		{"oath-harness/audit/" + day + ".jsonl", 2},
	} {
		t.Run(tt.rel, func(t *testing.T) {
			t.Parallel()
			project := t.TempDir()
			if err := os.MkdirAll(filepath.Dir(filepath.Join(project, tt.rel)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(filepath.Join(project, tt.rel), 0o600); err != nil {
				t.Fatal(err)
			}
			r, took := runHookWithin(t, 25*time.Second, hookPath(t, "pre-tool-use.sh"), readEvent,
				"OATH_BIN="+binaries(t), "CLAUDE_PROJECT_DIR="+project, "OATH_HOME="+filepath.Join(project, "oath-harness"), "TZ=UTC")
			t.Logf("exit %d after %v: %q", r.code, took.Round(time.Millisecond), r.stderr)
			if took > 15*time.Second {
				t.Errorf("took %v: too close to the 30 s hook timeout", took)
			}
			if r.code != tt.code {
				t.Errorf("exit %d, want %d", r.code, tt.code)
			}
			switch r.code {
			case 2:
				oneLine(t, r.stderr, "oath-")
				if r.stdout != "" {
					t.Errorf("a blocked call prints nothing on stdout: %q", r.stdout)
				}
			case 0:
				if !strings.Contains(r.stdout, `"hookSpecificOutput"`) {
					t.Errorf("exit 0 without an answer: %q", r.stdout)
				}
			default:
				t.Errorf("exit %d lets the call through", r.code)
			}
		})
	}
}

// TestHookAnswersALargeEvent: a 2 MB Write passes through the hook whole (the split of the
// captured output is linear in its size: issue 14; scripts/bench-hook.sh times 1 and 8 MB).
func TestHookAnswersALargeEvent(t *testing.T) {
	project := t.TempDir()
	content := strings.Repeat("héllo wörld → naïve \"quoted\" \\ text\n", 2<<20/40)
	ev, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "session_id": "s", "cwd": project, "tool_name": "Write",
		"tool_use_id": "toolu_big", "tool_input": map[string]any{"file_path": filepath.Join(project, "big.txt"), "content": content}})
	r, took := runHookWithin(t, 25*time.Second, hookPath(t, "pre-tool-use.sh"), string(ev),
		"OATH_BIN="+binaries(t), "CLAUDE_PROJECT_DIR="+project, "LC_ALL=C.UTF-8")
	t.Logf("%d bytes answered in %v", len(ev), took)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var out struct {
		ToolInput struct {
			Content string `json:"content"`
		} `json:"tool_input"`
		HookSpecificOutput struct {
			HookEventName string `json:"hookEventName"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || out.HookSpecificOutput.HookEventName != "PreToolUse" || out.ToolInput.Content != content {
		t.Errorf("the answer must be the whole envelope with the answer: %v", err)
	}
}
