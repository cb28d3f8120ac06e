// Command oath-doctor: see internal/cmd/oathdoctor or run oath-doctor --help.
package main

import (
	"os"

	"github.com/oath-harness/oath-harness/internal/cmd/oathdoctor"
)

func main() { os.Exit(oathdoctor.Main(os.Stdin, os.Stdout, os.Stderr, os.Args[1:])) }
