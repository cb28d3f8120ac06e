package runfiles

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/configfile"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// The runners of language ecosystems (the Runs of their rows in package command's table; runners.go dispatches): package managers' scripts,
// pytest's conftest.py files, go's code-carrying flags and //go:generate lines, cargo's build
// script and configured programs, tox's commands.

// ---- npm, yarn, pnpm, bun ----

// npmScripts are the package.json scripts a package manager's subcommand runs, in order.
func npmScripts(tool, sub, name string, scripts map[string]string) []string {
	life := func(s string) []string { return []string{"pre" + s, s, "post" + s} }
	switch sub {
	case "test", "t", "tst":
		if tool == "bun" {
			return nil // bun test is bun's own test runner
		}
		return life("test")
	case "start", "stop", "restart":
		return life(sub)
	case "run", "run-script", "rum", "urn":
		if name == "" {
			return nil
		}
		return life(name)
	case "install", "i", "ci", "in", "ins", "inst", "insta", "instal", "isnt", "isnta", "isntal", "":
		if sub == "" && tool != "yarn" {
			return nil
		}
		if name != "" {
			return []string{"prepare"} // installing a package also prepares the root one (npm 7+)
		}
		return []string{"preinstall", "install", "postinstall", "prepublish", "preprepare", "prepare", "postprepare"}
	case "pack", "publish":
		return []string{"prepublishOnly", "prepack", "prepare", "postpack", "publish", "postpublish"}
	}
	if tool != "npm" {
		if _, ok := scripts[sub]; ok {
			return life(sub) // yarn build, pnpm lint, bun dev
		}
	}
	return nil
}

// npmRuns judges what a package manager's subcommand runs: the package.json scripts
// (npmScripts) and, where the manager runs a program when package.json has no script of that
// name (binAt: yarn run X, yarn X, bun run X, bun X, pnpm X), that program with its arguments,
// as if typed: yarn run rimraf ~ is npx rimraf ~, which is rm -rf ~. An option the table does
// not know may take the next word as its value or not: both readings are judged.
func npmRuns(x *kernel.Command) {
	p := scanPM(x.Name, x.Args, false)
	for _, prog := range p.shells {
		x.Add(risk.High, kernel.ShellExec, kernel.RuleRunsProgram, x.Name+" --script-shell "+kernel.QuoteRaw(prog)+" runs every script with that program")
		x.Env.JudgeCode(x.Call, prog, kernel.LangShell, x.Env.Layout.ProjectDir, kernel.Sink{Prefix: x.Name + " --script-shell runs:"})
	}
	pmRuns(x, p)
	if p.guessed {
		if q := scanPM(x.Name, x.Args, true); q.subAt != p.subAt || q.nameAt != p.nameAt {
			pmRuns(x, q)
		}
	}
}

// pmCall is a package manager's command line as the manager reads it.
type pmCall struct {
	sub, name     string // the subcommand, and the word after it (a script's name, a package …)
	subAt, nameAt int    // their places in the arguments, -1 for none
	ignore        bool   // --ignore-scripts
	// elsewhere: an option names another directory or other packages (yarn --cwd d, pnpm -r,
	// npm -w a): their package.json is not read here, so a name may be a program.
	elsewhere bool
	shells    []string     // --script-shell programs
	guessed   bool         // an option unknown to pmOptions came before the subcommand or the name
	dirs      []shell.Word // the values of the pmDir options: directories, package names, filters
	every     bool         // a pmPackages flag: every package of the workspace
}

// scanPM reads a package manager's arguments; valued: an unknown option takes the next word.
func scanPM(tool string, args []shell.Word, valued bool) pmCall {
	p := pmCall{subAt: -1, nameAt: -1}
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.Value
		opt, _, eq := strings.Cut(v, "=")
		switch {
		case v == "--":
			i = len(args)
		case !a.Known || !strings.HasPrefix(v, "-") || v == "-":
			switch {
			case p.sub == "":
				p.sub, p.subAt = v, i
				if !a.Known {
					i = len(args) // which subcommand, script or program cannot be known
				}
			case p.name == "":
				p.name, p.nameAt = v, i
			}
		case v == "--ignore-scripts":
			p.ignore = true
		default:
			kind, known := pmOption(tool, opt)
			p.elsewhere = p.elsewhere || kind == pmDir || kind == pmPackages
			takes := kind == pmValue || kind == pmDir || kind == PmShell
			if !known && p.name == "" && strings.HasPrefix(v, "--") && !eq && i+1 < len(args) {
				p.guessed = true
				takes = valued
			}
			val, hasVal := shell.Word{Value: strings.TrimPrefix(v, opt+"="), Known: a.Known}, eq
			if !takes && !eq && i+1 < len(args) && (args[i+1].Value == "true" || args[i+1].Value == "false") {
				takes = true // a flag given its value as a word: yarn --production true
			}
			if takes && !eq && i+1 < len(args) {
				i++
				v, val, hasVal = opt+"="+args[i].Value, args[i], true
			}
			switch {
			case kind == pmDir && hasVal:
				p.dirs = append(p.dirs, val)
			case kind == pmPackages:
				p.every = true
			}
			if kind == PmShell {
				_, prog, _ := strings.Cut(v, "=")
				p.shells = append(p.shells, prog)
			}
		}
	}
	return p
}

// PmOptionKind is what an option of a package manager does with the words after it.
type PmOptionKind uint8

const (
	pmFlag     PmOptionKind = iota // takes no value
	pmValue                        // takes the next word as its value
	pmDir                          // takes a directory or packages to work in
	pmPackages                     // a flag: works in every package of the workspace
	PmShell                        // --script-shell PROG
)

// PmOptions: the options of npm, yarn, pnpm and bun (their own, and those of run) that take
// the next word as their value, or that make them work elsewhere; other options they know
// are flags. An option missing here is judged both ways (npmRuns).
var PmOptions = func() map[string]map[string]PmOptionKind {
	out := map[string]map[string]PmOptionKind{}
	for tool, byKind := range PmOptionLists {
		out[tool] = map[string]PmOptionKind{"--script-shell": PmShell}
		for k, opts := range byKind {
			for _, o := range strings.Split(opts, "|") {
				out[tool][o] = k // an option listed under two kinds is a mistake TestPMOptions finds
			}
		}
	}
	return out
}()

// PmOptionLists is pmOptions as written: by tool, by kind, "|"-joined.
var PmOptionLists = map[string]map[PmOptionKind]string{
	"npm": {
		pmValue:    "--userconfig|--registry|--cache|--loglevel|--otp|--tag|--access|--omit|--include|--install-strategy",
		pmDir:      "-w|--workspace|--prefix|-C",
		pmPackages: "--workspaces|-ws|--include-workspace-root",
		pmFlag:     "-y|--yes|-s|--silent|-q|--quiet|-d|-dd|-ddd|--verbose|-f|--force|-g|--global|-D|--save-dev|-E|--save-exact|-P|--save-prod|-O|--save-optional|--no-save|--if-present|--foreground-scripts|--dry-run|--json|--no-audit|--no-fund|--legacy-peer-deps|--production|--no-package-lock|--offline|--prefer-offline",
	},
	"yarn": {
		pmValue: "--network-timeout|--network-concurrency|--modules-folder|--cache-folder|--global-folder|--link-folder|--preferred-cache-folder|--mutex|--registry|--proxy|--https-proxy|--use-yarnrc|--otp",
		pmDir:   "--cwd",
		pmFlag:  "-s|--silent|--verbose|--offline|--prefer-offline|--frozen-lockfile|--immutable|--pure-lockfile|--production|--prod|--no-progress|--non-interactive|--ignore-engines|--ignore-optional|--ignore-platform|--emoji|--json|--no-default-rc|--check-files|-D|--dev|-E|--exact|-W|--ignore-workspace-root-check|-T|--top-level|-B|--binaries-only",
	},
	"pnpm": {
		pmValue:    "--reporter|--loglevel|--workspace-concurrency|--resume-from|--changed-files-ignore-pattern|--test-pattern|--store-dir|--virtual-store-dir|--modules-dir|--global-dir|--cache-dir|--use-node-version|--network-concurrency",
		pmDir:      "-C|--dir|--filter|-F|--filter-prod",
		pmPackages: "-r|--recursive|-w|--workspace-root",
		pmFlag:     "-s|--silent|--parallel|--stream|--aggregate-output|--if-present|--no-bail|--sort|--no-sort|--reverse|--report-summary|--use-stderr|--frozen-lockfile|--prefer-offline|--offline|-D|--save-dev|-P|--save-prod|-E|--save-exact|-g|--global|--shell-mode|-c",
	},
	"bun": {
		pmValue: "-c|--config|--env-file|--shell|--elide-lines|-r|--preload|--require|--import|--tsconfig-override|--conditions|--main-fields|-d|--define|-l|--loader|--jsx-factory|--jsx-fragment|--jsx-import-source|--jsx-runtime|--port|--origin|--extension-order|--install|--console-depth|--title|--fetch-preconnect|--max-http-header-size|--dns-result-order|--unhandled-rejections|--user-agent",
		pmDir:   "--cwd|-F|--filter",
		pmFlag:  "--bun|-b|--silent|--if-present|--smol|--watch|--hot|--no-clear-screen|--no-install|-i|--prefer-offline|--prefer-latest|--no-deprecation|--throw-deprecation|--inspect|--inspect-wait|--inspect-brk|--no-macros|--production|-D|--dev",
	},
}

// pmOption is what tool's option opt (without "=value") does, and whether the table knows it.
func pmOption(tool, opt string) (PmOptionKind, bool) {
	k, ok := PmOptions[tool][opt]
	return k, ok
}

// pmRuns judges the scripts and the program of one reading of a package manager's command line.
func pmRuns(x *kernel.Command, p pmCall) {
	sub, name, subAt, nameAt, ignore, elsewhere := p.sub, p.name, p.subAt, p.nameAt, p.ignore, p.elsewhere
	bin := binAt(x.Name, sub, subAt, nameAt, x.Args)
	if bin >= 0 && !x.Args[bin].Known {
		// yarn "$S", bun run "$S": as npx "$P", any program.
		x.AddUnknown(risk.Critical, kernel.ShellExec, kernel.RuleDynamicCommand, x.Name+" runs a script or a program whose name cannot be known statically: it could be any program", kernel.Unknown{What: kernel.DynamicName})
		return
	}
	if subAt >= 0 && !x.Args[subAt].Known {
		return
	}
	script := ""
	if bin >= 0 {
		script = x.Args[bin].Value
	}
	// The program runs when a directory the command may run in has no package.json with the
	// script, or it cannot be read or known (decided: a script of that name cannot be seen
	// either, and the program is what the words say).
	runsBin := elsewhere || x.Cmd.Dir.Unknown
	// npm init -w packages/a, pnpm add x: no script of any package runs, none is looked for.
	var dirs []string
	if bin >= 0 || len(npmScripts(x.Name, sub, name, nil)) > 0 || x.Name != "npm" && !ownCommand(x.Name, sub) {
		dirs = pmDirs(x, p)
	}
	for _, d := range dirs {
		pkg, text := findUp(x, d, "package.json")
		if pkg == "" {
			runsBin = true
			continue
		}
		scripts := PackageScripts(text)
		if _, ok := scripts[script]; !ok {
			runsBin = true
		}
		for _, s := range npmScripts(x.Name, sub, name, scripts) {
			if ignore && s != name && s != sub {
				continue
			}
			if code, ok := scripts[s]; ok {
				x.Env.JudgeCode(x.Call, code, kernel.LangShell, filepath.Dir(pkg), kernel.Sink{Prefix: x.Name + " " + strings.TrimSpace(sub+" "+name) + " runs the package.json script " + s + ":"})
			}
		}
	}
	if bin >= 0 && runsBin {
		judgeRunsBin(x, x.Args[bin:])
	}
	if x.Name == "yarn" && nameAt >= 0 {
		switch {
		case sub == "workspace": // yarn workspace NAME CMD
			yarnElsewhere(x, x.Args[nameAt+1:])
		case sub == "workspaces" && name == "run": // yarn workspaces run X (yarn 1)
			yarnElsewhere(x, x.Args[nameAt:])
		case sub == "workspaces" && name == "foreach": // yarn workspaces foreach [options] CMD
			i := nameAt + 1
			for i < len(x.Args) && x.Args[i].Known && strings.HasPrefix(x.Args[i].Value, "-") {
				switch x.Args[i].Value {
				case "-j", "--jobs", "--include", "--exclude", "--from":
					i++ // the option's value
				}
				i++
			}
			yarnElsewhere(x, x.Args[min(i, len(x.Args)):])
		}
	}
}

// pmDirs are the directories whose package.json scripts a package manager's command runs:
// where it runs, or the directories and workspace packages its options name (yarn --cwd web,
// pnpm -C web, npm -w a, pnpm --filter app, pnpm -r, npm --workspaces). A selection that
// cannot be known, or that names no package found, counts as every package of the workspace.
func pmDirs(x *kernel.Command, p pmCall) []string {
	base := x.RunDirs()
	if len(p.dirs) == 0 && !p.every {
		return base
	}
	var out []string
	seen := map[string]bool{}
	add := func(d string) { // a package's scripts are judged once, however often it is named
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	every := p.every
	for _, d := range base {
		if !p.every {
			add(d) // npm -w a runs the root's lifecycle scripts too
		}
		ws := workspaces(x, d)
		for _, v := range p.dirs {
			if !v.Known {
				every = true
				continue
			}
			if dir := kernel.Join(d, v.Value); hasPackage(x, dir) {
				add(dir)
				continue
			}
			sel, all := packageSelector(v.Value)
			found := all
			for _, w := range ws {
				if all || selects(sel, w, d) {
					add(w.dir)
					found = true
				}
			}
			if !found {
				// A package the workspace's patterns do not reach (deeper than they are read,
				// a pattern the harness does not expand): its scripts are not seen.
				x.Call.NotRead(x.Name + " selects " + kernel.QuoteRaw(v.Value) + ", which names no package of the workspace the harness found: its scripts are not judged")
				every = true
			}
		}
		if every {
			add(d)
			for _, w := range ws {
				add(w.dir)
			}
		}
	}
	return out
}

// packageSelector is the package name or directory pattern of a selection (npm -w, pnpm
// --filter), without pnpm's marks for dependencies (foo..., ...foo, ^) and braces ({dir});
// all: a selection by what git changed ([ref]) or an exclusion (!foo), which may be any package.
func packageSelector(v string) (sel string, all bool) {
	if strings.HasPrefix(v, "!") || strings.Contains(v, "[") {
		return "", true
	}
	v = strings.TrimPrefix(strings.TrimSuffix(v, "..."), "...")
	v = strings.TrimSuffix(strings.TrimPrefix(v, "^"), "^")
	v = strings.TrimSuffix(strings.TrimPrefix(v, "{"), "}")
	return strings.TrimPrefix(v, "./"), false
}

// selects reports a workspace package that the selection sel names, by its name or its
// directory (relative to root), each as a pattern.
func selects(sel string, w workspace, root string) bool {
	if ok, _ := filepath.Match(sel, w.name); ok || w.name == sel {
		return true
	}
	rel, err := filepath.Rel(root, w.dir)
	if err != nil {
		return false
	}
	ok, _ := filepath.Match(strings.TrimSuffix(sel, "/"), rel)
	return ok || kernel.Under(w.dir, kernel.Join(root, sel))
}

// hasPackage reports a package.json in dir.
func hasPackage(x *kernel.Command, dir string) bool {
	_, ok, _ := x.Call.ReadCode(filepath.Join(dir, "package.json"))
	return ok
}

// workspace is one package of a JavaScript workspace.
type workspace struct{ dir, name string }

// maxWorkspaces bounds the packages of a workspace that are read: past it, the rest is code
// left unread.
const maxWorkspaces = 64

// workspaces are the packages of the workspace whose root is the nearest package.json at or
// above dir: its "workspaces" (npm, yarn, bun: a list, or {"packages": […]}) or
// pnpm-workspace.yaml's packages, each pattern matched on disk (** as one to four levels).
func workspaces(x *kernel.Command, dir string) []workspace {
	pkg, text := findUp(x, dir, "package.json")
	if pkg == "" {
		return nil
	}
	root := filepath.Dir(pkg)
	var patterns []string
	if ws := jsonField([]byte(configfile.WithoutBOM(text)), "workspaces"); ws != nil {
		var list []string
		if json.Unmarshal(ws, &list) != nil {
			_ = json.Unmarshal(jsonField(ws, "packages"), &list) // {"packages": […]}
		}
		patterns = list
	}
	if y, ok, _ := x.Call.ReadCode(filepath.Join(root, "pnpm-workspace.yaml")); ok {
		doc, unread := configfile.YAML(y)
		if unread != "" {
			x.Call.NotRead("the packages of " + filepath.Join(root, "pnpm-workspace.yaml") + " cannot be read (" + unread + "): their scripts are not judged")
		}
		patterns = doc.Get("packages").Strings(patterns)
	}
	var out []workspace
	for _, pat := range patterns {
		if strings.HasPrefix(pat, "!") {
			continue
		}
		pat = strings.TrimSuffix(strings.TrimPrefix(pat, "./"), "/")
		globs := []string{pat}
		if strings.Contains(pat, "**") { // any depth: read to four levels
			globs = nil
			for _, levels := range []string{"*", "*/*", "*/*/*", "*/*/*/*"} {
				globs = append(globs, strings.ReplaceAll(pat, "**", levels))
			}
		}
		for _, g := range globs {
			dirs, _ := filepath.Glob(filepath.Join(root, g))
			for _, d := range dirs {
				if len(out) >= maxWorkspaces {
					x.Call.NotRead("the workspace at " + root + " has more than " + strconv.Itoa(maxWorkspaces) + " packages: the scripts of the rest are not judged")
					return out
				}
				if t, ok, _ := x.Call.ReadCode(filepath.Join(d, "package.json")); ok {
					var name string
					_ = json.Unmarshal(jsonField([]byte(configfile.WithoutBOM(t)), "name"), &name)
					out = append(out, workspace{d, name})
				}
			}
		}
	}
	return out
}

// yarnElsewhere judges a yarn command line run in other workspaces, whose package.json is not
// read here: the script or program it runs (run X, exec CMD, dlx PKG, a bare X) is judged as
// the program, as when package.json cannot be read.
func yarnElsewhere(x *kernel.Command, rest []shell.Word) {
	if len(rest) == 0 {
		return
	}
	if rest[0].Known {
		switch v := rest[0].Value; {
		case v == "run" || v == "exec" || v == "dlx":
			rest = rest[1:]
		case strings.HasPrefix(v, "-") || ownCommand("yarn", v):
			return
		}
	}
	if len(rest) > 0 && !rest[0].Known {
		x.AddUnknown(risk.Critical, kernel.ShellExec, kernel.RuleDynamicCommand, "yarn runs a script or a program whose name cannot be known statically: it could be any program", kernel.Unknown{What: kernel.DynamicName})
		return
	}
	judgeRunsBin(x, rest)
}

// binAt is the index in args of the word a package manager runs as a program when package.json
// has no script of that name, or -1. yarn and bun run it after run (bun run: a program of
// node_modules/.bin or PATH; yarn run: of node_modules/.bin), and so do yarn, bun and pnpm for a
// first word that is none of their own commands (pnpm: from node_modules/.bin or PATH); npm
// and pnpm run only scripts. A path or a source file is a file bun runs, not a program.
func binAt(tool, sub string, subAt, nameAt int, args []shell.Word) int {
	at := -1
	switch {
	case tool != "yarn" && tool != "bun" && tool != "pnpm" || subAt < 0:
		return -1
	case sub == "run" && tool != "pnpm":
		at = nameAt
	case !args[subAt].Known || !ownCommand(tool, sub):
		at = subAt
	}
	if at >= 0 && tool == "bun" && args[at].Known && sourceFile(args[at].Value) {
		return -1
	}
	return at
}

// ownCommand reports whether sub is one of the package manager's own commands (yarn 1 and
// later, pnpm, bun), which come before a script or a program of that name.
func ownCommand(tool, sub string) bool {
	var own string
	switch tool {
	case "yarn":
		own = "access|add|audit|autoclean|bin|cache|check|config|constraints|create|dedupe|dlx|exec|explain|generate-lock-entry|global|help|import|info|init|install|licenses|link|list|login|logout|node|npm|outdated|owner|pack|patch|patch-commit|plugin|policies|publish|rebuild|remove|run|search|set|stage|tag|team|test|unlink|unplug|up|upgrade|upgrade-interactive|version|versions|why|workspace|workspaces"
	case "pnpm":
		own = "add|approve-builds|audit|bin|c|cache|cat-file|cat-index|ci|completion|config|create|dedupe|deploy|dlx|doctor|env|exec|fetch|find-hash|get|help|i|ignored-builds|import|info|init|install|install-test|it|la|licenses|link|list|ll|ln|login|logout|ls|m|multi|outdated|pack|patch|patch-commit|patch-remove|pm|prune|publish|rb|rebuild|recursive|remove|restart|rm|root|run|run-script|sbom|self-update|server|set|setup|show|start|stop|store|t|test|tst|un|uninstall|unlink|up|update|upgrade|view|whoami|why"
	case "bun":
		own = "a|add|audit|build|c|completions|create|discord|exec|feedback|getcompletes|help|i|info|init|install|link|outdated|patch|patch-commit|pm|publish|remove|repl|rm|run|test|unlink|update|upgrade|why|x"
	}
	return kernel.InBar(own, sub)
}

// sourceFile: a word bun runs as a file (a path, or a name with a source file's extension).
func sourceFile(v string) bool {
	if strings.Contains(v, "/") {
		return true
	}
	switch strings.ToLower(filepath.Ext(v)) {
	case ".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx", ".sh", ".json", ".toml", ".wasm":
		return true
	}
	return false
}

// judgeRunsBin judges the program a package manager runs (a program of node_modules/.bin, or of
// PATH) with its arguments, as if typed: a package known by its command (rimraf: rm -rf) as
// that command, as npx's is.
func judgeRunsBin(x *kernel.Command, words []shell.Word) {
	if len(words) == 0 {
		return
	}
	x.Env.Nested(*x, commandLine(shell.PackageCommand(words)), x.Name+" runs "+words[0].Value)
}

// commandLine is a command line that the shell reads back as words: a known word as shellWord
// spells it, a glob as written (it still expands), an unknown word still unknown.
func commandLine(ws []shell.Word) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		if w.Known && !w.Glob {
			parts[i] = shellWord(w.Value)
		} else {
			parts[i] = shell.QuoteWords(ws[i : i+1])
		}
	}
	return strings.Join(parts, " ")
}

// findUp reads the first file named name in dir or a parent (as npm finds its package).
func findUp(x *kernel.Command, dir, name string) (string, string) {
	for n := 0; n < 32; n++ {
		p := filepath.Join(dir, name)
		if text, ok, _ := x.Call.ReadCode(p); ok {
			return p, text
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return "", ""
}

// jsonField is the value of key in the JSON object text, matched exactly as npm, node and
// Jupyter match keys (Go's struct decoding ignores case: {"Scripts": …} would stand for
// "scripts"), the last one when repeated; nil when text is no object or has no such key.
func jsonField(text []byte, key string) json.RawMessage {
	var obj map[string]json.RawMessage
	if json.Unmarshal(text, &obj) != nil {
		return nil
	}
	return obj[key]
}

// PackageScripts returns package.json's "scripts" (string values only), by exact key.
func PackageScripts(text string) map[string]string {
	var pkg map[string]json.RawMessage
	if json.Unmarshal([]byte(configfile.WithoutBOM(text)), &pkg) != nil { // npm reads past a byte-order mark
		return nil
	}
	var scripts map[string]json.RawMessage
	_ = json.Unmarshal(pkg["scripts"], &scripts)
	out := make(map[string]string, len(scripts))
	for k, raw := range scripts {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			out[k] = s
		}
	}
	return out
}

// npmPlanted returns the scripts (and lint-staged's and kin's commands: packagePlanted) a
// write puts into package.json: all of a Write's; an edit's new or changed ones, found by
// applying the edit to the file on disk (or, when that fails, every string value of the new
// text).
func npmPlanted(c *kernel.Env, r *kernel.Result, text, abs string, ev *claude.Event, edit bool) []codeText {
	var out []codeText
	if !edit {
		for _, s := range packagePlanted(text) {
			out = append(out, codeText{s, kernel.LangShell})
		}
		return out
	}
	if old, ok, _ := r.ReadCode(abs); ok && ev != nil {
		if edited, ok := kernel.ApplyEdits(old, ev); ok {
			before, after := packagePlanted(old), packagePlanted(edited)
			if after != nil {
				for k, s := range after {
					if before[k] != s {
						out = append(out, codeText{s, kernel.LangShell})
					}
				}
				return out
			}
		}
	}
	for _, l := range kernel.Literals(text) {
		if strings.ContainsAny(l, " ;|&$`") {
			out = append(out, codeText{l, kernel.LangShell})
		}
	}
	return out
}

// ---- pytest ----

// pytestSkip are directories pytest does not recurse into (norecursedirs' defaults and kin).
func pytestSkip(name string) bool {
	switch name {
	case "node_modules", "venv", "env", "build", "dist", "__pycache__", "site-packages", "CVS", "_darcs", "{arch}":
		return true
	}
	return strings.HasPrefix(name, ".") || strings.HasSuffix(name, ".egg-info") || strings.HasSuffix(name, ".egg")
}

// pytestRuns judges the conftest.py files pytest loads: in the rootdir and the parents of the
// paths it is given, and in every directory it collects from (a bounded walk).
func pytestRuns(x *kernel.Command, args []shell.Word) {
	for _, d := range x.RunDirs() {
		var starts []string
		for _, a := range args {
			v, _, _ := strings.Cut(a.Value, "::")
			if !a.Known || strings.HasPrefix(v, "-") || v == "" {
				continue
			}
			p := kernel.Join(d, v)
			if st, err := os.Stat(p); err == nil {
				if !st.IsDir() {
					p = filepath.Dir(p)
				}
				starts = append(starts, p)
			}
		}
		if len(starts) == 0 {
			starts = []string{d}
		}
		seen := map[string]bool{}
		conf := func(dir string) {
			p := filepath.Join(dir, "conftest.py")
			if !seen[p] {
				seen[p] = true
				runFile(x, p, filepath.Dir(p), kernel.LangPython, "pytest loads")
			}
		}
		for _, s := range starts {
			for up := s; ; up = filepath.Dir(up) {
				conf(up)
				if up == d || !strings.HasPrefix(up, d) || up == filepath.Dir(up) {
					break
				}
			}
		}
		budget := kernel.MaxWalkDirs
		for _, s := range starts {
			if !walkDirs(s, &budget, pytestSkip, conf) {
				x.Add(risk.Medium, kernel.TestRun, kernel.RuleRunnerUnread, "pytest collects from more directories than the harness lists: conftest.py files past "+strconv.Itoa(kernel.MaxWalkDirs)+" directories are not judged")
				break
			}
		}
	}
}

// walkDirs visits dir and its subdirectories (breadth first) while budget lasts; false when it
// ran out.
func walkDirs(dir string, budget *int, skip func(string) bool, visit func(string)) bool {
	queue := []string{dir}
	for len(queue) > 0 {
		if *budget <= 0 {
			return false
		}
		*budget--
		d := queue[0]
		queue = queue[1:]
		visit(d)
		entries, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if e.IsDir() && !skip(e.Name()) {
				queue = append(queue, filepath.Join(d, e.Name()))
			}
		}
	}
	return true
}

// ---- go ----

// goFlag finds a Go-style flag (-name or --name, with =value or the next word) in args.
func goFlag(args []shell.Word, names ...string) (shell.Word, string, bool) {
	for i, a := range args {
		v := a.Value
		if v == "--" {
			break
		}
		if !strings.HasPrefix(v, "-") {
			continue
		}
		name, val, has := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(v, "-"), "-"), "=")
		for _, n := range names {
			if name != n {
				continue
			}
			if has {
				return shell.Word{Value: val, Known: a.Known}, n, true
			}
			if i+1 < len(args) {
				return args[i+1], n, true
			}
		}
	}
	return shell.Word{}, "", false
}

func goRuns(x *kernel.Command) {
	if len(x.Args) == 0 {
		return
	}
	sub := x.Args[0].Value
	rest := x.Args[1:]
	switch sub {
	case "build", "test", "run", "install", "vet", "generate", "list", "get", "tool":
	case "env":
		goEnvWrite(x, rest)
		return
	default:
		return
	}
	for _, f := range []string{"exec", "toolexec", "vettool"} {
		if w, name, ok := goFlag(rest, f); ok {
			x.Add(risk.High, kernel.ShellExec, kernel.RuleRunsProgram, "go "+sub+" -"+name+" "+kernel.QuoteRaw(w.Value)+" runs that program")
			ProgramValue(x, w, "go "+sub+" -"+name)
		}
	}
	if w, _, ok := goFlag(rest, "overlay"); ok {
		x.Add(risk.High, kernel.ShellExec, kernel.RuleRunsProgram, "go "+sub+" -overlay "+kernel.QuoteRaw(w.Value)+" compiles the files the overlay names instead of the sources")
	}
	if sub == "generate" {
		goGenerate(x, rest)
	}
}

// ProgramValue judges a value that names a program to run (an option's or a variable's): as a
// shell program, its high and critical verdicts taken over; unknown, at least high.
func ProgramValue(x *kernel.Command, w shell.Word, what string) {
	if !w.Known {
		x.Add(risk.High, kernel.ShellExec, kernel.RuleRunsProgram, what+" runs a program that cannot be known statically")
		return
	}
	cwd := x.Dir()
	x.Env.JudgeCode(x.Call, w.Value, kernel.LangShell, cwd, kernel.Sink{Prefix: what + " runs:"})
}

// goEnvWrite: go env -w KEY=VALUE persists a variable for every later go command.
func goEnvWrite(x *kernel.Command, args []shell.Word) {
	w := false
	for _, a := range args {
		if a.Value == "-w" || a.Value == "--w" {
			w = true
			continue
		}
		if !w || !strings.Contains(a.Value, "=") {
			continue
		}
		k, v, _ := strings.Cut(a.Value, "=")
		if row := EnvRowFor(k); row != nil {
			x.Add(risk.High, kernel.ShellExec, kernel.RuleRunsProgram, "go env -w "+k+" sets, for every later go command, a variable that makes it run code")
			envValue(x.Env, x.Call, row, k, shell.Word{Value: v, Known: a.Known}, x.Env.Layout.ProjectDir, nil, x.Src)
		}
	}
}

// goGenerate judges the //go:generate lines of the packages go generate runs.
func goGenerate(x *kernel.Command, args []shell.Word) {
	for _, d := range x.RunDirs() {
		var pkgs []string
		recursive := map[string]bool{}
		for _, a := range args {
			v := a.Value
			if strings.HasPrefix(v, "-") {
				continue
			}
			if !strings.HasPrefix(v, ".") && !strings.HasPrefix(v, "/") {
				x.Add(risk.Medium, kernel.ShellExec, kernel.RuleRunnerUnread, "go generate "+v+": the package's //go:generate lines are not looked up by import path")
				continue
			}
			if base, ok := strings.CutSuffix(v, "/..."); ok {
				recursive[kernel.Join(d, base)] = true
				v = base
			}
			pkgs = append(pkgs, kernel.Join(d, v))
		}
		if len(pkgs) == 0 {
			pkgs = []string{d}
		}
		budget, files, bytesRead := kernel.MaxWalkDirs, 0, 0
		visit := func(dir string) {
			entries, err := os.ReadDir(dir)
			if err != nil {
				return
			}
			for _, e := range entries {
				if !strings.HasSuffix(e.Name(), ".go") || e.IsDir() || files >= 2048 || bytesRead >= 16<<20 {
					continue
				}
				files++
				data, err := os.ReadFile(filepath.Join(dir, e.Name()))
				if err != nil {
					continue
				}
				bytesRead += len(data)
				if !bytes.Contains(data, []byte("//go:generate")) {
					continue
				}
				for _, code := range goGenerateCode(string(data)) {
					x.Env.JudgeCode(x.Call, code.text, kernel.LangShell, dir, kernel.Sink{Prefix: "go generate runs (" + x.Rel(filepath.Join(dir, e.Name())) + "):"})
				}
			}
		}
		for _, p := range pkgs {
			if recursive[p] {
				if !walkDirs(p, &budget, func(n string) bool {
					return strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_") || n == "testdata" || n == "vendor"
				}, visit) {
					x.Add(risk.Medium, kernel.ShellExec, kernel.RuleRunnerUnread, "go generate reaches more directories than the harness lists: the rest is not judged")
				}
			} else {
				visit(p)
			}
		}
	}
}

// ---- cargo, tox ----

func cargoRuns(x *kernel.Command) {
	sub := ""
	for _, a := range x.Args {
		if !strings.HasPrefix(a.Value, "-") && !strings.HasPrefix(a.Value, "+") {
			sub = a.Value
			break
		}
	}
	switch sub {
	case "build", "b", "test", "t", "run", "r", "check", "c", "clippy", "bench", "doc", "d", "install", "publish", "package", "fix":
	default:
		return
	}
	for _, d := range x.RunDirs() {
		manifest, text := findUp(x, d, "Cargo.toml")
		if manifest == "" {
			continue
		}
		dir := filepath.Dir(manifest)
		build := "build.rs"
		for _, line := range strings.Split(text, "\n") {
			if k, v, ok := strings.Cut(line, "="); ok && strings.TrimSpace(k) == "build" {
				build = strings.Trim(strings.TrimSpace(v), "\"'")
			}
		}
		if build != "false" {
			runFile(x, kernel.Join(dir, build), dir, kernel.LangRust, "cargo "+sub+" compiles and runs the build script")
		}
		// .cargo/config.toml from here up: programs cargo runs instead of rustc or the binary.
		for up, n := d, 0; n < 32; n++ {
			for _, f := range []string{".cargo/config.toml", ".cargo/config"} {
				if cfg, ok, _ := x.Call.ReadCode(filepath.Join(up, f)); ok {
					cargoConfig(x, cfg, filepath.Join(up, f), sub)
				}
			}
			if up == filepath.Dir(up) {
				break
			}
			up = filepath.Dir(up)
		}
	}
}

// cargoConfig judges what a cargo configuration makes `cargo sub` run (cargoPrograms, as a
// write of it is judged): the programs it builds and runs with (runner, rustc-wrapper, linker
// …), the browser of cargo doc --open, the credential providers of cargo publish, and the
// variables of [env]. Each is judged as the command would be typed; one that is not a
// well-known program or a file of the project (cargoKnownProgram) is high besides: what it
// does cannot be known.
func cargoConfig(x *kernel.Command, text, path, sub string) {
	progs, unread := CargoPrograms(text, 0)
	prefix := "cargo runs (from " + x.Rel(path) + "):"
	if unread != "" {
		x.Call.NotRead(prefix + " " + unread)
	}
	open := slices.ContainsFunc(x.Args, func(a shell.Word) bool { return a.Value == "--open" })
	dir := filepath.Dir(filepath.Dir(path)) // the directory above .cargo
	for _, p := range progs {
		switch {
		case p.Key == "browser" && !((sub == "doc" || sub == "d") && open),
			p.Key == "credential-provider" && sub != "publish":
			continue
		case p.Key != "env" && !cargoKnownProgram(x, p.Cmd, dir):
			x.Add(risk.High, kernel.ShellExec, kernel.RuleRunsProgram, "cargo runs "+kernel.QuoteRaw(p.Cmd)+" ("+p.Key+" in "+x.Rel(path)+"), a program whose code the harness does not know")
		}
		x.Env.JudgeCode(x.Call, p.Cmd, kernel.LangShell, dir, kernel.Sink{Prefix: "cargo runs " + p.Key + ":"})
	}
}

// cargoKnownProgram reports a program a cargo configuration names that is judged as typed and
// no more: a well-known toolchain program by its bare name (toolchainProgram) or installed in
// the system's directories (/usr/bin/mold), or a file in the project, whose code is read as
// ./script's is. A name the harness does not know, or a file elsewhere, runs code it cannot
// see.
func cargoKnownProgram(x *kernel.Command, cmd, dir string) bool {
	f := strings.Fields(cmd)
	switch {
	case len(f) == 0:
		return true
	case !strings.Contains(f[0], "/"):
		return toolchainProgram(f[0])
	case strings.HasPrefix(f[0], "~"):
		return false
	}
	p := kernel.Join(dir, f[0])
	for _, sys := range []string{"/usr/", "/bin/", "/opt/", "/nix/store/"} {
		if strings.HasPrefix(p, sys) && toolchainProgram(filepath.Base(p)) {
			return true
		}
	}
	return kernel.Under(p, x.Env.Layout.ProjectDir)
}

// toolchainPrograms are the programs cargo configurations commonly name, by their bare
// names: C compilers and linkers, compiler caches, runners of other targets, browsers.
var toolchainPrograms = map[string]bool{
	"cc": true, "c++": true, "gcc": true, "g++": true, "clang": true, "clang++": true, "clang-cl": true,
	"ld": true, "ld.lld": true, "ld.gold": true, "ld.bfd": true, "ld.mold": true, "ld64.lld": true,
	"lld": true, "lld-link": true, "mold": true, "gold": true, "bfd": true, "rust-lld": true, "wasm-ld": true,
	"flip-link": true, "emcc": true, "link.exe": true,
	"rustc": true, "rustdoc": true, "clippy-driver": true, "sccache": true, "ccache": true, "cachepot": true,
	"wasm-bindgen-test-runner": true, "wasm-server-runner": true, "wasmtime": true, "wasmer": true,
	"wasmedge": true, "probe-rs": true, "probe-run": true, "espflash": true, "elf2uf2-rs": true, "valgrind": true,
	"firefox": true, "chromium": true, "chromium-browser": true, "google-chrome": true, "google-chrome-stable": true,
	"brave-browser": true, "xdg-open": true, "open": true,
}

// crossTools are the toolchain programs a cross toolchain prefixes with its target
// (aarch64-linux-gnu-gcc), and targetArches the first words of those targets.
var (
	crossTools   = []string{"gcc", "g++", "cc", "c++", "clang", "clang++", "ld", "ld.bfd", "ld.gold", "ld.lld"}
	targetArches = []string{"x86_64", "i386", "i486", "i586", "i686", "aarch64", "arm", "thumb", "riscv", "mips",
		"powerpc", "ppc", "s390x", "sparc", "loongarch", "avr", "msp430", "wasm", "xtensa", "hexagon", "m68k", "nvptx"}
)

// toolchainProgram reports a well-known toolchain program's bare name: one of
// toolchainPrograms, versioned (clang-17, ld.lld-18), an emulator (qemu-aarch64,
// qemu-system-arm), or a cross compiler or linker (x86_64-w64-mingw32-gcc).
func toolchainProgram(name string) bool {
	if i := strings.LastIndexByte(name, '-'); i > 0 && strings.Trim(name[i+1:], "0123456789.") == "" && name[i+1:] != "" {
		name = name[:i] // a version
	}
	if toolchainPrograms[name] || strings.HasPrefix(name, "qemu-") && len(name) > len("qemu-") {
		return true
	}
	for _, tool := range crossTools {
		target, ok := strings.CutSuffix(name, "-"+tool)
		if !ok || target == "" || strings.Trim(target, "abcdefghijklmnopqrstuvwxyz0123456789_.-") != "" {
			continue
		}
		arch, _, _ := strings.Cut(target, "-")
		for _, a := range targetArches {
			if strings.HasPrefix(arch, a) {
				return true
			}
		}
	}
	return false
}

// toxRuns judges the commands tox runs: those of the file -c names, else of tox.ini, else of
// setup.cfg when it has a [tox:tox] section, else of pyproject.toml's tool.tox.legacy_tox_ini
// (tox's order; a file without its part is passed over). A file not read as tox reads it is
// code left unread.
func toxRuns(x *kernel.Command) {
	files := []string{"tox.ini", "setup.cfg", "pyproject.toml"}
	if w, _, ok := goFlag(x.Args, "c", "configfile"); ok {
		files = []string{w.Value}
	}
	for _, d := range x.RunDirs() {
		for _, file := range files {
			p := kernel.Join(d, file)
			text, ok, _ := x.Call.ReadCode(p)
			if !ok {
				continue
			}
			var cc ConfigCode
			switch {
			case strings.HasSuffix(file, ".toml"):
				if cc, ok = PyprojectToxCode(text, filepath.Dir(p)); !ok {
					continue
				}
			case file == "setup.cfg" && len(files) > 1:
				if f, _ := configfile.INI(text); !f.HasSection("tox:tox") {
					continue
				}
				fallthrough
			default:
				cc = ToxCode(text, filepath.Dir(p))
			}
			if cc.Unread != "" {
				x.Call.NotRead("tox runs the commands of " + x.Rel(p) + ": " + cc.Unread)
			}
			for _, code := range cc.Codes {
				x.Env.JudgeCode(x.Call, code.text, kernel.LangShell, filepath.Dir(p), kernel.Sink{Prefix: "tox runs (" + x.Rel(p) + "):"})
			}
			break
		}
	}
}

// fileRuns judges one file a runner loads from its directory (noxfile.py).
func fileRuns(x *kernel.Command, name string, l kernel.Lang, prefix string) {
	for _, d := range x.RunDirs() {
		runFile(x, filepath.Join(d, name), d, l, prefix)
	}
}
