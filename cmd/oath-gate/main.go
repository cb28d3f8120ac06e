// Command oath-gate: see internal/cmd/oathgate or run oath-gate --help.
package main

import (
	"os"

	"github.com/oath-harness/oath-harness/internal/cmd/oathgate"
)

func main() { os.Exit(oathgate.Main(os.Stdin, os.Stdout, os.Stderr, os.Args[1:])) }
