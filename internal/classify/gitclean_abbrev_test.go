package classify

import (
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// Issue 29 (peer suites: misread commands). git clean's long options are known whole, so an
// abbreviation is read as git's parse-options reads it, the safe ones too: git clean --dry-r
// --forc is a dry run (it lists, deletes nothing; checked with git 2.39), --forc alone still
// forces, and a word git refuses (ambiguous, unknown) keeps today's reading. -e takes a
// pattern, and --end-of-options makes the words after it pathspecs.
func TestGitCleanAbbreviationsAsGitReadsThem(t *testing.T) {
	dir, git, write := newRepo(t)
	write("kept.txt", "x\n")
	git("add", ".")
	git("commit", "-qm", "init")
	write("mine.txt", "untracked\n")
	c := newAt(t, dir)
	for _, tc := range []struct {
		cmd    string
		lists  bool // judged as a listing: low, no person
		reason string
	}{
		{"git clean --dry-r --forc", true, ""},
		{"git clean --forc --dry-ru", true, ""},
		{"git clean -f --d", true, ""}, // --d names only --dry-run (-d has no long name)
		{"git clean -n", true, ""},
		{"git clean --forc", false, "mine.txt"},
		{"git clean -fd --qui", false, "mine.txt"},
		{"git clean -fn --no-dry-r", false, "mine.txt"},        // --no-dry-run undoes -n
		{"git clean -f -e --dry-run", false, "mine.txt"},       // --dry-run is the pattern -e takes
		{"git clean -f --exclu --dry-run", false, "mine.txt"},  // the same, spelled long and abbreviated
		{"git clean -f --end-of-options --dry-run", false, ""}, // a pathspec
		{"git clean -f --no- --dry-run", true, ""},             // --no- is ambiguous: git refuses, runs nothing
		{"git clean -f $X --dry-r", false, ""},                 // $X could be -e: --dry-r may be its pattern
		{"git clean -fd -e kept.txt", false, "mine.txt"},
		{"git clean -f -e $X --dry-run", false, ""}, // X="a -e" makes --dry-run the pattern of a second -e       // -e's value is no path to clean
	} {
		got := c.Classify(bashAt(dir, tc.cmd))
		listed := got.Risk == risk.Low && got.NeedsPerson == nil && got.Domain == kernel.GitRead
		if listed != tc.lists {
			t.Errorf("%q: judged as a listing %v, want %v: %s %s %+v", tc.cmd, listed, tc.lists, got.Risk, got.Domain, got.Reasons)
		}
		if tc.reason != "" && (got.NeedsPerson == nil || !strings.Contains(got.NeedsPerson.Reason, tc.reason)) {
			t.Errorf("%q: needs_person %+v, want it to name %s", tc.cmd, got.NeedsPerson, tc.reason)
		}
	}
}
