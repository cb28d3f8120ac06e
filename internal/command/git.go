package command

import (
	"slices"
	"strings"
)

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
// --abort) are not here: an abbreviation of one is not taken as it, except in a subcommand
// whose every long option is known (gitSubs, ExpandGitAbbrev), where git's own reading is
// exact.
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

// GitLong is a long option of a git subcommand as git's parse-options knows it.
type GitLong struct {
	Name  string
	NoNeg bool // git has no --no-NAME form of it (PARSE_OPT_NONEG)
}

// gitSub is a subcommand whose long options the harness knows completely.
type gitSub struct {
	Spec Spec      // its value-taking options
	Long []GitLong // every long option it has, hidden ones too
}

// GitClean is git clean's layout: -e/--exclude take a pattern (not a path to clean).
var GitClean = Spec{Short: "e", Long: []string{"exclude"}}

// gitSubs lists the subcommands whose every long option is known (git's builtin/<sub>.c,
// checked with `git <sub> --git-completion-helper-all`), so that an abbreviation is read as
// git reads it: a prefix naming exactly one of them is that option, whether it makes the
// call safer or not. git runs nothing when a prefix names several or none.
var gitSubs = map[string]gitSub{
	// builtin/clean.c: OPT__QUIET, OPT__DRY_RUN, OPT__FORCE, --interactive, --exclude (NONEG).
	"clean": {Spec: GitClean, Long: []GitLong{{Name: "quiet"}, {Name: "dry-run"}, {Name: "force"}, {Name: "interactive"}, {Name: "exclude", NoNeg: true}}},
}

// GitSubSpec is the layout of sub's own options where the harness knows it whole (git clean's
// -e takes a value), else GitCommon.
func GitSubSpec(sub string) Spec {
	if s, ok := gitSubs[sub]; ok {
		return s.Spec
	}
	return GitCommon
}

// ExpandGitAbbrev spells out the abbreviated long options of `git sub args` as git reads them.
// For a subcommand whose every long option is known (gitSubs) it follows parse-options: a
// prefix of exactly one option (or of its --no- form) is that option, an exact name wins over
// prefixes, and a word git cannot take (a prefix of several, of none) is left to today's
// reading. Elsewhere, and from a word that cannot be known on (it could be an option taking
// the next word as its value), only the risky options are taken (ExpandAbbrev, GitRiskyLong):
// an abbreviation there never makes a call look safer than it is.
func ExpandGitAbbrev(sub string, args []Word) []Word {
	s, ok := gitSubs[sub]
	if !ok {
		return ExpandAbbrev(args, GitRiskyLong)
	}
	out := slices.Clone(args)
	for i := 0; i < len(out); i++ {
		opt, a := i, out[i]
		if !a.Known {
			// $X could be -e, taking the next word as its value: the rest is read as today.
			copy(out[i:], ExpandAbbrev(out[i:], GitRiskyLong))
			return out
		}
		v := a.Value
		switch {
		case v == "--" || v == "--end-of-options":
			return out
		case strings.HasPrefix(v, "--"):
			given, value, hasValue := strings.Cut(v[2:], "=")
			name, ok := gitLongName(given, s.Long)
			if !ok {
				copy(out[i:i+1], ExpandAbbrev(out[i:i+1], GitRiskyLong))
				continue
			}
			out[i].Value = "--" + name
			if hasValue {
				out[i].Value += "=" + value
			} else if slices.Contains(s.Spec.Long, name) {
				i++ // its value
			}
		case strings.HasPrefix(v, "-") && len(v) > 1:
			for j := 1; j < len(v); j++ {
				if strings.IndexByte(s.Spec.Short, v[j]) >= 0 {
					if j+1 == len(v) {
						i++ // the next word is its value
					}
					break
				}
			}
		}
		if i > opt && i < len(out) && !out[i].Known {
			// A value that cannot be known may split into several words (-e $X, X="a -e"):
			// where the options go on is not known, and the rest is read as today.
			copy(out[i+1:], ExpandAbbrev(out[i+1:], GitRiskyLong))
			return out
		}
	}
	return out
}

// gitLongName is parse-options' parse_long_opt: the option (spelled out, with "no-" when
// negated) that git takes for --given, and whether git takes one at all.
func gitLongName(given string, opts []GitLong) (string, bool) {
	spell := func(o GitLong, unset bool) string {
		switch {
		case !unset:
			return o.Name
		case strings.HasPrefix(o.Name, "no-"):
			return o.Name[3:]
		}
		return "no-" + o.Name
	}
	var abbrev string
	found, ambiguous := false, false
	mark := func(o GitLong, unset bool) {
		ambiguous = ambiguous || found
		abbrev, found = spell(o, unset), true
	}
	for _, o := range opts {
		long, optUnset := o.Name, false
		if !strings.HasPrefix(given, "no-") && !o.NoNeg && strings.HasPrefix(long, "no-") {
			long, optUnset = long[3:], true
		}
		switch {
		case given == long:
			return spell(o, optUnset), true
		case strings.HasPrefix(given, long):
			continue
		case strings.HasPrefix(long, given):
			mark(o, optUnset)
			continue
		case o.NoNeg:
			continue
		case strings.HasPrefix("no-", given): // --n, --no, --no-: every negatable option
			mark(o, !optUnset)
			continue
		case !strings.HasPrefix(given, "no-"):
			continue
		}
		switch rest := given[3:]; {
		case rest == long:
			return spell(o, !optUnset), true
		case strings.HasPrefix(long, rest):
			mark(o, !optUnset)
		}
	}
	return abbrev, found && !ambiguous
}
