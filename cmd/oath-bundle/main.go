// Command oath-bundle: see internal/cmd/oathbundle or run oath-bundle --help.
package main

import (
	"os"

	"github.com/oath-harness/oath-harness/internal/cmd/oathbundle"
)

func main() { os.Exit(oathbundle.Main(os.Stdin, os.Stdout, os.Stderr, os.Args[1:])) }
