// Command oath-trust: see internal/cmd/oathtrust or run oath-trust --help.
package main

import (
	"os"

	"github.com/oath-harness/oath-harness/internal/cmd/oathtrust"
)

func main() { os.Exit(oathtrust.Main(os.Stdin, os.Stdout, os.Stderr, os.Args[1:])) }
