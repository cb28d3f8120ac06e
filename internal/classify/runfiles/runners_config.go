package runfiles

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// Tools that run their config file (the RunsConfig rows of package command's table; runners.go
// dispatches): eslint, prettier, vite, webpack, rollup -c, jest, vitest, mocha, karma and
// playwright load a JavaScript config file as code; pre-commit, lint-staged and nodemon run the
// commands theirs names (read as a write of it is: planted_config.go). The file is found as
// the tool finds it (an option naming it, else its default names in the directory it runs
// in, and for some in the parents up to the project's root), and judged as it is on disk now.
// What cannot be known statically does not mean that nothing runs: a subcommand that cannot
// be known is taken for one that runs the config (pre-commit "$SUB", the array of the hook
// pre-commit installs), and a config file named by a word that cannot be known is code left
// unread (a person looks).

// toolConfig is where a tool finds the config file it loads as code or runs the commands of.
type toolConfig struct {
	names   []string // the names it looks for, in order
	kind    plantKind
	up      bool     // it looks in the parents of the directory it runs in too (up to the project's root)
	opts    []string // the options that name another file
	subs    []string // the subcommands that run it ("" for none); nil for any
	given   bool     // it reads one only when an option asks (rollup -c)
	pkg     string   // the key of package.json that holds its config in a directory without one of names (lint-staged, nodemon)
	dir     []string // the options that name the directory it works in (devcontainer --workspace-folder)
	operand bool     // its first operand names the file (hivemind Procfile.dev)
}

// jsConfig is a JavaScript config file's names with the extensions tools load.
func jsConfig(stems ...string) []string {
	var out []string
	for _, s := range stems {
		for _, ext := range []string{".js", ".mjs", ".cjs", ".ts", ".mts", ".cts"} {
			out = append(out, s+ext)
		}
	}
	return out
}

// toolConfigs: the RunsConfig rows of package command's table, by program name.
var toolConfigs = map[string]toolConfig{
	"eslint":      {names: append(jsConfig("eslint.config"), ".eslintrc.js", ".eslintrc.cjs"), kind: plantLang, up: true, opts: []string{"-c", "--config"}},
	"prettier":    {names: append(jsConfig("prettier.config"), ".prettierrc.js", ".prettierrc.cjs", ".prettierrc.mjs", ".prettierrc.ts"), kind: plantLang, up: true, opts: []string{"--config"}},
	"vite":        {names: jsConfig("vite.config"), kind: plantLang, opts: []string{"-c", "--config"}},
	"vitest":      {names: jsConfig("vitest.config", "vite.config"), kind: plantLang, opts: []string{"-c", "--config"}},
	"webpack":     {names: jsConfig("webpack.config"), kind: plantLang, opts: []string{"-c", "--config"}},
	"webpack-cli": {names: jsConfig("webpack.config"), kind: plantLang, opts: []string{"-c", "--config"}},
	"rollup":      {names: jsConfig("rollup.config"), kind: plantLang, opts: []string{"-c", "--config"}, given: true},
	"jest":        {names: jsConfig("jest.config"), kind: plantLang, up: true, opts: []string{"-c", "--config"}},
	"mocha":       {names: []string{".mocharc.js", ".mocharc.cjs"}, kind: plantLang, opts: []string{"--config"}},
	"karma":       {names: jsConfig("karma.conf"), kind: plantLang},
	"playwright":  {names: jsConfig("playwright.config"), kind: plantLang, opts: []string{"-c", "--config"}, subs: []string{"test"}},
	"lint-staged": {names: append([]string{".lintstagedrc", ".lintstagedrc.json", ".lintstagedrc.yaml", ".lintstagedrc.yml"}, jsConfig("lint-staged.config", ".lintstagedrc")...), kind: plantCmdMap, up: true, opts: []string{"-c", "--config"}, pkg: "lint-staged"},
	"nodemon":     {names: []string{"nodemon.json"}, kind: plantNodemon, opts: []string{"--config"}, pkg: "nodemonConfig"},
	"pre-commit":  {names: []string{".pre-commit-config.yaml"}, kind: plantPreCommit, up: true, opts: []string{"-c", "--config"}, subs: []string{"", "run", "hook-impl"}},
	// Process managers start a Procfile's commands; the dev container tools run a
	// devcontainer.json's (planted_launch.go).
	"foreman":      procfileRunner([]string{"-f", "--procfile"}, []string{"-d", "--root"}, "start", "s"),
	"honcho":       procfileRunner([]string{"-f", "--procfile"}, []string{"-d", "--app-root"}, "start"),
	"forego":       procfileRunner([]string{"-f"}, nil, "start"),
	"goreman":      procfileRunner([]string{"-f"}, []string{"-basedir"}, "start"),
	"nf":           procfileRunner([]string{"-j", "--procfile"}, nil, "start"),
	"overmind":     procfileRunner([]string{"-f", "--procfile"}, []string{"-d", "--root"}, "start", "s"),
	"hivemind":     {names: []string{"Procfile"}, kind: plantProcfile, dir: []string{"-d", "--root"}, operand: true},
	"devcontainer": {names: []string{".devcontainer/devcontainer.json", ".devcontainer.json"}, kind: plantDevcontainer, opts: []string{"--config"}, subs: []string{"up", "set-up", "run-user-commands"}, dir: []string{"--workspace-folder"}},
}

// procfileRunner is a process manager that starts the Procfile's commands with one of subs:
// opts name the Procfile, dir the directory it runs in.
func procfileRunner(opts, dir []string, subs ...string) toolConfig {
	return toolConfig{names: []string{"Procfile"}, kind: plantProcfile, opts: opts, dir: dir, subs: subs}
}

// configRuns judges the config file a RunsConfig program loads, as it is on disk now: a
// JavaScript one as code (only what the inline-code analysis finds critical counts, as for
// a test file), one that names commands by those commands.
func configRuns(x *kernel.Command) { toolConfigRuns(x, x.Name, x.Args) }

// toolConfigRuns is configRuns for the program name (a row of toolConfigs) given args: also
// for a tool run as a module (python -m pre_commit).
func toolConfigRuns(x *kernel.Command, name string, args []shell.Word) {
	tc, ok := toolConfigs[name]
	if !ok {
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
		for _, o := range tc.dir {
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
		for _, o := range tc.opts {
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
	if tc.operand && subSeen && given == "" {
		if !subKnown {
			x.Call.NotRead(name + " loads a file that cannot be known statically")
			return
		}
		given = sub
	}
	if tc.subs != nil && subKnown && !slices.Contains(tc.subs, sub) || tc.given && given == "" {
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

// findConfig is the first of tc's names in dir, else its package.json when that holds
// tc.pkg (and so on in its parents up to the project's root when tc.up), or "".
func findConfig(x *kernel.Command, dir string, tc toolConfig) string {
	project := x.Env.Layout.ProjectDir
	for n := 0; n < 16; n++ {
		for _, name := range tc.names {
			p := filepath.Join(dir, name)
			if _, ok, _ := x.Call.ReadCode(p); ok {
				return p
			}
		}
		if tc.pkg != "" {
			p := filepath.Join(dir, "package.json")
			if text, ok, cut := x.Call.ReadCode(p); ok && (cut || len(packageKeyCode(text, tc.pkg).Codes) > 0) {
				return p
			}
		}
		parent := filepath.Dir(dir)
		if !tc.up || dir == project || parent == dir || !kernel.Under(parent, project) {
			break
		}
		dir = parent
	}
	return ""
}

// runConfig judges the config file at path, loaded by the tool name (tc) that runs in cwd: as
// code in its language, or by the commands it names (tc.kind, or the kind its name has in
// plantTable; package.json's key tc.pkg), which run in the config's directory.
func runConfig(x *kernel.Command, name, path, cwd string, tc toolConfig) {
	kind, l := tc.kind, kernel.LangJS
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
	if tc.pkg != "" && filepath.Base(path) == "package.json" {
		cc = packageKeyCode(text, tc.pkg)
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
