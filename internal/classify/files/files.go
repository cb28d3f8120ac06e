package files

import (
	"path"
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/command"
	"github.com/oath-harness/oath-harness/internal/nameglob"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// ProtectedOperand: a program not known to only read, given a protected path, may write it,
// lock it (flock … sleep holds the trust file's lock and every record fails) or hand it on.
func ProtectedOperand(x *kernel.Command) {
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

// ReadOnly judges a command of the allow list (readOnlySpecs): low unless one of its options
// makes it write a file (judged as a write), run a program (high, and the program analysed) or
// change something else (medium). It stays low exactly when ReadOnly says so, shell builtins
// aside.
func ReadOnly(x *kernel.Command, row command.Row) {
	n := x.Name
	sp := row.Spec
	argv := make([]string, len(x.Cmd.Args))
	for i, a := range x.Cmd.Args {
		argv[i] = a.Value
	}
	p := sp.Parse(x.Args)
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
				x.Env.Nested(*x, w.Value, n+" "+optName(o))
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
		x.ReadOps(ops)
		if p.Has('r', "recursive") || p.Has('R', "dereference-recursive") || n == "rg" || n == "ag" || n == "ack" {
			if len(ops) == 0 && !x.Cmd.Stdin {
				ops = []shell.Word{{Value: ".", Known: true}} // cd ~/.ssh && grep -r foo: where it runs
			}
			for _, o := range ops {
				x.ReadTree(o) // grep -r . ~/.ssh
			}
		}
	case "cat", "head", "tail", "less", "more", "wc", "file", "stat", "nl", "tac", "od", "hexdump", "diff", "cmp", "comm", "md5sum", "sha1sum", "sha256sum", "sha512sum", "cksum", "strings", "zcat", "bat", "sort", "uniq", "xxd":
		x.ReadOps(p.Operands)
	}
	x.ReadNamesFrom() // find ~/.ssh | xargs cat
	x.Add(risk.Low, kernel.FileRead, kernel.RuleAllowList, n+" only reads")
}

// DeclPrints reports declare, export or typeset printing variables (-p, no assignment):
// export -p is env, declare -p NAME is printenv NAME.
func DeclPrints(x *kernel.Command) bool {
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

func Printenv(x *kernel.Command) {
	p := command.PrintenvOptions.Parse(x.Args)
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

func Rm(x *kernel.Command) {
	p := x.Prog().Spec.Parse(x.Args)
	recursive := p.Has('r', "recursive") || p.Has('R')
	for _, o := range p.Operands {
		if recursive || x.Name == "shred" {
			x.Destroy(o, "recursive deletion")
		}
		x.Write(o, recursive, kernel.ShellExec)
		x.Lose(o, recursive, "deletes")
		if !o.Known && recursive {
			x.AddUnknown(risk.Critical, kernel.ShellExec, kernel.RuleCatastrophe, "recursive deletion of "+kernel.QuoteRaw(o.Value)+", which cannot be known statically (it could be / or ~)",
				kernel.Unknown{What: kernel.UnknownTree, Tree: o.Value})
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

func Chmod(x *kernel.Command) {
	p := x.Prog().Spec.Parse(x.Args)
	recursive := p.Has('R', "recursive")
	ops := p.Operands
	if _, ok := p.Value("reference"); !ok && len(ops) > 0 && x.Name != "chattr" && !minusMode(x) {
		ops = ops[1:] // the mode or owner
	}
	for _, o := range ops {
		if recursive {
			x.Destroy(o, "recursive permission change")
			if !o.Known {
				x.AddUnknown(risk.Critical, kernel.ShellExec, kernel.RuleCatastrophe, "recursive permission change of "+kernel.QuoteRaw(o.Value)+", which cannot be known statically", kernel.Unknown{What: kernel.UnknownValue})
			}
		}
		x.Write(o, recursive, kernel.ShellExec)
	}
	x.Add(risk.High, kernel.FileWrite, kernel.RuleDenyList, x.Name+" changes permissions or ownership")
}

// minusMode reports a chmod whose mode takes permissions away (chmod -x F, chmod -w,g+r F):
// spelled like an option, so every operand is a file.
func minusMode(x *kernel.Command) bool {
	if x.Name != "chmod" {
		return false
	}
	for _, a := range x.Args {
		if a.Known && len(a.Value) > 1 && a.Value[0] == '-' && strings.Trim(a.Value[1:], "rwxXst,ugoa+-=0123456789") == "" {
			return true
		}
	}
	return false
}

// CopyDest is the destination of cp, install, mv or ln as written (-t DIR, or the last of
// two operands or more): a name written, not read.
func CopyDest(x *kernel.Command) (string, bool) {
	switch x.Prog().Judge {
	case command.Copy, command.Move, command.Link:
	default:
		return "", false
	}
	p := command.Lookup("cp").Spec.Parse(x.Args)
	if d, ok := p.Value("t", "target-directory"); ok {
		return d.Value, d.Known
	}
	if len(p.Operands) < 2 {
		return "", false
	}
	d := p.Operands[len(p.Operands)-1]
	return d.Value, d.Known
}

// CopyOrMove judges mv (move: the sources are removed too) and cp/install.
func CopyOrMove(x *kernel.Command, move bool) {
	p := x.Prog().Spec.Parse(x.Args)
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
	x.Lose(dest, false, "overwrites") // a directory there is written into, not over (git/losses.go)
	// runfiles/planted.go: a copy into a file a tool runs is judged by the source's text.
	x.Env.PlantCopies(*x, ops, dest, hasT, false)
	for _, s := range ops {
		if b := path.Base(s.Value); s.Known && !move && (command.Has(b, command.Harness) || x.Env.HookPath(*x, s) != "") {
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
			x.Env.MoveInto(*x, s, dest)
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

func Ln(x *kernel.Command) {
	p := x.Prog().Spec.Parse(x.Args)
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
	if hasDir || len(ops) > 0 && p.Has('T', "no-target-directory") { // runfiles/planted.go: a link where a tool runs code
		x.Env.PlantCopies(*x, ops, dir, p.Has('t', "target-directory"), p.Has('s', "symbolic") && !p.Has('r', "relative"))
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

func Sed(x *kernel.Command) {
	p := x.Prog().Spec.Parse(x.Args)
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
		if text, ok := x.ScriptFile(f); ok {
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
		x.ReadOps(ops)
		x.Add(risk.Low, kernel.FileRead, kernel.RuleAllowList, "sed without -i only prints")
		return
	}
	// What the files will hold is not read: a file run later is code not read (kernel.Rewrite).
	text := ""
	for _, sc := range scripts {
		if !sc.Known {
			text = ""
			break
		}
		text += sc.Value + "\n"
	}
	for _, o := range ops {
		x.Rewrite(o, kernel.ShellExec, "sed -i changes", text)
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
					x.Env.Nested(*x, prog, "sed e")
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
						x.Env.Nested(*x, rep, "sed s///e")
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

func Dd(x *kernel.Command) {
	var in, out *shell.Word
	defer func() {
		if in != nil && out != nil { // runfiles/planted.go: dd if=x of=.git/hooks/pre-commit
			x.Env.PlantCopies(*x, []shell.Word{*in}, *out, false, false)
		} else if out != nil { // what its input carries, not read (kernel.Rewrite)
			x.UnreadPlants(*out, "dd writes what its input carries into", "")
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

func Rsync(x *kernel.Command) {
	p := x.Prog().Spec.Parse(x.Args)
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
		if !remote { // runfiles/planted.go: rsync x .git/hooks/pre-commit, rsync -a hooks/ .husky/
			srcs := p.Operands[:len(p.Operands)-1]
			x.Env.PlantCopies(*x, srcs, dest, len(srcs) > 1 || strings.HasSuffix(dest.Value, "/"), false)
		}
	}
	if p.Has(0, "delete", "delete-before", "delete-after", "delete-during", "delete-excluded", "remove-source-files") {
		x.Destroy(dest, "rsync --delete")
		x.Lose(dest, true, "deletes files in")
		x.Add(risk.High, kernel.ShellExec, kernel.RuleDenyList, "rsync deletes files")
	}
	if h := kernel.RemoteHost(dest.Value); !dest.Known || h != "" && !kernel.LocalHost(h) {
		x.SendsCredential(p.Operands[:len(p.Operands)-1], dest)
	}
	if remote {
		x.Add(risk.High, kernel.ShellExec, kernel.RuleDenyList, "rsync to or from another machine")
		return
	}
	x.Add(risk.Medium, kernel.ShellExec, kernel.RuleFileChange, "rsync copies files")
}

func Tar(x *kernel.Command) {
	p := x.Prog().Spec.Parse(x.Args)
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
		x.Env.ExtractsInto(*x, dir)
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

func Unpack(x *kernel.Command) {
	p := x.Prog().Spec.Parse(x.Args)
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
	x.Env.ExtractsInto(*x, dir)
	x.Add(risk.Medium, kernel.ShellExec, kernel.RuleFileChange, x.Name+" extracts files")
}

// Pack judges zip: the archive is written, what it packs is read (directories whole with -r):
// zip -r k.zip ~/.ssh reads the keys.
func Pack(x *kernel.Command) {
	p := x.Prog().Spec.Parse(x.Args)
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

func Compress(x *kernel.Command) {
	p := x.Prog().Spec.Parse(x.Args)
	if p.Has('c', "stdout") || p.Has('l', "list") || p.Has('t', "test") {
		x.Add(risk.Low, kernel.FileRead, kernel.RuleAllowList, x.Name+" to stdout")
		return
	}
	for _, o := range p.Operands {
		x.Write(o, false, kernel.ShellExec)
	}
	x.Add(risk.Medium, kernel.ShellExec, kernel.RuleFileChange, x.Name+" replaces files")
}

func FindCmd(x *kernel.Command) {
	var starts []shell.Word
	exec := false
	del := false
	skip := 0 // the arguments of the last primary, and an -exec's command: not primaries
	// name is what every -delete's name test lets through (shell.FindName), unless whole.
	name, whole := "", false
	for i, a := range x.Args {
		if skip > 0 || exec && a.Known && (a.Value == ";" || a.Value == "+") {
			skip = max(skip-1, 0)
			exec = exec && !(a.Known && (a.Value == ";" || a.Value == "+"))
			continue
		}
		if exec {
			continue
		}
		if !a.Known {
			starts = append(starts, a)
			continue
		}
		v := a.Value
		skip = findArgs(v)
		switch v {
		case "-exec", "-execdir", "-ok", "-okdir":
			exec = true // the command it runs is a part of its own (package shell)
		case "-delete":
			if n, ok := shell.FindName(x.Args, i); ok && (!del || n == name) {
				name = n
			} else {
				whole = true
			}
			del = true
		case "-fprint", "-fprint0", "-fprintf", "-fls":
			x.Add(risk.Medium, kernel.ShellExec, kernel.RuleFileChange, "find "+v+" writes a file")
			if i+1 < len(x.Args) {
				x.Write(x.Args[i+1], false, kernel.ShellExec)
			} else {
				x.Write(shell.Word{Value: "find " + v + " without a file"}, false, kernel.ShellExec)
			}
		}
		if v == "-fprintf" {
			skip = 2 // its file and its format
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
			if !whole && shell.FindStart(s) {
				// Only what the name test lets through, and a matched directory only when it
				// is empty: find . -name '*.pyc' -delete is no deletion of the project.
				w := shell.Word{Value: nameglob.Join(s.Value, name), Known: true, Glob: true}
				x.Write(w, false, kernel.ShellExec)
				x.Destroy(w, "find -delete")
				x.Lose(w, false, "deletes")
				continue
			}
			w := shell.Word{Value: strings.TrimSuffix(s.Value, "/") + "/**", Known: s.Known, Glob: true}
			x.Write(w, true, kernel.ShellExec)
			x.Destroy(s, "find -delete")
			x.Lose(s, true, "deletes files in")
		}
		x.Add(risk.High, kernel.ShellExec, kernel.RuleDenyList, "find -delete deletes files")
		return
	}
	x.ReadOps(starts)
	x.Add(risk.Low, kernel.FileRead, kernel.RuleAllowList, "find only lists")
}

// findArgs is how many arguments find's primary v takes: find . -name -delete names the
// file "-delete", it deletes nothing (GNU findutils' parser.c). An unknown primary takes none,
// so a -delete after it still deletes.
func findArgs(v string) int {
	switch v {
	case "-amin", "-anewer", "-atime", "-cmin", "-cnewer", "-ctime", "-fstype", "-gid", "-group",
		"-ilname", "-iname", "-inum", "-ipath", "-iregex", "-iwholename", "-links", "-lname",
		"-mmin", "-mtime", "-name", "-newer", "-path", "-perm", "-regex", "-samefile", "-size",
		"-type", "-uid", "-used", "-user", "-wholename", "-xtype", "-context", "-maxdepth",
		"-mindepth", "-regextype", "-files0-from", "-printf", "-fprint", "-fprint0", "-fls":
		return 1
	}
	if strings.HasPrefix(v, "-newer") && len(v) == len("-newerXY") {
		return 1
	}
	return 0
}
