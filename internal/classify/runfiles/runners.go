package runfiles

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/command"
	"github.com/oath-harness/oath-harness/internal/makefile"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// Runners (issue 12): a program that runs code from files is judged by what it will run as it
// is on disk now — the recipe, the script, the hook, the config value — besides its own rule
// (which stays: `make test` is test_run). Only runners read files, only the files they will
// run, bounded (kernel/filecode.go). The verdicts are taken over by kernel/filecode.go's policy, with their
// own rule ids and domains, the detail saying which runner runs what.

// RunnerCode judges what the command runs from files, when it is a runner (the Runs of its
// row in package command's table; hooked in after the command's own rule). git is not one:
// git/git.go calls gitPrograms with the subcommand it has parsed (git/gitprog.go).
func RunnerCode(x *kernel.Command) {
	row := *x.Prog()
	// uv run pytest, poetry run make test, bundle exec rake: package shell unwraps the run-verb
	// (command's table, Through), so the runner after it is a command of its own.
	switch row.Runs {
	case command.RunsMakefile:
		makeRuns(x)
	case command.RunsJustfile:
		justRuns(x)
	case command.RunsTaskfile:
		taskRuns(x)
	case command.RunsPackageJSON:
		npmRuns(x)
	case command.RunsConftest:
		pytestRuns(x, x.Args)
	case command.RunsGo:
		goRuns(x)
	case command.RunsCargo:
		cargoRuns(x)
	case command.RunsTox:
		toxRuns(x)
	case command.RunsNox:
		fileRuns(x, "noxfile.py", kernel.LangPython, "nox loads")
	case command.RunsShellScript:
		scriptRuns(x)
	case command.RunsScript:
		interpreterRuns(x)
	case command.RunsConfig:
		configRuns(x)
	default:
		if len(x.Cmd.Args) > 0 && strings.Contains(x.Cmd.Args[0].Value, "/") {
			pathRuns(x)
		}
	}
}

// runFile judges a file the runner will run in the directory cwd: read (bounded), then
// judged as code in l. A script given to a shell or an interpreter runs where the command
// runs (sh scripts/x.sh: its relative paths are the caller's), a file a tool loads from its
// own directory there (cargo's build.rs, nox's noxfile.py).
func runFile(x *kernel.Command, path, cwd string, l kernel.Lang, prefix string) bool {
	text, ok, cut := x.Call.ReadCode(path)
	if !ok && !cut {
		return false
	}
	if cut {
		x.Add(risk.Medium, kernel.ShellExec, kernel.RuleRunnerUnread, prefix+" "+path+", longer than the harness reads (or past the call's budget): the rest is not judged")
	}
	x.Env.JudgeCode(x.Call, text, l, cwd, kernel.Sink{Prefix: prefix + " " + x.Rel(path) + ":"})
	return ok
}

// ---- make ----

// makeRuns reads the makefile make will read and judges the recipes of the goals and their
// prerequisites, and the programs make runs while reading it.
func makeRuns(x *kernel.Command) {
	var chdir, files, incDirs, goals []string
	overrides := map[string]string{}
	dry := false
	// make's options that take a value, and where the value goes (nil: not needed here; -E
	// and --eval are analysed by package shell).
	valued := []struct {
		short, long string
		to          *[]string
	}{{"-C", "--directory", &chdir}, {"-f", "--file", &files}, {"", "--makefile", &files}, {"-I", "--include-dir", &incDirs},
		{"-E", "--eval", nil}, {"-o", "--old-file", nil}, {"-W", "--what-if", nil}}
	for i := 0; i < len(x.Args); i++ {
		v := x.Args[i].Value
		taken := false
		for _, o := range valued {
			val, ok := "", false
			switch {
			case v == o.short || v == o.long:
				if i+1 < len(x.Args) {
					i++
					val, ok = x.Args[i].Value, true
				}
			case strings.HasPrefix(v, o.long+"="):
				val, ok = v[len(o.long)+1:], true
			case o.short != "" && strings.HasPrefix(v, o.short) && len(v) > len(o.short) && !strings.HasPrefix(v, "--"):
				val, ok = v[len(o.short):], true
			}
			if ok {
				if o.to != nil {
					*o.to = append(*o.to, val)
				}
				taken = true
				break
			}
		}
		if taken {
			continue
		}
		switch {
		case v == "-n" || v == "--dry-run" || v == "--just-print" || v == "--recon" || v == "-q" || v == "--question" || v == "-t" || v == "--touch":
			dry = true
		case (v == "-j" || v == "-l") && i+1 < len(x.Args) && isNumber(x.Args[i+1].Value):
			i++
		case strings.HasPrefix(v, "-"):
		case isAssignWord(v):
			k, val, _ := strings.Cut(v, "=")
			overrides[strings.TrimSuffix(strings.TrimSuffix(k, ":"), ":")] = val
		default:
			goals = append(goals, v)
		}
	}
	for _, d := range x.RunDirs() {
		for _, c := range chdir {
			d = kernel.Join(d, c)
		}
		makeIn(x, d, files, incDirs, goals, overrides, dry)
	}
}

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if (s[i] < '0' || s[i] > '9') && s[i] != '.' {
			return false
		}
	}
	return true
}

func isAssignWord(s string) bool {
	name, _, ok := strings.Cut(s, "=")
	name = strings.TrimRight(name, ":+?!")
	if !ok || name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c == '_' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && (c >= '0' && c <= '9' || c == '-')) {
			return false
		}
	}
	return true
}

func makeIn(x *kernel.Command, dir string, files, incDirs, goals []string, overrides map[string]string, dry bool) {
	if len(files) == 0 {
		for _, f := range []string{"GNUmakefile", "makefile", "Makefile"} {
			if st, err := os.Stat(filepath.Join(dir, f)); err == nil && st.Mode().IsRegular() {
				files = []string{f}
				break
			}
		}
	}
	mf := makefile.New()
	mf.OneShell = strings.Contains(x.Src, ".ONESHELL") // make --eval=.ONESHELL:, MAKEFLAGS=…
	read := false
	for _, f := range files {
		if f == "-" || strings.HasPrefix(f, "/dev/") || strings.HasPrefix(f, "/proc/") {
			continue // a stream: package shell analyses it
		}
		p := kernel.Join(dir, f)
		text, ok, cut := x.Call.ReadCode(p)
		if cut {
			x.Add(risk.Medium, kernel.ShellExec, kernel.RuleRunnerUnread, "make reads "+p+", longer than the harness reads: the rest is not judged")
		}
		if ok {
			mf.Add(text, false)
			read = true
		}
	}
	if !read {
		return
	}
	ctx := mf.Ctx(overrides, dir)
	for i := 0; i < len(mf.Includes) && i < makefile.MaxIncludes; i++ {
		for _, name := range strings.Fields(ctx.Expand(mf.Includes[i])) {
			if strings.Contains(name, shell.Dyn) || strings.ContainsAny(name, "*?[") {
				x.Add(risk.High, kernel.ShellExec, kernel.RuleRunnerUnread, "make includes "+kernel.QuoteRaw(name)+", a makefile that cannot be known statically")
				continue
			}
			for _, d := range append([]string{dir}, incDirs...) {
				if text, ok, _ := x.Call.ReadCode(kernel.Join(kernel.Join(dir, d), name)); ok {
					mf.Add(text, false)
					break
				}
			}
		}
	}
	what := "make"
	if len(goals) > 0 {
		what += " " + strings.Join(goals, " ")
	}
	lines, runs, unseen := mf.Plan(goals, overrides, dir, dry)
	for _, r := range runs {
		x.Env.JudgeCode(x.Call, r, kernel.LangShell, dir, kernel.Sink{Prefix: what + " runs, while reading its makefile, $(shell " + kernel.Clip(r) + "):"})
	}
	if sh, _ := ctx.Lookup("SHELL"); !plainShell(sh) {
		x.Add(risk.High, kernel.ShellExec, kernel.RuleRunsProgram, what+" runs its recipes with SHELL="+kernel.QuoteRaw(sh)+": they cannot be read as shell")
	}
	for _, env := range mf.RecipeEnv(dir, overrides, plainShell, carriesCode) {
		x.Env.JudgeCode(x.Call, env, kernel.LangShell, dir, kernel.Sink{Prefix: what + " runs its recipes with"})
	}
	for _, l := range lines {
		x.Env.JudgeCode(x.Call, l.Text, kernel.LangShell, dir, kernel.Sink{Prefix: what + " runs the recipe of " + l.Target + ":"})
	}
	if unseen {
		x.Add(risk.Medium, kernel.ShellExec, kernel.RuleRunnerUnread, what+": the goal's recipe is made by $(eval …) or $(call …) and cannot be read")
	}
	if mf.Cut != "" {
		x.Call.NotRead(what + ": its makefile is " + mf.Cut + ": what lies past is not judged")
	}
}

// carriesCode reports an environment variable that carries code (envTable: BASH_ENV,
// LD_PRELOAD …): make exports it to every recipe.
func carriesCode(name string) bool { return EnvRowFor(name) != nil }

// plainShell reports a SHELL value that is a shell by path or name (/bin/sh, /usr/bin/bash,
// /usr/bin/env bash), whose recipes are shell as read here.
func plainShell(v string) bool {
	f := strings.Fields(v)
	if len(f) == 2 && filepath.Base(f[0]) == "env" {
		f = f[1:]
	}
	return len(f) == 1 && shell.IsShell(filepath.Base(f[0]))
}

// ---- just, task ----

func justRuns(x *kernel.Command) {
	recipe := ""
	for _, a := range x.Args {
		if !strings.HasPrefix(a.Value, "-") && !strings.Contains(a.Value, "=") {
			recipe = a.Value
			break
		}
	}
	for _, d := range x.RunDirs() {
		for up, n := d, 0; n < 32; n++ {
			for _, f := range []string{"justfile", "Justfile", ".justfile"} {
				if text, ok, _ := x.Call.ReadCode(filepath.Join(up, f)); ok {
					for _, code := range JustCode(text, recipe, false) {
						x.Env.JudgeCode(x.Call, code.text, code.lang, up, kernel.Sink{Prefix: "just " + recipe + " runs:"})
					}
					return
				}
			}
			if up == "/" || up == "." {
				break
			}
			up = filepath.Dir(up)
		}
	}
}

// JustCode returns the body of a justfile's recipe (the first one when recipe is "", every one
// when all) with its dependencies, and the backtick expressions just evaluates on reading.
func JustCode(text, recipe string, all bool) []codeText {
	text = replaceBetween(text, "{{", "}}", "$__just_interpolation")
	lines := strings.Split(text, "\n")
	bodies := map[string][]string{}
	deps := map[string][]string{}
	first := ""
	var out []codeText
	cur := ""
	for _, line := range lines {
		if line == "" {
			continue
		}
		if line[0] == ' ' || line[0] == '\t' {
			if cur == "" && all {
				cur = "(edited)" // an edit's body lines without their recipe's header
			}
			if cur != "" {
				bodies[cur] = append(bodies[cur], strings.TrimLeft(strings.TrimSpace(line), "@-"))
			}
			continue
		}
		cur = ""
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "#") || strings.HasPrefix(t, "[") {
			continue
		}
		for _, part := range strings.Split(t, "`")[1:] { // x := `cmd`
			if i := strings.IndexByte(t, '`'); i >= 0 && strings.Contains(t[:i], ":=") {
				out = append(out, codeText{part, kernel.LangShell})
			}
			break
		}
		if strings.Contains(t, ":=") || strings.HasPrefix(t, "set ") || strings.HasPrefix(t, "export ") || strings.HasPrefix(t, "import ") || strings.HasPrefix(t, "mod ") || strings.HasPrefix(t, "alias ") {
			continue
		}
		head, after, ok := strings.Cut(t, ":")
		if !ok {
			continue
		}
		f := strings.Fields(strings.TrimLeft(head, "@"))
		if len(f) == 0 {
			continue
		}
		cur = f[0]
		if first == "" {
			first = cur
		}
		for _, d := range strings.Fields(after) {
			deps[cur] = append(deps[cur], strings.Trim(d, "()"))
		}
	}
	if recipe == "" {
		recipe = first
	}
	var names []string
	if all {
		for n := range bodies {
			names = append(names, n)
		}
	} else {
		seen := map[string]bool{}
		queue := []string{recipe}
		for len(queue) > 0 && len(names) < 256 {
			n := queue[0]
			queue = queue[1:]
			if seen[n] {
				continue
			}
			seen[n] = true
			names = append(names, n)
			queue = append(queue, deps[n]...)
		}
	}
	for _, n := range names {
		body := strings.Join(bodies[n], "\n")
		l := kernel.LangShell
		if sl := kernel.ShebangLang(body); sl != kernel.LangNone {
			l = sl
		}
		out = append(out, codeText{body, l})
	}
	return out
}

func taskRuns(x *kernel.Command) {
	for _, d := range x.RunDirs() {
		for _, f := range []string{"Taskfile.yml", "taskfile.yml", "Taskfile.yaml", "taskfile.yaml", "Taskfile.dist.yml", "Taskfile.dist.yaml"} {
			if text, ok, _ := x.Call.ReadCode(filepath.Join(d, f)); ok {
				for _, code := range taskCode(text) {
					x.Env.JudgeCode(x.Call, code.text, kernel.LangShell, d, kernel.Sink{Prefix: "task runs (from " + f + "):"})
				}
				break
			}
		}
	}
}

// ---- scripts ----

// scriptRuns judges the script file of bash FILE, sh FILE, source FILE, . FILE.
func scriptRuns(x *kernel.Command) {
	shellName := x.Name != "source" && x.Name != "."
	for i := 0; i < len(x.Args); i++ {
		a := x.Args[i]
		v := a.Value
		if shellName && a.Known && (strings.HasPrefix(v, "-") || strings.HasPrefix(v, "+")) && v != "-" && v != "--" {
			if v == "-o" || v == "+o" || v == "-O" || v == "+O" || v == "--rcfile" || v == "--init-file" {
				i++
			}
			continue
		}
		if v == "--" {
			continue
		}
		if !a.Known || strings.HasPrefix(v, "/dev/") || strings.HasPrefix(v, "/proc/") {
			return // judged by package shell and the script rule
		}
		for _, d := range x.RunDirs() {
			runFile(x, kernel.Join(d, v), d, kernel.LangShell, x.Name+" runs")
		}
		return
	}
}

// StdinScript judges the script a shell or interpreter reads on stdin (sh < FILE, cat FILE |
// python3) as the one it is given by name.
func StdinScript(x *kernel.Command) {
	s := x.Cmd.Script
	if !s.Known || s.Value == "" {
		return
	}
	l := kernel.LangShell
	if !x.Prog().Has(command.ShellCode) {
		l = interpLang(x.Name)
	}
	for _, d := range x.RunDirs() {
		runFile(x, kernel.Join(d, s.Value), d, l, x.Name+" runs, on stdin,")
	}
}

// interpLang is the language of an interpreter by name (python when not known otherwise).
func interpLang(name string) kernel.Lang {
	switch name {
	case "node", "nodejs":
		return kernel.LangJS
	case "ruby":
		return kernel.LangRuby
	case "perl":
		return kernel.LangPerl
	case "php":
		return kernel.LangPHP
	}
	return kernel.LangPython
}

// interpreterRuns judges the script file of python FILE, node FILE … (python -m pytest:
// pytest; python -m pre_commit: pre-commit).
func interpreterRuns(x *kernel.Command) {
	l := interpLang(x.Name)
	for i := 0; i < len(x.Args); i++ {
		a := x.Args[i]
		v := a.Value
		if mod, rest, ok := pythonModule(x.Name, x.Args, i); ok {
			switch mod {
			case "pytest", "py.test":
				pytestRuns(x, rest)
			case "pre_commit", "pre_commit.main":
				toolConfigRuns(x, "pre-commit", rest)
			}
			return
		}
		if v == "-m" && i+1 < len(x.Args) {
			return
		}
		if v == "--run" && l == kernel.LangJS && i+1 < len(x.Args) {
			x.Env.Nested(*x, commandLine([]shell.Word{{Value: "npm", Known: true}, {Value: "run", Known: true}, x.Args[i+1]}), x.Name+" --run runs the package.json script") // node --run X is npm run X
			return
		}
		if strings.HasPrefix(v, "-") {
			opt, val, eq := strings.Cut(v, "=")
			switch {
			case x.Prog().Spec.TakesValue(v):
				i++
				if l == kernel.LangJS && preloadOption(v) && i < len(x.Args) {
					preloads(x, x.Args[i])
				}
			case eq && l == kernel.LangJS && preloadOption(opt):
				preloads(x, shell.Word{Value: val, Known: a.Known})
			case !eq && strings.HasPrefix(v, "--") && i+1 < len(x.Args) && a.Known && !strings.HasPrefix(x.Args[i+1].Value, "-") && x.Args[i+1].Known:
				// An option the table does not know may take the next word as its value: that
				// word is judged as the script too, and the script is looked for after it.
				for _, d := range x.RunDirs() {
					runFile(x, kernel.Join(d, x.Args[i+1].Value), d, l, x.Name+" runs")
				}
				i++
			}
			continue
		}
		if !a.Known {
			return
		}
		for _, d := range x.RunDirs() {
			runFile(x, kernel.Join(d, v), d, l, x.Name+" runs")
		}
		return
	}
}

// preloadOption: an option of node whose value is a module it loads before the script.
func preloadOption(opt string) bool {
	switch opt {
	case "-r", "--require", "--import", "--loader", "--experimental-loader":
		return true
	}
	return false
}

// preloads judges a module node loads before the script (node -r ./x.js, --import ./x.mjs)
// when it is a file of the project, as the script is; a package's name is a dependency.
func preloads(x *kernel.Command, mod shell.Word) {
	v := mod.Value
	if !mod.Known || !(strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../") || filepath.IsAbs(v)) {
		return
	}
	for _, d := range x.RunDirs() {
		runFile(x, kernel.Join(d, v), d, kernel.LangJS, x.Name+" loads first")
	}
}

// pythonModule is the module python (name) runs when args[i] is -m MOD, -mMOD or -BmMOD
// (python's letters may be joined), and the arguments after it; false for none.
func pythonModule(name string, args []shell.Word, i int) (mod string, rest []shell.Word, ok bool) {
	v := args[i].Value
	if !command.Python(name) || len(v) < 2 || v[0] != '-' || v[1] == '-' {
		return "", nil, false
	}
	for j := 1; j < len(v); j++ {
		switch v[j] {
		case 'm':
			if j+1 < len(v) {
				return v[j+1:], args[i+1:], true
			}
			if i+1 < len(args) {
				return args[i+1].Value, args[i+2:], true
			}
			return "", nil, false
		case 'c', 'W', 'X': // code, or an option's value
			return "", nil, false
		}
	}
	return "", nil, false
}

// pathRuns judges a program named by a path (./build.sh, bin/x) when it is a script: by its #!
// line, or as shell without one (the kernel refuses it and the shell runs it itself). System
// directories are left alone: the agent cannot write them without a privileged call.
func pathRuns(x *kernel.Command) {
	v := x.Cmd.Args[0].Value
	for _, sys := range []string{"/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/", "/System/", "/nix/store/", "/opt/homebrew/"} {
		if strings.HasPrefix(v, sys) {
			return
		}
	}
	for _, d := range x.RunDirs() {
		p := kernel.Join(d, v)
		text, ok, _ := x.Call.ReadCode(p)
		if !ok || strings.IndexByte(text[:min(len(text), 1024)], 0) >= 0 {
			continue // missing, or a compiled program
		}
		l := kernel.ShebangLang(text)
		if l == kernel.LangNone {
			if strings.HasPrefix(text, "#!") {
				x.Add(risk.High, kernel.ShellExec, kernel.RuleRunnerUnread, v+" is a script for an interpreter the harness cannot read ("+kernel.Clip(strings.SplitN(text, "\n", 2)[0])+")")
				continue
			}
			l = kernel.LangShell
		}
		runFile(x, p, d, l, v+" runs")
	}
}
