package classify

import (
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/command"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// judge applies the command's rule: the row of command's table names it (catalogue.go says
// how each kind of row is judged).
func (x *cmdCtx) judge() {
	row := *x.prog()
	n := x.name
	switch row.Judge {
	case command.Schedule:
		if x.schedule() {
			return
		}
		x.listed(row)
	case command.Agent:
		x.agent(row) // agents.go
	case command.Kill:
		if x.killAll() {
			return
		}
		x.listed(row)
	case command.Mailer:
		x.add(risk.Critical, ShellExec, ruleMailer, n+" sends mail")
	case command.Fetch:
		x.fetch()
	case command.Git:
		x.git()
	case command.Remove:
		x.rm()
	case command.Rmdir:
		for _, o := range command.Parse(x.args, "").Operands {
			x.write(o, false, ShellExec)
		}
		x.add(risk.Medium, FileWrite, ruleFileChange, "removes directories")
	case command.Chmod:
		x.chmod()
	case command.Move:
		x.copy(true)
	case command.Mount:
		if ops := command.Parse(x.args, "tTLUoO", "types", "options", "target", "source", "fstab").Operands; len(ops) > 0 {
			x.write(ops[len(ops)-1], true, ShellExec) // what is mounted over the target replaces it
			x.destroy(ops[len(ops)-1], "mounting over")
		}
		x.add(risk.High, ShellExec, ruleDenyList, n+": "+row.Reason)
	case command.GitHub:
		x.gh(row)
	case command.Copy:
		x.copy(false)
	case command.Link:
		x.ln()
	case command.Touch:
		for _, o := range command.Parse(x.args, "srmdtAB", "size", "reference", "mode", "date").Operands {
			x.write(o, false, ShellExec)
			if n == "truncate" {
				x.lose(o, false, "truncates")
			}
		}
		x.add(risk.Medium, FileWrite, ruleFileChange, n+" changes files")
	case command.Editor:
		x.editor() // editors.go
	case command.Tee:
		p := command.Parse(x.args, "")
		for _, o := range p.Operands {
			x.write(o, false, ShellExec)
			if !p.Has('a', "append") {
				x.lose(o, false, "overwrites") // tee F truncates F first, like > F
			}
			x.plantTee(o, p.Has('a', "append")) // planted.go
		}
		if len(p.Operands) > 0 {
			x.add(risk.Medium, FileWrite, ruleFileChange, "tee writes files")
		} else {
			x.add(risk.Low, FileRead, ruleAllowList, "tee to stdout only")
		}
	case command.Sed:
		x.sed()
	case command.PerlRuby:
		x.add(risk.Medium, ShellExec, ruleScript, "runs a script file")
	case command.DD:
		x.dd()
	case command.Disk, command.Mkfs:
		x.add(risk.Critical, ShellExec, ruleFilesystem, n+" creates a file system or rewrites a partition table: irreversible")
	case command.Rsync:
		x.rsync()
	case command.Scp:
		x.scp()
	case command.SSH:
		x.ssh()
	case command.RawNet:
		x.rawNet(row)
	case command.Tar:
		x.tar()
	case command.Unpack:
		x.unpack()
	case command.Compress:
		x.compress()
	case command.Pack:
		x.pack()
	case command.Find:
		x.findCmd()
	case command.Printenv:
		x.printenv()
	case command.Declare:
		if len(x.args) == 0 || x.declPrints() {
			x.printenv()
		} else {
			x.readOnly(row)
		}
	case command.Awk:
		x.add(risk.Medium, ShellExec, ruleScript, "awk runs a program from a file")
	case command.Mktemp:
		x.add(risk.Low, ShellExec, ruleAllowList, "creates a temporary file")
	case command.Reads:
		x.readOnly(row)
	case command.Go:
		x.goCmd()
	case command.NodePkg:
		x.nodePkg()
	case command.PkgTool:
		x.pkgTool()
	case command.Interpreter:
		x.interpreterScript()
	case command.Shell:
		x.script()
	case command.TestRunner:
		x.add(risk.Low, TestRun, ruleTestRunner, n+" runs tests")
	case command.Make:
		x.make()
	case command.Database:
		x.db()
	case command.Container:
		if !x.container() {
			x.cloud()
		}
	case command.Cloud:
		x.cloud()
	case command.Patch:
		x.add(risk.Critical, ShellExec, ruleSelfProtectionUnknownTarget, n+" writes the files its input names, which cannot be known statically and could be protected: use Edit/Write")
	default:
		x.listed(row)
	}
	if !row.Judge.OwnsWrites() && !row.Has(command.AllowList) && row.Judge != command.Mkfs {
		x.protectedOperand() // (mkfs.* is critical whatever it is given)
	}
}

// gh: deleting a repository or a remote branch through the API is irreversible for everyone.
func (x *cmdCtx) gh(row command.Row) {
	all := strings.ToLower(joinWords(x.args))
	if len(x.args) > 1 && x.args[0].Value == "repo" && x.args[1].Value == "delete" ||
		len(x.args) > 0 && x.args[0].Value == "api" && strings.Contains(all, "delete") && (strings.Contains(all, "refs") || strings.Contains(all, "repos/") && !strings.Contains(all, "/comments")) {
		x.add(risk.Critical, GitRemote, ruleForcePush, "gh "+all+" deletes a repository or a remote branch: irreversible for everyone")
		return
	}
	x.add(risk.High, ShellExec, ruleDenyList, "gh: "+row.Reason)
}

// ReadOnly reports whether one simple command (argv, its name first) changes nothing by itself
// and runs no other program; see command.ReadOnly, derived from the table the rules read.
func ReadOnly(argv []string) bool { return command.ReadOnly(argv) }

// carried: a program we know nothing about may run the command line it is given (a wrapper
// we do not model, a job runner, a script that execs "$@"). Its arguments are judged as a
// command line; only a critical verdict is taken over.
func (x *cmdCtx) carried() {
	if x.r.depth >= shell.MaxDepth {
		return
	}
	for _, prog := range carriedArgs(x.args) {
		if why := x.shellCritical(prog); why != "" {
			x.add(risk.Critical, ShellExec, ruleCarriedCommand, x.name+" is given the command line "+quoteRaw(prog)+", which it may run: "+why)
			return
		}
	}
}

// carriedArgs are the arguments carried judges as command lines, at most four: from an
// argument that names a program of a catastrophe's head on, or one that looks like a command
// line (a blank or ; | &, shorter than 4096 bytes). Options are passed over.
func carriedArgs(args []shell.Word) []string {
	var out []string
	for i, a := range args {
		if len(out) >= 4 {
			break
		}
		if !a.Known || strings.HasPrefix(a.Value, "-") {
			continue
		}
		switch {
		case command.Has(path.Base(a.Value), command.Head):
			out = append(out, shell.QuoteWords(args[i:]))
		case strings.ContainsAny(a.Value, " ;|&") && len(a.Value) < 4096:
			out = append(out, a.Value)
		}
	}
	return out
}

// remoteHost returns the host of an scp/rsync operand ([user@]host:path), or "".
func remoteHost(v string) string {
	if strings.HasPrefix(v, "/") || strings.HasPrefix(v, ".") {
		return ""
	}
	if rest, ok := strings.CutPrefix(v, "rsync://"); ok {
		h, _, _ := strings.Cut(rest, "/")
		return h
	}
	if rest, ok := strings.CutPrefix(v, "scp://"); ok {
		h, _, _ := strings.Cut(rest, "/")
		return h
	}
	i := strings.IndexByte(v, ':')
	if i <= 0 || strings.Contains(v[:i], "/") {
		return ""
	}
	h := v[:i]
	if j := strings.LastIndexByte(h, '@'); j >= 0 {
		h = h[j+1:]
	}
	return strings.Trim(h, "[]")
}

// sendsCredential: copying a credential to another machine is exfiltration, critical.
func (x *cmdCtx) sendsCredential(srcs []shell.Word, dest shell.Word) {
	for _, s := range srcs {
		v := s.Value
		if v == "~" || strings.HasPrefix(v, "~/") {
			v = x.c.home + v[1:]
		}
		if why := credential(v); why != "" || s.Known && (path.Clean(v) == x.c.home || strings.HasSuffix(path.Clean(v), "/.ssh") || strings.HasSuffix(path.Clean(v), "/.aws")) {
			x.add(risk.Critical, ShellExec, ruleCredentialExfiltration, x.name+" sends "+s.Value+" ("+why+") to "+dest.Value+": secrets leave the machine")
			return
		}
	}
}

func localHost(h string) bool { return h != "" && isLocalURL("http://"+h) }

// scp and sftp: sending files to another machine is external communication (critical, like
// curl); fetching from one is high; a local destination is a write.
func (x *cmdCtx) scp() {
	p := x.prog().Spec.Parse(x.args)
	if x.name == "sftp" {
		x.add(risk.High, ShellExec, ruleDenyList, "sftp: a remote connection")
		return
	}
	if len(p.Operands) < 2 {
		x.add(risk.High, ShellExec, ruleDenyList, "scp: a remote copy")
		return
	}
	dest := p.Operands[len(p.Operands)-1]
	srcs := p.Operands[:len(p.Operands)-1]
	dh := remoteHost(dest.Value)
	if !dest.Known || dh != "" && !localHost(dh) {
		x.sendsCredential(srcs, dest)
		x.add(risk.High, ShellExec, ruleDenyList, "scp sends files to "+dest.Value+": a remote connection")
		return
	}
	if dh == "" {
		x.write(dest, true, ShellExec)
		local := true
		for _, s := range srcs {
			local = local && s.Known && remoteHost(s.Value) == ""
		}
		if local { // planted.go: scp x .git/hooks/pre-commit copies as cp does
			x.plantCopies(srcs, dest, len(srcs) > 1 || strings.HasSuffix(dest.Value, "/"), false)
		}
		for _, s := range srcs {
			if s.Known && !s.Glob && remoteHost(s.Value) == "" {
				x.write(shell.Word{Value: strings.TrimSuffix(dest.Value, "/") + "/" + path.Base(s.Value), Known: true}, true, ShellExec)
			} else {
				x.write(shell.Word{Value: strings.TrimSuffix(dest.Value, "/") + "/*", Known: dest.Known, Glob: true}, true, ShellExec)
			}
		}
	}
	x.add(risk.High, ShellExec, ruleDenyList, "scp: a remote copy")
}

// ssh: its remote command was analysed as a program of its own (package shell). Feeding it
// local data (a pipe, < file, a heredoc) to a host that is not local sends that data away.
func (x *cmdCtx) ssh() {
	host := ""
	p := x.prog().Spec.Parse(x.args)
	if len(p.Operands) > 0 {
		host = p.Operands[0].Value
		if j := strings.LastIndexByte(host, '@'); j >= 0 {
			host = host[j+1:]
		}
		host = strings.TrimPrefix(host, "ssh://")
	}
	x.add(risk.High, ShellExec, ruleDenyList, "ssh: a remote connection")
}

// rawNet: nc, socat, telnet, openssl s_client … to a host that is not local are external
// communication, critical like curl; to a local one, or listening, high (deny list).
func (x *cmdCtx) rawNet(row command.Row) {
	n := x.name
	var hosts []shell.Word
	switch n {
	case "socat":
		for _, a := range x.args {
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
		for i, a := range x.args {
			if (a.Value == "-connect" || a.Value == "-host" || a.Value == "-proxy") && i+1 < len(x.args) {
				h := x.args[i+1]
				v := h.Value
				if k := strings.LastIndexByte(v, ':'); k > 0 && !strings.HasSuffix(v, "]") {
					v = v[:k]
				}
				hosts = append(hosts, shell.Word{Value: v, Known: h.Known})
			}
		}
		if len(x.args) > 0 && x.args[0].Value == "s_client" && len(hosts) == 0 {
			hosts = append(hosts, shell.Word{Value: "localhost", Known: true}) // s_client's default
		}
	default:
		p := command.Parse(x.args, "psqwixXeIOPTVcob", "proxy", "source", "exec", "sh-exec", "lua-exec", "wait", "idle-timeout")
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
		if !h.Known || !localHost(h.Value) {
			x.add(risk.Critical, ShellExec, ruleNetworkExternal, n+" to "+h.Value+": raw external communication, blocked at any trust")
			return
		}
	}
	if n == "openssl" && len(hosts) == 0 {
		x.add(risk.Medium, ShellExec, ruleGrayArea, "openssl without a connection")
		return
	}
	x.add(risk.High, ShellExec, ruleDenyList, n+": "+row.Reason)
}

// protectedOperand: a program not known to only read, given a protected path, may write it,
// lock it (flock … sleep holds the trust file's lock and every record fails) or hand it on.
func (x *cmdCtx) protectedOperand() {
	var first []string // what is protected inside the command's one directory (within)
	asked, clear := false, false
	for _, a := range x.args {
		v := a.Value
		if i := strings.IndexByte(v, '='); i > 0 && strings.HasPrefix(v, "-") {
			v = v[i+1:]
		}
		if !a.Known || strings.HasPrefix(v, "-") || v == "" {
			continue
		}
		if name, ok := firstInside(v); ok && !a.Glob {
			if !asked {
				asked = true
				if dir, ok := operandDir(x.cmd.Dir); ok {
					first, clear = x.r.budget().within(&x.c.prot, dir)
				}
			}
			if clear && !protectedName(name, first) {
				continue
			}
		}
		for _, t := range resolve(shell.Word{Value: v, Known: true, Glob: a.Glob}, x.cmd.Dir, false) {
			if hit := x.c.prot.hit(t); hit != "" {
				x.add(risk.Critical, ShellExec, ruleSelfProtection, x.name+" is given "+t.path+" ("+hit+"): a program that is not known to only read may change or lock it")
				return
			}
		}
	}
}

// readOps records operands as files read, for the allow-list commands that take files.
func (x *cmdCtx) readOps(ops []shell.Word) {
	for _, o := range ops {
		if o.Known && !strings.Contains(o.Value, "://") {
			x.read(o)
		}
	}
}

// readOnly judges a command of the allow list (readOnlySpecs): low unless one of its options
// makes it write a file (judged as a write), run a program (high, and the program analysed) or
// change something else (medium). It stays low exactly when ReadOnly says so, shell builtins
// aside.
func (x *cmdCtx) readOnly(row command.Row) {
	n := x.name
	sp := row.Spec
	argv := make([]string, len(x.cmd.Args))
	for i, a := range x.cmd.Args {
		argv[i] = a.Value
	}
	p := command.Parse(x.args, sp.Short, sp.Long...)
	changed := false
	optName := command.OptName
	for _, o := range sp.Writes {
		if w, ok := p.Value(o); ok {
			x.write(w, false, ShellExec)
			x.add(risk.Medium, ShellExec, ruleFileChange, n+" "+optName(o)+" writes a file")
			changed = true
		} else if len(o) == 1 && p.Short[o[0]] || len(o) > 1 && p.Long[o] {
			x.write(shell.Word{Value: n + " " + optName(o) + " without a file"}, false, ShellExec)
			changed = true
		}
	}
	for _, o := range sp.Runs {
		if w, ok := p.Value(o); ok {
			x.add(risk.High, ShellExec, RuleRunsProgram, n+" "+optName(o)+" runs a program")
			if w.Known {
				x.nested(w.Value, n+" "+optName(o))
			} else {
				x.add(risk.Critical, ShellExec, ruleDynamicProgram, n+" "+optName(o)+" runs a program that cannot be known statically")
			}
			changed = true
		}
	}
	if sp.Operand > 0 && len(p.Operands) >= sp.Operand {
		x.write(p.Operands[sp.Operand-1], false, ShellExec)
		x.add(risk.Medium, ShellExec, ruleFileChange, n+" writes its operand "+p.Operands[sp.Operand-1].Value)
		changed = true
	}
	if n == "history" && (p.Has('w') || p.Has('a')) {
		for _, o := range p.Operands {
			x.write(o, false, ShellExec)
		}
		x.add(risk.Medium, ShellExec, ruleFileChange, "history -w/-a writes the history file")
		changed = true
	}
	if n == "tree" && p.Has('R') {
		ops := p.Operands
		if len(ops) == 0 {
			ops = []shell.Word{{Value: ".", Known: true}}
		}
		for _, o := range ops {
			x.write(shell.Word{Value: strings.TrimSuffix(o.Value, "/") + "/**", Known: o.Known, Glob: true}, true, ShellExec)
		}
		x.add(risk.Medium, ShellExec, ruleFileChange, "tree -R writes 00Tree.html into every directory")
		changed = true
	}
	if changed {
		return
	}
	if !sp.Shell && !command.ReadOnly(argv) {
		why := sp.Hazard(n, argv[1:])
		if strings.HasPrefix(why, "+") {
			x.add(risk.High, ShellExec, RuleRunsProgram, n+" "+why)
			return
		}
		x.add(risk.Medium, ShellExec, ruleGrayArea, n+" with "+why+" changes something")
		return
	}
	switch n {
	case "grep", "egrep", "fgrep", "rg", "ag", "ack", "zgrep":
		ops := p.Operands
		if _, ok := p.Value("e", "regexp", "f", "file"); !ok && len(ops) > 0 {
			ops = ops[1:] // the pattern
		}
		x.readOps(ops)
		if p.Has('r', "recursive") || p.Has('R', "dereference-recursive") || n == "rg" || n == "ag" || n == "ack" {
			if len(ops) == 0 && !x.cmd.Stdin {
				ops = []shell.Word{{Value: ".", Known: true}} // cd ~/.ssh && grep -r foo: where it runs
			}
			for _, o := range ops {
				x.readTree(o) // grep -r . ~/.ssh
			}
		}
	case "cat", "head", "tail", "less", "more", "wc", "file", "stat", "nl", "tac", "od", "hexdump", "diff", "cmp", "comm", "md5sum", "sha1sum", "sha256sum", "sha512sum", "cksum", "strings", "zcat", "bat", "sort", "uniq", "xxd":
		x.readOps(p.Operands)
	}
	x.readNamesFrom() // find ~/.ssh | xargs cat
	x.add(risk.Low, FileRead, ruleAllowList, n+" only reads")
}

// declPrints reports declare, export or typeset printing variables (-p, no assignment):
// export -p is env, declare -p NAME is printenv NAME.
func (x *cmdCtx) declPrints() bool {
	if x.name == "set" {
		return false
	}
	prints := false
	for _, a := range x.args {
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

func (x *cmdCtx) printenv() {
	p := command.Parse(x.args, "u", "unset")
	if len(p.Operands) == 0 {
		x.add(risk.High, ShellExec, ruleEnvironmentDump, x.name+" prints every environment variable, secrets included")
		return
	}
	for _, o := range p.Operands {
		if !o.Known || secretName(o.Value) {
			x.add(risk.Critical, ShellExec, ruleSecretVariable, x.name+" prints "+o.Value+", named like a secret")
			return
		}
	}
	x.add(risk.Low, FileRead, ruleAllowList, "prints named variables")
}

func (x *cmdCtx) rm() {
	p := command.Parse(x.args, "")
	recursive := p.Has('r', "recursive") || p.Has('R')
	for _, o := range p.Operands {
		if recursive || x.name == "shred" {
			x.destroy(o, "recursive deletion")
		}
		x.write(o, recursive, ShellExec)
		x.lose(o, recursive, "deletes")
		if !o.Known && recursive {
			x.add(risk.Critical, ShellExec, ruleCatastrophe, "recursive deletion of "+quoteRaw(o.Value)+", which cannot be known statically (it could be / or ~)")
		}
	}
	if x.cmd.StdinArgs {
		x.write(shell.Word{Value: "(names read from stdin)"}, recursive, ShellExec)
	}
	if x.cmd.StdinArgs && recursive {
		x.add(risk.Critical, ShellExec, ruleCatastrophe, "recursive deletion of names read from stdin")
	}
	x.add(risk.High, FileWrite, ruleDenyList, x.name+" deletes files")
}

func (x *cmdCtx) chmod() {
	p := command.Parse(x.args, "", "reference")
	recursive := p.Has('R', "recursive")
	ops := p.Operands
	if _, ok := p.Value("reference"); !ok && len(ops) > 0 && x.name != "chattr" {
		ops = ops[1:] // the mode or owner
	}
	for _, o := range ops {
		if recursive {
			x.destroy(o, "recursive permission change")
			if !o.Known {
				x.add(risk.Critical, ShellExec, ruleCatastrophe, "recursive permission change of "+quoteRaw(o.Value)+", which cannot be known statically")
			}
		}
		x.write(o, recursive, ShellExec)
	}
	x.add(risk.High, FileWrite, ruleDenyList, x.name+" changes permissions or ownership")
}

// copyDest is the destination of cp, install, mv or ln as written (-t DIR, or the last of
// two operands or more): a name written, not read.
func (x *cmdCtx) copyDest() (string, bool) {
	switch x.prog().Judge {
	case command.Copy, command.Move, command.Link:
	default:
		return "", false
	}
	p := command.Parse(x.args, "tSm", "target-directory", "suffix", "mode", "owner", "group")
	if d, ok := p.Value("t", "target-directory"); ok {
		return d.Value, d.Known
	}
	if len(p.Operands) < 2 {
		return "", false
	}
	d := p.Operands[len(p.Operands)-1]
	return d.Value, d.Known
}

// copy judges mv (move: the sources are removed too) and cp/install.
func (x *cmdCtx) copy(move bool) {
	p := command.Parse(x.args, "tSm", "target-directory", "suffix", "mode", "owner", "group")
	ops := p.Operands
	dest, hasT := p.Value("t", "target-directory")
	if !hasT {
		if len(ops) < 2 {
			if len(ops) == 1 && !x.cmd.StdinArgs {
				x.write(ops[0], move, ShellExec)
			}
			x.add(risk.Medium, FileWrite, ruleFileChange, x.name+" with fewer than two operands")
			if x.cmd.StdinArgs {
				x.write(shell.Word{Value: "(names read from stdin)"}, true, ShellExec)
			}
			return
		}
		dest, ops = ops[len(ops)-1], ops[:len(ops)-1]
	}
	tree := move || p.Has('r', "recursive") || p.Has('R') || p.Has('a', "archive")
	x.write(dest, tree, ShellExec)
	x.lose(dest, false, "overwrites") // a directory there is written into, not over (losses.go)
	// planted.go: a copy into a file a tool runs is judged by the source's text.
	x.plantCopies(ops, dest, hasT, false)
	for _, s := range ops {
		if b := path.Base(s.Value); s.Known && !move && (command.Has(b, command.Harness) || x.hookPath(s) != "") {
			x.add(risk.Critical, ShellExec, ruleSelfProtection, x.name+" copies the harness's program "+s.Value+": run under another name it would escape the rule on the harness's tools")
		}
	}
	if !move && x.name == "cp" && (p.Has('s', "symbolic-link") || p.Has('l', "link")) {
		x.links(ops) // cp -s/-l (-as, -al): links, not copies, like ln
		if p.Has('l', "link") {
			x.hardLinks(ops)
		}
	}
	for _, s := range ops {
		if move {
			x.write(s, true, ShellExec)
			x.destroy(s, "moving away")
			x.moveInto(s, dest)
		} else {
			x.read(s)
			if tree {
				x.readTree(s) // cp -r ~/.ssh /tmp/k
			}
		}
		// cp a b/ writes b/a: the destination may be a directory.
		if s.Known && dest.Known && !s.Glob {
			x.write(shell.Word{Value: strings.TrimSuffix(dest.Value, "/") + "/" + path.Base(s.Value), Known: true, Glob: dest.Glob}, tree, ShellExec)
			x.lose(shell.Word{Value: strings.TrimSuffix(dest.Value, "/") + "/" + path.Base(s.Value), Known: true, Glob: dest.Glob}, tree, "overwrites")
		} else if !s.Known || s.Glob {
			x.write(shell.Word{Value: strings.TrimSuffix(dest.Value, "/") + "/*", Known: dest.Known, Glob: true}, tree, ShellExec)
		}
	}
	if x.cmd.StdinArgs {
		x.write(shell.Word{Value: "(names read from stdin)"}, true, ShellExec)
	}
	x.add(risk.Medium, FileWrite, ruleFileChange, x.name+" changes files")
}

func (x *cmdCtx) ln() {
	p := command.Parse(x.args, "tS", "target-directory", "suffix")
	ops := p.Operands
	var dir shell.Word // where the links go when it is a directory
	hasDir := false
	if dest, ok := p.Value("t", "target-directory"); ok {
		dir, hasDir = dest, true
	} else if len(ops) >= 2 {
		dest := ops[len(ops)-1]
		ops = ops[:len(ops)-1]
		x.write(dest, false, ShellExec)
		if p.Has('f', "force") {
			x.lose(dest, false, "replaces with a link")
		}
		dir, hasDir = dest, !p.Has('T', "no-target-directory") // ln a b: b may be a directory
	} else {
		for _, o := range ops {
			if o.Known {
				x.write(shell.Word{Value: path.Base(o.Value), Known: true}, false, ShellExec)
			}
		}
	}
	if hasDir || len(ops) > 0 && p.Has('T', "no-target-directory") { // planted.go: a link where a tool runs code
		x.plantCopies(ops, dir, p.Has('t', "target-directory"), p.Has('s', "symbolic") && !p.Has('r', "relative"))
	}
	// ln SRC DIR (and -t DIR) creates DIR/basename(SRC): that is the name written.
	for _, s := range ops {
		if !hasDir {
			break
		}
		w := shell.Word{Value: strings.TrimSuffix(dir.Value, "/") + "/" + path.Base(s.Value), Known: dir.Known && s.Known, Glob: dir.Glob || s.Glob}
		x.write(w, false, ShellExec)
		if p.Has('f', "force") {
			x.lose(w, false, "replaces with a link")
		}
	}
	x.links(ops)
	if x.name == "link" || !p.Has('s', "symbolic") {
		x.hardLinks(ops)
	}
	x.add(risk.Medium, FileWrite, ruleFileChange, "ln creates links")
}

// hardLinks: a hard link is the same file under a second name, so a later write of the link
// writes its source, and nothing at the link's path shows it. The source is judged as written
// now (self-protection, the Core Contract's protected files, oath-gate's writes).
func (x *cmdCtx) hardLinks(ops []shell.Word) {
	for _, s := range ops {
		x.write(s, false, ShellExec)
	}
}

// links judges link sources: a link to a protected file, or to a directory above one, is a
// way to write it later under another name.
func (x *cmdCtx) links(ops []shell.Word) {
	for _, s := range ops {
		for _, t := range resolve(s, x.cmd.Dir, false) {
			if !t.known {
				x.add(risk.Critical, ShellExec, ruleSelfProtectionUnknownTarget, "links to "+quoteRaw(t.raw)+", which cannot be known statically")
			} else if t.tree = true; x.c.prot.hit(t) != "" {
				hit := x.c.prot.hit(t)
				x.add(risk.Critical, ShellExec, ruleSelfProtection, "links to "+t.path+" ("+hit+"): a later write through the link would change it")
			}
		}
	}
}

func (x *cmdCtx) sed() {
	p := command.Parse(x.args, "efl", "expression", "file", "line-length")
	inPlace := p.Has('i', "in-place")
	for _, a := range x.args {
		if a.Known && strings.HasPrefix(a.Value, "-") && !strings.HasPrefix(a.Value, "--") && strings.ContainsRune(a.Value, 'i') {
			inPlace = true
		}
	}
	// Every -e/--expression counts, not only the last one.
	var scripts []shell.Word
	for i := 0; i < len(x.args); i++ {
		v := x.args[i].Value
		switch {
		case (v == "-e" || v == "--expression") && i+1 < len(x.args):
			scripts = append(scripts, x.args[i+1])
			i++
		case strings.HasPrefix(v, "--expression="):
			scripts = append(scripts, shell.Word{Value: strings.TrimPrefix(v, "--expression="), Known: x.args[i].Known})
		case strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && len(v) > 2 && strings.HasSuffix(v, "e") && i+1 < len(x.args):
			scripts = append(scripts, x.args[i+1]) // -ne 'script'
			i++
		}
	}
	ops := p.Operands
	if _, hasF := p.Value("f", "file"); len(scripts) == 0 && !hasF && len(ops) > 0 {
		scripts, ops = ops[:1], ops[1:]
	}
	if f, ok := p.Value("f", "file"); ok {
		// sed -f FILE: the script on disk, read as -e's is (bounded, as a runner's file).
		if text, ok := x.scriptFile(f); ok {
			scripts = append(scripts, shell.Word{Value: text, Known: true})
		} else {
			scripts = append(scripts, shell.Word{Value: f.Value})
		}
	}
	for _, sc := range scripts {
		if !sc.Known {
			x.add(risk.High, ShellExec, ruleSedExec, "a sed script that cannot be known statically or read may run commands or write files")
			continue
		}
		x.sedScript(sc.Value)
	}
	if !inPlace {
		x.readOps(ops)
		x.add(risk.Low, FileRead, ruleAllowList, "sed without -i only prints")
		return
	}
	for _, o := range ops {
		x.write(o, false, ShellExec)
	}
	if x.cmd.StdinArgs {
		x.write(shell.Word{Value: "(names read from stdin)"}, false, ShellExec)
	}
	x.add(risk.Medium, ShellExec, ruleFileChange, "sed -i edits files in place")
}

// sedScript judges GNU sed's e command and s///e flag (run commands), and the w/W command and
// s///w flag (write a file), after any address. A false alarm costs a question; a miss could
// run anything.
func (x *cmdCtx) sedScript(script string) {
	for _, line := range strings.Split(script, "\n") {
		for _, cmd := range strings.Split(line, ";") {
			c := sedStripAddr(strings.TrimLeft(cmd, " \t{}"))
			if c == "" {
				continue
			}
			switch c[0] {
			case 'e':
				x.add(risk.High, ShellExec, ruleSedExec, "the sed script runs commands (e)")
				if prog := strings.TrimSpace(c[1:]); prog != "" {
					x.nested(prog, "sed e")
				}
			case 'w', 'W':
				x.add(risk.Medium, ShellExec, ruleFileChange, "the sed script writes a file (w)")
				x.write(shell.Word{Value: strings.TrimSpace(c[1:]), Known: true}, false, ShellExec)
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
					x.add(risk.Medium, ShellExec, ruleFileChange, "the sed s command writes a file (w)")
					x.write(shell.Word{Value: strings.TrimSpace(flags[i+1:]), Known: true}, false, ShellExec)
					flags = flags[:i]
				}
				if strings.ContainsRune(flags, 'e') {
					x.add(risk.High, ShellExec, ruleSedExec, "the sed s command runs its result as a command (e)")
					// s/.*/rm -rf ~/e runs its replacement: judged as the command it may be.
					if rep := strings.ReplaceAll(c[mid+1:max(mid+1, k-1)], "\\"+string(d), string(d)); mid > 0 && strings.TrimSpace(rep) != "" {
						x.nested(rep, "sed s///e")
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

func (x *cmdCtx) dd() {
	var in, out *shell.Word
	defer func() {
		if in != nil && out != nil { // planted.go: dd if=x of=.git/hooks/pre-commit
			x.plantCopies([]shell.Word{*in}, *out, false, false)
		}
	}()
	for i, a := range x.args {
		if !a.Known {
			x.add(risk.Critical, ShellExec, ruleSelfProtectionUnknownTarget, "dd with an operand that cannot be known statically")
			continue
		}
		if v, ok := strings.CutPrefix(a.Value, "of="); ok {
			out = &shell.Word{Value: v, Known: true}
			x.write(shell.Word{Value: v, Known: true}, false, ShellExec)
			x.lose(shell.Word{Value: v, Known: true}, false, "overwrites")
		}
		if v, ok := strings.CutPrefix(a.Value, "if="); ok {
			in = &shell.Word{Value: v, Known: true, Glob: x.args[i].Glob}
			x.read(shell.Word{Value: v, Known: true})
		}
	}
	x.add(risk.High, ShellExec, ruleDenyList, "dd copies raw data")
}

func (x *cmdCtx) rsync() {
	p := command.Parse(x.args, "ef", "rsh", "filter", "exclude", "include", "rsync-path")
	if len(p.Operands) < 2 {
		x.add(risk.High, ShellExec, ruleDenyList, "rsync")
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
		x.write(dest, true, ShellExec)
		if !remote { // planted.go: rsync x .git/hooks/pre-commit, rsync -a hooks/ .husky/
			srcs := p.Operands[:len(p.Operands)-1]
			x.plantCopies(srcs, dest, len(srcs) > 1 || strings.HasSuffix(dest.Value, "/"), false)
		}
	}
	if p.Has(0, "delete", "delete-before", "delete-after", "delete-during", "delete-excluded", "remove-source-files") {
		x.destroy(dest, "rsync --delete")
		x.lose(dest, true, "deletes files in")
		x.add(risk.High, ShellExec, ruleDenyList, "rsync deletes files")
	}
	if h := remoteHost(dest.Value); !dest.Known || h != "" && !localHost(h) {
		x.sendsCredential(p.Operands[:len(p.Operands)-1], dest)
	}
	if remote {
		x.add(risk.High, ShellExec, ruleDenyList, "rsync to or from another machine")
		return
	}
	x.add(risk.Medium, ShellExec, ruleFileChange, "rsync copies files")
}

func (x *cmdCtx) tar() {
	p := command.Parse(x.args, "fCTXbHIK", "file", "directory", "files-from", "exclude-from", "to-command", "use-compress-program", "checkpoint-action", "rsh-command", "info-script", "new-volume-script")
	mode := ""
	if len(x.args) > 0 && x.args[0].Known && !strings.HasPrefix(x.args[0].Value, "-") {
		mode = x.args[0].Value // tar xzf a.tgz
		if strings.ContainsRune(mode, 'f') && len(p.Operands) > 1 {
			p.SetVal("f", p.Operands[1])
		}
	}
	has := func(c byte, long string) bool { return p.Has(c, long) || strings.IndexByte(mode, c) >= 0 }
	for _, k := range []string{"to-command", "use-compress-program", "checkpoint-action", "rsh-command", "info-script", "new-volume-script"} {
		if p.Long[k] {
			x.add(risk.High, ShellExec, RuleRunsProgram, "tar --"+k+" runs a program")
		}
	}
	switch {
	case has('x', "extract") || has('x', "get"):
		dir := shell.Word{Value: ".", Known: true}
		if d, ok := p.Value("C", "directory"); ok {
			dir = d
		}
		x.write(dir, true, ShellExec)
		x.extractsInto(dir)
		x.add(risk.Medium, ShellExec, ruleFileChange, "tar extracts files")
	case has('c', "create") || has('r', "append") || has('u', "update"):
		if f, ok := p.Value("f", "file"); ok && f.Value != "-" {
			x.write(f, false, ShellExec)
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
			x.read(o)
			x.readTree(o)
		}
		x.add(risk.Medium, ShellExec, ruleFileChange, "tar writes an archive")
	default:
		x.add(risk.Low, FileRead, ruleAllowList, "tar lists an archive")
	}
}

func (x *cmdCtx) unpack() {
	p := command.Parse(x.args, "dxo")
	if x.name == "unzip" && (p.Has('l') || p.Has('t') || p.Has('Z') || p.Has('p')) {
		x.add(risk.Low, FileRead, ruleAllowList, "unzip lists or tests")
		return
	}
	dir := shell.Word{Value: ".", Known: true}
	if d, ok := p.Value("d"); ok {
		dir = d
	}
	for _, a := range x.args {
		if v, ok := strings.CutPrefix(a.Value, "-o"); ok && x.name != "unzip" && v != "" {
			dir = shell.Word{Value: v, Known: a.Known}
		}
	}
	x.write(dir, true, ShellExec)
	x.extractsInto(dir)
	x.add(risk.Medium, ShellExec, ruleFileChange, x.name+" extracts files")
}

// extractsInto judges an archive unpacked into dir: where tools run the files (a hooks
// directory, .husky, CI workflows, Claude Code agents), what it puts there is code the harness
// does not read (planted.go).
func (x *cmdCtx) extractsInto(dir shell.Word) {
	for _, t := range resolve(dir, x.cmd.Dir, false) {
		if t.known && !t.glob && isPlantDir(t.path) {
			x.r.notRead(x.name + " unpacks an archive into " + t.path + ", whose files run later: what it puts there is not read")
			return
		}
	}
}

// pack judges zip: the archive is written, what it packs is read (directories whole with -r):
// zip -r k.zip ~/.ssh reads the keys.
func (x *cmdCtx) pack() {
	p := command.Parse(x.args, "bnPtxiZOs")
	if len(p.Operands) == 0 {
		x.add(risk.Medium, ShellExec, ruleFileChange, x.name+" writes an archive")
		return
	}
	x.write(p.Operands[0], false, ShellExec)
	for _, o := range p.Operands[1:] {
		x.read(o)
		if p.Has('r', "recurse-paths") || p.Has('R', "recurse-patterns") {
			x.readTree(o)
		}
	}
	x.add(risk.Medium, ShellExec, ruleFileChange, x.name+" writes an archive")
}

func (x *cmdCtx) compress() {
	p := command.Parse(x.args, "S", "suffix")
	if p.Has('c', "stdout") || p.Has('l', "list") || p.Has('t', "test") {
		x.add(risk.Low, FileRead, ruleAllowList, x.name+" to stdout")
		return
	}
	for _, o := range p.Operands {
		x.write(o, false, ShellExec)
	}
	x.add(risk.Medium, ShellExec, ruleFileChange, x.name+" replaces files")
}

func (x *cmdCtx) findCmd() {
	var starts []shell.Word
	del := false
	for i, a := range x.args {
		if !a.Known {
			starts = append(starts, a)
			continue
		}
		v := a.Value
		switch v {
		case "-delete":
			del = true
		case "-fprint", "-fprint0", "-fprintf", "-fls":
			x.add(risk.Medium, ShellExec, ruleFileChange, "find "+v+" writes a file")
			if i+1 < len(x.args) {
				x.write(x.args[i+1], false, ShellExec)
			} else {
				x.write(shell.Word{Value: "find " + v + " without a file"}, false, ShellExec)
			}
		}
		if !strings.HasPrefix(v, "-") && v != "(" && v != "!" && len(starts) == len(x.args) {
			starts = append(starts, a)
		}
	}
	starts = nil
	for _, a := range x.args {
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
			x.write(w, true, ShellExec)
			x.destroy(s, "find -delete")
			x.lose(s, true, "deletes files in")
		}
		x.add(risk.High, ShellExec, ruleDenyList, "find -delete deletes files")
		return
	}
	x.readOps(starts)
	x.add(risk.Low, FileRead, ruleAllowList, "find only lists")
}

func (x *cmdCtx) goCmd() {
	if len(x.args) == 0 {
		x.add(risk.Low, FileRead, ruleAllowList, "go prints its help")
		return
	}
	sub := x.args[0].Value
	o, _, hasO := goFlag(x.args[1:], "o") // Go's flags: -count=1 is one flag, not -c -o
	switch sub {
	case "test":
		if _, _, ok := goFlag(x.args[1:], "exec", "toolexec"); ok {
			x.add(risk.High, TestRun, RuleRunsProgram, "go test -exec/-toolexec runs another program")
			return
		}
		if hasO {
			x.write(o, false, TestRun)
		}
		x.add(risk.Low, TestRun, ruleTestRunner, "go test runs tests")
	case "vet", "version", "env", "list", "doc", "help":
		if _, _, w := goFlag(x.args[1:], "w"); sub == "env" && (w || hasWord(x.args[1:], "-w")) {
			x.add(risk.Medium, ShellExec, ruleGrayArea, "go env -w changes the go configuration")
			return
		}
		x.add(risk.Low, FileRead, ruleAllowList, "go "+sub+" only reads")
	default:
		if hasO {
			x.write(o, false, ShellExec)
		}
		if sub == "run" {
			for _, a := range x.args[1:] {
				if strings.HasPrefix(a.Value, "-") {
					continue
				}
				if first, _, _ := strings.Cut(a.Value, "/"); strings.Contains(a.Value, "@") && strings.Contains(first, ".") && !strings.HasSuffix(first, ".go") {
					// go run host/pkg@version: a module downloaded and run, as npx runs a package.
					x.add(risk.High, ShellExec, ruleDenyList, "go run "+a.Value+" downloads a module and runs it")
					return
				}
				break
			}
		}
		x.add(risk.Medium, ShellExec, ruleGrayArea, "go "+sub+" builds or runs code")
	}
}

func (x *cmdCtx) nodePkg() {
	args := x.args
	sub := ""
	if len(args) > 0 {
		sub = args[0].Value
	}
	n := x.name
	if n == "deno" && (sub == "run" || sub == "install" || sub == "compile" || strings.HasPrefix(sub, "http")) || n == "bun" && (sub == "run" || strings.HasPrefix(sub, "http")) {
		// deno run https://…/x.ts: code fetched from the network and run, as curl … | sh.
		for _, a := range args {
			v := strings.ToLower(a.Value)
			if strings.HasPrefix(v, "http://") || strings.HasPrefix(v, "https://") {
				if !isLocalURL(a.Value) {
					x.add(risk.Critical, ShellExec, ruleNetworkExternal, n+" runs code fetched from "+hostOf(a.Value)+": as curl | sh, blocked at any trust")
					return
				}
				break
			}
			if strings.HasPrefix(v, "npm:") || strings.HasPrefix(v, "jsr:") {
				x.add(risk.High, ShellExec, ruleDenyList, n+" "+sub+" "+a.Value+" downloads a package and runs it")
				return
			}
		}
	}
	switch {
	case sub == "test" || sub == "t" || (sub == "run" && len(args) > 1 && strings.HasPrefix(args[1].Value, "test")) || (n == "deno" || n == "bun") && sub == "test":
		x.add(risk.Low, TestRun, ruleTestRunner, n+" "+sub+" runs tests")
	case sub == "publish" || sub == "unpublish" || sub == "deprecate" || sub == "dist-tag" || sub == "owner" || sub == "access":
		x.add(risk.High, ShellExec, ruleRegistryPublish, n+" "+sub+" publishes or changes a package: irreversible")
	case sub == "install" || sub == "i" || sub == "ci" || sub == "add" || sub == "update" || sub == "upgrade" || sub == "uninstall" || sub == "remove" || sub == "rm" || sub == "link" || (n == "yarn" && sub == "") || sub == "exec" || sub == "dlx" || sub == "x":
		x.add(risk.High, ShellExec, ruleDenyList, n+" "+sub+" installs packages, whose scripts run")
	case sub == "ls" || sub == "list" || sub == "view" || sub == "outdated" || sub == "--version" || sub == "-v" || sub == "why" || sub == "audit" && len(args) == 1:
		x.add(risk.Low, FileRead, ruleAllowList, n+" "+sub+" only reads")
	case (sub == "create" || sub == "init" || sub == "innit") && initializer(args[1:]) != "":
		// npm init vite, yarn create vite, pnpm create vite: npx create-vite, a package
		// downloaded and run (npm init alone, or -y, only writes package.json).
		x.add(risk.High, ShellExec, ruleDenyList, n+" "+sub+" downloads the package "+initializer(args[1:])+" and runs it")
	default:
		x.add(risk.Medium, ShellExec, ruleGrayArea, n+" "+sub+" runs a script or a tool")
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

func (x *cmdCtx) pkgTool() {
	n := x.name
	var subs []string
	for _, a := range x.args {
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
		x.add(risk.Low, TestRun, ruleTestRunner, n+" "+sub+" runs tests")
		return
	case "publish", "upload", "push", "deploy", "yank", "release":
		x.add(risk.High, ShellExec, ruleRegistryPublish, n+" "+sub+" publishes a package: irreversible")
		return
	case "install", "uninstall", "add", "remove", "update", "upgrade", "download", "sync", "lock":
		if n == "dotnet" && sub == "add" || n == "mvn" && sub == "install" || n == "gradle" {
			break
		}
		x.add(risk.High, ShellExec, ruleDenyList, n+" "+sub+" installs packages (system change)")
		return
	case "list", "show", "freeze", "search", "tree", "--version", "version", "outdated", "metadata":
		x.add(risk.Low, FileRead, ruleAllowList, n+" "+sub+" only reads")
		return
	}
	if n == "mvn" || n == "gradle" || n == "gradlew" || n == "dotnet" || n == "mix" || n == "swift" {
		for _, s := range subs {
			if s == "test" || s == "verify" {
				x.add(risk.Low, TestRun, ruleTestRunner, n+" "+s+" runs tests")
				return
			}
			if s == "deploy" || s == "publish" {
				x.add(risk.High, ShellExec, ruleRegistryPublish, n+" "+s+" publishes: irreversible")
				return
			}
		}
	}
	x.add(risk.Medium, ShellExec, ruleGrayArea, n+" "+sub+" builds or runs code")
}

// interpreterScript: python x.py, python -m mod, node x.js.
func (x *cmdCtx) interpreterScript() {
	for i, a := range x.args {
		mod, rest, ok := pythonModule(x.name, x.args, i) // -mMOD too
		if !ok && a.Value == "-m" && i+1 < len(x.args) {
			mod, rest, ok = x.args[i+1].Value, x.args[i+2:], true
		}
		if ok {
			switch mod {
			case "pytest", "unittest", "nose2", "tox", "doctest":
				x.add(risk.Low, TestRun, ruleTestRunner, "python -m "+mod+" runs tests")
			case "pip", "ensurepip":
				if len(rest) > 0 && (rest[0].Value == "install" || rest[0].Value == "uninstall" || rest[0].Value == "download") {
					x.add(risk.High, ShellExec, ruleDenyList, "pip "+rest[0].Value+" installs packages (system change)")
					return
				}
				x.add(risk.Medium, ShellExec, ruleGrayArea, "python -m pip")
			case "http.server", "SimpleHTTPServer", "smtpd":
				x.add(risk.High, ShellExec, ruleDenyList, "python -m "+mod+" opens a network server")
			case "json.tool":
				x.add(risk.Low, FileRead, ruleAllowList, "pretty-prints JSON")
			default:
				x.add(risk.Medium, ShellExec, ruleGrayArea, "python -m "+mod+" runs a module")
			}
			return
		}
	}
	if len(x.args) == 0 || x.args[0].Value == "--version" || x.args[0].Value == "-V" {
		x.add(risk.Low, FileRead, ruleAllowList, x.name+" prints its version")
		return
	}
	x.script()
}

func (x *cmdCtx) script() {
	for _, a := range x.args {
		if strings.HasPrefix(a.Value, "-") {
			continue
		}
		if !a.Known {
			x.add(risk.Critical, ShellExec, ruleDynamicProgram, "the script to run cannot be known statically: it could be any program")
			return
		}
		if a.Value == "/dev/stdin" || strings.HasPrefix(a.Value, "/dev/fd/") || strings.HasPrefix(a.Value, "/proc/self/fd/") {
			x.add(risk.Critical, ShellExec, ruleProgramFromStdin, x.name+" runs a program from a pipe or a process substitution, which cannot be known statically")
			return
		}
		break
	}
	x.add(risk.Medium, ShellExec, ruleScript, x.name+" runs a script file")
}

func (x *cmdCtx) make() {
	for _, a := range x.args {
		if !a.Known || strings.HasPrefix(a.Value, "SHELL=") || strings.HasPrefix(a.Value, ".SHELLFLAGS=") {
			x.add(risk.High, ShellExec, RuleRunsProgram, x.name+" with a shell or argument that cannot be known statically")
			return
		}
	}
	for _, a := range x.args {
		if a.Known && (a.Value == "test" || a.Value == "tests" || a.Value == "check" || a.Value == "test-unit") {
			x.add(risk.Low, TestRun, ruleTestRunner, x.name+" "+a.Value+" runs tests")
			return
		}
	}
	x.add(risk.Medium, ShellExec, ruleGrayArea, x.name+" builds")
}

// sqlDestructive spots statements that destroy data. Comments are taken out first and the
// words compared one by one, so that drop/**/table, DROP\tTABLE and db["users"]["drop"]()
// are the statements they are.
func sqlDestructive(s string) bool {
	u := strings.ToUpper(sqlUncomment(s))
	prev := ""
	for _, w := range strings.FieldsFunc(u, func(r rune) bool { return !(r == '_' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') }) {
		switch w {
		case "DROP", "TRUNCATE", "FLUSHALL", "FLUSHDB", "DROPDATABASE", "DELETEMANY", "DELETEONE", "FINDONEANDDELETE", "DROPINDEXES", "UPDATE", "UPDATEMANY", "REPLACEONE":
			return true
		case "FROM":
			if prev == "DELETE" {
				return true
			}
		case "TABLE":
			if prev == "ALTER" {
				return true
			}
		}
		prev = w
	}
	return false
}

// sqlUncomment takes /* … */ and -- … comments out of SQL (each becomes a blank).
func sqlUncomment(s string) string {
	if !strings.Contains(s, "/*") && !strings.Contains(s, "--") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case strings.HasPrefix(s[i:], "/*"):
			j := strings.Index(s[i+2:], "*/")
			if j < 0 {
				return b.String() + " "
			}
			i += j + 3
			b.WriteByte(' ')
		case strings.HasPrefix(s[i:], "--"):
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				return b.String() + " "
			}
			i += j
			b.WriteByte(' ')
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
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
func (x *cmdCtx) db() {
	if x.name == "sqlite3" || x.name == "sqlite" {
		x.sqlite() // sqlite.go
		return
	}
	var texts []string
	unknown := false
	files := dbFileOptions[x.name]
	for i, a := range x.args {
		if !a.Known {
			unknown = true
			continue
		}
		v := a.Value
		if i == 0 || !slices.Contains(files, x.args[i-1].Value) {
			texts = append(texts, optionValue(v)) // (not the name of a file of statements)
		}
		if (x.name == "mongosh" || x.name == "mongo") && (v == "--eval" || v == "-e") && i+1 < len(x.args) {
			x.code(x.args[i+1])
		}
		var file *shell.Word
		for _, o := range files {
			switch {
			case v == o && i+1 < len(x.args):
				file = &x.args[i+1]
			case strings.HasPrefix(o, "--") && strings.HasPrefix(v, o+"="):
				file = &shell.Word{Value: v[len(o)+1:], Known: true}
			}
		}
		if (x.name == "mongosh" || x.name == "mongo") && strings.HasSuffix(v, ".js") && (i == 0 || x.args[i-1].Value != "-f" && x.args[i-1].Value != "--file") {
			file = &x.args[i]
		}
		if file != nil {
			if t, ok := x.scriptFile(*file); ok {
				texts = append(texts, t)
			} else {
				unknown = true
			}
		}
	}
	switch x.cmd.Input {
	case "heredoc":
		if strings.Contains(x.cmd.Feed, shell.Dyn) {
			unknown = true
		} else {
			texts = append(texts, x.cmd.Feed)
		}
	case "pipe", "file", "catfile":
		f := x.cmd.Feed
		if in := x.cmd.StdinFile; x.cmd.Input != "pipe" && in.Known && in.Value != "" {
			// psql db < schema.sql, cat schema.sql | psql: the file's statements, as with -f.
			if t, ok := x.scriptFile(in); ok {
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
		if x.dbShell(t) {
			return
		}
	}
	for _, t := range texts {
		if sqlDestructive(t) {
			x.add(risk.High, ShellExec, ruleDatabaseDestructive, x.name+" runs a statement that drops or deletes data (or one that cannot be known)")
			return
		}
	}
	if unknown {
		x.add(risk.High, ShellExec, ruleDatabaseDestructive, x.name+" runs statements that cannot be read here (piped, redirected, from a file or a value unknown statically): they could drop or delete data")
		return
	}
	x.add(risk.Medium, ShellExec, ruleGrayArea, x.name+" talks to a database")
}

// asciiLower is s with its ASCII capitals in lower case, and nothing else changed: unlike
// strings.ToLower it keeps every byte where it was, so an index found in it cuts s.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		b[i] = lowerASCII(c)
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
func (x *cmdCtx) scriptFile(w shell.Word) (string, bool) {
	if !w.Known || w.Value == "-" || strings.HasPrefix(w.Value, "/dev/") {
		return "", false
	}
	ts := resolve(w, x.cmd.Dir, false)
	if len(ts) != 1 || !ts[0].known || ts[0].glob {
		return "", false
	}
	text, ok, cut := x.r.readCode(ts[0].path)
	return text, ok && !cut
}

// dbShell finds the shell commands a client's text runs (psql \! and \o |, COPY … PROGRAM,
// mysql system and \!) and judges each as a command. It reports true when one is critical
// (nothing else matters then); any other is high.
func (x *cmdCtx) dbShell(t string) bool {
	var progs []string
	for _, line := range strings.FieldsFunc(t, func(r rune) bool { return r == '\n' || r == ';' }) {
		l := strings.TrimSpace(line)
		low := asciiLower(l) // the same length as l: its indexes cut l
		switch {
		case strings.Contains(l, "\\!"):
			progs = append(progs, l[strings.Index(l, "\\!")+2:])
		case x.name != "psql" && (strings.HasPrefix(low, "system ") || strings.HasPrefix(low, "\\system ")):
			progs = append(progs, l[strings.IndexByte(l, ' ')+1:])
		case strings.Contains(low, "\\o |") || strings.Contains(low, "\\g |") || strings.Contains(low, "\\o|") || strings.Contains(low, "\\g|"):
			progs = append(progs, l[strings.IndexByte(l, '|')+1:])
		}
		if i := strings.Index(low, " program "); i >= 0 && strings.Contains(low, "copy") {
			progs = append(progs, strings.Trim(strings.TrimSpace(l[i+len(" program "):]), "'\""))
		}
	}
	for _, p := range progs {
		if why := x.shellCritical(p); why != "" {
			x.add(risk.Critical, ShellExec, RuleRunsProgram, x.name+" runs the shell command "+quoteRaw(strings.TrimSpace(p))+": "+why)
			return true
		}
	}
	if len(progs) > 0 {
		x.add(risk.High, ShellExec, RuleRunsProgram, x.name+" runs the shell command "+quoteRaw(strings.TrimSpace(progs[0])))
	}
	return false
}

func (x *cmdCtx) cloud() {
	for _, a := range x.args {
		v := strings.ToLower(a.Value)
		if !a.Known {
			continue
		}
		for _, k := range []string{"delete", "destroy", "remove", "terminate", "purge", "deregister", "prune", "drain", "uninstall", "rb", "rm", "rmi", "kill", "deploy", "push", "apply", "publish", "scale"} {
			if v == k || strings.HasPrefix(v, k+"-") || strings.HasSuffix(v, "-"+k) {
				x.add(risk.High, ShellExec, ruleCloudDestructive, x.name+" "+a.Value+": deletes, deploys or publishes resources")
				if !localEngine(x.name) && !strings.HasPrefix(v, "-") && x.name != "aws" && len(command.Lookup(x.name).Person) == 0 {
					// A real system changes. A program with Person forms of its own (or
					// aws's judge) is judged by them, which know its reading verbs (kubectl get
					// deploy); an option such as terraform plan -destroy only says so.
					x.r.mark(RuleRemoteChange, shortCmd(x.src)+" deletes, deploys or publishes resources ("+x.name+" "+a.Value+")"+consequence(RuleRemoteChange))
				}
				return
			}
		}
		if v == "--privileged" || strings.HasPrefix(v, "/:/") || strings.HasPrefix(v, "-v=/:") {
			x.add(risk.High, ShellExec, ruleCloudDestructive, x.name+" with host privileges")
			return
		}
	}
	x.add(risk.Medium, ShellExec, ruleGrayArea, x.name+" acts on containers or the cloud")
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

// code judges a program given inline to an interpreter (python -c, perl -e, awk '…', node -e).
// It cannot be analysed as a whole, so it is at least medium, high when it can reach files,
// processes or the network, and critical when it plainly aims at a catastrophe: it names a
// protected path, it runs a string literal that is a catastrophic shell command, it deletes a
// tree named by a catastrophic literal or by the home directory, or it talks to the network
// without naming only local addresses (the seed's curl rule, for code).
func (x *cmdCtx) code(w shell.Word) {
	awk := strings.HasSuffix(x.name, "awk")
	if !w.Known {
		x.add(risk.High, ShellExec, ruleDynamicProgram, "inline code built from values unknown statically")
	}
	s := w.Value
	low := strings.ToLower(s)
	for _, p := range x.c.codeMentions {
		if strings.Contains(low, p) {
			x.add(risk.Critical, ShellExec, ruleSelfProtection, "inline code names "+p+": it could change the harness's state or rules")
			break
		}
	}
	lits := append(literals(s), quoteOps(x.name, s)...)
	x.codeCatastrophe(low, lits, awk)
	if awk {
		inPlace := false
		for i, a := range x.args {
			if a.Value == "-iinplace" || a.Value == "--include=inplace" || a.Value == "-i" && i+1 < len(x.args) && x.args[i+1].Value == "inplace" || a.Value == "--include" && i+1 < len(x.args) && x.args[i+1].Value == "inplace" {
				inPlace = true
			}
		}
		p := command.Parse(x.args, "fvFi", "include")
		if inPlace && len(p.Operands) > 1 {
			for _, o := range p.Operands[1:] {
				x.write(o, false, ShellExec)
			}
			x.add(risk.Medium, ShellExec, ruleFileChange, "awk -i inplace edits files in place")
		}
		if strings.Contains(s, "system") || strings.Contains(s, "|") {
			x.add(risk.High, ShellExec, RuleRunsProgram, "the awk program runs commands")
			return
		}
		if strings.Contains(s, ">") && (strings.Contains(s, "print") || strings.Contains(s, "printf")) && strings.Contains(s, "\"") {
			for _, l := range lits {
				if strings.Contains(s, "> \""+l+"\"") || strings.Contains(s, ">\""+l+"\"") || strings.Contains(s, ">> \""+l+"\"") || strings.Contains(s, ">>\""+l+"\"") {
					x.write(shell.Word{Value: l, Known: true}, false, ShellExec)
				}
			}
			x.add(risk.Medium, ShellExec, ruleFileChange, "the awk program may write files")
			return
		}
		if len(p.Operands) > 1 {
			x.readOps(p.Operands[1:])
		}
		x.add(risk.Low, FileRead, ruleAllowList, "awk only reads")
		return
	}
	if x.name == "perl" || x.name == "ruby" {
		inPlace := false
		for _, a := range x.args {
			if a.Known && strings.HasPrefix(a.Value, "-") && !strings.HasPrefix(a.Value, "--") && strings.ContainsRune(a.Value, 'i') && !strings.ContainsAny(a.Value[1:2], "eEMmIrx") {
				inPlace = true
			}
		}
		if inPlace {
			seen := false
			for _, a := range x.args {
				if a.Value == w.Value && !seen {
					seen = true
					continue
				}
				if seen && !strings.HasPrefix(a.Value, "-") {
					x.write(a, false, ShellExec)
				}
			}
			x.add(risk.Medium, ShellExec, ruleFileChange, x.name+" -i edits files in place")
		}
	}
	for _, k := range []string{"system", "exec", "popen", "subprocess", "spawn", "child_process", "shutil", "rmtree", "remove", "unlink", "rmdir", "rename", "chmod", "chown", "kill", "socket", "urllib", "requests", "http", "fetch", "open(", "write", "eval", "import os", "require(", "`", "fs.", "file_put", "curl", "smtplib", "environ", "getenv", "process.env", "lwp", "net::", "io::"} {
		if strings.Contains(low, k) {
			x.add(risk.High, ShellExec, ruleInlineCode, x.name+" inline code that can change files, run programs or reach the network ("+k+")")
			return
		}
	}
	x.add(risk.Medium, ShellExec, ruleInlineCode, x.name+" runs inline code")
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

func containsAny(s string, ks []string) bool {
	for _, k := range ks {
		if strings.Contains(s, k) {
			return true
		}
	}
	return false
}

// codeCatastrophe finds the plain catastrophes in inline code; see code.
func (x *cmdCtx) codeCatastrophe(low string, lits []string, awk bool) {
	ps := powerShellCommand(x.name, low)
	if (containsAny(low, codeRuns) || ps != "") && x.r.depth < shell.MaxDepth {
		progs := append(append([]string{}, lits...), strings.Join(lits, " "))
		if len(lits) > 0 && containsAny(low, codeHome) {
			// system("rm", "-rf", $ENV{HOME}): the list's words, the home directory last.
			progs = append(progs, strings.Join(lits, " ")+" ~")
		}
		if ps != "" {
			progs = append(progs, ps) // PowerShell is a shell: its command line, as a POSIX one
		}
		for _, prog := range progs {
			if why := x.shellCritical(prog); why != "" {
				x.add(risk.Critical, ShellExec, ruleInlineCodeCatastrophe, x.name+" inline code runs "+quoteRaw(prog)+": "+why)
				return
			}
		}
	}
	if containsAny(low, codeRmTree) && !awk {
		if containsAny(low, codeHome) {
			x.add(risk.Critical, ShellExec, ruleCatastrophe, x.name+" inline code deletes a tree named by the home directory or the environment")
			return
		}
		for _, l := range lits {
			v := l
			if v == "~" || strings.HasPrefix(v, "~/") {
				v = x.c.home + v[1:]
			}
			for _, t := range resolve(shell.Word{Value: v, Known: v != ""}, x.cmd.Dir, true) {
				if why := x.c.prot.catastrophic(t); why != "" {
					x.add(risk.Critical, ShellExec, ruleCatastrophe, x.name+" inline code deletes "+why)
					return
				}
				if hit := x.c.prot.hit(t); hit != "" && strings.Contains(v, "/") {
					x.add(risk.Critical, ShellExec, ruleSelfProtection, x.name+" inline code deletes "+t.path+", which reaches "+hit)
					return
				}
			}
		}
	}
	modules := ""
	for _, a := range x.args {
		if strings.HasPrefix(a.Value, "-M") || strings.HasPrefix(a.Value, "-r") {
			modules += strings.ToLower(a.Value) + " "
		}
	}
	if containsAny(low, codeNetwork) || containsAny(modules, codeNetwork) || containsAny(modules, []string{"http", "net::", "socket", "uri"}) {
		local, external := false, false
		for _, l := range lits {
			ll := strings.ToLower(l)
			if strings.Contains(ll, "://") || ll == "localhost" || strings.HasPrefix(ll, "127.") || ll == "::1" {
				if isLocalURL(l) {
					local = true
				} else {
					external = true
				}
			} else if strings.Contains(ll, ".") && !strings.ContainsAny(ll, " /") && strings.Count(ll, ".") >= 1 && hostLike(ll) {
				external = true // "evil.com"
			}
		}
		if external || !local && containsAny(low, codeCalls) {
			x.add(risk.Critical, ShellExec, ruleNetworkExternal, x.name+" inline code talks to the network, to an address that is not (only) local: external communication, blocked at any trust")
		}
	}
}

// hostLike: a literal shaped like a domain name (letters, digits, dots, dashes, a letter TLD).
func hostLike(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == ':') {
			return false
		}
	}
	tld := s[strings.LastIndexByte(s, '.')+1:]
	if i := strings.IndexByte(tld, ':'); i >= 0 {
		tld = tld[:i]
	}
	if len(tld) < 2 {
		return false
	}
	for i := 0; i < len(tld); i++ {
		if tld[i] < 'a' || tld[i] > 'z' {
			return false
		}
	}
	switch tld {
	case "py", "js", "json", "txt", "md", "go", "rb", "pl", "sh", "csv", "log", "yaml", "yml", "toml", "html", "xml", "ts", "tsx", "jsx", "css", "cfg", "ini", "lock", "mod", "sum", "env", "path", "os", "sys", "get", "post", "read", "write", "load", "loads", "dumps", "dump", "split", "join", "strip", "format", "lower", "upper", "items", "keys", "values", "append", "exists", "name", "text", "content", "status", "code", "headers", "data", "body":
		return false
	}
	return true
}

// shellCritical judges prog as a shell program and returns why it is critical, leaving aside
// what only says it cannot be known (inline code is judged for that on its own).
func (x *cmdCtx) shellCritical(prog string) string {
	if strings.TrimSpace(prog) == "" {
		return ""
	}
	cwd := x.dir()
	for _, p := range x.c.verdicts(x.r, prog, langShell, cwd, sink{noPerson: true}).parts {
		if p.risk != risk.Critical {
			continue
		}
		switch p.reason.Rule {
		case ruleDynamicCommand, ruleDynamicProgram, ruleProgramFromStdin, ruleSelfProtectionUnknownTarget, ruleNestingTooDeep, ruleTooLong, ruleTooManyCommands, ruleSecretVariable:
			continue
		}
		return p.reason.Detail
	}
	return ""
}

// literals returns the quoted strings of inline code ('…', "…", `…`), a bounded number.
func literals(s string) []string {
	var out []string
	for i := 0; i < len(s) && len(out) < 64; i++ {
		q := s[i]
		if q != '\'' && q != '"' && q != '`' {
			continue
		}
		var b strings.Builder
		j := i + 1
		for ; j < len(s) && s[j] != q; j++ {
			if s[j] == '\\' && j+1 < len(s) {
				j++
				switch s[j] {
				case 'n':
					b.WriteByte('\n')
					continue
				case 't':
					b.WriteByte('\t')
					continue
				}
			}
			if b.Len() < 4096 {
				b.WriteByte(s[j])
			}
		}
		out = append(out, b.String())
		i = j
	}
	return out
}
