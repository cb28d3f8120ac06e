package gate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Git reads what a git commit or push would record. Paths are absolute. The gate calls it only
// for a git commit or push that the admin whitelist might allow, so ordinary calls run no git.
type Git interface {
	// Staged lists the paths staged in the repository that contains dir.
	Staged(dir string) ([]string, error)
	// Unpushed lists the paths touched by the commits in base..HEAD (base such as "@{u}").
	Unpushed(dir, base string) ([]string, error)
}

// ExecGit is Git backed by the git binary, with a deadline on each run.
type ExecGit struct {
	Timeout time.Duration // 0 means 5 s
}

// Staged runs git diff --cached --name-only -z in dir.
func (g ExecGit) Staged(dir string) ([]string, error) {
	return g.paths(dir, "diff", "--cached", "--name-only", "-z", "--no-renames")
}

// Unpushed runs git log --name-only over base..HEAD in dir. Every commit is listed, so a path
// changed and changed back on the way is still seen.
func (g ExecGit) Unpushed(dir, base string) ([]string, error) {
	return g.paths(dir, "log", "--format=", "--name-only", "-z", "--no-renames", base+"..HEAD", "--")
}

func (g ExecGit) paths(dir string, args ...string) ([]string, error) {
	top, err := g.run(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, err
	}
	top = strings.TrimSpace(top)
	out, err := g.run(dir, args...)
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, p := range strings.Split(out, "\x00") {
		p = strings.TrimSpace(p)
		if p != "" {
			paths = append(paths, filepath.Join(top, filepath.FromSlash(p)))
		}
	}
	return paths, nil
}

func (g ExecGit) run(dir string, args ...string) (string, error) {
	timeout := g.Timeout
	if timeout == 0 {
		timeout = 5 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	// The repository's own configuration may run programs (core.fsmonitor, hooks of its own);
	// the gate only reads names, so those are switched off. WaitDelay ends the wait even when a
	// grandchild keeps the pipes open after the deadline killed git.
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir, "--no-pager",
		"-c", "core.quotePath=false", "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null"}, args...)...)
	cmd.WaitDelay = time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		if msg == "" {
			msg = err.Error()
		}
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			msg = "timed out after " + timeout.String()
		}
		return "", fmt.Errorf("git %s failed: %s", strings.Join(args, " "), msg)
	}
	return stdout.String(), nil
}
