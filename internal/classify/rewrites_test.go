package classify

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
)

// History rewrites are decided by asking git: rewriting commits that exist only here loses
// nothing (the reflog keeps the old ones); rewriting commits a remote-tracking branch has,
// or that cannot be checked, needs a person (issue 13; DESIGN.md).
func TestRewritesAskGit(t *testing.T) {
	dir, git, write := newRepo(t)
	remote := filepath.Join(t.TempDir(), "remote.git")
	unborn := filepath.Join(dir, "unborn")
	commit := func(name string) {
		t.Helper()
		write(name, name)
		git("add", name)
		git("commit", "-qm", name)
	}
	git("init", "-q", "--bare", remote)
	for _, n := range []string{"a", "b", "c"} {
		commit(n)
	}
	git("remote", "add", "origin", remote)
	git("push", "-q", "origin", "main")
	git("branch", "--set-upstream-to=origin/main")
	git("checkout", "-q", "-b", "shared")
	git("checkout", "-q", "main")
	commit("d")
	commit("e")
	git("init", "-q", unborn)

	c := newAt(t, dir)
	for _, tc := range []struct{ cmd, rule string }{
		{"git commit --amend -m 'better words'", ""},
		{"git commit --amend --no-edit", ""},
		{"git rebase -i HEAD~2", ""},
		{"git rebase", ""}, // onto its upstream: only d and e are rewritten
		{"git rebase origin/main", ""},
		{"GIT_SEQUENCE_EDITOR=true git rebase -i HEAD~1", ""},
		{"git rebase -i HEAD~3", kernel.RuleRewriteHistory},
		{"git rebase --root", kernel.RuleRewriteHistory},
		{"git rebase HEAD~4 main", kernel.RuleRewriteHistory},
		{"git checkout shared && git commit --amend --no-edit", kernel.RuleRewriteHistory}, // HEAD moves first: doubt
		{"git commit --amend --no-edit && git checkout shared", ""},                        // amends HEAD as it is now
		{"git switch main; git rebase -i HEAD~1", kernel.RuleRewriteHistory},
		{"GIT_DIR=unborn/.git git commit --amend -m x", kernel.RuleRewriteHistory}, // another repository: doubt
		{"git --git-dir=unborn/.git commit --amend -m x", kernel.RuleRewriteHistory},
		{"git --work-tree=unborn --git-dir unborn/.git rebase -i HEAD~1", kernel.RuleRewriteHistory},
		{"git -C unborn commit --amend -m x", ""},                     // nothing to amend
		{"git rebase -i no-such-revision", kernel.RuleRewriteHistory}, // git cannot say: a person decides
		{"git rebase -i $(git merge-base HEAD origin/main)", kernel.RuleRewriteHistory},
		{"git rebase -i -- --exec=x", kernel.RuleRewriteHistory},
		{"git filter-branch --tree-filter true HEAD", kernel.RuleRewriteHistory}, // drops what the reflog needs
	} {
		ev := bash(tc.cmd)
		ev.Cwd = dir
		got := c.Classify(ev)
		rule := personRule(got)
		if rule != tc.rule {
			t.Errorf("%s: needs_person %q, want %q (%+v; %+v)", tc.cmd, rule, tc.rule, got.NeedsPerson, got.Reasons)
		}
	}

	// Once HEAD is pushed, amending it needs a person, and the reason says why.
	git("push", "-q", "origin", "main")
	ev := bash("git commit --amend --no-edit")
	ev.Cwd = dir
	got := c.Classify(ev)
	if got.NeedsPerson == nil || got.NeedsPerson.Rule != kernel.RuleRewriteHistory || !strings.Contains(got.NeedsPerson.Reason, "remote-tracking branch already has") {
		t.Errorf("amend of a pushed commit: needs_person %+v, want %s saying a remote has it", got.NeedsPerson, kernel.RuleRewriteHistory)
	}
}
