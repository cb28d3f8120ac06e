//go:build linux

package checkpoint

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/oath-harness/oath-harness/internal/checkpoint/watch"
)

// startWatcher runs the watcher of top for the checkpoints of o until the test ends.
func startWatcher(t testing.TB, top string, o Options) {
	t.Helper()
	dir := watch.Dir(o.Dir, top)
	done := make(chan error, 1)
	go func() { done <- watch.Run(top, dir, excluder(top, o.Exclude), time.Hour) }()
	t.Cleanup(func() {
		watch.Stop(dir)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("the watcher did not stop")
		}
	})
	for !watch.Running(dir) {
		select {
		case err := <-done:
			t.Fatalf("the watcher ended: %v", err)
		case <-time.After(time.Millisecond):
		}
	}
}

// same fails when the checkpoint taken from the watcher's journal is not the one a full scan
// takes of the same working tree.
func same(t *testing.T, what string, got, want Checkpoint) {
	t.Helper()
	if got.Tree != want.Tree || got.Files != want.Files || !slices.Equal(got.Skipped, want.Skipped) {
		t.Fatalf("%s: from the journal: tree %s, %d files, skipped %q; in full: tree %s, %d files, skipped %q",
			what, got.Tree, got.Files, got.Skipped, want.Tree, want.Files, want.Skipped)
	}
}

type mutator struct {
	t    *testing.T
	top  string
	rng  *rand.Rand
	n    int
	log  []string
	git  func(...string) string
	step int
}

func (m *mutator) pick(dirs bool) string {
	var all []string
	filepath.WalkDir(m.top, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(m.top, p)
		if d.Name() == ".git" || rel == "." {
			if d.IsDir() && d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() == dirs {
			all = append(all, rel)
		}
		return nil
	})
	if len(all) == 0 {
		return ""
	}
	slices.Sort(all)
	return all[m.rng.IntN(len(all))]
}

func (m *mutator) newPath() string {
	m.n++
	dirs := []string{"", "src", "src/deep/er", "notes", "build", "a b", "new" + strconv.Itoa(m.n%5)}
	names := []string{"f%d.txt", "g%d.go", "x%d.log", "weird\n%d", "h%d"}
	return filepath.Join(dirs[m.rng.IntN(len(dirs))], fmt.Sprintf(names[m.rng.IntN(len(names))], m.n))
}

func (m *mutator) do(op int) {
	p := func(rel string) string { return filepath.Join(m.top, rel) }
	note := func(s string, args ...any) { m.log = append(m.log, fmt.Sprintf(s, args...)) }
	switch op {
	case 0, 1: // create
		rel := m.newPath()
		os.MkdirAll(filepath.Dir(p(rel)), 0o755)
		os.WriteFile(p(rel), []byte(fmt.Sprint("new ", m.n)), 0o644)
		note("create %q", rel)
	case 2, 3: // modify, sometimes keeping the size
		if rel := m.pick(false); rel != "" {
			fi, err := os.Lstat(p(rel))
			if err == nil && fi.Mode().IsRegular() {
				b, _ := os.ReadFile(p(rel))
				if len(b) > 0 && m.rng.IntN(2) == 0 {
					b[0] ^= 1
				} else {
					b = append(b, 'x')
				}
				os.WriteFile(p(rel), b, fi.Mode().Perm())
				note("modify %q", rel)
			}
		}
	case 4: // delete a file
		if rel := m.pick(false); rel != "" {
			os.Remove(p(rel))
			note("delete %q", rel)
		}
	case 5: // rename a file
		if rel := m.pick(false); rel != "" {
			to := m.newPath()
			os.MkdirAll(filepath.Dir(p(to)), 0o755)
			os.Rename(p(rel), p(to))
			note("rename %q %q", rel, to)
		}
	case 6: // rename a directory
		if rel := m.pick(true); rel != "" {
			m.n++
			to := filepath.Join(filepath.Dir(rel), "moved"+strconv.Itoa(m.n))
			os.Rename(p(rel), p(to))
			note("rename dir %q %q", rel, to)
		}
	case 7: // nested new directories with files
		m.n++
		d := fmt.Sprintf("n%d/a/b", m.n)
		os.MkdirAll(p(d), 0o755)
		for i := range 3 {
			os.WriteFile(p(filepath.Join(d, strconv.Itoa(i))), []byte(d), 0o644)
		}
		os.WriteFile(p(fmt.Sprintf("n%d/top", m.n)), []byte("t"), 0o644)
		note("mkdir %q", d)
	case 8: // chmod
		if rel := m.pick(false); rel != "" {
			if fi, err := os.Lstat(p(rel)); err == nil && fi.Mode().IsRegular() {
				os.Chmod(p(rel), fi.Mode().Perm()^0o111)
				note("chmod %q", rel)
			}
		}
	case 9: // symlink
		if rel := m.pick(false); rel != "" {
			to := m.newPath()
			os.MkdirAll(filepath.Dir(p(to)), 0o755)
			os.Symlink(filepath.Base(rel), p(to))
			note("symlink %q → %q", to, rel)
		}
	case 10: // remove a directory
		if rel := m.pick(true); rel != "" && m.rng.IntN(3) == 0 {
			os.RemoveAll(p(rel))
			note("rm -r %q", rel)
		}
	case 11: // a file replaced by a directory, or a directory by a file
		if rel := m.pick(false); rel != "" {
			os.Remove(p(rel))
			os.MkdirAll(p(rel), 0o755)
			os.WriteFile(p(filepath.Join(rel, "inside")), []byte("in"), 0o644)
			note("file→dir %q", rel)
		} else if rel := m.pick(true); rel != "" {
			os.RemoveAll(p(rel))
			os.WriteFile(p(rel), []byte("was a dir"), 0o644)
			note("dir→file %q", rel)
		}
	case 12: // a file above the size bound
		rel := m.newPath()
		os.MkdirAll(filepath.Dir(p(rel)), 0o755)
		os.WriteFile(p(rel), make([]byte, 3000), 0o644)
		note("big %q", rel)
	case 13: // git writes the index: the checkpoint looks at the entries that changed
		if m.git == nil {
			return
		}
		rel := m.pick(false)
		switch k := m.rng.IntN(7); {
		case k == 0:
			m.git("add", "-A")
			note("git add -A")
		case k == 1 && rel != "":
			m.gitMay("add", "--", rel)
			note("git add %q", rel)
		case k == 2 && rel != "":
			m.gitMay("rm", "-q", "--cached", "--", rel)
			note("git rm --cached %q", rel)
		case k == 3: // an ignored file, tracked
			m.n++
			rel := fmt.Sprintf("build/forced%d.log", m.n)
			os.MkdirAll(p("build"), 0o755)
			os.WriteFile(p(rel), []byte("forced"), 0o644)
			m.gitMay("add", "-f", "--", rel)
			note("git add -f %q", rel)
		case k == 4:
			m.gitMay("commit", "-qm", fmt.Sprint("c", m.n))
			note("git commit")
		case k == 5 && rel != "":
			m.gitMay("update-index", "--chmod=+x", "--", rel)
			note("git update-index --chmod=+x %q", rel)
		case k == 6:
			m.gitMay("status", "--porcelain") // may refresh the index's stat data
			note("git status")
		}
	case 15: // a hard link, and a write through it
		if rel := m.pick(false); rel != "" && m.rng.IntN(3) == 0 {
			to := m.newPath()
			os.MkdirAll(filepath.Dir(p(to)), 0o755)
			if os.Link(p(rel), p(to)) == nil {
				if f, err := os.OpenFile(p(to), os.O_WRONLY|os.O_APPEND, 0); err == nil {
					f.WriteString("through the link")
					f.Close()
				}
				note("hard link %q → %q", to, rel)
			}
		}
	case 14: // a directory replaced by a link to another
		if rel := m.pick(true); rel != "" && m.rng.IntN(3) == 0 {
			os.RemoveAll(p(rel))
			os.Symlink("src", p(rel))
			note("dir→link %q", rel)
		}
	}
}

var ops = 16

// gitMay runs git where a failure is an outcome, not an error (the path is not tracked, or
// nothing to commit).
func (m *mutator) gitMay(args ...string) {
	cmd := exec.Command("git", append([]string{"-C", m.top}, args...)...)
	cmd.Env = append(gitEnv(), "GIT_AUTHOR_NAME=p", "GIT_AUTHOR_EMAIL=p@x", "GIT_COMMITTER_NAME=p",
		"GIT_COMMITTER_EMAIL=p@x", "HOME="+m.top, "GIT_CONFIG_NOSYSTEM=1", "GIT_OPTIONAL_LOCKS=1")
	cmd.Run()
}

func TestIncrementalCheckpointEqualsAFullScan(t *testing.T) {
	for _, kind := range []string{KindGit, KindState} {
		t.Run(kind, func(t *testing.T) {
			seed := uint64(time.Now().UnixNano())
			if s := os.Getenv("OATH_SEED"); s != "" {
				seed, _ = strconv.ParseUint(s, 10, 64)
			}
			t.Logf("seed %d (OATH_SEED=%d replays it)", seed, seed)
			var top string
			var git func(...string) string
			if kind == KindGit {
				top, git = workingDay(t)
			} else {
				top = plainProject(t)
			}
			o := Options{Dir: filepath.Join(t.TempDir(), "cp"), Keep: 1 << 20, MaxFileSize: 2000}
			full := Options{Dir: filepath.Join(t.TempDir(), "full"), Keep: 1 << 20, MaxFileSize: 2000, NoWatch: true}
			startWatcher(t, top, o)
			defer func(m time.Duration) { sourcesMargin = m }(sourcesMargin)
			sourcesMargin = 10 * time.Millisecond // the sources were written by git init a moment ago
			time.Sleep(2 * sourcesMargin)
			m := &mutator{t: t, top: top, rng: rand.New(rand.NewPCG(seed, 27)), git: git}
			before, indexBefore := incrementalTakes.Load(), indexChangedTakes.Load()
			rounds := 60
			if testing.Short() {
				rounds = 20
			}
			for round := range rounds {
				for range m.rng.IntN(4) {
					m.do(m.rng.IntN(ops))
				}
				if m.rng.IntN(3) == 0 {
					m.do(13) // git writes the index: one call in ten does in real work
				}
				got, err := Take(top, "s", fmt.Sprint("t", round), "", o)
				if err != nil {
					t.Fatalf("round %d after %q: %v", round, m.log, err)
				}
				want, err := Take(top, "s", fmt.Sprint("t", round), "", full)
				if err != nil {
					t.Fatal(err)
				}
				if got.Kind != kind {
					t.Fatalf("kind %s", got.Kind)
				}
				same(t, fmt.Sprintf("round %d after %q", round, m.log), got, want)
			}
			inc := incrementalTakes.Load() - before
			t.Logf("%d of %d checkpoints began from their base, %d of them after git wrote the index", inc, rounds, indexChangedTakes.Load()-indexBefore)
			if inc < int64(rounds)/4 {
				t.Errorf("only %d of %d checkpoints began from their base: the watcher is not used", inc, rounds)
			}
		})
	}
}

// TestEveryDoubtIsAFullScan takes a checkpoint from the watcher's journal, then makes one
// doubt and one change, and checks that the next checkpoint scanned in full and is the one a
// full scan takes.
func TestEveryDoubtIsAFullScan(t *testing.T) {
	restart := func(t *testing.T, top string, o Options) {
		watch.Stop(watch.Dir(o.Dir, top))
		for watch.Running(watch.Dir(o.Dir, top)) {
			time.Sleep(time.Millisecond)
		}
		startWatcher(t, top, o)
	}
	rewriteBase := func(t *testing.T, top string, o Options, edit func(b *base)) {
		b, err := readBase(watch.Dir(o.Dir, top))
		if err != nil {
			t.Fatal(err)
		}
		edit(b)
		writeCache(filepath.Join(watch.Dir(o.Dir, top), "base"), b.encode())
	}
	cases := []struct {
		name  string
		plain bool // a project without git
		doubt func(t *testing.T, top string, o Options, git func(...string) string)
	}{
		{"no watcher", false, func(t *testing.T, top string, o Options, _ func(...string) string) {
			watch.Stop(watch.Dir(o.Dir, top))
			for watch.Running(watch.Dir(o.Dir, top)) {
				time.Sleep(time.Millisecond)
			}
		}},
		{"no watcher without git", true, func(t *testing.T, top string, o Options, _ func(...string) string) {
			watch.Stop(watch.Dir(o.Dir, top))
			for watch.Running(watch.Dir(o.Dir, top)) {
				time.Sleep(time.Millisecond)
			}
		}},
		{"another watcher", false, func(t *testing.T, top string, o Options, _ func(...string) string) { restart(t, top, o) }},
		{"another watcher without git", true, func(t *testing.T, top string, o Options, _ func(...string) string) { restart(t, top, o) }},
		{"the index changed without the base's copy of it", false, func(t *testing.T, top string, o Options, git func(...string) string) {
			des, _ := os.ReadDir(watch.Dir(o.Dir, top))
			for _, de := range des {
				if strings.HasPrefix(de.Name(), keptIndexPrefix) {
					os.Remove(filepath.Join(watch.Dir(o.Dir, top), de.Name()))
				}
			}
			write(t, top, "staged.txt", "s\n")
			git("add", "staged.txt")
		}},
		{"the index's copy was written in place", false, func(t *testing.T, top string, o Options, git func(...string) string) {
			// through the project's name of the same file, before git replaced it
			f, err := os.OpenFile(filepath.Join(top, ".git", "index"), os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteAt([]byte{'x'}, 40)
			f.Close()
			write(t, top, "staged.txt", "s\n")
			git("add", "staged.txt")
		}},
		{"the index's copy is another index", false, func(t *testing.T, top string, o Options, git func(...string) string) {
			des, _ := os.ReadDir(watch.Dir(o.Dir, top))
			for _, de := range des {
				if strings.HasPrefix(de.Name(), keptIndexPrefix) {
					p := filepath.Join(watch.Dir(o.Dir, top), de.Name())
					os.Remove(p)
					os.WriteFile(p, []byte("DIRC not the index it is named after, and long enough"), 0o600)
				}
			}
			write(t, top, "staged.txt", "s\n")
			git("add", "staged.txt")
		}},
		{"a .gitignore changed", false, func(t *testing.T, top string, o Options, _ func(...string) string) {
			write(t, top, ".gitignore", "*.log\n") // build/ is no longer ignored
		}},
		{"info/exclude changed", false, func(t *testing.T, top string, o Options, _ func(...string) string) {
			time.Sleep(10 * time.Millisecond)
			write(t, top, ".git/info/exclude", "notes/\n")
		}},
		{"the base does not parse", false, func(t *testing.T, top string, o Options, _ func(...string) string) {
			os.WriteFile(filepath.Join(watch.Dir(o.Dir, top), "base"), []byte("oath-harness checkpoint base 1\ngarbage\n"), 0o600)
		}},
		{"the base is gone without git", true, func(t *testing.T, top string, o Options, _ func(...string) string) {
			os.Remove(filepath.Join(watch.Dir(o.Dir, top), "base"))
		}},
		{"the index samples are gone", false, func(t *testing.T, top string, o Options, _ func(...string) string) {
			des, _ := os.ReadDir(watch.Dir(o.Dir, top))
			for _, de := range des {
				if strings.HasPrefix(de.Name(), "index-") {
					os.Remove(filepath.Join(watch.Dir(o.Dir, top), de.Name()))
				}
			}
		}},
		{"every fullEvery-th", false, func(t *testing.T, top string, o Options, _ func(...string) string) {
			rewriteBase(t, top, o, func(b *base) { b.count = fullEvery - 1 })
		}},
		{"fullAfter since the last full scan", true, func(t *testing.T, top string, o Options, _ func(...string) string) {
			rewriteBase(t, top, o, func(b *base) { b.full -= int64(fullAfter) })
		}},
		{"a hard link", false, func(t *testing.T, top string, o Options, _ func(...string) string) {
			os.Link(filepath.Join(top, "README.md"), filepath.Join(top, "hard"))
		}},
		{"a hard link without git", true, func(t *testing.T, top string, o Options, _ func(...string) string) {
			os.Link(filepath.Join(top, "WORK.md"), filepath.Join(top, "hard"))
		}},
		{"a new repository inside", false, func(t *testing.T, top string, o Options, _ func(...string) string) {
			write(t, top, "inner/.git/HEAD", "ref: refs/heads/main\n")
		}},
		{"a repository inside removed, without git", true, func(t *testing.T, top string, o Options, _ func(...string) string) {
			os.RemoveAll(filepath.Join(top, "vendor/lib/.git"))
		}},
		{"the watcher does not answer", false, func(t *testing.T, top string, o Options, _ func(...string) string) {
			dir := watch.Dir(o.Dir, top)
			watch.Stop(dir)
			for watch.Running(dir) {
				time.Sleep(time.Millisecond)
			}
			f, err := os.OpenFile(filepath.Join(dir, "lock"), os.O_RDWR, 0)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { f.Close() })
			if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil { // held, and nobody answers
				t.Fatal(err)
			}
		}},
	}
	defer func(m time.Duration) { sourcesMargin = m }(sourcesMargin)
	sourcesMargin = 10 * time.Millisecond // the sources were written by git init a moment ago
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var top string
			var git func(...string) string
			if tc.plain {
				top = plainProject(t)
			} else {
				top, git = workingDay(t)
			}
			o := Options{Dir: filepath.Join(t.TempDir(), "cp"), Keep: 1 << 20}
			full := Options{Dir: filepath.Join(t.TempDir(), "full"), Keep: 1 << 20, NoWatch: true}
			startWatcher(t, top, o)
			time.Sleep(2 * sourcesMargin)
			if _, err := Take(top, "s", "t0", "", o); err != nil { // in full: no base yet
				t.Fatal(err)
			}
			write(t, top, "one.txt", "1\n")
			n := incrementalTakes.Load()
			if _, err := Take(top, "s", "t1", "", o); err != nil {
				t.Fatal(err)
			}
			if incrementalTakes.Load() != n+1 {
				t.Fatal("the second checkpoint did not begin from its base")
			}
			tc.doubt(t, top, o, git)
			write(t, top, "two.txt", "2\n")
			write(t, top, "build/now-kept.txt", "b\n")
			n = incrementalTakes.Load()
			got, err := Take(top, "s", "t2", "", o)
			if err != nil {
				t.Fatal(err)
			}
			if incrementalTakes.Load() != n {
				t.Error("the checkpoint after the doubt began from its base")
			}
			want, err := Take(top, "s", "t2", "", full)
			if err != nil {
				t.Fatal(err)
			}
			same(t, tc.name, got, want)
		})
	}
}

// TestTreesFromTheBase checks that a checkpoint from its base takes the trees of untouched
// directories from the previous checkpoint unread, reads only the base's trees on the changed
// paths, and that a base tree that is gone or damaged is a doubt: the checkpoint is still the
// one a full scan takes, and the next one begins from its base again.
func TestTreesFromTheBase(t *testing.T) {
	top, git := workingDay(t)
	write(t, top, "lib/x/one.txt", "1\n")
	write(t, top, "lib/y/two.txt", "2\n")
	for i := range 20 {
		write(t, top, fmt.Sprintf("other/d%d/f.txt", i), "unchanged\n")
	}
	o := Options{Dir: filepath.Join(t.TempDir(), "cp"), Keep: 1 << 20}
	full := Options{Dir: filepath.Join(t.TempDir(), "full"), Keep: 1 << 20, NoWatch: true}
	startWatcher(t, top, o)
	defer func(m time.Duration) { sourcesMargin = m }(sourcesMargin)
	sourcesMargin = 10 * time.Millisecond
	time.Sleep(2 * sourcesMargin)
	round := 0
	take := func(what string, fromBase bool) Checkpoint {
		t.Helper()
		round++
		inc := incrementalTakes.Load()
		got, err := Take(top, "s", fmt.Sprint("t", round), "", o)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Take(top, "s", fmt.Sprint("t", round), "", full)
		if err != nil {
			t.Fatal(err)
		}
		same(t, what, got, want)
		if began := incrementalTakes.Load() != inc; began != fromBase {
			t.Fatalf("%s: began from its base %v, want %v", what, began, fromBase)
		}
		return got
	}
	take("first", false)
	take("second", true) // the mirror's link moved the index's ctime, not its checksum
	read, kept := treesRead.Load(), treesReused.Load()
	write(t, top, "lib/x/one.txt", "1 changed\n")
	c := take("one file changed", true)
	if treesReused.Load() == kept {
		t.Fatal("no tree was taken from the previous checkpoint")
	}
	if n := treesRead.Load() - read; n > 3 { // the top, lib and lib/x
		t.Fatalf("%d trees of the base were read for one changed file", n)
	}

	// the base's tree of lib/y gone from the repository (git gc packed it, say), then damaged
	tr := func(p string) oid {
		o, err := parseOID(strings.TrimSpace(git("rev-parse", c.ID+":"+p)))
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	objects := filepath.Join(top, ".git", "objects")
	lost := looseObjectPath(objects, tr("lib/y"))
	if err := os.Remove(lost); err != nil {
		t.Fatal(err)
	}
	write(t, top, "lib/y/two.txt", "2 changed\n")
	take("a base tree gone", false)
	write(t, top, "lib/y/three.txt", "3\n")
	c = take("after the full scan wrote it again", true)
	damaged := looseObjectPath(objects, tr("lib"))
	os.Chmod(damaged, 0o644)
	if err := os.WriteFile(damaged, []byte("not zlib"), 0o644); err != nil {
		t.Fatal(err)
	}
	write(t, top, "lib/x/one.txt", "1 changed again\n")
	take("a base tree damaged", false)

	// a directory replaced by a file, a file's mode changed, a directory removed
	os.RemoveAll(filepath.Join(top, "lib/x"))
	write(t, top, "lib/x", "now a file\n")
	os.Chmod(filepath.Join(top, "lib/y/two.txt"), 0o755)
	take("directory replaced, mode changed", true)
	os.RemoveAll(filepath.Join(top, "lib"))
	take("directory removed", true)
	write(t, top, "lib/new/deep/file.txt", "back\n")
	take("directory made again", true)
}

// A checkpoint whose trees came mostly from its base is undone after .git is deleted: the
// trees it did not build were mirrored by the checkpoints that did.
func TestUndoOfACheckpointWithTreesFromTheBase(t *testing.T) {
	top, _ := workingDay(t)
	write(t, top, "lib/x/one.txt", "1\n")
	write(t, top, "lib/y/deep/two.txt", "2\n")
	o := opts(t)
	startWatcher(t, top, o)
	defer func(m time.Duration) { sourcesMargin = m }(sourcesMargin)
	sourcesMargin = 10 * time.Millisecond
	time.Sleep(2 * sourcesMargin)
	if _, err := Take(top, "s1", "toolu_1", "", o); err != nil {
		t.Fatal(err)
	}
	write(t, top, "lib/x/one.txt", "1 changed\n")
	inc, reused := incrementalTakes.Load(), treesReused.Load()
	c, err := Take(top, "s1", "toolu_2", "", o)
	if err != nil || !c.HistoryKept() {
		t.Fatal(err, c.NoHistory)
	}
	if incrementalTakes.Load() == inc || treesReused.Load() == reused {
		t.Fatal("the checkpoint did not begin from its base, or built every tree")
	}
	want := tree(t, top)
	os.RemoveAll(filepath.Join(top, ".git"))
	os.RemoveAll(filepath.Join(top, "lib"))
	os.Remove(filepath.Join(top, "WORK.md"))
	undoAll(t, c, o)
	sameMap(t, "working tree", want, tree(t, top))
}

// TestAnIndexChangeBeginsFromTheBase checks that after git wrote the index, the checkpoint
// still begins from its base, looks again at the entries that changed, and is the one a full
// scan takes: a file staged, an ignored file tracked or no longer tracked (kept, then not),
// a commit, a mode set in the index where the file system's is not used.
func TestAnIndexChangeBeginsFromTheBase(t *testing.T) {
	cases := []struct {
		name    string
		before  func(git func(...string) string) // before the base
		change  func(git func(...string) string)
		changes bool // what the checkpoint keeps changes
	}{
		{"a file staged", nil, func(git func(...string) string) { git("add", "src/a.go") }, false},
		{"an ignored file tracked", nil, func(git func(...string) string) { git("add", "-f", "debug.log") }, true},
		{"an ignored file no longer tracked", func(git func(...string) string) { git("add", "-f", "build/out.bin") },
			func(git func(...string) string) { git("rm", "-q", "--cached", "build/out.bin") }, true},
		{"a commit", nil, func(git func(...string) string) { git("commit", "-qm", "staged") }, false},
		{"a mode set in the index (the working tree's is kept)", func(git func(...string) string) { git("config", "core.fileMode", "false") },
			func(git func(...string) string) { git("update-index", "--chmod=+x", "README.md") }, false},
		{"a directory and an ignored file removed from the index", func(git func(...string) string) { git("add", "-f", "build/out.bin") },
			func(git func(...string) string) { git("rm", "-rqf", "--cached", "src", "build") }, true},
	}
	defer func(m time.Duration) { sourcesMargin = m }(sourcesMargin)
	sourcesMargin = 10 * time.Millisecond
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			top, git := workingDay(t)
			if tc.before != nil {
				tc.before(git)
			}
			o := Options{Dir: filepath.Join(t.TempDir(), "cp"), Keep: 1 << 20}
			full := Options{Dir: filepath.Join(t.TempDir(), "full"), Keep: 1 << 20, NoWatch: true}
			startWatcher(t, top, o)
			time.Sleep(2 * sourcesMargin)
			if _, err := Take(top, "s", "t0", "", o); err != nil {
				t.Fatal(err)
			}
			first, err := Take(top, "s", "t0", "", full)
			if err != nil {
				t.Fatal(err)
			}
			tc.change(git)
			inc, changed := incrementalTakes.Load(), indexChangedTakes.Load()
			got, err := Take(top, "s", "t1", "", o)
			if err != nil {
				t.Fatal(err)
			}
			want, err := Take(top, "s", "t1", "", full)
			if err != nil {
				t.Fatal(err)
			}
			same(t, tc.name, got, want)
			if incrementalTakes.Load() != inc+1 || indexChangedTakes.Load() != changed+1 {
				t.Error("the checkpoint after git wrote the index did not begin from its base")
			}
			if changed := got.Tree != first.Tree; changed != tc.changes {
				t.Errorf("what the checkpoint keeps changed: %v, want %v", changed, tc.changes)
			}
			write(t, top, "after.txt", "a\n") // and the next begins from the new base, by its samples
			inc = incrementalTakes.Load()
			got, err = Take(top, "s", "t2", "", o)
			if err != nil {
				t.Fatal(err)
			}
			if want, err = Take(top, "s", "t2", "", full); err != nil {
				t.Fatal(err)
			}
			same(t, tc.name+", then a file written", got, want)
			if incrementalTakes.Load() != inc+1 || indexChangedTakes.Load() != changed+1 {
				t.Error("the checkpoint after that did not begin from its new base by the index's samples")
			}
		})
	}
}
