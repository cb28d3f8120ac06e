package kernel

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/oath-harness/oath-harness/internal/classify/shell"
)

// GitDeadline bounds all the git runs of one judgement, on the hot path of a destructive call.
const GitDeadline = 1500 * time.Millisecond

// Loss is one thing a command may destroy.
type Loss struct {
	Path  string   // absolute, may be a pattern (glob)
	Glob  bool     // path is a pattern
	Tree  bool     // everything under path
	How   string   // deletes, overwrites, truncates …
	Cmd   string   // the command, for the reason
	via   string   // what runs the command, when a runner does ("make nuke runs the recipe of nuke:")
	Git   string   // "" a file; reset, paths, clean, cleanx, cleanX, branch: a discard of git's
	Names []string // git branch -D: the branches
	Spec  string   // a pathspec with magic or wildcards, asked of git from path as written
}

// AddLoss records l, unless r's marks of the class are not read (sink.noPerson).
func (r *Result) AddLoss(l Loss) {
	if !r.NoPerson {
		r.Person.Losses = append(r.Person.Losses, l)
	}
}

// Command is the command of l for a reason, with what runs it.
func (l Loss) Command() string {
	if l.via != "" {
		return l.via + " " + ShortCmd(l.Cmd)
	}
	return ShortCmd(l.Cmd)
}

// Lose records that the command deletes or overwrites w (tree: everything under it).
func (x *Command) Lose(w shell.Word, tree bool, how string) {
	if x.Call.NoPerson {
		return
	}
	for _, t := range Resolve(w, x.Cmd.Dir, tree) {
		t = x.nameTarget(t)
		if t.Known { // an unknown target is judged critical by the write rules
			p := t.Path
			if !t.Glob { // what is lost is where the links on the way lead (build/home -> ~)
				p = reachedPath(x.Call.Resolver(), p, t.Tree && strings.HasSuffix(w.Value, "/"))
			}
			x.Call.AddLoss(Loss{Path: p, Glob: t.Glob, Tree: t.Tree, How: how, Cmd: x.Src})
		}
	}
}

// RunGit runs git in dir under ctx's deadline, with the repository's program-running
// settings that status would use (fsmonitor, hooks) switched off and no optional locks.
func RunGit(ctx context.Context, dir string, args ...string) (string, error) {
	if ctx.Err() != nil {
		return "", errors.New("git took longer than " + GitDeadline.String())
	}
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir, "--no-pager", "-c", "core.quotePath=false",
		"-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "-c", "core.untrackedCache=false"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")
	cmd.WaitDelay = 200 * time.Millisecond
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return "", errors.New("git took longer than " + GitDeadline.String())
		}
		msg, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
		if msg == "" {
			msg = err.Error()
		}
		return "", errors.New(msg)
	}
	return stdout.String(), nil
}

// RepoTop is the nearest directory at or above p holding .git, or "".
func RepoTop(p string) string {
	for d := p; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if d == "/" || d == "." || d == filepath.Dir(d) {
			return ""
		}
	}
}
