package git

import (
	"net/netip"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/command"
	"github.com/oath-harness/oath-harness/internal/risk"
	"github.com/oath-harness/oath-harness/internal/urls"
)

// gitExecKeys are configuration keys whose value git runs as a command.
func gitExecKey(kv string) bool {
	k, v, _ := strings.Cut(strings.ToLower(kv), "=")
	if row := kernel.GitProgRowFor(k); row != nil && row.Kind != kernel.GvAlias {
		return !(row.Kind == kernel.GvFsmonitor && kernel.IsGitBool(v)) && !(row.Kind == kernel.GvProtocol && v != "always") // gitprog.go's table
	}
	if strings.HasPrefix(k, "alias.") {
		return strings.HasPrefix(strings.TrimSpace(v), "!")
	}
	for _, s := range []string{"sshcommand", "pager", "editor", "hookspath", "fsmonitor", "external", "textconv", "helper", "proxy", "uploadpack", "receivepack", "askpass", "gitproxy", "filter.", "sequence.", "exec", "program", "cmd", "command", "tool"} {
		if strings.Contains(k, s) {
			return true
		}
	}
	return false
}

// gitAliasRun returns what git runs for the subcommand sub when a git -c alias.<sub>=… of
// the call defines it: the git command it stands for, or the shell command of a "!" alias;
// the subcommand's arguments follow either.
func gitAliasRun(cli []shell.Word, sub string) (string, bool) {
	for i := len(cli) - 1; i >= 0; i-- { // the last -c of a key wins
		k, v, ok := strings.Cut(cli[i].Value, "=")
		if !ok || !cli[i].Known || !strings.EqualFold(k, "alias."+sub) {
			continue
		}
		if v = strings.TrimSpace(v); strings.HasPrefix(v, "!") {
			return v[1:], true
		}
		return "git " + v, true
	}
	return "", false
}

func Git(x *kernel.Command) {
	g := command.SplitGit(x.Args)
	dir := x.Cmd.Dir
	var cli []shell.Word // git -c key=value, for gitPrograms
	for _, o := range g.Opts {
		v := o.Name
		switch {
		case v == "-C" && o.HasValue:
			d := o.Value
			if d.Known {
				var nd shell.Dir
				for _, p := range dir.Paths {
					nd.Paths = append(nd.Paths, shell.Abs(p, d.Value))
				}
				nd.Unknown = dir.Unknown
				dir = nd
			} else {
				dir = shell.Dir{Paths: dir.Paths, Unknown: true}
			}
		case v == "-c" && o.HasValue:
			kv := o.Value
			cli = append(cli, kv)
			if !kv.Known || gitExecKey(kv.Value) {
				x.Add(risk.High, kernel.GitLocal, kernel.RuleGitRunsProgram, "git -c "+kv.Value+" makes git run a program")
				if _, v, ok := strings.Cut(kv.Value, "="); ok && kv.Known {
					Nested(x, strings.TrimPrefix(strings.TrimSpace(v), "!"), "git -c")
				}
			}
			if k, v, ok := strings.Cut(kv.Value, "="); ok && strings.HasPrefix(strings.ToLower(k), "alias.") && !strings.HasPrefix(strings.TrimSpace(v), "!") {
				Nested(x, "git "+v, "git -c "+k) // an alias of a git command: judge what it stands for
			}
		case v == "--git-dir" || v == "--work-tree" || v == "--namespace" || v == "--exec-path" || v == "--config-env":
			x.Add(risk.Medium, kernel.GitLocal, kernel.RuleGitLocation, "git "+v+" points git elsewhere")
			x.Call.GitElsewhere = x.Call.GitElsewhere || v == "--git-dir" || v == "--work-tree"
		case strings.HasPrefix(v, "--git-dir=") || strings.HasPrefix(v, "--work-tree="):
			x.Add(risk.Medium, kernel.GitLocal, kernel.RuleGitLocation, "git "+v+" points git elsewhere")
			x.Call.GitElsewhere = true
		case strings.HasPrefix(v, "--exec-path=") || strings.HasPrefix(v, "--config-env="):
			x.Add(risk.High, kernel.GitLocal, kernel.RuleGitRunsProgram, "git "+v+" makes git run other programs")
		}
	}
	if g.Dynamic {
		x.Add(risk.High, kernel.GitLocal, kernel.RuleDynamicCommand, "a git argument that cannot be known statically")
		return
	}
	if g.Sub.Value == "" {
		x.Add(risk.Low, kernel.GitRead, kernel.RuleGitRead, "git without a subcommand")
		return
	}
	sub := g.Sub.Value
	rest := command.ExpandGitAbbrev(sub, g.Rest) // git reset --ha is --hard, git clean --dry-r is --dry-run
	x.Cmd.Dir = dir
	if prog, ok := gitAliasRun(cli, sub); ok { // git -c alias.nuke=reset nuke --hard is git reset --hard
		Nested(x, prog+" "+shell.QuoteWords(rest), "git -c alias."+sub)
	}
	if movesHead(sub) {
		defer func() { x.Call.HeadMoved = true }() // for the commands after this one
	}
	if changesIndex(sub) {
		defer func() { x.Call.IndexMoved = true }() // for the discards after this one (discards.go)
	}
	gitPrograms(x, sub, rest, cli) // gitprog.go: hooks, configured programs, program options
	for _, a := range rest {
		if strings.HasPrefix(a.Value, "--upload-pack") || strings.HasPrefix(a.Value, "--receive-pack") || strings.HasPrefix(a.Value, "--exec=") || a.Value == "--exec" || a.Value == "-x" && sub == "rebase" || a.Value == "--config" || strings.HasPrefix(a.Value, "--config=") || strings.HasPrefix(a.Value, "--template") {
			x.Add(risk.High, kernel.GitLocal, kernel.RuleGitRunsProgram, "git "+sub+" "+a.Value+" makes git run a program")
		}
		if a.Known && strings.HasPrefix(a.Value, "--output=") {
			x.Rewrite(shell.Word{Value: strings.TrimPrefix(a.Value, "--output="), Known: true}, kernel.GitLocal, "git "+sub+" --output writes", "")
		}
	}
	p := command.GitCommon.Parse(rest)
	if o, ok := p.Value("output"); ok {
		x.Rewrite(o, kernel.GitLocal, "git "+sub+" --output writes", "") // git diff --output F, also spelled apart
	}
	if sub == "gc" || sub == "maintenance" || len(cli) > 0 { // many commands end with git gc --auto, under the same -c
		gitExpiry(x, sub, cli)
	}
	switch {
	case sub == "push" || sub == "send-pack":
		gitPush(x, p)
	case sub == "pull":
		x.Add(risk.High, kernel.GitRemote, kernel.RuleDenyList, "git pull merges another repository's work into this one")
	case sub == "fetch" || sub == "remote" && len(p.Operands) > 0 && p.Operands[0].Value == "update":
		x.Add(risk.Medium, kernel.GitRemote, kernel.RuleGitRemote, "git "+sub+" downloads from another repository")
	case sub == "ls-remote":
		x.Add(risk.Low, kernel.GitRemote, kernel.RuleGitRemote, "git ls-remote lists another repository")
	case sub == "clone":
		if len(p.Operands) > 1 {
			x.Write(p.Operands[1], true, kernel.GitRemote)
		} else if len(p.Operands) == 1 && p.Operands[0].Known {
			base := strings.TrimSuffix(path.Base(strings.TrimSuffix(p.Operands[0].Value, "/")), ".git")
			x.Write(shell.Word{Value: base, Known: true}, true, kernel.GitRemote)
		}
		x.Add(risk.Medium, kernel.GitRemote, kernel.RuleGitRemote, "git clone downloads a repository")
	case sub == "submodule":
		gitSubmodule(x, p)
	case command.GitRead(sub): // domain git_read, which the seed's phase profiles allow in every phase
		if sub == "grep" && p.Has(0, "no-index") {
			gitGrepFiles(x, p)
		}
		x.Add(risk.Low, kernel.GitRead, kernel.RuleGitRead, "git "+sub+" only reads")
	case sub == "branch":
		gitBranch(x, p)
	case sub == "tag":
		switch {
		case len(p.Operands) == 0 || p.Has('l', "list") || p.Has('n') || p.Has(0, "contains", "points-at", "merged", "no-merged", "sort", "format"):
			x.Add(risk.Low, kernel.GitRead, kernel.RuleGitRead, "git tag lists tags")
		default:
			x.Add(risk.Medium, kernel.GitLocal, kernel.RuleGitLocal, "git tag changes tags")
		}
	case sub == "remote":
		if len(p.Operands) == 0 || p.Operands[0].Value == "show" || p.Operands[0].Value == "get-url" {
			x.Add(risk.Low, kernel.GitRead, kernel.RuleGitRead, "git remote lists remotes")
		} else {
			x.Add(risk.Medium, kernel.GitLocal, kernel.RuleGitLocal, "git remote changes where this repository pushes and pulls")
		}
	case sub == "config":
		gitConfig(x, p, rest)
	case sub == "stash":
		op := ""
		if len(p.Operands) > 0 {
			op = p.Operands[0].Value
		}
		switch op {
		case "list", "show":
			x.Add(risk.Low, kernel.GitRead, kernel.RuleGitRead, "git stash "+op+" only reads")
		case "drop", "clear":
			x.Add(risk.High, kernel.GitLocal, kernel.RuleDestructiveGit, "git stash "+op+" discards stashed work")
			x.Call.Mark(kernel.RuleGitDiscard, kernel.ShortCmd(x.Src)+" throws away stashed work: it is in no commit and cannot be brought back")
		default:
			x.Env.StashUntracked(*x, p, op)
			x.Env.StashProtected(*x, p, op) // self/self.go
			gitStash(x, p, op)
			x.Add(risk.Medium, kernel.GitLocal, kernel.RuleGitLocal, "git stash changes the working tree")
		}
	case sub == "reflog":
		if len(p.Operands) > 0 && (p.Operands[0].Value == "expire" || p.Operands[0].Value == "delete") {
			x.Add(risk.High, kernel.GitLocal, kernel.RuleDestructiveGit, "git reflog "+p.Operands[0].Value+" drops the history needed to recover work")
			x.Call.Mark(kernel.RuleRewriteHistory, kernel.ShortCmd(x.Src)+" drops the reflog, the record git needs to bring back lost commits")
		} else {
			x.Add(risk.Low, kernel.GitRead, kernel.RuleGitRead, "git reflog only reads")
		}
	case sub == "commit":
		if p.Has(0, "amend") {
			x.Add(risk.High, kernel.GitLocal, kernel.RuleHistoryRewrite, "git commit --amend rewrites history")
			rewrite(x, "amend", "", "", true, false)
			return
		}
		x.Add(risk.Medium, kernel.GitLocal, kernel.RuleGitLocal, "git commit records staged changes")
	case sub == "add" || sub == "cherry-pick" || sub == "revert" || sub == "init" || sub == "switch" || sub == "notes" || sub == "worktree" || sub == "bisect" || sub == "hash-object" || sub == "gc" && !p.Has(0, "prune") || sub == "mv":
		if sub == "add" {
			x.Env.NoteStaged(*x, p) // self/self.go: a git stash later in the call takes what it staged
		}
		if sub == "mv" && len(p.Operands) >= 2 {
			for _, o := range p.Operands {
				x.Write(o, true, kernel.GitLocal)
			}
			if p.Has('f', "force") { // over a file with work of its own, as mv -f
				x.Lose(p.Operands[len(p.Operands)-1], false, "overwrites")
			}
		}
		if sub == "worktree" && len(p.Operands) >= 2 && p.Operands[0].Value == "remove" && p.Has('f', "force") {
			// the worktree's uncommitted and untracked work goes with it (git asks for
			// --force for exactly that)
			x.Lose(p.Operands[1], true, "deletes")
		}
		if sub == "init" {
			d := shell.Word{Value: ".", Known: true}
			if len(p.Operands) > 0 {
				d = p.Operands[0]
			}
			x.Write(shell.Word{Value: strings.TrimSuffix(d.Value, "/") + "/.git", Known: d.Known}, true, kernel.GitLocal)
		}
		if sub == "switch" {
			gitSwitch(x, p)
		}
		if (sub == "cherry-pick" || sub == "revert") && !p.Has(0, "continue", "abort", "skip", "quit") {
			// Their own options: -x is a flag here, not the value-taking -x of others.
			gitBringsIn(x, command.GitPick.Parse(rest).Operands, "pick")
		}
		if sub == "bisect" && len(p.Operands) > 1 && p.Operands[0].Value == "run" {
			Nested(x, argvProgram(after(rest, "run")), "git bisect run")
		}
		x.Add(risk.Medium, kernel.GitLocal, kernel.RuleGitLocal, "git "+sub+" changes the local repository")
	case sub == "checkout" || sub == "restore":
		gitCheckout(x, sub, rest)
	case sub == "reset":
		if p.Has(0, "hard", "merge", "keep") {
			x.Add(risk.High, kernel.GitLocal, kernel.RuleDestructiveGit, "git reset --hard discards uncommitted work")
			gitLose(x, "reset", "discards", nil, nil)
			// The whole repository, wherever in it git runs: back to HEAD, what git status
			// lists; to another commit, that and what differs between HEAD and it
			// (gitCommitWrites: the protected files among them). After an earlier command
			// of the call moved HEAD, any file may change.
			discard(x, shell.Word{Value: ":/", Known: true}, "reset")
			if len(p.Operands) > 0 && p.Operands[0].Value != "HEAD" {
				if x.Call.HeadMoved {
					x.Write(gitSpecBase(x, shell.Word{Value: ":/", Known: true}), true, kernel.GitLocal)
				} else {
					gitCommitWrites(x, p.Operands[0], "switch")
				}
			}
			return
		}
		x.Add(risk.Medium, kernel.GitLocal, kernel.RuleGitLocal, "git reset moves the branch or unstages")
	case sub == "clean":
		// git clean's own layout: -e PATTERN is no path to clean; after --end-of-options, as
		// after --, every word is a pathspec (git clean -f --end-of-options --dry-run
		// deletes). --no-dry-run, wherever it stands, is not taken as a listing.
		words := slices.Clone(rest)
		if i := slices.IndexFunc(words, func(w shell.Word) bool { return w.Known && w.Value == "--end-of-options" }); i >= 0 &&
			!slices.ContainsFunc(words[:i], func(w shell.Word) bool { return w.Known && w.Value == "--" }) {
			words[i].Value = "--"
		}
		p := command.GitSubSpec(sub).Parse(words)
		// A word that cannot be known may split into several (-e $X, X="a -e"): then which
		// word is an option is not known either, and a --dry-run is not taken as a listing.
		if p.Has('n', "dry-run") && !p.Has(0, "no-dry-run") && !slices.ContainsFunc(words, func(w shell.Word) bool { return !w.Known }) {
			x.Add(risk.Low, kernel.GitRead, kernel.RuleGitRead, "git clean -n only lists")
			return
		}
		targets := p.Operands
		if len(targets) == 0 {
			targets = []shell.Word{{Value: ".", Known: true}}
		}
		kind := "clean"
		if p.Has('x') {
			kind = "cleanx"
		} else if p.Has('X') {
			kind = "cleanX"
		}
		for _, t := range targets {
			discard(x, t, kind)
		}
		gitLose(x, kind, "deletes untracked files in", targets, nil)
		x.Add(risk.High, kernel.GitLocal, kernel.RuleDestructiveGit, "git clean deletes untracked files (ignored ones too with -x)")
	case sub == "rm":
		for _, o := range p.Operands {
			if !p.Has(0, "cached") {
				x.Write(o, p.Has('r'), kernel.GitLocal)
				x.Lose(o, p.Has('r'), "deletes")
			}
		}
		if p.Has(0, "cached") {
			x.Add(risk.Medium, kernel.GitLocal, kernel.RuleGitLocal, "git rm --cached unstages")
			return
		}
		x.Add(risk.High, kernel.GitLocal, kernel.RuleDenyList, "git rm deletes files")
	case sub == "merge":
		if p.Has(0, "abort") {
			x.Add(risk.Medium, kernel.GitLocal, kernel.RuleGitLocal, "git merge --abort")
			return
		}
		gitBringsIn(x, p.Operands, "merge")
		x.Add(risk.High, kernel.GitLocal, kernel.RuleDenyList, "git merge")
	case sub == "rebase":
		if p.Has(0, "abort", "continue", "skip", "quit") {
			x.Add(risk.Medium, kernel.GitLocal, kernel.RuleGitLocal, "git rebase control")
			return
		}
		if e, ok := p.Value("x", "exec"); ok {
			Nested(x, e.Value, "git rebase --exec")
		}
		// An upstream that cannot be known ($(git merge-base …)) is left to the rewrite's
		// check, which asks a person about it.
		if onto, ok := p.Value("onto"); ok && onto.Known {
			gitBringsIn(x, []shell.Word{onto}, "merge")
		} else if len(p.Operands) > 0 && p.Operands[0].Known && !ok {
			gitBringsIn(x, p.Operands[:1], "merge")
		}
		x.Add(risk.High, kernel.GitLocal, kernel.RuleHistoryRewrite, "git rebase rewrites history")
		rebase(x, p)
	case sub == "checkout-index":
		gitCheckoutIndex(x, rest)
	case sub == "read-tree":
		gitReadTree(x, rest)
	case sub == "filter-branch" || sub == "filter-repo" || sub == "replace" || sub == "prune" || sub == "gc" || sub == "update-index" || sub == "update-ref" && p.Has('d'):
		if sub == "update-index" {
			gitUpdateIndex(x, rest)
		}
		x.Add(risk.High, kernel.GitLocal, kernel.RuleHistoryRewrite, "git "+sub+" rewrites or drops history, or writes the index directly")
		if sub != "update-index" {
			x.Call.Mark(kernel.RuleRewriteHistory, kernel.ShortCmd(x.Src)+" rewrites or drops history: commits may be lost for good")
		}
	case sub == "apply" || sub == "am":
		if p.Has(0, "check", "stat", "numstat", "summary") {
			x.Add(risk.Low, kernel.GitRead, kernel.RuleGitRead, "git apply --check only reads")
			return
		}
		if p.Has(0, "cached") {
			gitApplyCached(x, rest, p)
			x.Add(risk.High, kernel.GitLocal, kernel.RuleGitLocal, "git apply --cached writes the index from a patch")
			return
		}
		x.Add(risk.Critical, kernel.GitLocal, kernel.RuleSelfProtectionUnknownTarget, "git "+sub+" writes the files the patch names, which cannot be known statically and could be protected: use Edit/Write")
	case sub == "archive" || sub == "bundle" || sub == "format-patch":
		if o, ok := p.Value("o", "output"); ok {
			x.Rewrite(o, kernel.GitLocal, "git "+sub+" --output writes", "")
		}
		x.Add(risk.Medium, kernel.GitLocal, kernel.RuleGitLocal, "git "+sub+" writes files")
	default:
		x.Add(risk.Medium, kernel.GitLocal, kernel.RuleGitLocal, "git "+sub+": no built-in rule (an alias or plumbing)")
	}
}

func gitPush(x *kernel.Command, p command.Args) {
	for _, o := range []string{"force", "force-with-lease", "force-if-includes", "mirror", "prune", "delete"} {
		if p.Has(0, o) { // spelled out or abbreviated (git push --forc)
			x.Add(risk.Critical, kernel.GitRemote, kernel.RuleForcePush, "git push --"+o+" can overwrite or delete a remote branch: irreversible for everyone")
			return
		}
	}
	for _, a := range x.Args {
		v := a.Value
		if v == "--force" || v == "-f" || strings.HasPrefix(v, "--force-with-lease") || v == "--force-if-includes" || v == "--mirror" || v == "--prune" || v == "--delete" || v == "-d" || (strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.ContainsAny(v[1:], "fd")) {
			x.Add(risk.Critical, kernel.GitRemote, kernel.RuleForcePush, "git push "+v+" can overwrite or delete a remote branch: irreversible for everyone")
			return
		}
	}
	for i, o := range p.Operands {
		if i == 0 {
			continue // the remote
		}
		if !o.Known {
			x.AddUnknown(risk.Critical, kernel.GitRemote, kernel.RuleForcePush, "a refspec that cannot be known statically could force or delete", kernel.Unknown{What: kernel.UnknownValue})
			return
		}
		if strings.HasPrefix(o.Value, "+") || strings.HasPrefix(o.Value, ":") {
			x.Add(risk.Critical, kernel.GitRemote, kernel.RuleForcePush, "the refspec "+o.Value+" forces or deletes a remote branch")
			return
		}
	}
	x.Add(risk.High, kernel.GitRemote, kernel.RuleDenyList, "git push publishes commits")
}

func gitBranch(x *kernel.Command, p command.Args) {
	switch {
	case p.Has('D') || p.Has('d') && p.Has('f') || p.Has(0, "delete") && p.Has(0, "force"):
		x.Add(risk.High, kernel.GitLocal, kernel.RuleDestructiveGit, "git branch -D deletes a branch with unmerged work")
		var names []string
		for _, o := range p.Operands {
			if !o.Known {
				x.Call.Mark(kernel.RuleGitDiscard, kernel.ShortCmd(x.Src)+" deletes a branch whose name cannot be known: its work may be merged nowhere")
				return
			}
			names = append(names, o.Value)
		}
		gitLose(x, "branch", "deletes branches", nil, names)
	case p.Has('d', "delete") || p.Has('m', "move") || p.Has('M') || p.Has('c', "copy") || p.Has('C') || p.Has('u', "set-upstream-to") || p.Has(0, "unset-upstream", "edit-description"):
		x.Add(risk.Medium, kernel.GitLocal, kernel.RuleGitLocal, "git branch changes branches")
	case len(p.Operands) == 0 || p.Has('l', "list"):
		x.Add(risk.Low, kernel.GitRead, kernel.RuleGitRead, "git branch lists branches")
	default:
		x.Add(risk.Medium, kernel.GitLocal, kernel.RuleGitLocal, "git branch creates a branch")
	}
}

func gitConfig(x *kernel.Command, p command.Args, rest []shell.Word) {
	for i, a := range rest {
		// git config --file F writes F, whatever it is called.
		if (a.Value == "-f" || a.Value == "--file") && i+1 < len(rest) {
			x.Write(rest[i+1], false, kernel.GitLocal)
		} else if v, ok := strings.CutPrefix(a.Value, "--file="); ok {
			x.Write(shell.Word{Value: v, Known: a.Known}, false, kernel.GitLocal)
		}
	}
	if f, ok := p.Value("f", "file"); ok {
		p.Operands = without(p.Operands, f)
	}
	if p.Has('l', "list", "get", "get-all", "get-regexp", "show-origin", "get-urlmatch") || len(p.Operands) <= 1 && !p.Has(0, "unset", "unset-all", "add", "replace-all", "edit", "rename-section", "remove-section") && !p.Has('e') {
		if len(p.Operands) == 0 || p.Operands[0].Value != "set" {
			x.Add(risk.Low, kernel.GitRead, kernel.RuleGitRead, "git config reads")
			return
		}
	}
	ops := p.Operands
	if len(ops) > 0 && (ops[0].Value == "set" || ops[0].Value == "unset") {
		ops = ops[1:]
	}
	for i, o := range ops {
		kv := o.Value
		if i == 0 && len(ops) > 1 {
			kv += "=" + ops[1].Value
			if gitExpiryKey(o.Value) && (!ops[1].Known || gitExpiryNear(ops[1].Value)) {
				x.Add(risk.High, kernel.GitLocal, kernel.RuleHistoryRewrite, "git config "+o.Value+" "+ops[1].Value+" makes git's garbage collection drop history at once")
				x.Call.Mark(kernel.RuleRewriteHistory, kernel.ShortCmd(x.Src)+" makes every later git gc (git also runs one by itself) drop unreachable commits or the reflog at once: work in no branch would be lost for good")
			}
		}
		if i == 0 && len(ops) > 1 && strings.HasPrefix(strings.ToLower(o.Value), "alias.") && !strings.HasPrefix(strings.TrimSpace(ops[1].Value), "!") {
			Nested(x, "git "+ops[1].Value, "git config "+o.Value) // git p = git push --force
		}
		if i == 0 && len(ops) > 1 && strings.EqualFold(o.Value, "core.hooksPath") {
			gitHooksDir(x, ops[1])
		}
		if !o.Known || gitExecKey(kv) {
			x.Add(risk.High, kernel.GitLocal, kernel.RuleGitRunsProgram, "git config "+o.Value+" makes git run a program")
			if i == 0 && len(ops) > 1 && ops[1].Known {
				Nested(x, strings.TrimPrefix(strings.TrimSpace(ops[1].Value), "!"), "git config "+o.Value)
			}
			return
		}
	}
	x.Add(risk.Medium, kernel.GitLocal, kernel.RuleGitLocal, "git config changes the configuration")
}

// gitHooksDir judges git config core.hooksPath DIR: from then on git runs DIR's hooks, for
// the person's own commits too, where no hook of the harness judges them. The hooks there now
// are judged as hooks planted in .git/hooks are (runfiles/planted.go). A directory that cannot be read,
// or holds no hook yet, is code left unread: what is put there later is not known for a hook,
// since its name need not say so. A relative DIR is taken from the top of the working tree,
// as git takes it.
func gitHooksDir(x *kernel.Command, w shell.Word) {
	const what = "git config core.hooksPath "
	if !w.Known || x.Cmd.Dir.Unknown || len(x.Cmd.Dir.Paths) != 1 {
		x.Call.NotRead(what + w.Value + ": git will run the hooks of a directory that cannot be known statically")
		return
	}
	top := kernel.RepoTop(x.Cmd.Dir.Paths[0])
	base := top
	if base == "" {
		base = x.Cmd.Dir.Paths[0]
	}
	dir := shell.Abs(base, kernel.ExpandHome(w.Value, x.Env.Home))
	entries, err := os.ReadDir(dir)
	if err != nil {
		x.Call.NotRead(what + w.Value + ": git will run the hooks of " + dir + ", which cannot be read now: what is put there later is never judged as a hook")
		return
	}
	if top == "" {
		top = base
	}
	n := 0
	for _, e := range entries {
		if e.IsDir() || !slices.Contains(kernel.GitHookNames, e.Name()) {
			continue
		}
		if n++; n > kernel.MaxDirCopy {
			x.Call.NotRead(what + w.Value + ": " + dir + " holds more hooks than the harness reads")
			return
		}
		f := filepath.Join(dir, e.Name())
		x.Env.PlantCopy(x.Call, "git config core.hooksPath", []kernel.Target{{Path: f, Known: true, Raw: f}}, filepath.Join(top, ".git", "hooks", e.Name()), false)
	}
	if n == 0 {
		x.Call.NotRead(what + w.Value + ": git will run the hooks of " + dir + ", which holds none now: what is put there later is never judged as a hook")
	}
}

func gitSubmodule(x *kernel.Command, p command.Args) {
	op := ""
	if len(p.Operands) > 0 {
		op = p.Operands[0].Value
	}
	switch op {
	case "foreach":
		argv := after(x.Args, "foreach")
		for len(argv) > 0 && (argv[0].Value == "--recursive" || argv[0].Value == "-q" || argv[0].Value == "--quiet") {
			argv = argv[1:]
		}
		if len(argv) > 0 {
			Nested(x, argvProgram(argv), "git submodule foreach")
		}
		x.Add(risk.Medium, kernel.GitLocal, kernel.RuleGitLocal, "git submodule foreach runs a command in each submodule")
	case "", "status", "summary":
		x.Add(risk.Low, kernel.GitRead, kernel.RuleGitRead, "git submodule status")
	default:
		x.Add(risk.Medium, kernel.GitRemote, kernel.RuleGitRemote, "git submodule "+op+" fetches")
	}
}

// gitGrepFiles judges the paths git grep --no-index searches: files git does not track,
// anywhere, read as grep -r reads them (a credential directory is a read of credentials).
// The first operand is the pattern unless -f gives it (-e is parsed as a flag, its pattern
// an operand: a pattern read as a path reads nothing of note).
func gitGrepFiles(x *kernel.Command, p command.Args) {
	ops := p.Operands
	if !p.Has('f') && len(ops) > 0 {
		ops = ops[1:]
	}
	if len(ops) == 0 || len(ops) == 1 && ops[0].Value == "--" {
		ops = []shell.Word{{Value: ".", Known: true}} // where it runs
	}
	for _, w := range ops {
		if w.Value == "--" {
			continue
		}
		x.Read(w)
		x.ReadTree(w)
	}
}

// gitSwitch judges what git switch writes: what differs between HEAD and the branch it switches
// to (gitTreeWrites); with -f the local changes too, which are thrown away; with --orphan every
// tracked file, which it removes.
func gitSwitch(x *kernel.Command, p command.Args) {
	if p.Has('f', "force", "discard-changes") {
		discard(x, shell.Word{Value: ":/", Known: true}, "reset")
		gitLose(x, "reset", "discards", nil, nil) // local changes are thrown away (losses.go)
	}
	switch {
	case p.Has(0, "orphan"):
		x.Write(gitSpecBase(x, shell.Word{Value: ":/", Known: true}), true, kernel.GitLocal)
	case len(p.Operands) > 0:
		gitTreeWrites(x, p.Operands[0])
	}
}

// gitStash judges what git stash writes into the working tree. Push (save, or none) puts back
// HEAD's version of every changed tracked file under its pathspecs (with --keep-index, the
// index's): a discard git is asked about, though nothing is lost (the changes are stashed).
// Pop, apply and branch write the stash's files: what differs between HEAD and the stash.
func gitStash(x *kernel.Command, p command.Args, op string) {
	if len(x.Cmd.Dir.Paths) != 1 || kernel.RepoTop(x.Cmd.Dir.Paths[0]) == "" {
		return // no repository (or none known): git stash has nothing to write
	}
	switch op {
	case "", "push", "save":
		specs := []shell.Word{{Value: ":/", Known: true}}
		if op == "push" && len(p.Operands) > 1 {
			specs = p.Operands[1:]
		}
		for _, w := range specs {
			discard(x, w, "paths")
		}
	case "pop", "apply", "branch":
		ref := shell.Word{Value: "stash@{0}", Known: true}
		if n := 1 + btoi(op == "branch"); len(p.Operands) > n {
			ref = p.Operands[n]
		}
		gitTreeWrites(x, ref)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// gitCheckoutIndex judges git checkout-index: it writes files from the index, those named (or
// all with -a, from the top of the repository), over the working tree's with -f, or under
// --prefix. What it writes is what git says differs, a discard as git checkout -- PATH is.
func gitCheckoutIndex(x *kernel.Command, rest []shell.Word) {
	p := command.GitCheckoutIndex.Parse(rest)
	force := p.Has('f', "force")
	paths := p.Operands
	if p.Has('a', "all") {
		paths = []shell.Word{{Value: ":/", Known: true}}
	}
	if p.Has(0, "stdin") {
		paths = append(paths, shell.Word{Value: "the paths read from stdin"})
	}
	switch prefix, ok := p.Value("prefix"); {
	case p.Has(0, "temp"): // temporary files with names of git's own
	case ok:
		if !strings.HasSuffix(prefix.Value, "/") {
			prefix.Value = path.Dir(prefix.Value)
		}
		x.Write(prefix, true, kernel.GitLocal)
	default:
		for _, w := range paths {
			discard(x, w, "paths")
		}
		if force && len(paths) > 0 {
			gitLose(x, "paths", "overwrites", paths, nil)
		}
	}
	if force {
		x.Add(risk.High, kernel.GitLocal, kernel.RuleDestructiveGit, "git checkout-index -f overwrites files with their staged version")
		return
	}
	x.Add(risk.Medium, kernel.GitLocal, kernel.RuleGitLocal, "git checkout-index writes files from the index")
}

// gitReadTree judges git read-tree: it writes the index from trees, and with -u the working
// tree too (with --reset over local changes, as git reset --hard). A tree that holds other
// versions of the harness's files than HEAD stages them, and is judged as their write.
func gitReadTree(x *kernel.Command, rest []shell.Word) {
	p := command.GitReadTree.Parse(rest)
	update := p.Has('u')
	for _, t := range p.Operands {
		gitTreeWrites(x, t)
	}
	switch prefix, ok := p.Value("prefix"); {
	case !update:
	case ok:
		x.Write(prefix, true, kernel.GitLocal)
	case p.Has(0, "empty"):
		x.Write(gitSpecBase(x, shell.Word{Value: ":/", Known: true}), true, kernel.GitLocal)
	default:
		discard(x, shell.Word{Value: ":/", Known: true}, "reset")
		if p.Has(0, "reset") {
			gitLose(x, "reset", "discards", nil, nil)
		}
	}
	if update {
		x.Add(risk.High, kernel.GitLocal, kernel.RuleDestructiveGit, "git read-tree -u writes the working tree from a tree")
		return
	}
	x.Add(risk.High, kernel.GitLocal, kernel.RuleGitLocal, "git read-tree writes the index directly")
}

// gitUpdateIndex judges the entries git update-index stages from objects, not from the working
// tree: --cacheinfo MODE,OBJECT,PATH (or the three apart) and --index-info (read from stdin,
// so unknown). Staging a harness file is its write: the next checkout puts it in place.
func gitUpdateIndex(x *kernel.Command, rest []shell.Word) {
	for i := 0; i < len(rest); i++ {
		v := rest[i].Value
		switch {
		case v == "--index-info":
			stages(x, shell.Word{Value: "the paths read from stdin"})
		case v == "--cacheinfo" && i+1 < len(rest):
			if parts := strings.Split(rest[i+1].Value, ","); len(parts) == 3 && rest[i+1].Known {
				stages(x, shell.Word{Value: parts[2], Known: true})
				i++
			} else if i+3 < len(rest) {
				stages(x, rest[i+3])
				i += 3
			} else {
				stages(x, shell.Word{Value: "the path of --cacheinfo"})
			}
		case strings.HasPrefix(v, "--cacheinfo="):
			parts := strings.Split(v, ",")
			stages(x, shell.Word{Value: parts[len(parts)-1], Known: rest[i].Known && len(parts) == 3})
		}
	}
}

// stages judges a path whose index entry a command sets to content of its choosing: a harness
// file, or a path that cannot be known, is judged as written.
func stages(x *kernel.Command, w shell.Word) {
	for _, t := range kernel.Resolve(w, x.Cmd.Dir, false) {
		if !t.Known || x.Env.Prot.Hit(t) != "" {
			x.WriteTarget(t, kernel.GitLocal)
		}
	}
}

// maxPatch bounds the patch text git apply --cached is judged by.
const maxPatch = 4 << 20

// gitApplyCached judges git apply --cached by the files its patches name (diff --git, ---,
// +++, rename and copy lines, with -p and --directory as git applies them): staging a harness
// file is its write. A patch from stdin, or one that cannot be read whole, is judged as the
// worst it could name.
func gitApplyCached(x *kernel.Command, rest []shell.Word, p command.Args) {
	strip := 1
	dirPrefix := ""
	for _, a := range rest {
		if v, ok := strings.CutPrefix(a.Value, "-p"); ok && v != "" {
			if n, err := strconv.Atoi(v); err == nil {
				strip = n
			}
		}
		if v, ok := strings.CutPrefix(a.Value, "--directory="); ok {
			dirPrefix = strings.TrimSuffix(v, "/") + "/"
		}
	}
	unknown := shell.Word{Value: "the files the patch names"}
	var patches []shell.Word
	for _, o := range p.Operands {
		if o.Value != "-" {
			patches = append(patches, o)
		}
	}
	if len(patches) < len(p.Operands) || len(p.Operands) == 0 || x.Cmd.StdinArgs {
		stages(x, unknown) // from stdin
	}
	for _, f := range patches {
		ts := kernel.Resolve(f, x.Cmd.Dir, false)
		if len(ts) != 1 || !ts[0].Known || ts[0].Glob {
			stages(x, unknown)
			continue
		}
		text, ok, cut := x.Call.ReadCode(ts[0].Path)
		if !ok || cut || len(text) >= maxPatch {
			stages(x, unknown)
			continue
		}
		top := ""
		if len(x.Cmd.Dir.Paths) == 1 {
			top = kernel.RepoTop(x.Cmd.Dir.Paths[0])
		}
		for _, name := range PatchNames(text, strip) {
			// git apply --cached takes the names from the top of the repository; the
			// directory the command runs in is asked too, the stricter of the two.
			for _, base := range []string{top, ""} {
				if base == "" && top != "" && len(x.Cmd.Dir.Paths) == 1 && x.Cmd.Dir.Paths[0] == top {
					continue
				}
				v := dirPrefix + name
				if base != "" {
					v = filepath.Join(base, v)
				}
				stages(x, shell.Word{Value: v, Known: true})
			}
		}
	}
}

// PatchNames are the file names a patch's headers give, each with strip leading components
// taken off (as -p) and as written, the stricter of the two.
func PatchNames(text string, strip int) []string {
	var out []string
	add := func(n string) {
		n = strings.TrimSpace(n)
		if i := strings.IndexByte(n, '\t'); i >= 0 {
			n = n[:i]
		}
		if uq, err := strconv.Unquote(n); err == nil && strings.HasPrefix(n, "\"") {
			n = uq
		}
		if n == "" || n == "/dev/null" {
			return
		}
		out = append(out, n)
		s := n
		for i := 0; i < strip; i++ {
			_, after, ok := strings.Cut(s, "/")
			if !ok {
				break
			}
			s = after
		}
		if s != n {
			out = append(out, s)
		}
	}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSuffix(line, "\r")
		switch {
		case strings.HasPrefix(line, "diff --git "):
			for _, f := range strings.Fields(line[len("diff --git "):]) {
				add(f)
			}
		case strings.HasPrefix(line, "--- ") || strings.HasPrefix(line, "+++ "):
			add(line[4:])
		case strings.HasPrefix(line, "rename to ") || strings.HasPrefix(line, "copy to ") || strings.HasPrefix(line, "rename from ") || strings.HasPrefix(line, "copy from "):
			_, n, _ := strings.Cut(line, " to ")
			if n == "" {
				_, n, _ = strings.Cut(line, " from ")
			}
			out = append(out, strings.TrimSpace(n))
		}
	}
	return out
}

// gitExpiry judges git gc (and maintenance, which runs it) by the expiry its configuration
// sets, from git -c or the configuration files: gc.pruneExpire=now drops unreachable objects at
// once, gc.reflogExpire*=now the reflog, as git gc --prune=now and git reflog expire
// --expire=now do.
func gitExpiry(x *kernel.Command, sub string, cli []shell.Word) {
	if sub != "gc" && sub != "maintenance" {
		for _, w := range cli {
			if k, v, _ := strings.Cut(w.Value, "="); gitExpiryKey(k) && gitExpiryNear(v) {
				x.Add(risk.High, kernel.GitLocal, kernel.RuleHistoryRewrite, "git -c "+w.Value+" "+sub+": the git gc --auto it may end with drops history at once")
				x.Call.Mark(kernel.RuleRewriteHistory, kernel.ShortCmd(x.Src)+" runs with "+w.Value+": the garbage collection git may run after it drops unreachable commits or the reflog at once, and work in no branch would be lost for good")
				return
			}
		}
		return
	}
	for _, d := range x.RunDirs() {
		kvs, _, _ := gitConfigAt(x, d, cli)
		for _, kv := range kvs {
			if gitExpiryKey(kv.Key) && gitExpiryNear(kv.Value) {
				x.Add(risk.High, kernel.GitLocal, kernel.RuleHistoryRewrite, "git "+sub+" with "+kv.Key+" = "+kv.Value+" drops history at once")
				x.Call.Mark(kernel.RuleRewriteHistory, kernel.ShortCmd(x.Src)+" runs with "+kv.Key+" = "+kv.Value+" (from "+x.Rel(kv.From)+"): unreachable commits or the reflog are dropped at once, and work in no branch would be lost for good")
				return
			}
		}
	}
}

// gitExpiryKey: gc.pruneExpire and gc.reflogExpire, gc.reflogExpireUnreachable (also per
// pattern, gc.<pattern>.reflogExpire).
func gitExpiryKey(k string) bool {
	k = strings.ToLower(k)
	return k == "gc.pruneexpire" || strings.HasPrefix(k, "gc.") && (strings.HasSuffix(k, ".reflogexpire") || strings.HasSuffix(k, ".reflogexpireunreachable"))
}

// gitExpiryNear reports whether an expiry lets git drop objects or reflog entries now or soon:
// "now", "all", a date, an age under a day. "never", "false" and ages of a day or more (git's
// defaults are two weeks and 90 days) keep recent work.
func gitExpiryNear(v string) bool {
	v = strings.ToLower(strings.TrimSpace(v))
	switch v {
	case "never", "false":
		return false
	}
	f := strings.FieldsFunc(v, func(r rune) bool { return r == '.' || r == ' ' || r == '_' })
	if len(f) >= 2 {
		if n, err := strconv.Atoi(f[0]); err == nil && n >= 1 {
			switch strings.TrimSuffix(f[1], "s") {
			case "day", "week", "month", "year":
				return false
			}
		}
	}
	return true
}

// maxBroughtIn bounds the revisions of one merge, cherry-pick or revert asked about one by one.
const maxBroughtIn = 8

// gitBringsIn judges the files that merging, picking or reverting revs writes among the
// harness's (gitCommitWrites); more revisions than are asked about one by one are a write of
// the whole repository.
func gitBringsIn(x *kernel.Command, revs []shell.Word, how string) {
	if len(revs) > maxBroughtIn {
		x.Write(gitSpecBase(x, shell.Word{Value: ":/", Known: true}), true, kernel.GitLocal)
		return
	}
	for _, r := range revs {
		gitCommitWrites(x, r, how)
	}
}

// changesIndex reports whether git sub can change the index, HEAD or a local branch, so that
// what git says of the working tree before the call is not what a later discard of the same
// call writes.
func changesIndex(sub string) bool {
	switch sub {
	case "checkout", "switch", "reset", "merge", "pull", "rebase", "am", "cherry-pick", "revert", "stash", "bisect",
		"read-tree", "update-index", "apply", "restore", "rm", "mv", "update-ref", "symbolic-ref", "branch", "tag":
		return true
	}
	return false
}

// gitCheckout judges git checkout and git restore. Without --, git reads checkout's first
// operand as a revision when it resolves to one and as a path otherwise (gitRevision), and the
// operands after it as paths. A path, with any spelling of pathspec, is overwritten with its
// version in the index (a discard git is asked about) or, from a revision or --source, with
// another commit's (any file under it may change). A switch to a revision writes what differs
// between HEAD and it (gitTreeWrites); with -f the local changes are thrown away too.
func gitCheckout(x *kernel.Command, sub string, rest []shell.Word) {
	p := command.GitCheckout.Parse(rest)
	ops := p.Operands
	nAfter := 0
	for i, a := range rest {
		if a.Known && a.Value == "--" {
			nAfter = min(len(rest)-i-1, len(ops))
			break
		}
	}
	dash := nAfter > 0 || len(rest) > 0 && rest[len(rest)-1].Value == "--"
	var paths []shell.Word
	var source shell.Word
	hasSource := false
	switch {
	case sub == "restore":
		paths = ops
		source, hasSource = p.Value("s", "source")
	case dash:
		paths = ops[len(ops)-nAfter:]
		if len(ops) > nAfter {
			source, hasSource = ops[0], true
		}
	case len(ops) > 0:
		rev, path := gitRevision(x, ops[0])
		if _, newBranch := p.Value("b", "B", "orphan"); newBranch || p.Has(0, "detach") || p.Has('t', "track") {
			rev, path = true, false
		}
		paths = ops[1:]
		if path {
			paths = ops // read as a path too when git's answer is in doubt
		}
		if rev {
			source, hasSource = ops[0], true
		}
	}
	if f, ok := p.Value("pathspec-from-file"); ok {
		paths = append(paths, shell.Word{Value: "the paths listed in " + f.Value})
	}
	if sub == "restore" && p.Has('S', "staged") && !p.Has('W', "worktree") {
		if hasSource {
			gitTreeWrites(x, source) // stages another commit's version: a harness file among them is written
		}
		x.Add(risk.Medium, kernel.GitLocal, kernel.RuleGitLocal, "git restore --staged unstages")
		return
	}
	force := p.Has('f', "force") || p.Has(0, "discard-changes")
	for _, o := range paths {
		if hasSource {
			x.Write(gitSpecBase(x, o), true, kernel.GitLocal)
		} else {
			discard(x, o, "paths")
		}
	}
	if len(paths) > 0 {
		gitLose(x, "paths", "overwrites", paths, nil)
	} else if force {
		discard(x, shell.Word{Value: ":/", Known: true}, "reset")
		gitLose(x, "reset", "discards", nil, nil)
	}
	if hasSource && sub == "checkout" && (len(paths) == 0 || paths[0] == source) {
		gitTreeWrites(x, source) // a switch (or, in doubt, perhaps one)
	}
	switch {
	case force:
		x.Add(risk.High, kernel.GitLocal, kernel.RuleDestructiveGit, "git "+sub+" --force discards local changes")
	case len(paths) > 0:
		x.Add(risk.Medium, kernel.GitLocal, kernel.RuleGitLocal, "git "+sub+" overwrites files with another version")
	default:
		x.Add(risk.Medium, kernel.GitLocal, kernel.RuleGitLocal, "git "+sub+" switches branches")
	}
}

// Nested classifies a program a git subcommand runs (rebase --exec, bisect run …).
func Nested(x *kernel.Command, prog, via string) {
	x.Call.Depth++
	defer func() { x.Call.Depth-- }()
	if x.Call.Depth > shell.MaxDepth {
		x.Add(risk.Critical, kernel.ShellExec, kernel.RuleNestingTooDeep, via+": programs nested too deep")
		return
	}
	cwd := x.Dir()
	x.Env.Program(x.Call, prog, cwd)
}

func without(ws []shell.Word, w shell.Word) []shell.Word {
	out := ws[:0:0]
	for _, a := range ws {
		if a != w {
			out = append(out, a)
		}
	}
	return out
}

// after returns the words after the first one equal to s.
func after(ws []shell.Word, s string) []shell.Word {
	for i, w := range ws {
		if w.Value == s {
			return ws[i+1:]
		}
	}
	return nil
}

// argvProgram is the program git runs for a command given as words: one word is shell text
// (git submodule foreach runs it with sh -c; for git bisect run, which runs a lone word as a
// command name, reading it as shell text is the stricter of the two); more words are an argv,
// each quoted so that 'rm -rf x' in sh -c 'rm -rf x' stays one word.
func argvProgram(ws []shell.Word) string {
	if len(ws) == 1 {
		return ws[0].Value
	}
	return shell.QuoteWords(ws)
}

// JoinWords joins the words' values with spaces, quoting dropped: for matching text only,
// never to be parsed as a program again.
func JoinWords(ws []shell.Word) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = w.Value
	}
	return strings.Join(parts, " ")
}

// Fetch judges curl, wget and their kin: a non-local URL, or one that cannot be known, is
// critical (seed 001 §3.3); a local one is medium. Output files are writes.
func Fetch(x *kernel.Command) {
	if browserOpts(x.Name) != "" {
		browse(x)
		return
	}
	var p command.Args
	isWget := x.Name == "wget" || x.Name == "wget2"
	if isWget {
		p = command.Lookup("wget").Spec.Parse(x.Args)
	} else {
		p = command.Lookup("curl").Spec.Parse(x.Args)
	}
	urls := p.Operands
	var hie httpieCall
	if httpieKin(x.Name) { // fetchget.go: http GET :9200/x
		urls, hie = httpieArgs(urls)
	}
	if u, ok := p.Value("url"); ok {
		urls = append(urls, u)
	}
	if _, ok := p.Value("K", "config", "i", "input-file", "e", "execute"); ok {
		x.AddUnknown(risk.Critical, kernel.ShellExec, kernel.RuleNetworkExternal, x.Name+" reads its URLs or commands from a file: they cannot be known statically", kernel.Unknown{What: kernel.UnknownValue})
	}
	local := true
	for _, k := range []string{"x", "proxy", "preproxy", "socks4", "socks4a", "socks5", "socks5-hostname", "resolve", "connect-to", "e", "execute"} {
		v, ok := p.Val[k]
		if !ok || x.Name == "curl" && (k == "e" || k == "execute") {
			continue
		}
		target := v.Value
		if k == "resolve" || k == "connect-to" {
			parts := strings.SplitN(target, ":", 3)
			if len(parts) == 3 {
				target = parts[2]
			}
		}
		if !v.Known || !kernel.IsLocalURL(target) {
			x.Add(risk.Critical, kernel.ShellExec, kernel.RuleNetworkExternal, x.Name+" --"+k+" "+v.Value+": the request goes to another machine")
			local = false
		}
	}
	if x.Call.Proxy {
		x.Add(risk.Critical, kernel.ShellExec, kernel.RuleNetworkExternal, x.Name+" runs after a proxy variable is set: the request may go to another machine")
		local = false
	}
	for _, u := range urls {
		if !u.Known {
			x.AddUnknown(risk.Critical, kernel.ShellExec, kernel.RuleNetworkExternal, x.Name+" to a URL that cannot be known statically (treated as the internet)", kernel.Unknown{What: kernel.UnknownValue})
			local = false
			continue
		}
		switch {
		case kernel.IsLocalURL(u.Value):
		case x.Call.Confined && (x.Name == "curl" || isWget && !hie.kin || hie.plain(p)) && plainGet(x, p, isWget || hie.kin, u.Value): // fetchget.go
			x.Add(risk.Medium, kernel.ShellExec, kernel.RuleNetworkFetch, x.Name+" reads "+u.Value+" inside Claude Code's sandbox, sending nothing from this machine: the sandbox asks you before it reaches a domain your settings do not list")
			local = false
		default:
			x.Add(risk.Critical, kernel.ShellExec, kernel.RuleNetworkExternal, x.Name+" to "+u.Value+": external communication, blocked at any trust")
			local = false
		}
		if why := SecretInURL(u.Value); why != "" {
			x.Add(risk.Critical, kernel.ShellExec, kernel.RuleSecretInURL, why)
		}
	}
	if len(urls) == 0 {
		if p.Unknown || x.Cmd.StdinArgs {
			x.AddUnknown(risk.Critical, kernel.ShellExec, kernel.RuleNetworkExternal, x.Name+" with arguments that cannot be known statically", kernel.Unknown{What: kernel.UnknownValue})
			return
		}
		x.Add(risk.Medium, kernel.ShellExec, kernel.RuleGrayArea, x.Name+" without a URL")
		return
	}
	// Files it writes.
	for _, k := range []string{"o", "output", "O", "output-document", "D", "dump-header", "c", "cookie-jar", "output-file", "a", "append-output"} {
		if x.Name == "curl" && (k == "O" || k == "a") || isWget && (k == "D" || k == "c") {
			continue
		}
		if w, ok := p.Val[k]; ok && w.Value != "-" {
			x.Write(w, false, kernel.ShellExec)
		}
	}
	remoteName := x.Name == "curl" && p.Has('O', "remote-name", "remote-name-all") || isWget
	if _, ok := p.Value("O", "output-document"); isWget && ok {
		remoteName = false
	}
	if remoteName {
		dir := shell.Word{Value: ".", Known: true}
		if d, ok := p.Value("P", "directory-prefix", "output-dir"); ok {
			dir = d
		}
		for _, u := range urls {
			name := "index.html"
			if pu, err := url.Parse(u.Value); err == nil && path.Base(pu.Path) != "/" && path.Base(pu.Path) != "." {
				name = path.Base(pu.Path)
			}
			x.Write(shell.Word{Value: strings.TrimSuffix(dir.Value, "/") + "/" + name, Known: dir.Known && u.Known}, false, kernel.ShellExec)
		}
	}
	if local {
		x.Add(risk.Medium, kernel.ShellExec, kernel.RuleNetworkLocal, x.Name+" to a local address")
		localDelete(x, p, isWget)
		hie.localDelete(x)
	}
}

// localDelete marks an HTTP DELETE to a local service: search indexes, databases, queues and
// caches on this machine delete what the request names (curl -X DELETE localhost:9200/_all),
// and nothing the harness reads can say whether a copy exists.
func localDelete(x *kernel.Command, p command.Args, isWget bool) {
	keys := []string{"X", "request"}
	if isWget {
		keys = []string{"method"}
	}
	m, ok := p.Value(keys...)
	if !ok {
		return
	}
	switch {
	case !m.Known:
		x.Call.Mark(kernel.RuleDestroysData, kernel.ShortCmd(x.Src)+" sends a request whose HTTP method cannot be known statically (it may be DELETE) to a service on this machine"+kernel.Consequence(kernel.RuleDestroysData))
	case strings.EqualFold(m.Value, "DELETE"):
		x.Call.Mark(kernel.RuleDestroysData, kernel.ShortCmd(x.Src)+" sends an HTTP DELETE to a service on this machine, which deletes what it names"+kernel.Consequence(kernel.RuleDestroysData))
	}
}

// browserOpts returns, for a text-mode browser or fetcher that takes a URL operand, its
// options that take a value (" -o -T "), or "" for any other program.
func browserOpts(name string) string {
	switch name {
	case "lynx", "links2":
		return " "
	case "w3m":
		return " -o -T -I -O -cols -ppc -ppl -bookmark -config -F -r "
	case "links":
		return " -source-charset "
	case "elinks":
		return " -eval -config-dir -config-file -remote -session-ring "
	case "fetch":
		return " -o -S -T -N -i -B "
	}
	return ""
}

// browse judges a text-mode browser or BSD fetch: every URL operand that is not local, or
// cannot be known, is external communication, blocked at any trust; -o file is a write.
func browse(x *kernel.Command) {
	takes := browserOpts(x.Name)
	var urls []shell.Word
	for i := 0; i < len(x.Args); i++ {
		a := x.Args[i]
		if a.Known && strings.HasPrefix(a.Value, "-") && len(a.Value) > 1 {
			if strings.Contains(takes, " "+a.Value+" ") && i+1 < len(x.Args) {
				if x.Name == "fetch" && a.Value == "-o" && x.Args[i+1].Value != "-" {
					x.Write(x.Args[i+1], false, kernel.ShellExec)
				}
				i++
			}
			continue
		}
		urls = append(urls, a)
	}
	if len(urls) == 0 {
		x.Add(risk.Medium, kernel.ShellExec, kernel.RuleGrayArea, x.Name+" without a URL")
		return
	}
	for _, u := range urls {
		if !u.Known || !kernel.IsLocalURL(u.Value) {
			x.Add(risk.Critical, kernel.ShellExec, kernel.RuleNetworkExternal, x.Name+" to "+u.Value+": external communication, blocked at any trust")
			return
		}
	}
	x.Add(risk.Medium, kernel.ShellExec, kernel.RuleNetworkLocal, x.Name+" to a local address")
}

// TradeURL: the seed's trade/order/buy/sell/payment/transaction URLs, matched on words of the
// URL so that "recorder" does not count as "order".
func TradeURL(raw string) string {
	words := strings.FieldsFunc(strings.ToLower(urls.Unescape(raw)), func(r rune) bool { return r < 'a' || r > 'z' })
	for _, w := range words {
		for _, k := range []string{"trade", "trading", "order", "orders", "buy", "sell", "payment", "payments", "pay", "transaction", "transactions", "checkout", "transfer"} {
			if w == k {
				return "the URL is about " + k + ": a financial operation"
			}
		}
	}
	return ""
}

func Ishex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// MetadataURL says why a URL reaches the cloud's instance metadata (credentials of the
// machine's role) or another link-local service, or "". The host is compared decoded and in
// every spelling inet_aton accepts (169.254.169.254, 2852039166, 0xa9.0xfe.0xa9.0xfe).
func MetadataURL(raw string) string {
	s := raw
	if !strings.Contains(s, "://") {
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return ""
	}
	h := strings.TrimSuffix(strings.ToLower(urls.Unescape(u.Hostname())), ".")
	switch h {
	case "metadata.google.internal", "metadata", "metadata.goog", "instance-data", "instance-data.ec2.internal":
		return h + " is the cloud's instance metadata service: it hands out the machine's credentials"
	}
	ip, err := netip.ParseAddr(strings.Trim(h, "[]"))
	if err != nil {
		v4, ok := inetAton(h)
		if !ok {
			return ""
		}
		ip = v4
	}
	ip = ip.Unmap()
	if ip.IsLinkLocalUnicast() || ip == netip.MustParseAddr("fd00:ec2::254") || ip == netip.MustParseAddr("100.100.100.200") {
		return h + " is a link-local or metadata address: the cloud's instance metadata hands out the machine's credentials"
	}
	return ""
}

// inetAton parses the IPv4 spellings of inet_aton: 1 to 4 parts, each decimal, 0x hex or
// 0-led octal, the last filling the remaining bytes.
func inetAton(h string) (netip.Addr, bool) {
	parts := strings.Split(h, ".")
	if len(parts) > 4 || h == "" {
		return netip.Addr{}, false
	}
	vals := make([]uint64, len(parts))
	for i, p := range parts {
		v, err := strconv.ParseUint(p, 0, 32)
		if err != nil {
			return netip.Addr{}, false
		}
		vals[i] = v
	}
	var n uint64
	for i, v := range vals[:len(vals)-1] {
		if v > 255 {
			return netip.Addr{}, false
		}
		n |= v << (24 - 8*i)
	}
	last := vals[len(vals)-1]
	if last >= 1<<(8*(5-len(vals))) {
		return netip.Addr{}, false
	}
	n |= last
	return netip.AddrFrom4([4]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}), true
}

// SecretInURL: a secret in a query string leaves with the request.
func SecretInURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	for k := range u.Query() {
		if kernel.SecretName(k) {
			return "the URL carries " + k + ", named like a secret"
		}
	}
	return ""
}
