package checkpoint

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// plainProject is a project that is not a git repository, as a working day leaves it: files
// in directories, an executable, a link, an empty file, a nested git repository and the
// harness's own state inside it.
func plainProject(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	write(t, dir, "WORK.md", "mine\n")
	write(t, dir, "src/a.go", "package a\n")
	write(t, dir, "src/sub/c.go", "package c\n")
	write(t, dir, "notes/todo.md", "- a\n")
	write(t, dir, "empty", "")
	write(t, dir, "run.sh", "#!/bin/sh\n")
	os.Chmod(filepath.Join(dir, "run.sh"), 0o755)
	os.Symlink("src/a.go", filepath.Join(dir, "link"))
	write(t, dir, "vendor/lib/.git/HEAD", "ref: refs/heads/main\n")
	write(t, dir, "vendor/lib/x.go", "package lib\n")
	return dir
}

// stateOpts keeps the checkpoints under a state directory outside the project.
func stateOpts(t testing.TB) Options {
	return Options{Dir: filepath.Join(t.TempDir(), "checkpoints"), Keep: DefaultKeep, MaxFileSize: DefaultMaxFileSize}
}

// Issue 27 item 1, a project that is not a git repository: the checkpoint is kept in the
// harness's state, and undo (and the undo of the undo) brings the files back byte for byte.
func TestStateCheckpointAndUndo(t *testing.T) {
	dir := plainProject(t)
	o := stateOpts(t)
	want := tree(t, dir)
	c, err := Take(dir, "s1", "toolu_1", "", o)
	if err != nil {
		t.Fatal(err)
	}
	if c.Kind != KindState || c.Ref != "" || c.Files != 7 || len(c.Skipped) != 1 || c.Skipped[0] != "vendor/lib/" {
		t.Fatalf("checkpoint %+v: want kind state, 7 files, vendor/lib/ skipped", c)
	}
	if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
		t.Fatal("the checkpoint made the project a git repository")
	}

	os.Remove(filepath.Join(dir, "WORK.md"))
	os.RemoveAll(filepath.Join(dir, "notes"))
	write(t, dir, "src/a.go", "package a\n// clobbered\n")
	write(t, dir, "made.txt", "by the call\n")
	os.Chmod(filepath.Join(dir, "run.sh"), 0o644)
	os.Remove(filepath.Join(dir, "link"))
	write(t, dir, "vendor/lib/x.go", "package lib // its own repository's business\n")
	afterCall := tree(t, dir)

	p, err := PlanUndo(c, o)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, ch := range p.Changes {
		got[ch.Path] = ch.Action
	}
	sameMap(t, "plan", map[string]string{"WORK.md": "create", "notes/todo.md": "create", "src/a.go": "restore",
		"made.txt": "delete", "run.sh": "restore", "link": "create"}, got)
	if err := p.Apply("s1", o); err != nil {
		t.Fatal(err)
	}
	after := tree(t, dir)
	want["vendor/lib/x.go"] = afterCall["vendor/lib/x.go"] // a nested repository is left alone
	sameMap(t, "tree after undo", want, after)

	p2, err := PlanUndo(*p.Before, o)
	if err != nil {
		t.Fatal(err)
	}
	if err := p2.Apply("s1", o); err != nil {
		t.Fatal(err)
	}
	sameMap(t, "tree after undoing the undo", afterCall, tree(t, dir))
	if list, _ := List(o, ""); len(list) != 3 {
		t.Errorf("log has %d lines, want 3 (the call's, and one before each undo)", len(list))
	}
}

// The stat cache: an unchanged tree writes nothing, and a change that keeps a file's size and
// mtime is still seen (its ctime moved).
func TestStateCheckpointReusesAndSeesChanges(t *testing.T) {
	dir := plainProject(t)
	o := stateOpts(t)
	old := time.Now().Add(-time.Hour)
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			os.Chtimes(p, old, old) // out of the racy margin
		}
		return nil
	})
	time.Sleep(racyMargin + 100*time.Millisecond) // the ctimes Chtimes set, out of the margin too
	c1, err := Take(dir, "s", "t1", "", o)
	if err != nil {
		t.Fatal(err)
	}
	m := manifestPath(o.Dir, c1.ID)
	fi1, _ := os.Stat(m)
	c2, err := Take(dir, "s", "t2", "", o)
	if err != nil {
		t.Fatal(err)
	}
	if !c2.Reused || c2.ID != c1.ID {
		t.Errorf("an unchanged tree: %+v, want the previous checkpoint reused", c2)
	}
	if fi2, _ := os.Stat(m); !fi2.ModTime().Equal(fi1.ModTime()) {
		t.Error("the manifest of an unchanged tree was written again")
	}
	// Same size, same mtime, other content.
	p := filepath.Join(dir, "src", "a.go")
	os.WriteFile(p, []byte("package b\n"), 0o644)
	os.Chtimes(p, old, old)
	c3, err := Take(dir, "s", "t3", "", o)
	if err != nil {
		t.Fatal(err)
	}
	if c3.ID == c1.ID {
		t.Fatal("a change that keeps size and mtime was not seen")
	}
}

func TestStateCheckpointSkipsFilesAboveTheBound(t *testing.T) {
	dir := plainProject(t)
	write(t, dir, "big.bin", strings.Repeat("x", 2048))
	o := stateOpts(t)
	o.MaxFileSize = 1024
	c, err := Take(dir, "s", "t", "", o)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(c.Skipped, ","), "big.bin") {
		t.Fatalf("skipped %v, want big.bin listed", c.Skipped)
	}
	os.Remove(filepath.Join(dir, "big.bin"))
	p, err := PlanUndo(c, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, ch := range p.Changes {
		if ch.Path == "big.bin" {
			t.Errorf("undo would change big.bin: %+v", ch)
		}
	}
	if strings.Join(p.Kept, ",") != "big.bin,vendor/lib/" {
		t.Errorf("kept %v, want big.bin and the nested repository (not kept, left as they are)", p.Kept)
	}
}

// The home directory (or /) is no project to copy on every call: the call is judged as
// without a checkpoint.
func TestStateCheckpointRefusesTheHomeDirectory(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	if _, err := Take(home, "s", "t", "", stateOpts(t)); err != ErrNoRepository {
		t.Errorf("err = %v, want ErrNoRepository", err)
	}
}

// The harness's own state inside the project is not kept.
func TestStateCheckpointExcludesTheHarness(t *testing.T) {
	dir := plainProject(t)
	o := Options{Dir: filepath.Join(dir, "oath-harness", "checkpoints"), Keep: 10, Exclude: filepath.Join(dir, "oath-harness")}
	write(t, dir, "oath-harness/audit/2026-01-01.jsonl", "{}\n")
	c, err := Take(dir, "s", "t", "", o)
	if err != nil {
		t.Fatal(err)
	}
	es, err := dirStore{top: dir, dir: o.Dir}.files(c)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		if strings.HasPrefix(e.path, "oath-harness/") {
			t.Errorf("kept %s", e.path)
		}
	}
}

// The tree changed between the plan and its application: nothing is changed.
func TestUndoRefusesATreeChangedSinceThePlan(t *testing.T) {
	for _, kind := range []string{KindGit, KindState} {
		t.Run(kind, func(t *testing.T) {
			var dir string
			if kind == KindGit {
				dir, _ = workingDay(t)
			} else {
				dir = plainProject(t)
			}
			o := stateOpts(t)
			c, err := Take(dir, "s", "t", "", o)
			if err != nil {
				t.Fatal(err)
			}
			os.Remove(filepath.Join(dir, "WORK.md"))
			p, err := PlanUndo(c, o)
			if err != nil {
				t.Fatal(err)
			}
			write(t, dir, "late.txt", "written while the person read the plan\n")
			if err := p.Apply("s", o); err != errChanged {
				t.Fatalf("Apply: %v, want errChanged", err)
			}
			if _, err := os.Stat(filepath.Join(dir, "WORK.md")); err == nil {
				t.Error("the undo changed the tree anyway")
			}
		})
	}
}

// Hooks of parallel calls take checkpoints of one project at the same moment (run with -race):
// every line of the log names a checkpoint whose files and contents are all there.
func TestStateCheckpointConcurrentTakes(t *testing.T) {
	dir := plainProject(t)
	o := stateOpts(t)
	o.Keep = 5
	defer func(d time.Duration) { lockTimeout = d }(lockTimeout)
	lockTimeout = time.Minute
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 8 {
		wg.Go(func() {
			for i := range 6 {
				write(t, dir, fmt.Sprintf("g%d.txt", g), fmt.Sprintf("round %d\n", i))
				if _, err := Take(dir, "s", fmt.Sprintf("t%d-%d", g, i), "", o); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	list, err := List(o, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != o.Keep {
		t.Errorf("%d kept, want %d", len(list), o.Keep)
	}
	seqs := map[int]bool{}
	d := dirStore{top: dir, dir: o.Dir}
	for _, c := range list {
		if seqs[c.Seq] {
			t.Errorf("sequence number %d twice", c.Seq)
		}
		seqs[c.Seq] = true
		es, err := d.files(c)
		if err != nil {
			t.Fatalf("checkpoint %d: %v", c.Seq, err)
		}
		var cs []Change
		for _, e := range es {
			cs = append(cs, Change{Path: e.path, mode: e.mode, oid: e.oid})
		}
		if _, err := d.blobs(cs, o.MaxFileSize); err != nil {
			t.Errorf("checkpoint %d: %v", c.Seq, err)
		}
	}
	des, _ := os.ReadDir(filepath.Join(o.Dir, "manifests"))
	for _, de := range des {
		if strings.Contains(de.Name(), "tmp") {
			t.Errorf("a temporary file is left: %s", de.Name())
		}
	}
}

// checkpoint.keep bounds the state too: pruned checkpoints lose their manifests, and the
// sweep removes the contents no kept checkpoint names.
func TestStateKeepPrunesManifestsAndSweepsObjects(t *testing.T) {
	dir := plainProject(t)
	o := stateOpts(t)
	o.Keep = 2
	var cs []Checkpoint
	for i := range sweepEvery {
		write(t, dir, "WORK.md", strings.Repeat("v", i+1))
		if i == sweepEvery-1 {
			// Objects written long ago (the sweep leaves those of the last hour).
			old := time.Now().Add(-2 * time.Hour)
			filepath.WalkDir(filepath.Join(o.Dir, "objects"), func(p string, d fs.DirEntry, err error) error {
				if err == nil && d.Type().IsRegular() {
					os.Chtimes(p, old, old)
				}
				return nil
			})
		}
		c, err := Take(dir, "s", fmt.Sprintf("t%d", i), "", o)
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, c)
	}
	des, _ := os.ReadDir(filepath.Join(o.Dir, "manifests"))
	if len(des) != 2 {
		t.Errorf("%d manifests, want 2", len(des))
	}
	if _, err := Find(o, "t0"); err == nil {
		t.Error("a pruned checkpoint is still found")
	}
	// What is left: the blobs and records of the two kept checkpoints, nothing else.
	named := map[string]bool{}
	d := dirStore{top: dir, dir: o.Dir}
	for _, c := range cs[len(cs)-2:] {
		es, _ := d.files(c)
		for _, e := range es {
			named[e.oid.String()] = true
		}
		h, err := readHead(o.Dir, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		recs := map[oid]bool{}
		if err := newRecords(d.objects()).mark(h.top, recs); err != nil {
			t.Fatal(err)
		}
		for r := range recs {
			named[r.String()] = true
		}
	}
	n := 0
	filepath.WalkDir(filepath.Join(o.Dir, "objects"), func(p string, de fs.DirEntry, err error) error {
		if err == nil && de.Type().IsRegular() && de.Name() != "sweep-due" {
			n++
			if id := filepath.Base(filepath.Dir(p)) + de.Name(); !named[id] {
				t.Errorf("object %s survived the sweep", id)
			}
		}
		return nil
	})
	if n != len(named) {
		t.Errorf("%d objects, want %d", n, len(named))
	}
	if sweepDue(o) {
		t.Error("the sweep is still due")
	}
	for _, c := range cs[len(cs)-2:] {
		if _, err := PlanUndo(c, o); err != nil {
			t.Errorf("a kept checkpoint cannot be planned: %v", err)
		}
	}
}

// Checkpoints are pruned with the audit trail's own retention: those taken on a day older than
// the trail's oldest day file go, in both stores, with their refs or their lists of files.
func TestPruneFollowsTheAuditTrailsRetention(t *testing.T) {
	for _, kind := range []string{KindGit, KindState} {
		t.Run(kind, func(t *testing.T) {
			var dir string
			var git func(...string) string
			if kind == KindGit {
				dir, git = workingDay(t)
			} else {
				dir = plainProject(t)
			}
			o := stateOpts(t)
			o.AuditDir = filepath.Join(t.TempDir(), "audit")
			day := func(d int) time.Time { return time.Date(2026, 3, d, 12, 0, 0, 0, time.UTC) }
			var cs []Checkpoint
			for d := 1; d <= 4; d++ {
				o.Now = func() time.Time { return day(d) }
				write(t, dir, "WORK.md", strings.Repeat("v", d))
				c, err := Take(dir, "s", fmt.Sprintf("t%d", d), "", o)
				if err != nil {
					t.Fatal(err)
				}
				cs = append(cs, c)
			}
			if l, _ := List(o, ""); len(l) != 4 {
				t.Fatalf("%d kept before the trail has day files, want 4", len(l))
			}
			// The person archived the trail's first two days.
			write(t, o.AuditDir, "2026-03-03.jsonl", "{}\n")
			write(t, o.AuditDir, "2026-03-04.jsonl", "{}\n")
			o.Now = func() time.Time { return day(5) }
			write(t, dir, "WORK.md", "day 5")
			if _, err := Take(dir, "s", "t5", "", o); err != nil {
				t.Fatal(err)
			}
			l, _ := List(o, "")
			var kept []string
			for _, c := range l {
				kept = append(kept, c.ToolUseID)
			}
			if strings.Join(kept, ",") != "t3,t4,t5" {
				t.Errorf("kept %v, want t3,t4,t5", kept)
			}
			if kind == KindGit {
				refs := git("for-each-ref", "--format=%(refname)", "refs/oath/")
				for i, c := range cs {
					if strings.Contains(refs, c.Ref+"\n") != (i >= 2) {
						t.Errorf("ref %s of day %d: kept=%v", c.Ref, i+1, !(i >= 2))
					}
				}
			} else {
				for i, c := range cs {
					_, err := os.Stat(manifestPath(o.Dir, c.ID))
					if (err == nil) != (i >= 2) {
						t.Errorf("list of files of day %d: present=%v", i+1, err == nil)
					}
				}
			}
		})
	}
}

// Pruning, like taking and undoing, never touches the person's branches, index, stash, reflog
// or config, nor refs it did not write.
func TestPruneLeavesThePersonsGitStateAlone(t *testing.T) {
	dir, git := workingDay(t)
	git("update-ref", "refs/oath/checkpoints/other/1", "HEAD") // not in the log: not ours to prune
	before := personState(t, dir, git)
	o := opts(t)
	o.Keep = 2
	o.AuditDir = filepath.Join(t.TempDir(), "audit")
	for d := 1; d <= 6; d++ {
		o.Now = func() time.Time { return time.Date(2026, 3, d, 0, 0, 0, 0, time.UTC) }
		if d == 5 {
			write(t, o.AuditDir, "2026-03-05.jsonl", "{}\n")
		}
		write(t, dir, "notes/todo.md", strings.Repeat("- x\n", d))
		if _, err := Take(dir, "s", fmt.Sprintf("t%d", d), "", o); err != nil {
			t.Fatal(err)
		}
	}
	after := personState(t, dir, git)
	delete(before, "status")
	delete(after, "status") // notes/todo.md: the test's own edits
	sameState(t, before, after)
	refs := git("for-each-ref", "--format=%(refname)", "refs/oath/")
	if strings.Count(refs, "\n") != 3 || !strings.Contains(refs, "refs/oath/checkpoints/other/1\n") {
		t.Errorf("refs after pruning:\n%s\nwant the two kept and the one not ours", refs)
	}
	if _, err := os.Stat(filepath.Join(dir, ".git", "logs", "refs", "oath")); err == nil {
		t.Error("a reflog was written for the checkpoints")
	}
	git("fsck", "--strict", "--no-dangling")
}

// findInLine: the first word that names a checkpoint for sure decides; an undo's note naming
// its target later in the row does not; a row's leading number must agree.
func TestFindInLine(t *testing.T) {
	log := []Checkpoint{
		{Seq: 1, ID: "4f2c1a0b99990000000000000000000000000001", ToolUseID: "toolu_a"},
		{Seq: 2, ID: "9a8b7c6d99990000000000000000000000000002", Note: "before undo to checkpoint 4f2c1a0b"},
		{Seq: 3, ID: "4f2c1a0b77770000000000000000000000000003", ToolUseID: "toolu_c"},
	}
	for _, c := range []struct {
		line string
		seq  int    // 0: an error
		err  string // part of it
	}{
		{"2\t9a8b7c6d\t2026-12-05 10:00:00\tabcdef12\tundo to checkpoint 4f2c1a0b\t130", 2, ""},
		{"1\t4f2c1a0b\t…\ttoolu_a\t3", 0, "more than one checkpoint"}, // 8 characters are not enough here
		{"1 4f2c1a0b9999 toolu_a", 1, ""},
		{"3 toolu_c", 3, ""},
		{"3 toolu_a", 0, "give one of them"},
		{"the last toolu_c: …", 3, ""},
		{"12:00:00 Bash make 130", 0, "names no checkpoint"},
		{"#2 …", 2, ""},
	} {
		got, err := findInLine(log, c.line)
		switch {
		case c.seq == 0 && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%q: %v, %v; want an error with %q", c.line, got.Seq, err, c.err)
		case c.seq != 0 && (err != nil || got.Seq != c.seq):
			t.Errorf("%q: %d, %v; want %d", c.line, got.Seq, err, c.seq)
		}
	}
}

// A project large enough to be compared on every processor (run with -race): the second
// checkpoint reads only what changed, and an undo to the first puts every file back.
func TestStateCheckpointLargeProject(t *testing.T) {
	dir := t.TempDir()
	for i := range 1500 {
		write(t, dir, fmt.Sprintf("d%02d/f%d.txt", i%30, i), fmt.Sprintf("file %d\n", i))
	}
	o := stateOpts(t)
	want := tree(t, dir)
	c1, err := Take(dir, "s", "t1", "", o)
	if err != nil {
		t.Fatal(err)
	}
	if c1.Files != 1500 {
		t.Fatalf("%d files kept, want 1500", c1.Files)
	}
	write(t, dir, "d03/f3.txt", "changed\n")
	write(t, dir, "d29/f1499.txt", "changed too\n")
	os.Remove(filepath.Join(dir, "d10", "f10.txt"))
	write(t, dir, "d10/new.txt", "made by the call\n")
	c2, err := Take(dir, "s", "t2", "", o)
	if err != nil {
		t.Fatal(err)
	}
	if c2.ID == c1.ID || c2.Files != 1500 {
		t.Fatalf("second checkpoint %+v: want a new one of 1500 files", c2)
	}
	p, err := PlanUndo(c1, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Changes) != 4 {
		t.Errorf("plan %v, want 4 changes", p.Changes)
	}
	if err := p.Apply("s", o); err != nil {
		t.Fatal(err)
	}
	sameMap(t, "tree after undo", want, tree(t, dir))
}
