package classify

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/oath-harness/oath-harness/internal/risk"
)

// gitIndexRepo is a project as a working day leaves it: .claude/settings.json committed, an
// uncommitted src/main.go, untracked notes/, a branch feature and a directory docs/ with a
// branch of the same name; evil is a branch whose commit holds other Claude Code settings.
func gitIndexRepo(t *testing.T) (dir string, git func(...string), write func(string, string)) {
	t.Helper()
	dir, git, write = newRepo(t)
	write(".claude/settings.json", "{}\n")
	write("src/main.go", "package main\n")
	write("docs/guide.md", "# guide\n")
	git("add", ".")
	git("commit", "-qm", "init")
	git("branch", "feature")
	git("branch", "docs")
	git("checkout", "-q", "-b", "evil")
	write(".claude/settings.json", `{"disableAllHooks": true}`+"\n")
	git("commit", "-qam", "evil")
	git("checkout", "-q", "main")
	write("src/main.go", "package main\n// work\n")
	write("notes/todo.md", "- mine\n")
	return dir, git, write
}

// poisonIndex stages other Claude Code settings, as git apply --cached of a patch would.
func poisonIndex(t *testing.T, dir string, git func(...string)) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "x.patch")
	patch := "--- a/.claude/settings.json\n+++ b/.claude/settings.json\n@@ -1 +1 @@\n-{}\n+{\"disableAllHooks\": true}\n"
	if err := os.WriteFile(p, []byte(patch), 0o644); err != nil {
		t.Fatal(err)
	}
	git("apply", "--cached", p)
}

type gitIndexCase struct {
	cmd    string
	crit   bool   // critical (the harness's files)
	person string // the rule of the class that always needs a person, or ""
}

func runGitIndexCases(t *testing.T, dir string, cases []gitIndexCase) {
	t.Helper()
	c := newAt(t, dir)
	for _, tc := range cases {
		got := c.Classify(bashAt(dir, tc.cmd))
		if crit := got.Risk == risk.Critical; crit != tc.crit {
			t.Errorf("%s: risk %s, want critical %v (%+v)", tc.cmd, got.Risk, tc.crit, got.Reasons)
			continue
		}
		if tc.crit {
			continue
		}
		rule := ""
		if got.NeedsPerson != nil {
			rule = got.NeedsPerson.Rule
		}
		if rule != tc.person {
			t.Errorf("%s: needs a person %q, want %q (%+v)", tc.cmd, rule, tc.person, got.NeedsPerson)
		}
	}
}

// TestGitCheckoutReadsOperandsAsGitDoes: without --, git checkout reads its first operand as a
// revision when it resolves to one and as a path otherwise; paths are pathspecs (wildcards,
// :/ and :(top) magic). A path with uncommitted work is git's discard; a write of the
// harness's files, from the index or a branch, is critical.
func TestGitCheckoutReadsOperandsAsGitDoes(t *testing.T) {
	dir, git, _ := gitIndexRepo(t)
	runGitIndexCases(t, dir, []gitIndexCase{
		{"git checkout src/main.go", false, RuleGitDiscard},
		{"git checkout src", false, RuleGitDiscard},
		{"git checkout -- src/main.go", false, RuleGitDiscard},
		{"git checkout :/src", false, RuleGitDiscard},
		{"git checkout ':(top)src/main.go'", false, RuleGitDiscard},
		{"git checkout -- '*.go'", false, RuleGitDiscard},
		{"git restore src", false, RuleGitDiscard},
		{"git checkout .claude", false, ""},        // nothing there differs
		{"git checkout docs/guide.md", false, ""},  // nothing there differs
		{"git checkout feature", false, ""},        // a branch: the same settings
		{"git checkout docs", false, ""},           // a branch and a directory: git switches
		{"git checkout -b topic", false, ""},       // a new branch at HEAD
		{"git checkout -b topic feature", false, ""},
		{"git checkout main", false, ""},
		{"git checkout no-such-branch", false, ""}, // git refuses
		{"git switch feature", false, ""},
		{"git checkout evil", true, ""}, // its commit holds other settings
		{"git switch evil", true, ""},
		{"git switch -c topic evil", true, ""},
		{"git checkout -b topic evil", true, ""},
		{"git checkout -f", false, RuleGitDiscard},
	})
	poisonIndex(t, dir, git)
	runGitIndexCases(t, dir, []gitIndexCase{
		{"git checkout .claude", true, ""},
		{"git checkout -- .claude", true, ""},
		{"git checkout .", true, ""},
		{"git checkout '*.json'", true, ""},
		{"git checkout :/.claude", true, ""},
		{"git restore .claude", true, ""},
		{"git checkout -f", true, ""},
		{"git checkout -f feature", true, ""},
		{"git checkout src/main.go", false, RuleGitDiscard},
	})
	// From a subdirectory, :/ is the top of the repository.
	c := newAt(t, dir)
	if got := c.Classify(bashAt(filepath.Join(dir, "src"), "git checkout :/")); got.Risk != risk.Critical {
		t.Errorf("git checkout :/ in src: %s, want critical (%+v)", got.Risk, got.Reasons)
	}
	if got := c.Classify(bashAt(filepath.Join(dir, "src"), "git reset --hard")); got.Risk != risk.Critical {
		t.Errorf("git reset --hard in src: %s, want critical (%+v)", got.Risk, got.Reasons)
	}
}
