package checkpoint

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// The untracked listing kept between checkpoints: an unchanged tree is listed without git,
// and every change that can change what git lists — a file made in any directory (an empty
// one, an untracked one), a .gitignore or info/exclude edited in place, a file untracked with
// git rm --cached — is seen: the checkpoint's tree is always what git add -A records.
func TestUntrackedListingCache(t *testing.T) {
	dir, git := workingDay(t)
	os.MkdirAll(filepath.Join(dir, "empty"), 0o755)
	write(t, dir, "logs/a.log", "ignored\n") // a directory of ignored files only
	o := opts(t)
	time.Sleep(racyMargin + 100*time.Millisecond) // what the day made is out of the racy margin
	take := func(what string) Checkpoint {
		t.Helper()
		c, err := Take(dir, "s", "t", "", o)
		if err != nil {
			t.Fatal(err)
		}
		if want := gitTree(t, dir); c.Tree != want {
			t.Errorf("%s: tree %s, git add -A records %s", what, c.Tree, want)
		}
		return c
	}
	take("first")
	before := untrackedRuns.Load()
	take("unchanged")
	if untrackedRuns.Load() != before {
		t.Error("an unchanged tree ran git ls-files again")
	}
	write(t, dir, "WORK.md", "mine, edited in place\n") // an untracked file's content: read anyway
	take("untracked file edited")
	if untrackedRuns.Load() != before {
		t.Error("a file edited in place ran git ls-files again")
	}

	for _, c := range []struct {
		what   string
		change func()
	}{
		{"a file in an empty directory", func() { write(t, dir, "empty/new.md", "new\n") }},
		{"a file in an untracked directory", func() { write(t, dir, "notes/deep/y.txt", "y\n") }},
		{"a file in a directory of ignored files", func() { write(t, dir, "logs/notes.md", "not ignored\n") }},
		{"a file in an ignored directory", func() { write(t, dir, "build/more/z.o", "ignored\n") }},
		{".gitignore edited in place", func() {
			f, _ := os.OpenFile(filepath.Join(dir, ".gitignore"), os.O_WRONLY|os.O_TRUNC, 0)
			f.WriteString("*.log\n")
			f.Close()
		}},
		{"info/exclude", func() { write(t, dir, ".git/info/exclude", "notes/\n") }},
		{"git rm --cached", func() { git("rm", "-q", "--cached", "src/sub/c.go") }},
		{"a directory removed", func() { os.RemoveAll(filepath.Join(dir, "empty")) }},
	} {
		// The stat comparison alone must see the change: the racy margin is moved out of the
		// way by dating the listing an hour later.
		path := untrackedCachePath(o.Dir, dir)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		uc, err := decodeUntracked(b)
		if err != nil {
			t.Fatal(err)
		}
		uc.taken = time.Now().Add(time.Hour).UnixNano()
		writeCache(path, uc.encode())
		c.change()
		take(c.what)
	}
}

// core.excludesFile set in the repository's config: the file it names is an ignore source too.
func TestUntrackedListingCacheWatchesTheExcludesFile(t *testing.T) {
	dir, git := workingDay(t)
	excludes := filepath.Join(t.TempDir(), "ignore")
	write(t, filepath.Dir(excludes), "ignore", "*.tmp\n")
	git("config", "core.excludesFile", excludes)
	write(t, dir, "scratch.tmp", "ignored by the excludes file\n")
	o := opts(t)
	time.Sleep(racyMargin + 100*time.Millisecond)
	if _, err := Take(dir, "s", "t", "", o); err != nil {
		t.Fatal(err)
	}
	path := untrackedCachePath(o.Dir, dir)
	b, _ := os.ReadFile(path)
	uc, err := decodeUntracked(b)
	if err != nil {
		t.Fatal(err)
	}
	uc.taken = time.Now().Add(time.Hour).UnixNano() // the stat comparison alone
	writeCache(path, uc.encode())
	os.WriteFile(excludes, []byte("*.nothing\n"), 0o644)
	c, err := Take(dir, "s", "t", "", o)
	if err != nil {
		t.Fatal(err)
	}
	if want := gitTree(t, dir); c.Tree != want {
		t.Errorf("tree %s after the excludes file changed, git add -A records %s", c.Tree, want)
	}
}
