// Command oath-classify: see internal/cmd/oathclassify or run oath-classify --help.
package main

import (
	"os"

	"github.com/oath-harness/oath-harness/internal/cmd/oathclassify"
)

func main() { os.Exit(oathclassify.Main(os.Stdin, os.Stdout, os.Stderr, os.Args[1:])) }
