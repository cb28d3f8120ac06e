package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// gitRepo makes a git repository with one committed file, README.md.
func gitRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if d, err := filepath.EvalSymlinks(dir); err == nil {
		dir = d
	}
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("hello\n"), 0o644)
	for _, args := range [][]string{{"init", "-q"}, {"add", "README.md"}, {"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "init"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

// untracked lists what git sees as new in dir.
func untracked(t *testing.T, dir string) []string {
	t.Helper()
	out, err := exec.Command("git", "-C", dir, "status", "--porcelain", "--untracked-files=all", "--ignored").Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	sort.Strings(lines)
	return lines
}

// checkoutCopy is a checkout a person can delete: this repository's hooks and the binaries.
func checkoutCopy(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "oath-harness")
	for _, c := range [][]string{{"mkdir", "-p", dir}, {"cp", "-R", filepath.Join(repoRoot(t), "hooks"), dir + "/"}, {"cp", "-R", binaries(t), filepath.Join(dir, "bin")}} {
		if out, err := exec.Command(c[0], c[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", c, err, out)
		}
	}
	return dir
}

func preToolUseCount(t *testing.T, root string) int {
	n := 0
	for _, e := range auditEvents(t, root) {
		if e == "PreToolUse" {
			n++
		}
	}
	return n
}

// TestNewUser is issue 14's path of a new user, with the real CLI in a temporary HOME: the default
// install touches only the personal settings file (and sets the phase), the registered hook
// answers, still answers with the checkout deleted, blocks (exit 2) with the installed copy gone
// too; trust recorded before `git stash -u && git clean -fdx` is there after and every tool finds
// it from a subdirectory; the doctor passes; uninstall leaves no hook behind.
func TestNewUser(t *testing.T) {
	cli := claudeCLI(t)
	home, proj, checkout := t.TempDir(), gitRepo(t), checkoutCopy(t)
	data := filepath.Join(home, ".local", "share", "oath-harness")
	msg, code := installShFrom(t, filepath.Join(checkout, "hooks", "install.sh"), home, nil, proj)
	if code != 0 {
		t.Fatalf("install: exit %d: %s", code, msg)
	}
	if got := untracked(t, proj); strings.Join(got, " ") != "?? .claude/current-phase.md ?? .claude/settings.local.json" {
		t.Errorf("the default install writes the personal settings file and the phase, nothing else in the project: %q", got)
	}
	if !strings.Contains(msg, "/planning") || !strings.Contains(msg, "the phase is now building") {
		t.Errorf("install says what the phases are and how to switch: %q", msg)
	}

	api := newFakeAPI(t)
	root := stateRoot(home, proj)
	readme := read(filepath.Join(proj, "README.md"))
	run := func(calls ...ToolCall) session {
		t.Helper()
		api.SetScript(calls...)
		s := runClaude(t, cli, proj, home, api.URL, "go")
		if len(s.Results) != len(calls) {
			t.Fatalf("want %d results, got %+v\n%s", len(calls), s.Results, s.Stderr)
		}
		return s
	}

	// The registered hook answers, from the installed copy.
	if s := run(readme, readme, readme); s.Results[0].IsError {
		t.Fatalf("the Read must run: %+v", s.Results)
	}
	if n := preToolUseCount(t, root); n != 3 {
		t.Fatalf("want 3 calls judged in %s, got %d", root, n)
	}

	// The checkout deleted: the installed copy still answers.
	if err := os.RemoveAll(checkout); err != nil {
		t.Fatal(err)
	}
	if s := run(readme); s.Results[0].IsError {
		t.Fatalf("with the checkout deleted the Read must still run: %+v", s.Results)
	}
	if n := preToolUseCount(t, root); n != 4 {
		t.Errorf("with the checkout deleted the hook must still judge: %d calls judged", n)
	}

	// Trust survives git stash -u && git clean -fdx (the state is outside the working tree).
	trustFile := filepath.Join(root, "state", "trust-scores.json")
	before, err := os.ReadFile(trustFile)
	if err != nil {
		t.Fatal(err)
	}
	sh := func(script string) {
		t.Helper()
		cmd := exec.Command("sh", "-c", script)
		cmd.Dir = proj
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", script, err, out)
		}
	}
	sh("git stash -u -q && git clean -fdxq")
	if after, err := os.ReadFile(trustFile); err != nil || string(after) != string(before) {
		t.Errorf("trust must survive git stash -u && git clean -fdx: %v", err)
	}
	sub := filepath.Join(proj, "internal", "x")
	os.MkdirAll(sub, 0o755)
	show := exec.Command(filepath.Join(data, "current", "bin", "oath-trust"), "show")
	show.Dir, show.Env = sub, []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}
	if out, err := show.CombinedOutput(); err != nil || !strings.Contains(string(out), "file_read") {
		t.Errorf("oath-trust show in a subdirectory must find the trust: %v\n%s", err, out)
	}
	os.RemoveAll(filepath.Join(proj, "internal"))
	sh("git stash pop -q")

	// The doctor, through the installed copy (the checkout is gone).
	doctor := exec.Command(filepath.Join(data, "current", "hooks", "install.sh"), "--doctor", proj)
	doctor.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "OATH_CLAUDE=" + cli}
	if out, err := doctor.CombinedOutput(); err != nil || !strings.Contains(string(out), "ok    dry PreToolUse") {
		t.Errorf("the doctor must pass: %v\n%s", err, out)
	}

	// The installed copy gone too: the call is blocked, saying why.
	if err := os.Rename(data, data+".away"); err != nil {
		t.Fatal(err)
	}
	// (The first hook to run is UserPromptSubmit's: its exit 2 blocks the prompt itself, so no
	// tool runs, and the person reads why.)
	api.SetScript(readme)
	s := runClaude(t, cli, proj, home, api.URL, "go")
	if len(s.Results) != 0 || !strings.Contains(s.Stdout, "blocked_by_hook") || !strings.Contains(s.Stdout, "is missing; reinstall") {
		t.Errorf("with the installed copy gone nothing may run, and the block says why: %+v\n%s", s.Results, s.Stdout)
	}
	doctor = exec.Command(filepath.Join(data+".away", "current", "hooks", "install.sh"), "--doctor", proj)
	doctor.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "OATH_CLAUDE=" + cli}
	if out, err := doctor.CombinedOutput(); err == nil || !strings.Contains(string(out), "FAIL  installed copy") {
		t.Errorf("the doctor must fail without the installed copy: %v\n%s", err, out)
	}
	os.Rename(data+".away", data)

	// Uninstall, through the installed copy: no hook left behind, the state kept and said so.
	msg, code = installShFrom(t, filepath.Join(data, "current", "hooks", "install.sh"), home, nil, "--uninstall", proj)
	if code != 0 || !strings.Contains(msg, "kept the trust state and audit trail in "+root) {
		t.Fatalf("uninstall: exit %d: %s", code, msg)
	}
	if _, err := os.Stat(filepath.Join(proj, ".claude", "settings.local.json")); !os.IsNotExist(err) {
		t.Errorf("uninstall removes the settings file install created: %v", err)
	}
	if _, err := os.Stat(data); !os.IsNotExist(err) {
		t.Errorf("uninstall removes the installed copy no settings file uses: %v", err)
	}
	run(readme)
	if n := preToolUseCount(t, root); n != 5 {
		t.Errorf("after uninstall no hook may run: %d calls judged", n)
	}
}

// TestUserScope: --scope user registers the hooks in ~/.claude/settings.json, for every project.
func TestUserScope(t *testing.T) {
	cli := claudeCLI(t)
	home, proj := t.TempDir(), gitRepo(t)
	if msg, code := installSh(t, home, "--scope", "user", "--phase", "building", proj); code != 0 {
		t.Fatalf("install: exit %d: %s", code, msg)
	}
	if got := untracked(t, proj); strings.Join(got, " ") != "?? .claude/current-phase.md" {
		t.Errorf("--scope user writes nothing in the project but the phase asked for: %q", got)
	}
	if cmds := hookCommands(readJSON(t, filepath.Join(home, ".claude", "settings.json"))); len(cmds["PreToolUse"]) != 1 {
		t.Fatalf("the user's settings must register the hooks: %v", cmds)
	}
	api := newFakeAPI(t)
	api.SetScript(read(filepath.Join(proj, "README.md")))
	if s := runClaude(t, cli, proj, home, api.URL, "go"); len(s.Results) != 1 || s.Results[0].IsError {
		t.Fatalf("the Read must run: %+v", s.Results)
	}
	if n := preToolUseCount(t, stateRoot(home, proj)); n != 1 {
		t.Errorf("the user scope's hook must judge the call: %d", n)
	}
	if msg, code := installSh(t, home, "--uninstall", "--scope", "user", proj); code != 0 {
		t.Fatalf("uninstall: exit %d: %s", code, msg)
	}
	if _, err := os.Stat(filepath.Join(home, ".claude", "settings.json")); !os.IsNotExist(err) {
		t.Errorf("the user settings file install created must go: %v", err)
	}
}

// TestInstallMovesOldState: the state an earlier version kept in PROJECT/oath-harness moves to the
// state directory on install, every file as it was, and install says so.
func TestInstallMovesOldState(t *testing.T) {
	home, proj := t.TempDir(), gitRepo(t)
	old := map[string]string{"state/trust-scores.json": `{"version":"2","domains":{}}`, "audit/2026-01-01.jsonl": "{\"seq\":1}\n"}
	for name, body := range old {
		p := filepath.Join(proj, "oath-harness", name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o600)
	}
	msg, code := installSh(t, home, proj)
	root := stateRoot(home, proj)
	if code != 0 || !strings.Contains(msg, "moved "+filepath.Join(proj, "oath-harness")+" to "+root) {
		t.Fatalf("install: exit %d: %s", code, msg)
	}
	for name, body := range old {
		if b, err := os.ReadFile(filepath.Join(root, name)); err != nil || string(b) != body {
			t.Errorf("%s: %q %v", name, b, err)
		}
	}
	if _, err := os.Stat(filepath.Join(proj, "oath-harness")); !os.IsNotExist(err) {
		t.Errorf("the old directory must be gone: %v", err)
	}
}

// TestInstallReplacesTheCopy: a reinstall of another version replaces the installed copy (one
// version directory, current pointing at it) and leaves the settings file as it was.
func TestInstallReplacesTheCopy(t *testing.T) {
	home, proj, checkout := t.TempDir(), gitRepo(t), checkoutCopy(t)
	script := filepath.Join(checkout, "hooks", "install.sh")
	if msg, code := installShFrom(t, script, home, nil, proj); code != 0 {
		t.Fatalf("install: %d %s", code, msg)
	}
	settings, _ := os.ReadFile(filepath.Join(proj, ".claude", "settings.local.json"))
	os.WriteFile(filepath.Join(checkout, "hooks", "stop.sh"), append(mustRead(t, filepath.Join(checkout, "hooks", "stop.sh")), "# a new version\n"...), 0o755)
	msg, code := installShFrom(t, script, home, nil, proj)
	if code != 0 || !strings.Contains(msg, "installed") {
		t.Fatalf("reinstall: %d %s", code, msg)
	}
	versions, _ := filepath.Glob(filepath.Join(home, ".local", "share", "oath-harness", "versions", "*"))
	link, _ := os.Readlink(filepath.Join(home, ".local", "share", "oath-harness", "current"))
	if len(versions) != 1 || link != "versions/"+filepath.Base(versions[0]) {
		t.Errorf("one version, current pointing at it: %v -> %s", versions, link)
	}
	if b := mustRead(t, filepath.Join(versions[0], "hooks", "stop.sh")); !strings.Contains(string(b), "a new version") {
		t.Errorf("the copy must be the new version")
	}
	if now, _ := os.ReadFile(filepath.Join(proj, ".claude", "settings.local.json")); string(now) != string(settings) {
		t.Errorf("the registration does not change with the version")
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRegisteredCommandFailsClosed: the registered command line itself exits with the hook's
// failure code and one line when its script is gone (2; 1 for Stop), never the shell's 127.
func TestRegisteredCommandFailsClosed(t *testing.T) {
	home, proj := t.TempDir(), gitRepo(t)
	if msg, code := installSh(t, home, proj); code != 0 {
		t.Fatalf("install: %d %s", code, msg)
	}
	os.RemoveAll(filepath.Join(home, ".local", "share", "oath-harness"))
	cmds := hookCommands(readJSON(t, filepath.Join(proj, ".claude", "settings.local.json")))
	for event, want := range map[string]int{"PreToolUse": 2, "PostToolUse": 2, "UserPromptSubmit": 2, "SessionStart": 2, "Stop": 1} {
		for _, shell := range []string{"sh", "bash"} {
			out, err := exec.Command(shell, "-c", cmds[event][0]).CombinedOutput()
			ee, ok := err.(*exec.ExitError)
			if !ok || ee.ExitCode() != want || strings.Count(string(out), "\n") != 1 || !strings.Contains(string(out), "is missing; reinstall") {
				t.Errorf("%s through %s: %v %q, want exit %d and one line", event, shell, err, out, want)
			}
		}
	}
}
