// Package oathclassify is the oath-classify command.
package oathclassify

import (
	"errors"
	"io"

	"github.com/oath-harness/oath-harness/internal/cli"
)

const usage = `oath-classify reads a Claude Code tool event and adds oath.classify: domain, risk, reasons, commands, paths.

Not implemented yet: this build does nothing else than print this text.
`

var tool = cli.Tool{Name: "oath-classify", Usage: usage}

// Main runs oath-classify and returns its exit code.
func Main(stdin io.Reader, stdout, stderr io.Writer, args []string) int {
	if code, done := tool.Preamble(stdout, args); done {
		return code
	}
	return tool.Exit(stderr, errors.New("not implemented yet"))
}
