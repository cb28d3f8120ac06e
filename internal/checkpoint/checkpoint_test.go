package checkpoint

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// newRepo is a git repository with one commit, its git run with a fixed identity.
func newRepo(t testing.TB) (dir string, git func(args ...string) string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	dir = t.TempDir()
	git = func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(gitEnv(), "GIT_AUTHOR_NAME=p", "GIT_AUTHOR_EMAIL=p@x", "GIT_COMMITTER_NAME=p",
			"GIT_COMMITTER_EMAIL=p@x", "HOME="+dir, "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	git("init", "-q", "-b", "main")
	return dir, git
}

func write(t testing.TB, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// workingDay is a project as a working day leaves it: committed, modified, staged, deleted,
// untracked, ignored, executable and linked files, a stash and a second branch.
func workingDay(t testing.TB) (dir string, git func(...string) string) {
	dir, git = newRepo(t)
	write(t, dir, "README.md", "# p\n")
	write(t, dir, "src/a.go", "package a\n")
	write(t, dir, "src/b.go", "package b\n")
	write(t, dir, "src/sub/c.go", "package c\n")
	write(t, dir, "a-b", "dash\n")
	write(t, dir, "gone.txt", "bye\n")
	write(t, dir, ".gitignore", "build/\n*.log\n")
	write(t, dir, "run.sh", "#!/bin/sh\n")
	os.Chmod(filepath.Join(dir, "run.sh"), 0o755)
	os.Symlink("src/a.go", filepath.Join(dir, "link"))
	git("add", "-A")
	git("commit", "-qm", "init")
	git("branch", "feature")
	write(t, dir, "src/a.go", "package a\n// stashed\n")
	git("stash", "-q")
	write(t, dir, "src/a.go", "package a\n// work\n")
	write(t, dir, "src/b.go", "package b\n// staged\n")
	git("add", "src/b.go")
	write(t, dir, "src/b.go", "package b\n// staged\n// and more\n")
	os.Remove(filepath.Join(dir, "gone.txt"))
	write(t, dir, "WORK.md", "mine\n")
	write(t, dir, "notes/todo.md", "- a\n")
	write(t, dir, "notes/deep/x.txt", "x\n")
	write(t, dir, "build/out.bin", "regenerable\n")
	write(t, dir, "debug.log", "log\n")
	return dir, git
}

// gitTree is what git itself records for the same tree: git add -A into a copy of the index.
func gitTree(t *testing.T, dir string) string {
	t.Helper()
	idx := filepath.Join(t.TempDir(), "index")
	b, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(idx, b, 0o644)
	run := func(args ...string) string {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(gitEnv(), "GIT_INDEX_FILE="+idx)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	run("add", "-A")
	return run("write-tree")
}

// personState is every byte of the person's git state a checkpoint or an undo must not change:
// the index, config, HEAD, branches, tags, stash, packed refs and every reflog, and git status.
func personState(t *testing.T, dir string, git func(...string) string) map[string]string {
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
	st["status"] = git("status", "--porcelain=v1", "-z", "--untracked-files=all")
	st["stash list"] = git("stash", "list")
	st["branches"] = git("branch", "-a", "-v")
	return st
}

func sameState(t *testing.T, before, after map[string]string) {
	t.Helper()
	keys := map[string]bool{}
	for k := range before {
		keys[k] = true
	}
	for k := range after {
		keys[k] = true
	}
	for k := range keys {
		if before[k] != after[k] {
			t.Errorf("%s changed:\nbefore %q\nafter  %q", k, before[k], after[k])
		}
	}
}

// tree is every file of the working tree (links as "-> target"), hashed, without .git.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == ".git" {
			return filepath.SkipDir
		}
		fi, _ := os.Lstat(p)
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			l, _ := os.Readlink(p)
			out[rel] = "-> " + l
		case fi.Mode().IsRegular():
			b, _ := os.ReadFile(p)
			s := sha256.Sum256(b)
			out[rel] = hex.EncodeToString(s[:8]) + " " + fi.Mode().String()
		}
		return nil
	})
	return out
}

func opts(t *testing.T) Options {
	return Options{Dir: filepath.Join(t.TempDir(), "checkpoints"), Keep: DefaultKeep, MaxFileSize: DefaultMaxFileSize}
}

func TestCheckpointTreeIsWhatGitAddWouldRecord(t *testing.T) {
	dir, git := workingDay(t)
	o := opts(t)
	c, err := Take(dir, "s1", "toolu_1", "", o)
	if err != nil {
		t.Fatal(err)
	}
	if want := gitTree(t, dir); c.Tree != want {
		t.Errorf("tree %s, git add -A records %s\n%s", c.Tree, want, git("ls-tree", "-r", c.Tree))
	}
	if got := strings.TrimSpace(git("rev-parse", c.Ref)); got != c.ID {
		t.Errorf("%s = %s, want %s", c.Ref, got, c.ID)
	}
	if !strings.HasPrefix(c.Ref, "refs/oath/checkpoints/s1/") {
		t.Errorf("ref %s", c.Ref)
	}
	git("fsck", "--strict", "--no-dangling")
	ls := git("ls-tree", "-r", "--name-only", c.ID)
	for _, want := range []string{"WORK.md", "notes/todo.md", "notes/deep/x.txt", "src/a.go", "link", "run.sh"} {
		if !strings.Contains(ls, want+"\n") {
			t.Errorf("checkpoint lacks %s:\n%s", want, ls)
		}
	}
	for _, not := range []string{"build/out.bin", "debug.log", "gone.txt"} {
		if strings.Contains(ls, not) {
			t.Errorf("checkpoint keeps %s (ignored or deleted):\n%s", not, ls)
		}
	}
}

// A file whose content changed but whose size and times look the same to the second (a racy
// edit right after git add) must be hashed, not taken from the index.
func TestCheckpointRacilyCleanFilesAreHashed(t *testing.T) {
	dir, git := newRepo(t)
	write(t, dir, "f", "aaaa\n")
	git("add", "f")
	write(t, dir, "f", "bbbb\n") // same size, likely the same mtime second as the index
	c, err := Take(dir, "s", "t", "", opts(t))
	if err != nil {
		t.Fatal(err)
	}
	// Not gitTree: git add into a copy of the index trusts the stat here (the copy is newer
	// than the entry), which is exactly the mistake a checkpoint must not make.
	want := strings.TrimSpace(git("hash-object", "f"))
	if got := strings.Fields(git("ls-tree", c.ID, "f")); len(got) < 3 || got[2] != want {
		t.Errorf("checkpoint holds f as %v, want the blob of its content %s", got, want)
	}
}

func TestCheckpointAndUndoLeaveThePersonsGitStateAlone(t *testing.T) {
	dir, git := workingDay(t)
	before := personState(t, dir, git)
	wantTree := tree(t, dir)
	o := opts(t)
	c, err := Take(dir, "s1", "toolu_1", "", o)
	if err != nil {
		t.Fatal(err)
	}
	sameState(t, before, personState(t, dir, git))

	// The call the harness could not read: it deletes uncommitted and untracked work, edits,
	// adds a file, turns a file into a directory and changes a mode.
	os.Remove(filepath.Join(dir, "WORK.md"))
	os.RemoveAll(filepath.Join(dir, "notes"))
	write(t, dir, "src/a.go", "package a\n// clobbered\n")
	write(t, dir, "new.txt", "made by the call\n")
	os.Remove(filepath.Join(dir, "README.md"))
	write(t, dir, "README.md/inner", "now a dir\n")
	os.Chmod(filepath.Join(dir, "run.sh"), 0o644)
	os.Remove(filepath.Join(dir, "link"))
	write(t, dir, "build/more.o", "ignored, made by the call\n")
	afterCall := tree(t, dir)

	p, err := PlanUndo(c, o)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, ch := range p.Changes {
		got[ch.Path] = ch.Action
	}
	want := map[string]string{"WORK.md": "create", "notes/todo.md": "create", "notes/deep/x.txt": "create",
		"src/a.go": "restore", "new.txt": "delete", "README.md": "create", "README.md/inner": "delete",
		"run.sh": "restore", "link": "create"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("plan: %s = %q, want %q", k, got[k], v)
		}
	}
	if len(got) != len(want) {
		t.Errorf("plan has %d changes, want %d: %v", len(got), len(want), got)
	}
	if err := p.Apply("s1", o); err != nil {
		t.Fatal(err)
	}
	after := tree(t, dir)
	delete(after, filepath.Join("build", "more.o")) // ignored: an undo leaves it
	sameMap(t, "tree after undo", wantTree, after)
	sameState(t, before, personState(t, dir, git))
	git("fsck", "--strict", "--no-dangling")

	// The undo can be undone: its own checkpoint holds the tree the call left.
	if p.Before == nil {
		t.Fatal("no checkpoint before the undo")
	}
	p2, err := PlanUndo(*p.Before, o)
	if err != nil {
		t.Fatal(err)
	}
	if err := p2.Apply("s1", o); err != nil {
		t.Fatal(err)
	}
	sameMap(t, "tree after undoing the undo", afterCall, tree(t, dir))
	final := personState(t, dir, git)
	delete(final, "status") // the working tree is the call's again
	delete(before, "status")
	sameState(t, before, final)
}

func sameMap(t *testing.T, what string, want, got map[string]string) {
	t.Helper()
	var diff []string
	for k, v := range want {
		if got[k] != v {
			diff = append(diff, k+": want "+v+", got "+got[k])
		}
	}
	for k, v := range got {
		if _, ok := want[k]; !ok {
			diff = append(diff, k+": unexpected "+v)
		}
	}
	sort.Strings(diff)
	if len(diff) > 0 {
		t.Errorf("%s differs:\n%s", what, strings.Join(diff, "\n"))
	}
}

func TestCheckpointOfAnUnchangedTreeReusesTheLastOne(t *testing.T) {
	dir, _ := workingDay(t)
	o := opts(t)
	a, err := Take(dir, "s", "t1", "", o)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Take(dir, "s", "t2", "", o)
	if err != nil {
		t.Fatal(err)
	}
	if !b.Reused || b.ID != a.ID || b.Ref != a.Ref || b.Seq != a.Seq+1 {
		t.Errorf("second checkpoint of the same tree: %+v after %+v", b, a)
	}
	found, err := Find(o, "t2")
	if err != nil || found.ID != a.ID {
		t.Errorf("Find(t2) = %+v, %v", found, err)
	}
}

func TestCheckpointSkipsFilesAboveTheBound(t *testing.T) {
	dir, git := workingDay(t)
	write(t, dir, "big.bin", strings.Repeat("x", 2000))
	o := opts(t)
	o.MaxFileSize = 1000
	c, err := Take(dir, "s", "t", "", o)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Skipped) != 1 || c.Skipped[0] != "big.bin" {
		t.Errorf("skipped %v, want [big.bin]", c.Skipped)
	}
	if strings.Contains(git("ls-tree", "-r", "--name-only", c.ID), "big.bin") {
		t.Error("a file above the bound was copied")
	}
	// An undo leaves it as it is.
	write(t, dir, "big.bin", strings.Repeat("y", 2000))
	p, err := PlanUndo(c, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, ch := range p.Changes {
		if ch.Path == "big.bin" {
			t.Errorf("undo would change big.bin: %+v", ch)
		}
	}
}

func TestKeepPrunesTheOldestCheckpointsAndTheirRefs(t *testing.T) {
	dir, git := workingDay(t)
	o := opts(t)
	o.Keep = 3
	var cs []Checkpoint
	for i := range 5 {
		write(t, dir, "WORK.md", strings.Repeat("v", i+1))
		c, err := Take(dir, "s", "t"+string(rune('0'+i)), "", o)
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, c)
	}
	list, err := List(o, "")
	if err != nil || len(list) != 3 || list[0].ID != cs[2].ID {
		t.Fatalf("kept %d (%v), want the last 3", len(list), err)
	}
	refs := git("for-each-ref", "--format=%(refname)", "refs/oath/")
	for i, c := range cs {
		if kept := strings.Contains(refs, c.Ref+"\n"); kept != (i >= 2) {
			t.Errorf("ref %s kept=%v:\n%s", c.Ref, kept, refs)
		}
	}
	if _, err := Find(o, "t0"); err == nil {
		t.Error("a pruned checkpoint is still found")
	}
}

func TestExcludedDirectoryIsNotKept(t *testing.T) {
	dir, git := workingDay(t)
	write(t, dir, "oath-harness/audit/x.jsonl", "{}\n")
	o := opts(t)
	o.Exclude = filepath.Join(dir, "oath-harness")
	c, err := Take(dir, "s", "t", "", o)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(git("ls-tree", "-r", "--name-only", c.ID), "oath-harness/") {
		t.Error("the harness's own state was kept")
	}
}

func TestLinkedWorktree(t *testing.T) {
	dir, git := workingDay(t)
	wt := filepath.Join(t.TempDir(), "wt")
	git("worktree", "add", "-q", wt, "feature")
	write(t, wt, "WT.md", "in the worktree\n")
	c, err := Take(wt, "s", "t", "", opts(t))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(git("ls-tree", "-r", "--name-only", c.ID), "WT.md") {
		t.Error("worktree file missing")
	}
	if _, err := os.Stat(filepath.Join(dir, ".git", filepath.FromSlash(c.Ref))); err != nil {
		t.Errorf("the ref is not in the common directory: %v", err)
	}
	_ = time.Now
	_ = bytes.Equal
}

// A tracked directory replaced by a link is a link, as git add -A records it, not the files
// the link leads to.
func TestCheckpointTrackedDirectoryReplacedByALink(t *testing.T) {
	dir, _ := workingDay(t)
	other := t.TempDir()
	write(t, other, "a.go", "elsewhere\n")
	os.RemoveAll(filepath.Join(dir, "src", "sub"))
	os.Symlink(other, filepath.Join(dir, "src", "sub"))
	c, err := Take(dir, "s", "t", "", opts(t))
	if err != nil {
		t.Fatal(err)
	}
	if want := gitTree(t, dir); c.Tree != want {
		t.Errorf("tree %s, git add -A records %s", c.Tree, want)
	}
}
