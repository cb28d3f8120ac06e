package classify

import (
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/containers"
	"github.com/oath-harness/oath-harness/internal/classify/git"
	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/classify/outbound"
	"github.com/oath-harness/oath-harness/internal/classify/runfiles"
	"github.com/oath-harness/oath-harness/internal/classify/self"
	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/classify/sqlite"
	"github.com/oath-harness/oath-harness/internal/command"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// judge applies the command's rule: the row of command's table names it (catalogue.go says
// how each kind of row is judged).
func judge(x *kernel.Command) {
	row := *x.Prog()
	n := x.Name
	switch row.Judge {
	case command.Schedule:
		if x.Schedule() {
			return
		}
		listed(x, row)
	case command.Agent:
		agent(x, row) // agents.go
	case command.Kill:
		if x.KillAll() {
			return
		}
		listed(x, row)
	case command.Mailer:
		x.Add(risk.Critical, kernel.ShellExec, kernel.RuleMailer, n+" sends mail")
	case command.Fetch:
		git.Fetch(x)
	case command.Git:
		git.Git(x)
	case command.Remove:
		rm(x)
	case command.Rmdir:
		for _, o := range command.Parse(x.Args, "").Operands {
			x.Write(o, false, kernel.ShellExec)
		}
		x.Add(risk.Medium, kernel.FileWrite, kernel.RuleFileChange, "removes directories")
	case command.Chmod:
		chmod(x)
	case command.Move:
		copyOrMove(x, true)
	case command.Mount:
		if ops := command.Parse(x.Args, "tTLUoO", "types", "options", "target", "source", "fstab").Operands; len(ops) > 0 {
			x.Write(ops[len(ops)-1], true, kernel.ShellExec) // what is mounted over the target replaces it
			x.Destroy(ops[len(ops)-1], "mounting over")
		}
		x.Add(risk.High, kernel.ShellExec, kernel.RuleDenyList, n+": "+row.Reason)
	case command.GitHub:
		gh(x, row)
	case command.Copy:
		copyOrMove(x, false)
	case command.Link:
		ln(x)
	case command.Touch:
		for _, o := range command.Parse(x.Args, "srmdtAB", "size", "reference", "mode", "date").Operands {
			x.Write(o, false, kernel.ShellExec)
			if n == "truncate" {
				x.Lose(o, false, "truncates")
			}
		}
		x.Add(risk.Medium, kernel.FileWrite, kernel.RuleFileChange, n+" changes files")
	case command.Editor:
		editor(x) // editors.go
	case command.Tee:
		p := command.Parse(x.Args, "")
		for _, o := range p.Operands {
			x.Write(o, false, kernel.ShellExec)
			if !p.Has('a', "append") {
				x.Lose(o, false, "overwrites") // tee F truncates F first, like > F
			}
			runfiles.PlantTee(x, o, p.Has('a', "append")) // planted.go
		}
		if len(p.Operands) > 0 {
			x.Add(risk.Medium, kernel.FileWrite, kernel.RuleFileChange, "tee writes files")
		} else {
			x.Add(risk.Low, kernel.FileRead, kernel.RuleAllowList, "tee to stdout only")
		}
	case command.Sed:
		sed(x)
	case command.PerlRuby:
		x.Add(risk.Medium, kernel.ShellExec, kernel.RuleScript, "runs a script file")
	case command.DD:
		dd(x)
	case command.Disk, command.Mkfs:
		x.Add(risk.Critical, kernel.ShellExec, kernel.RuleFilesystem, n+" creates a file system or rewrites a partition table: irreversible")
	case command.Rsync:
		rsync(x)
	case command.Scp:
		scp(x)
	case command.SSH:
		ssh(x)
	case command.RawNet:
		rawNet(x, row)
	case command.Tar:
		tar(x)
	case command.Unpack:
		unpack(x)
	case command.Compress:
		compress(x)
	case command.Pack:
		pack(x)
	case command.Find:
		findCmd(x)
	case command.Printenv:
		printenv(x)
	case command.Declare:
		if len(x.Args) == 0 || declPrints(x) {
			printenv(x)
		} else {
			readOnly(x, row)
		}
	case command.Awk:
		x.Add(risk.Medium, kernel.ShellExec, kernel.RuleScript, "awk runs a program from a file")
	case command.Mktemp:
		x.Add(risk.Low, kernel.ShellExec, kernel.RuleAllowList, "creates a temporary file")
	case command.Reads:
		readOnly(x, row)
	case command.Go:
		goCmd(x)
	case command.NodePkg:
		nodePkg(x)
	case command.PkgTool:
		pkgTool(x)
	case command.Interpreter:
		interpreterScript(x)
	case command.Shell:
		script(x)
	case command.TestRunner:
		x.Add(risk.Low, kernel.TestRun, kernel.RuleTestRunner, n+" runs tests")
	case command.Make:
		makeCmd(x)
	case command.Database:
		db(x)
	case command.Container:
		if !containers.Container(x) {
			cloud(x)
		}
	case command.Cloud:
		cloud(x)
	case command.Patch:
		x.Add(risk.Critical, kernel.ShellExec, kernel.RuleSelfProtectionUnknownTarget, n+" writes the files its input names, which cannot be known statically and could be protected: use Edit/Write")
	default:
		listed(x, row)
	}
	if !row.Judge.OwnsWrites() && !row.Has(command.AllowList) && row.Judge != command.Mkfs {
		protectedOperand(x) // (mkfs.* is critical whatever it is given)
	}
}

// gh: deleting a repository or a remote branch through the API is irreversible for everyone.
func gh(x *kernel.Command, row command.Row) {
	all := strings.ToLower(git.JoinWords(x.Args))
	if len(x.Args) > 1 && x.Args[0].Value == "repo" && x.Args[1].Value == "delete" ||
		len(x.Args) > 0 && x.Args[0].Value == "api" && strings.Contains(all, "delete") && (strings.Contains(all, "refs") || strings.Contains(all, "repos/") && !strings.Contains(all, "/comments")) {
		x.Add(risk.Critical, kernel.GitRemote, kernel.RuleForcePush, "gh "+all+" deletes a repository or a remote branch: irreversible for everyone")
		return
	}
	x.Add(risk.High, kernel.ShellExec, kernel.RuleDenyList, "gh: "+row.Reason)
}

// ReadOnly reports whether one simple command (argv, its name first) changes nothing by itself
// and runs no other program; see command.ReadOnly, derived from the table the rules read.
func ReadOnly(argv []string) bool { return command.ReadOnly(argv) }

// carried: a program we know nothing about may run the command line it is given (a wrapper
// we do not model, a job runner, a script that execs "$@"). Its arguments are judged as a
// command line; only a critical verdict is taken over.
func carried(x *kernel.Command) {
	if x.Call.Depth >= shell.MaxDepth {
		return
	}
	for _, prog := range kernel.CarriedArgs(x.Args) {
		if why := shellCritical(x, prog); why != "" {
			x.Add(risk.Critical, kernel.ShellExec, kernel.RuleCarriedCommand, x.Name+" is given the command line "+kernel.QuoteRaw(prog)+", which it may run: "+why)
			return
		}
	}
}

// sendsCredential: copying a credential to another machine is exfiltration, critical.
func sendsCredential(x *kernel.Command, srcs []shell.Word, dest shell.Word) {
	for _, s := range srcs {
		v := s.Value
		if v == "~" || strings.HasPrefix(v, "~/") {
			v = x.Env.Home + v[1:]
		}
		if why := kernel.Credential(v); why != "" || s.Known && (path.Clean(v) == x.Env.Home || strings.HasSuffix(path.Clean(v), "/.ssh") || strings.HasSuffix(path.Clean(v), "/.aws")) {
			x.Add(risk.Critical, kernel.ShellExec, kernel.RuleCredentialExfiltration, x.Name+" sends "+s.Value+" ("+why+") to "+dest.Value+": secrets leave the machine")
			return
		}
	}
}

// scp and sftp: sending files to another machine is external communication (critical, like
// curl); fetching from one is high; a local destination is a write.
func scp(x *kernel.Command) {
	p := x.Prog().Spec.Parse(x.Args)
	if x.Name == "sftp" {
		x.Add(risk.High, kernel.ShellExec, kernel.RuleDenyList, "sftp: a remote connection")
		return
	}
	if len(p.Operands) < 2 {
		x.Add(risk.High, kernel.ShellExec, kernel.RuleDenyList, "scp: a remote copy")
		return
	}
	dest := p.Operands[len(p.Operands)-1]
	srcs := p.Operands[:len(p.Operands)-1]
	dh := kernel.RemoteHost(dest.Value)
	if !dest.Known || dh != "" && !kernel.LocalHost(dh) {
		sendsCredential(x, srcs, dest)
		x.Add(risk.High, kernel.ShellExec, kernel.RuleDenyList, "scp sends files to "+dest.Value+": a remote connection")
		return
	}
	if dh == "" {
		x.Write(dest, true, kernel.ShellExec)
		local := true
		for _, s := range srcs {
			local = local && s.Known && kernel.RemoteHost(s.Value) == ""
		}
		if local { // planted.go: scp x .git/hooks/pre-commit copies as cp does
			runfiles.PlantCopies(x, srcs, dest, len(srcs) > 1 || strings.HasSuffix(dest.Value, "/"), false)
		}
		for _, s := range srcs {
			if s.Known && !s.Glob && kernel.RemoteHost(s.Value) == "" {
				x.Write(shell.Word{Value: strings.TrimSuffix(dest.Value, "/") + "/" + path.Base(s.Value), Known: true}, true, kernel.ShellExec)
			} else {
				x.Write(shell.Word{Value: strings.TrimSuffix(dest.Value, "/") + "/*", Known: dest.Known, Glob: true}, true, kernel.ShellExec)
			}
		}
	}
	x.Add(risk.High, kernel.ShellExec, kernel.RuleDenyList, "scp: a remote copy")
}

// ssh: its remote command was analysed as a program of its own (package shell). Feeding it
// local data (a pipe, < file, a heredoc) to a host that is not local sends that data away.
func ssh(x *kernel.Command) {
	host := ""
	p := x.Prog().Spec.Parse(x.Args)
	if len(p.Operands) > 0 {
		host = p.Operands[0].Value
		if j := strings.LastIndexByte(host, '@'); j >= 0 {
			host = host[j+1:]
		}
		host = strings.TrimPrefix(host, "ssh://")
	}
	x.Add(risk.High, kernel.ShellExec, kernel.RuleDenyList, "ssh: a remote connection")
}

// rawNet: nc, socat, telnet, openssl s_client … to a host that is not local are external
// communication, critical like curl; to a local one, or listening, high (deny list).
func rawNet(x *kernel.Command, row command.Row) {
	n := x.Name
	var hosts []shell.Word
	switch n {
	case "socat":
		for _, a := range x.Args {
			if strings.HasPrefix(a.Value, "-") && a.Value != "-" {
				continue
			}
			u := strings.ToUpper(a.Value)
			for _, k := range []string{"TCP", "UDP", "SSL", "OPENSSL", "SCTP", "DCCP", "SOCKS", "PROXY", "IP"} {
				if strings.HasPrefix(u, k) && !strings.Contains(u, "LISTEN") && !strings.Contains(u, "-L") {
					parts := strings.Split(a.Value, ":")
					if len(parts) > 1 {
						hosts = append(hosts, shell.Word{Value: parts[1], Known: a.Known})
					}
					break
				}
			}
			if !a.Known {
				hosts = append(hosts, a)
			}
		}
	case "openssl":
		for i, a := range x.Args {
			if (a.Value == "-connect" || a.Value == "-host" || a.Value == "-proxy") && i+1 < len(x.Args) {
				h := x.Args[i+1]
				v := h.Value
				if k := strings.LastIndexByte(v, ':'); k > 0 && !strings.HasSuffix(v, "]") {
					v = v[:k]
				}
				hosts = append(hosts, shell.Word{Value: v, Known: h.Known})
			}
		}
		if len(x.Args) > 0 && x.Args[0].Value == "s_client" && len(hosts) == 0 {
			hosts = append(hosts, shell.Word{Value: "localhost", Known: true}) // s_client's default
		}
	default:
		p := command.Parse(x.Args, "psqwixXeIOPTVcob", "proxy", "source", "exec", "sh-exec", "lua-exec", "wait", "idle-timeout")
		if p.Has('l', "listen") {
			break
		}
		if len(p.Operands) > 0 {
			h := p.Operands[0]
			v := h.Value
			if u, err := url.Parse(v); err == nil && u.Host != "" {
				v = u.Hostname()
			}
			if j := strings.LastIndexByte(v, '@'); j >= 0 {
				v = v[j+1:]
			}
			hosts = append(hosts, shell.Word{Value: v, Known: h.Known})
		}
	}
	for _, h := range hosts {
		if !h.Known || !kernel.LocalHost(h.Value) {
			x.Add(risk.Critical, kernel.ShellExec, kernel.RuleNetworkExternal, n+" to "+h.Value+": raw external communication, blocked at any trust")
			return
		}
	}
	if n == "openssl" && len(hosts) == 0 {
		x.Add(risk.Medium, kernel.ShellExec, kernel.RuleGrayArea, "openssl without a connection")
		return
	}
	x.Add(risk.High, kernel.ShellExec, kernel.RuleDenyList, n+": "+row.Reason)
}

// protectedOperand: a program not known to only read, given a protected path, may write it,
// lock it (flock … sleep holds the trust file's lock and every record fails) or hand it on.
func protectedOperand(x *kernel.Command) {
	var first []string // what is protected inside the command's one directory (within)
	asked, clear := false, false
	for _, a := range x.Args {
		v := a.Value
		if i := strings.IndexByte(v, '='); i > 0 && strings.HasPrefix(v, "-") {
			v = v[i+1:]
		}
		if !a.Known || strings.HasPrefix(v, "-") || v == "" {
			continue
		}
		if name, ok := kernel.FirstInside(v); ok && !a.Glob {
			if !asked {
				asked = true
				if dir, ok := kernel.OperandDir(x.Cmd.Dir); ok {
					first, clear = x.Call.Budget().Within(&x.Env.Prot, dir)
				}
			}
			if clear && !kernel.ProtectedName(name, first) {
				continue
			}
		}
		for _, t := range kernel.Resolve(shell.Word{Value: v, Known: true, Glob: a.Glob}, x.Cmd.Dir, false) {
			if hit := x.Env.Prot.Hit(t); hit != "" {
				x.Add(risk.Critical, kernel.ShellExec, kernel.RuleSelfProtection, x.Name+" is given "+t.Path+" ("+hit+"): a program that is not known to only read may change or lock it")
				return
			}
		}
	}
}

// readOps records operands as files read, for the allow-list commands that take files.
func readOps(x *kernel.Command, ops []shell.Word) {
	for _, o := range ops {
		if o.Known && !strings.Contains(o.Value, "://") {
			x.Read(o)
		}
	}
}

// readOnly judges a command of the allow list (readOnlySpecs): low unless one of its options
// makes it write a file (judged as a write), run a program (high, and the program analysed) or
// change something else (medium). It stays low exactly when ReadOnly says so, shell builtins
// aside.
func readOnly(x *kernel.Command, row command.Row) {
	n := x.Name
	sp := row.Spec
	argv := make([]string, len(x.Cmd.Args))
	for i, a := range x.Cmd.Args {
		argv[i] = a.Value
	}
	p := command.Parse(x.Args, sp.Short, sp.Long...)
	changed := false
	optName := command.OptName
	for _, o := range sp.Writes {
		if w, ok := p.Value(o); ok {
			x.Write(w, false, kernel.ShellExec)
			x.Add(risk.Medium, kernel.ShellExec, kernel.RuleFileChange, n+" "+optName(o)+" writes a file")
			changed = true
		} else if len(o) == 1 && p.Short[o[0]] || len(o) > 1 && p.Long[o] {
			x.Write(shell.Word{Value: n + " " + optName(o) + " without a file"}, false, kernel.ShellExec)
			changed = true
		}
	}
	for _, o := range sp.Runs {
		if w, ok := p.Value(o); ok {
			x.Add(risk.High, kernel.ShellExec, kernel.RuleRunsProgram, n+" "+optName(o)+" runs a program")
			if w.Known {
				x.Env.Nested(x, w.Value, n+" "+optName(o))
			} else {
				x.Add(risk.Critical, kernel.ShellExec, kernel.RuleDynamicProgram, n+" "+optName(o)+" runs a program that cannot be known statically")
			}
			changed = true
		}
	}
	if sp.Operand > 0 && len(p.Operands) >= sp.Operand {
		x.Write(p.Operands[sp.Operand-1], false, kernel.ShellExec)
		x.Add(risk.Medium, kernel.ShellExec, kernel.RuleFileChange, n+" writes its operand "+p.Operands[sp.Operand-1].Value)
		changed = true
	}
	if n == "history" && (p.Has('w') || p.Has('a')) {
		for _, o := range p.Operands {
			x.Write(o, false, kernel.ShellExec)
		}
		x.Add(risk.Medium, kernel.ShellExec, kernel.RuleFileChange, "history -w/-a writes the history file")
		changed = true
	}
	if n == "tree" && p.Has('R') {
		ops := p.Operands
		if len(ops) == 0 {
			ops = []shell.Word{{Value: ".", Known: true}}
		}
		for _, o := range ops {
			x.Write(shell.Word{Value: strings.TrimSuffix(o.Value, "/") + "/**", Known: o.Known, Glob: true}, true, kernel.ShellExec)
		}
		x.Add(risk.Medium, kernel.ShellExec, kernel.RuleFileChange, "tree -R writes 00Tree.html into every directory")
		changed = true
	}
	if changed {
		return
	}
	if !sp.Shell && !command.ReadOnly(argv) {
		why := sp.Hazard(n, argv[1:])
		if strings.HasPrefix(why, "+") {
			x.Add(risk.High, kernel.ShellExec, kernel.RuleRunsProgram, n+" "+why)
			return
		}
		x.Add(risk.Medium, kernel.ShellExec, kernel.RuleGrayArea, n+" with "+why+" changes something")
		return
	}
	switch n {
	case "grep", "egrep", "fgrep", "rg", "ag", "ack", "zgrep":
		ops := p.Operands
		if _, ok := p.Value("e", "regexp", "f", "file"); !ok && len(ops) > 0 {
			ops = ops[1:] // the pattern
		}
		readOps(x, ops)
		if p.Has('r', "recursive") || p.Has('R', "dereference-recursive") || n == "rg" || n == "ag" || n == "ack" {
			if len(ops) == 0 && !x.Cmd.Stdin {
				ops = []shell.Word{{Value: ".", Known: true}} // cd ~/.ssh && grep -r foo: where it runs
			}
			for _, o := range ops {
				x.ReadTree(o) // grep -r . ~/.ssh
			}
		}
	case "cat", "head", "tail", "less", "more", "wc", "file", "stat", "nl", "tac", "od", "hexdump", "diff", "cmp", "comm", "md5sum", "sha1sum", "sha256sum", "sha512sum", "cksum", "strings", "zcat", "bat", "sort", "uniq", "xxd":
		readOps(x, p.Operands)
	}
	x.ReadNamesFrom() // find ~/.ssh | xargs cat
	x.Add(risk.Low, kernel.FileRead, kernel.RuleAllowList, n+" only reads")
}

// declPrints reports declare, export or typeset printing variables (-p, no assignment):
// export -p is env, declare -p NAME is printenv NAME.
func declPrints(x *kernel.Command) bool {
	if x.Name == "set" {
		return false
	}
	prints := false
	for _, a := range x.Args {
		if !a.Known || strings.Contains(a.Value, "=") {
			return false
		}
		if strings.HasPrefix(a.Value, "-") || strings.HasPrefix(a.Value, "+") {
			if strings.ContainsAny(a.Value, "fF") {
				return false
			}
			prints = prints || strings.ContainsRune(a.Value, 'p')
		}
	}
	return prints
}

func printenv(x *kernel.Command) {
	p := command.Parse(x.Args, "u", "unset")
	if len(p.Operands) == 0 {
		x.Add(risk.High, kernel.ShellExec, kernel.RuleEnvironmentDump, x.Name+" prints every environment variable, secrets included")
		return
	}
	for _, o := range p.Operands {
		if !o.Known || kernel.SecretName(o.Value) {
			x.Add(risk.Critical, kernel.ShellExec, kernel.RuleSecretVariable, x.Name+" prints "+o.Value+", named like a secret")
			return
		}
	}
	x.Add(risk.Low, kernel.FileRead, kernel.RuleAllowList, "prints named variables")
}

func rm(x *kernel.Command) {
	p := command.Parse(x.Args, "")
	recursive := p.Has('r', "recursive") || p.Has('R')
	for _, o := range p.Operands {
		if recursive || x.Name == "shred" {
			x.Destroy(o, "recursive deletion")
		}
		x.Write(o, recursive, kernel.ShellExec)
		x.Lose(o, recursive, "deletes")
		if !o.Known && recursive {
			x.Add(risk.Critical, kernel.ShellExec, kernel.RuleCatastrophe, "recursive deletion of "+kernel.QuoteRaw(o.Value)+", which cannot be known statically (it could be / or ~)")
		}
	}
	if x.Cmd.StdinArgs {
		x.Write(shell.Word{Value: "(names read from stdin)"}, recursive, kernel.ShellExec)
	}
	if x.Cmd.StdinArgs && recursive {
		x.Add(risk.Critical, kernel.ShellExec, kernel.RuleCatastrophe, "recursive deletion of names read from stdin")
	}
	x.Add(risk.High, kernel.FileWrite, kernel.RuleDenyList, x.Name+" deletes files")
}

func chmod(x *kernel.Command) {
	p := command.Parse(x.Args, "", "reference")
	recursive := p.Has('R', "recursive")
	ops := p.Operands
	if _, ok := p.Value("reference"); !ok && len(ops) > 0 && x.Name != "chattr" {
		ops = ops[1:] // the mode or owner
	}
	for _, o := range ops {
		if recursive {
			x.Destroy(o, "recursive permission change")
			if !o.Known {
				x.Add(risk.Critical, kernel.ShellExec, kernel.RuleCatastrophe, "recursive permission change of "+kernel.QuoteRaw(o.Value)+", which cannot be known statically")
			}
		}
		x.Write(o, recursive, kernel.ShellExec)
	}
	x.Add(risk.High, kernel.FileWrite, kernel.RuleDenyList, x.Name+" changes permissions or ownership")
}

// copyDest is the destination of cp, install, mv or ln as written (-t DIR, or the last of
// two operands or more): a name written, not read.
func copyDest(x *kernel.Command) (string, bool) {
	switch x.Prog().Judge {
	case command.Copy, command.Move, command.Link:
	default:
		return "", false
	}
	p := command.Parse(x.Args, "tSm", "target-directory", "suffix", "mode", "owner", "group")
	if d, ok := p.Value("t", "target-directory"); ok {
		return d.Value, d.Known
	}
	if len(p.Operands) < 2 {
		return "", false
	}
	d := p.Operands[len(p.Operands)-1]
	return d.Value, d.Known
}

// copyOrMove judges mv (move: the sources are removed too) and cp/install.
func copyOrMove(x *kernel.Command, move bool) {
	p := command.Parse(x.Args, "tSm", "target-directory", "suffix", "mode", "owner", "group")
	ops := p.Operands
	dest, hasT := p.Value("t", "target-directory")
	if !hasT {
		if len(ops) < 2 {
			if len(ops) == 1 && !x.Cmd.StdinArgs {
				x.Write(ops[0], move, kernel.ShellExec)
			}
			x.Add(risk.Medium, kernel.FileWrite, kernel.RuleFileChange, x.Name+" with fewer than two operands")
			if x.Cmd.StdinArgs {
				x.Write(shell.Word{Value: "(names read from stdin)"}, true, kernel.ShellExec)
			}
			return
		}
		dest, ops = ops[len(ops)-1], ops[:len(ops)-1]
	}
	tree := move || p.Has('r', "recursive") || p.Has('R') || p.Has('a', "archive")
	x.Write(dest, tree, kernel.ShellExec)
	x.Lose(dest, false, "overwrites") // a directory there is written into, not over (losses.go)
	// planted.go: a copy into a file a tool runs is judged by the source's text.
	runfiles.PlantCopies(x, ops, dest, hasT, false)
	for _, s := range ops {
		if b := path.Base(s.Value); s.Known && !move && (command.Has(b, command.Harness) || self.HookPath(x, s) != "") {
			x.Add(risk.Critical, kernel.ShellExec, kernel.RuleSelfProtection, x.Name+" copies the harness's program "+s.Value+": run under another name it would escape the rule on the harness's tools")
		}
	}
	if !move && x.Name == "cp" && (p.Has('s', "symbolic-link") || p.Has('l', "link")) {
		links(x, ops) // cp -s/-l (-as, -al): links, not copies, like ln
		if p.Has('l', "link") {
			hardLinks(x, ops)
		}
	}
	for _, s := range ops {
		if move {
			x.Write(s, true, kernel.ShellExec)
			x.Destroy(s, "moving away")
			git.MoveInto(x, s, dest)
		} else {
			x.Read(s)
			if tree {
				x.ReadTree(s) // cp -r ~/.ssh /tmp/k
			}
		}
		// cp a b/ writes b/a: the destination may be a directory.
		if s.Known && dest.Known && !s.Glob {
			x.Write(shell.Word{Value: strings.TrimSuffix(dest.Value, "/") + "/" + path.Base(s.Value), Known: true, Glob: dest.Glob}, tree, kernel.ShellExec)
			x.Lose(shell.Word{Value: strings.TrimSuffix(dest.Value, "/") + "/" + path.Base(s.Value), Known: true, Glob: dest.Glob}, tree, "overwrites")
		} else if !s.Known || s.Glob {
			x.Write(shell.Word{Value: strings.TrimSuffix(dest.Value, "/") + "/*", Known: dest.Known, Glob: true}, tree, kernel.ShellExec)
		}
	}
	if x.Cmd.StdinArgs {
		x.Write(shell.Word{Value: "(names read from stdin)"}, true, kernel.ShellExec)
	}
	x.Add(risk.Medium, kernel.FileWrite, kernel.RuleFileChange, x.Name+" changes files")
}

func ln(x *kernel.Command) {
	p := command.Parse(x.Args, "tS", "target-directory", "suffix")
	ops := p.Operands
	var dir shell.Word // where the links go when it is a directory
	hasDir := false
	if dest, ok := p.Value("t", "target-directory"); ok {
		dir, hasDir = dest, true
	} else if len(ops) >= 2 {
		dest := ops[len(ops)-1]
		ops = ops[:len(ops)-1]
		x.Write(dest, false, kernel.ShellExec)
		if p.Has('f', "force") {
			x.Lose(dest, false, "replaces with a link")
		}
		dir, hasDir = dest, !p.Has('T', "no-target-directory") // ln a b: b may be a directory
	} else {
		for _, o := range ops {
			if o.Known {
				x.Write(shell.Word{Value: path.Base(o.Value), Known: true}, false, kernel.ShellExec)
			}
		}
	}
	if hasDir || len(ops) > 0 && p.Has('T', "no-target-directory") { // planted.go: a link where a tool runs code
		runfiles.PlantCopies(x, ops, dir, p.Has('t', "target-directory"), p.Has('s', "symbolic") && !p.Has('r', "relative"))
	}
	// ln SRC DIR (and -t DIR) creates DIR/basename(SRC): that is the name written.
	for _, s := range ops {
		if !hasDir {
			break
		}
		w := shell.Word{Value: strings.TrimSuffix(dir.Value, "/") + "/" + path.Base(s.Value), Known: dir.Known && s.Known, Glob: dir.Glob || s.Glob}
		x.Write(w, false, kernel.ShellExec)
		if p.Has('f', "force") {
			x.Lose(w, false, "replaces with a link")
		}
	}
	links(x, ops)
	if x.Name == "link" || !p.Has('s', "symbolic") {
		hardLinks(x, ops)
	}
	x.Add(risk.Medium, kernel.FileWrite, kernel.RuleFileChange, "ln creates links")
}

// hardLinks: a hard link is the same file under a second name, so a later write of the link
// writes its source, and nothing at the link's path shows it. The source is judged as written
// now (self-protection, the Core Contract's protected files, oath-gate's writes).
func hardLinks(x *kernel.Command, ops []shell.Word) {
	for _, s := range ops {
		x.Write(s, false, kernel.ShellExec)
	}
}

// links judges link sources: a link to a protected file, or to a directory above one, is a
// way to write it later under another name.
func links(x *kernel.Command, ops []shell.Word) {
	for _, s := range ops {
		for _, t := range kernel.Resolve(s, x.Cmd.Dir, false) {
			if !t.Known {
				x.Add(risk.Critical, kernel.ShellExec, kernel.RuleSelfProtectionUnknownTarget, "links to "+kernel.QuoteRaw(t.Raw)+", which cannot be known statically")
			} else if t.Tree = true; x.Env.Prot.Hit(t) != "" {
				hit := x.Env.Prot.Hit(t)
				x.Add(risk.Critical, kernel.ShellExec, kernel.RuleSelfProtection, "links to "+t.Path+" ("+hit+"): a later write through the link would change it")
			}
		}
	}
}

func sed(x *kernel.Command) {
	p := command.Parse(x.Args, "efl", "expression", "file", "line-length")
	inPlace := p.Has('i', "in-place")
	for _, a := range x.Args {
		if a.Known && strings.HasPrefix(a.Value, "-") && !strings.HasPrefix(a.Value, "--") && strings.ContainsRune(a.Value, 'i') {
			inPlace = true
		}
	}
	// Every -e/--expression counts, not only the last one.
	var scripts []shell.Word
	for i := 0; i < len(x.Args); i++ {
		v := x.Args[i].Value
		switch {
		case (v == "-e" || v == "--expression") && i+1 < len(x.Args):
			scripts = append(scripts, x.Args[i+1])
			i++
		case strings.HasPrefix(v, "--expression="):
			scripts = append(scripts, shell.Word{Value: strings.TrimPrefix(v, "--expression="), Known: x.Args[i].Known})
		case strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && len(v) > 2 && strings.HasSuffix(v, "e") && i+1 < len(x.Args):
			scripts = append(scripts, x.Args[i+1]) // -ne 'script'
			i++
		}
	}
	ops := p.Operands
	if _, hasF := p.Value("f", "file"); len(scripts) == 0 && !hasF && len(ops) > 0 {
		scripts, ops = ops[:1], ops[1:]
	}
	if f, ok := p.Value("f", "file"); ok {
		// sed -f FILE: the script on disk, read as -e's is (bounded, as a runner's file).
		if text, ok := scriptFile(x, f); ok {
			scripts = append(scripts, shell.Word{Value: text, Known: true})
		} else {
			scripts = append(scripts, shell.Word{Value: f.Value})
		}
	}
	for _, sc := range scripts {
		if !sc.Known {
			x.Add(risk.High, kernel.ShellExec, kernel.RuleSedExec, "a sed script that cannot be known statically or read may run commands or write files")
			continue
		}
		sedScript(x, sc.Value)
	}
	if !inPlace {
		readOps(x, ops)
		x.Add(risk.Low, kernel.FileRead, kernel.RuleAllowList, "sed without -i only prints")
		return
	}
	for _, o := range ops {
		x.Write(o, false, kernel.ShellExec)
	}
	if x.Cmd.StdinArgs {
		x.Write(shell.Word{Value: "(names read from stdin)"}, false, kernel.ShellExec)
	}
	x.Add(risk.Medium, kernel.ShellExec, kernel.RuleFileChange, "sed -i edits files in place")
}

// sedScript judges GNU sed's e command and s///e flag (run commands), and the w/W command and
// s///w flag (write a file), after any address. A false alarm costs a question; a miss could
// run anything.
func sedScript(x *kernel.Command, script string) {
	for _, line := range strings.Split(script, "\n") {
		for _, cmd := range strings.Split(line, ";") {
			c := sedStripAddr(strings.TrimLeft(cmd, " \t{}"))
			if c == "" {
				continue
			}
			switch c[0] {
			case 'e':
				x.Add(risk.High, kernel.ShellExec, kernel.RuleSedExec, "the sed script runs commands (e)")
				if prog := strings.TrimSpace(c[1:]); prog != "" {
					x.Env.Nested(x, prog, "sed e")
				}
			case 'w', 'W':
				x.Add(risk.Medium, kernel.ShellExec, kernel.RuleFileChange, "the sed script writes a file (w)")
				x.Write(shell.Word{Value: strings.TrimSpace(c[1:]), Known: true}, false, kernel.ShellExec)
			case 's':
				if len(c) < 2 {
					continue
				}
				d := c[1]
				n, k, mid := 0, 2, 0
				for ; k < len(c) && n < 2; k++ {
					if c[k] == '\\' {
						k++
						continue
					}
					if c[k] == d {
						n++
						if n == 1 {
							mid = k
						}
					}
				}
				flags := c[min(k, len(c)):] // s/a\ : the escape at the end steps past it
				if i := strings.IndexByte(flags, 'w'); i >= 0 {
					x.Add(risk.Medium, kernel.ShellExec, kernel.RuleFileChange, "the sed s command writes a file (w)")
					x.Write(shell.Word{Value: strings.TrimSpace(flags[i+1:]), Known: true}, false, kernel.ShellExec)
					flags = flags[:i]
				}
				if strings.ContainsRune(flags, 'e') {
					x.Add(risk.High, kernel.ShellExec, kernel.RuleSedExec, "the sed s command runs its result as a command (e)")
					// s/.*/rm -rf ~/e runs its replacement: judged as the command it may be.
					if rep := strings.ReplaceAll(c[mid+1:max(mid+1, k-1)], "\\"+string(d), string(d)); mid > 0 && strings.TrimSpace(rep) != "" {
						x.Env.Nested(x, rep, "sed s///e")
					}
				}
			}
		}
	}
}

// sedStripAddr removes a leading address (1, $, /re/, 1,5, 0~2, addr!) from a sed command.
func sedStripAddr(c string) string {
	for part := 0; part < 2; part++ {
		c = strings.TrimLeft(c, " \t")
		switch {
		case c == "":
			return ""
		case c[0] == '/' || c[0] == '\\' && len(c) > 1:
			d, k := c[0], 1
			if d == '\\' {
				d, k = c[1], 2
			}
			for ; k < len(c); k++ {
				if c[k] == '\\' {
					k++
					continue
				}
				if c[k] == d {
					k++
					break
				}
			}
			if k > len(c) {
				k = len(c)
			}
			c = strings.TrimLeft(c[k:], "IM")
		default:
			c = strings.TrimLeft(c, "0123456789$~+")
		}
		c = strings.TrimLeft(c, " \t")
		if !strings.HasPrefix(c, ",") {
			break
		}
		c = c[1:]
	}
	return strings.TrimLeft(c, " \t!{")
}

func dd(x *kernel.Command) {
	var in, out *shell.Word
	defer func() {
		if in != nil && out != nil { // planted.go: dd if=x of=.git/hooks/pre-commit
			runfiles.PlantCopies(x, []shell.Word{*in}, *out, false, false)
		}
	}()
	for i, a := range x.Args {
		if !a.Known {
			x.Add(risk.Critical, kernel.ShellExec, kernel.RuleSelfProtectionUnknownTarget, "dd with an operand that cannot be known statically")
			continue
		}
		if v, ok := strings.CutPrefix(a.Value, "of="); ok {
			out = &shell.Word{Value: v, Known: true}
			x.Write(shell.Word{Value: v, Known: true}, false, kernel.ShellExec)
			x.Lose(shell.Word{Value: v, Known: true}, false, "overwrites")
		}
		if v, ok := strings.CutPrefix(a.Value, "if="); ok {
			in = &shell.Word{Value: v, Known: true, Glob: x.Args[i].Glob}
			x.Read(shell.Word{Value: v, Known: true})
		}
	}
	x.Add(risk.High, kernel.ShellExec, kernel.RuleDenyList, "dd copies raw data")
}

func rsync(x *kernel.Command) {
	p := command.Parse(x.Args, "ef", "rsh", "filter", "exclude", "include", "rsync-path")
	if len(p.Operands) < 2 {
		x.Add(risk.High, kernel.ShellExec, kernel.RuleDenyList, "rsync")
		return
	}
	dest := p.Operands[len(p.Operands)-1]
	remote := false
	for _, o := range p.Operands {
		if !o.Known || strings.Contains(o.Value, ":") {
			remote = true
		}
	}
	if !strings.Contains(dest.Value, ":") {
		x.Write(dest, true, kernel.ShellExec)
		if !remote { // planted.go: rsync x .git/hooks/pre-commit, rsync -a hooks/ .husky/
			srcs := p.Operands[:len(p.Operands)-1]
			runfiles.PlantCopies(x, srcs, dest, len(srcs) > 1 || strings.HasSuffix(dest.Value, "/"), false)
		}
	}
	if p.Has(0, "delete", "delete-before", "delete-after", "delete-during", "delete-excluded", "remove-source-files") {
		x.Destroy(dest, "rsync --delete")
		x.Lose(dest, true, "deletes files in")
		x.Add(risk.High, kernel.ShellExec, kernel.RuleDenyList, "rsync deletes files")
	}
	if h := kernel.RemoteHost(dest.Value); !dest.Known || h != "" && !kernel.LocalHost(h) {
		sendsCredential(x, p.Operands[:len(p.Operands)-1], dest)
	}
	if remote {
		x.Add(risk.High, kernel.ShellExec, kernel.RuleDenyList, "rsync to or from another machine")
		return
	}
	x.Add(risk.Medium, kernel.ShellExec, kernel.RuleFileChange, "rsync copies files")
}

func tar(x *kernel.Command) {
	p := command.Parse(x.Args, "fCTXbHIK", "file", "directory", "files-from", "exclude-from", "to-command", "use-compress-program", "checkpoint-action", "rsh-command", "info-script", "new-volume-script")
	mode := ""
	if len(x.Args) > 0 && x.Args[0].Known && !strings.HasPrefix(x.Args[0].Value, "-") {
		mode = x.Args[0].Value // tar xzf a.tgz
		if strings.ContainsRune(mode, 'f') && len(p.Operands) > 1 {
			p.SetVal("f", p.Operands[1])
		}
	}
	has := func(c byte, long string) bool { return p.Has(c, long) || strings.IndexByte(mode, c) >= 0 }
	for _, k := range []string{"to-command", "use-compress-program", "checkpoint-action", "rsh-command", "info-script", "new-volume-script"} {
		if p.Long[k] {
			x.Add(risk.High, kernel.ShellExec, kernel.RuleRunsProgram, "tar --"+k+" runs a program")
		}
	}
	switch {
	case has('x', "extract") || has('x', "get"):
		dir := shell.Word{Value: ".", Known: true}
		if d, ok := p.Value("C", "directory"); ok {
			dir = d
		}
		x.Write(dir, true, kernel.ShellExec)
		extractsInto(x, dir)
		x.Add(risk.Medium, kernel.ShellExec, kernel.RuleFileChange, "tar extracts files")
	case has('c', "create") || has('r', "append") || has('u', "update"):
		if f, ok := p.Value("f", "file"); ok && f.Value != "-" {
			x.Write(f, false, kernel.ShellExec)
		}
		// What it packs is read, directories whole: tar czf k.tgz ~/.ssh reads the keys.
		ops := p.Operands
		if mode != "" && len(ops) > 0 {
			ops = ops[1:] // the letters (tar czf …)
			if strings.ContainsRune(mode, 'f') && len(ops) > 0 {
				ops = ops[1:] // the archive
			}
		}
		for _, o := range ops {
			x.Read(o)
			x.ReadTree(o)
		}
		x.Add(risk.Medium, kernel.ShellExec, kernel.RuleFileChange, "tar writes an archive")
	default:
		x.Add(risk.Low, kernel.FileRead, kernel.RuleAllowList, "tar lists an archive")
	}
}

func unpack(x *kernel.Command) {
	p := command.Parse(x.Args, "dxo")
	if x.Name == "unzip" && (p.Has('l') || p.Has('t') || p.Has('Z') || p.Has('p')) {
		x.Add(risk.Low, kernel.FileRead, kernel.RuleAllowList, "unzip lists or tests")
		return
	}
	dir := shell.Word{Value: ".", Known: true}
	if d, ok := p.Value("d"); ok {
		dir = d
	}
	for _, a := range x.Args {
		if v, ok := strings.CutPrefix(a.Value, "-o"); ok && x.Name != "unzip" && v != "" {
			dir = shell.Word{Value: v, Known: a.Known}
		}
	}
	x.Write(dir, true, kernel.ShellExec)
	extractsInto(x, dir)
	x.Add(risk.Medium, kernel.ShellExec, kernel.RuleFileChange, x.Name+" extracts files")
}

// extractsInto judges an archive unpacked into dir: where tools run the files (a hooks
// directory, .husky, CI workflows, Claude Code agents), what it puts there is code the harness
// does not read (planted.go).
func extractsInto(x *kernel.Command, dir shell.Word) {
	for _, t := range kernel.Resolve(dir, x.Cmd.Dir, false) {
		if t.Known && !t.Glob && runfiles.IsPlantDir(t.Path) {
			x.Call.NotRead(x.Name + " unpacks an archive into " + t.Path + ", whose files run later: what it puts there is not read")
			return
		}
	}
}

// pack judges zip: the archive is written, what it packs is read (directories whole with -r):
// zip -r k.zip ~/.ssh reads the keys.
func pack(x *kernel.Command) {
	p := command.Parse(x.Args, "bnPtxiZOs")
	if len(p.Operands) == 0 {
		x.Add(risk.Medium, kernel.ShellExec, kernel.RuleFileChange, x.Name+" writes an archive")
		return
	}
	x.Write(p.Operands[0], false, kernel.ShellExec)
	for _, o := range p.Operands[1:] {
		x.Read(o)
		if p.Has('r', "recurse-paths") || p.Has('R', "recurse-patterns") {
			x.ReadTree(o)
		}
	}
	x.Add(risk.Medium, kernel.ShellExec, kernel.RuleFileChange, x.Name+" writes an archive")
}

func compress(x *kernel.Command) {
	p := command.Parse(x.Args, "S", "suffix")
	if p.Has('c', "stdout") || p.Has('l', "list") || p.Has('t', "test") {
		x.Add(risk.Low, kernel.FileRead, kernel.RuleAllowList, x.Name+" to stdout")
		return
	}
	for _, o := range p.Operands {
		x.Write(o, false, kernel.ShellExec)
	}
	x.Add(risk.Medium, kernel.ShellExec, kernel.RuleFileChange, x.Name+" replaces files")
}

func findCmd(x *kernel.Command) {
	var starts []shell.Word
	del := false
	for i, a := range x.Args {
		if !a.Known {
			starts = append(starts, a)
			continue
		}
		v := a.Value
		switch v {
		case "-delete":
			del = true
		case "-fprint", "-fprint0", "-fprintf", "-fls":
			x.Add(risk.Medium, kernel.ShellExec, kernel.RuleFileChange, "find "+v+" writes a file")
			if i+1 < len(x.Args) {
				x.Write(x.Args[i+1], false, kernel.ShellExec)
			} else {
				x.Write(shell.Word{Value: "find " + v + " without a file"}, false, kernel.ShellExec)
			}
		}
		if !strings.HasPrefix(v, "-") && v != "(" && v != "!" && len(starts) == len(x.Args) {
			starts = append(starts, a)
		}
	}
	starts = nil
	for _, a := range x.Args {
		if a.Known && (strings.HasPrefix(a.Value, "-") || a.Value == "(" || a.Value == "!") {
			break
		}
		starts = append(starts, a)
	}
	if len(starts) == 0 {
		starts = []shell.Word{{Value: ".", Known: true}}
	}
	if del {
		for _, s := range starts {
			w := shell.Word{Value: strings.TrimSuffix(s.Value, "/") + "/**", Known: s.Known, Glob: true}
			x.Write(w, true, kernel.ShellExec)
			x.Destroy(s, "find -delete")
			x.Lose(s, true, "deletes files in")
		}
		x.Add(risk.High, kernel.ShellExec, kernel.RuleDenyList, "find -delete deletes files")
		return
	}
	readOps(x, starts)
	x.Add(risk.Low, kernel.FileRead, kernel.RuleAllowList, "find only lists")
}

func goCmd(x *kernel.Command) {
	if len(x.Args) == 0 {
		x.Add(risk.Low, kernel.FileRead, kernel.RuleAllowList, "go prints its help")
		return
	}
	sub := x.Args[0].Value
	o, _, hasO := runfiles.GoFlag(x.Args[1:], "o") // Go's flags: -count=1 is one flag, not -c -o
	switch sub {
	case "test":
		if _, _, ok := runfiles.GoFlag(x.Args[1:], "exec", "toolexec"); ok {
			x.Add(risk.High, kernel.TestRun, kernel.RuleRunsProgram, "go test -exec/-toolexec runs another program")
			return
		}
		if hasO {
			x.Write(o, false, kernel.TestRun)
		}
		x.Add(risk.Low, kernel.TestRun, kernel.RuleTestRunner, "go test runs tests")
	case "vet", "version", "env", "list", "doc", "help":
		if _, _, w := runfiles.GoFlag(x.Args[1:], "w"); sub == "env" && (w || kernel.HasWord(x.Args[1:], "-w")) {
			x.Add(risk.Medium, kernel.ShellExec, kernel.RuleGrayArea, "go env -w changes the go configuration")
			return
		}
		x.Add(risk.Low, kernel.FileRead, kernel.RuleAllowList, "go "+sub+" only reads")
	default:
		if hasO {
			x.Write(o, false, kernel.ShellExec)
		}
		if sub == "run" {
			for _, a := range x.Args[1:] {
				if strings.HasPrefix(a.Value, "-") {
					continue
				}
				if first, _, _ := strings.Cut(a.Value, "/"); strings.Contains(a.Value, "@") && strings.Contains(first, ".") && !strings.HasSuffix(first, ".go") {
					// go run host/pkg@version: a module downloaded and run, as npx runs a package.
					x.Add(risk.High, kernel.ShellExec, kernel.RuleDenyList, "go run "+a.Value+" downloads a module and runs it")
					return
				}
				break
			}
		}
		x.Add(risk.Medium, kernel.ShellExec, kernel.RuleGrayArea, "go "+sub+" builds or runs code")
	}
}

func nodePkg(x *kernel.Command) {
	args := x.Args
	sub := ""
	if len(args) > 0 {
		sub = args[0].Value
	}
	n := x.Name
	if n == "deno" && (sub == "run" || sub == "install" || sub == "compile" || strings.HasPrefix(sub, "http")) || n == "bun" && (sub == "run" || strings.HasPrefix(sub, "http")) {
		// deno run https://…/x.ts: code fetched from the network and run, as curl … | sh.
		for _, a := range args {
			v := strings.ToLower(a.Value)
			if strings.HasPrefix(v, "http://") || strings.HasPrefix(v, "https://") {
				if !kernel.IsLocalURL(a.Value) {
					x.Add(risk.Critical, kernel.ShellExec, kernel.RuleNetworkExternal, n+" runs code fetched from "+outbound.HostOf(a.Value)+": as curl | sh, blocked at any trust")
					return
				}
				break
			}
			if strings.HasPrefix(v, "npm:") || strings.HasPrefix(v, "jsr:") {
				x.Add(risk.High, kernel.ShellExec, kernel.RuleDenyList, n+" "+sub+" "+a.Value+" downloads a package and runs it")
				return
			}
		}
	}
	switch {
	case sub == "test" || sub == "t" || (sub == "run" && len(args) > 1 && strings.HasPrefix(args[1].Value, "test")) || (n == "deno" || n == "bun") && sub == "test":
		x.Add(risk.Low, kernel.TestRun, kernel.RuleTestRunner, n+" "+sub+" runs tests")
	case sub == "publish" || sub == "unpublish" || sub == "deprecate" || sub == "dist-tag" || sub == "owner" || sub == "access":
		x.Add(risk.High, kernel.ShellExec, kernel.RuleRegistryPublish, n+" "+sub+" publishes or changes a package: irreversible")
	case sub == "install" || sub == "i" || sub == "ci" || sub == "add" || sub == "update" || sub == "upgrade" || sub == "uninstall" || sub == "remove" || sub == "rm" || sub == "link" || (n == "yarn" && sub == "") || sub == "exec" || sub == "dlx" || sub == "x":
		x.Add(risk.High, kernel.ShellExec, kernel.RuleDenyList, n+" "+sub+" installs packages, whose scripts run")
	case sub == "ls" || sub == "list" || sub == "view" || sub == "outdated" || sub == "--version" || sub == "-v" || sub == "why" || sub == "audit" && len(args) == 1:
		x.Add(risk.Low, kernel.FileRead, kernel.RuleAllowList, n+" "+sub+" only reads")
	case (sub == "create" || sub == "init" || sub == "innit") && initializer(args[1:]) != "":
		// npm init vite, yarn create vite, pnpm create vite: npx create-vite, a package
		// downloaded and run (npm init alone, or -y, only writes package.json).
		x.Add(risk.High, kernel.ShellExec, kernel.RuleDenyList, n+" "+sub+" downloads the package "+initializer(args[1:])+" and runs it")
	default:
		x.Add(risk.Medium, kernel.ShellExec, kernel.RuleGrayArea, n+" "+sub+" runs a script or a tool")
	}
}

// initializer is the package npm init, npm create, yarn create, pnpm create and bun create run
// for their first operand (npm-init(1)): foo is create-foo, @scope is @scope/create, @scope/foo
// is @scope/create-foo; "" when there is none. An operand that cannot be known is one.
func initializer(args []shell.Word) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.Value
		switch {
		case !a.Known:
			return "(a package that cannot be known statically)"
		case initValueOption(v):
			i++ // its value: npm init -w packages/a, --scope @org
			continue
		case v == "" || strings.HasPrefix(v, "-"): // options, and --
			continue
		case strings.HasPrefix(v, "@"):
			scope, name, ok := strings.Cut(v, "/")
			if !ok {
				return scope + "/create"
			}
			return scope + "/create-" + name
		}
		return "create-" + v
	}
	return ""
}

// initValueOption: an option of npm init, pnpm init, yarn create or bun create that takes the
// next word as its value (npm's workspace, scope, registry and init-* settings; pnpm's
// --init-type; bun create's --cwd), so that word is no package.
func initValueOption(v string) bool {
	if strings.Contains(v, "=") || !strings.HasPrefix(v, "-") {
		return false
	}
	switch v {
	case "-w", "--workspace", "--scope", "--registry", "--userconfig", "--cache", "--prefix",
		"-C", "--dir", "--cwd", "--filter", "-F", "--loglevel", "--reporter":
		return true
	}
	return strings.HasPrefix(v, "--init-") // --init-license MIT, --init-author-name NAME …
}

func pkgTool(x *kernel.Command) {
	n := x.Name
	var subs []string
	for _, a := range x.Args {
		if a.Known && !strings.HasPrefix(a.Value, "-") {
			subs = append(subs, a.Value)
		}
	}
	sub := ""
	if len(subs) > 0 {
		sub = subs[0]
	}
	if (n == "uv" || n == "poetry" || n == "pipenv") && sub == "pip" && len(subs) > 1 {
		sub = subs[1]
	}
	switch sub {
	case "test", "nextest", "check", "verify":
		if sub == "check" && n != "cargo" || sub == "verify" && n != "mvn" {
			break
		}
		x.Add(risk.Low, kernel.TestRun, kernel.RuleTestRunner, n+" "+sub+" runs tests")
		return
	case "publish", "upload", "push", "deploy", "yank", "release":
		x.Add(risk.High, kernel.ShellExec, kernel.RuleRegistryPublish, n+" "+sub+" publishes a package: irreversible")
		return
	case "install", "uninstall", "add", "remove", "update", "upgrade", "download", "sync", "lock":
		if n == "dotnet" && sub == "add" || n == "mvn" && sub == "install" || n == "gradle" {
			break
		}
		x.Add(risk.High, kernel.ShellExec, kernel.RuleDenyList, n+" "+sub+" installs packages (system change)")
		return
	case "list", "show", "freeze", "search", "tree", "--version", "version", "outdated", "metadata":
		x.Add(risk.Low, kernel.FileRead, kernel.RuleAllowList, n+" "+sub+" only reads")
		return
	}
	if n == "mvn" || n == "gradle" || n == "gradlew" || n == "dotnet" || n == "mix" || n == "swift" {
		for _, s := range subs {
			if s == "test" || s == "verify" {
				x.Add(risk.Low, kernel.TestRun, kernel.RuleTestRunner, n+" "+s+" runs tests")
				return
			}
			if s == "deploy" || s == "publish" {
				x.Add(risk.High, kernel.ShellExec, kernel.RuleRegistryPublish, n+" "+s+" publishes: irreversible")
				return
			}
		}
	}
	x.Add(risk.Medium, kernel.ShellExec, kernel.RuleGrayArea, n+" "+sub+" builds or runs code")
}

// interpreterScript: python x.py, python -m mod, node x.js.
func interpreterScript(x *kernel.Command) {
	for i, a := range x.Args {
		mod, rest, ok := runfiles.PythonModule(x.Name, x.Args, i) // -mMOD too
		if !ok && a.Value == "-m" && i+1 < len(x.Args) {
			mod, rest, ok = x.Args[i+1].Value, x.Args[i+2:], true
		}
		if ok {
			switch mod {
			case "pytest", "unittest", "nose2", "tox", "doctest":
				x.Add(risk.Low, kernel.TestRun, kernel.RuleTestRunner, "python -m "+mod+" runs tests")
			case "pip", "ensurepip":
				if len(rest) > 0 && (rest[0].Value == "install" || rest[0].Value == "uninstall" || rest[0].Value == "download") {
					x.Add(risk.High, kernel.ShellExec, kernel.RuleDenyList, "pip "+rest[0].Value+" installs packages (system change)")
					return
				}
				x.Add(risk.Medium, kernel.ShellExec, kernel.RuleGrayArea, "python -m pip")
			case "http.server", "SimpleHTTPServer", "smtpd":
				x.Add(risk.High, kernel.ShellExec, kernel.RuleDenyList, "python -m "+mod+" opens a network server")
			case "json.tool":
				x.Add(risk.Low, kernel.FileRead, kernel.RuleAllowList, "pretty-prints JSON")
			default:
				x.Add(risk.Medium, kernel.ShellExec, kernel.RuleGrayArea, "python -m "+mod+" runs a module")
			}
			return
		}
	}
	if len(x.Args) == 0 || x.Args[0].Value == "--version" || x.Args[0].Value == "-V" {
		x.Add(risk.Low, kernel.FileRead, kernel.RuleAllowList, x.Name+" prints its version")
		return
	}
	script(x)
}

func script(x *kernel.Command) {
	for _, a := range x.Args {
		if strings.HasPrefix(a.Value, "-") {
			continue
		}
		if !a.Known {
			x.Add(risk.Critical, kernel.ShellExec, kernel.RuleDynamicProgram, "the script to run cannot be known statically: it could be any program")
			return
		}
		if a.Value == "/dev/stdin" || strings.HasPrefix(a.Value, "/dev/fd/") || strings.HasPrefix(a.Value, "/proc/self/fd/") {
			x.Add(risk.Critical, kernel.ShellExec, kernel.RuleProgramFromStdin, x.Name+" runs a program from a pipe or a process substitution, which cannot be known statically")
			return
		}
		break
	}
	x.Add(risk.Medium, kernel.ShellExec, kernel.RuleScript, x.Name+" runs a script file")
}

func makeCmd(x *kernel.Command) {
	for _, a := range x.Args {
		if !a.Known || strings.HasPrefix(a.Value, "SHELL=") || strings.HasPrefix(a.Value, ".SHELLFLAGS=") {
			x.Add(risk.High, kernel.ShellExec, kernel.RuleRunsProgram, x.Name+" with a shell or argument that cannot be known statically")
			return
		}
	}
	for _, a := range x.Args {
		if a.Known && (a.Value == "test" || a.Value == "tests" || a.Value == "check" || a.Value == "test-unit") {
			x.Add(risk.Low, kernel.TestRun, kernel.RuleTestRunner, x.Name+" "+a.Value+" runs tests")
			return
		}
	}
	x.Add(risk.Medium, kernel.ShellExec, kernel.RuleGrayArea, x.Name+" builds")
}

// dbFileOptions are, per client, the options whose value is a file of statements it runs.
var dbFileOptions = map[string][]string{
	"psql":              {"-f", "--file"},
	"cqlsh":             {"-f", "--file"},
	"mongosh":           {"-f", "--file"},
	"mongo":             {"-f", "--file"},
	"clickhouse-client": {"--queries-file"},
	"duckdb":            {"-f", "-init"},
}

// db judges a database client by the statements it runs: its arguments, a file of statements
// (read, bounded), and its standard input (a here-document or echoed text is read; anything
// else piped or redirected cannot be, and counts as a statement that cannot be known). The
// shell escapes of the clients are judged as commands: psql's \! and COPY … PROGRAM, mysql's
// system and \!; mongosh's --eval is JavaScript, judged as inline code.
func db(x *kernel.Command) {
	if x.Name == "sqlite3" || x.Name == "sqlite" {
		sqlite.Sqlite(x) // sqlite.go
		return
	}
	var texts []string
	unknown := false
	files := dbFileOptions[x.Name]
	for i, a := range x.Args {
		if !a.Known {
			unknown = true
			continue
		}
		v := a.Value
		if i == 0 || !slices.Contains(files, x.Args[i-1].Value) {
			texts = append(texts, optionValue(v)) // (not the name of a file of statements)
		}
		if (x.Name == "mongosh" || x.Name == "mongo") && (v == "--eval" || v == "-e") && i+1 < len(x.Args) {
			inlineCode(x, x.Args[i+1])
		}
		var file *shell.Word
		for _, o := range files {
			switch {
			case v == o && i+1 < len(x.Args):
				file = &x.Args[i+1]
			case strings.HasPrefix(o, "--") && strings.HasPrefix(v, o+"="):
				file = &shell.Word{Value: v[len(o)+1:], Known: true}
			}
		}
		if (x.Name == "mongosh" || x.Name == "mongo") && strings.HasSuffix(v, ".js") && (i == 0 || x.Args[i-1].Value != "-f" && x.Args[i-1].Value != "--file") {
			file = &x.Args[i]
		}
		if file != nil {
			if t, ok := scriptFile(x, *file); ok {
				texts = append(texts, t)
			} else {
				unknown = true
			}
		}
	}
	switch x.Cmd.Input {
	case "heredoc":
		if strings.Contains(x.Cmd.Feed, shell.Dyn) {
			unknown = true
		} else {
			texts = append(texts, x.Cmd.Feed)
		}
	case "pipe", "file", "catfile":
		f := x.Cmd.Feed
		if in := x.Cmd.StdinFile; x.Cmd.Input != "pipe" && in.Known && in.Value != "" {
			// psql db < schema.sql, cat schema.sql | psql: the file's statements, as with -f.
			if t, ok := scriptFile(x, in); ok {
				texts = append(texts, t)
			} else {
				unknown = true
			}
		} else if (strings.HasPrefix(f, "echo ") || strings.HasPrefix(f, "printf ")) && !strings.Contains(f, shell.Dyn) && !strings.ContainsAny(f, "|;&$`<>") {
			texts = append(texts, f) // echo 'DROP TABLE users' | psql: what it echoes
		} else if f != "/dev/null" {
			unknown = true
		}
	}
	for _, t := range texts {
		if dbShell(x, t) {
			return
		}
	}
	for _, t := range texts {
		if sqlite.SqlDestructive(t) {
			x.Add(risk.High, kernel.ShellExec, kernel.RuleDatabaseDestructive, x.Name+" runs a statement that drops or deletes data (or one that cannot be known)")
			return
		}
	}
	if unknown {
		x.Add(risk.High, kernel.ShellExec, kernel.RuleDatabaseDestructive, x.Name+" runs statements that cannot be read here (piped, redirected, from a file or a value unknown statically): they could drop or delete data")
		return
	}
	x.Add(risk.Medium, kernel.ShellExec, kernel.RuleGrayArea, x.Name+" talks to a database")
}

// asciiLower is s with its ASCII capitals in lower case, and nothing else changed: unlike
// strings.ToLower it keeps every byte where it was, so an index found in it cuts s.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		b[i] = kernel.LowerASCII(c)
	}
	return string(b)
}

// optionValue is the value an argument carries: after "=" in --name=value, after the letter
// in -cVALUE, the argument itself otherwise. The SQL check reads it: "--command=DROP …" whole
// would be read as a comment ("--").
func optionValue(v string) string {
	switch {
	case strings.HasPrefix(v, "--"):
		_, val, _ := strings.Cut(v, "=")
		return val
	case strings.HasPrefix(v, "-") && len(v) > 2:
		return v[2:]
	}
	return v
}

// scriptFile reads a file a program takes its statements or script from (a database client's -f,
// sed -f), bounded as a runner's file.
func scriptFile(x *kernel.Command, w shell.Word) (string, bool) {
	if !w.Known || w.Value == "-" || strings.HasPrefix(w.Value, "/dev/") {
		return "", false
	}
	ts := kernel.Resolve(w, x.Cmd.Dir, false)
	if len(ts) != 1 || !ts[0].Known || ts[0].Glob {
		return "", false
	}
	text, ok, cut := x.Call.ReadCode(ts[0].Path)
	return text, ok && !cut
}

// dbShell finds the shell commands a client's text runs (psql \! and \o |, COPY … PROGRAM,
// mysql system and \!) and judges each as a command. It reports true when one is critical
// (nothing else matters then); any other is high.
func dbShell(x *kernel.Command, t string) bool {
	var progs []string
	for _, line := range strings.FieldsFunc(t, func(r rune) bool { return r == '\n' || r == ';' }) {
		l := strings.TrimSpace(line)
		low := asciiLower(l) // the same length as l: its indexes cut l
		switch {
		case strings.Contains(l, "\\!"):
			progs = append(progs, l[strings.Index(l, "\\!")+2:])
		case x.Name != "psql" && (strings.HasPrefix(low, "system ") || strings.HasPrefix(low, "\\system ")):
			progs = append(progs, l[strings.IndexByte(l, ' ')+1:])
		case strings.Contains(low, "\\o |") || strings.Contains(low, "\\g |") || strings.Contains(low, "\\o|") || strings.Contains(low, "\\g|"):
			progs = append(progs, l[strings.IndexByte(l, '|')+1:])
		}
		if i := strings.Index(low, " program "); i >= 0 && strings.Contains(low, "copy") {
			progs = append(progs, strings.Trim(strings.TrimSpace(l[i+len(" program "):]), "'\""))
		}
	}
	for _, p := range progs {
		if why := shellCritical(x, p); why != "" {
			x.Add(risk.Critical, kernel.ShellExec, kernel.RuleRunsProgram, x.Name+" runs the shell command "+kernel.QuoteRaw(strings.TrimSpace(p))+": "+why)
			return true
		}
	}
	if len(progs) > 0 {
		x.Add(risk.High, kernel.ShellExec, kernel.RuleRunsProgram, x.Name+" runs the shell command "+kernel.QuoteRaw(strings.TrimSpace(progs[0])))
	}
	return false
}

func cloud(x *kernel.Command) {
	for _, a := range x.Args {
		v := strings.ToLower(a.Value)
		if !a.Known {
			continue
		}
		for _, k := range []string{"delete", "destroy", "remove", "terminate", "purge", "deregister", "prune", "drain", "uninstall", "rb", "rm", "rmi", "kill", "deploy", "push", "apply", "publish", "scale"} {
			if v == k || strings.HasPrefix(v, k+"-") || strings.HasSuffix(v, "-"+k) {
				x.Add(risk.High, kernel.ShellExec, kernel.RuleCloudDestructive, x.Name+" "+a.Value+": deletes, deploys or publishes resources")
				if !localEngine(x.Name) && !strings.HasPrefix(v, "-") && x.Name != "aws" && len(command.Lookup(x.Name).Person) == 0 {
					// A real system changes. A program with Person forms of its own (or
					// aws's judge) is judged by them, which know its reading verbs (kubectl get
					// deploy); an option such as terraform plan -destroy only says so.
					x.Call.Mark(kernel.RuleRemoteChange, kernel.ShortCmd(x.Src)+" deletes, deploys or publishes resources ("+x.Name+" "+a.Value+")"+kernel.Consequence(kernel.RuleRemoteChange))
				}
				return
			}
		}
		if v == "--privileged" || strings.HasPrefix(v, "/:/") || strings.HasPrefix(v, "-v=/:") {
			x.Add(risk.High, kernel.ShellExec, kernel.RuleCloudDestructive, x.Name+" with host privileges")
			return
		}
	}
	x.Add(risk.Medium, kernel.ShellExec, kernel.RuleGrayArea, x.Name+" acts on containers or the cloud")
}

// localEngine: a container engine or cluster of this machine, whose images are local and
// rebuilt at will (docker rmi); what it publishes, deleting a cluster (the table's Person forms) and
// stopping or removing containers (stopsContainers) are person.go's.
func localEngine(name string) bool {
	switch name {
	case "docker", "podman", "nerdctl", "docker-compose", "podman-compose", "buildah", "colima", "minikube", "kind", "k3d":
		return true
	}
	return false
}

// inlineCode judges a program given inline to an interpreter (python -c, perl -e, awk '…', node -e).
// It cannot be analysed as a whole, so it is at least medium, high when it can reach files,
// processes or the network, and critical when it plainly aims at a catastrophe: it names a
// protected path, it runs a string literal that is a catastrophic shell command, it deletes a
// tree named by a catastrophic literal or by the home directory, or it talks to the network
// without naming only local addresses (the seed's curl rule, for code).
func inlineCode(x *kernel.Command, w shell.Word) {
	awk := strings.HasSuffix(x.Name, "awk")
	if !w.Known {
		x.Add(risk.High, kernel.ShellExec, kernel.RuleDynamicProgram, "inline code built from values unknown statically")
	}
	s := w.Value
	low := strings.ToLower(s)
	for _, p := range x.Env.CodeMentions {
		if strings.Contains(low, p) {
			x.Add(risk.Critical, kernel.ShellExec, kernel.RuleSelfProtection, "inline code names "+p+": it could change the harness's state or rules")
			break
		}
	}
	lits := append(kernel.Literals(s), quoteOps(x.Name, s)...)
	codeCatastrophe(x, low, lits, awk)
	if awk {
		inPlace := false
		for i, a := range x.Args {
			if a.Value == "-iinplace" || a.Value == "--include=inplace" || a.Value == "-i" && i+1 < len(x.Args) && x.Args[i+1].Value == "inplace" || a.Value == "--include" && i+1 < len(x.Args) && x.Args[i+1].Value == "inplace" {
				inPlace = true
			}
		}
		p := command.Parse(x.Args, "fvFi", "include")
		if inPlace && len(p.Operands) > 1 {
			for _, o := range p.Operands[1:] {
				x.Write(o, false, kernel.ShellExec)
			}
			x.Add(risk.Medium, kernel.ShellExec, kernel.RuleFileChange, "awk -i inplace edits files in place")
		}
		if strings.Contains(s, "system") || strings.Contains(s, "|") {
			x.Add(risk.High, kernel.ShellExec, kernel.RuleRunsProgram, "the awk program runs commands")
			return
		}
		if strings.Contains(s, ">") && (strings.Contains(s, "print") || strings.Contains(s, "printf")) && strings.Contains(s, "\"") {
			for _, l := range lits {
				if strings.Contains(s, "> \""+l+"\"") || strings.Contains(s, ">\""+l+"\"") || strings.Contains(s, ">> \""+l+"\"") || strings.Contains(s, ">>\""+l+"\"") {
					x.Write(shell.Word{Value: l, Known: true}, false, kernel.ShellExec)
				}
			}
			x.Add(risk.Medium, kernel.ShellExec, kernel.RuleFileChange, "the awk program may write files")
			return
		}
		if len(p.Operands) > 1 {
			readOps(x, p.Operands[1:])
		}
		x.Add(risk.Low, kernel.FileRead, kernel.RuleAllowList, "awk only reads")
		return
	}
	if x.Name == "perl" || x.Name == "ruby" {
		inPlace := false
		for _, a := range x.Args {
			if a.Known && strings.HasPrefix(a.Value, "-") && !strings.HasPrefix(a.Value, "--") && strings.ContainsRune(a.Value, 'i') && !strings.ContainsAny(a.Value[1:2], "eEMmIrx") {
				inPlace = true
			}
		}
		if inPlace {
			seen := false
			for _, a := range x.Args {
				if a.Value == w.Value && !seen {
					seen = true
					continue
				}
				if seen && !strings.HasPrefix(a.Value, "-") {
					x.Write(a, false, kernel.ShellExec)
				}
			}
			x.Add(risk.Medium, kernel.ShellExec, kernel.RuleFileChange, x.Name+" -i edits files in place")
		}
	}
	for _, k := range []string{"system", "exec", "popen", "subprocess", "spawn", "child_process", "shutil", "rmtree", "remove", "unlink", "rmdir", "rename", "chmod", "chown", "kill", "socket", "urllib", "requests", "http", "fetch", "open(", "write", "eval", "import os", "require(", "`", "fs.", "file_put", "curl", "smtplib", "environ", "getenv", "process.env", "lwp", "net::", "io::"} {
		if strings.Contains(low, k) {
			x.Add(risk.High, kernel.ShellExec, kernel.RuleInlineCode, x.Name+" inline code that can change files, run programs or reach the network ("+k+")")
			return
		}
	}
	x.Add(risk.Medium, kernel.ShellExec, kernel.RuleInlineCode, x.Name+" runs inline code")
}

// Words that say inline code runs a command, deletes a tree, or talks to the network.
var (
	codeRuns    = []string{"system", "exec", "popen", "subprocess", "spawn", "child_process", "`", "qx", "%x", "pcntl", "shell_exec", "passthru", "proc_open", "os.run", "command(", "|", "do shell script", "remove-item", "start-process"}
	codeRmTree  = []string{"rmtree", "rm_rf", "rm_r", "rmsync", "rmdirsync", "remove_dir_all", "removeall", "rimraf", "remove_tree", "file::path", "fs.rm(", "fs.rmdir", "deltree", "fileutils.rm", "rm -r"}
	codeHome    = []string{"expanduser", "homedir", "home()", "env{home}", "env{'home'}", "env{\"home\"}", "env[\"home\"]", "env['home']", "environ", "getenv", "$home", "env.home", "os.home", "dir.home", "path.home"}
	codeCalls   = []string{".get(", ".post(", ".put(", ".delete(", ".patch(", "urlopen(", ".connect(", "fetch(", ".request(", ".send(", ".sendall(", "sendmail(", "create_connection(", "get(", "post(", "getstore(", "http.get", "https.get", "invoke-", "file_get_contents(", "fsockopen("}
	codeNetwork = []string{"urllib", "requests", "http.client", "httplib", "httpx", "aiohttp", "socket", "fetch(", "net/http", "net::http", "lwp", "io::socket", "urlopen", "axios", "xmlhttprequest", "websocket", "smtplib", "ftplib", "telnetlib", "paramiko", "http.get", "https.get", "http.request", "https.request", "open-uri", "curl", "invoke-webrequest", "invoke-restmethod", "net.http", "file_get_contents(\"http", "fsockopen"}
)

// powerShellCommand says a PowerShell command line in the words of a POSIX shell, for the
// catastrophes: Remove-Item (and its aliases) -Recurse on the home directory is rm -rf ~.
func powerShellCommand(name, low string) string {
	if name != "pwsh" && name != "powershell" && name != "powershell.exe" && name != "pwsh.exe" {
		return ""
	}
	r := strings.NewReplacer("remove-item", "rm", "-recurse", "-r", "-force", "-f", "$home", "~", "$env:home", "~", "$env:userprofile", "~", "${home}", "~", "-path", "", "-literalpath", "")
	var out []string
	for _, stmt := range strings.FieldsFunc(low, func(r rune) bool { return r == ';' || r == '\n' }) {
		f := strings.Fields(r.Replace(stmt))
		if len(f) > 0 {
			switch f[0] {
			case "ri", "del", "erase", "rd", "rmdir":
				f[0] = "rm"
			}
		}
		out = append(out, strings.Join(f, " "))
	}
	return strings.Join(out, "; ")
}

// codeCatastrophe finds the plain catastrophes in inline code; see code.
func codeCatastrophe(x *kernel.Command, low string, lits []string, awk bool) {
	ps := powerShellCommand(x.Name, low)
	if (kernel.ContainsAny(low, codeRuns) || ps != "") && x.Call.Depth < shell.MaxDepth {
		progs := append(append([]string{}, lits...), strings.Join(lits, " "))
		if len(lits) > 0 && kernel.ContainsAny(low, codeHome) {
			// system("rm", "-rf", $ENV{HOME}): the list's words, the home directory last.
			progs = append(progs, strings.Join(lits, " ")+" ~")
		}
		if ps != "" {
			progs = append(progs, ps) // PowerShell is a shell: its command line, as a POSIX one
		}
		for _, prog := range progs {
			if why := shellCritical(x, prog); why != "" {
				x.Add(risk.Critical, kernel.ShellExec, kernel.RuleInlineCodeCatastrophe, x.Name+" inline code runs "+kernel.QuoteRaw(prog)+": "+why)
				return
			}
		}
	}
	if kernel.ContainsAny(low, codeRmTree) && !awk {
		if kernel.ContainsAny(low, codeHome) {
			x.Add(risk.Critical, kernel.ShellExec, kernel.RuleCatastrophe, x.Name+" inline code deletes a tree named by the home directory or the environment")
			return
		}
		for _, l := range lits {
			v := l
			if v == "~" || strings.HasPrefix(v, "~/") {
				v = x.Env.Home + v[1:]
			}
			for _, t := range kernel.Resolve(shell.Word{Value: v, Known: v != ""}, x.Cmd.Dir, true) {
				if why := x.Env.Prot.Catastrophic(t); why != "" {
					x.Add(risk.Critical, kernel.ShellExec, kernel.RuleCatastrophe, x.Name+" inline code deletes "+why)
					return
				}
				if hit := x.Env.Prot.Hit(t); hit != "" && strings.Contains(v, "/") {
					x.Add(risk.Critical, kernel.ShellExec, kernel.RuleSelfProtection, x.Name+" inline code deletes "+t.Path+", which reaches "+hit)
					return
				}
			}
		}
	}
	modules := ""
	for _, a := range x.Args {
		if strings.HasPrefix(a.Value, "-M") || strings.HasPrefix(a.Value, "-r") {
			modules += strings.ToLower(a.Value) + " "
		}
	}
	if kernel.ContainsAny(low, codeNetwork) || kernel.ContainsAny(modules, codeNetwork) || kernel.ContainsAny(modules, []string{"http", "net::", "socket", "uri"}) {
		local, external := false, false
		for _, l := range lits {
			ll := strings.ToLower(l)
			if strings.Contains(ll, "://") || ll == "localhost" || strings.HasPrefix(ll, "127.") || ll == "::1" {
				if kernel.IsLocalURL(l) {
					local = true
				} else {
					external = true
				}
			} else if strings.Contains(ll, ".") && !strings.ContainsAny(ll, " /") && strings.Count(ll, ".") >= 1 && kernel.HostLike(ll) {
				external = true // "evil.com"
			}
		}
		if external || !local && kernel.ContainsAny(low, codeCalls) {
			x.Add(risk.Critical, kernel.ShellExec, kernel.RuleNetworkExternal, x.Name+" inline code talks to the network, to an address that is not (only) local: external communication, blocked at any trust")
		}
	}
}

// shellCritical judges prog as a shell program and returns why it is critical, leaving aside
// what only says it cannot be known (inline code is judged for that on its own).
func shellCritical(x *kernel.Command, prog string) string {
	if strings.TrimSpace(prog) == "" {
		return ""
	}
	cwd := x.Dir()
	for _, p := range x.Env.Verdicts(x.Call, prog, kernel.LangShell, cwd, kernel.Sink{NoPerson: true}).Parts {
		if p.Risk != risk.Critical {
			continue
		}
		switch p.Reason.Rule {
		case kernel.RuleDynamicCommand, kernel.RuleDynamicProgram, kernel.RuleProgramFromStdin, kernel.RuleSelfProtectionUnknownTarget, kernel.RuleNestingTooDeep, kernel.RuleTooLong, kernel.RuleTooManyCommands, kernel.RuleSecretVariable:
			continue
		}
		return p.Reason.Detail
	}
	return ""
}
