package shell

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/oath-harness/oath-harness/internal/command"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// IsInterpreter reports whether name runs code given inline or on stdin.
// The names are package command's table (InlineCode).
func IsInterpreter(name string) bool { return command.Has(name, command.InlineCode) }

func interpreterRow(row command.Row) bool { return row.Has(command.InlineCode) }

func isPython(name string) bool { return command.Python(name) }

// IsShell reports whether name is a shell interpreter (package command's table: ShellCode).
func IsShell(name string) bool { return command.Has(name, command.ShellCode) }

func shellRow(row command.Row) bool { return row.Has(command.ShellCode) }

// unwrap sees through wrappers until the real command, then emits it. dir is where it runs.
func (w *walker) unwrap(args []Word, via []string, src string, stmt *syntax.Stmt, dir Dir) {
	for guard := 0; guard < 64 && len(args) > 0; guard++ {
		if !args[0].Known || globName(args[0]) {
			// An unknown program is the dangerous case: at high, earned trust would run anything.
			w.a.dynamicName(src)
			w.emit(Cmd{Args: args, Via: via, Dir: dir, Src: src})
			return
		}
		c := Cmd{Args: args, Via: via, Dir: dir, Src: src}
		var from *syntax.Stmt
		c.Input, from = w.input(stmt)
		c.StdinFile = w.stdinFile(c.Input, stmt, from)
		name := c.Name()
		row := command.Lookup(name) // what command's table says of it, looked up once
		switch {
		case name == "find":
			w.find(args, via, src, dir)
			return
		case name == "xargs":
			w.xargs(args, via, src, dir)
			return
		case shellRow(row):
			w.shell(args, via, src, stmt, dir)
			return
		case interpreterRow(row) && !(name == "bun" && len(args) > 1 && (args[1].Value == "x" || args[1].Value == "exec")):
			// (bun x and bun exec are a package runner's: below)
			w.interpreter(args, via, src, stmt, dir)
			return
		case name == "eval":
			w.nested(joinArgs(args[1:]), !allKnown(args[1:]), append(via, "eval"), src, dir, true)
			w.emit(Cmd{Args: args[:1], Via: via, Dir: dir, Src: src, Carrier: true})
			return
		case name == "trap":
			w.trap(args, via, src, dir)
			return
		case name == "alias":
			for _, a := range args[1:] {
				if n, v, ok := strings.Cut(a.Value, "="); ok {
					w.nested(v, !a.Known, append(via, "alias"), src, dir, false)
					if a.Known && n != "" {
						if w.aliases == nil {
							w.aliases = map[string]string{}
						}
						w.aliases[n] = v
					}
				}
			}
			w.emit(c)
			return
		case name == "su":
			w.su(args, via, src, dir)
			return
		case name == "flock":
			if w.flock(args, via, src, stmt, dir) {
				return
			}
		case name == "watch":
			w.watch(args, via, src, stmt, dir)
			return
		case name == "script":
			if w.script(args, via, src, dir) {
				return
			}
		case name == "ssh":
			w.ssh(args, via, src, dir, c.Input)
			return
		case name == "parallel":
			w.parallel(args, via, src, dir)
			return
		case name == "make" || name == "gmake":
			w.makefile(args, via, src, stmt, dir)
			return
		case name == "source" || name == ".":
			if len(args) > 1 {
				if prog, ok, dyn := w.fileProgram(args[1], stmt); ok {
					w.nested(prog, dyn, append(append([]string{}, via...), name), src, dir, true)
					w.emit(Cmd{Args: args[:1], Via: via, Dir: dir, Src: src, Carrier: true})
					return
				}
			}
		case name == "command" && len(args) > 1 && (args[1].Value == "-v" || args[1].Value == "-V"):
			w.emit(c) // a lookup, nothing runs
			return
		}
		if row.Is != "" {
			// kubecolor get pods: kubectl get pods (command's table, Is).
			via = append(append([]string{}, via...), name)
			args = append([]Word{{Value: row.Is, Known: true}}, args[1:]...)
			continue
		}
		if row.Carries != "" {
			// microk8s kubectl delete ns prod: kubectl delete ns prod (command's table, Carries).
			if at := verbAt(args, carriedNames(row.Carries)); at > 0 {
				prog := carriedProgram(row.Carries, args[at].Value)
				rest := args[at+1:]
				if len(rest) > 0 && rest[0].Known && rest[0].Value == "--" {
					rest = rest[1:] // minikube kubectl -- get pods
				}
				via = append(append([]string{}, via...), joinArgs(args[:at+1]))
				args = append([]Word{{Value: prog, Known: true}}, rest...)
				continue
			}
		}
		if verbs, direct := runVerbs(name, row.Through); verbs != "" || direct {
			if code, ok := npxCall(args, name); ok {
				// npx -c 'CMD', npm exec -c 'CMD', bun exec 'CMD': a shell program of its own.
				w.nested(code.Value, !code.Known, append(append([]string{}, via...), name+" -c"), src, dir, false)
				if name == "bun" {
					w.emit(Cmd{Args: args[:2], Via: via, Dir: dir, Src: src, Carrier: true})
					return
				}
			}
			if verb, rest, loose := through(args, verbs, direct); rest != nil {
				// uv run CMD, bundle exec CMD, conda run -n env CMD, npx CMD: the runner itself
				// (it may sync its environment, or download a package, first) and CMD, judged
				// exactly as if typed.
				w.emit(Cmd{Args: args[:verb+1], Via: via, Dir: dir, Src: src})
				via = append(append([]string{}, via...), joinArgs(args[:verb+1]))
				if loose && len(rest) > 1 {
					alt := rest[1:] // the last option may have taken the word (tox exec -e py -- CMD)
					if alt[0].Known && alt[0].Value == "--" {
						alt = alt[1:]
					}
					if len(alt) > 0 {
						w.unwrap(alt, via, src, stmt, dir)
					}
				}
				if direct || verbs != row.Through {
					rest = PackageCommand(rest) // npx @anthropic-ai/claude-code: claude
				}
				args = rest
				continue
			}
		}
		if !row.Has(command.Wraps) { // the wrappers: command's table, Wraps
			w.emit(c)
			return
		}
		rest, inner, nd := w.skip(args, row.Spec, name, src, dir)
		if inner != "" {
			w.nested(inner, false, append(via, name+" -S"), src, nd, false)
		}
		if len(rest) == 0 {
			w.emit(c) // the wrapper alone: sudo -i, env, nohup …
			return
		}
		via = append(append([]string{}, via...), name)
		if row.Has(command.Loose) {
			// A wrapper whose options we do not model fully: an option's value may have been
			// taken for the command. Also try the command one word further on.
			if len(rest) > 1 && strings.HasPrefix(args[len(args)-len(rest)-1].Value, "-") {
				w.unwrap(rest[1:], via, src, stmt, nd)
			}
		}
		args, dir = rest, nd
	}
	w.finding_("unwrap_limit", risk.High, src, "too many wrappers")
}

// runVerbs are the verbs after which a program runs the next word as a command in its
// environment (command's table, Through: uv run, bundle exec), and the package runners that
// run their first operand (direct: npx, bunx) or after dlx / exec / x.
func runVerbs(name, through string) (verbs string, direct bool) {
	switch name {
	case "npx", "bunx", "pnpx":
		return "", true
	case "npm":
		return "exec|x", false
	case "pnpm", "yarn":
		return through + "|dlx", false
	case "bun":
		return "x", false // bun x: bunx
	}
	return through, false
}

// through finds a runner's run-verb (one of verbs, or none when direct) and the command after
// it and its options: verb is the verb's index (0 when direct), rest the command (nil when
// there is none), loose whether the last option before it may have taken it as its value.
// Options before the verb are passed over (uv --directory d run), the value of the last one too.
func through(args []Word, verbs string, direct bool) (int, []Word, bool) {
	at := 0
	if !direct {
		at = verbAt(args, verbs)
	}
	if at < 0 {
		return 0, nil, false
	}
	loose := false
	i := at + 1
	for ; i < len(args); i++ {
		v := args[i].Value
		if !args[i].Known || !strings.HasPrefix(v, "-") || v == "-" {
			break
		}
		if v == "--" {
			i++
			loose = false
			break
		}
		loose = !strings.Contains(v, "=")
	}
	if i >= len(args) {
		return 0, nil, false
	}
	return at, args[i:], loose
}

// verbAt is the index of the first of a program's operands when it is one of verbs ("|"
// separated; the last word of a verb of two words, uv tool run), or -1. Options before it are
// passed over (uv --directory d run), the value of the last one too.
func verbAt(args []Word, verbs string) int {
	for i := 1; i < len(args) && i < 8; i++ {
		v := args[i].Value
		if args[i].Known && v != "" && !strings.Contains(v, "|") && strings.Contains("|"+verbs+"|", "|"+v+"|") {
			return i
		}
		if i+1 < len(args) && args[i].Known && args[i+1].Known && v != "" && !strings.ContainsAny(v+args[i+1].Value, "| ") &&
			strings.Contains("|"+verbs+"|", "|"+v+" "+args[i+1].Value+"|") { // a verb of two words: uv tool run
			return i + 1
		}
		if !args[i].Known || !strings.HasPrefix(v, "-") {
			// the value of an option before the verb (poetry -C dir run), else no verb
			if i > 1 && strings.HasPrefix(args[i-1].Value, "-") && !strings.Contains(args[i-1].Value, "=") {
				continue
			}
			return -1
		}
	}
	return -1
}

// carriedNames are the names of a row's Carries ("kubectl|helm3=helm": kubectl|helm3).
func carriedNames(carries string) string {
	if !strings.Contains(carries, "=") {
		return carries
	}
	var names []string
	for _, e := range strings.Split(carries, "|") {
		n, _, _ := strings.Cut(e, "=")
		names = append(names, n)
	}
	return strings.Join(names, "|")
}

// carriedProgram is the program a row's Carries runs for name (helm3=helm: helm).
func carriedProgram(carries, name string) string {
	for _, e := range strings.Split(carries, "|") {
		if n, prog, ok := strings.Cut(e, "="); ok && n == name {
			return prog
		}
	}
	return name
}

// packageBins are the commands that packages a package runner fetches and runs are known by
// in the catalogue: run through npx they are judged as those commands. rimraf is rm -rf.
var packageBins = map[string][]string{
	"@anthropic-ai/claude-code": {"claude"},
	"@google/gemini-cli":        {"gemini"},
	"@openai/codex":             {"codex"},
	"@qwen-code/qwen-code":      {"qwen"},
	"@sourcegraph/amp":          {"amp"},
	"rimraf":                    {"rm", "-rf"},
}

// PackageCommand is the command line a package runner runs for rest (a package, then its
// arguments): a package of packageBins (any version) as its command, rest itself otherwise.
// classify asks it too, for the program yarn run or bun run finds in node_modules/.bin.
func PackageCommand(rest []Word) []Word {
	if len(rest) == 0 || !rest[0].Known {
		return rest
	}
	name := rest[0].Value
	if i := strings.LastIndexByte(name, '@'); i > 0 {
		name = name[:i] // @scope/pkg@1.2.3, pkg@latest
	}
	bin, ok := packageBins[name]
	if !ok {
		return rest
	}
	out := make([]Word, 0, len(bin)+len(rest)-1)
	for _, b := range bin {
		out = append(out, Word{Value: b, Known: true})
	}
	return append(out, rest[1:]...)
}

// npxCall returns the shell program of npx -c / --call (and npm exec -c, npm x -c), and of
// bun exec (its operand is a script for Bun Shell, which reads bash's syntax).
func npxCall(args []Word, name string) (Word, bool) {
	if name == "bun" {
		if len(args) > 2 && args[1].Known && args[1].Value == "exec" {
			return args[2], true
		}
		return Word{}, false
	}
	i := 1
	if name != "npx" && name != "bunx" && name != "pnpx" {
		if len(args) < 2 || args[1].Value != "exec" && args[1].Value != "x" && args[1].Value != "dlx" {
			return Word{}, false
		}
		i = 2
	}
	for ; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "--":
			return Word{}, false
		case (v == "-c" || v == "--call") && i+1 < len(args):
			return args[i+1], true
		case strings.HasPrefix(v, "--call="):
			return Word{Value: v[len("--call="):], Known: args[i].Known}, true
		}
	}
	return Word{}, false
}

func (w *walker) finding_(rule string, lvl risk.Level, src, detail string) {
	w.a.finding(rule, lvl, src, detail)
}

func quote(s string) string { return "\"" + s + "\"" }

func allKnown(ws []Word) bool {
	for _, a := range ws {
		if !a.Known {
			return false
		}
	}
	return true
}

// skip passes over a wrapper's options and returns its command. It also returns the program
// of env -S and the directory of env -C / sudo -D.
func (w *walker) skip(args []Word, sp command.Spec, name, src string, dir Dir) (rest []Word, inner string, nd Dir) {
	nd = dir
	i := 1
	setDir := func(v Word) {
		if v.Known {
			var d Dir
			for _, p := range dir.Paths {
				d.Paths = append(d.Paths, Abs(p, v.Value))
			}
			d.Unknown = dir.Unknown
			nd = d
		} else {
			nd = Dir{Paths: dir.Paths, Unknown: true}
		}
	}
	for i < len(args) {
		a := args[i]
		if !a.Known {
			break
		}
		v := a.Value
		if v == "--" {
			i++
			break
		}
		if sp.Assign && isAssignWord(v) {
			n, val, _ := strings.Cut(v, "=")
			w.a.name(Name{Name: n, Assign: true, Value: Word{Value: val, Known: a.Known}, Src: clip(src)})
			i++
			continue
		}
		if strings.HasPrefix(v, "--") && len(v) > 2 {
			opt, val, hasVal := strings.Cut(v[2:], "=")
			takes := slices.Contains(sp.Long, opt)
			if takes && !hasVal && i+1 < len(args) {
				val = args[i+1].Value
				i++
			}
			if name == "env" && opt == "split-string" {
				inner = val
			}
			if (opt == "chdir" || opt == "working-directory") && takes {
				setDir(Word{Value: val, Known: true})
			}
			i++
			continue
		}
		if strings.HasPrefix(v, "-") && len(v) > 1 && !(name == "nice" && isDigits(v[1:])) {
			for j := 1; j < len(v); j++ {
				ch := v[j]
				if strings.IndexByte(sp.Short, ch) < 0 {
					continue
				}
				val := v[j+1:]
				if val == "" && i+1 < len(args) {
					i++
					val = args[i].Value
					if (name == "env" && ch == 'C') || (name == "sudo" && ch == 'D') {
						setDir(args[i])
					}
				} else if (name == "env" && ch == 'C') || (name == "sudo" && ch == 'D') {
					setDir(Word{Value: val, Known: true})
				}
				if name == "env" && ch == 'S' {
					inner = val
				}
				if (name == "time" || name == "strace" || name == "ltrace") && ch == 'o' {
					w.a.redirs.add(Redir{Op: name + " -o", Target: Word{Value: val, Known: true}, Write: true, Dir: dir, Src: clip(src), Depth: w.depth})
				}
				break
			}
			i++
			continue
		}
		if name == "nice" && strings.HasPrefix(v, "-") {
			i++
			continue
		}
		break
	}
	i += sp.Positional
	if i > len(args) {
		i = len(args)
	}
	if name == "chroot" {
		nd = Dir{Paths: dir.Paths, Unknown: true}
	}
	return args[i:], inner, nd
}

func isAssignWord(s string) bool {
	name, _, ok := strings.Cut(s, "=")
	return ok && IsName(name)
}

// IsName reports a shell variable's name: a letter or _, then letters, digits and _.
func IsName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}

// nested analyses a second program. dynamic marks a program that was partly built from values
// unknown statically: what is known is still analysed, and the call is at least high.
func (w *walker) nested(prog string, dynamic bool, via []string, src string, dir Dir, shareDir bool) {
	if dynamic || strings.Contains(prog, Dyn) {
		// A value unknown statically is spliced into program text: it can be any program.
		w.a.finding(RuleDynamicProgram, risk.Critical, src, "a second program is built from values unknown statically")
	}
	end := w.a.program(prog, w.depth+1, dir, via, "")
	if shareDir {
		w.dir = union(w.dir, end)
	}
}

// stdinProgram returns the program a command reads from a heredoc or here-string, if any.
func (w *walker) stdinProgram(stmt *syntax.Stmt) (prog string, found, dynamic bool) {
	if stmt == nil {
		return "", false, false
	}
	for _, r := range stmt.Redirs {
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			if r.Hdoc == nil {
				return "", true, false
			}
			s, err := expand.Document(w.config(), r.Hdoc)
			if err != nil {
				return w.text(r.Hdoc), true, true
			}
			return s, true, !w.known(r.Hdoc)
		case syntax.WordHdoc:
			v := w.literal(r.Word)
			return v.Value, true, !v.Known
		case syntax.RdrIn:
			if t := w.literal(r.Word); t.Known && w.procs[t.Value] != nil {
				return w.fileProgram(t, nil)
			}
			return "", false, false
		}
	}
	if in, from := w.input(stmt); in == "pipe" {
		if text, ok := w.echoed(from); ok {
			return text, true, false
		}
	}
	return "", false, false
}

// fileProgram returns the program behind a script operand that is really a stream: /dev/stdin
// fed by a heredoc or an echo, or a process substitution that echoes known text.
func (w *walker) fileProgram(op Word, stmt *syntax.Stmt) (prog string, found, dynamic bool) {
	if !op.Known {
		return "", false, false
	}
	switch {
	case op.Value == "/dev/stdin" || op.Value == "-" || op.Value == "/proc/self/fd/0" || op.Value == "/dev/fd/0":
		return w.stdinProgram(stmt)
	case w.procs[op.Value] != nil:
		ps := w.procs[op.Value]
		if len(ps.Stmts) == 1 {
			if text, ok := w.echoed(ps.Stmts[0]); ok {
				return text, true, false
			}
		}
	}
	return "", false, false
}

// globName reports a command name whose last component is a pattern (/bin/r?): which program
// runs depends on the files present.
func globName(a Word) bool {
	if !a.Glob {
		return false
	}
	v := a.Value
	if i := strings.LastIndexByte(v, '/'); i >= 0 {
		v = v[i+1:]
	}
	if v == "[" || v == "[[" {
		return false // the test builtin: a lone [ is no pattern (bash matches it literally)
	}
	return strings.ContainsAny(v, "*?[")
}

// shell handles bash/sh/…: -c runs its operand, a file operand is a script, nothing is stdin.
func (w *walker) shell(args []Word, via []string, src string, stmt *syntax.Stmt, dir Dir) {
	name := (&Cmd{Args: args}).Name()
	cmode, stdin := false, false
	var operands []Word
	i := 1
	for ; i < len(args); i++ {
		v := args[i].Value
		if !args[i].Known {
			break
		}
		if v == "--" || v == "-" {
			i++
			break
		}
		if infoOnly(v) {
			w.emit(Cmd{Args: args, Via: via, Dir: dir, Src: src}) // bash --version: no program
			return
		}
		if strings.HasPrefix(v, "--") {
			if v == "--rcfile" || v == "--init-file" {
				i++
			}
			continue
		}
		if (strings.HasPrefix(v, "-") || strings.HasPrefix(v, "+")) && len(v) > 1 {
			if strings.ContainsRune(v[1:], 'c') {
				cmode = true
			}
			if strings.ContainsRune(v[1:], 's') {
				stdin = true
			}
			if strings.ContainsAny(v[1:], "oO") {
				i++
			}
			continue
		}
		break
	}
	operands = args[min(i, len(args)):] // sh -o with its value missing: i is past the end
	v := append(append([]string{}, via...), name)
	switch {
	case cmode && len(operands) > 0:
		w.nested(operands[0].Value, !operands[0].Known, append(v[:len(v):len(v)], name+" -c"), src, dir, false)
		w.emit(Cmd{Args: args[:1], Via: via, Dir: dir, Src: src, Carrier: true})
	case cmode:
		w.a.finding(RuleDynamicProgram, risk.High, src, name+" -c without a program")
		w.emit(Cmd{Args: args, Via: via, Dir: dir, Src: src})
	case len(operands) > 0 && !stdin:
		if prog, ok, dyn := w.fileProgram(operands[0], stmt); ok {
			w.nested(prog, dyn, append(v, name+" "+operands[0].Value), src, dir, false)
			w.emit(Cmd{Args: args[:1], Via: via, Dir: dir, Src: src, Carrier: true})
			return
		}
		in, _ := w.input(stmt)
		w.emit(Cmd{Args: args, Via: via, Dir: dir, Src: src, Input: in}) // a script file: classify judges it
	default:
		if prog, ok, dyn := w.stdinProgram(stmt); ok {
			w.nested(prog, dyn, append(v, name+" <<heredoc"), src, dir, false)
			w.emit(Cmd{Args: args[:1], Via: via, Dir: dir, Src: src, Carrier: true})
			return
		}
		w.emit(w.fromStdin(Cmd{Args: args, Via: via, Dir: dir, Src: src}, stmt))
	}
}

// interpreter records the inline code of python -c, perl -e, node -e … or a heredoc to them.
func (w *walker) interpreter(args []Word, via []string, src string, stmt *syntax.Stmt, dir Dir) {
	c := Cmd{Args: args, Via: via, Dir: dir, Src: src}
	name := c.Name()
	row := command.Lookup(name)
	flags := row.Inline
	awk := strings.HasSuffix(name, "awk")
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		if awk && (v == "-f" || strings.HasPrefix(v, "--file")) {
			w.emit(c) // the program is in a file
			return
		}
		if awk && (v == "-v" || v == "-F") {
			i++
			continue
		}
		if v == "-" && !awk {
			break // the program comes from stdin: a heredoc, or a pipe
		}
		if infoOnly(v) {
			w.emit(c) // python --version: prints and exits, reading no program
			return
		}
		if !strings.HasPrefix(v, "-") {
			if awk {
				c.setCode(args[i])
			}
			w.emit(c) // a script file, or awk's program
			return
		}
		if v == "--eval" || v == "--print" || v == "-Command" || v == "-command" {
			if i+1 < len(args) {
				c.setCode(args[i+1])
			}
			w.emit(c)
			return
		}
		if opt, code, ok := strings.Cut(v, "="); ok && (opt == "--eval" || opt == "--print") {
			c.setCode(Word{Value: code, Known: args[i].Known})
			w.emit(c)
			return
		}
		if row.Spec.TakesValue(v) {
			i++ // python -W ignore, node -r dotenv/config: a value, not the script
			continue
		}
		if v == "--test" || v == "--run" || v == "--v8-options" {
			w.emit(c) // node's test runner, node --run SCRIPT, a listing: no program of stdin
			return
		}
		if strings.HasPrefix(v, "--") {
			continue // a long option (node --inspect) holds no inline flag
		}
		if (name == "perl" || name == "ruby") && len(v) > 1 && strings.IndexByte("MmIrx", v[1]) >= 0 {
			if len(v) == 2 && v[1] != 'x' {
				i++ // -r json, -I lib: the value is the next word
			}
			continue // -MLWP::Simple: a module, not code
		}
		// A cluster of letters, read as getopt does, left to right: the first that takes a
		// value (an inline flag, python's m, a Spec.Short letter) takes the rest or the next word.
	cluster:
		for j := 1; j < len(v) && !awk; j++ {
			switch {
			case isPython(name) && v[j] == 'm':
				w.emit(c) // python -m MOD, -mMOD: a module, not code
				return
			case strings.IndexByte(flags, v[j]) >= 0:
				code := Word{Value: v[j+1:], Known: args[i].Known}
				if strings.Trim(code.Value, flags) == "" && i+1 < len(args) {
					if next := args[i+1].Value; len(next) > 1 && next[0] == '-' && strings.Trim(next[1:], flags) == "" {
						break cluster // node -p -e CODE: the next flag brings the code
					}
					code = args[i+1] // -c CODE, and node -pe CODE (print what -e evaluates)
				}
				c.setCode(code)
				w.emit(c)
				return
			case strings.IndexByte(row.Spec.Short, v[j]) >= 0:
				if j == len(v)-1 {
					i++ // -W VALUE
				}
				break cluster // -Ximporttime, -Wignore::ImportWarning: the rest is the value
			}
		}
	}
	if prog, ok, dyn := w.stdinProgram(stmt); ok {
		c.setCode(Word{Value: prog, Known: !dyn})
		w.emit(c)
		return
	}
	w.emit(w.fromStdin(c, stmt))
}

// infoOnly reports an option with which a shell or interpreter prints something and exits,
// reading no program (--version, --help).
func infoOnly(v string) bool {
	switch v {
	case "--version", "-V", "-version", "--help", "-h", "-help", "-?", "-VV":
		return true
	}
	return false
}

// fromStdin marks c as reading its program from stdin: where that comes from, and the
// script file when it is one (sh < FILE, cat FILE | sh).
func (w *walker) fromStdin(c Cmd, stmt *syntax.Stmt) Cmd {
	c.Stdin = true
	var from *syntax.Stmt
	c.Input, from = w.input(stmt)
	c.Script = w.stdinFile(c.Input, stmt, from)
	return c
}

// IsPrivileged reports a wrapper that runs its command as another user or root (package
// command's table: Privileged).
func IsPrivileged(name string) bool { return command.Has(name, command.Privileged) }
