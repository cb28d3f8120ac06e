package classify

import (
	"github.com/oath-harness/oath-harness/internal/command"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// The command catalogue is package command's table: one row per program with its Judge (which
// case of cmdCtx.judge, rules.go, decides), its Facts (allow list, harness tool, hook, a
// catastrophe's head …), the deny list's Reason and the allow list's option Spec. A program
// whose verdict needs no code of its own is one row there; this file says how such a row is
// judged.

// program returns the row of a program name (the base name of argv[0]).
func program(name string) command.Row { return command.Lookup(name) }

// listed judges a program by its row alone: on the deny list (a Reason), high; on neither
// list, the gray area, and its arguments are judged as a command line it may run.
func (x *cmdCtx) listed(row command.Row) {
	if row.Reason != "" {
		x.add(risk.High, ShellExec, ruleDenyList, x.name+": "+row.Reason)
		return
	}
	x.add(risk.Medium, ShellExec, ruleGrayArea, x.name+" is a program the harness has no rule for: it cannot tell what it does")
	x.carried()
}

// hasSpec reports whether the program is on the allow list (it only reads, or it is a shell
// builtin).
func hasSpec(n string) bool { return command.Has(n, command.AllowList) }
