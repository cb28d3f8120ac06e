package classify

import (
	"path"
	"slices"
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/shell"
)

// roSpec says how a command that normally only reads can be made to write or run something
// after all. Option names are given without dashes: one letter is a short option, more is a
// long one. The same table drives classify's verdict (the allow list, low) and ReadOnly, which
// oath-gate uses, so the two cannot drift apart.
type roSpec struct {
	short   string   // short options that take a value (a cluster stops there: sort -to)
	long    []string // long options that take a separate value
	writes  []string // options whose value is a file written (tree -o F, sort -o F)
	flags   []string // options that make it change something not named by a value (tree -R, date -s)
	runs    []string // options whose value is a program run (rg --pre, man -P)
	operand int      // > 0: that operand (1-based) is written (uniq in out, xxd in out)
	shell   bool     // a shell builtin: changes nothing on disk but the shell's own state
	// (variables, PATH lookups, traps …) that later commands use; low in classify, where
	// each command is judged on its own, but not ReadOnly.
}

var readOnlySpecs = func() map[string]roSpec {
	m := map[string]roSpec{}
	plain := strings.Fields(`ls cat pwd du df file head tail wc stat cut tr nl cmp comm basename dirname realpath
		readlink which whereis type true false test [ echo printf jq gojq column fold expand unexpand rev tac od hexdump
		md5sum sha1sum sha224sum sha256sum sha384sum sha512sum shasum cksum b2sum md5 sum seq sleep cd pushd popd dirs :
		ps uptime free pgrep locale tput zcat zgrep egrep fgrep grep eza exa lsd strings nm objdump expr bc getconf nproc
		arch lsb_release sw_vers tty groups logname cal yes look join paste numfmt whoami id uname lsof printenv more`)
	for _, n := range plain {
		m[n] = roSpec{}
	}
	for _, n := range strings.Fields(`help history command hash wait set shopt local return exit break continue shift
		unset read mapfile readarray getopts let eval trap alias unalias export declare typeset readonly times ulimit
		umask jobs fg bg disown compgen complete caller enable`) {
		m[n] = roSpec{shell: true}
	}
	m["grep"] = roSpec{short: "efmABCd", long: []string{"regexp", "file", "max-count", "after-context", "before-context", "context"}}
	m["rg"] = roSpec{short: "efmABCgtTM", long: []string{"regexp", "file", "pre", "pre-glob", "glob", "type", "type-not", "max-count"}, runs: []string{"pre"}}
	m["ag"] = roSpec{short: "ABCGgm", long: []string{"pager"}, runs: []string{"pager"}}
	m["ack"] = roSpec{long: []string{"pager"}, runs: []string{"pager"}}
	m["tree"] = roSpec{short: "oLPIH", long: []string{"output", "charset", "filelimit", "timefmt", "sort"}, writes: []string{"o", "output"}, flags: []string{"R"}}
	m["less"] = roSpec{short: "oOxbhjkpPTyz", long: []string{"log-file", "LOG-FILE", "tag-file", "pattern"}, writes: []string{"o", "O", "log-file", "LOG-FILE"}}
	m["more"] = roSpec{}
	m["bat"] = roSpec{long: []string{"pager", "language", "style", "theme", "line-range", "highlight-line", "map-syntax", "tabs", "wrap", "color", "paging"}, runs: []string{"pager"}}
	m["fd"] = roSpec{short: "xXetdE", long: []string{"exec", "exec-batch", "extension", "type", "max-depth", "exclude"}, runs: []string{"x", "X", "exec", "exec-batch"}}
	m["man"] = roSpec{short: "PHMSsLm", long: []string{"pager", "html", "manpath", "sections", "locale"}, runs: []string{"P", "H", "pager", "html"}}
	m["sort"] = roSpec{short: "otkST", long: []string{"output", "key", "field-separator", "buffer-size", "temporary-directory", "compress-program"}, writes: []string{"o", "output"}, runs: []string{"compress-program"}}
	m["uniq"] = roSpec{short: "fsw", long: []string{"skip-fields", "skip-chars", "check-chars"}, operand: 2}
	m["xxd"] = roSpec{short: "clgsoC", operand: 2}
	m["diff"] = roSpec{long: []string{"output"}, writes: []string{"output"}}
	m["date"] = roSpec{short: "dfrs", long: []string{"date", "file", "reference", "set"}, flags: []string{"s", "set"}}
	m["hostname"] = roSpec{short: "F", long: []string{"file"}, flags: []string{"F", "file"}}
	m["enable"] = roSpec{short: "fd", runs: []string{"f"}, shell: true}
	m["history"] = roSpec{short: "d", shell: true}
	m["head"] = roSpec{short: "nc", long: []string{"lines", "bytes"}}
	m["tail"] = roSpec{short: "ncs", long: []string{"lines", "bytes", "sleep-interval", "pid"}}
	return m
}()

// ReadOnly reports whether one simple command (argv, its name first) changes nothing by
// itself and runs no other program: a program on the allow list without an option that makes
// it write or run something (tree -o, less -o, rg --pre, sort -o, find -delete/-exec/-fprint,
// git -c, git diff --output …), or a git command that only reads. What it writes through a
// redirection is not its own doing and is judged apart. Shell builtins that change the
// shell's state (export, alias, set …) and carriers (eval, command, env …) are not read-only.
// It is oath-gate's test for "only reads" as well as classify's allow list.
func ReadOnly(argv []string) bool {
	if len(argv) == 0 {
		return false
	}
	name := path.Base(argv[0])
	words := make([]shell.Word, len(argv)-1)
	for i, a := range argv[1:] {
		words[i] = shell.Word{Value: a, Known: true}
	}
	switch name {
	case "git":
		return gitReadOnly(argv[1:])
	case "find":
		return findHazard(words) == ""
	case "date":
		p := parseArgs(words, readOnlySpecs["date"].short, readOnlySpecs["date"].long...)
		for _, o := range p.operands {
			if !strings.HasPrefix(o.Value, "+") {
				return false // date MMDDhhmm sets the clock
			}
		}
	case "hostname":
		if len(parseArgs(words, "F", "file").operands) > 0 {
			return false // hostname NAME sets it
		}
	}
	sp, ok := readOnlySpecs[name]
	if !ok || sp.shell {
		return false
	}
	if name == "cd" || name == "pushd" || name == "popd" {
		return true
	}
	return sp.hazard(name, words) == ""
}

// hazard names what makes a read-only command write or run something, or "".
func (sp roSpec) hazard(name string, args []shell.Word) string {
	p := parseArgs(args, sp.short, sp.long...)
	for _, o := range append(append(slices.Clone(sp.writes), sp.flags...), sp.runs...) {
		if len(o) == 1 && p.short[o[0]] || len(o) > 1 && p.long[o] {
			return optName(o)
		}
	}
	if sp.operand > 0 && len(p.operands) >= sp.operand {
		return "an operand it writes"
	}
	if name == "less" {
		for _, a := range args {
			if strings.HasPrefix(a.Value, "+") {
				return a.Value + " (less runs its commands: !, |, s)"
			}
		}
	}
	if name == "bat" && len(p.operands) > 0 && p.operands[0].Value == "cache" {
		return "bat cache"
	}
	return ""
}

func optName(o string) string {
	if len(o) == 1 {
		return "-" + o
	}
	return "--" + o
}

// findHazard names a find action that writes, deletes or runs a program, or "".
func findHazard(args []shell.Word) string {
	for _, a := range args {
		switch a.Value {
		case "-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls":
			return a.Value
		}
	}
	return ""
}

// gitReadOnly: a git command line (after "git") that only reads: global options limited to
// -C, --no-pager, -P, --no-optional-locks (git -c, --git-dir, --exec-path … could make it run
// or write anything), a subcommand of gitRead or a listing form of branch, tag, remote, stash,
// config, and no --output/-o/--ext-diff.
func gitReadOnly(args []string) bool {
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a == "-C" && i+1 < len(args) {
			i++
			continue
		}
		if a == "--no-pager" || a == "-P" || a == "--no-optional-locks" {
			continue
		}
		if strings.HasPrefix(a, "-") {
			return a == "--version" || a == "--help"
		}
		break
	}
	if i >= len(args) {
		return false
	}
	sub, rest := args[i], args[i+1:]
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
	return gitRead[sub] && sub != "fsck" && sub != "help" && sub != "-v"
}
