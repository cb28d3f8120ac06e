package classify

import (
	"testing"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/settings"
)

// Issue 29 (peer suites: misread commands). Git takes any unambiguous prefix of a long option
// (git reset --ha is --hard): an abbreviation of an option that loses work, forces, deletes,
// writes or runs a program is judged as the option. An abbreviation of one that makes a call
// safer (--staged, --dry-run) is not taken as it.
func TestGitAbbreviatedOptions(t *testing.T) {
	runCases(t, []tcase{
		{"git reset --ha", H, "", kernel.GitLocal}, {"git reset --har HEAD~1", H, "", kernel.GitLocal}, {"git reset --mer HEAD~1", H, "", kernel.GitLocal},
		{"git checkout --forc main", H, "", kernel.GitLocal},
		{"git fetch --upl=./x origin", H, "", ""}, {"git clone --templ=/tmp/t https://example.invalid/r.git", H, "", ""},
		{"git restore --sta file.txt", M, M, kernel.GitLocal}, // not taken as --staged: judged as a restore of the work tree
	})
	runCritical(t, []string{"git push --forc origin main", "git push --mir origin", "git push --del origin feat", "git push --force-with origin main"})
	c := newTest(t, settings.Defaults())
	for _, cmd := range []string{"git log --out=.claude/settings.json", "git diff --outp .claude/settings.json"} {
		if got := c.Classify(bash(cmd)); got.Risk != C {
			t.Errorf("%q is %s, want critical (a write of the harness's settings): %+v", cmd, got.Risk, got.Reasons)
		}
	}
}

// Issue 29 (peer suites): git -c alias.<name>=<command> <name> <args> runs the command with
// the args: git -c alias.nuke=reset nuke --hard is git reset --hard, judged as that.
func TestGitAliasWithArguments(t *testing.T) {
	runCases(t, []tcase{
		{"git -c alias.nuke=reset nuke --hard", H, "", ""},
		{"git -c alias.p=push p --force origin main", C, "", ""},
		{"git -c alias.st=status st", L, M, ""},
	})
}
