package kernel

import (
	"path/filepath"
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/command"
	"github.com/oath-harness/oath-harness/internal/domain"
	"github.com/oath-harness/oath-harness/internal/risk"
	"github.com/oath-harness/oath-harness/internal/safefile"
)

// PipelineMin is the size from which a program is pipelined (a variable for the tests).
var PipelineMin = 16 << 10

// Pipelined says whether program judges src's commands while it is still being walked: only
// a large program gains, and only one whose text does not name a variable that its commands'
// verdicts depend on (a proxy, GIT_DIR, GIT_WORK_TREE: setsCommandState checks what the walk
// found, however spelled).
func Pipelined(src string) bool {
	if len(src) < PipelineMin {
		return false
	}
	return !ContainsFold(src, "proxy") && !strings.Contains(src, "GIT_DIR") && !strings.Contains(src, "GIT_WORK_TREE") &&
		!ContainsFold(src, "claude") // a nested claude reads the variables the whole call sets (package classify's nested_claude.go)
}

// ContainsFold reports whether s contains the lower-case ASCII word sub in any case. It
// looks for sub's first letter in either case with IndexByte, which scans many bytes at a
// time: s can be a 100 kB script.
func ContainsFold(s, sub string) bool {
	if sub == "" {
		return true
	}
	next := func(from int, b byte) int { // the next b at or after from, or len(s)
		if i := strings.IndexByte(s[from:], b); i >= 0 {
			return from + i
		}
		return len(s)
	}
	lo, up := sub[0], sub[0]&^0x20
	i, j := next(0, lo), next(0, up)
	for {
		at := min(i, j)
		if at+len(sub) > len(s) {
			return false
		}
		if strings.EqualFold(s[at:at+len(sub)], sub) {
			return true
		}
		if at == i {
			i = next(at+1, lo)
		}
		if at == j {
			j = next(at+1, up)
		}
	}
}

// Resolve turns a word into targets: one per directory the command may run in. A relative
// path after a cd that cannot be known is unknown.
func Resolve(w shell.Word, d shell.Dir, tree bool) []Target {
	if !w.Known || w.Value == "" {
		return []Target{{Raw: w.Value, Tree: tree}}
	}
	v := w.Value
	if strings.HasPrefix(v, "/") {
		return []Target{{Path: shell.Abs("/", v), Known: true, Glob: w.Glob, Tree: tree, Raw: v}}
	}
	if d.Unknown {
		return []Target{{Raw: v + " (after a cd that cannot be known)", Tree: tree}}
	}
	out := make([]Target, 0, len(d.Paths))
	for _, dir := range d.Paths {
		out = append(out, Target{Path: shell.Abs(dir, v), Known: true, Glob: w.Glob, Tree: tree, Raw: v})
	}
	return out
}

// SecretName: the seed's API_KEY, SECRET, TOKEN, PASSWORD, and their usual spellings.
//
// It is asked of every variable a program names (namesRead), thousands in a large script, so
// an ASCII name is read once, trying the words that start with the letter at hand.
func SecretName(n string) bool {
	if !Ascii(n) { // upper case can make ASCII of other letters (ſ is S)
		n = strings.ToLower(strings.ToUpper(n))
		for _, s := range secretWords {
			if ContainsFold(n, s) {
				return true
			}
		}
		return false
	}
	for i := 0; i+secretShortest <= len(n); i++ {
		if c := lowerASCII(n[i]); secretFirst[c] {
			for _, s := range secretWords {
				if s[0] == c && prefixFolded(n[i:], s) {
					return true
				}
			}
		}
	}
	return false
}

// secretFirst marks the first letters of secretWords; secretShortest is the shortest's length.
var secretFirst, secretShortest = func() (first [256]bool, shortest int) {
	shortest = len(secretWords[0])
	for _, s := range secretWords {
		first[s[0]] = true
		shortest = min(shortest, len(s))
	}
	return first, shortest
}()

// lowerASCII is c in lower case when it is an ASCII capital.
func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// secretWords are what secretName looks for, in any case (lower case here: containsFold).
var secretWords = []string{"api_key", "apikey", "secret", "token", "password", "passwd", "private_key", "access_key", "credential"}

// Command is one command under judgement.
type Command struct {
	Env  *Env
	Call *Result
	Cmd  *shell.Cmd
	Name string
	Args []shell.Word // after the program name
	Src  string
	// row is name's row once looked up (prog, rowOK): who changes name clears rowOK.
	row   command.Row
	rowOK bool
}

// Prog is the row of the command's program. A command's judgement asks it a handful of times
// (harness tool, shell, rules, runners, outbound …), and a large script has thousands.
func (x *Command) Prog() *command.Row {
	if !x.rowOK {
		x.row, x.rowOK = Program(x.Name), true
	}
	return &x.row
}

// Dir is where the command runs, for code it is given: its first possible directory, or the
// project's.
func (x *Command) Dir() string { return cmdDir(x.Cmd, x.Env.Layout.ProjectDir) }

// cmdDir is where cmd runs, for code it is given: its first possible directory, or project.
func cmdDir(cmd *shell.Cmd, project string) string {
	if len(cmd.Dir.Paths) > 0 {
		return cmd.Dir.Paths[0]
	}
	return project
}

func (x *Command) Add(lvl risk.Level, domain domain.Domain, rule, detail string) {
	x.Call.Add(lvl, domain, rule, x.Src, detail)
}

// AddUnknown is Result.AddUnknown for this command.
func (x *Command) AddUnknown(lvl risk.Level, domain domain.Domain, rule, detail string, u Unknown) {
	x.Call.AddUnknown(lvl, domain, rule, x.Src, detail, u)
}

// Write records and judges the targets of a file-changing command.
func (x *Command) Write(w shell.Word, tree bool, domain domain.Domain) {
	stdin := x.Cmd.StdinArgs && !strings.HasSuffix(w.Value, "(names read from stdin)")
	if stdin {
		// Names read from stdin are written too, so the target cannot be known; what else
		// is written (xargs find "$D" -delete: trees named on stdin) decides whether a
		// sandbox bounds it (JudgeWrite, bounded.go).
		w = shell.Word{Value: w.Value}
	}
	for _, t := range Resolve(w, x.Cmd.Dir, tree) {
		t = x.nameTarget(t)
		t.AndStdin = stdin
		x.WriteTarget(t, domain)
	}
}

// WriteTarget records one resolved target as written (for the part being judged too,
// package classify's parts.go) and judges it.
func (x *Command) WriteTarget(t Target, domain domain.Domain) {
	if t.Known {
		x.Call.written(t)
	}
	x.Env.JudgeWrite(x.Call, t, domain, x.Src)
}

func (x *Command) Read(w shell.Word) {
	for _, t := range Resolve(w, x.Cmd.Dir, false) {
		if t.Known {
			x.Call.Reads = append(x.Call.Reads, t.Path)
			if !t.Glob && Credential(w.Value) == "" { // cd ~/.aws && cat credentials: the path it lands on
				if why := Credential(t.Path); why != "" {
					x.Add(risk.High, FileRead, RuleCredentialRead, why+", read as "+w.Value)
				}
			}
			if t.Glob { // cat .e*: a glob that may match a credential reads it (protect.go)
				if why := CredentialGlob(t.Path); why != "" {
					x.Add(risk.High, FileRead, RuleCredentialRead, why+", matched by "+w.Value)
				}
			}
		}
	}
}

// ProcEnviron reports /proc/PID/environ (any PID, self, a glob): a process's environment.
func ProcEnviron(p string) bool {
	return strings.HasPrefix(p, "/proc/") && strings.HasSuffix(p, "/environ")
}

// ReadNamesFrom judges a reader given its files by xargs (find ~/.ssh | xargs cat): a path
// named in the statement feeding xargs that is, may match or holds a credential is read.
func (x *Command) ReadNamesFrom() {
	if !x.Cmd.StdinArgs || x.Cmd.ArgsFrom == "" {
		return
	}
	for i, f := range strings.Fields(x.Cmd.ArgsFrom) {
		if i >= 64 {
			break
		}
		f = strings.Trim(f, "'\"")
		if f != "~" && !strings.Contains(f, "/") && !strings.HasPrefix(f, ".") || strings.Contains(f, "://") {
			continue
		}
		w := shell.Word{Value: ExpandHome(f, x.Env.Home), Known: true, Glob: strings.ContainsAny(f, "*?[")}
		for _, t := range Resolve(w, x.Cmd.Dir, false) {
			why := Credential(t.Path)
			if why == "" && t.Glob {
				why = CredentialGlob(t.Path)
			}
			if why == "" && !t.Glob {
				why = CredentialTree(t.Path, x.Env.Home)
			}
			if why != "" {
				x.Add(risk.High, FileRead, RuleCredentialRead, why+", whose names xargs hands to "+x.Name)
				return
			}
		}
	}
}

// ReadTree judges a read of everything under w (grep -r, cp -r): a credential directory, or
// one holding the home directory's credentials, is a read of credentials (protect.go).
func (x *Command) ReadTree(w shell.Word) {
	for _, t := range Resolve(w, x.Cmd.Dir, false) {
		if t.Known {
			if why := CredentialTree(t.Path, x.Env.Home); why != "" {
				x.Add(risk.High, FileRead, RuleCredentialRead, why)
				return
			}
		}
	}
}

// Destroy judges a recursive destructive operation (rm -r, chmod -R …) on w.
func (x *Command) Destroy(w shell.Word, what string) {
	for _, t := range Resolve(w, x.Cmd.Dir, true) {
		t = x.nameTarget(t)
		if why := x.Env.Prot.Catastrophic(t); why != "" {
			x.Add(risk.Critical, ShellExec, RuleCatastrophe, what+" of "+why+": irreversible and broad")
			continue
		}
		// build/home/ where build/home -> ~: the operation reaches what the link points at.
		if t.Known && !t.Glob {
			if real := reachedPath(x.Call.Resolver(), t.Path, strings.HasSuffix(w.Value, "/")); real != t.Path {
				rt := t
				rt.Path = real
				if why := x.Env.Prot.Catastrophic(rt); why != "" {
					x.Add(risk.Critical, ShellExec, RuleCatastrophe, what+" of "+t.Path+", which is "+why+" through a symbolic link: irreversible and broad")
				}
			}
		}
	}
}

// reachedPath is where an operation on p lands once the links on the way are followed: the
// directories above p always; p itself only when it was written with a trailing slash (rm -r
// link removes the link, rm -r link/ what it points to).
func reachedPath(links *safefile.Links, p string, whole bool) string {
	if whole {
		return links.Resolve(p)
	}
	dir := safefile.Parent(p)
	real := links.Resolve(dir)
	if real == dir {
		return p // most often: no link on the way
	}
	return filepath.Join(real, filepath.Base(p))
}

// RunDirs are the directories the command may run in. After a cd that cannot be known, the
// ones that can be known are read (decided: flagging every `cd "$X" && make test` would cost a
// question for each; the write that planted the code was judged when it was made).
func (x *Command) RunDirs() []string {
	if len(x.Cmd.Dir.Paths) == 0 {
		return []string{x.Env.Layout.ProjectDir}
	}
	return x.Cmd.Dir.Paths
}

// Rel is path relative to the project when inside it, for reasons.
func (x *Command) Rel(path string) string {
	if r, err := filepath.Rel(x.Env.Layout.ProjectDir, path); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return path
}

func Join(dir, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(dir, p)
}
