package gate

import (
	"path/filepath"
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/readonly"
)

// cmdName is the command's name without its directory ("/bin/rm" is rm).
func cmdName(argv []string) string {
	if len(argv) == 0 {
		return ""
	}
	return filepath.Base(argv[0])
}

// gitCall is a git command line split at its subcommand.
type gitCall struct {
	dir  string   // -C <dir>, "" when not given
	sub  string   // the subcommand
	args []string // what follows it
}

// parseGit splits a git argv. ok is false for global options that could change what git does
// behind the gate's back (-c, --git-dir, --work-tree, --exec-path …): such a call is judged as
// one that changes something.
func parseGit(argv []string) (g gitCall, ok bool) {
	if cmdName(argv) != "git" {
		return g, false
	}
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "-C" && i+1 < len(argv):
			i++
			if g.dir == "" || filepath.IsAbs(argv[i]) {
				g.dir = argv[i]
			} else {
				g.dir = filepath.Join(g.dir, argv[i])
			}
		case a == "--no-pager" || a == "-P" || a == "--no-optional-locks":
		case strings.HasPrefix(a, "-"):
			return g, false
		default:
			g.sub, g.args = a, argv[i+1:]
			return g, true
		}
	}
	return g, false
}

// writesNoOperand reports whether the command never writes the files its arguments name, so that
// naming a protected file is harmless: the read-only commands, and git add and commit (staging
// and committing change the repository, not the working tree).
func writesNoOperand(argv []string) bool {
	if readonly.ReadOnly(argv) {
		return true
	}
	if g, ok := parseGit(argv); ok && (g.sub == "add" || g.sub == "commit") {
		return true
	}
	return false
}

// operands returns the arguments of a command that are not options. A "--" ends the options.
// valued lists the options that take the next argument as their value.
func operands(args []string, valued map[string]bool) (ops, opts []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(ops, args[i+1:]...), opts
		}
		if strings.HasPrefix(a, "-") && a != "-" {
			opts = append(opts, a)
			if valued[a] && i+1 < len(args) {
				i++
			}
			continue
		}
		ops = append(ops, a)
	}
	return ops, opts
}

// onlyOptions returns the first option not in allowed ("" and true when there is none). A long
// option "--x=v" is looked up as "--x"; a short option with its value attached ("-mfix") is
// looked up by its first two characters when those take a value.
func onlyOptions(opts []string, allowed, valued map[string]bool) (string, bool) {
	for _, o := range opts {
		key := o
		if k, _, ok := strings.Cut(o, "="); ok && strings.HasPrefix(o, "--") {
			key = k
		} else if !strings.HasPrefix(o, "--") && len(o) > 2 && valued[o[:2]] {
			key = o[:2]
		}
		if !allowed[key] {
			return o, false
		}
	}
	return "", true
}

// shellJoin prints an argv for a reason, quoting what the shell would split or expand.
func shellJoin(argv []string) string {
	var b strings.Builder
	for i, a := range argv {
		if i > 0 {
			b.WriteByte(' ')
		}
		if a != "" && !strings.ContainsAny(a, " \t\n'\"\\$`|&;<>()*?[]{}~#!") {
			b.WriteString(a)
			continue
		}
		b.WriteByte('\'')
		b.WriteString(strings.ReplaceAll(a, "'", `'\''`))
		b.WriteByte('\'')
	}
	return b.String()
}
