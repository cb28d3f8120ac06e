package classify

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/domain"
)

// Config files of tools that run commands (the red-team's second pass): pre-commit's hooks,
// the programs cargo runs, VS Code's tasks, lint-staged's and husky's commands, nodemon's. A
// write into one is judged by the commands it names, as code typed directly (plantCode); the
// JavaScript config files tools load (eslint.config.js, vite.config.ts …) are plantLang rows
// of plantTable. Only what the tool runs is taken: a pre-commit hook's entry with its args,
// not its regular expression (language: pygrep) or its message (fail); cargo's runner, not
// its target directory.
//
// Code the file names but does not hold is a dependency, as package.json's dependencies are:
// a pre-commit repository fetched by its URL at a rev, a docker image. The harness does not
// read dependencies (a question on every ordinary pre-commit config would teach a person to
// say yes); a repository that is a directory on this machine is no dependency anyone
// reviewed, and is code left unread (a person looks).

// configCode is what a config file makes its tool run.
type configCode struct {
	codes     []codeText // commands run on this machine
	contained []codeText // commands run in a container (docker_image hooks)
	unread    string     // code the file names that the harness cannot read ("" for none)
}

// bounded is cc with at most maxConfigCodes commands: past the bound, the rest is code left
// unread (a person looks), never dropped in silence.
func (cc configCode) bounded() configCode {
	if len(cc.codes)+len(cc.contained) <= maxConfigCodes {
		return cc
	}
	cc.codes = cc.codes[:min(len(cc.codes), maxConfigCodes)]
	cc.contained = cc.contained[:maxConfigCodes-len(cc.codes)]
	if cc.unread == "" {
		cc.unread = "more than " + strconv.Itoa(maxConfigCodes) + " commands, past those the harness judges"
	}
	return cc
}

// plantConfig judges the commands a write puts into a config file of row's kind. An edit (an
// Edit's new text, an append) is applied to the file on disk and the commands it adds or
// changes are judged; when it cannot be, the new text alone is read as well as it can be.
func (c *Classifier) plantConfig(r *result, ev *claude.Event, tool, text string, edit bool, abs string, d domain.Domain, row *plantRow, s sink) {
	extract := func(t string, fragment bool) configCode { return configExtract(row.kind, t, abs, fragment) }
	var cc configCode
	if !edit {
		cc = extract(text, false)
	} else if after, before, ok := editedText(r, ev, text, abs); ok {
		cc = newCode(extract(after, false), extract(before, false))
	} else {
		cc = extract(text, true)
	}
	if cc.unread != "" {
		r.notRead(tool + " puts into " + filepath.Base(abs) + ", which " + row.runner + " reads, " + cc.unread)
	}
	switch row.kind {
	case plantCargo, plantVSCode:
		s.cwd = filepath.Dir(filepath.Dir(abs)) // the directory above .cargo and .vscode
	}
	c.plantCode(r, cc.codes, abs, d, tool, row.runner, s)
	if len(cc.contained) > 0 {
		s.elsewhere = true
		c.plantCode(r, cc.contained, abs, d, tool, row.runner+" (in a container)", s)
	}
}

// configExtract is what the text of a config file of kind k at abs makes its tool run;
// fragment: the text is part of the file (an edit of a file that cannot be read).
func configExtract(k plantKind, text, abs string, fragment bool) configCode {
	switch k {
	case plantPreCommit:
		return preCommitCode(text, fragment)
	case plantCargo:
		return cargoConfigCode(text)
	case plantVSCode:
		return vscodeTasksCode(text, filepath.Dir(filepath.Dir(abs)), fragment)
	case plantCmdMap:
		return cmdMapCode(text, fragment)
	case plantNodemon:
		return nodemonCode(text, fragment)
	}
	return configCode{}
}

// editedText is the whole text of abs after an edit (ev: an Edit or MultiEdit, applied to the
// file on disk; nil: text appended to it), and before it; false when the file cannot be read
// or the edit does not apply.
func editedText(r *result, ev *claude.Event, text, abs string) (after, before string, ok bool) {
	old, ok, cut := r.readCode(abs)
	if !ok || cut {
		return "", "", false
	}
	if ev == nil {
		if !strings.HasSuffix(old, "\n") {
			old += "\n"
		}
		return old + text, old, true
	}
	after, ok = applyEdits(old, ev)
	return after, old, ok
}

// newCode is what after runs that before did not (each command counted as often as it is
// named), and after's unread code when before had none.
func newCode(after, before configCode) configCode {
	minus := func(a, b []codeText) []codeText {
		seen := map[codeText]int{}
		for _, x := range b {
			seen[x]++
		}
		var out []codeText
		for _, x := range a {
			if seen[x] > 0 {
				seen[x]--
				continue
			}
			out = append(out, x)
		}
		return out
	}
	out := configCode{codes: minus(after.codes, before.codes), contained: minus(after.contained, before.contained)}
	if after.unread != before.unread {
		out.unread = after.unread
	}
	return out
}

// ---- pre-commit ----

// preCommitCode returns the commands of a .pre-commit-config.yaml (or a hook repository's
// .pre-commit-hooks.yaml, or a part of one: fragment): each hook's entry with its args
// appended, as pre-commit runs it; docker_image hooks' commands run in a container. A
// repository that is a directory on this machine is code left unread; one fetched by URL is a
// dependency. YAML the reader does not read as pre-commit does is code left unread too (but
// for a fragment, which is no whole file).
func preCommitCode(text string, fragment bool) configCode {
	var cc configCode
	root, unread := parseYAML(text)
	if unread != "" && !fragment {
		cc.unread = "YAML the harness does not read as pre-commit does (" + unread + "), whose hooks pre-commit may still run"
	}
	var repos []*yNode
	entries := 0
	switch {
	case root == nil:
		return cc
	case root.kind == 'l':
		repos = root.items // a hooks file, or a part of a config
	case root.get("repos") != nil:
		repos = root.get("repos").items
	default:
		repos = []*yNode{root} // a part of one: a repository or a hook
	}
	for _, repo := range repos {
		if repo == nil || repo.kind != 'm' {
			continue
		}
		url, _ := repo.get("repo").str() // meta: pre-commit's own checks, which name no entry
		if url != "" && url != "local" && url != "meta" && !remoteRepo(url) && cc.unread == "" {
			cc.unread = "the hooks of the repository " + quoteRaw(url) + ", a directory on this machine whose code is not read"
		}
		hooks := []*yNode{repo}
		if h := repo.get("hooks"); h != nil {
			hooks = h.items
		}
		for _, h := range hooks {
			if h != nil && h.get("entry") != nil {
				entries++
			}
			preCommitHook(h, &cc)
		}
	}
	// A line "entry: …" the reader did not find in a hook: the file is read otherwise than
	// pre-commit may read it, and every entry is judged as a command.
	lines := 0
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimPrefix(strings.TrimSpace(l), "- "), "entry:") {
			lines++
		}
	}
	if lines > entries {
		cc.codes = append(cc.codes, yamlValues(text, func(k string) bool { return k == "entry" })...)
	}
	return cc.bounded()
}

// preCommitHook adds the command of one hook: its entry (a remote hook without one runs the
// entry of its repository, a dependency) and args.
func preCommitHook(h *yNode, cc *configCode) {
	if h == nil || h.kind != 'm' {
		return
	}
	entry, ok := h.get("entry").str()
	if !ok || strings.TrimSpace(entry) == "" {
		return
	}
	language, _ := h.get("language").str()
	var args []string
	if a := h.get("args"); a != nil {
		if s, ok := a.str(); ok {
			args = append(args, s)
		}
		for _, it := range a.items {
			if s, ok := it.str(); ok {
				args = append(args, s)
			}
		}
	}
	cmd := strings.TrimSpace(entry)
	if len(args) > 0 {
		cmd += " " + shellWords(args)
	}
	switch language {
	case "pygrep", "fail":
		// a regular expression, a message: nothing runs
	case "docker_image":
		// entry is [--entrypoint PROG] IMAGE [ARGS]: the image is a dependency, the rest runs in it.
		f := strings.Fields(cmd)
		var prog string
		for len(f) > 0 && strings.HasPrefix(f[0], "--") {
			if e, ok := strings.CutPrefix(f[0], "--entrypoint="); ok {
				prog, f = e, f[1:]
			} else if f[0] == "--entrypoint" && len(f) > 1 {
				prog, f = f[1], f[2:]
			} else {
				f = f[1:]
			}
		}
		if len(f) > 0 {
			f = f[1:] // the image
		}
		if prog != "" {
			f = append([]string{prog}, f...)
		}
		if len(f) > 0 {
			cc.contained = append(cc.contained, codeText{strings.Join(f, " "), langShell})
		}
	case "docker":
		cc.contained = append(cc.contained, codeText{cmd, langShell})
	default: // system, script, unsupported, unsupported_script, python, node … (run as a command in its environment), or not said
		cc.codes = append(cc.codes, codeText{cmd, langShell})
	}
}

// remoteRepo reports a repository pre-commit fetches from another machine (a URL, or
// user@host:path), as opposed to a directory on this one (a path, file://).
func remoteRepo(url string) bool {
	if scheme, _, ok := strings.Cut(url, "://"); ok {
		return !strings.EqualFold(scheme, "file")
	}
	at, colon := strings.IndexByte(url, '@'), strings.IndexByte(url, ':')
	return at > 0 && colon > at && !strings.ContainsRune(url[:at], '/')
}

// ---- cargo ----

// cargoProgram is a program a cargo configuration names: its key (runner, linker …) and the
// command line.
type cargoProgram struct {
	key, cmd string
}

// cargoConfigCode returns the commands of a cargo configuration: every program it names
// (cargoPrograms), and its [env] variables as exports, so that one that carries code
// (LD_PRELOAD, RUSTC_WRAPPER …) is judged as such (runenv.go).
func cargoConfigCode(text string) configCode {
	var cc configCode
	for _, p := range cargoPrograms(text, 0) {
		cc.codes = append(cc.codes, codeText{p.cmd, langShell})
	}
	for _, kv := range parseTOML(text) {
		if len(kv.path) < 2 || kv.path[0] != "env" || len(cc.codes) >= maxConfigCodes {
			continue
		}
		v, ok := kv.val.str()
		if len(kv.path) == 3 && kv.path[2] == "value" || len(kv.path) == 2 && ok {
			if name := kv.path[1]; envName(name) && ok {
				cc.codes = append(cc.codes, codeText{"export " + name + "=" + shellWord(v), langShell})
			}
		}
	}
	return cc
}

// cargoProgramKey reports a key whose value is a program cargo runs, under the tables cargo
// reads it from (cargoPrograms).
func cargoProgramKey(k string) bool {
	switch k {
	case "runner", "linker", "rustc-wrapper", "rustc-workspace-wrapper", "rustc", "rustdoc", "browser", "credential-provider":
		return true
	}
	return false
}

func envName(s string) bool {
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if !(ch == '_' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || i > 0 && ch >= '0' && ch <= '9') {
			return false
		}
	}
	return s != ""
}

// cargoPrograms returns the programs a cargo configuration makes cargo run: target.*.runner
// and linker, host.linker, build.rustc-wrapper, rustc-workspace-wrapper, rustc and rustdoc, a
// linker given in rustflags (-C linker=…), doc.browser, credential providers, and those of a
// --config given in an alias. depth: of --config in aliases.
func cargoPrograms(text string, depth int) []cargoProgram {
	var out []cargoProgram
	add := func(key string, v tomlVal) {
		if cmd := v.command(); strings.TrimSpace(cmd) != "" && len(out) < maxConfigCodes {
			out = append(out, cargoProgram{key, cmd})
		}
	}
	for _, kv := range parseTOML(text) {
		p := kv.path
		last := p[len(p)-1]
		switch {
		case len(p) == 3 && p[0] == "target" && (last == "runner" || last == "linker"),
			len(p) >= 2 && len(p) <= 3 && p[0] == "host" && last == "linker",
			len(p) == 2 && p[0] == "build" && (last == "rustc-wrapper" || last == "rustc-workspace-wrapper" || last == "rustc" || last == "rustdoc"),
			len(p) == 2 && p[0] == "doc" && last == "browser":
			add(last, kv.val)
		case len(p) == 2 && p[0] == "registry" && last == "credential-provider",
			len(p) == 3 && p[0] == "registries" && last == "credential-provider",
			len(p) == 2 && p[0] == "credential-alias":
			if cmd := kv.val.command(); !strings.HasPrefix(cmd, "cargo:") {
				add("credential-provider", kv.val)
			}
		case len(p) == 2 && p[0] == "registry" && last == "global-credential-providers":
			for _, it := range kv.val.arr {
				if s, ok := it.str(); ok && !strings.HasPrefix(s, "cargo:") {
					add("credential-provider", tomlVal{s: s, isStr: true})
				}
			}
		case last == "rustflags" && (p[0] == "build" || p[0] == "target" || p[0] == "host"):
			flags := kv.val.words()
			for i := 0; i < len(flags); i++ {
				f, ok := "", false
				switch {
				case (flags[i] == "-C" || flags[i] == "--codegen") && i+1 < len(flags):
					i++
					f, ok = flags[i], true
				case strings.HasPrefix(flags[i], "--codegen="):
					f, ok = flags[i][len("--codegen="):], true
				case strings.HasPrefix(flags[i], "-C"):
					f, ok = flags[i][2:], true
				}
				if l, linker := strings.CutPrefix(f, "linker="); ok && linker {
					add("linker", tomlVal{s: l, isStr: true})
				}
			}
		case len(p) == 2 && p[0] == "alias" && depth < 2:
			// An alias is cargo's own arguments, not a shell; one may carry --config KEY=VALUE.
			words := kv.val.words()
			for i, w := range words {
				cfg, ok := strings.CutPrefix(w, "--config=")
				if !ok && w == "--config" && i+1 < len(words) {
					cfg, ok = words[i+1], true
				}
				if ok {
					out = append(out, cargoPrograms(cfg, depth+1)...)
				}
			}
		}
	}
	if depth > 0 {
		return out
	}
	// A line that sets a program key the reader did not find under its table (a file read
	// otherwise than cargo may read it) names a program too.
	for _, line := range strings.Split(text, "\n") {
		k, v, ok := strings.Cut(line, "=")
		k = strings.TrimSpace(k)
		if i := strings.LastIndexByte(k, '.'); i >= 0 {
			k = strings.Trim(k[i+1:], "\"' ")
		}
		if !ok || !cargoProgramKey(k) || len(out) >= maxConfigCodes {
			continue
		}
		for _, kv := range parseTOML("x = " + v) {
			cmd := kv.val.command()
			if strings.TrimSpace(cmd) != "" && !strings.HasPrefix(cmd, "cargo:") && !slices.ContainsFunc(out, func(p cargoProgram) bool { return p.cmd == cmd }) {
				out = append(out, cargoProgram{k, cmd})
			}
		}
	}
	return out
}

// ---- VS Code ----

// vscodeTasksCode returns the commands of .vscode/tasks.json's tasks (and of its top-level
// command, the old format's), with their args, environment, working directory and shell.
// Tasks of other types (npm, typescript …) name no command. dir is the workspace folder.
func vscodeTasksCode(text, dir string, fragment bool) configCode {
	var cc configCode
	var root map[string]any
	if json.Unmarshal([]byte(stripJSONC(text)), &root) != nil {
		if fragment {
			cc.codes = jsonLiteralCommands(text)
		} else if strings.TrimSpace(text) != "" {
			cc.unread = "text that is not JSON the harness can read, whose tasks VS Code may still run"
		}
		return cc
	}
	tasks := []map[string]any{root}
	if list, ok := root["tasks"].([]any); ok {
		for _, t := range list {
			if m, ok := t.(map[string]any); ok {
				tasks = append(tasks, m)
			}
		}
	}
	for i, t := range tasks {
		top := root
		if i == 0 {
			top = nil // the top level itself
		}
		typ, _ := t["type"].(string)
		if typ == "" {
			typ, _ = root["type"].(string)
		}
		switch typ {
		case "", "shell", "process":
		default:
			continue // a task provider's (npm, typescript, gulp …)
		}
		if isShell, _ := t["isShellCommand"].(bool); isShell || typ == "" {
			typ = "shell" // read as a shell's when not said: the more that is judged
		}
		for _, form := range []map[string]any{t, asMap(t["windows"]), asMap(t["linux"]), asMap(t["osx"])} {
			if form == nil || len(cc.codes) >= maxConfigCodes {
				continue
			}
			if cmd := vscodeTask(form, t, top, typ, dir); cmd != "" {
				cc.codes = append(cc.codes, codeText{cmd, langShell})
			}
		}
	}
	return cc
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// vscodeTask is the command line of one task (or one of its per-system forms), "" for none.
// A task of the old format without a command runs the top-level one with its args first.
func vscodeTask(form, task, root map[string]any, typ, dir string) string {
	// A per-system form overrides the task's properties it names.
	pick := func(k string) any {
		if v, ok := form[k]; ok {
			return v
		}
		return task[k]
	}
	command := vscodeString(pick("command"), false)
	var args []string
	if command == "" && root != nil {
		command = vscodeString(root["command"], false)
		args = vscodeArgs(root["args"], typ == "shell")
	}
	if command == "" {
		return ""
	}
	args = append(args, vscodeArgs(pick("args"), typ == "shell")...)
	line := command
	if typ != "shell" {
		line = shellWord(command)
	}
	if len(args) > 0 {
		line += " " + strings.Join(args, " ")
	}
	options := asMap(pick("options"))
	if sh := asMap(options["shell"]); sh != nil && typ == "shell" {
		if exe, _ := sh["executable"].(string); exe != "" {
			argv := []string{exe}
			for _, a := range asList(sh["args"]) {
				if s, ok := a.(string); ok {
					argv = append(argv, s)
				}
			}
			line = shellWords(append(argv, line)) // the task's text is that program's argument
		}
	}
	var prefix strings.Builder
	if cwd, ok := options["cwd"].(string); ok && cwd != "" {
		prefix.WriteString("cd " + shellWord(vscodeSubst(cwd, dir)) + " && ")
	}
	if env := asMap(options["env"]); env != nil {
		names := make([]string, 0, len(env))
		for k := range env {
			names = append(names, k)
		}
		slices.Sort(names)
		for _, k := range names {
			if v, ok := env[k].(string); ok && envName(k) {
				prefix.WriteString("export " + k + "=" + shellWord(vscodeSubst(v, dir)) + "; ")
			}
		}
	}
	return prefix.String() + vscodeSubst(line, dir)
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// vscodeString is a command or an argument: a string, a list of strings (joined with spaces),
// or {value, quoting}; quoted as VS Code quotes a shell task's argument when arg is true.
func vscodeString(v any, arg bool) string {
	quoting := ""
	if m, ok := v.(map[string]any); ok {
		quoting, _ = m["quoting"].(string)
		v = m["value"]
	}
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case []any:
		var parts []string
		for _, p := range x {
			if ps, ok := p.(string); ok {
				parts = append(parts, ps)
			}
		}
		s = strings.Join(parts, " ")
	default:
		return ""
	}
	if !arg {
		return s
	}
	switch quoting {
	case "strong":
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	case "weak":
		return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
	}
	if strings.ContainsAny(s, " \t") { // VS Code quotes an argument with white space
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return s
}

// vscodeArgs are a task's args as shell words: as VS Code passes them to a shell task (shell),
// each one word for a process.
func vscodeArgs(v any, shell bool) []string {
	var out []string
	for _, a := range asList(v) {
		if shell {
			out = append(out, vscodeString(a, true))
		} else {
			out = append(out, shellWord(vscodeString(a, false)))
		}
	}
	return out
}

// vscodeSubst replaces VS Code's variables: the workspace folder by dir, the home directory
// and environment variables by the shell's, anything else (${file}, ${input:x}) by a value
// that cannot be known statically.
func vscodeSubst(s, dir string) string {
	return substitute(s, "${", func(name string) string {
		switch {
		case name == "workspaceFolder" || name == "workspaceRoot" || name == "cwd" || strings.HasPrefix(name, "workspaceFolder:"):
			return dir
		case name == "userHome":
			return "$HOME"
		case strings.HasPrefix(name, "env:") && envName(name[4:]):
			return "${" + name[4:] + "}"
		}
		return "$__vscode_variable"
	})
}

// jsonLiteralCommands are the string literals of a part of a JSON file that look like a
// command line (an edit whose file cannot be read, as for package.json).
func jsonLiteralCommands(text string) []codeText {
	var out []codeText
	for _, l := range literals(text) {
		if strings.ContainsAny(l, " ;|&$`") {
			out = append(out, codeText{l, langShell})
		}
	}
	return out
}

// ---- lint-staged, husky, simple-git-hooks, nodemon ----

// cmdMapCode returns the commands of a map of commands in JSON or YAML (.lintstagedrc: glob →
// command or commands; .huskyrc: hooks → command): every string value under it. Text that is
// not JSON is read both as JSON with comments and as YAML, which its tool may read (lint-staged
// reads .lintstagedrc as YAML, where // is text: {"a": "b", //, "c": "rm -rf ~"} runs rm). YAML
// the reader does not read as the tool does is code left unread (but for a fragment, which is
// no whole file).
func cmdMapCode(text string, fragment bool) configCode {
	var cc configCode
	var strs []string
	var v any
	if json.Unmarshal([]byte(text), &v) == nil {
		strs = jsonStrings(v, nil)
	} else {
		if json.Unmarshal([]byte(stripJSONC(text)), &v) == nil {
			strs = jsonStrings(v, nil)
		}
		root, unread := parseYAML(text)
		switch {
		case fragment && (root == nil || root.kind == 's'):
			cc.codes = jsonLiteralCommands(text)
		case unread != "" && !fragment:
			cc.unread = "YAML the harness does not read as its tool does (" + unread + "), whose commands may still run"
		}
		if root != nil && root.kind != 's' { // a config that is one string is no config: nothing runs
			strs = root.strings(strs)
		}
	}
	for _, s := range strs {
		cc.codes = append(cc.codes, codeText{s, langShell})
	}
	return cc.bounded()
}

// jsonStrings appends the string values under v (not the keys), in a stable order: at most one
// past maxConfigCodes, so that a caller tells a list it must cut (configCode.bounded).
func jsonStrings(v any, out []string) []string { return jsonStringsUpTo(v, out, maxConfigCodes+1) }

// jsonStringsUpTo is jsonStrings with at most limit strings (every one for a negative limit).
func jsonStringsUpTo(v any, out []string, limit int) []string {
	switch x := v.(type) {
	case string:
		if limit < 0 || len(out) < limit {
			out = append(out, x)
		}
	case []any:
		for _, it := range x {
			out = jsonStringsUpTo(it, out, limit)
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			out = jsonStringsUpTo(x[k], out, limit)
		}
	}
	return out
}

// nodemonCode returns the commands of nodemon.json: exec, the events' commands, execMap's.
func nodemonCode(text string, fragment bool) configCode {
	var cc configCode
	var cfg map[string]any
	if json.Unmarshal([]byte(stripJSONC(text)), &cfg) != nil {
		if fragment {
			cc.codes = jsonLiteralCommands(text)
		}
		return cc
	}
	for _, s := range nodemonCommands(cfg) {
		cc.codes = append(cc.codes, codeText{s, langShell})
	}
	return cc
}

func nodemonCommands(cfg map[string]any) []string {
	var out []string
	if s, ok := cfg["exec"].(string); ok {
		out = append(out, s)
	}
	out = jsonStrings(cfg["events"], out)
	return jsonStrings(cfg["execMap"], out)
}

// packagePlanted returns what package.json makes run: its scripts (by name), and the commands
// of its lint-staged, simple-git-hooks, husky (hooks) and nodemonConfig keys (by key and
// place: "\x00key\x00i"), all of them, as its scripts; nil when it is not a JSON object.
func packagePlanted(text string) map[string]string {
	var pkg map[string]json.RawMessage
	if json.Unmarshal([]byte(text), &pkg) != nil {
		return nil
	}
	out := packageScripts(text)
	if out == nil {
		out = map[string]string{}
	}
	for _, key := range []string{"lint-staged", "simple-git-hooks", "husky", "nodemonConfig"} {
		raw, ok := pkg[key]
		if !ok {
			continue
		}
		var v any
		json.Unmarshal(raw, &v)
		var cmds []string
		switch key {
		case "husky":
			cmds = jsonStringsUpTo(asMap(v)["hooks"], nil, -1)
		case "nodemonConfig":
			if m := asMap(v); m != nil {
				cmds = nodemonCommands(m)
			}
		default:
			cmds = jsonStringsUpTo(v, nil, -1)
		}
		for i, s := range cmds {
			out["\x00"+key+"\x00"+strconv.Itoa(i)] = s
		}
	}
	return out
}

// packageKeyCode is what the config under key of package.json (lint-staged's, as
// packagePlanted finds it) makes its tool run; nothing when it has no such key.
func packageKeyCode(text, key string) configCode {
	var cc configCode
	planted := packagePlanted(text)
	for i := 0; ; i++ {
		s, ok := planted["\x00"+key+"\x00"+strconv.Itoa(i)]
		if !ok {
			return cc.bounded()
		}
		cc.codes = append(cc.codes, codeText{s, langShell})
	}
}
