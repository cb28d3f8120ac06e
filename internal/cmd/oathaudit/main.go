// Package oathaudit is the oath-audit command.
package oathaudit

import (
	"errors"
	"io"

	"github.com/oath-harness/oath-harness/internal/cli"
)

const usage = `oath-audit appends every call and outcome to a masked, hash-chained audit trail; verify, summary, tail, report.

Not implemented yet: this build does nothing else than print this text.
`

var tool = cli.Tool{Name: "oath-audit", Usage: usage}

// Main runs oath-audit and returns its exit code.
func Main(stdin io.Reader, stdout, stderr io.Writer, args []string) int {
	if code, done := tool.Preamble(stdout, args); done {
		return code
	}
	return tool.Exit(stderr, errors.New("not implemented yet"))
}
