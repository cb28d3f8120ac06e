// Package oathdecide is the oath-decide command.
package oathdecide

import (
	"errors"
	"io"

	"github.com/oath-harness/oath-harness/internal/cli"
)

const usage = `oath-decide turns classification and trust into a decision (auto_approved, logged_only, human_required, blocked) and Claude Code's answer.

Not implemented yet: this build does nothing else than print this text.
`

var tool = cli.Tool{Name: "oath-decide", Usage: usage}

// Main runs oath-decide and returns its exit code.
func Main(stdin io.Reader, stdout, stderr io.Writer, args []string) int {
	if code, done := tool.Preamble(stdout, args); done {
		return code
	}
	return tool.Exit(stderr, errors.New("not implemented yet"))
}
