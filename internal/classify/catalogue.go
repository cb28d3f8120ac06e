package classify

import (
	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/command"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// The command catalogue is package command's table: one row per program with its Judge (which
// case of cmdCtx.judge, files/files.go, decides), its Facts (allow list, harness tool, hook, a
// catastrophe's head …), the deny list's Reason and the allow list's option Spec. A program
// whose verdict needs no code of its own is one row there; this file says how such a row is
// judged.

// listed judges a program by its row alone: on the deny list (a Reason), high; on neither
// list, the gray area, and its arguments are judged as a command line it may run.
func listed(x *kernel.Command, row command.Row) {
	if row.Reason != "" {
		x.Add(risk.High, kernel.ShellExec, kernel.RuleDenyList, x.Name+": "+row.Reason)
		return
	}
	x.Add(risk.Medium, kernel.ShellExec, kernel.RuleGrayArea, x.Name+" is a program the harness has no rule for: it cannot tell what it does")
	carried(x)
}

// hasSpec reports whether the program is on the allow list (it only reads, or it is a shell
// builtin).
func hasSpec(n string) bool { return command.Has(n, command.AllowList) }
