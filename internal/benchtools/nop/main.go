// Command nop copies stdin to stdout and does nothing else. scripts/bench-hook.sh pipes a hook
// payload through five of them to measure the floor: what starting five Go processes in a bash
// pipe costs, which no real pipeline of five stages can beat.
package main

import (
	"io"
	"os"
)

func main() {
	if _, err := io.Copy(os.Stdout, os.Stdin); err != nil {
		os.Exit(1)
	}
}
