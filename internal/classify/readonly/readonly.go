// Package readonly knows which commands only read: the allow list shared by oath-classify
// (a low verdict) and oath-gate (what passes with no active playbook), option-aware (tree -o,
// less -o, rg --pre, sort -o, find -delete/-exec/-fprint, git -c, git diff --output …), so the
// two stages cannot drift apart. It is a leaf package: oath-gate does not pay for the shell
// parser or gojq.
package readonly

import (
	"path"
	"slices"
	"strings"

	"github.com/oath-harness/oath-harness/internal/command"
)

// Spec says how a command that normally only reads can be made to write or run something
// after all. Option names are given without dashes: one letter is a short option, more is a
// long one.
type Spec struct {
	Short   string   // short options that take a value (a cluster stops there: sort -to)
	Long    []string // long options that take a separate value
	Writes  []string // options whose value is a file written (tree -o F, sort -o F)
	Flags   []string // options that make it change something not named by a value (tree -R, date -s)
	Runs    []string // options whose value is a program run (rg --pre, man -P)
	Operand int      // > 0: that operand (1-based) is written (uniq in out, xxd in out)
	// Shell marks a shell builtin: it changes nothing on disk but the shell's own state
	// (variables, PATH lookups, traps …) that later commands use. oath-classify judges it low,
	// each command being judged on its own; it is not ReadOnly.
	Shell bool
}

// GitRead are the git subcommands that only read (domain git_read in oath-classify), before
// their options are looked at.
var GitRead = set("status", "log", "diff", "show", "blame", "rev-parse", "ls-files", "ls-tree", "cat-file",
	"describe", "shortlog", "grep", "rev-list", "name-rev", "merge-base", "show-ref", "show-branch", "whatchanged",
	"help", "version", "count-objects", "for-each-ref", "verify-commit", "verify-tag", "check-ignore", "check-attr",
	"var", "cherry", "range-diff", "diff-tree", "diff-index", "diff-files", "annotate", "fsck", "--version", "-v", "--help")

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// Specs is the allow list: every command that only reads, with what can make it do more.
var Specs = func() map[string]Spec {
	m := map[string]Spec{}
	plain := strings.Fields(`ls cat pwd du df file head tail wc stat cut tr nl cmp comm basename dirname realpath
		readlink which whereis type true false test [ echo printf jq gojq column fold expand unexpand rev tac od hexdump
		md5sum sha1sum sha224sum sha256sum sha384sum sha512sum shasum cksum b2sum md5 sum seq sleep cd pushd popd dirs :
		ps uptime free pgrep locale tput zcat zgrep egrep fgrep grep eza exa lsd strings nm objdump expr bc getconf nproc
		arch lsb_release sw_vers tty groups logname cal yes look join paste numfmt whoami id uname lsof printenv more`)
	for _, n := range plain {
		m[n] = Spec{}
	}
	for _, n := range strings.Fields(`help history command hash wait set shopt local return exit break continue shift
		unset read mapfile readarray getopts let eval trap alias unalias export declare typeset readonly times ulimit
		umask jobs fg bg disown compgen complete caller enable`) {
		m[n] = Spec{Shell: true}
	}
	m["grep"] = Spec{Short: "efmABCd", Long: []string{"regexp", "file", "max-count", "after-context", "before-context", "context"}}
	m["rg"] = Spec{Short: "efmABCgtTM", Long: []string{"regexp", "file", "pre", "pre-glob", "glob", "type", "type-not", "max-count"}, Runs: []string{"pre"}}
	m["ag"] = Spec{Short: "ABCGgm", Long: []string{"pager"}, Runs: []string{"pager"}}
	m["ack"] = Spec{Long: []string{"pager"}, Runs: []string{"pager"}}
	m["tree"] = Spec{Short: "oLPIH", Long: []string{"output", "charset", "filelimit", "timefmt", "sort"}, Writes: []string{"o", "output"}, Flags: []string{"R"}}
	m["less"] = Spec{Short: "oOxbhjkpPTyz", Long: []string{"log-file", "LOG-FILE", "tag-file", "pattern"}, Writes: []string{"o", "O", "log-file", "LOG-FILE"}}
	m["more"] = Spec{}
	m["bat"] = Spec{Long: []string{"pager", "language", "style", "theme", "line-range", "highlight-line", "map-syntax", "tabs", "wrap", "color", "paging"}, Runs: []string{"pager"}}
	m["fd"] = Spec{Short: "xXetdE", Long: []string{"exec", "exec-batch", "extension", "type", "max-depth", "exclude"}, Runs: []string{"x", "X", "exec", "exec-batch"}}
	m["man"] = Spec{Short: "PHMSsLm", Long: []string{"pager", "html", "manpath", "sections", "locale"}, Runs: []string{"P", "H", "pager", "html"}}
	m["sort"] = Spec{Short: "otkST", Long: []string{"output", "key", "field-separator", "buffer-size", "temporary-directory", "compress-program"}, Writes: []string{"o", "output"}, Runs: []string{"compress-program"}}
	m["uniq"] = Spec{Short: "fsw", Long: []string{"skip-fields", "skip-chars", "check-chars"}, Operand: 2}
	m["xxd"] = Spec{Short: "clgsoC", Operand: 2}
	m["diff"] = Spec{Long: []string{"output"}, Writes: []string{"output"}}
	m["date"] = Spec{Short: "dfrs", Long: []string{"date", "file", "reference", "set"}, Flags: []string{"s", "set"}}
	m["hostname"] = Spec{Short: "F", Long: []string{"file"}, Flags: []string{"F", "file"}}
	m["enable"] = Spec{Short: "fd", Runs: []string{"f"}, Shell: true}
	m["history"] = Spec{Short: "d", Shell: true}
	m["head"] = Spec{Short: "nc", Long: []string{"lines", "bytes"}}
	m["tail"] = Spec{Short: "ncs", Long: []string{"lines", "bytes", "sleep-interval", "pid"}}
	return m
}()

// ReadOnly reports whether one simple command (argv, its name first) changes nothing by
// itself and runs no other program: a program on the allow list without an option that makes
// it write or run something (tree -o, less -o, rg --pre, sort -o, find -delete/-exec/-fprint,
// git -c, git diff --output …), or a git command that only reads. What it writes through a
// redirection is not its own doing and is judged apart. Shell builtins that change the
// shell's state (export, alias, set …) and carriers (eval, command, env …) are not read-only.
// It is oath-gate's test for "only reads"; oath-classify's allow list is low exactly when it holds.
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
	case "date":
		p := Parse(words, Specs["date"].Short, Specs["date"].Long...)
		for _, o := range p.Operands {
			if !strings.HasPrefix(o.Value, "+") {
				return false // date MMDDhhmm sets the clock
			}
		}
	case "hostname":
		if len(Parse(words, "F", "file").Operands) > 0 {
			return false // hostname NAME sets it
		}
	}
	sp, ok := Specs[name]
	if !ok || sp.Shell {
		return false
	}
	if name == "cd" || name == "pushd" || name == "popd" {
		return true
	}
	return sp.Hazard(name, words) == ""
}

// Hazard names what makes the read-only command name write or run something, or "".
func (sp Spec) Hazard(name string, args []string) string {
	p := Parse(args, sp.Short, sp.Long...)
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

// OptName spells an option name of a Spec as on the command line.
func OptName(o string) string { return command.OptName(o) }

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

// GitReadOnly: a git command line (after "git") that only reads: global options limited to
// -C, --no-pager, -P, --no-optional-locks (git -c, --git-dir, --exec-path … could make it run
// or write anything), a subcommand of gitRead or a listing form of branch, tag, remote, stash,
// config, and no --output/-o/--ext-diff.
func GitReadOnly(args []string) bool {
	g := command.SplitGit(command.Words(args))
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
	return GitRead[sub] && sub != "fsck" && sub != "help" && sub != "-v"
}

// Parse splits args; see command.Parse.
func Parse(args []string, short string, long ...string) command.Args {
	return command.ParseStrings(args, short, long...)
}
