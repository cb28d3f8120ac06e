package classify

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// TestFindNames: a find whose action follows a plain conjunction of filters with a name test
// acts only on the files so named (find . -name '*.pyc' -delete deletes caches, not the
// project), so everyday cleanups are high, earnable; the same with a name that reaches the
// harness's files, a catastrophe by name, or an expression the name does not bound, stays
// critical.
func TestFindNames(t *testing.T) {
	runCases(t, []tcase{
		{"find . -name '*.pyc' -delete", H, H, ""},
		{"find . -name __pycache__ -type d -exec rm -rf {} +", H, H, ""},
		{"find . -type d -name node_modules -prune -exec rm -rf {} +", H, H, ""},
		{"find . -name '*.orig' -delete", H, H, ""},
		{"find src tests -name '*.pyc' -delete", H, H, ""},
		{"find . -name '*.pyc' -exec rm -f {} +", H, H, ""},
		{"find . -maxdepth 4 -type f -name '*.rej' -delete", H, H, ""},
		{"find . -name '*.o' -execdir rm {} ';'", H, H, ""},
	})
	runCritical(t, []string{
		// the names reach the harness's files, its hooks, a catastrophe
		"find . -name settings.json -delete",
		"find . -name 'settings*' -exec rm {} +",
		"find . -name '*.md' -delete", // state.md, the phase file
		"find . -name .claude -exec rm -rf {} +",
		"find . -name hooks -exec rm -rf {} +",
		"find . -name .git -exec rm -rf {} +",
		"find / -name '*.pyc' -delete",
		"find ~ -name '*.pyc' -delete",
		"find / -name home -exec rm -rf {} +",
		"find /proj/.. -name proj -exec rm -rf {} +",
		// the name does not bound the action
		"find ~ -name '*' -delete",
		"find . -name '.*' -delete",
		"find . -delete",
		"find . -name a -o -name b -delete",
		"find . -name '*.pyc' -o -delete",
		"find . -not -name x -delete",
		"find . ! -name x -delete",
		"find . -path './a/*' -delete",
		"find . -regex '.*pyc' -delete",
		"find . -iname '*.pyc' -delete",
		"find . -delete -name x",
		"find . -name x -print -delete",
		"find -L . -name '*.pyc' -delete",
		"find . -name '[!a]*' -delete",
		`find "$D" -name '*.pyc' -delete`,
		"find . -name x -exec rm -rf {}/.. ';'",
		// code run on each match: its $1 is not read as the match
		`find . -name '*.pyc' -exec sh -c 'rm -rf "$1"' _ {} ';'`,
	})
}

// TestFindNamesLosses: what a narrowed find would lose is decided by git, file by file, at
// any depth (filepath.Glob would read ./**/*.orig as one level): ignored caches and tracked,
// clean files are recoverable; an untracked or changed file so named, or git's own record,
// needs a person.
func TestFindNamesLosses(t *testing.T) {
	dir, git, write := newRepo(t)
	write(".gitignore", "__pycache__/\n*.pyc\nnode_modules/\ndata/\n")
	write("src/app.py", "x\n")
	write("docs/guide.txt", "a\n")
	write("keep/x.rej", "r\n")
	git("add", ".")
	git("commit", "-qm", "init")
	write("docs/guide.txt", "a\nchanged\n")
	write("src/__pycache__/app.cpython-312.pyc", "c")
	write("src/pkg/deep/mod.pyc", "c")
	write("node_modules/x/index.js", "js")
	write("notes/a/b/draft.orig", "mine")
	write("data/app.db", "rows")
	write("a/notes.db", "mine")
	c := newAt(t, dir)
	for _, tc := range []struct{ cmd, rule, says string }{
		{"find . -name '*.pyc' -delete", "", ""},
		{"find . -name __pycache__ -type d -exec rm -rf {} +", "", ""},
		{"find . -type d -name node_modules -prune -exec rm -rf {} +", "", ""},
		{"find . -name '*.rej' -delete", "", ""},
		{"find . -name '*.orig' -delete", kernel.RuleLosesWork, "deletes notes/a/b/draft.orig, which git does not track"},
		{"find . -name '*.orig' -exec rm -f {} +", kernel.RuleLosesWork, "notes/a/b/draft.orig"},
		{"find . -name guide.txt -delete", kernel.RuleLosesWork, "docs/guide.txt, which has uncommitted changes"},
		{"find . -name index -delete", kernel.RuleLosesWork, ".git/index, git's own record"},
		// an ignored database goes before the untracked one a checkpoint would recover
		{"find . -name '*.db' -delete", kernel.RuleLosesWork, "data/app.db, a git-ignored secret or data file"},
	} {
		got := c.Classify(bashAt(dir, tc.cmd))
		if got.Risk != risk.High || personRule(got) != tc.rule || tc.says != "" && !strings.Contains(got.NeedsPerson.Reason, tc.says) {
			t.Errorf("%s: %s, needs_person %+v; want high, %q saying %q (%+v)", tc.cmd, got.Risk, got.NeedsPerson, tc.rule, tc.says, got.Reasons)
		}
	}
	// More matches than git is asked about at once: a person, as for any pattern too large.
	for i := range 2100 {
		write(fmt.Sprintf("gen/%d/x.pyc", i), "")
	}
	got := c.Classify(bashAt(dir, "find . -name '*.pyc' -delete"))
	if personRule(got) != kernel.RuleLosesWork || !strings.Contains(got.NeedsPerson.Reason, "too many to check") {
		t.Errorf("2100 matches: %s, needs_person %+v, want too many to check (%+v)", got.Risk, got.NeedsPerson, got.Reasons)
	}
}

// TestFindNamesProtectedTrees: a protected tree inside the project (the hooks, the harness's
// own state) is read on disk for an entry the name matches, case folded, spelled as it is on
// disk (the protection compares in lower case; the project's path here has capitals); a find
// through a symbolic link is judged by the whole start, as before.
func TestFindNamesProtectedTrees(t *testing.T) {
	base, _, _ := newRepo(t)
	dir := filepath.Join(base, "MyProj")
	outside := filepath.Join(base, "Elsewhere")
	for _, f := range []string{".claude/hooks/guard.sh", ".Oath/state/trust-scores.json", "src/x.pyc", "Elsewhere/y.pyc"} {
		p := filepath.Join(dir, f)
		if strings.HasPrefix(f, "Elsewhere/") {
			p = filepath.Join(base, f)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(dir, "build")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, ".Oath", "state"), filepath.Join(dir, "cache")); err != nil {
		t.Fatal(err)
	}
	c := newIn(t, dir, filepath.Join(dir, ".Oath"))
	for _, tc := range []struct {
		cmd  string
		want risk.Level
		rule string
	}{
		{"find . -name '*.pyc' -delete", H, ""},
		{"find . -name '*.sh' -delete", C, kernel.RulePersistence},
		{"find . -name 'GUARD.SH' -delete", C, kernel.RulePersistence},
		{"find . -name 'trust-*' -delete", C, kernel.RuleSelfProtection},
		{"find . -name state -exec rm -rf {} +", C, kernel.RuleSelfProtection},
		{"find cache/ -name '*.pyc' -delete", C, kernel.RuleSelfProtection}, // the harness's state
		{"find build/ -name '*.pyc' -delete", H, ""},
	} {
		got := c.Classify(bashAt(dir, tc.cmd))
		if got.Risk != tc.want || tc.rule != "" && !hasRule(got, tc.rule) {
			t.Errorf("%s: %s, want %s %s (%+v)", tc.cmd, got.Risk, tc.want, tc.rule, got.Reasons)
		}
	}
	got := c.Classify(bashAt(dir, "find build/ -name '*.pyc' -delete"))
	if !slices.Contains(got.Paths.Write, outside) {
		t.Errorf("find build/ (a link out of the project): writes %v, want the whole of %s", got.Paths.Write, outside)
	}
}
