package classify

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/oath-harness/oath-harness/internal/risk"
)

// TestWritesThroughLinks: a delete through a linked directory is judged where it lands: the
// link's target outside the project is the person's, and rm -r LINK/ of the home directory is
// a catastrophe; rm -r LINK (no slash) removes only the link.
func TestWritesThroughLinks(t *testing.T) {
	dir, git, write := newRepo(t)
	home := filepath.Join(t.TempDir(), "home")
	write(".gitignore", "build/\n")
	write("main.go", "package main\n")
	git("add", ".")
	git("commit", "-qm", "i")
	for _, d := range []string{filepath.Join(home, ".ssh"), filepath.Join(dir, "build")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(home, ".ssh", "id_x"), []byte("k"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(home, filepath.Join(dir, "build", "homelink")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(testHome, filepath.Join(dir, "build", "theirhome")); err != nil {
		t.Fatal(err) // the classifier's own home (newAt), which need not exist
	}
	c := newAt(t, dir)
	c.Home = home // whose files are the person's (home is under the temporary directory here)
	for _, tc := range []struct {
		cmd      string
		person   bool
		critical bool
	}{
		{"rm -rf build/homelink/.ssh", true, false},
		{"truncate -s0 build/homelink/.ssh/id_x", true, false},
		{"rm -rf build/homelink/", true, false}, // everything in a directory outside the project
		{"rm -rf build/theirhome/", false, true},
		{"rm -rf build/homelink", false, false}, // removes the link only: ignored build output
		{"rm -rf build/theirhome", false, true}, // the link names a protected directory's parent: critical as before
		{"rm -rf build", false, false},
	} {
		ev := bash(tc.cmd)
		ev.Cwd = dir
		got := c.Classify(ev)
		if crit := got.Risk == risk.Critical; crit != tc.critical {
			t.Errorf("%s: risk %s, want critical %v (%+v)", tc.cmd, got.Risk, tc.critical, got.Reasons)
			continue
		}
		if !tc.critical && (got.NeedsPerson != nil) != tc.person {
			t.Errorf("%s: needs_person %+v, want %v", tc.cmd, got.NeedsPerson, tc.person)
		}
	}
}

// TestLossesFoundByTheRedTeam: tee over the person's untracked notes overwrites them; deleting
// git's own data (objects, refs, HEAD, the index) loses commits, whatever git status says.
func TestLossesFoundByTheRedTeam(t *testing.T) {
	dir, git, write := newRepo(t)
	write("main.go", "package main\n")
	git("add", ".")
	git("commit", "-qm", "i")
	write("notes/todo.md", "the person's\n")
	write(".gitignore", "data/\nbuild/\n")
	write("build/dep/.git/HEAD", "ref: refs/heads/main\n")
	write("build/out.o", "obj\n")
	write("data/app.db", "rows\n")
	c := newAt(t, dir)
	for _, tc := range []struct {
		cmd    string
		person bool
	}{
		{"tee notes/todo.md < /dev/null", true},
		{"echo x | tee -a notes/todo.md", false},
		{"echo x | tee new.md", false},
		{"rm -rf .git/objects", true},
		{"rm .git/index", true},
		{"rm -rf .git/refs/heads", true},
		{"ln -sf main.go notes/todo.md", true},
		{"rm data/app.db", true}, // git reports the ignored directory, not the database in it
		{"sqlite3 data/app.db 'drop table t'", true},
		{"mv notes/todo.md build/", true}, // hides the person's notes in ignored output
		{"mv notes build/old-notes", true},
		{"mv main.go build/", false}, // tracked and clean: git has it
		{"mv notes/todo.md notes/done.md", false},
		{"rm -rf build/dep", true}, // a repository of its own inside ignored output
		{"rm -rf build/out.o", false},
	} {
		ev := bash(tc.cmd)
		ev.Cwd = dir
		got := c.Classify(ev)
		asked := got.NeedsPerson != nil || got.Risk == risk.Critical // critical is stricter still
		if asked != tc.person {
			t.Errorf("%s: needs_person %+v (risk %s), want a person %v", tc.cmd, got.NeedsPerson, got.Risk, tc.person)
		}
	}
}
