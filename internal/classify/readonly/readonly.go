// Package readonly is the read-only predicate oath-gate asks of a simple command. The
// knowledge is package command's table (command.ReadOnly), which oath-classify's allow list
// reads too, so the two stages cannot drift apart; this package only keeps the gate's import
// path. It is a leaf: oath-gate does not pay for the shell parser or gojq.
package readonly

import "github.com/oath-harness/oath-harness/internal/command"

// ReadOnly reports whether one simple command (argv, its name first) changes nothing by
// itself and runs no other program; see command.ReadOnly.
func ReadOnly(argv []string) bool { return command.ReadOnly(argv) }

// Parse splits args; see command.Parse.
func Parse(args []string, short string, long ...string) command.Args {
	return command.ParseStrings(args, short, long...)
}
