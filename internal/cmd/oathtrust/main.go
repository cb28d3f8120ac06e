// Package oathtrust is the oath-trust command.
package oathtrust

import (
	"errors"
	"io"

	"github.com/oath-harness/oath-harness/internal/cli"
)

const usage = `oath-trust keeps per-domain trust: score (PreToolUse), record (PostToolUse/Failure), bootstrap (SessionStart), show.

Not implemented yet: this build does nothing else than print this text.
`

var tool = cli.Tool{Name: "oath-trust", Usage: usage}

// Main runs oath-trust and returns its exit code.
func Main(stdin io.Reader, stdout, stderr io.Writer, args []string) int {
	if code, done := tool.Preamble(stdout, args); done {
		return code
	}
	return tool.Exit(stderr, errors.New("not implemented yet"))
}
