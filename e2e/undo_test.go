package e2e

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Issue 27 with the real Claude Code: at earned trust, a Makefile recipe the harness cannot read
// (a python3 -c whose file names are assembled from pieces) deletes the person's uncommitted
// WORK.md and untracked notes/, and .git with them (as far as the sandbox lets it); the harness
// took a checkpoint before it ran, and mirrored the repository outside the project; oath-audit
// undo rebuilds .git and brings the work back byte for byte, and the person's index, stash,
// branches, reflog and config are as they were. Then the same loss written where the harness can read it (rm -rf in a recipe:
// the class that always needs a person) is earnable because a checkpoint recovers it.
func TestUndoTakesBackAnAutomaticCall(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("needs python3")
	}
	p := newProject(t, map[string]string{
		"README.md": "# sample\n",
		// Names joined at run time, which the harness does not read (a concatenation it does).
		// The recipe also deletes .git, the checkpoint's objects with it, as far as the sandbox
		// lets it (it keeps .git/config and .git/hooks).
		"Makefile": "clean:\n\tpython3 -c \"import shutil,os; shutil.rmtree(''.join(['no','tes'])); os.remove(''.join(['WO','RK.md'])); shutil.rmtree(''.join(['.gi','t']), ignore_errors=True)\"\n" +
			"wipe:\n\trm -rf WORK.md notes\n",
		"WORK.md": "committed line\n",
	})
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", p.dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=p", "GIT_AUTHOR_EMAIL=p@x", "GIT_COMMITTER_NAME=p", "GIT_COMMITTER_EMAIL=p@x")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	git("init", "-q", "-b", "main")
	p.write(".gitignore", "oath-harness/\n")
	git("add", "README.md", "Makefile", "WORK.md", ".gitignore")
	git("commit", "-qm", "init")
	git("branch", "feature")
	p.write("README.md", "# sample\nstashed\n")
	git("stash", "-q")
	// The person's work of the day: uncommitted, part staged, and untracked.
	p.write("WORK.md", "committed line\nstaged line\n")
	git("add", "WORK.md")
	work := "committed line\nstaged line\nuncommitted line: the person's work\n"
	p.write("WORK.md", work)
	notes := map[string]string{"notes/todo.md": "- call the bank\n", "notes/deep/idea.txt": "an idea\x00with a NUL\n"}
	for n, c := range notes {
		p.write(n, c)
	}
	p.setPhase("building")
	p.setSandbox(true) // unread code is earnable only where the sandbox confines it (the boundary)
	if got := p.earnShellExec(30); got < 0.8 {
		t.Fatalf("shell_exec trust %v after 30 successes, want ≥ 0.8", got)
	}
	before := gitState(t, p.dir, git)

	s := p.run("clean up", bash("make clean"))
	d := p.decision(toolUseID(0))
	if got := str(d.Decision); got != "auto_approved" && got != "logged_only" {
		t.Fatalf("at earned trust the unread recipe runs, got %s: %s", got, str(d.DecisionReason))
	}
	if !strings.Contains(str(d.DecisionReason), "checkpoint ") {
		t.Errorf("the reason does not name the checkpoint taken before the call: %s", str(d.DecisionReason))
	}
	if s.Results[0].IsError || p.exists("WORK.md") || p.exists("notes") || p.exists(".git/HEAD") || p.exists(".git/refs") || p.exists(".git/index") {
		var names []string
		filepath.WalkDir(p.path(".git"), func(q string, e fs.DirEntry, err error) error {
			if err == nil {
				names = append(names, strings.TrimPrefix(q, p.path(".git")))
			}
			return nil
		})
		t.Fatalf("the recipe did not delete the work and .git (so the test shows nothing): %+v; WORK.md %v, notes %v, .git holds %v",
			s.Results[0], p.exists("WORK.md"), p.exists("notes"), names)
	}

	t.Logf("make clean: %s: %s", str(d.Decision), str(d.DecisionReason))
	out := p.oathAudit("undo", toolUseID(0), "--yes")
	t.Logf("oath-audit undo:\n%s", out)
	for _, want := range []string{"the repository: ", ".git is rebuilt as it was at the checkpoint", "the repository is rebuilt",
		"create   WORK.md", "create   notes/todo.md", "create   notes/deep/idea.txt", "done: 3 files changed"} {
		if !strings.Contains(out, want) {
			t.Errorf("undo output lacks %q:\n%s", want, out)
		}
	}
	p.sameFile("WORK.md", work)
	for n, c := range notes {
		p.sameFile(n, c)
	}
	sameGitState(t, before, gitState(t, p.dir, git))
	if got := git("log", "--all", "--format=%s"); !strings.Contains(got, "init") {
		t.Errorf("git log --all after the rebuild:\n%s", got)
	}

	// The readable loss: rm -rf of uncommitted and untracked work needs a person today; with a
	// checkpoint it is earnable, and undone the same way.
	s = p.run("wipe", bash("make wipe"))
	d = p.decision(toolUseID(0))
	if d.ToolUseID == "" {
		t.Fatal("no decision line")
	}
	var wipe auditLine
	for _, l := range p.audit() {
		if l.Event == "PreToolUse" && strings.Contains(str(l.DecisionReason), "recoverable: checkpoint") {
			wipe = l
		}
	}
	if got := str(wipe.Decision); got != "auto_approved" && got != "logged_only" {
		t.Fatalf("a loss a checkpoint recovers is earnable at earned trust; the trail has no such decision:\n%+v", p.audit()[len(p.audit())-2:])
	}
	if s.Results[0].IsError || p.exists("WORK.md") {
		t.Fatalf("make wipe did not run: %+v", s.Results[0])
	}
	t.Logf("make wipe: %s: %s", str(wipe.Decision), str(wipe.DecisionReason))
	p.oathAudit("undo", wipe.ToolUseID, "--yes")
	p.sameFile("WORK.md", work)
	for n, c := range notes {
		p.sameFile(n, c)
	}
	sameGitState(t, before, gitState(t, p.dir, git))
	if refs := git("for-each-ref", "--format=%(refname)"); !strings.Contains(refs, "refs/oath/checkpoints/") || strings.Contains(refs, "refs/heads/oath") {
		t.Errorf("refs:\n%s", refs)
	}
	git("fsck", "--no-dangling")
}

// Issue 27 item 1 with the real Claude Code, in a project that is not a git repository: the
// checkpoint is kept in the harness's state, and oath-audit undo — given the decision's reason
// as the report shows it — brings the deleted work back byte for byte.
func TestUndoWithoutGit(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("needs python3")
	}
	work := "the person's work, in no repository\n"
	p := newProject(t, map[string]string{
		"Makefile": "clean:\n\tpython3 -c \"import shutil,os; shutil.rmtree(''.join(['no','tes'])); os.remove(''.join(['WO','RK.md']))\"\n",
		"WORK.md":  work,
	})
	notes := map[string]string{"notes/todo.md": "- call the bank\n", "notes/deep/idea.txt": "an idea\x00with a NUL\n"}
	for n, c := range notes {
		p.write(n, c)
	}
	p.setPhase("building")
	p.setSandbox(true) // unread code is earnable only where the sandbox confines it (the boundary)
	if got := p.earnShellExec(30); got < 0.8 {
		t.Fatalf("shell_exec trust %v after 30 successes, want ≥ 0.8", got)
	}

	s := p.run("clean up", bash("make clean"))
	d := p.decision(toolUseID(0))
	if got := str(d.Decision); got != "auto_approved" && got != "logged_only" {
		t.Fatalf("at earned trust the unread recipe runs, got %s: %s", got, str(d.DecisionReason))
	}
	reason := str(d.DecisionReason)
	if !strings.Contains(reason, "checkpoint ") {
		t.Fatalf("the reason does not name the checkpoint taken before the call: %s", reason)
	}
	if s.Results[0].IsError || p.exists("WORK.md") || p.exists("notes") {
		t.Fatalf("the recipe did not delete the work (so the test shows nothing): %+v", s.Results[0])
	}
	t.Logf("make clean: %s: %s", str(d.Decision), reason)
	out := p.oathAudit("undo", "--yes", reason)
	for _, want := range []string{"create   WORK.md", "create   notes/todo.md", "create   notes/deep/idea.txt"} {
		if !strings.Contains(out, want) {
			t.Errorf("undo output lacks %q:\n%s", want, out)
		}
	}
	p.sameFile("WORK.md", work)
	for n, c := range notes {
		p.sameFile(n, c)
	}
	if p.exists(".git") {
		t.Error("the checkpoint made the project a git repository")
	}
}

// oathAudit runs the built oath-audit as the person would, in the project.
func (p *project) oathAudit(args ...string) string {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(p.bin, "oath-audit"), args...)
	cmd.Dir = p.dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + p.home, "CLAUDE_PROJECT_DIR=" + p.dir, "OATH_HOME=" + p.path("oath-harness")}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		p.t.Fatalf("oath-audit %v: %v\n%s%s", args, err, stdout.String(), stderr.String())
	}
	return stdout.String()
}

func (p *project) sameFile(name, want string) {
	p.t.Helper()
	b, err := os.ReadFile(p.path(name))
	if err != nil || string(b) != want {
		p.t.Errorf("%s = %q, %v; want %q", name, b, err, want)
	}
}

// gitState is the person's git state byte for byte: index, config, HEAD, branches, stash and
// every reflog, with the stash list and branches as git prints them.
func gitState(t *testing.T, dir string, git func(...string) string) map[string]string {
	t.Helper()
	st := map[string]string{}
	g := filepath.Join(dir, ".git")
	for _, f := range []string{"index", "config", "HEAD", "packed-refs"} {
		b, _ := os.ReadFile(filepath.Join(g, f))
		st[f] = string(b)
	}
	for _, d := range []string{"refs/heads", "refs/tags", "refs/stash", "logs"} {
		filepath.WalkDir(filepath.Join(g, d), func(p string, e fs.DirEntry, err error) error {
			if err == nil && !e.IsDir() {
				b, _ := os.ReadFile(p)
				st[p] = string(b)
			}
			return nil
		})
	}
	st["stash list"] = git("stash", "list")
	st["branches"] = git("branch", "-a", "-v")
	st["staged"] = git("diff", "--cached")
	return st
}

func sameGitState(t *testing.T, before, after map[string]string) {
	t.Helper()
	for k, v := range before {
		if after[k] != v {
			t.Errorf("the person's %s changed:\nbefore %q\nafter  %q", k, v, after[k])
		}
	}
	for k := range after {
		if _, ok := before[k]; !ok {
			t.Errorf("new in the person's git state: %s", k)
		}
	}
}
