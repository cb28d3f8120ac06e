package runfiles

import (
	"cmp"
	"encoding/json"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/configfile"
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

// ConfigCode is what a config file makes its tool run.
type ConfigCode struct {
	Codes     []codeText // commands run on this machine
	contained []codeText // commands run in a container (docker_image hooks)
	Unread    string     // code the file names that the harness cannot read ("" for none)
}

// bounded is cc with at most maxConfigCodes commands: past the bound, the rest is code left
// unread (a person looks), never dropped in silence.
func (cc ConfigCode) bounded() ConfigCode {
	if len(cc.Codes)+len(cc.contained) <= MaxConfigCodes {
		return cc
	}
	cc.Codes = cc.Codes[:min(len(cc.Codes), MaxConfigCodes)]
	cc.contained = cc.contained[:MaxConfigCodes-len(cc.Codes)]
	if cc.Unread == "" {
		cc.Unread = "more than " + strconv.Itoa(MaxConfigCodes) + " commands, past those the harness judges"
	}
	return cc
}

// plantConfig judges the commands a write puts into a config file of row's kind. An edit (an
// Edit's new text, an append) is applied to the file on disk and the commands it adds or
// changes are judged; when it cannot be, the new text alone is read as well as it can be.
func plantConfig(c *kernel.Env, r *kernel.Result, ev *claude.Event, tool, text string, edit bool, abs string, d domain.Domain, row *PlantRow, s kernel.Sink) {
	extract := func(t string, fragment bool) ConfigCode { return configExtract(row.kind, t, abs, fragment) }
	var cc ConfigCode
	if !edit {
		cc = extract(text, false)
	} else if after, before, ok := editedText(r, ev, text, abs); ok {
		cc = newCode(extract(after, false), extract(before, false))
	} else {
		cc = extract(text, true)
	}
	if cc.Unread != "" {
		r.NotRead(tool + " puts into " + filepath.Base(abs) + ", which " + row.runner + " reads, " + cc.Unread)
	}
	s.Cwd = configDir(row.kind, abs)
	plantCode(c, r, cc.Codes, abs, d, tool, row.runner, s)
	if len(cc.contained) > 0 {
		s.Elsewhere = true
		plantCode(c, r, cc.contained, abs, d, tool, row.runner+" (in a container)", s)
	}
}

// configDir is where the commands of the config file at abs (of kind k) run, written or
// run: the directory above .cargo and .vscode, a dev container's workspace folder, else the
// file's own directory.
func configDir(k plantKind, abs string) string {
	switch k {
	case plantCargo, plantVSCode:
		return filepath.Dir(filepath.Dir(abs))
	case plantDevcontainer:
		return devcontainerWorkspace(abs)
	}
	return filepath.Dir(abs)
}

// unparsedJSONC is what a JSON-with-comments config that does not parse makes its tool run,
// for a tool that parses leniently (VS Code, the dev container tools: jsonc-parser goes on
// past an error): of a fragment, its string literals that look like commands; of a whole
// file, code left unread (what says what the tool may do).
func unparsedJSONC(text string, fragment bool, what string) ConfigCode {
	var cc ConfigCode
	if fragment {
		cc.Codes = jsonLiteralCommands(text)
	} else if strings.TrimSpace(configfile.WithoutBOM(text)) != "" {
		cc.Unread = "text that is not JSON the harness can read, " + what
	}
	return cc
}

// configExtract is what the text of a config file of kind k at abs makes its tool run;
// fragment: the text is part of the file (an edit of a file that cannot be read).
func configExtract(k plantKind, text, abs string, fragment bool) ConfigCode {
	switch k {
	case plantPreCommit:
		return PreCommitCode(text, fragment)
	case plantCargo:
		return CargoConfigCode(text)
	case plantVSCode:
		return VscodeTasksCode(text, filepath.Dir(filepath.Dir(abs)), fragment)
	case plantCmdMap:
		return CmdMapCode(text, fragment)
	case plantNodemon:
		return NodemonCode(text, fragment)
	case plantProcfile:
		return procfileCode(text)
	case plantDevcontainer:
		return devcontainerCode(text, fragment)
	case plantIni:
		return ToxCode(text, filepath.Dir(abs))
	}
	return ConfigCode{}
}

// editedText is the whole text of abs after an edit (ev: an Edit or MultiEdit, applied to the
// file on disk; nil: text appended to it), and before it; false when the file cannot be read
// or the edit does not apply.
func editedText(r *kernel.Result, ev *claude.Event, text, abs string) (after, before string, ok bool) {
	old, ok, cut := r.ReadCode(abs)
	if !ok || cut {
		return "", "", false
	}
	if ev == nil {
		if !strings.HasSuffix(old, "\n") {
			old += "\n"
		}
		return old + text, old, true
	}
	after, ok = kernel.ApplyEdits(old, ev)
	return after, old, ok
}

// newCode is what after runs that before did not (each command counted as often as it is
// named), and after's unread code when before had none.
func newCode(after, before ConfigCode) ConfigCode {
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
	out := ConfigCode{Codes: minus(after.Codes, before.Codes), contained: minus(after.contained, before.contained)}
	if after.Unread != before.Unread {
		out.Unread = after.Unread
	}
	return out
}

// ---- pre-commit ----

// PreCommitCode returns the commands of a .pre-commit-config.yaml (or a hook repository's
// .pre-commit-hooks.yaml, or a part of one: fragment): each hook's entry with its args
// appended, as pre-commit runs it; docker_image hooks' commands run in a container. A
// repository that is a directory on this machine is code left unread; one fetched by URL is a
// dependency. YAML the reader does not read as pre-commit does is code left unread too (but
// for a fragment, which is no whole file).
func PreCommitCode(text string, fragment bool) ConfigCode {
	var cc ConfigCode
	root, unread := configfile.YAML(text)
	if unread != "" && !fragment {
		cc.Unread = "YAML the harness does not read as pre-commit does (" + unread + "), whose hooks pre-commit may still run"
	}
	var repos []*configfile.Node
	entries := 0
	switch {
	case root == nil:
		return cc
	case root.IsList():
		repos = root.Items() // a hooks file, or a part of a config
	case root.Get("repos") != nil:
		repos = root.Get("repos").Items()
	default:
		repos = []*configfile.Node{root} // a part of one: a repository or a hook
	}
	for _, repo := range repos {
		if repo == nil || !repo.IsMapping() {
			continue
		}
		url, _ := repo.Get("repo").Str() // meta: pre-commit's own checks, which name no entry
		if url != "" && url != "local" && url != "meta" && !remoteRepo(url) && cc.Unread == "" {
			cc.Unread = "the hooks of the repository " + kernel.QuoteRaw(url) + ", a directory on this machine whose code is not read"
		}
		hooks := []*configfile.Node{repo}
		if h := repo.Get("hooks"); h != nil {
			hooks = h.Items()
		}
		for _, h := range hooks {
			if h != nil && h.Get("entry") != nil {
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
		cc.Codes = append(cc.Codes, YamlValues(text, func(k string) bool { return k == "entry" })...)
	}
	return cc.bounded()
}

// preCommitHook adds the command of one hook: its entry (a remote hook without one runs the
// entry of its repository, a dependency) and args.
func preCommitHook(h *configfile.Node, cc *ConfigCode) {
	if h == nil || !h.IsMapping() {
		return
	}
	entry, ok := h.Get("entry").Str()
	if !ok || strings.TrimSpace(entry) == "" {
		return
	}
	language, _ := h.Get("language").Str()
	var args []string
	if a := h.Get("args"); a != nil {
		if s, ok := a.Str(); ok {
			args = append(args, s)
		}
		for _, it := range a.Items() {
			if s, ok := it.Str(); ok {
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
			cc.contained = append(cc.contained, codeText{strings.Join(f, " "), kernel.LangShell})
		}
	case "docker":
		cc.contained = append(cc.contained, codeText{cmd, kernel.LangShell})
	default: // system, script, unsupported, unsupported_script, python, node … (run as a command in its environment), or not said
		cc.Codes = append(cc.Codes, codeText{cmd, kernel.LangShell})
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

// CargoProgram is a program a cargo configuration names: its key (runner, linker …; env for a
// variable of [env], whose command is its export) and the command line.
type CargoProgram struct {
	Key, Cmd string
}

// CargoConfigCode returns the commands of a cargo configuration: every program it names and
// its [env] variables as exports (cargoPrograms).
func CargoConfigCode(text string) ConfigCode {
	progs, unread := CargoPrograms(text, 0)
	cc := ConfigCode{Unread: unread}
	for _, p := range progs {
		cc.Codes = append(cc.Codes, codeText{p.Cmd, kernel.LangShell})
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

// CargoPrograms returns what a cargo configuration makes cargo run: target.*.runner and
// linker, host.linker, build.rustc-wrapper, rustc-workspace-wrapper, rustc and rustdoc, a
// linker given in rustflags (-C linker=…, -C link-arg=-fuse-ld=…), doc.browser, credential
// providers, those of a --config given in an alias, and the variables of [env] as exports, so
// that one that carries code (LD_PRELOAD, RUSTC_WRAPPER …) is judged as such (runenv.go).
// unread says what it could not read (a configuration file an alias names, more than it
// reads), for a person to look. depth: of --config in aliases.
func CargoPrograms(text string, depth int) (out []CargoProgram, unread string) {
	add := func(key, cmd string) {
		switch {
		case strings.TrimSpace(cmd) == "":
		case len(out) >= MaxConfigCodes:
			unread = "more programs than the harness reads: the rest are not judged"
		default:
			out = append(out, CargoProgram{key, cmd})
		}
	}
	kvs, complete := configfile.TOML(text)
	if !complete {
		unread = "more values than the harness reads: the rest are not judged"
	}
	for _, kv := range kvs {
		p := kv.Path
		last := p[len(p)-1]
		switch {
		case len(p) == 3 && p[0] == "target" && (last == "runner" || last == "linker"),
			len(p) >= 2 && len(p) <= 3 && p[0] == "host" && last == "linker",
			len(p) == 2 && p[0] == "build" && (last == "rustc-wrapper" || last == "rustc-workspace-wrapper" || last == "rustc" || last == "rustdoc"),
			len(p) == 2 && p[0] == "doc" && last == "browser":
			add(last, tomlCommand(kv.Val))
		case len(p) == 2 && p[0] == "registry" && last == "credential-provider",
			len(p) == 3 && p[0] == "registries" && last == "credential-provider",
			len(p) == 2 && p[0] == "credential-alias":
			if cmd := tomlCommand(kv.Val); !strings.HasPrefix(cmd, "cargo:") {
				add("credential-provider", cmd)
			}
		case len(p) == 2 && p[0] == "registry" && last == "global-credential-providers":
			for _, it := range kv.Val.Items() {
				if s, ok := it.Str(); ok && !strings.HasPrefix(s, "cargo:") {
					add("credential-provider", s)
				}
			}
		case last == "rustflags" && (p[0] == "build" || p[0] == "target" || p[0] == "host"):
			for _, l := range rustflagsLinkers(kv.Val.Words()) {
				add("linker", l)
			}
		case len(p) >= 2 && p[0] == "env":
			name, v, ok := cargoEnv(kv)
			if !ok {
				continue
			}
			add("env", "export "+name+"="+shellWord(v))
			switch name {
			case "RUSTFLAGS", "CARGO_BUILD_RUSTFLAGS", "CARGO_ENCODED_RUSTFLAGS":
				// the flags of a cargo a build script runs: its linker
				for _, l := range rustflagsLinkers(strings.FieldsFunc(v, func(r rune) bool { return r == ' ' || r == '\t' || r == '\x1f' })) {
					add("linker", l)
				}
			}
		case len(p) == 2 && p[0] == "alias":
			// An alias is cargo's own arguments, not a shell; one may carry --config KEY=VALUE,
			// or --config FILE.
			words := kv.Val.Words()
			for i, w := range words {
				cfg, ok := strings.CutPrefix(w, "--config=")
				if !ok && w == "--config" && i+1 < len(words) {
					cfg, ok = words[i+1], true
				}
				if !ok {
					continue
				}
				if kvs, _ := configfile.TOML(cfg); len(kvs) == 0 {
					unread = "the configuration file " + kernel.QuoteRaw(cfg) + " an alias gives cargo (--config), which the harness does not read"
					continue
				}
				if depth >= 2 {
					unread = "a --config in an alias of a --config in an alias, deeper than the harness reads"
					continue
				}
				progs, u := CargoPrograms(cfg, depth+1)
				for _, p := range progs {
					add(p.Key, p.Cmd)
				}
				if u != "" {
					unread = u
				}
			}
		}
	}
	if depth == 0 {
		// A line that sets a program key the reader did not find under its table (a file read
		// otherwise than cargo may read it) names a program too: each line read alone, its key
		// decoded as TOML decodes it ("\u0072unner" is runner).
		for _, line := range strings.Split(configfile.WithoutBOM(text), "\n") {
			kvs, _ := configfile.TOML(line)
			for _, kv := range kvs {
				k, cmd := kv.Path[len(kv.Path)-1], tomlCommand(kv.Val)
				if cargoProgramKey(k) && !strings.HasPrefix(cmd, "cargo:") && !slices.ContainsFunc(out, func(p CargoProgram) bool { return p.Cmd == cmd }) {
					add(k, cmd)
				}
			}
		}
	}
	return out, unread
}

// cargoEnv is the variable and value of a key of cargo's [env]: NAME = "value", or NAME =
// { value = "value", force = …, relative = … }; false for another key.
func cargoEnv(kv configfile.KV) (name, value string, ok bool) {
	p := kv.Path
	v, isStr := kv.Val.Str()
	if !isStr || !(len(p) == 2 || len(p) == 3 && p[2] == "value") || !shell.IsName(p[1]) {
		return "", "", false
	}
	return p[1], v, true
}

// rustflagsLinkers are the linkers rustc flags name: -C linker=PROG, and a linker the C
// compiler is told to use (-C link-arg=-fuse-ld=PROG, or the ld of -C link-arg=-BDIR).
func rustflagsLinkers(flags []string) []string {
	var out []string
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
		if !ok {
			continue
		}
		if l, linker := strings.CutPrefix(f, "linker="); linker {
			out = append(out, l)
		}
		args, link := strings.CutPrefix(f, "link-arg=")
		if !link {
			args, link = strings.CutPrefix(f, "link-args=")
		}
		for _, a := range strings.Fields(args) {
			if l, fuse := strings.CutPrefix(a, "-fuse-ld="); fuse && link {
				out = append(out, l)
			} else if dir, ok := strings.CutPrefix(a, "-B"); ok && link && dir != "" {
				out = append(out, strings.TrimSuffix(dir, "/")+"/ld") // the compiler runs the ld found there
			}
		}
	}
	return out
}

// ---- VS Code ----

// VscodeTasksCode returns the commands of .vscode/tasks.json's tasks with their args,
// environment, working directory and shell, each as VS Code merges it (vscodeMerged): what
// the task says, its form for the system, then the top level's settings for what it does
// not say (options, linux/osx/windows, the old format's command and args). Tasks of a task
// provider (npm, typescript …) name no command, but their options (a shell, variables) apply
// to the one they run. dir is the workspace folder.
func VscodeTasksCode(text, dir string, fragment bool) ConfigCode {
	var cc ConfigCode
	var root map[string]any
	if json.Unmarshal([]byte(configfile.StripJSONC(text)), &root) != nil {
		return unparsedJSONC(text, fragment, "whose tasks VS Code may still run")
	}
	v2 := root["version"] != "0.1.0" // VS Code reads any other version as 2.0.0
	var tasks []map[string]any
	custom := false
	for _, list := range []any{root["tasks"], asMap(root["linux"])["tasks"], asMap(root["osx"])["tasks"], asMap(root["windows"])["tasks"]} {
		for _, t := range asList(list) {
			if m, ok := t.(map[string]any); ok {
				tasks = append(tasks, m)
				custom = custom || vscodeCustom(m)
			}
		}
	}
	if !custom {
		tasks = append(tasks, map[string]any{}) // the top level's own command (the old format's) is the task
	}
	for _, t := range tasks {
		if len(cc.Codes) >= MaxConfigCodes {
			cc.Unread = "more tasks than the harness reads: the rest are not judged"
			break
		}
		var lines []string
		for _, system := range []string{"linux", "osx", "windows"} {
			if line := vscodeMerged(t, root, system, v2).line(dir); line != "" && !slices.Contains(lines, line) {
				lines = append(lines, line)
			}
		}
		for _, line := range lines {
			cc.Codes = append(cc.Codes, codeText{line, kernel.LangShell})
		}
	}
	return cc
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// asStrings are the strings of a JSON list (other values passed over).
func asStrings(v any) []string {
	var out []string
	for _, it := range asList(v) {
		if s, ok := it.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// vscodeCmd is a task's command as VS Code reads it (taskConfiguration.ts): nil and false
// for what is not said.
type vscodeCmd struct {
	command  any // a string, a list of strings, or {value, quoting}
	args     []any
	hasArgs  bool
	runtime  string // shell or process
	provider string // the type of a task provider's task (npm …), which runs its own command
	selector any    // the old format's taskSelector, and suppressTaskName
	suppress any
	cwd      any
	env      map[string]any
	shellExe any
	shellArg []any
	hasShArg bool
}

// vscodeMerged is task t (an element of tasks, or {} for the top level's own command) as VS
// Code runs it on system: the task's form for the system over the task, then the top
// level's (its form for the system over it) filling in what the task does not say.
func vscodeMerged(t, root map[string]any, system string, v2 bool) vscodeCmd {
	if !vscodeCustom(t) {
		c := vscodeBase(map[string]any{"options": t["options"]}) // a provider's task: its options only
		typ, _ := t["type"].(string)
		c.provider = cmp.Or(typ, "task")
		return c
	}
	c := vscodeBase(t).assign(vscodeBase(asMap(t[system])), v2)
	global := vscodeBase(root).assign(vscodeBase(asMap(root[system])), v2)
	if _, depends := t["dependsOn"]; c.command != nil || !depends {
		name, _ := t["taskName"].(string)
		if label, ok := t["label"].(string); ok && v2 {
			name = label
		}
		c = c.fill(global, name, v2)
	}
	return c
}

// vscodeCustom reports a task of tasks.json's own (shell, process, or no type), as opposed
// to one that configures a task provider's.
func vscodeCustom(t map[string]any) bool {
	typ, _ := t["type"].(string)
	_, customize := t["customize"]
	return !customize && (typ == "" || typ == "shell" || typ == "process")
}

// vscodeBase is the command m (a task, a form for a system, the top level) says itself.
func vscodeBase(m map[string]any) vscodeCmd {
	var c vscodeCmd
	if m == nil {
		return c
	}
	c.command = m["command"]
	if typ, _ := m["type"].(string); typ == "shell" || typ == "process" {
		c.runtime = typ
	}
	if sh, ok := m["isShellCommand"]; ok && sh != nil {
		c.runtime = "shell" // a boolean (either one) or a shell's configuration
	}
	c.args, c.hasArgs = m["args"].([]any)
	c.selector, c.suppress = m["taskSelector"], m["suppressTaskName"]
	options := asMap(m["options"])
	c.cwd = options["cwd"]
	c.env = asMap(options["env"])
	sh := asMap(options["shell"])
	if sh == nil {
		sh = asMap(m["isShellCommand"])
	}
	c.shellExe = sh["executable"]
	c.shellArg, c.hasShArg = sh["args"].([]any)
	return c
}

// assign is c with what o (a form for a system) says over it.
func (c vscodeCmd) assign(o vscodeCmd, v2 bool) vscodeCmd {
	c.command = pickAny(o.command, c.command)
	c.runtime = cmp.Or(o.runtime, c.runtime)
	c.selector, c.suppress = pickAny(o.selector, c.selector), pickAny(o.suppress, c.suppress)
	if o.hasArgs {
		if v2 || !c.hasArgs {
			c.args = o.args
		} else {
			c.args = append(slices.Clip(c.args), o.args...)
		}
		c.hasArgs = true
	}
	c.cwd = pickAny(o.cwd, c.cwd)
	if o.env != nil {
		env := maps.Clone(c.env)
		if env == nil {
			env = map[string]any{}
		}
		maps.Copy(env, o.env)
		c.env = env
	}
	c.shellExe = pickAny(o.shellExe, c.shellExe)
	if o.hasShArg {
		c.shellArg, c.hasShArg = o.shellArg, true
	}
	return c
}

// fill is task c with the top level's command g for what it does not say: a task without a
// command runs the top level's, with the top level's args, the task's name (the old format,
// unless suppressed) and its own args after it; options not said are the top level's.
func (c vscodeCmd) fill(g vscodeCmd, name string, v2 bool) vscodeCmd {
	if c.command == nil {
		c.command = g.command
		c.selector, c.suppress = pickAny(c.selector, g.selector), pickAny(c.suppress, g.suppress)
		args := slices.Clone(g.args)
		if suppress, ok := c.suppress.(bool); !(ok && suppress || !ok && v2) && name != "" {
			selector, _ := c.selector.(string)
			args = append(args, selector+name)
		}
		c.args, c.hasArgs = append(args, c.args...), true
	}
	c.runtime = cmp.Or(c.runtime, g.runtime)
	c.cwd = pickAny(c.cwd, g.cwd)
	if c.env == nil {
		c.env = g.env
	}
	c.shellExe = pickAny(c.shellExe, g.shellExe)
	if !c.hasShArg {
		c.shellArg, c.hasShArg = g.shellArg, g.hasShArg
	}
	return c
}

// pickAny is v, or else when v is not said.
func pickAny(v, orElse any) any {
	if v != nil {
		return v
	}
	return orElse
}

// line is the command line c runs in the workspace folder dir, "" for none: with a command
// not said, a shell task's runtime (the more that is judged); a provider's task runs its
// own command, named by its type.
func (c vscodeCmd) line(dir string) string {
	command := vscodeString(c.command, false)
	if c.provider != "" {
		if c.cwd == nil && c.env == nil && c.shellExe == nil && !c.hasShArg {
			return ""
		}
		command = c.provider
	}
	if command == "" {
		return ""
	}
	inShell := c.runtime != "process"
	line := command
	if !inShell {
		line = shellWord(command)
	}
	if args := vscodeArgs(c.args, inShell); len(args) > 0 {
		line += " " + strings.Join(args, " ")
	}
	if exe, _ := c.shellExe.(string); exe != "" && inShell {
		argv := append([]string{exe}, asStrings(c.shellArg)...)
		line = shellWords(append(argv, line)) // the task's text is that program's argument
	}
	var prefix strings.Builder
	if cwd, ok := c.cwd.(string); ok && cwd != "" {
		prefix.WriteString("cd " + vscodeWord(cwd, dir) + " && ")
	}
	for _, k := range slices.Sorted(maps.Keys(c.env)) {
		if v, ok := c.env[k].(string); ok && shell.IsName(k) {
			prefix.WriteString("export " + k + "=" + vscodeWord(v, dir) + "; ")
		}
	}
	return prefix.String() + vscodeSubst(line, dir)
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
		case strings.HasPrefix(name, "env:") && shell.IsName(name[4:]):
			return "${" + name[4:] + "}"
		}
		return "$__vscode_variable"
	})
}

// vscodeWord is a value VS Code gives a program as it is (a working directory, a variable's
// value) as one shell word: double-quoted, its VS Code variables the shell's (vscodeSubst),
// so that ${userHome} is the home directory; the rest is escaped, as the shell must not read
// it.
func vscodeWord(s, dir string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '$' && !(strings.HasPrefix(s[i:], "${") && strings.IndexByte(s[i:], '}') > 0), c == '\\', c == '"', c == '`':
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return `"` + vscodeSubst(b.String(), dir) + `"`
}

// jsonLiteralCommands are the string literals of a part of a JSON file that look like a
// command line (an edit whose file cannot be read, as for package.json).
func jsonLiteralCommands(text string) []codeText {
	var out []codeText
	for _, l := range kernel.Literals(text) {
		if strings.ContainsAny(l, " ;|&$`") {
			out = append(out, codeText{l, kernel.LangShell})
		}
	}
	return out
}

// ---- lint-staged, husky, simple-git-hooks, nodemon ----

// CmdMapCode returns the commands of a map of commands in JSON or YAML (.lintstagedrc: glob →
// command or commands; .huskyrc: hooks → command): every string value under it. Text that is
// not JSON is read both as JSON with comments and as YAML, which its tool may read (lint-staged
// reads .lintstagedrc as YAML, where // is text: {"a": "b", //, "c": "rm -rf ~"} runs rm). YAML
// the reader does not read as the tool does is code left unread (but for a fragment, which is
// no whole file).
func CmdMapCode(text string, fragment bool) ConfigCode {
	var cc ConfigCode
	var strs []string
	var v any
	if json.Unmarshal([]byte(text), &v) == nil {
		strs = jsonStrings(v, nil)
	} else {
		if json.Unmarshal([]byte(configfile.StripJSONC(text)), &v) == nil {
			strs = jsonStrings(v, nil)
		}
		root, unread := configfile.YAML(text)
		switch {
		case fragment && (root == nil || root.IsScalar()):
			cc.Codes = jsonLiteralCommands(text)
		case unread != "" && !fragment:
			cc.Unread = "YAML the harness does not read as its tool does (" + unread + "), whose commands may still run"
		}
		if root != nil && !root.IsScalar() { // a config that is one string is no config: nothing runs
			strs = root.Strings(strs)
		}
	}
	for _, s := range strs {
		cc.Codes = append(cc.Codes, codeText{s, kernel.LangShell})
	}
	return cc.bounded()
}

// jsonStrings appends the string values under v (not the keys), in a stable order: at most one
// past maxConfigCodes, so that a caller tells a list it must cut (configCode.bounded).
func jsonStrings(v any, out []string) []string { return jsonStringsUpTo(v, out, MaxConfigCodes+1) }

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

// NodemonCode returns the commands of nodemon.json (nodemonCommands).
func NodemonCode(text string, fragment bool) ConfigCode {
	var cc ConfigCode
	var cfg map[string]any
	if json.Unmarshal([]byte(configfile.StripJSONC(text)), &cfg) != nil {
		if fragment {
			cc.Codes = jsonLiteralCommands(text)
		}
		return cc // nodemon stops on a config it cannot parse: nothing runs
	}
	for _, s := range nodemonCommands(cfg) {
		cc.Codes = append(cc.Codes, codeText{s, kernel.LangShell})
	}
	return cc.bounded()
}

// nodemonCommands are the commands a nodemon configuration (nodemon.json, package.json's
// nodemonConfig) makes nodemon run: the program it restarts (exec, a line or a list, node when
// not said, with execArgs, node's nodeArgs, the script and its args), its env as exports (so
// that NODE_OPTIONS is judged as such: runenv.go), the events' commands and execMap's.
func nodemonCommands(cfg map[string]any) []string {
	var out []string
	line, node := "node", true
	switch exec := cfg["exec"].(type) {
	case string:
		line, node = exec, strings.TrimSpace(exec) == "node"
	case []any:
		line, node = shellWords(asStrings(exec)), false
	}
	argv := asStrings(cfg["execArgs"])
	if node {
		argv = append(argv, asStrings(cfg["nodeArgs"])...) // nodemon passes them to node only
	}
	if script, ok := cfg["script"].(string); ok {
		argv = append(argv, script)
	} else if node && len(argv) > 0 {
		// nodemon gives node package.json's main, else index.js, after nodeArgs: a script, not stdin.
		argv = append(argv, "index.js")
	}
	argv = append(argv, asStrings(cfg["args"])...)
	if _, ok := cfg["exec"]; ok || len(argv) > 0 {
		if len(argv) > 0 {
			line += " " + shellWords(argv)
		}
		out = append(out, line)
	}
	env := asMap(cfg["env"])
	for _, k := range slices.Sorted(maps.Keys(env)) {
		if v, ok := env[k].(string); ok && shell.IsName(k) {
			out = append(out, "export "+k+"="+shellWord(v))
		}
	}
	out = jsonStrings(cfg["events"], out)
	return jsonStrings(cfg["execMap"], out)
}

// packagePlanted returns what package.json makes run: its scripts (by name), and the commands
// of its lint-staged, simple-git-hooks, husky (hooks) and nodemonConfig keys (by key and
// place: "\x00key\x00i"), all of them, as its scripts; nil when it is not a JSON object.
func packagePlanted(text string) map[string]string {
	var pkg map[string]json.RawMessage
	if json.Unmarshal([]byte(configfile.WithoutBOM(text)), &pkg) != nil {
		return nil
	}
	out := PackageScripts(text)
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
func packageKeyCode(text, key string) ConfigCode {
	var cc ConfigCode
	planted := packagePlanted(text)
	for i := 0; ; i++ {
		s, ok := planted["\x00"+key+"\x00"+strconv.Itoa(i)]
		if !ok {
			return cc.bounded()
		}
		cc.Codes = append(cc.Codes, codeText{s, kernel.LangShell})
	}
}
