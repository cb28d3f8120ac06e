package e2e

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDemo runs the README's first command on the recorded session and checks that it shows
// what it promises: trust growing into auto-approve, a failure cutting it, a human_required
// delete, and the critical calls blocked.
func TestDemo(t *testing.T) {
	requireJQ(t)
	cmd := exec.Command(filepath.Join(repoRoot(t), "scripts", "demo.sh"))
	cmd.Env = append(cmd.Environ(), "OATH_BIN="+binaries(t), "NO_COLOR=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("demo: %v\n%s", err, out)
	}
	for _, want := range []string{
		"has earned auto-approve",
		"failed (Exit code 2)",
		"rm -rf build",
		"human_required",
		"blocked",
		"trust after the session",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the demo output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(string(out), "blocked by a failing hook") || strings.Contains(string(out), `"session_id"`) {
		t.Errorf("the demo must show decisions, not hook failures or JSON:\n%s", out)
	}
}
