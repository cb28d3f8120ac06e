package classify

import (
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/command"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// noExecShell reports a shell started with noexec (bash -n FILE, xargs bash -n, bash -o noexec):
// it reads its program and runs none of it. Its program is not judged as run; its operands
// still are (a credential as the script: bash prints the lines it cannot parse).
//
// Under xargs, the words xargs appends come before any script operand the command names:
// one of them could be +n, which turns noexec off again (bash -n +n evil.sh runs evil.sh).
// They are taken only from find … -print0 into xargs -0, every one a path that begins with a
// plain starting point of find's.
func noExecShell(cmd *shell.Cmd) bool {
	switch cmd.Name() {
	case "bash", "sh", "dash":
	default:
		return false
	}
	noexec, operand := command.ShellNoExec(cmd.Args[1:])
	if !noexec {
		return false
	}
	return operand || !cmd.StdinArgs || findPathsNul(cmd)
}

// findPathsNul reports `find PATH… EXPR -print0 | xargs -0 [-n N] [-P N] … SHELL …` whose
// starting points are plain words that begin with neither - nor + and hold no glob, and
// whose expression prints only with -print0 (no -printf, -exec, -ls …): every argument xargs
// appends is then a path beginning with one of them. Any other xargs option (-I, -a, -d …)
// or any other feed gives false.
func findPathsNul(cmd *shell.Cmd) bool {
	xargs := strings.Fields(cmd.Src)
	if len(xargs) == 0 || xargs[0] != "xargs" {
		return false
	}
	null := false
	i := 1
	for ; i < len(xargs); i++ {
		w := xargs[i]
		switch {
		case w == "-0" || w == "--null":
			null = true
		case w == "-r" || w == "--no-run-if-empty" || w == "-t" || w == "--verbose" || w == "-x" || w == "--exit":
		case (w == "-n" || w == "-P" || w == "-s") && i+1 < len(xargs) && digits(xargs[i+1]):
			i++
		case len(w) > 2 && (strings.HasPrefix(w, "-n") || strings.HasPrefix(w, "-P") || strings.HasPrefix(w, "-s")) && digits(w[2:]):
		case strings.HasPrefix(w, "--max-args=") && digits(w[len("--max-args="):]),
			strings.HasPrefix(w, "--max-procs=") && digits(w[len("--max-procs="):]):
		default:
			if strings.HasPrefix(w, "-") {
				return false
			}
			goto command
		}
	}
command:
	if !null || i >= len(xargs) || xargs[i] != cmd.Args[0].Value || cmd.ArgsFrom == "" {
		return false
	}
	feed := shell.Analyze(cmd.ArgsFrom, shell.Options{Cwd: "/"})
	if feed.Broken || feed.Unread != "" || len(feed.Cmds) != 1 || feed.Cmds[0].Name() != "find" || len(feed.Cmds[0].Via) > 0 {
		return false
	}
	paths, print0 := 0, false
	for j, a := range feed.Cmds[0].Args[1:] {
		w := a.Value
		if !a.Known {
			return false
		}
		if paths == j && w != "" && !strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "+") && w != "!" && w != "(" {
			if strings.ContainsAny(w, "*?[") {
				return false
			}
			paths++
			continue
		}
		switch {
		case w == "-print0":
			print0 = true
		case strings.HasPrefix(w, "-print") || strings.HasPrefix(w, "-fprint") || strings.HasPrefix(w, "-exec") ||
			strings.HasPrefix(w, "-ok") || w == "-ls" || w == "-fls" || strings.HasPrefix(w, "-files0"):
			return false
		}
	}
	return paths > 0 && print0
}

func digits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// judgeNoExec judges a noexec shell: a read of its program.
func judgeNoExec(x *kernel.Command) {
	x.Add(risk.Low, kernel.FileRead, kernel.RuleAllowList, x.Name+" with noexec (-n) reads its program and runs none of it")
}

// bareShell reports a Bash call that is a shell and nothing else (bash, sh, dash): it reads its
// program from stdin, and Claude Code runs a Bash tool command with an empty stdin, even when
// the CLI's own stdin is an open pipe (measured on 2.1.332: e2e TestHostFactsBashStdin). So it
// runs nothing. Not with an option (--login, -i read start-up files), a redirection or a pipe
// (then stdin holds a program): those are judged as today.
func bareShell(src string) bool {
	switch strings.TrimSpace(src) {
	case "bash", "sh", "dash":
		return true
	}
	return false
}

const bareShellWhy = "a shell given no program reads it from stdin, which Claude Code leaves empty: it runs nothing"
