package gate

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestExecGitIgnoresTheRepositorysPrograms: a repository whose core.fsmonitor runs a program
// that sleeps must not hang the gate (Claude Code lets a call through when a hook times out).
func TestExecGitIgnoresTheRepositorysPrograms(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	os.WriteFile(filepath.Join(dir, "state.md"), []byte("x\n"), 0o644)
	git("add", "state.md")
	sleeper := filepath.Join(dir, "fsmonitor.sh")
	os.WriteFile(sleeper, []byte("#!/bin/sh\nsleep 30\n"), 0o755)
	git("config", "core.fsmonitor", sleeper)
	start := time.Now()
	paths, err := ExecGit{Timeout: 3 * time.Second}.Staged(dir)
	if err != nil || len(paths) != 1 || !strings.HasSuffix(paths[0], "state.md") {
		t.Fatalf("Staged = %v, %v", paths, err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("took %v: the repository's fsmonitor ran", d)
	}
}
