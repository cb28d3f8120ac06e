package classify

import (
	"net/netip"
	"net/url"
	"path"
	"strconv"
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/readonly"
	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// gitRead are the read-only subcommands: domain git_read, which the seed's phase profiles
// allow in every phase.
var gitRead = readonly.GitRead

// gitExecKeys are configuration keys whose value git runs as a command.
func gitExecKey(kv string) bool {
	k, v, _ := strings.Cut(strings.ToLower(kv), "=")
	if row := gitProgRowFor(k); row != nil && row.kind != gvAlias {
		return !(row.kind == gvFsmonitor && isGitBool(v)) && !(row.kind == gvProtocol && v != "always") // gitprog.go's table
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

func (x *cmdCtx) git() {
	args := x.args
	dir := x.cmd.Dir
	var cli []shell.Word // git -c key=value, for gitPrograms
	i := 0
	for i < len(args) {
		a := args[i]
		v := a.Value
		if !a.Known {
			x.add(risk.High, GitLocal, "dynamic_command", "a git argument that cannot be known statically")
			return
		}
		switch {
		case v == "-C" && i+1 < len(args):
			d := args[i+1]
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
			i += 2
			continue
		case v == "-c" && i+1 < len(args):
			cli = append(cli, args[i+1])
			if !args[i+1].Known || gitExecKey(args[i+1].Value) {
				x.add(risk.High, GitLocal, "git_runs_program", "git -c "+args[i+1].Value+" makes git run a program")
				if _, v, ok := strings.Cut(args[i+1].Value, "="); ok && args[i+1].Known {
					x.nested(strings.TrimPrefix(strings.TrimSpace(v), "!"), "git -c")
				}
			}
			if k, v, ok := strings.Cut(args[i+1].Value, "="); ok && strings.HasPrefix(strings.ToLower(k), "alias.") && !strings.HasPrefix(strings.TrimSpace(v), "!") {
				x.nested("git "+v, "git -c "+k) // an alias of a git command: judge what it stands for
			}
			i += 2
			continue
		case v == "--git-dir" || v == "--work-tree" || v == "--namespace" || v == "--exec-path" || v == "--config-env":
			x.add(risk.Medium, GitLocal, "git_location", "git "+v+" points git elsewhere")
			i += 2
			continue
		case strings.HasPrefix(v, "--exec-path=") || strings.HasPrefix(v, "--config-env="):
			x.add(risk.High, GitLocal, "git_runs_program", "git "+v+" makes git run other programs")
		case strings.HasPrefix(v, "-"):
		default:
			goto sub
		}
		i++
	}
	x.add(risk.Low, GitRead, "git_read", "git without a subcommand")
	return
sub:
	sub := args[i].Value
	rest := args[i+1:]
	x.cmd.Dir = dir
	x.gitPrograms(sub, rest, cli) // gitprog.go: hooks, configured programs, program options
	for _, a := range rest {
		if strings.HasPrefix(a.Value, "--upload-pack") || strings.HasPrefix(a.Value, "--receive-pack") || strings.HasPrefix(a.Value, "--exec=") || a.Value == "--exec" || a.Value == "-x" && sub == "rebase" || a.Value == "--config" || strings.HasPrefix(a.Value, "--config=") || strings.HasPrefix(a.Value, "--template") {
			x.add(risk.High, GitLocal, "git_runs_program", "git "+sub+" "+a.Value+" makes git run a program")
		}
		if a.Known && strings.HasPrefix(a.Value, "--output=") {
			x.write(shell.Word{Value: strings.TrimPrefix(a.Value, "--output="), Known: true}, false, GitLocal)
		}
	}
	p := parseArgs(rest, "mFCSbBcoOsux", "message", "file", "reuse-message", "reedit-message", "fixup", "squash", "author", "date", "cleanup", "template", "exec", "onto", "strategy", "strategy-option", "format", "pretty", "sort", "contains", "points-at", "merged", "no-merged", "set-upstream-to", "depth", "branch", "origin", "reference", "separate-git-dir", "jobs", "output", "prefix", "remote")
	if o, ok := p.value("output"); ok {
		x.write(o, false, GitLocal) // git diff --output F, also spelled apart
	}
	switch {
	case sub == "push" || sub == "send-pack":
		x.gitPush(p)
	case sub == "pull":
		x.add(risk.High, GitRemote, "deny_list", "git pull merges another repository's work into this one")
	case sub == "fetch" || sub == "remote" && len(p.operands) > 0 && p.operands[0].Value == "update":
		x.add(risk.Medium, GitRemote, "git_remote", "git "+sub+" downloads from another repository")
	case sub == "ls-remote":
		x.add(risk.Low, GitRemote, "git_remote", "git ls-remote lists another repository")
	case sub == "clone":
		if len(p.operands) > 1 {
			x.write(p.operands[1], true, GitRemote)
		} else if len(p.operands) == 1 && p.operands[0].Known {
			base := strings.TrimSuffix(path.Base(strings.TrimSuffix(p.operands[0].Value, "/")), ".git")
			x.write(shell.Word{Value: base, Known: true}, true, GitRemote)
		}
		x.add(risk.Medium, GitRemote, "git_remote", "git clone downloads a repository")
	case sub == "submodule":
		x.gitSubmodule(p)
	case gitRead[sub]:
		x.add(risk.Low, GitRead, "git_read", "git "+sub+" only reads")
	case sub == "branch":
		x.gitBranch(p)
	case sub == "tag":
		switch {
		case len(p.operands) == 0 || p.has('l', "list") || p.has('n') || p.has(0, "contains", "points-at", "merged", "no-merged", "sort", "format"):
			x.add(risk.Low, GitRead, "git_read", "git tag lists tags")
		default:
			x.add(risk.Medium, GitLocal, "git_local", "git tag changes tags")
		}
	case sub == "remote":
		if len(p.operands) == 0 || p.operands[0].Value == "show" || p.operands[0].Value == "get-url" {
			x.add(risk.Low, GitRead, "git_read", "git remote lists remotes")
		} else {
			x.add(risk.Medium, GitLocal, "git_local", "git remote changes where this repository pushes and pulls")
		}
	case sub == "config":
		x.gitConfig(p, rest)
	case sub == "stash":
		op := ""
		if len(p.operands) > 0 {
			op = p.operands[0].Value
		}
		switch op {
		case "list", "show":
			x.add(risk.Low, GitRead, "git_read", "git stash "+op+" only reads")
		case "drop", "clear":
			x.add(risk.High, GitLocal, "destructive_git", "git stash "+op+" discards stashed work")
			x.r.mark(RuleGitDiscard, shortCmd(x.src)+" throws away stashed work: it is in no commit and cannot be brought back")
		default:
			x.stashUntracked(p, op)
			x.add(risk.Medium, GitLocal, "git_local", "git stash changes the working tree")
		}
	case sub == "reflog":
		if len(p.operands) > 0 && (p.operands[0].Value == "expire" || p.operands[0].Value == "delete") {
			x.add(risk.High, GitLocal, "destructive_git", "git reflog "+p.operands[0].Value+" drops the history needed to recover work")
			x.r.mark(RuleRewriteHistory, shortCmd(x.src)+" drops the reflog, the record git needs to bring back lost commits")
		} else {
			x.add(risk.Low, GitRead, "git_read", "git reflog only reads")
		}
	case sub == "commit":
		if p.has(0, "amend") {
			x.add(risk.High, GitLocal, "history_rewrite", "git commit --amend rewrites history")
			x.rewrite("amend", "", "", true, false)
			return
		}
		x.add(risk.Medium, GitLocal, "git_local", "git commit records staged changes")
	case sub == "add" || sub == "cherry-pick" || sub == "revert" || sub == "init" || sub == "switch" || sub == "notes" || sub == "worktree" || sub == "bisect" || sub == "hash-object" || sub == "gc" && !p.has(0, "prune") || sub == "mv":
		if sub == "mv" && len(p.operands) >= 2 {
			for _, o := range p.operands {
				x.write(o, true, GitLocal)
			}
		}
		if sub == "init" {
			d := shell.Word{Value: ".", Known: true}
			if len(p.operands) > 0 {
				d = p.operands[0]
			}
			x.write(shell.Word{Value: strings.TrimSuffix(d.Value, "/") + "/.git", Known: d.Known}, true, GitLocal)
		}
		if sub == "switch" && p.has('f', "force", "discard-changes") {
			x.gitLose("reset", "discards", nil, nil) // local changes are thrown away (losses.go)
		}
		if sub == "bisect" && len(p.operands) > 1 && p.operands[0].Value == "run" {
			x.nested(argvProgram(after(rest, "run")), "git bisect run")
		}
		x.add(risk.Medium, GitLocal, "git_local", "git "+sub+" changes the local repository")
	case sub == "checkout" || sub == "restore":
		x.gitCheckout(sub, rest, p)
	case sub == "reset":
		if p.has(0, "hard", "merge", "keep") {
			x.add(risk.High, GitLocal, "destructive_git", "git reset --hard discards uncommitted work")
			x.gitLose("reset", "discards", nil, nil)
			x.write(shell.Word{Value: ".", Known: true}, true, GitLocal)
			return
		}
		x.add(risk.Medium, GitLocal, "git_local", "git reset moves the branch or unstages")
	case sub == "clean":
		if p.has('n', "dry-run") {
			x.add(risk.Low, GitRead, "git_read", "git clean -n only lists")
			return
		}
		targets := p.operands
		if len(targets) == 0 {
			targets = []shell.Word{{Value: ".", Known: true}}
		}
		for _, t := range targets {
			x.write(t, true, GitLocal)
		}
		kind := "clean"
		if p.has('x') {
			kind = "cleanx"
		} else if p.has('X') {
			kind = "cleanX"
		}
		x.gitLose(kind, "deletes untracked files in", targets, nil)
		x.add(risk.High, GitLocal, "destructive_git", "git clean deletes untracked files (ignored ones too with -x)")
	case sub == "rm":
		for _, o := range p.operands {
			if !p.has(0, "cached") {
				x.write(o, p.has('r'), GitLocal)
				x.lose(o, p.has('r'), "deletes")
			}
		}
		if p.has(0, "cached") {
			x.add(risk.Medium, GitLocal, "git_local", "git rm --cached unstages")
			return
		}
		x.add(risk.High, GitLocal, "deny_list", "git rm deletes files")
	case sub == "merge":
		if p.has(0, "abort") {
			x.add(risk.Medium, GitLocal, "git_local", "git merge --abort")
			return
		}
		x.add(risk.High, GitLocal, "deny_list", "git merge")
	case sub == "rebase":
		if p.has(0, "abort", "continue", "skip", "quit") {
			x.add(risk.Medium, GitLocal, "git_local", "git rebase control")
			return
		}
		if e, ok := p.value("x", "exec"); ok {
			x.nested(e.Value, "git rebase --exec")
		}
		x.add(risk.High, GitLocal, "history_rewrite", "git rebase rewrites history")
		x.rebase(p)
	case sub == "filter-branch" || sub == "filter-repo" || sub == "replace" || sub == "prune" || sub == "gc" || sub == "update-index" || sub == "update-ref" && p.has('d'):
		x.add(risk.High, GitLocal, "history_rewrite", "git "+sub+" rewrites or drops history, or writes the index directly")
		if sub != "update-index" {
			x.r.mark(RuleRewriteHistory, shortCmd(x.src)+" rewrites or drops history: commits may be lost for good")
		}
	case sub == "apply" || sub == "am":
		if p.has(0, "check", "stat", "numstat", "summary") {
			x.add(risk.Low, GitRead, "git_read", "git apply --check only reads")
			return
		}
		if p.has(0, "cached") {
			x.add(risk.High, GitLocal, "git_local", "git apply --cached writes the index from a patch")
			return
		}
		x.add(risk.Critical, GitLocal, "self_protection_unknown_target", "git "+sub+" writes the files the patch names, which cannot be known statically and could be protected: use Edit/Write")
	case sub == "archive" || sub == "bundle" || sub == "format-patch":
		if o, ok := p.value("o", "output"); ok {
			x.write(o, false, GitLocal)
		}
		x.add(risk.Medium, GitLocal, "git_local", "git "+sub+" writes files")
	default:
		x.add(risk.Medium, GitLocal, "git_local", "git "+sub+": no built-in rule (an alias or plumbing)")
	}
}

func (x *cmdCtx) gitPush(p parsed) {
	for _, a := range x.args {
		v := a.Value
		if v == "--force" || v == "-f" || strings.HasPrefix(v, "--force-with-lease") || v == "--force-if-includes" || v == "--mirror" || v == "--prune" || v == "--delete" || v == "-d" || (strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.ContainsAny(v[1:], "fd")) {
			x.add(risk.Critical, GitRemote, "force_push", "git push "+v+" can overwrite or delete a remote branch: irreversible for everyone")
			return
		}
	}
	for i, o := range p.operands {
		if i == 0 {
			continue // the remote
		}
		if !o.Known {
			x.add(risk.Critical, GitRemote, "force_push", "a refspec that cannot be known statically could force or delete")
			return
		}
		if strings.HasPrefix(o.Value, "+") || strings.HasPrefix(o.Value, ":") {
			x.add(risk.Critical, GitRemote, "force_push", "the refspec "+o.Value+" forces or deletes a remote branch")
			return
		}
	}
	x.add(risk.High, GitRemote, "deny_list", "git push publishes commits")
}

func (x *cmdCtx) gitBranch(p parsed) {
	switch {
	case p.has('D') || p.has('d') && p.has('f') || p.has(0, "delete") && p.has(0, "force"):
		x.add(risk.High, GitLocal, "destructive_git", "git branch -D deletes a branch with unmerged work")
		var names []string
		for _, o := range p.operands {
			if !o.Known {
				x.r.mark(RuleGitDiscard, shortCmd(x.src)+" deletes a branch whose name cannot be known: its work may be merged nowhere")
				return
			}
			names = append(names, o.Value)
		}
		x.gitLose("branch", "deletes branches", nil, names)
	case p.has('d', "delete") || p.has('m', "move") || p.has('M') || p.has('c', "copy") || p.has('C') || p.has('u', "set-upstream-to") || p.has(0, "unset-upstream", "edit-description"):
		x.add(risk.Medium, GitLocal, "git_local", "git branch changes branches")
	case len(p.operands) == 0 || p.has('l', "list"):
		x.add(risk.Low, GitRead, "git_read", "git branch lists branches")
	default:
		x.add(risk.Medium, GitLocal, "git_local", "git branch creates a branch")
	}
}

func (x *cmdCtx) gitConfig(p parsed, rest []shell.Word) {
	for i, a := range rest {
		// git config --file F writes F, whatever it is called.
		if (a.Value == "-f" || a.Value == "--file") && i+1 < len(rest) {
			x.write(rest[i+1], false, GitLocal)
		} else if v, ok := strings.CutPrefix(a.Value, "--file="); ok {
			x.write(shell.Word{Value: v, Known: a.Known}, false, GitLocal)
		}
	}
	if f, ok := p.value("f", "file"); ok {
		p.operands = without(p.operands, f)
	}
	if p.has('l', "list", "get", "get-all", "get-regexp", "show-origin", "get-urlmatch") || len(p.operands) <= 1 && !p.has(0, "unset", "unset-all", "add", "replace-all", "edit", "rename-section", "remove-section") && !p.has('e') {
		if len(p.operands) == 0 || p.operands[0].Value != "set" {
			x.add(risk.Low, GitRead, "git_read", "git config reads")
			return
		}
	}
	ops := p.operands
	if len(ops) > 0 && (ops[0].Value == "set" || ops[0].Value == "unset") {
		ops = ops[1:]
	}
	for i, o := range ops {
		kv := o.Value
		if i == 0 && len(ops) > 1 {
			kv += "=" + ops[1].Value
		}
		if i == 0 && len(ops) > 1 && strings.HasPrefix(strings.ToLower(o.Value), "alias.") && !strings.HasPrefix(strings.TrimSpace(ops[1].Value), "!") {
			x.nested("git "+ops[1].Value, "git config "+o.Value) // git p = git push --force
		}
		if !o.Known || gitExecKey(kv) {
			x.add(risk.High, GitLocal, "git_runs_program", "git config "+o.Value+" makes git run a program")
			if i == 0 && len(ops) > 1 && ops[1].Known {
				x.nested(strings.TrimPrefix(strings.TrimSpace(ops[1].Value), "!"), "git config "+o.Value)
			}
			return
		}
	}
	x.add(risk.Medium, GitLocal, "git_local", "git config changes the configuration")
}

func (x *cmdCtx) gitSubmodule(p parsed) {
	op := ""
	if len(p.operands) > 0 {
		op = p.operands[0].Value
	}
	switch op {
	case "foreach":
		argv := after(x.args, "foreach")
		for len(argv) > 0 && (argv[0].Value == "--recursive" || argv[0].Value == "-q" || argv[0].Value == "--quiet") {
			argv = argv[1:]
		}
		if len(argv) > 0 {
			x.nested(argvProgram(argv), "git submodule foreach")
		}
		x.add(risk.Medium, GitLocal, "git_local", "git submodule foreach runs a command in each submodule")
	case "", "status", "summary":
		x.add(risk.Low, GitRead, "git_read", "git submodule status")
	default:
		x.add(risk.Medium, GitRemote, "git_remote", "git submodule "+op+" fetches")
	}
}

// gitCheckout: paths after -- (or ".") are overwritten with another version; a branch name
// is a switch.
func (x *cmdCtx) gitCheckout(sub string, rest []shell.Word, p parsed) {
	var paths []shell.Word
	dash := false
	for _, a := range rest {
		if a.Value == "--" {
			dash = true
			continue
		}
		if dash {
			paths = append(paths, a)
		}
	}
	if !dash {
		for i, o := range p.operands {
			if sub == "restore" || o.Value == "." || strings.Contains(o.Value, "/") && i > 0 || !o.Known {
				paths = append(paths, o)
			}
		}
	}
	if sub == "restore" && p.has('S', "staged") && !p.has('W', "worktree") {
		x.add(risk.Medium, GitLocal, "git_local", "git restore --staged unstages")
		return
	}
	for _, o := range paths {
		tree := o.Value == "." || strings.HasSuffix(o.Value, "/") || o.Glob
		x.write(o, tree, GitLocal)
	}
	if len(paths) > 0 {
		x.gitLose("paths", "overwrites", paths, nil)
	} else if p.has('f', "force") || p.has(0, "discard-changes") {
		x.gitLose("reset", "discards", nil, nil)
	}
	if p.has('f', "force") {
		x.add(risk.High, GitLocal, "destructive_git", "git "+sub+" --force discards local changes")
		return
	}
	if len(paths) > 0 {
		x.add(risk.Medium, GitLocal, "git_local", "git "+sub+" overwrites files with another version")
		return
	}
	x.add(risk.Medium, GitLocal, "git_local", "git "+sub+" switches branches")
}

// nested classifies a program a git subcommand runs (rebase --exec, bisect run …).
func (x *cmdCtx) nested(prog, via string) {
	x.r.depth++
	defer func() { x.r.depth-- }()
	if x.r.depth > shell.MaxDepth {
		x.add(risk.Critical, ShellExec, "nesting_too_deep", via+": programs nested too deep")
		return
	}
	cwd := x.c.layout.ProjectDir
	if len(x.cmd.Dir.Paths) > 0 {
		cwd = x.cmd.Dir.Paths[0]
	}
	x.c.program(x.r, prog, cwd)
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

// joinWords joins the words' values with spaces, quoting dropped: for matching text only,
// never to be parsed as a program again.
func joinWords(ws []shell.Word) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = w.Value
	}
	return strings.Join(parts, " ")
}

// fetch judges curl, wget and their kin: a non-local URL, or one that cannot be known, is
// critical (seed 001 §3.3); a local one is medium. Output files are writes.
func (x *cmdCtx) fetch() {
	if browsers[x.name] != "" {
		x.browse()
		return
	}
	var p parsed
	isWget := x.name == "wget" || x.name == "wget2"
	if isWget {
		p = parseArgs(x.args, wgetShort, wgetLong...)
	} else {
		p = parseArgs(x.args, curlShort, curlLong...)
	}
	urls := p.operands
	if u, ok := p.value("url"); ok {
		urls = append(urls, u)
	}
	if _, ok := p.value("K", "config", "i", "input-file", "e", "execute"); ok {
		x.add(risk.Critical, ShellExec, "network_external", x.name+" reads its URLs or commands from a file: they cannot be known statically")
	}
	local := true
	for _, k := range []string{"x", "proxy", "preproxy", "socks4", "socks4a", "socks5", "socks5-hostname", "resolve", "connect-to", "e", "execute"} {
		v, ok := p.val[k]
		if !ok || x.name == "curl" && (k == "e" || k == "execute") {
			continue
		}
		target := v.Value
		if k == "resolve" || k == "connect-to" {
			parts := strings.SplitN(target, ":", 3)
			if len(parts) == 3 {
				target = parts[2]
			}
		}
		if !v.Known || !isLocalURL(target) {
			x.add(risk.Critical, ShellExec, "network_external", x.name+" --"+k+" "+v.Value+": the request goes to another machine")
			local = false
		}
	}
	if x.r.proxy {
		x.add(risk.Critical, ShellExec, "network_external", x.name+" runs after a proxy variable is set: the request may go to another machine")
		local = false
	}
	for _, u := range urls {
		if !u.Known {
			x.add(risk.Critical, ShellExec, "network_external", x.name+" to a URL that cannot be known statically (treated as the internet)")
			local = false
			continue
		}
		if !isLocalURL(u.Value) {
			x.add(risk.Critical, ShellExec, "network_external", x.name+" to "+u.Value+": external communication, blocked at any trust")
			local = false
		}
		if why := secretInURL(u.Value); why != "" {
			x.add(risk.Critical, ShellExec, "secret_in_url", why)
		}
	}
	if len(urls) == 0 {
		if p.unknown || x.cmd.StdinArgs {
			x.add(risk.Critical, ShellExec, "network_external", x.name+" with arguments that cannot be known statically")
			return
		}
		x.add(risk.Medium, ShellExec, "gray_area", x.name+" without a URL")
		return
	}
	// Files it writes.
	for _, k := range []string{"o", "output", "O", "output-document", "D", "dump-header", "c", "cookie-jar", "output-file", "a", "append-output"} {
		if x.name == "curl" && (k == "O" || k == "a") || isWget && (k == "D" || k == "c") {
			continue
		}
		if w, ok := p.val[k]; ok && w.Value != "-" {
			x.write(w, false, ShellExec)
		}
	}
	remoteName := x.name == "curl" && p.has('O', "remote-name", "remote-name-all") || isWget
	if _, ok := p.value("O", "output-document"); isWget && ok {
		remoteName = false
	}
	if remoteName {
		dir := shell.Word{Value: ".", Known: true}
		if d, ok := p.value("P", "directory-prefix", "output-dir"); ok {
			dir = d
		}
		for _, u := range urls {
			name := "index.html"
			if pu, err := url.Parse(u.Value); err == nil && path.Base(pu.Path) != "/" && path.Base(pu.Path) != "." {
				name = path.Base(pu.Path)
			}
			x.write(shell.Word{Value: strings.TrimSuffix(dir.Value, "/") + "/" + name, Known: dir.Known && u.Known}, false, ShellExec)
		}
	}
	if local {
		x.add(risk.Medium, ShellExec, "network_local", x.name+" to a local address")
	}
}

// browsers are text-mode browsers and fetchers that take a URL operand, with their options
// that take a separate value: curl by another name.
var browsers = map[string]string{"lynx": " ", "w3m": " -o -T -I -O -cols -ppc -ppl -bookmark -config -F -r ", "links": " -source-charset ",
	"links2": " ", "elinks": " -eval -config-dir -config-file -remote -session-ring ", "fetch": " -o -S -T -N -i -B "}

// browse judges a text-mode browser or BSD fetch: every URL operand that is not local, or
// cannot be known, is external communication, blocked at any trust; -o file is a write.
func (x *cmdCtx) browse() {
	takes := browsers[x.name]
	var urls []shell.Word
	for i := 0; i < len(x.args); i++ {
		a := x.args[i]
		if a.Known && strings.HasPrefix(a.Value, "-") && len(a.Value) > 1 {
			if strings.Contains(takes, " "+a.Value+" ") && i+1 < len(x.args) {
				if x.name == "fetch" && a.Value == "-o" && x.args[i+1].Value != "-" {
					x.write(x.args[i+1], false, ShellExec)
				}
				i++
			}
			continue
		}
		urls = append(urls, a)
	}
	if len(urls) == 0 {
		x.add(risk.Medium, ShellExec, "gray_area", x.name+" without a URL")
		return
	}
	for _, u := range urls {
		if !u.Known || !isLocalURL(u.Value) {
			x.add(risk.Critical, ShellExec, "network_external", x.name+" to "+u.Value+": external communication, blocked at any trust")
			return
		}
	}
	x.add(risk.Medium, ShellExec, "network_local", x.name+" to a local address")
}

// isLocalURL: localhost, 127.0.0.0/8, ::1 (and file:// URLs, which stay on the machine).
func isLocalURL(raw string) bool {
	s := raw
	if !strings.Contains(s, "://") {
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return false
	}
	if u.Scheme == "file" {
		return true
	}
	h := strings.ToLower(u.Hostname())
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	if ip, err := netip.ParseAddr(strings.Trim(h, "[]")); err == nil {
		return ip.Unmap().IsLoopback()
	}
	return false
}

// tradeURL: the seed's trade/order/buy/sell/payment/transaction URLs, matched on words of the
// URL so that "recorder" does not count as "order".
func tradeURL(raw string) string {
	words := strings.FieldsFunc(strings.ToLower(unescapeAll(raw)), func(r rune) bool { return r < 'a' || r > 'z' })
	for _, w := range words {
		for _, k := range []string{"trade", "trading", "order", "orders", "buy", "sell", "payment", "payments", "pay", "transaction", "transactions", "checkout", "transfer"} {
			if w == k {
				return "the URL is about " + k + ": a financial operation"
			}
		}
	}
	return ""
}

// unescapeAll decodes %XX escapes (valid ones; the rest stay as written) until nothing
// changes, at most four times: /%70ayment and /%2570ayment are /payment.
func unescapeAll(s string) string {
	for range 4 {
		if !strings.Contains(s, "%") {
			return s
		}
		var b strings.Builder
		for i := 0; i < len(s); i++ {
			if s[i] == '%' && i+2 < len(s) && ishex(s[i+1]) && ishex(s[i+2]) {
				b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
				i += 2
				continue
			}
			b.WriteByte(s[i])
		}
		if b.String() == s {
			return s
		}
		s = b.String()
	}
	return s
}

func ishex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func unhex(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// metadataURL says why a URL reaches the cloud's instance metadata (credentials of the
// machine's role) or another link-local service, or "". The host is compared decoded and in
// every spelling inet_aton accepts (169.254.169.254, 2852039166, 0xa9.0xfe.0xa9.0xfe).
func metadataURL(raw string) string {
	s := raw
	if !strings.Contains(s, "://") {
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return ""
	}
	h := strings.TrimSuffix(strings.ToLower(unescapeAll(u.Hostname())), ".")
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

// secretInURL: a secret in a query string leaves with the request.
func secretInURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	for k := range u.Query() {
		if secretName(k) {
			return "the URL carries " + k + ", named like a secret"
		}
	}
	return ""
}
