package command

import (
	"path"
	"slices"
	"strings"
)

// Spec says how a command that normally only reads can be made to write or run something
// after all. Option names are given without dashes: one letter is a short option, more is a
// long one.
//
// Short and Long are the program's option layout (Spec.Parse) for every program whose
// arguments the classifier reads, not only those of the allow list.
type Spec struct {
	Short   string   // short options that take a value (a cluster stops there: sort -to)
	Long    []string // long options that take a separate value
	Writes  []string // options whose value is a file written (tree -o F, sort -o F)
	Flags   []string // options that make it change something not named by a value (tree -R, date -s)
	Runs    []string // options whose value is a program run (rg --pre, man -P)
	Operand int      // > 0: that operand (1-based) is written (uniq in out, xxd in out)
	// Of a wrapper (Wraps): Positional operands come before its command (timeout's
	// duration, chroot's root); Assign: NAME=value operands do (env).
	Positional int
	Assign     bool
	// Shell marks a shell builtin: it changes nothing on disk but the shell's own state
	// (variables, PATH lookups, traps …) that later commands use. oath-classify judges it low,
	// each command being judged on its own; it is not ReadOnly.
	Shell bool
}

// Parse splits args by the option layout of s (Short, Long): the one place a program's layout
// is written, so that every reader of its arguments agrees on which word is an operand.
func (s Spec) Parse(args []Word) Args { return Parse(args, s.Short, s.Long...) }

// TakesValue reports an option, as one word without "=value", that takes the next word as
// its value: -W of Short "WX", --require of Long "require".
func (s Spec) TakesValue(opt string) bool {
	switch {
	case strings.HasPrefix(opt, "--"):
		return slices.Contains(s.Long, opt[2:])
	case len(opt) == 2 && opt[0] == '-':
		return strings.IndexByte(s.Short, opt[1]) >= 0
	}
	return false
}

// ReadOnly reports whether one simple command (argv, its name first) changes nothing by
// itself and runs no other program: a program on the allow list without an option that makes
// it write or run something (tree -o, less -o, rg --pre, sort -o, find -delete/-exec/-fprint,
// git -c, git diff --output …), or a git command that only reads. What it writes through a
// redirection is not its own doing and is judged apart. Shell builtins that change the
// shell's state (export, alias, set …) and carriers (eval, command, env …) are not read-only.
// It is the read_only of oath.classify's parts, which oath-gate reads; oath-classify's allow
// list is low exactly when it holds.
func ReadOnly(argv []string) bool {
	if len(argv) == 0 {
		return false
	}
	name := path.Base(argv[0])
	words := argv[1:]
	switch name {
	case "git":
		return GitReadOnly(argv[1:])
	case "find":
		return FindHazard(words) == ""
	}
	row := Lookup(name)
	sp := row.Spec
	if !row.Has(AllowList) || sp.Shell {
		return false
	}
	switch name {
	case "date":
		for _, o := range ParseStrings(words, sp.Short, sp.Long...).Operands {
			if !strings.HasPrefix(o.Value, "+") {
				return false // date MMDDhhmm sets the clock
			}
		}
	case "hostname":
		if len(ParseStrings(words, "F", "file").Operands) > 0 {
			return false // hostname NAME sets it
		}
	case "cd", "pushd", "popd":
		return true
	}
	return sp.Hazard(name, words) == ""
}

// Hazard names what makes the read-only command name write or run something, or "".
func (sp Spec) Hazard(name string, args []string) string {
	p := ParseStrings(args, sp.Short, sp.Long...)
	for _, o := range append(append(slices.Clone(sp.Writes), sp.Flags...), sp.Runs...) {
		if p.Given(o) {
			return OptName(o)
		}
	}
	if sp.Operand > 0 && len(p.Operands) >= sp.Operand {
		return "an operand it writes"
	}
	if name == "less" {
		for _, a := range args {
			if strings.HasPrefix(a, "+") {
				return a + " (less runs its commands: !, |, s)"
			}
		}
	}
	if name == "bat" && len(p.Operands) > 0 && p.Operands[0].Value == "cache" {
		return "bat cache"
	}
	return ""
}

// FindHazard names a find action that writes, deletes or runs a program, or "".
func FindHazard(args []string) string {
	for _, a := range args {
		switch a {
		case "-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls":
			return a
		}
	}
	return ""
}

// GitRead reports whether the git subcommand only reads (domain git_read in oath-classify),
// before its options are looked at.
func GitRead(sub string) bool {
	switch sub {
	case "status", "log", "diff", "show", "blame", "rev-parse", "ls-files", "ls-tree", "cat-file",
		"describe", "shortlog", "grep", "rev-list", "name-rev", "merge-base", "show-ref", "show-branch", "whatchanged",
		"help", "version", "count-objects", "for-each-ref", "verify-commit", "verify-tag", "check-ignore", "check-attr",
		"var", "cherry", "range-diff", "diff-tree", "diff-index", "diff-files", "annotate", "fsck", "--version", "-v", "--help":
		return true
	}
	return false
}

// GitReadOnly: a git command line (after "git") that only reads: global options limited to
// -C, --no-pager, -P, --no-optional-locks (git -c, --git-dir, --exec-path … could make it run
// or write anything), a subcommand of GitRead or a listing form of branch, tag, remote, stash,
// config, and no --output/-o/--ext-diff.
func GitReadOnly(args []string) bool {
	g := SplitGit(Words(args))
	for _, o := range g.Opts {
		switch {
		case o.Name == "-C" && o.HasValue, o.Name == "--no-pager", o.Name == "-P", o.Name == "--no-optional-locks":
		default:
			return o.Name == "--version" || o.Name == "--help"
		}
	}
	if g.Sub.Value == "" {
		return false
	}
	sub := g.Sub.Value
	rest := make([]string, len(g.Rest))
	for i, a := range g.Rest {
		rest[i] = a.Value
	}
	for _, a := range rest {
		if strings.HasPrefix(a, "--output") || a == "-o" || a == "--ext-diff" || a == "--textconv" || strings.HasPrefix(a, "--exec") || a == "--lost-found" || a == "--web" || a == "-w" && sub == "help" {
			return false
		}
	}
	switch sub {
	case "branch":
		for _, a := range rest {
			switch a {
			case "-a", "-r", "-v", "-vv", "--all", "--remotes", "--show-current", "--verbose", "-l", "--list":
			default:
				return false
			}
		}
		return true
	case "tag":
		return len(rest) == 0 || len(rest) == 1 && (rest[0] == "-l" || rest[0] == "--list")
	case "remote":
		return len(rest) == 0 || len(rest) == 1 && (rest[0] == "-v" || rest[0] == "--verbose")
	case "stash":
		return len(rest) >= 1 && (rest[0] == "list" || rest[0] == "show")
	case "config":
		return len(rest) >= 1 && (rest[0] == "--get" || rest[0] == "--list" || rest[0] == "-l" || rest[0] == "--get-all")
	case "reflog":
		return len(rest) == 0 || rest[0] == "show"
	}
	return GitRead(sub) && sub != "fsck" && sub != "help" && sub != "-v"
}
