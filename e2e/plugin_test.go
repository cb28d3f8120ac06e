package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/layout"
)

// goEnv hands the hooks this machine's Go caches, so that the plugin's first-use build needs no
// network (a person's machine has its own caches in HOME).
func goEnv(t *testing.T) []string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		skipUnlessRequired(t, "go not on PATH: the plugin builds its binaries with it")
	}
	var env []string
	for _, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOROOT"} {
		out, err := exec.Command("go", "env", k).Output()
		if err != nil {
			t.Fatal(err)
		}
		env = append(env, k+"="+strings.TrimSpace(string(out)))
	}
	return append(env, "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod", "GOPROXY=off")
}

// stateRoot is where the hooks keep a project's state for a person whose home is home.
func stateRoot(home, project string) string {
	return layout.StateRoot(filepath.Join(home, ".local", "state", "oath-harness"), project)
}

// auditLines reads the PreToolUse lines of a state root's audit trail.
func auditEvents(t *testing.T, root string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(root, "audit", "*.jsonl"))
	var events []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if i := strings.Index(l, `"event":"`); i >= 0 {
				e := l[i+9:]
				events = append(events, e[:strings.IndexByte(e, '"')])
			}
		}
	}
	return events
}

// pluginRun is one headless session of a person whose home is home, in proj, with a Read of
// README.md, and the claude arguments args (a plugin directory, or none: an installed plugin).
func pluginRun(t *testing.T, cli, home, proj string, api *fakeAPI, env []string, args ...string) session {
	t.Helper()
	api.SetScript(read(filepath.Join(proj, "README.md")))
	return runClaudeArgs(t, cli, proj, home, api.URL, append([]string{"-p", "read it"}, args...), env...)
}

// pluginSource is a copy of the checkout's files as git would publish them (tracked and new, not
// ignored): Claude Code copies a directory marketplace whole, whatever lies in it.
func pluginSource(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("git", "-C", repoRoot(t), "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	dst := filepath.Join(t.TempDir(), "oath-harness")
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		src := filepath.Join(repoRoot(t), name)
		fi, err := os.Stat(src)
		if err != nil || !fi.Mode().IsRegular() {
			continue // deleted in the working tree
		}
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Dir(filepath.Join(dst, name)), 0o755)
		if err := os.WriteFile(filepath.Join(dst, name), b, fi.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

func newPluginProject(t *testing.T) (home, proj string) {
	t.Helper()
	home, proj = t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(proj, "README.md"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return home, proj
}

// TestPluginDir: claude --plugin-dir CHECKOUT runs the hooks of hooks/hooks.json, which build the
// binaries into ${CLAUDE_PLUGIN_DATA} on first use and judge every call, with the state in the
// user's state directory; the phase follows the plugin's namespaced commands and the plain ones.
func TestPluginDir(t *testing.T) {
	cli := claudeCLI(t)
	env := goEnv(t)
	home, proj := newPluginProject(t)
	api := newFakeAPI(t)
	s := pluginRun(t, cli, home, proj, api, env, "--plugin-dir", repoRoot(t))
	if len(s.Results) != 1 || s.Results[0].IsError {
		t.Fatalf("the Read must run: %+v\n%s", s.Results, s.Stderr)
	}
	// The first run's own write of the sandbox into settings.local.json raises a ConfigChange
	// (it tightens the settings, so it passes): the call's events are read without it.
	var events []string
	for _, e := range auditEvents(t, stateRoot(home, proj)) {
		if e != "ConfigChange" {
			events = append(events, e)
		}
	}
	if got := strings.Join(events, " "); !strings.Contains(got, "SessionStart PreToolUse PostToolUse") {
		t.Errorf("the plugin's hooks must judge and record the call in the state directory, got %q", got)
	}
	bins, _ := filepath.Glob(filepath.Join(home, ".claude", "plugins", "data", "*", "bin", "oath-classify"))
	if len(bins) != 1 {
		t.Errorf("the binaries must be built into CLAUDE_PLUGIN_DATA: %v", bins)
	}
	// The first run sets up what install.sh does (issue 28 items 5 and 6, issue 29 item 1): the
	// phase building, said once; the tools in ~/.local/bin; the sandbox in settings.local.json.
	if b, _ := os.ReadFile(filepath.Join(proj, ".claude", "current-phase.md")); strings.TrimSpace(string(b)) != "building" {
		t.Errorf("the first run starts in building, got %q", b)
	}
	if !strings.Contains(s.Stdout, "Phase: building") {
		t.Errorf("the first session says the phase:\n%s", s.Stdout)
	}
	if target, err := os.Readlink(filepath.Join(home, ".local", "bin", "oath-audit")); err != nil || len(bins) == 1 && target != filepath.Join(filepath.Dir(bins[0]), "oath-audit") {
		t.Errorf("oath-audit linked into ~/.local/bin: %q %v", target, err)
	}
	if sb, _ := readJSON(t, filepath.Join(proj, ".claude", "settings.local.json"))["sandbox"].(map[string]any); sb["enabled"] != true || sb["autoAllowBashIfSandboxed"] != true {
		t.Errorf("the first run turns on the sandbox: %v", sb)
	} else if fs, _ := sb["filesystem"].(map[string]any); !reflect.DeepEqual(fs["denyWrite"], []any{"./state.md", "./.claude/current-phase.md", "./.claude/protected-files.txt"}) {
		t.Errorf("the first run denies the harness's own files to sandboxed writes: %v", fs)
	}
	for _, tt := range []struct{ prompt, phase string }{{"/oath-harness:building", "building"}, {"/planning", "planning"}} {
		api.SetScript()
		runClaudeArgs(t, cli, proj, home, api.URL, []string{"-p", tt.prompt, "--plugin-dir", repoRoot(t)}, env...)
		if b, _ := os.ReadFile(filepath.Join(proj, ".claude", "current-phase.md")); strings.TrimSpace(string(b)) != tt.phase {
			t.Errorf("%s: phase %q, want %s", tt.prompt, b, tt.phase)
		}
	}
}

// TestPluginMarketplace: the checkout is a marketplace: claude plugin marketplace add PATH and
// claude plugin install oath-harness@oath-harness set it up for every project of the user.
func TestPluginMarketplace(t *testing.T) {
	cli := claudeCLI(t)
	env := goEnv(t)
	home, proj := newPluginProject(t)
	for _, args := range [][]string{{"plugin", "marketplace", "add", pluginSource(t)}, {"plugin", "install", "oath-harness@oath-harness"}} {
		cmd := exec.Command(cli, args...)
		cmd.Dir = proj
		cmd.Env = claudeEnv(home, "http://127.0.0.1:9")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("claude %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	api := newFakeAPI(t)
	s := pluginRun(t, cli, home, proj, api, env)
	if len(s.Results) != 1 || s.Results[0].IsError {
		t.Fatalf("the Read must run: %+v\n%s", s.Results, s.Stderr)
	}
	if got := strings.Join(auditEvents(t, stateRoot(home, proj)), " "); !strings.Contains(got, "PreToolUse PostToolUse") {
		t.Errorf("the installed plugin's hooks must judge and record the call, got %q", got)
	}
}

// TestPluginWithoutGo: without Go the binaries cannot be built, and every call is blocked with a
// line saying what to install (never let through).
func TestPluginWithoutGo(t *testing.T) {
	cli := claudeCLI(t)
	home, proj := newPluginProject(t)
	// PATH without go: the system's directories only.
	var path []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(d, "go")); err != nil {
			path = append(path, d)
		}
	}
	api := newFakeAPI(t)
	api.SetScript(read(filepath.Join(proj, "README.md")))
	env := claudeEnv(home, api.URL)
	for i, e := range env {
		if strings.HasPrefix(e, "PATH=") {
			env[i] = "PATH=" + strings.Join(path, string(filepath.ListSeparator))
		}
	}
	cmd := exec.Command(cli, "-p", "read it", "--plugin-dir", repoRoot(t), "--output-format", "stream-json", "--verbose")
	cmd.Dir, cmd.Env = proj, env
	out, _ := cmd.Output()
	results := parseToolResults(t, out)
	if len(results) != 1 || !results[0].IsError || !strings.Contains(results[0].Content, "needs Go") {
		t.Fatalf("without Go the call must be blocked, saying what to install: %+v\n%s", results, out)
	}
}

// TestPluginDeniesTheHarnessFilesInProjectsSetUpBefore: a project whose sandbox an earlier
// version of the plugin set up (its marker there, no denyWrite) gets the harness's own files in
// sandbox.filesystem.denyWrite at its next session start, the person's sandbox values kept, once
// (issue 29 item 1).
func TestPluginDeniesTheHarnessFilesInProjectsSetUpBefore(t *testing.T) {
	requireJQ(t)
	root, home, proj, data := repoRoot(t), t.TempDir(), t.TempDir(), t.TempDir()
	// The plugin's binaries, as its first run would have built them from this checkout.
	bin := filepath.Join(data, "bin")
	if out, err := exec.Command("cp", "-R", binaries(t), bin).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	mustWrite(t, filepath.Join(bin, ".source"), root+"\n")
	sum := sha256.Sum256([]byte(proj))
	mustWrite(t, filepath.Join(data, "sandbox", hex.EncodeToString(sum[:])[:16]), "")
	settings := filepath.Join(proj, ".claude", "settings.local.json")
	mustWrite(t, settings, `{"sandbox": {"enabled": true, "excludedCommands": ["docker"]}}`+"\n")
	mustWrite(t, filepath.Join(proj, ".claude", "current-phase.md"), "building\n")
	start := func() string {
		cmd := exec.Command(filepath.Join(root, "hooks", "plugin.sh"), "session-start")
		cmd.Dir = proj
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "CLAUDE_PROJECT_DIR=" + proj, "CLAUDE_PLUGIN_ROOT=" + root, "CLAUDE_PLUGIN_DATA=" + data}
		cmd.Stdin = strings.NewReader(`{"session_id":"s1","transcript_path":"/x","cwd":"` + proj + `","hook_event_name":"SessionStart","source":"startup"}`)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("plugin.sh session-start: %v\n%s", err, stderr.String())
		}
		return stderr.String()
	}
	msg := start()
	sb := readJSON(t, settings)["sandbox"].(map[string]any)
	fs, _ := sb["filesystem"].(map[string]any)
	if want := []any{"./state.md", "./.claude/current-phase.md", "./.claude/protected-files.txt"}; !reflect.DeepEqual(fs["denyWrite"], want) ||
		sb["enabled"] != true || !reflect.DeepEqual(sb["excludedCommands"], []any{"docker"}) || sb["autoAllowBashIfSandboxed"] != nil {
		t.Errorf("sandbox after the session start: %v", sb)
	}
	if !strings.Contains(msg, "added to sandbox.filesystem.denyWrite") {
		t.Errorf("the session start must say what it added: %q", msg)
	}
	// Once: the person removes them, and the next session start leaves the file alone.
	mustWrite(t, settings, `{"sandbox": {"enabled": true}}`+"\n")
	if msg := start(); strings.Contains(msg, "denyWrite") {
		t.Errorf("a second session start changed the settings again: %q", msg)
	}
	if b, _ := os.ReadFile(settings); string(b) != `{"sandbox": {"enabled": true}}`+"\n" {
		t.Errorf("the person's later choice must stay: %s", b)
	}
}
