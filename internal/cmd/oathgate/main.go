// Package oathgate is the oath-gate command.
package oathgate

import (
	"errors"
	"io"

	"github.com/oath-harness/oath-harness/internal/cli"
)

const usage = `oath-gate enforces the Core Contract (seed 000): HARD_BLOCK of protected files and the playbook gate.

Not implemented yet: this build does nothing else than print this text.
`

var tool = cli.Tool{Name: "oath-gate", Usage: usage}

// Main runs oath-gate and returns its exit code.
func Main(stdin io.Reader, stdout, stderr io.Writer, args []string) int {
	if code, done := tool.Preamble(stdout, args); done {
		return code
	}
	return tool.Exit(stderr, errors.New("not implemented yet"))
}
