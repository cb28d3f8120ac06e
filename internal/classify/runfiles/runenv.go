package runfiles

import (
	"path/filepath"
	"strings"
	"sync"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// Environment that carries code (issue 12): a variable a program reads as a program to run
// (GIT_PAGER, EDITOR, GIT_SSH_COMMAND …), a file to run first (BASH_ENV), a library to load
// (LD_PRELOAD), where to look programs or modules up (PATH, PYTHONPATH), or options that load
// code (NODE_OPTIONS=--require, GOFLAGS=-toolexec …). An assignment anywhere in a Bash call
// (a prefix, export, env X=…, declare) is judged as what it makes run: a value that is a
// program is analysed as shell (its high and critical verdicts taken over); one that cannot
// be read (a library, an interpreter's options, a value unknown statically) is at least high.

// envKind says how a variable carries code.
type envKind uint8

const (
	envProgram   envKind = iota + 1 // the value is a command line something runs
	envSourced                      // the value is a file run at start (its text is read and judged)
	envLibrary                      // native code loaded into every program: cannot be read
	envSearch                       // PATH: programs are looked up there, in order
	envModules                      // a module search path: code from there is imported
	envOptions                      // a runtime's options, some of which load code
	envGitConfig                    // configuration git reads
)

// EnvRow is one variable (a trailing * matches a prefix, a leading * a suffix).
type EnvRow struct {
	Name string
	kind envKind
	what string
}

// EnvTable: one row per code-carrying variable.
var EnvTable = []EnvRow{
	{"BASH_ENV", envSourced, "bash runs that file before any script"},
	{"ENV", envSourced, "sh runs that file at start"},
	{"PYTHONSTARTUP", envSourced, "python runs that file at start"},
	{"MAKEFILES", envSourced, "make reads those makefiles first"},
	{"PROMPT_COMMAND", envProgram, "bash runs it before each prompt"},
	{"LD_PRELOAD", envLibrary, "loads that library into every program"},
	{"LD_LIBRARY_PATH", envLibrary, "programs load their libraries from there first"},
	{"LD_AUDIT", envLibrary, "loads that library into every program"},
	{"DYLD_INSERT_LIBRARIES", envLibrary, "loads that library into every program"},
	{"DYLD_LIBRARY_PATH", envLibrary, "programs load their libraries from there first"},
	{"DYLD_FRAMEWORK_PATH", envLibrary, "programs load their frameworks from there first"},
	{"GCONV_PATH", envLibrary, "glibc loads conversion modules from there"},
	{"PYTHONHOME", envLibrary, "python loads its standard library from there"},
	{"GIT_EXEC_PATH", envLibrary, "git runs its own programs from there"},
	{"PATH", envSearch, "programs are looked up there first"},
	{"PYTHONPATH", envModules, "python imports modules from there first"},
	{"NODE_PATH", envModules, "node loads modules from there"},
	{"PERL5LIB", envModules, "perl loads modules from there first"},
	{"PERLLIB", envModules, "perl loads modules from there first"},
	{"RUBYLIB", envModules, "ruby loads libraries from there first"},
	{"NODE_OPTIONS", envOptions, "options of every node program"},
	{"PERL5OPT", envOptions, "options of every perl program"},
	{"RUBYOPT", envOptions, "options of every ruby program"},
	{"GOFLAGS", envOptions, "flags of every go command"},
	{"MAKEFLAGS", envOptions, "options of every make"},
	{"JAVA_TOOL_OPTIONS", envOptions, "options of every JVM"},
	{"_JAVA_OPTIONS", envOptions, "options of every JVM"},
	{"JDK_JAVA_OPTIONS", envOptions, "options of every JVM"},
	{"PERL5DB", envProgram, "perl runs it as its debugger"},
	{"GIT_EDITOR", envProgram, "git runs it to edit messages"},
	{"GIT_SEQUENCE_EDITOR", envProgram, "git rebase runs it"},
	{"EDITOR", envProgram, "programs run it to edit text"},
	{"VISUAL", envProgram, "programs run it to edit text"},
	{"GIT_PAGER", envProgram, "git runs it to show output"},
	{"PAGER", envProgram, "programs run it to show output"},
	{"MANPAGER", envProgram, "man runs it"},
	{"GIT_SSH_COMMAND", envProgram, "git runs it to reach a remote"},
	{"GIT_SSH", envProgram, "git runs it to reach a remote"},
	{"GIT_ASKPASS", envProgram, "git runs it to ask for a password"},
	{"SSH_ASKPASS", envProgram, "ssh runs it to ask for a password"},
	{"GIT_EXTERNAL_DIFF", envProgram, "git runs it to show differences"},
	{"GIT_PROXY_COMMAND", envProgram, "git runs it to connect"},
	{"GIT_TEMPLATE_DIR", envSourced, "git init and clone copy its hooks"},
	{"BROWSER", envProgram, "programs run it to open links"},
	{"LESSOPEN", envProgram, "less runs it on every file"},
	{"LESSCLOSE", envProgram, "less runs it on every file"},
	{"RUSTC_WRAPPER", envProgram, "cargo runs it instead of rustc"},
	{"RUSTC", envProgram, "cargo runs it as rustc"},
	{"CARGO_BUILD_RUSTC_WRAPPER", envProgram, "cargo runs it instead of rustc"},
	{"CARGO_TARGET_*_RUNNER", envProgram, "cargo runs the built program with it"},
	{"CARGO_TARGET_*_LINKER", envProgram, "cargo runs it as the linker"},
	{"CC", envProgram, "builds run it as the C compiler"},
	{"CXX", envProgram, "builds run it as the C++ compiler"},
	{"NPM_CONFIG_SCRIPT_SHELL", envProgram, "npm runs every script with it"},
	{"npm_config_script_shell", envProgram, "npm runs every script with it"},
	{"GIT_CONFIG_PARAMETERS", envGitConfig, "git reads it as configuration"},
	{"GIT_CONFIG_VALUE_*", envGitConfig, "git reads it as configuration"},
	{"GIT_CONFIG_GLOBAL", envGitConfig, "git reads that file as its configuration"},
	{"GIT_CONFIG_SYSTEM", envGitConfig, "git reads that file as its configuration"},
	{"GIT_CONFIG", envGitConfig, "git reads that file as its configuration"},
	{"GIT_DIR", envGitConfig, "git reads that repository's configuration"},
}

// EnvRowFor returns the first row of envTable that names the variable, or nil.
func EnvRowFor(name string) *EnvRow {
	found := -1
	ix := envIndex()
	if i, ok := ix.exact[name]; ok {
		found = i
	}
	for _, w := range ix.wild {
		if found >= 0 && w.row > found {
			break
		}
		if len(name) > len(w.pre)+len(w.suf) && strings.HasPrefix(name, w.pre) && strings.HasSuffix(name, w.suf) {
			found = w.row
			break
		}
	}
	if found < 0 {
		return nil
	}
	return &EnvTable[found]
}

// envIndex is envTable by exact name, and its rows with a * (GIT_CONFIG_KEY_*) in order:
// every assignment of a program is looked up, thousands in a configure script.
var envIndex = sync.OnceValue(newEnvIndex)

type envRowIndex struct {
	exact map[string]int // the first row of the name
	wild  []envWildRow
}

type envWildRow struct {
	row      int
	pre, suf string // around the *
}

func newEnvIndex() envRowIndex {
	ix := envRowIndex{exact: map[string]int{}}
	for i, row := range EnvTable {
		pre, suf, wild := strings.Cut(row.Name, "*")
		if !wild {
			if _, dup := ix.exact[row.Name]; !dup {
				ix.exact[row.Name] = i
			}
			continue
		}
		ix.wild = append(ix.wild, envWildRow{i, pre, suf})
	}
	return ix
}

// EnvCode judges the code-carrying assignments of a program (hooked into program()).
func EnvCode(c *kernel.Env, r *kernel.Result, names []shell.Name, cwd string) {
	for _, n := range names {
		if !n.Assign {
			continue
		}
		if n.Name == "GIT_DIR" || n.Name == "GIT_WORK_TREE" {
			r.GitElsewhere = true // git/rewrites.go: the repository git is asked about is not this one
		}
		if kernel.ContainerVariable(n.Name) {
			r.ContainerEnv = append(r.ContainerEnv, n) // person/person.go: containers of another engine or project
		}
		if row := EnvRowFor(n.Name); row != nil {
			envValue(c, r, row, n.Name, n.Value, cwd, names, n.Src)
		}
	}
}

// envValue judges one assignment of a code-carrying variable.
func envValue(c *kernel.Env, r *kernel.Result, row *EnvRow, name string, v shell.Word, cwd string, names []shell.Name, src string) {
	what := name + "=" + kernel.Clip(strings.ReplaceAll(v.Value, shell.Dyn, "$(…)"))
	s := kernel.Sink{Prefix: what + ": " + row.what + ";"}
	high := func(why string) {
		r.Add(risk.High, kernel.ShellExec, kernel.RuleRunsProgram, src, what+": "+row.what+why)
	}
	switch row.kind {
	case envProgram:
		prog := v.Value
		if name == "LESSOPEN" || name == "LESSCLOSE" {
			prog = strings.ReplaceAll(strings.TrimLeft(prog, "|"), "%s", "")
		}
		if !v.Known {
			high(", a program that cannot be known statically")
		}
		c.JudgeCode(r, prog, kernel.LangShell, cwd, s)
	case envSourced:
		high(": code that runs without being seen")
		if v.Known && name != "MAKEFILES" && name != "GIT_TEMPLATE_DIR" {
			l := kernel.LangShell
			if name == "PYTHONSTARTUP" {
				l = kernel.LangPython
			}
			if text, ok, _ := r.ReadCode(kernel.Join(cwd, v.Value)); ok {
				c.JudgeCode(r, text, l, cwd, s)
			}
		}
	case envLibrary:
		high(": native code the harness cannot read")
	case envSearch:
		if dir := firstWritable(c, v.Value, cwd); dir != "" {
			high(": " + dir + " comes before the system's directories, so a file there runs in place of a system program")
		}
	case envModules:
		if dir := firstWritable(c, v.Value, cwd); dir != "" {
			r.Add(risk.Medium, kernel.TestRun, kernel.RuleCodeLocation, src, what+": "+row.what+" ("+dir+"), so project files can stand in for a tool's own modules")
		}
	case envOptions:
		judgeEnvOptions(c, r, name, v, cwd, src, what, row)
	case envGitConfig:
		judgeEnvGitConfig(c, r, name, v, cwd, names, src, what)
	}
}

// firstWritable returns the first entry of a search path (entries before the inherited value)
// that is relative, unknown, in the project or in a temporary directory, or "".
func firstWritable(c *kernel.Env, list, cwd string) string {
	for _, e := range strings.Split(list, ":") {
		switch {
		case e == shell.Dyn || e == "$PATH":
			return "" // the inherited path: what comes after it is searched later
		case strings.Contains(e, shell.Dyn):
			return strings.ReplaceAll(e, shell.Dyn, "$(…)")
		case e == "" || !filepath.IsAbs(e):
			if e == "" {
				e = "(empty: the current directory)"
			}
			return e
		case kernel.Under(filepath.Clean(e), c.Layout.ProjectDir) || kernel.Under(filepath.Clean(e), cwd) && cwd != "/" || strings.HasPrefix(e, "/tmp/") || strings.HasPrefix(e, "/var/tmp/") || e == "/tmp":
			return e
		}
	}
	return ""
}

// judgeEnvOptions finds the options of a runtime that load code: node's --require/--import/
// --loader, perl's -M/-m/-I/-d, ruby's -r, go's -toolexec/-exec/-overlay, make's
// --eval/-f/SHELL=, the JVM's -javaagent/-agentpath/-agentlib.
func judgeEnvOptions(c *kernel.Env, r *kernel.Result, name string, v shell.Word, cwd, src, what string, row *EnvRow) {
	if !v.Known {
		r.Add(risk.High, kernel.ShellExec, kernel.RuleRunsProgram, src, what+": "+row.what+", which cannot be known statically")
	}
	words := strings.Fields(v.Value)
	for i, w := range words {
		next := ""
		if i+1 < len(words) {
			next = words[i+1]
		}
		flag, val, has := strings.Cut(w, "=")
		if !has {
			val = next
		}
		loads := ""
		switch name {
		case "NODE_OPTIONS":
			switch flag {
			case "--require", "-r", "--import", "--loader", "--experimental-loader", "--experimental-policy", "--inspect", "--inspect-brk":
				loads = val
			}
		case "PERL5OPT":
			if strings.HasPrefix(w, "-M") || strings.HasPrefix(w, "-m") || strings.HasPrefix(w, "-I") || strings.HasPrefix(w, "-d") {
				loads = w
			}
		case "RUBYOPT":
			if strings.HasPrefix(w, "-r") || strings.HasPrefix(w, "-I") {
				loads = w
			}
		case "GOFLAGS":
			switch strings.TrimLeft(flag, "-") {
			case "toolexec", "exec", "vettool":
				r.Add(risk.High, kernel.ShellExec, kernel.RuleRunsProgram, src, what+": every go command runs "+kernel.QuoteRaw(val))
				c.JudgeCode(r, val, kernel.LangShell, cwd, kernel.Sink{Prefix: what + " runs:"})
				continue
			case "overlay", "modfile":
				loads = val
			}
		case "MAKEFLAGS":
			if flag == "--eval" || flag == "-E" || flag == "--file" || flag == "--makefile" || strings.HasPrefix(w, "-f") || strings.HasPrefix(w, "SHELL=") {
				loads = w
			}
		default: // the JVM
			if strings.HasPrefix(w, "-javaagent:") || strings.HasPrefix(w, "-agentpath:") || strings.HasPrefix(w, "-agentlib:") || strings.HasPrefix(w, "-XX:OnError") || strings.HasPrefix(w, "-XX:OnOutOfMemoryError") {
				loads = w
			}
		}
		if loads != "" {
			r.Add(risk.High, kernel.ShellExec, kernel.RuleRunsProgram, src, what+": "+row.what+" load "+kernel.QuoteRaw(loads)+", code that runs without being seen")
			return
		}
	}
}

// judgeEnvGitConfig judges configuration given to git through the environment.
func judgeEnvGitConfig(c *kernel.Env, r *kernel.Result, name string, v shell.Word, cwd string, names []shell.Name, src, what string) {
	var kvs []kernel.GitKV
	switch {
	case name == "GIT_CONFIG_PARAMETERS":
		// 'key'='value' 'key2'='value2': shell-quoted words
		prog := shell.Analyze("x "+v.Value, shell.Options{Cwd: cwd})
		if len(prog.Cmds) > 0 {
			for _, w := range prog.Cmds[0].Args[1:] {
				if k, val, ok := strings.Cut(w.Value, "="); ok {
					kvs = append(kvs, kernel.GitKV{Key: kernel.NormGitKey(k), Value: val, From: name})
				}
			}
		}
	case strings.HasPrefix(name, "GIT_CONFIG_VALUE_"):
		key := "GIT_CONFIG_KEY_" + strings.TrimPrefix(name, "GIT_CONFIG_VALUE_")
		k := shell.Word{Value: shell.Dyn}
		for _, n := range names {
			if n.Assign && n.Name == key {
				k = n.Value
			}
		}
		if !k.Known {
			r.Add(risk.High, kernel.ShellExec, kernel.RuleGitConfigRun, src, what+": git reads it as the value of a key that cannot be known statically")
			return
		}
		kvs = append(kvs, kernel.GitKV{Key: kernel.NormGitKey(k.Value), Value: v.Value, From: name})
	default: // a configuration file
		if !v.Known {
			r.Add(risk.High, kernel.ShellExec, kernel.RuleGitConfigRun, src, what+": git reads a configuration file that cannot be known statically")
			return
		}
		p := kernel.Join(cwd, v.Value)
		if name == "GIT_DIR" {
			p = filepath.Join(p, "config")
		}
		if text, ok, _ := r.ReadCode(p); ok {
			kvs = kernel.ParseGitConfig(text, p)
		}
	}
	for _, kv := range kvs {
		row := kernel.GitProgRowFor(kv.Key)
		if row == nil || row.Kind == kernel.GvFsmonitor && kernel.IsGitBool(kv.Value) {
			continue
		}
		r.Add(risk.High, kernel.ShellExec, kernel.RuleGitConfigRun, src, what+": git runs what "+kv.Key+" names ("+kernel.Clip(kv.Value)+")")
		c.JudgeGitValue(r, kv, row, cwd, kernel.Sink{Prefix: what + ": git runs " + kv.Key + ":"}, nil)
	}
}
