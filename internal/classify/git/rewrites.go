package git

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/command"
	"github.com/oath-harness/oath-harness/internal/envelope"
)

// History rewrites are decided by asking git (DESIGN.md: "git's discards and history rewrites:
// decided by asking git, not by a name"). git commit --amend and git rebase replace commits
// with new ones; the old ones stay in the reflog, so a rewrite of commits that exist only
// here loses nothing (git reflog brings them back). What cannot be undone from here is a
// rewrite of commits someone else already has: commits reachable from a remote-tracking
// branch. Only those, and doubt (an argument that cannot be known, git failing), need a
// person. Rewrites that drop the record itself (reflog expire, filter-branch, gc --prune) stay
// in the class by name: they are what makes the rest recoverable.

// rewrite records a history rewrite of kind "amend" (the last commit) or "rebase" (the commits
// from upstream to branch; root: all of them), to be checked with git once the command is judged.
func rewrite(x *kernel.Command, kind string, upstream, branch string, known, root bool) {
	if !known || x.Cmd.Dir.Unknown || len(x.Cmd.Dir.Paths) == 0 {
		x.Call.Mark(kernel.RuleRewriteHistory, kernel.ShortCmd(x.Src)+" rewrites commits that cannot be known: whether others already have them cannot be checked")
		return
	}
	if x.Call.HeadMoved {
		x.Call.Mark(kernel.RuleRewriteHistory, kernel.ShortCmd(x.Src)+" rewrites commits after an earlier command of the call moves HEAD: which commits it replaces cannot be checked now")
		return
	}
	if branch == "" {
		branch = "HEAD"
	}
	span := branch
	switch {
	case kind == "amend":
		span = "HEAD"
	case root:
	case upstream == "":
		span = "@{upstream}.." + branch
	default:
		span = upstream + ".." + branch
	}
	x.Call.AddLoss(kernel.Loss{Path: x.Cmd.Dir.Paths[0], Tree: true, How: "rewrites", Cmd: x.Src, Git: kind, Names: []string{span}})
}

// rewriteLost asks git whether the commits a rewrite replaces are on a remote-tracking branch.
func rewriteLost(c *kernel.Env, ctx context.Context, top string, l kernel.Loss) *envelope.Person {
	fail := func(err error) *envelope.Person {
		return &envelope.Person{Rule: kernel.RuleRewriteHistory, Reason: "git could not say whether others already have the commits " + l.Command() + " rewrites (" + err.Error() + ")"}
	}
	span := l.Names[0]
	if strings.HasPrefix(span, "-") {
		return fail(errors.New(span + " is not a revision"))
	}
	if l.Git == "amend" {
		// The last commit only: is HEAD on a remote? An unborn HEAD has nothing to amend.
		out, err := kernel.RunGit(ctx, top, "rev-list", "-n", "1", "HEAD", "--not", "--remotes", "--")
		if err != nil {
			if _, e := kernel.RunGit(ctx, top, "rev-parse", "-q", "--verify", "HEAD^{commit}"); e != nil {
				return nil
			}
			return fail(err)
		}
		if strings.TrimSpace(out) == "" {
			return &envelope.Person{Rule: kernel.RuleRewriteHistory, Reason: l.Command() + " replaces the last commit, which a remote-tracking branch already has: others' history would no longer match"}
		}
		return nil
	}
	all, err := kernel.RunGit(ctx, top, "rev-list", "--count", span, "--")
	if err != nil {
		return fail(err)
	}
	mine, err := kernel.RunGit(ctx, top, "rev-list", "--count", span, "--not", "--remotes", "--")
	if err != nil {
		return fail(err)
	}
	if n, m := strings.TrimSpace(all), strings.TrimSpace(mine); n != m {
		a, _ := strconv.Atoi(n)
		b, _ := strconv.Atoi(m)
		return &envelope.Person{Rule: kernel.RuleRewriteHistory, Reason: l.Command() + " rewrites " + strconv.Itoa(a-b) + " commit(s) that a remote-tracking branch already has: others' history would no longer match"}
	}
	return nil
}

// rebase records what git rebase [--onto NEW] [UPSTREAM [BRANCH]] | --root [BRANCH] rewrites.
func rebase(x *kernel.Command, p command.Args) {
	known := !p.Unknown
	var upstream, branch string
	ops := p.Operands
	root := p.Has(0, "root")
	if root && len(ops) > 0 {
		branch = ops[0].Value
	} else if !root {
		if len(ops) > 0 {
			upstream = ops[0].Value
		}
		if len(ops) > 1 {
			branch = ops[1].Value
		}
	}
	rewrite(x, "rebase", upstream, branch, known, root)
}

// movesHead reports whether git sub can move HEAD or change which branch is checked out (a
// later rewrite in the same call then acts on other commits than HEAD's now).
func movesHead(sub string) bool {
	switch sub {
	case "checkout", "switch", "reset", "merge", "pull", "rebase", "am", "cherry-pick", "revert", "commit",
		"branch", "update-ref", "symbolic-ref", "worktree", "stash", "bisect", "fetch", "clone", "init":
		return true
	}
	return false
}
