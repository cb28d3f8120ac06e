package checkpoint

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func init() { mirrorListedCount = mirrorListed.Load }

// history is what git log --all would show of the person's refs, besides the checkpoints'.
func history(git func(...string) string) string {
	return git("log", "--branches", "--tags", "--format=%H %s") + git("rev-parse", "refs/stash") + git("stash", "list")
}

// undoAll plans and applies an undo to c, failing the test on an error.
func undoAll(t *testing.T, c Checkpoint, o Options) *Plan {
	t.Helper()
	p, err := PlanUndo(c, o)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.Apply("s1", o); err != nil {
		t.Fatal(err)
	}
	return p
}

// The call the harness could not read deletes .git with the work: the undo rebuilds the
// repository from the mirror and the person's git state and work are as they were.
func TestUndoAfterGitIsDeleted(t *testing.T) {
	for _, how := range []string{"rm -rf .git", "sandbox", "objects", "refs"} {
		t.Run(how, func(t *testing.T) {
			dir, git := workingDay(t)
			o := opts(t)
			before := personState(t, dir, git)
			wantTree := tree(t, dir)
			log := history(git)
			c, err := Take(dir, "s1", "toolu_1", "", o)
			if err != nil {
				t.Fatal(err)
			}
			if !c.HistoryKept() || c.Mirror == "" || c.State == "" {
				t.Fatalf("the checkpoint's history is not kept: %+v", c)
			}
			os.Remove(filepath.Join(dir, "WORK.md"))
			os.RemoveAll(filepath.Join(dir, "notes"))
			write(t, dir, "src/a.go", "clobbered\n")
			g := filepath.Join(dir, ".git")
			switch how {
			case "rm -rf .git":
				os.RemoveAll(g)
			case "sandbox": // what rm -rf .git leaves inside Claude Code's sandbox: config and hooks
				write(t, dir, ".git/hooks/pre-commit", "#!/bin/sh\n")
				des, _ := os.ReadDir(g)
				for _, de := range des {
					if de.Name() != "config" && de.Name() != "hooks" {
						os.RemoveAll(filepath.Join(g, de.Name()))
					}
				}
			case "objects":
				os.RemoveAll(filepath.Join(g, "objects"))
			case "refs":
				os.RemoveAll(filepath.Join(g, "refs"))
				os.Remove(filepath.Join(g, "packed-refs"))
			}
			p := undoAll(t, c, o)
			if p.Repository == nil || p.Repository.Action != RepairRebuild {
				t.Fatalf("the plan does not rebuild the repository: %+v", p.Repository)
			}
			sameMap(t, "working tree", wantTree, tree(t, dir))
			sameState(t, before, personState(t, dir, git))
			if got := history(git); got != log {
				t.Errorf("history after the undo:\n%s\nwant\n%s", got, log)
			}
			if got := strings.TrimSpace(git("rev-parse", c.Ref)); got != c.ID {
				t.Errorf("the checkpoint's ref after the rebuild: %q, want %s", got, c.ID)
			}
			git("fsck", "--no-dangling")
			if how == "sandbox" {
				if p.Repository.Remains == "" {
					t.Error("what was left of .git is not kept")
				}
				if _, err := os.Stat(filepath.Join(g, "hooks", "pre-commit")); err != nil {
					t.Errorf("the hooks were not put back: %v", err)
				}
			}
			// The undo itself can be undone: its checkpoint was taken in the rebuilt repository.
			if p.Before == nil || !p.Before.HistoryKept() {
				t.Errorf("the undo's own checkpoint: %+v", p.Before)
			}
		})
	}
}

// Deleting only the checkpoints' refs, then git gc, leaves the repository usable: the undo
// reads the checkpoint through the mirror and changes nothing of the repository.
func TestUndoAfterCheckpointRefsDeletedAndGC(t *testing.T) {
	dir, git := workingDay(t)
	o := opts(t)
	c, err := Take(dir, "s1", "toolu_1", "", o)
	if err != nil {
		t.Fatal(err)
	}
	wantTree := tree(t, dir)
	os.RemoveAll(filepath.Join(dir, ".git", "refs", "oath"))
	os.Remove(filepath.Join(dir, "WORK.md"))
	git("reflog", "expire", "--expire-unreachable=now", "--all")
	git("gc", "-q", "--prune=now")
	if _, err := (repo{top: dir}).git(nil, "cat-file", "-e", c.ID); err == nil {
		t.Fatal("git gc kept the checkpoint's commit: the test shows nothing")
	}
	before := personState(t, dir, git)
	p := undoAll(t, c, o)
	if p.Repository != nil {
		t.Errorf("a usable repository was repaired: %+v", p.Repository)
	}
	sameMap(t, "working tree", wantTree, tree(t, dir))
	after := personState(t, dir, git)
	delete(before, "status")
	delete(after, "status")
	sameState(t, before, after)
}

// The same, when a later checkpoint's sync had kept the stat of the directories the first
// checkpoint wrote into: the undo's own checkpoint then moves the pruned object files to a new
// directory of the mirror (gone/<seq>) after the plan looked, and the undo reads them there.
func TestUndoAfterGCPrunedObjectFilesTheMirrorHadListed(t *testing.T) {
	dir, git := workingDay(t)
	o := opts(t)
	c, err := Take(dir, "s1", "toolu_1", "", o)
	if err != nil {
		t.Fatal(err)
	}
	wantTree := tree(t, dir)
	time.Sleep(20 * time.Millisecond) // past the file system's tick: the next sync keeps their stat
	write(t, dir, "other.txt", "other\n")
	git("add", "other.txt") // the repository's state changes: the next sync lists the directories
	if _, err := Take(dir, "s1", "toolu_2", "", o); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(dir, ".git", "refs", "oath"))
	os.Remove(filepath.Join(dir, "WORK.md"))
	git("reflog", "expire", "--expire-unreachable=now", "--all")
	git("gc", "-q", "--prune=now")
	undoAll(t, c, o)
	sameMap(t, "working tree", wantTree, tree(t, dir))
}

// Object files deleted while HEAD and the refs stay: they are brought back from the mirror.
func TestUndoBringsBackDeletedObjectFiles(t *testing.T) {
	dir, git := workingDay(t)
	o := opts(t)
	c, err := Take(dir, "s1", "toolu_1", "", o)
	if err != nil {
		t.Fatal(err)
	}
	log := history(git)
	head := strings.TrimSpace(git("rev-parse", "HEAD"))
	os.RemoveAll(filepath.Join(dir, ".git", "objects", head[:2]))
	p := undoAll(t, c, o)
	if p.Repository == nil || p.Repository.Action != RepairObjects || p.Repository.Objects == 0 {
		t.Fatalf("repair %+v, want objects brought back", p.Repository)
	}
	if got := history(git); got != log {
		t.Errorf("history:\n%s\nwant\n%s", got, log)
	}
	git("fsck", "--no-dangling")
}

// git gc between two checkpoints moves the old object files to gone/; a branch deleted and
// collected between them is still brought back by an undo to the first after .git is lost.
func TestUndoAfterGCBetweenCheckpointsThenDestruction(t *testing.T) {
	dir, git := workingDay(t)
	o := opts(t)
	// A branch whose commit nothing else names (made without touching the index).
	tmpHead := strings.TrimSpace(git("commit-tree", "HEAD^{tree}", "-p", "HEAD", "-m", "tmp work"))
	git("branch", "tmp", tmpHead)
	before := personState(t, dir, git)
	c1, err := Take(dir, "s1", "toolu_1", "", o)
	if err != nil {
		t.Fatal(err)
	}
	git("branch", "-D", "tmp")
	git("reflog", "expire", "--expire-unreachable=now", "--all")
	git("gc", "-q", "--prune=now")
	if _, err := (repo{top: dir}).git(nil, "cat-file", "-e", tmpHead); err == nil {
		t.Fatal("git gc kept the deleted branch's commit: the test shows nothing")
	}
	c2, err := Take(dir, "s1", "toolu_2", "", o)
	if err != nil || !c2.HistoryKept() {
		t.Fatal(err, c2.NoHistory)
	}
	gone := filepath.Join(o.Dir, "mirror", c1.Mirror, "gone", strconv.Itoa(c2.Seq-1))
	if _, err := os.Stat(gone); err != nil {
		t.Fatalf("the files gc dropped are not kept for checkpoint %d: %v", c1.Seq, err)
	}
	os.RemoveAll(filepath.Join(dir, ".git"))
	undoAll(t, c1, o)
	if got := strings.TrimSpace(git("rev-parse", "tmp")); got != tmpHead {
		t.Errorf("branch tmp = %s, want %s", got, tmpHead)
	}
	git("cat-file", "-e", tmpHead)
	after := personState(t, dir, git)
	for _, k := range []string{"index", "HEAD", "stash list", "branches"} {
		if after[k] != before[k] {
			t.Errorf("%s: %q, want %q", k, after[k], before[k])
		}
	}
}

// Where a hard link is refused (another file system), object files are copied, within the
// bound; past it the checkpoint is taken but says its history is not kept.
func TestMirrorCopiesWhereLinksAreRefused(t *testing.T) {
	testOnlyLink = func(string, string) error { return &os.LinkError{Op: "link", Err: syscall.EXDEV} }
	defer func() { testOnlyLink = nil }()

	dir, git := workingDay(t)
	o := opts(t)
	c, err := Take(dir, "s1", "toolu_1", "", o)
	if err != nil || !c.HistoryKept() {
		t.Fatalf("%v %q", err, c.NoHistory)
	}
	obj := filepath.Join(o.Dir, "mirror", c.Mirror, "objects")
	head := strings.TrimSpace(git("rev-parse", "HEAD"))
	fi, err := os.Stat(filepath.Join(obj, head[:2], head[2:]))
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := statOf(fi); st.links != 1 {
		t.Errorf("the object is linked (%d links), want a copy", st.links)
	}
	os.RemoveAll(filepath.Join(dir, ".git"))
	os.Remove(filepath.Join(dir, "WORK.md"))
	undoAll(t, c, o)
	if b, _ := os.ReadFile(filepath.Join(dir, "WORK.md")); string(b) != "mine\n" {
		t.Errorf("WORK.md = %q", b)
	}

	dir2, _ := workingDay(t)
	o2 := opts(t)
	o2.MirrorMaxCopy = 100
	c2, err := Take(dir2, "s1", "toolu_1", "", o2)
	if err != nil {
		t.Fatal(err)
	}
	if c2.HistoryKept() || !strings.Contains(c2.NoHistory, "bound") {
		t.Errorf("past the bound the history must be said not kept: %+v", c2)
	}
	os.RemoveAll(filepath.Join(dir2, ".git"))
	if _, err := PlanUndo(c2, o2); err == nil || !strings.Contains(err.Error(), "not kept outside the project") {
		t.Errorf("an undo without the history: %v", err)
	}
}

// Pruning drops what no kept checkpoint needs, and keeps what one does.
func TestMirrorPruneKeepsWhatAKeptCheckpointNeeds(t *testing.T) {
	dir, git := workingDay(t)
	o := opts(t)
	o.Keep = 2
	c1, err := Take(dir, "s1", "toolu_1", "", o)
	if err != nil {
		t.Fatal(err)
	}
	git("gc", "-q", "--prune=now")
	write(t, dir, "WORK.md", "two\n")
	c2, err := Take(dir, "s1", "toolu_2", "", o)
	if err != nil {
		t.Fatal(err)
	}
	m := filepath.Join(o.Dir, "mirror", c1.Mirror)
	gone := filepath.Join(m, "gone", strconv.Itoa(c2.Seq-1))
	if _, err := os.Stat(gone); err != nil {
		t.Fatalf("checkpoint %d is kept, so the files it saw must be: %v", c1.Seq, err)
	}
	write(t, dir, "WORK.md", "three\n")
	c3, err := Take(dir, "s1", "toolu_3", "", o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(gone); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("checkpoint %d was pruned, the files only it saw must go: %v", c1.Seq, err)
	}
	if _, err := os.Stat(filepath.Join(m, "states", c1.State)); c1.State != c2.State && c1.State != c3.State && !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the pruned checkpoint's state is kept: %v", err)
	}
	want := tree(t, dir)
	write(t, dir, "WORK.md", "four\n")
	os.RemoveAll(filepath.Join(dir, ".git"))
	undoAll(t, c3, o)
	sameMap(t, "working tree", want, tree(t, dir))
	git("fsck", "--no-dangling")
}

// Checkpoints taken at once (hooks of parallel calls) leave a mirror that rebuilds the
// repository (run with -race).
func TestMirrorConcurrentTakes(t *testing.T) {
	dir, git := workingDay(t)
	o := opts(t)
	var wg sync.WaitGroup
	cs := make([]Checkpoint, 4)
	errs := make([]error, len(cs))
	for i := range cs {
		wg.Go(func() {
			write(t, dir, "par/"+strconv.Itoa(i), strconv.Itoa(i))
			cs[i], errs[i] = Take(dir, "s1", "toolu_"+strconv.Itoa(i), "", o)
		})
	}
	wg.Wait()
	last := cs[0]
	for i, c := range cs {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if !c.HistoryKept() {
			t.Errorf("checkpoint %d: %s", c.Seq, c.NoHistory)
		}
		if c.Seq > last.Seq {
			last = c
		}
	}
	log := history(git)
	os.RemoveAll(filepath.Join(dir, ".git"))
	undoAll(t, last, o)
	// The newest checkpoint's snapshot may predate another take's file: the undo puts back
	// the tree it recorded, which a checkpoint of the tree now records again.
	again, err := Take(dir, "s1", "toolu_after", "", o)
	if err != nil {
		t.Fatal(err)
	}
	if again.Tree != last.Tree {
		t.Errorf("after the undo the tree is %s, want checkpoint %d's %s", again.Tree, last.Seq, last.Tree)
	}
	if got := history(git); got != log {
		t.Errorf("history:\n%s\nwant\n%s", got, log)
	}
	git("fsck", "--no-dangling")
}

// A dry run of an undo that must rebuild shows it and changes nothing: .git stays missing.
func TestUndoPlanOfARebuildChangesNothing(t *testing.T) {
	dir, _ := workingDay(t)
	o := opts(t)
	c, err := Take(dir, "s1", "toolu_1", "", o)
	if err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(dir, ".git"))
	os.Remove(filepath.Join(dir, "WORK.md"))
	before := tree(t, dir)
	p, err := PlanUndo(c, o)
	if err != nil {
		t.Fatal(err)
	}
	if p.Repository == nil || p.Repository.Action != RepairRebuild || !strings.Contains(p.Repository.Why, "missing") || p.Repository.Objects == 0 {
		t.Errorf("repair %+v", p.Repository)
	}
	found := false
	for _, ch := range p.Changes {
		found = found || ch.Path == "WORK.md" && ch.Action == ActionCreate
	}
	if !found {
		t.Errorf("changes %+v lack WORK.md", p.Changes)
	}
	p.Close()
	if _, err := os.Lstat(filepath.Join(dir, ".git")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the plan made .git: %v", err)
	}
	sameMap(t, "working tree", before, tree(t, dir))
	views, _ := filepath.Glob(filepath.Join(o.Dir, "mirror", c.Mirror, "view-*"))
	if len(views) > 0 {
		t.Errorf("the plan's view is left behind: %v", views)
	}
}

// A linked worktree's repository lies outside the project, where the sandbox cannot write:
// its history is kept without a mirror, and when the call deletes the worktree's .git file the
// undo writes it back.
func TestUndoInLinkedWorktreeAfterGitFileDeleted(t *testing.T) {
	_, git := workingDay(t)
	wt := filepath.Join(t.TempDir(), "wt")
	git("worktree", "add", "-q", wt, "feature")
	write(t, wt, "WT.md", "in the worktree\n")
	o := opts(t)
	c, err := Take(wt, "s", "toolu_1", "", o)
	if err != nil {
		t.Fatal(err)
	}
	if !c.HistoryKept() || c.GitDir == "" || c.Mirror != "" {
		t.Fatalf("a worktree's repository outside the project: %+v", c)
	}
	gitFile, _ := os.ReadFile(filepath.Join(wt, ".git"))
	os.Remove(filepath.Join(wt, ".git"))
	os.Remove(filepath.Join(wt, "WT.md"))
	p := undoAll(t, c, o)
	if p.Repository == nil || p.Repository.Action != RepairGitFile {
		t.Fatalf("repair %+v", p.Repository)
	}
	if b, _ := os.ReadFile(filepath.Join(wt, "WT.md")); string(b) != "in the worktree\n" {
		t.Errorf("WT.md = %q", b)
	}
	b, err := os.ReadFile(filepath.Join(wt, ".git"))
	if err != nil || strings.TrimSpace(string(b)) != strings.TrimSpace(string(gitFile)) {
		t.Errorf(".git file %q, %v; want %q", b, err, gitFile)
	}
	if got := git("-C", wt, "rev-parse", "--abbrev-ref", "HEAD"); strings.TrimSpace(got) != "feature" {
		t.Errorf("the worktree's HEAD: %q", got)
	}
}

// The index is kept by a hard link named by its own checksum (no copy on the hot path); git
// replaces it by rename, so the link keeps the checkpoint's version. An index without a
// checksum (index.skipHash) is copied.
func TestMirrorLinksTheIndex(t *testing.T) {
	dir, git := workingDay(t)
	o := opts(t)
	indexOf := func(c Checkpoint) (stateFile, *mirror) {
		t.Helper()
		m := &mirror{dir: mirrorPath(o.Dir, c.Mirror)}
		st, err := m.readState(c.State)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range st {
			if f.path == "index" {
				return f, m
			}
		}
		t.Fatal("the state keeps no index")
		return stateFile{}, nil
	}
	c1, err := Take(dir, "s", "t1", "", o)
	if err != nil {
		t.Fatal(err)
	}
	f1, m := indexOf(c1)
	want, _ := os.ReadFile(filepath.Join(dir, ".git", "index"))
	fi, err := os.Stat(filepath.Join(m.dir, "files", f1.sum))
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := statOf(fi); st.links < 2 {
		t.Errorf("the index is copied (%d links), want a link", st.links)
	}
	git("add", "WORK.md") // git writes a new index and renames it over the old one
	c2, err := Take(dir, "s", "t2", "", o)
	if err != nil {
		t.Fatal(err)
	}
	if f2, _ := indexOf(c2); f2.sum == f1.sum {
		t.Error("a new index is named as the old one")
	}
	if got, err := m.readFile(f1); err != nil || string(got) != string(want) {
		t.Errorf("the first checkpoint's index: %v (same: %v)", err, string(got) == string(want))
	}

	git("config", "index.skipHash", "true")
	git("add", "notes")
	c3, err := Take(dir, "s", "t3", "", o)
	if err != nil || !c3.HistoryKept() {
		t.Fatal(err, c3.NoHistory)
	}
	f3, _ := indexOf(c3)
	got, err := m.readFile(f3)
	if now, _ := os.ReadFile(filepath.Join(dir, ".git", "index")); err != nil || string(got) != string(now) {
		t.Errorf("an index without a checksum: %v", err)
	}
}

// When nothing the repository names changed since the previous checkpoint, a sync looks only at
// the directories of the checkpoint's own objects; they are enough to rebuild it.
func TestMirrorSyncOfAnUnchangedRepositoryKeepsTheCheckpointsObjects(t *testing.T) {
	dir, git := workingDay(t)
	o := opts(t)
	if _, err := Take(dir, "s1", "toolu_1", "", o); err != nil {
		t.Fatal(err)
	}
	write(t, dir, "WORK.md", "changed after the first checkpoint\n")
	write(t, dir, "notes/new.md", "new\n")
	// An object git wrote that nothing names (so no ref, reflog or index changed), whose
	// content a file of the checkpoint has: the checkpoint finds it there and must mirror it.
	write(t, dir, "hashed.txt", "written by git hash-object -w\n")
	git("hash-object", "-w", "hashed.txt")
	full := mirrorFullSyncs.Load()
	c2, err := Take(dir, "s1", "toolu_2", "", o)
	if err != nil || !c2.HistoryKept() {
		t.Fatal(err, c2.NoHistory)
	}
	if mirrorFullSyncs.Load() != full {
		t.Error("the sync of an unchanged repository looked at every objects directory")
	}
	want := tree(t, dir)
	log := history(git)
	os.RemoveAll(filepath.Join(dir, ".git"))
	os.Remove(filepath.Join(dir, "WORK.md"))
	os.Remove(filepath.Join(dir, "hashed.txt"))
	undoAll(t, c2, o)
	sameMap(t, "working tree", want, tree(t, dir))
	if got := history(git); got != log {
		t.Errorf("history:\n%s\nwant\n%s", got, log)
	}
	git("fsck", "--no-dangling")
}

// A sync keeps the stat of a directory it listed when the directory was stamped before the
// sync began by the file system's own clock, so the next sync, back to back, does not list it
// again; a file added after the listing moves the stat, and the next sync finds it.
func TestMirrorScanTrustsTheFileSystemsClock(t *testing.T) {
	for _, fsClock := range []bool{true, false} {
		t.Run("fsclock="+strconv.FormatBool(fsClock), func(t *testing.T) {
			testOnlyNoFSClock = !fsClock
			defer func() { testOnlyNoFSClock = false }()
			dir, _ := benchProject(t, 600) // objects in every one of the 256 directories
			r, _, err := findRepo(dir)
			if err != nil {
				t.Fatal(err)
			}
			opt := opts(t)
			sync := func(seq int) int64 {
				t.Helper()
				listed := mirrorListed.Load()
				if _, _, err := r.syncMirror(opt, seq, nil); err != nil { // no previous state: the objects are looked at
					t.Fatal(err)
				}
				return mirrorListed.Load() - listed
			}
			sync(1)
			again := sync(2)
			if fsClock && again > 4 {
				t.Errorf("a sync back to back with the first listed %d directories again, want at most the last few written", again)
			}
			if !fsClock && again < 200 {
				t.Errorf("by the machine's clock, a sync back to back listed only %d directories again: directories written within the margin must be", again)
			}
			prefix := ""
			for i, n := 0, 0; i < 20; n++ {
				// Right after a sync, in the same tick of the clock as its listing, into the
				// directory the sync listed last.
				data := []byte("foreign " + strconv.Itoa(n))
				if s := hashObject("blob", data).String(); prefix != "" && s[:2] != prefix {
					continue
				} else {
					prefix = s[:2]
				}
				i++
				o, err := writeLoose(r.objectsDir(), "blob", data, false)
				if err != nil {
					t.Fatal(err)
				}
				sync(3 + i)
				s := o.String()
				if _, err := os.Lstat(filepath.Join(mirrorPath(opt.Dir, mirrorKey(r.common)), "objects", s[:2], s[2:])); err != nil {
					t.Fatalf("object %s, written right after a sync, is not in the mirror after the next: %v", s, err)
				}
			}
		})
	}
}
