package kernel

import (
	"github.com/oath-harness/oath-harness/internal/command"
)

// program returns the row of a program name (the base name of argv[0]).
func Program(name string) command.Row { return command.Lookup(name) }
