package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
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

func TestPluginDirExplore(t *testing.T) {
	cli := claudeCLI(t)
	env := goEnv(t)
	home, proj := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(proj, "README.md"), []byte("hello\n"), 0o644)
	api := newFakeAPI(t)
	api.SetScript(read(filepath.Join(proj, "README.md")))
	s := runClaudeArgs(t, cli, proj, home, api.URL, []string{"-p", "read it", "--plugin-dir", repoRoot(t)}, env...)
	t.Logf("results %+v\nstderr %s", s.Results, s.Stderr)
	t.Logf("audit %v", auditEvents(t, stateRoot(home, proj)))
	out, _ := exec.Command("find", home, "-maxdepth", "5").CombinedOutput()
	t.Logf("%s", out)
	for _, prompt := range []string{"/oath-harness:building", "/planning"} {
		api.SetScript()
		s = runClaudeArgs(t, cli, proj, home, api.URL, []string{"-p", prompt, "--plugin-dir", repoRoot(t)}, env...)
		b, _ := os.ReadFile(filepath.Join(proj, ".claude", "current-phase.md"))
		t.Logf("%s -> phase %q; stderr %s; stdout %s", prompt, b, s.Stderr, s.Stdout[:min(len(s.Stdout), 3000)])
	}
}
