package classify

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/classify/shell"
)

// A program the parser cannot read past an error: bash parses a complete command line before
// it runs it, so the complete commands before a syntax error run and nothing from the line
// that holds it on does (measured: `bash -c $'echo a\necho \'b'` prints a; so does eval).
// The prefix the analysis read is then the whole program that runs. That is taken only when
// bash itself, asked with -n (it runs nothing), agrees:
//
//   - the prefix parses, and ends at a command's end (the parser's own check: shell.Cut);
//   - the program up to the end of each line from the erroring one on is not a complete
//     program for bash (it stops at an open quote, $( or backquote at the end of input, or at
//     a syntax error), so no command from that line on is ever complete enough to run; with
//     extglob on and off, as the person's shell may set it;
//   - the prefix runs nothing that changes how bash reads what follows: no alias (nor
//     BASH_ALIASES), shopt, set, source, eval, a builtin that assigns a variable named at
//     run time, POSIXLY_CORRECT, ${!…}; no command whose name cannot be known.
//
// Anything else (no bash here, a deadline, more than cutMaxLines lines after the error, bash
// accepting the program: `! ! true`, extglob) keeps the program not read.

// cutMaxLines bounds the lines after the error bash is asked about (one run of bash each).
const cutMaxLines = 16

// cutStops reports that bash runs no command from cut.Line on: see above.
func cutStops(prog *shell.Program) bool {
	cut := prog.Cut
	// A pipelined program's commands went out in batches, not in prog.Cmds: not taken.
	if cut == nil || prog.Unreads != 1 || kernel.Pipelined(cut.Src) || len(cut.Src) > 64<<10 || !prefixKeepsParsing(prog, cut.Prefix) {
		return false
	}
	bash := systemBash()
	if bash == "" {
		return false
	}
	lines := strings.SplitAfter(cut.Src, "\n")
	if len(lines)-cut.Line+1 > cutMaxLines {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	parses := func(src string, extglob bool) (bool, bool) {
		args := []string{"--norc", "--noprofile", "-n"}
		if extglob {
			args = append(args, "-O", "extglob")
		}
		cmd := exec.CommandContext(ctx, bash, append(args, "-c", src)...)
		cmd.Env = []string{"PATH=/usr/bin:/bin", "LC_ALL=C"}
		cmd.Dir = "/"
		err := cmd.Run()
		if ctx.Err() != nil {
			return false, false
		}
		_, exited := err.(*exec.ExitError)
		return err == nil, err == nil || exited
	}
	if cut.Prefix != "" {
		if ok, sure := parses(cut.Prefix, true); !ok || !sure {
			return false
		}
	}
	upTo := len(cut.Prefix)
	for i := cut.Line - 1; i < len(lines); i++ {
		upTo += len(lines[i])
		for _, extglob := range []bool{false, true} {
			if ok, sure := parses(cut.Src[:upTo], extglob); ok || !sure {
				return false // a complete program there: bash would run it
			}
		}
	}
	return true
}

// systemBash is the system's bash by absolute path, or "": not one found through PATH, which
// a program earlier in it could answer for (the verdict would rest on what it says).
func systemBash() string {
	for _, p := range []string{"/bin/bash", "/usr/bin/bash", "/usr/local/bin/bash", "/opt/homebrew/bin/bash"} {
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// prefixKeepsParsing reports a prefix whose commands leave bash's reading of later lines as
// it was: see above.
func prefixKeepsParsing(prog *shell.Program, prefix string) bool {
	for _, w := range []string{"BASH_ALIASES", "POSIXLY_CORRECT", "${!", "BASHOPTS", "SHELLOPTS"} {
		if strings.Contains(prefix, w) {
			return false
		}
	}
	for i := range prog.Cmds {
		switch prog.Cmds[i].Name() {
		case "", "alias", "shopt", "set", "source", ".", "eval", "enable", "trap", "builtin", "command",
			"declare", "typeset", "local", "export", "readonly", "read", "mapfile", "readarray", "printf",
			"let", "getopts", "wait", "unalias", "exec":
			return false
		}
	}
	return true
}
