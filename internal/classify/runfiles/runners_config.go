package runfiles

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/command"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// Tools that run their config file (the RunsConfig rows of package command's table, whose
// Config says what each reads; runners.go dispatches): some load a JavaScript config file as
// code (eslint, jest, vite …), others run the commands theirs names (pre-commit, lint-staged,
// nodemon, foreman …), read as a write of it is (planted_config.go, planted_runners.go). The file is found as
// the tool finds it (an option naming it, else its default names in the directory it runs
// in, and for some in the parents up to the project's root), and judged as it is on disk now.
// What cannot be known statically does not mean that nothing runs: a subcommand that cannot
// be known is taken for one that runs the config (pre-commit "$SUB", the array of the hook
// pre-commit installs), and a config file named by a word that cannot be known is code left
// unread (a person looks).

// configKind is the reader of a runner's config format: the plantKind its file is read by
// (a test fails when a format of package command has none).
func configKind(f command.Format) plantKind {
	switch f {
	case command.JSCode:
		return plantLang
	case command.CommandMap:
		return plantCmdMap
	case command.NodemonJSON:
		return plantNodemon
	case command.PreCommitYAML:
		return plantPreCommit
	case command.ProcfileLines:
		return plantProcfile
	case command.DevcontainerJSON:
		return plantDevcontainer
	}
	return 0
}

// configRuns judges the config file a RunsConfig program loads, as it is on disk now: a
// JavaScript one as code (only what the inline-code analysis finds critical counts, as for
// a test file), one that names commands by those commands.
func configRuns(x *kernel.Command) { toolConfigRuns(x, x.Name, x.Args) }

// toolConfigRuns is configRuns for the program name (a row of package command's table with a
// Config) given args: also for a tool run as a module (python -m pre_commit).
func toolConfigRuns(x *kernel.Command, name string, args []shell.Word) {
	tc := command.Lookup(name).Config
	if tc == nil {
		return
	}
	given, sub, subSeen, subKnown := "", "", false, true
	var workdir *shell.Word
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.Value
		if v == "--" {
			break
		}
		for _, o := range tc.Dir {
			if v == o && i+1 < len(args) {
				i++
				workdir = &args[i]
			} else if val, ok := strings.CutPrefix(v, o+"="); ok {
				workdir = &shell.Word{Value: val, Known: a.Known}
			}
		}
		if workdir != nil && !workdir.Known {
			x.Call.NotRead(name + " works in a directory that cannot be known statically, whose config is not read")
			return
		}
		for _, o := range tc.Options {
			switch {
			case v == o:
				if i+1 < len(args) && (!args[i+1].Known || !strings.HasPrefix(args[i+1].Value, "-")) {
					i++
					a = args[i]
					given = a.Value
				} else {
					given = "-" // the option without a value (rollup -c): the default names
				}
			case strings.HasPrefix(v, o+"=") && strings.HasPrefix(o, "--"):
				given = v[len(o)+1:]
			default:
				continue
			}
			if !a.Known {
				x.Call.NotRead(name + " loads a config file (" + o + ") that cannot be known statically")
				return
			}
		}
		if !strings.HasPrefix(v, "-") && !subSeen {
			sub, subSeen, subKnown = v, true, a.Known
		}
	}
	if tc.Operand && subSeen && given == "" {
		if !subKnown {
			x.Call.NotRead(name + " loads a file that cannot be known statically")
			return
		}
		given = sub
	}
	if tc.Subs != nil && subKnown && !slices.Contains(tc.Subs, sub) || tc.Given && given == "" {
		return
	}
	for _, d := range x.RunDirs() {
		if workdir != nil {
			d = kernel.Join(d, workdir.Value)
		}
		path := ""
		if given != "" && given != "-" {
			path = kernel.Join(d, given)
		} else {
			path = findConfig(x, d, tc)
		}
		if path != "" {
			runConfig(x, name, path, d, tc)
		}
	}
}

// findConfig is the first of tc.Files in dir (package.json among them only when it holds
// the key tc.Package), and so on in its parents up to the project's root when tc.Up, or "".
func findConfig(x *kernel.Command, dir string, tc *command.Config) string {
	project := x.Env.Layout.ProjectDir
	for n := 0; n < 16; n++ {
		for _, name := range tc.Files {
			p := filepath.Join(dir, name)
			if name == "package.json" && tc.Package != "" {
				if text, ok, cut := x.Call.ReadCode(p); ok && (cut || len(packageKeyCode(text, tc.Package).Codes) > 0) {
					return p
				}
				continue
			}
			if _, ok, _ := x.Call.ReadCode(p); ok {
				return p
			}
		}
		parent := filepath.Dir(dir)
		if !tc.Up || dir == project || parent == dir || !kernel.Under(parent, project) {
			break
		}
		dir = parent
	}
	return ""
}

// runConfig judges the config file at path, loaded by the tool name (tc) that runs in cwd: as
// code in its language, or by the commands it names (tc.Format, or the kind its name has in
// plantTable; package.json's key tc.Package), which run in the config's directory.
func runConfig(x *kernel.Command, name, path, cwd string, tc *command.Config) {
	kind, l := configKind(tc.Format), kernel.LangJS
	if row := PlantRowFor(path); row != nil {
		kind, l = row.kind, row.lang
	}
	prefix := name + " loads"
	if kind == plantLang {
		runFile(x, path, cwd, l, prefix)
		return
	}
	text, ok, cut := x.Call.ReadCode(path)
	if !ok {
		return
	}
	if cut {
		x.Add(risk.Medium, kernel.ShellExec, kernel.RuleRunnerUnread, prefix+" "+path+", longer than the harness reads (or past the call's budget): the rest is not judged")
	}
	var cc ConfigCode
	if tc.Package != "" && filepath.Base(path) == "package.json" {
		cc = packageKeyCode(text, tc.Package)
	} else {
		cc = configExtract(kind, text, path, false)
	}
	s := kernel.Sink{Prefix: name + " runs (from " + x.Rel(path) + "):"}
	if cc.Unread != "" {
		x.Call.NotRead(s.Prefix + " " + cc.Unread)
	}
	dir := configDir(kind, path)
	for _, code := range cc.Codes {
		x.Env.JudgeCode(x.Call, code.text, code.lang, dir, s)
	}
	s.Elsewhere = true
	for _, code := range cc.contained {
		x.Env.JudgeCode(x.Call, code.text, code.lang, dir, s)
	}
}
