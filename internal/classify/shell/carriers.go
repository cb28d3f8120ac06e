package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/oath-harness/oath-harness/internal/risk"
)

// find emits find itself (its expression up to the first -exec) and each command of
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
	own := []Word{args[0]}
	own = append(own, args[1:]...)
	cut := len(own)
	v2 := append(append([]string{}, via...), "find -exec")
	for j := i; j < len(args); j++ {
		v := args[j].Value
		if !(v == "-exec" || v == "-execdir" || v == "-ok" || v == "-okdir") {
			continue
		}
		if j < cut {
			cut = j
		}
		k := j + 1
		for ; k < len(args); k++ {
			if args[k].Value == ";" || args[k].Value == "+" {
				break
			}
		}
		inner := args[j+1 : k]
		for _, s := range starts {
			sub := make([]Word, len(inner))
			for n, a := range inner {
				if strings.Contains(a.Value, "{}") {
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
	w.emit(Cmd{Args: own[:cut], Via: via, Dir: dir, Src: src})
}

// xargs emits the command it runs; its arguments come from stdin.
func (w *walker) xargs(args []Word, via []string, src string, dir Dir) {
	sp := spec{short: "adEILnPs", long: []string{"arg-file", "delimiter", "eof", "replace", "max-lines", "max-args", "max-procs", "max-chars", "process-slot-var"}}
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
	n := len(w.a.prog.Cmds)
	w.unwrap(rest, append(append([]string{}, via...), "xargs"), src, nil, nd)
	for k := n; k < len(w.a.prog.Cmds); k++ {
		w.a.prog.Cmds[k].StdinArgs = true
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
