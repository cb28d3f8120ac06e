// Package oathbundle is the oath-bundle command.
package oathbundle

import (
	"errors"
	"io"

	"github.com/oath-harness/oath-harness/internal/cli"
)

const usage = `oath-bundle packs and verifies self-contained review bundles (seed 003).

Not implemented yet: this build does nothing else than print this text.
`

var tool = cli.Tool{Name: "oath-bundle", Usage: usage}

// Main runs oath-bundle and returns its exit code.
func Main(stdin io.Reader, stdout, stderr io.Writer, args []string) int {
	if code, done := tool.Preamble(stdout, args); done {
		return code
	}
	return tool.Exit(stderr, errors.New("not implemented yet"))
}
