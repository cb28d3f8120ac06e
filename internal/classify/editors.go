package classify

import (
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/inline"
	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// Editors write the files they name, and some run commands of their own given on the
// command line: vi's Ex commands (-c CMD, +CMD, --cmd CMD, and in -e/-es mode its standard
// input) start a shell with !, :r !, :w !, a range filter (%!sort), system(), :terminal, or
// run Lua, Python, Perl or Ruby; -S and -u source a script file. emacs evaluates Lisp given
// with --eval, and loads it with -l/--load/--script. A shell command found there is judged
// exactly as if typed; one that cannot be read is high.

// viNames are the vi family, whose options and +commands are Ex commands.
func viName(n string) bool {
	switch n {
	case "vi", "vim", "nvim", "view", "gvim", "vimdiff", "rvim", "gview", "evim":
		return true
	}
	return false
}

// editor judges an editor's command line.
func editor(x *kernel.Command) {
	var files []shell.Word
	switch {
	case viName(x.Name):
		files = viCommands(x)
	case x.Name == "emacs":
		files = emacsCode(x)
	default:
		files = x.Prog().Spec.Parse(x.Args).Operands
	}
	for _, o := range files {
		x.Write(o, false, kernel.ShellExec)
	}
	x.Add(risk.Medium, kernel.ShellExec, kernel.RuleFileChange, x.Name+" writes the files it names")
}

// viCommands judges vi's Ex commands and returns the files it names.
func viCommands(x *kernel.Command) []shell.Word {
	var files []shell.Word
	ex := false
	for i := 0; i < len(x.Args); i++ {
		a := x.Args[i]
		v := a.Value
		switch {
		case v == "--cmd" && i+1 < len(x.Args):
			i++
			exCommand(x, x.Args[i])
		case strings.HasPrefix(v, "--cmd="):
			exCommand(x, shell.Word{Value: v[len("--cmd="):], Known: a.Known})
		case strings.HasPrefix(v, "+") && len(v) > 1 || !a.Known && strings.HasPrefix(v, "+"):
			exCommand(x, shell.Word{Value: v[1:], Known: a.Known})
		case v == "-S" && i+1 == len(x.Args):
			x.Add(risk.High, kernel.ShellExec, kernel.RuleRunsProgram, x.Name+" -S runs the Ex commands of Session.vim")
		case strings.HasPrefix(v, "-") && len(v) > 1 && !strings.HasPrefix(v, "--"):
			// A cluster of letters read as vim reads it (-Nc CMD, -c!CMD, -nS FILE): a letter
			// that takes a value takes the rest of the word, or the next word.
			for j := 1; j < len(v); j++ {
				l := v[j]
				if l == 'e' || l == 'E' {
					ex = true
				}
				if !strings.ContainsRune("cSuUiTwWs", rune(l)) || l == 's' && ex {
					continue // -s in Ex mode is silent, no value
				}
				val := shell.Word{Value: v[j+1:], Known: a.Known}
				if j+1 == len(v) {
					if i+1 == len(x.Args) || l == 's' && strings.HasPrefix(x.Args[i+1].Value, "-") {
						break
					}
					i++
					val = x.Args[i]
				}
				viOption(x, l, val)
				break // the value ends the cluster
			}
		case strings.HasPrefix(v, "--"):
		default:
			files = append(files, a)
		}
	}
	if ex {
		// vim -es reads its Ex commands from stdin: a here-document is read, anything else
		// piped or redirected cannot be.
		switch x.Cmd.Input {
		case "heredoc":
			for _, line := range strings.Split(x.Cmd.Feed, "\n") {
				exCommand(x, shell.Word{Value: line, Known: !strings.Contains(line, shell.Dyn)})
			}
		case "pipe", "file", "catfile":
			if x.Cmd.Feed != "/dev/null" {
				x.Add(risk.High, kernel.ShellExec, kernel.RuleRunsProgram, x.Name+" runs Ex commands piped or redirected into it, which cannot be read here: they can run any command")
			}
		}
	}
	return files
}

// viOption judges the value of vi's option letter l (a cluster's last letter that takes one).
func viOption(x *kernel.Command, l byte, w shell.Word) {
	switch l {
	case 'c':
		exCommand(x, w)
	case 'S', 'u', 'U':
		if w.Value != "NONE" && w.Value != "NORC" && w.Value != "DEFAULTS" || !w.Known {
			x.Add(risk.High, kernel.ShellExec, kernel.RuleRunsProgram, x.Name+" -"+string(l)+" "+w.Value+" runs the Ex commands of a script file")
		}
	case 's':
		x.Add(risk.High, kernel.ShellExec, kernel.RuleRunsProgram, x.Name+" -s "+w.Value+" types the keys of a script file, which can run any command")
	}
}

// exCommand judges one Ex command (a vi -c value, a +command, a line of -es input).
func exCommand(x *kernel.Command, w shell.Word) {
	if !w.Known {
		x.Add(risk.High, kernel.ShellExec, kernel.RuleRunsProgram, x.Name+" runs an Ex command that cannot be known statically: it can run any command")
		return
	}
	for _, c := range strings.Split(w.Value, "|") {
		c = strings.TrimLeft(c, " \t:")
		for _, p := range []string{"silent!", "sil!", "silent", "sil", "keepalt", "noautocmd", "noa"} {
			if strings.HasPrefix(c, p) && (len(c) == len(p) || c[len(p)] == ' ' || c[len(p)] == '!' || p[len(p)-1] == '!') {
				c = strings.TrimLeft(c[len(p):], " \t")
				break
			}
		}
		c = strings.TrimLeft(c, "%.,$0123456789'<>+- \t") // a range
		low := strings.ToLower(c)
		prog, runs := "", false
		switch {
		case strings.HasPrefix(c, "!"):
			prog, runs = c[1:], true
		case strings.HasPrefix(low, "r !") || strings.HasPrefix(low, "r!") || strings.HasPrefix(low, "read !") || strings.HasPrefix(low, "read!") || strings.HasPrefix(low, "w !") || strings.HasPrefix(low, "write !"):
			prog, runs = c[strings.IndexByte(c, '!')+1:], true
		case kernel.ContainsAny(low, []string{"system(", "systemlist(", "jobstart(", "termopen(", "os.execute", "io.popen", "vim.fn.system", "vim.system"}) ||
			strings.HasPrefix(low, "ter") || strings.HasPrefix(low, "lua") || strings.HasPrefix(low, "py") || strings.HasPrefix(low, "perl") || strings.HasPrefix(low, "rub") || strings.HasPrefix(low, "exe") || low == "so" || strings.HasPrefix(low, "so ") || strings.HasPrefix(low, "source") || strings.HasPrefix(low, "call") || strings.HasPrefix(low, "norm"):
			for _, l := range kernel.Literals(c) {
				if x.Call.Depth < shell.MaxDepth {
					if why, u := x.Env.ShellCritical(*x, l); why != "" {
						x.AddUnknown(risk.Critical, kernel.ShellExec, kernel.RuleRunsProgram, x.Name+" runs the command "+kernel.QuoteRaw(l)+": "+why, u)
						return
					}
				}
			}
			x.Add(risk.High, kernel.ShellExec, kernel.RuleRunsProgram, x.Name+" runs an Ex command that can run any command ("+kernel.ShortCmd(c)+")")
			continue
		}
		if runs {
			x.Add(risk.High, kernel.ShellExec, kernel.RuleRunsProgram, x.Name+" runs the shell command "+kernel.QuoteRaw(strings.TrimSpace(prog)))
			if strings.TrimSpace(prog) != "" {
				x.Env.Nested(*x, prog, x.Name+" !")
			}
		}
	}
}

// elispRuns are the Lisp functions that run a program or delete files, each said as the words
// the inline-code rules know (codeRuns, codeRmTree, codeHome).
var elispRuns = strings.NewReplacer("shell-command", "system", "call-process", "system", "start-process", "system", "make-process", "system", "process-file", "system", "async-shell-command", "system", "delete-directory", "rmtree", "delete-file", "unlink", "(getenv", "getenv", "expand-file-name", "expanduser")

// emacsCode judges emacs's Lisp (--eval, -l, --script) and returns the files it names.
func emacsCode(x *kernel.Command) []shell.Word {
	var files []shell.Word
	for i := 0; i < len(x.Args); i++ {
		a := x.Args[i]
		v := a.Value
		opt, val, hasVal := strings.Cut(v, "=")
		switch {
		case opt == "--eval" || opt == "-eval":
			code := shell.Word{Value: val, Known: a.Known}
			if !hasVal && i+1 < len(x.Args) {
				i++
				code = x.Args[i]
			}
			lisp(x, code)
		case opt == "-l" || opt == "--load" || opt == "-load" || opt == "--script" || opt == "-script" || opt == "-x":
			if !hasVal && i+1 < len(x.Args) {
				i++
			}
			x.Add(risk.High, kernel.ShellExec, kernel.RuleRunsProgram, x.Name+" "+opt+" runs Lisp from a file, which can run any command")
		case opt == "-f" || opt == "--funcall" || opt == "-funcall" || opt == "--directory" || opt == "-L" || opt == "--file" || opt == "--visit" || opt == "--insert" || opt == "-t" || opt == "--terminal" || opt == "-d" || opt == "--display":
			if !hasVal && i+1 < len(x.Args) {
				i++
				if opt == "--file" || opt == "--visit" {
					files = append(files, x.Args[i])
				}
			}
		case strings.HasPrefix(v, "-") || strings.HasPrefix(v, "+"):
		default:
			files = append(files, a)
		}
	}
	return files
}

// lisp judges Lisp given inline to emacs as inline code is judged: what it runs or deletes.
func lisp(x *kernel.Command, w shell.Word) {
	if !w.Known {
		x.Add(risk.High, kernel.ShellExec, kernel.RuleDynamicProgram, x.Name+" evaluates Lisp built from values unknown statically")
		return
	}
	low := strings.ToLower(w.Value)
	mapped := elispRuns.Replace(low)
	inline.CodeCatastrophe(x, mapped, kernel.Literals(w.Value), false)
	if mapped != low {
		x.Add(risk.High, kernel.ShellExec, kernel.RuleInlineCode, x.Name+" evaluates Lisp that can run programs or delete files")
		return
	}
	x.Add(risk.Medium, kernel.ShellExec, kernel.RuleInlineCode, x.Name+" evaluates Lisp")
}
