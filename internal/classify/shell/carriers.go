package shell

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/oath-harness/oath-harness/internal/command"
	"github.com/oath-harness/oath-harness/internal/nameglob"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// find emits find itself (its expression without the -exec … ; spans, so that a -delete after
// one is still find's own) and each command of
// -exec/-execdir/-ok/-okdir. The file placeholder {} stands for anything under find's start
// directories, written as start/** so that classify sees where it can reach.
func (w *walker) find(args []Word, via []string, src string, dir Dir) {
	var starts []Word
	i := 1
	for ; i < len(args); i++ {
		v := args[i].Value
		if args[i].Known && (strings.HasPrefix(v, "-") || v == "(" || v == "!") {
			if v == "-H" || v == "-L" || v == "-P" || strings.HasPrefix(v, "-O") || v == "-D" {
				if v == "-D" {
					i++
				}
				continue
			}
			break
		}
		starts = append(starts, args[i])
	}
	if len(starts) == 0 {
		starts = []Word{{Value: ".", Known: true}}
	}
	own := append([]Word{}, args[:i]...)
	v2 := append(append([]string{}, via...), "find -exec")
	for j := i; j < len(args); j++ {
		v := args[j].Value
		if !(v == "-exec" || v == "-execdir" || v == "-ok" || v == "-okdir") {
			own = append(own, args[j])
			continue
		}
		k := j + 1
		for ; k < len(args); k++ {
			if args[k].Value == ";" || args[k].Value == "+" {
				break
			}
		}
		inner := args[j+1 : k]
		name, named := FindName(args[1:], j-1)
		named = named && findDeletes(inner)
		for _, s := range starts {
			sub := make([]Word, len(inner))
			for n, a := range inner {
				switch {
				case a.Value == "{}" && named && FindStart(s):
					// only the files the action's name test lets through (nameglob)
					a = Word{Value: nameglob.Join(s.Value, name), Known: true, Glob: true}
				case strings.Contains(a.Value, "{}"):
					a = Word{Value: strings.ReplaceAll(a.Value, "{}", strings.TrimSuffix(s.Value, "/")+"/**"), Known: s.Known && a.Known, Glob: true}
				}
				sub[n] = a
			}
			if len(sub) > 0 {
				w.unwrap(sub, v2, src, nil, dir)
			}
		}
		j = k
	}
	w.emit(Cmd{Args: own, Via: via, Dir: dir, Src: src})
}

// FindName is the -name pattern that every file find's action args[at] acts on matches, ok
// false when that cannot be told for certain: args are find's arguments after its name (start
// directories, then the expression). The action runs on a file only when the conjunction
// before it holds (find . -name '*.pyc' -delete), so a -name there narrows it; anything but a
// plain conjunction of filters before the action undoes that: -o and its alternatives, ! and
// -not, parentheses, another action (find . -delete -name x deletes everything), a test that
// is not a name (-path, -regex, -iname, each its own reading), an option that follows links
// (-L, -H, -follow: the tree is not the one on disk below the start). A pattern that matches
// every name (-name '*'), or "." or "..", or that fnmatch and path.Match read differently
// (brackets, backslashes) is no narrowing either.
func FindName(args []Word, at int) (string, bool) {
	if at < 0 || at >= len(args) || !findAction(args[at].Value) {
		return "", false
	}
	i := 0
	for i < at && !(args[i].Known && (strings.HasPrefix(args[i].Value, "-") || args[i].Value == "(" || args[i].Value == "!")) {
		i++ // the start directories
	}
	name, named := "", false
	for ; i < at; i++ {
		if !args[i].Known {
			return "", false // could be -o
		}
		n, ok := findFilter(args[i].Value)
		if !ok || i+n >= at {
			return "", false // not a filter, or its argument is the action
		}
		if args[i].Value == "-name" && !named {
			if !args[i+1].Known {
				return "", false
			}
			name, named = args[i+1].Value, true
		}
		i += n
	}
	if !named || nameglob.Bare(name) || strings.ContainsAny(name, "/\\[{") || nameglob.Match(name, ".") || nameglob.Match(name, "..") {
		return "", false
	}
	return name, true
}

// findFilter is how many arguments find's primary v takes when it only lets files through or
// sets how find walks (without following links), ok false for any other: what may stand
// before an action that FindName narrows. -prune stops the descent into a match and is true.
func findFilter(v string) (n int, ok bool) {
	switch v {
	case "-a", "-and", "-depth", "-xdev", "-mount", "-noleaf", "-daystart", "-ignore_readdir_race",
		"-noignore_readdir_race", "-warn", "-nowarn", "-empty", "-true", "-false", "-nouser", "-nogroup",
		"-readable", "-writable", "-executable", "-prune":
		return 0, true
	case "-name", "-type", "-xtype", "-maxdepth", "-mindepth", "-mtime", "-mmin", "-atime", "-amin",
		"-ctime", "-cmin", "-newer", "-anewer", "-cnewer", "-size", "-perm", "-user", "-group", "-uid",
		"-gid", "-links", "-inum", "-used", "-fstype":
		return 1, true
	}
	return 0, false
}

// findDeletes reports whether an -exec's command only deletes what it is given (rm, rmdir,
// unlink): a symbolic link among the matches is removed, not followed. Any other command (cp x
// {}, chmod, truncate) writes through a link so named to wherever it points, which the names
// do not tell, so its {} stays the whole tree.
func findDeletes(cmd []Word) bool {
	if len(cmd) == 0 || !cmd[0].Known {
		return false
	}
	switch path.Base(cmd[0].Value) {
	case "rm", "rmdir", "unlink":
		return true
	}
	return false
}

// findAction reports whether v is an action FindName bounds: one that deletes what it is
// given or runs a command on it.
func findAction(v string) bool {
	switch v {
	case "-delete", "-exec", "-execdir", "-ok", "-okdir":
		return true
	}
	return false
}

// FindStart reports whether a start directory of find can be narrowed to the files a name
// test lets through: known, and no pattern of its own.
func FindStart(s Word) bool {
	return s.Known && !s.Glob && s.Value != "" && !strings.ContainsAny(s.Value, "*?[")
}

// xargs emits the command it runs; its arguments come from stdin.
func (w *walker) xargs(args []Word, via []string, src string, dir Dir) {
	sp := command.Lookup("xargs").Spec
	repl := ""
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		if v == "-I" && i+1 < len(args) {
			repl = args[i+1].Value
		} else if strings.HasPrefix(v, "-I") && len(v) > 2 {
			repl = v[2:]
		} else if v == "-i" || strings.HasPrefix(v, "--replace") {
			repl = "{}"
		}
	}
	rest, _, nd := w.skip(args, sp, "xargs", src, dir)
	if len(rest) == 0 {
		rest = []Word{{Value: "echo", Known: true}}
	}
	if repl != "" {
		out := make([]Word, len(rest))
		for i, a := range rest {
			if i > 0 && strings.Contains(a.Value, repl) {
				a = Word{Value: strings.ReplaceAll(a.Value, repl, Dyn)}
			}
			out[i] = a
		}
		rest = out
	}
	n := w.a.cmds.len()
	w.unwrap(rest, append(append([]string{}, via...), "xargs"), src, nil, nd)
	from := w.feed("pipe")
	for k := n; k < w.a.cmds.len(); k++ {
		w.a.cmds.at(k).StdinArgs = true
		w.a.cmds.at(k).ArgsFrom = from
	}
}

// trap's first operand is a program run on a signal.
func (w *walker) trap(args []Word, via []string, src string, dir Dir) {
	i := 1
	for i < len(args) && strings.HasPrefix(args[i].Value, "-") && args[i].Value != "-" {
		i++
	}
	if i < len(args) && len(args) > i+1 {
		w.nested(args[i].Value, !args[i].Known, append(append([]string{}, via...), "trap"), src, dir, false)
	}
	w.emit(Cmd{Args: args[:1], Via: via, Dir: dir, Src: src, Carrier: true})
}

// su runs -c's program as another user, or an interactive shell.
func (w *walker) su(args []Word, via []string, src string, dir Dir) {
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		if (v == "-c" || v == "--command") && i+1 < len(args) {
			w.nested(args[i+1].Value, !args[i+1].Known, append(append([]string{}, via...), "su -c"), src, dir, false)
			w.emit(Cmd{Args: args[:1], Via: via, Dir: dir, Src: src, Carrier: true})
			return
		}
		if strings.HasPrefix(v, "--command=") {
			w.nested(strings.TrimPrefix(v, "--command="), !args[i].Known, append(append([]string{}, via...), "su -c"), src, dir, false)
			w.emit(Cmd{Args: args[:1], Via: via, Dir: dir, Src: src, Carrier: true})
			return
		}
	}
	w.emit(Cmd{Args: args, Via: via, Dir: dir, Src: src})
}

// flock runs -c's program or its command after the lock file. It returns false when the
// ordinary wrapper handling should go on.
func (w *walker) flock(args []Word, via []string, src string, stmt *syntax.Stmt, dir Dir) bool {
	v2 := append(append([]string{}, via...), "flock")
	// The lock file is created when missing and held while the command runs: a write (a
	// lock held on the trust file's .lock makes every record fail).
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		if args[i].Known && (v == "-w" || v == "-E" || v == "--timeout" || v == "--conflict-exit-code") {
			i++
			continue
		}
		if args[i].Known && strings.HasPrefix(v, "-") {
			continue
		}
		if !args[i].Known || !isDigits(v) {
			w.a.redirs.add(Redir{Op: "flock", Target: args[i], Write: true, Dir: dir, Src: clip(src), Depth: w.depth})
		}
		break
	}
	for i := 1; i+1 < len(args); i++ {
		if v := args[i].Value; v == "-c" || v == "--command" {
			w.nested(args[i+1].Value, !args[i+1].Known, v2, src, dir, false)
			w.emit(Cmd{Args: args[:1], Via: via, Dir: dir, Src: src, Carrier: true})
			return true
		}
	}
	i := 1
	for ; i < len(args); i++ {
		v := args[i].Value
		if (v == "-c" || v == "--command") && i+1 < len(args) {
			w.nested(args[i+1].Value, !args[i+1].Known, v2, src, dir, false)
			w.emit(Cmd{Args: args[:1], Via: via, Dir: dir, Src: src, Carrier: true})
			return true
		}
		if v == "-w" || v == "-E" || v == "--timeout" || v == "--conflict-exit-code" {
			i++
			continue
		}
		if !strings.HasPrefix(v, "-") {
			break
		}
	}
	if i+1 < len(args) {
		w.unwrap(args[i+1:], v2, src, stmt, dir)
		return true
	}
	w.emit(Cmd{Args: args, Via: via, Dir: dir, Src: src})
	return true
}

// watch runs its operands through sh -c (joined by spaces), or directly with -x.
func (w *walker) watch(args []Word, via []string, src string, stmt *syntax.Stmt, dir Dir) {
	v2 := append(append([]string{}, via...), "watch")
	direct := false
	i := 1
	for ; i < len(args); i++ {
		v := args[i].Value
		if v == "-x" || v == "--exec" {
			direct = true
			continue
		}
		if v == "-n" || v == "--interval" || v == "-q" || v == "--equexit" {
			i++
			continue
		}
		if !strings.HasPrefix(v, "-") {
			break
		}
	}
	rest := args[i:]
	if len(rest) > 0 {
		if direct {
			w.unwrap(rest, v2, src, stmt, dir)
		} else {
			w.nested(joinArgs(rest), !allKnown(rest), v2, src, dir, false)
		}
	}
	w.emit(Cmd{Args: args[:1], Via: via, Dir: dir, Src: src, Carrier: true})
}

var _ = risk.High

// script runs -c's program (util-linux) or, on BSD/macOS, the command after its log file.
// It returns false when there is no command: an interactive shell, judged by name.
func (w *walker) script(args []Word, via []string, src string, dir Dir) bool {
	v2 := append(append([]string{}, via...), "script")
	var ops []Word
	for i := 1; i < len(args); i++ {
		a := args[i]
		v := a.Value
		if a.Known && strings.HasPrefix(v, "--command=") {
			w.nested(strings.TrimPrefix(v, "--command="), false, v2, src, dir, false)
			w.emit(Cmd{Args: args[:1], Via: via, Dir: dir, Src: src, Carrier: true})
			return true
		}
		if len(ops) == 0 && a.Known && strings.HasPrefix(v, "-") && len(v) > 1 && !strings.HasPrefix(v, "--") {
			if k := strings.IndexByte(v, 'c'); k > 0 {
				prog := Word{Value: v[k+1:], Known: true}
				if prog.Value == "" && i+1 < len(args) {
					prog = args[i+1]
				}
				w.nested(prog.Value, !prog.Known, v2, src, dir, false)
				w.emit(Cmd{Args: args[:1], Via: via, Dir: dir, Src: src, Carrier: true})
				return true
			}
			if strings.ContainsAny(v[len(v)-1:], "EIOBTmoF") {
				i++ // an option with a value
			}
			continue
		}
		if a.Known && (v == "--command" || v == "-c") && i+1 < len(args) {
			w.nested(args[i+1].Value, !args[i+1].Known, v2, src, dir, false)
			w.emit(Cmd{Args: args[:1], Via: via, Dir: dir, Src: src, Carrier: true})
			return true
		}
		if len(ops) == 0 && a.Known && strings.HasPrefix(v, "--") {
			continue
		}
		ops = append(ops, a)
	}
	if len(ops) > 1 { // BSD: script [-q] file command …
		w.unwrap(ops[1:], v2, src, nil, dir)
		w.emit(Cmd{Args: args[:1], Via: via, Dir: dir, Src: src, Carrier: true})
		return true
	}
	return false
}

// ssh: -o ProxyCommand/LocalCommand run locally; the words after the host are a program for
// the remote shell, analysed as if it ran in the home directory (ssh localhost is this
// machine, and a catastrophe on another machine is one too). ssh itself is emitted with its
// host for classify to judge.
func (w *walker) ssh(args []Word, via []string, src string, dir Dir, input string) {
	v2 := append(append([]string{}, via...), "ssh")
	valued := command.Lookup("ssh").Spec.Short
	i := 1
	for ; i < len(args); i++ {
		a := args[i]
		v := a.Value
		if !a.Known || !strings.HasPrefix(v, "-") || v == "-" {
			break
		}
		if v == "--" {
			i++
			break
		}
		for j := 1; j < len(v); j++ {
			if strings.IndexByte(valued, v[j]) < 0 {
				continue
			}
			val := Word{Value: v[j+1:], Known: true}
			if val.Value == "" && i+1 < len(args) {
				i++
				val = args[i]
			}
			if v[j] == 'o' {
				k, cmd, _ := strings.Cut(val.Value, "=")
				if !strings.Contains(val.Value, "=") {
					k, cmd, _ = strings.Cut(val.Value, " ")
				}
				if lk := strings.ToLower(strings.TrimSpace(k)); lk == "proxycommand" || lk == "localcommand" || lk == "knownhostscommand" {
					w.nested(cmd, !val.Known, append(v2, "-o "+k), src, dir, false)
				}
			}
			break
		}
	}
	if i+1 < len(args) {
		remote := Dir{Paths: []string{w.a.opt.Home}, Unknown: w.a.opt.Home == ""}
		w.nested(joinArgs(args[i+1:]), !allKnown(args[i+1:]), append(v2, "remote"), src, remote, false)
	}
	w.emit(Cmd{Args: args, Via: via, Dir: dir, Src: src, Input: input})
}

// parallel (GNU) runs its command once per argument through the shell: the arguments after
// ::: are known; without them they come from stdin or a file, as with xargs.
func (w *walker) parallel(args []Word, via []string, src string, dir Dir) {
	v2 := append(append([]string{}, via...), "parallel")
	withVal := map[string]bool{"-j": true, "-P": true, "-S": true, "-a": true, "-d": true, "-E": true, "-I": true, "-n": true, "-N": true, "-L": true, "-l": true, "-s": true,
		"--jobs": true, "--sshlogin": true, "--arg-file": true, "--delimiter": true, "--colsep": true, "--joblog": true, "--results": true, "--workdir": true, "--wd": true,
		"--tmpdir": true, "--env": true, "--timeout": true, "--delay": true, "--retries": true, "--halt": true, "--memfree": true, "--load": true, "--basefile": true, "--return": true}
	i := 1
	for ; i < len(args); i++ {
		v := args[i].Value
		if !args[i].Known || !strings.HasPrefix(v, "-") || strings.HasPrefix(v, ":::") {
			break
		}
		if withVal[v] {
			i++
		}
	}
	var cmd, vals []Word
	sep := false
	for ; i < len(args); i++ {
		v := args[i].Value
		if args[i].Known && (v == ":::" || v == "::::" || v == ":::+" || v == "::::+") {
			sep = true
			if v == "::::" || v == "::::+" { // arguments from files
				vals = append(vals, Word{Value: Dyn})
				i++
			}
			continue
		}
		if sep {
			vals = append(vals, args[i])
		} else {
			cmd = append(cmd, args[i])
		}
	}
	if !sep {
		vals = []Word{{Value: Dyn}}
	}
	if len(vals) > 32 {
		vals = vals[:32]
	}
	for _, val := range vals {
		var prog string
		q := QuoteWords([]Word{val})
		switch {
		case len(cmd) == 0:
			prog = val.Value
			if !val.Known {
				prog = q
			}
		case strings.Contains(joinArgs(cmd), "{}"):
			prog = strings.ReplaceAll(joinArgs(cmd), "{}", q)
		default:
			prog = joinArgs(cmd) + " " + q
		}
		w.nested(prog, len(cmd) == 0 && !val.Known || !allKnown(cmd), v2, src, dir, false)
	}
	w.emit(Cmd{Args: args[:1], Via: via, Dir: dir, Src: src, Carrier: true})
}

// makefile: make -f - / -f /dev/stdin reads its makefile from a heredoc or a pipe, and
// --eval/-E adds rules: their recipes are shell programs. make itself is emitted as usual.
func (w *walker) makefile(args []Word, via []string, src string, stmt *syntax.Stmt, dir Dir) {
	v2 := append(append([]string{}, via...), "make")
	for i := 1; i < len(args); i++ {
		a := args[i]
		v := a.Value
		var text *Word
		switch {
		case (v == "--eval" || v == "-E") && i+1 < len(args):
			text = &args[i+1]
		case strings.HasPrefix(v, "--eval="):
			text = &Word{Value: strings.TrimPrefix(v, "--eval="), Known: a.Known}
		case (v == "-f" || v == "--file" || v == "--makefile") && i+1 < len(args) || strings.HasPrefix(v, "--file=") || strings.HasPrefix(v, "--makefile=") || strings.HasPrefix(v, "-f") && len(v) > 2 && !strings.HasPrefix(v, "--"):
			var f Word
			switch {
			case strings.HasPrefix(v, "--"+"file=") || strings.HasPrefix(v, "--makefile="):
				_, val, _ := strings.Cut(v, "=")
				f = Word{Value: val, Known: a.Known}
			case len(v) > 2 && v[1] == 'f':
				f = Word{Value: v[2:], Known: a.Known} // -f- and -f/dev/stdin
			default:
				f = args[i+1]
			}
			if f.Known && (f.Value == "-" || f.Value == "/dev/stdin" || strings.HasPrefix(f.Value, "/dev/fd/") || strings.HasPrefix(f.Value, "/proc/self/fd/")) {
				op := f
				if op.Value == "-" {
					op.Value = "/dev/stdin"
				}
				if prog, ok, dyn := w.fileProgram(op, stmt); ok {
					text = &Word{Value: prog, Known: !dyn}
				} else {
					w.a.finding(RuleDynamicProgram, risk.Critical, src, "make reads its makefile from a stream that cannot be known statically")
				}
			}
		}
		if text != nil {
			w.nested(recipes(text.Value), !text.Known, v2, src, dir, false)
		}
	}
	w.emit(Cmd{Args: args, Via: via, Dir: dir, Src: src})
}

// recipes pulls the shell lines out of makefile text: tab-indented lines and the part after
// "target: ;". Make's own references ($(CC)) become unknown values; $$ is a dollar.
func recipes(mk string) string {
	var out []string
	for _, line := range strings.Split(mk, "\n") {
		switch {
		case strings.HasPrefix(line, "\t"):
			out = append(out, strings.TrimLeft(line, "\t@-+ "))
		case strings.Contains(line, ":"):
			_, after, _ := strings.Cut(line, ":")
			if _, r, ok := strings.Cut(after, ";"); ok {
				out = append(out, strings.TrimLeft(r, "\t@-+ "))
			}
		}
	}
	s := strings.Join(out, "\n")
	s = strings.ReplaceAll(s, "$$", "\x00")
	for _, open := range []string{"$(", "${"} {
		for {
			k := strings.Index(s, open)
			if k < 0 {
				break
			}
			end := strings.IndexAny(s[k:], ")}")
			if end < 0 {
				s = s[:k] + "\x01"
				break
			}
			s = s[:k] + "\x01" + s[k+end+1:]
		}
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\x00", "$"), "\x01", Dyn)
}
