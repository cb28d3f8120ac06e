// Command oath-audit: see internal/cmd/oathaudit or run oath-audit --help.
package main

import (
	"os"

	"github.com/oath-harness/oath-harness/internal/cmd/oathaudit"
)

func main() { os.Exit(oathaudit.Main(os.Stdin, os.Stdout, os.Stderr, os.Args[1:])) }
