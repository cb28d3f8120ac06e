package gate

import (
	"path/filepath"
	"strings"
)

// readOnlyCommands change nothing by themselves: whatever they write goes through a redirection,
// which oath-classify reports in paths.write. The list is deliberately short; a command not on it
// might change something, so with no active playbook it is blocked (fail-closed). A value lists
// the options that make the command write after all.
var readOnlyCommands = map[string][]string{
	"cat": nil, "head": nil, "tail": nil, "less": nil, "more": nil, "wc": nil, "nl": nil,
	"ls": nil, "tree": nil, "stat": nil, "file": nil, "du": nil, "df": nil, "pwd": nil,
	"echo": nil, "printf": nil, "true": nil, "false": nil, "test": nil, "[": nil, ":": nil,
	"grep": nil, "egrep": nil, "fgrep": nil, "rg": {"--pre"},
	"find":  {"-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls"},
	"which": nil, "type": nil, "whoami": nil, "id": nil, "uname": nil, "printenv": nil,
	"basename": nil, "dirname": nil, "realpath": nil, "readlink": nil,
	"diff": {"--output"}, "cmp": nil, "comm": nil, "sort": {"-o", "--output"}, "cut": nil, "tr": nil,
	"sha256sum": nil, "sha1sum": nil, "md5sum": nil, "cksum": nil, "od": nil, "hexdump": nil,
	"cd": nil, "pushd": nil, "popd": nil,
	"jq": nil, "column": nil, "fold": nil, "seq": nil, "sleep": nil, "date": {"-s", "--set"},
}

// readOnlyGit are git subcommands that only read the repository.
var readOnlyGit = map[string]bool{
	"status": true, "log": true, "diff": true, "show": true, "rev-parse": true, "ls-files": true,
	"blame": true, "describe": true, "shortlog": true, "grep": true, "cat-file": true,
	"ls-tree": true, "rev-list": true, "merge-base": true, "name-rev": true, "version": true,
}

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

// readOnly reports whether the simple command changes nothing by itself.
func readOnly(argv []string) bool {
	name := cmdName(argv)
	if name == "git" {
		return readOnlyGitCall(argv)
	}
	bad, ok := readOnlyCommands[name]
	if !ok {
		return false
	}
	for _, a := range argv[1:] {
		for _, b := range bad {
			if a == b || strings.HasPrefix(a, b+"=") || (len(b) == 2 && b[0] == '-' && b[1] != '-' && strings.HasPrefix(a, b)) {
				return false
			}
		}
	}
	return true
}

func readOnlyGitCall(argv []string) bool {
	g, ok := parseGit(argv)
	if !ok {
		return false
	}
	for _, a := range g.args {
		if strings.HasPrefix(a, "--output") || a == "-o" {
			return false
		}
	}
	if readOnlyGit[g.sub] {
		return true
	}
	switch g.sub {
	case "branch": // listing only
		for _, a := range g.args {
			switch a {
			case "-a", "-r", "-v", "-vv", "--all", "--remotes", "--show-current", "--verbose":
			default:
				return false
			}
		}
		return true
	case "remote":
		return len(g.args) == 0 || (len(g.args) == 1 && (g.args[0] == "-v" || g.args[0] == "--verbose"))
	case "stash":
		return len(g.args) >= 1 && g.args[0] == "list"
	case "config":
		return len(g.args) >= 1 && (g.args[0] == "--get" || g.args[0] == "--list" || g.args[0] == "-l" || g.args[0] == "--get-all")
	}
	return false
}

// writesNoOperand reports whether the command never writes the files its arguments name, so that
// naming a protected file is harmless: the read-only commands, and git add and commit (staging
// and committing change the repository, not the working tree).
func writesNoOperand(argv []string) bool {
	if readOnly(argv) {
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
