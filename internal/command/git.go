package command

import "strings"

// GitOpt is one of git's global options, before the subcommand (git -C dir -c k=v status).
type GitOpt struct {
	Name     string // as given: "-C", "--git-dir", "--exec-path=/x", "--no-pager"
	Value    Word   // the value of an option that takes the next word
	HasValue bool
}

// GitArgs is a git command line split at its subcommand.
type GitArgs struct {
	Opts []GitOpt // the global options, in order
	Sub  Word     // the subcommand; Value "" when there is none
	Rest []Word   // the subcommand's arguments
	// Dynamic: a word before the subcommand cannot be known statically. One that starts with
	// "-" is kept in Opts and the split goes on; any other could be the subcommand, so the
	// split stops there with Sub empty.
	Dynamic bool
}

// gitValued says whether git's global option takes the next word as its value.
func gitValued(o string) bool {
	switch o {
	case "-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env":
		return true
	}
	return false
}

// SplitGit splits git's arguments (after "git") into its global options and the subcommand.
// It is the one reading of git's prefix: the classifier's rules, its outbound channels and the
// read-only predicate all judge what it returns.
func SplitGit(args []Word) GitArgs {
	var g GitArgs
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.Known {
			g.Dynamic = true
			if !strings.HasPrefix(a.Value, "-") {
				return g
			}
		}
		if !strings.HasPrefix(a.Value, "-") {
			g.Sub, g.Rest = a, args[i+1:]
			return g
		}
		o := GitOpt{Name: a.Value}
		if gitValued(a.Value) && i+1 < len(args) {
			i++
			o.Value, o.HasValue = args[i], true
		}
		g.Opts = append(g.Opts, o)
	}
	return g
}

// GitRiskyLong are the long options of git's subcommands whose presence makes a call lose
// work, rewrite history, overwrite or delete refs, write a file or run a program. Git takes any
// unambiguous prefix of a long option (git reset --ha, git push --forc), so the classifier
// reads an abbreviation of one of these as the option itself (ExpandAbbrev; the first that
// fits, so the most dangerous go first). Options that make a call safer (--dry-run, --staged,
// --abort) are not here: an abbreviation of one is not taken as it.
var GitRiskyLong = []string{"hard", "force", "force-with-lease", "force-if-includes", "force-create", "merge", "keep",
	"discard-changes", "delete", "mirror", "prune", "prune-tags", "amend", "worktree", "output", "exec",
	"upload-pack", "receive-pack", "template", "config", "ignore-other-worktrees", "overwrite-ignore"}

// The option layouts of git's subcommands (which options take the next word as their value),
// as the classifier reads them: Common for every subcommand, the others where a judge reads a
// subcommand's own options apart.
var (
	// GitCommon: the value-taking options of git's subcommands, read alike for every one.
	GitCommon = Spec{Short: "mFCSbBcoOsux", Long: []string{"message", "file", "reuse-message", "reedit-message", "fixup", "squash", "author", "date", "cleanup", "template", "exec", "onto", "strategy", "strategy-option", "format", "pretty", "sort", "contains", "points-at", "merged", "no-merged", "set-upstream-to", "depth", "branch", "origin", "reference", "separate-git-dir", "jobs", "output", "prefix", "remote"}}
	// GitPick: git cherry-pick and git revert, where -x is a flag.
	GitPick = Spec{Short: "mX", Long: []string{"mainline", "strategy", "strategy-option", "cleanup"}}
	// GitCheckout: git checkout and git restore.
	GitCheckout      = Spec{Short: "bBs", Long: []string{"source", "orphan", "conflict", "pathspec-from-file"}}
	GitCheckoutIndex = Spec{Long: []string{"prefix", "stage"}}
	GitReadTree      = Spec{Long: []string{"prefix", "index-output", "exclude-per-directory"}}
	// GitGrep: git grep.
	GitGrep = Spec{Short: "efmABCO", Long: []string{"regexp", "file", "max-count", "after-context", "before-context", "context", "open-files-in-pager"}}
	// GitRemote: the subcommands that reach or name another machine (push, fetch, clone,
	// send-email, remote, config …).
	GitRemote = Spec{Short: "oC", Long: []string{"push-option", "receive-pack", "exec", "repo", "upload-pack", "depth", "branch", "origin", "reference", "separate-git-dir", "jobs", "remote", "to", "cc", "bcc", "from", "smtp-server", "template", "filter"}}
)
