// Command oath-decide: see internal/cmd/oathdecide or run oath-decide --help.
package main

import (
	"os"

	"github.com/oath-harness/oath-harness/internal/cmd/oathdecide"
)

func main() { os.Exit(oathdecide.Main(os.Stdin, os.Stdout, os.Stderr, os.Args[1:])) }
