package classify

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/oath-harness/oath-harness/internal/classify/git"
	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/classify/outbound"
	"github.com/oath-harness/oath-harness/internal/classify/person"
	"github.com/oath-harness/oath-harness/internal/classify/runfiles"
	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/command"
	"github.com/oath-harness/oath-harness/internal/domain"
	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/layout"
	"github.com/oath-harness/oath-harness/internal/risk"
	"github.com/oath-harness/oath-harness/internal/settings"
)

// Classifier classifies tool calls under one configuration. It is safe for concurrent use.
type Classifier struct {
	*kernel.Env
	rules   []*userRule
	extract []*extractor
}

// New prepares a classifier. The user's filters are compiled here, once: a bad one is a
// settings error, and a call runs only the filters of the rules for its tool.
func New(s settings.Settings, l layout.Layout) (*Classifier, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	c := &Classifier{Env: &kernel.Env{Layout: l, Home: os.Getenv("HOME"), ContainerEnv: person.InheritedContainerEnv(os.LookupEnv)}}
	wire(c.Env)
	var install []string
	dirs, co := installDirs(c.Home)
	for _, d := range dirs {
		// Binaries run from the project root or the home directory itself (go run, a stray
		// copy) would make every write critical: only their own files are protected then.
		if kernel.Under(strings.ToLower(l.ProjectDir), strings.ToLower(d)) || d == c.Home || d == "/" {
			continue
		}
		install = append(install, d)
		if d == co {
			c.HarnessCode = append(c.HarnessCode, strings.ToLower(d))
		}
	}
	c.AuditDir = s.AuditDir(l.ProjectDir, l.Root)
	c.Prot = kernel.NewProtection(l, c.AuditDir, c.Home, install)
	c.Later = kernel.NewLaterPlaces(c.Home, l.ProjectDir)
	c.CodeMentions = append([]string{"oath-harness", "oath_home", "oath_bin", "oath_hooks_dir", "claude_project_dir", ".claude", "current-phase", "protected-files", "trust-scores"},
		command.Names(command.InCode)...) // the harness's programs and hooks
	for _, p := range append(append([]string{}, c.Prot.Trees...), c.Prot.Files...) {
		if p != "" && p != "/" {
			c.CodeMentions = append(c.CodeMentions, p)
		}
	}
	for i, r := range s.Classify.Rules {
		code, err := checkFilter(r.Filter)
		if err != nil {
			return nil, &settings.FieldError{Field: fmt.Sprintf("classify.rules[%d].filter", i), Value: fmt.Sprintf("%q", r.Filter), Rule: err.Error()}
		}
		c.rules = append(c.rules, newUserRule(r, code))
	}
	for i, x := range s.Classify.Extract {
		code, err := checkFilter(x.Filter)
		if err != nil {
			return nil, &settings.FieldError{Field: fmt.Sprintf("classify.extract[%d].filter", i), Value: fmt.Sprintf("%q", x.Filter), Rule: err.Error()}
		}
		c.extract = append(c.extract, newExtractor(x, code))
	}
	return c, nil
}

// installDirs are where the running binaries and their hooks live: a write there replaces
// the harness itself. co is the harness checkout that holds the running hooks, or "".
func installDirs(home string) (dirs []string, co string) {
	if exe, err := os.Executable(); err == nil {
		d := filepath.Dir(exe)
		dirs = append(dirs, d)
		parent := filepath.Dir(d)
		dirs = append(dirs, filepath.Join(parent, "hooks"), filepath.Join(parent, "bin"))
	}
	if b := os.Getenv("OATH_BIN"); b != "" && filepath.IsAbs(b) {
		dirs = append(dirs, filepath.Clean(b), filepath.Join(filepath.Dir(filepath.Clean(b)), "hooks"))
	}
	// hooks/lib.sh exports the real directory of the running hooks: with OATH_BIN set or the
	// binaries found on PATH, it is the only way to know where the hooks are.
	if h := os.Getenv("OATH_HOOKS_DIR"); h != "" && filepath.IsAbs(h) {
		dirs = append(dirs, filepath.Clean(h))
		// The whole checkout that holds them: its scripts rebuild bin/, its sources are the
		// judge (New drops it when it is the project or a parent of it).
		if co = kernel.Checkout(filepath.Clean(h), home); co != "" {
			dirs = append(dirs, co)
		}
	}
	return dirs, co
}

// Classify classifies one tool event. It never fails: what it cannot read is at least high.
func (c *Classifier) Classify(ev *claude.Event) envelope.Classification {
	cwd := ev.Cwd
	if cwd == "" || !filepath.IsAbs(cwd) {
		cwd = c.Layout.ProjectDir
	}
	cwd = filepath.Clean(cwd)
	r := &kernel.Result{}
	if a, b, ok := envelope.FoldedKeys(ev.ToolInput); ok {
		// Claude Code's tools read a key by its exact name; encoding/json, which decodes
		// tool_input here, takes any case and keeps the last. {"file_path": protected,
		// "FILE_PATH": harmless} would be judged on one file and written to the other.
		r.Add(risk.Critical, kernel.Global, kernel.RuleInputKeyVariant, ev.ToolName, "tool_input has the keys "+strconv.Quote(a)+" and "+
			strconv.Quote(b)+", which differ only in case: the tool may read the one the harness does not, so the call cannot be judged")
	}
	switch tool := ev.ToolName; {
	case tool == "":
		// Claude Code always names the tool: an event without one is malformed, and what
		// cannot be read cannot be judged.
		r.Add(risk.Critical, kernel.Global, kernel.RuleNoTool, "", "the event names no tool (tool_name missing, empty or null): it cannot be judged")
		c.inputTool(r, ev, cwd, "")
	case tool == claude.ToolBash:
		box(c.Env, r, ev) // confined.go
		bashTool(c.Env, r, ev, cwd)
	case tool == claude.ToolRead || tool == "NotebookRead" || tool == "LS":
		readTool(c.Env, r, ev, cwd)
	case tool == claude.ToolGlob || tool == claude.ToolGrep:
		searchTool(c.Env, r, ev, cwd)
	case tool == claude.ToolWrite || tool == claude.ToolEdit || tool == claude.ToolMultiEdit || tool == claude.ToolNotebookEdit:
		writeTool(c.Env, r, ev, cwd)
	case tool == claude.ToolWebFetch:
		webFetch(c.Env, r, ev)
	case tool == claude.ToolWebSearch:
		outbound.WebSearch(c.Env, r, ev)
	case strings.HasPrefix(tool, "mcp__"):
		r.Add(risk.Medium, kernel.MCP, kernel.RuleMCPTool, tool, "an MCP tool: medium unless a user rule says otherwise")
		c.inputTool(r, ev, cwd, kernel.MCP)
	case tool == "TodoWrite" || tool == "ExitPlanMode" || tool == "BashOutput":
		r.Add(risk.Low, kernel.Global, kernel.RuleHarmlessTool, tool, "changes nothing outside the session")
	case builtinTool(tool):
		r.Add(risk.Medium, kernel.Global, kernel.RuleUnknownTool, tool, "a tool without a built-in rule")
	case builtinTool(canonicalTool(tool)) || builtinFold(canonicalTool(tool)) != "":
		// Claude Code sends its tools' exact names: Write in another case or with spaces is
		// not the Write tool, and a hook that judged it as Write would be judging a guess.
		r.Add(risk.Critical, kernel.Global, kernel.RuleToolNameVariant, tool, "the tool name "+strconv.Quote(tool)+" is a variant of the built-in "+builtinFold(canonicalTool(tool))+": not a name Claude Code sends, so it cannot be judged")
		c.inputTool(r, ev, cwd, kernel.Global)
	default:
		r.Add(risk.Medium, kernel.Global, kernel.RuleUnknownTool, tool, "a tool without a built-in rule: its input is scanned like an MCP tool's")
		c.inputTool(r, ev, cwd, kernel.Global)
	}
	base := summary(r)
	c.applyUser(r, ev, cwd, &base)
	out := finish(r, base)
	for i := range out.Parts {
		if out.Parts[i].Dir == cwd {
			out.Parts[i].Dir = "" // the call's own directory says nothing new
		}
	}
	secretThenSend(c.Env, r, ev) // secretflow.go
	person.NeedsPerson(c.Env, r, ev, &out)
	boundary(c.Env, r, ev, &out) // confined.go
	return out
}

// summary is the built-in verdict: the riskiest part, its domain.
func summary(r *kernel.Result) kernel.Part {
	best := kernel.Part{Risk: risk.Low, Domain: ""}
	first := true
	for _, p := range r.Parts {
		if first || p.Risk.Value() > best.Risk.Value() ||
			p.Risk == best.Risk && p.Domain.Rank() > best.Domain.Rank() {
			best = p
			first = false
		}
	}
	if first {
		best = kernel.Part{Risk: risk.Medium, Domain: kernel.Global}
	}
	best.Domain = domainOf(r.Parts, best.Domain) // the purpose, not the setup (parts.go)
	return best
}

func finish(r *kernel.Result, p kernel.Part) envelope.Classification {
	out := envelope.Classification{
		Domain:    p.Domain,
		Risk:      p.Risk,
		RiskValue: p.Risk.Value(),
		Reasons:   make([]envelope.Reason, 0, len(r.Parts)),
		Commands:  r.Cmds,
		Paths:     envelope.Paths{Read: kernel.Dedupe(r.Reads), Write: kernel.Dedupe(r.Writes), WriteUnknown: writesUnknown(r.Parts)},
		Parts:     r.CmdParts,
	}
	// The riskiest reasons first, so that the first one says why.
	parts := append([]kernel.Part(nil), r.Parts...)
	sort.SliceStable(parts, func(i, j int) bool { return parts[i].Risk.Value() > parts[j].Risk.Value() })
	seen := map[envelope.Reason]bool{}
	for _, q := range parts {
		if !seen[q.Reason] {
			seen[q.Reason] = true
			out.Reasons = append(out.Reasons, q.Reason)
		}
	}
	if len(out.Reasons) == 0 {
		out.Reasons = append(out.Reasons, envelope.Reason{Rule: kernel.RuleDefault, Risk: p.Risk, Detail: "no rule matched: " + string(p.Risk)})
	}
	if out.Commands == nil {
		out.Commands = [][]string{}
	}
	return out
}

func readTool(c *kernel.Env, r *kernel.Result, ev *claude.Event, cwd string) {
	// One decode: file_path/notebook_path, or path when neither is given. A path that is not a
	// string is ignored rather than failing the input, as the other keys decide.
	var in struct {
		claude.FileInput
		Alt kernel.LooseString `json:"path"`
	}
	ok := kernel.Decode(ev.ToolInput, &in)
	p := in.FileInput.Path()
	if p == "" {
		p = string(in.Alt)
	}
	if !ok || p == "" {
		r.Add(risk.High, kernel.FileRead, kernel.RuleUnreadableInput, ev.ToolName, "tool_input names no file")
		return
	}
	abs := kernel.AbsPath(cwd, kernel.ExpandHome(p, c.Home))
	r.Reads = append(r.Reads, abs)
	if why := kernel.Credential(abs); why != "" {
		r.Add(risk.High, kernel.FileRead, kernel.RuleCredentialRead, abs, why)
		return
	}
	r.Add(risk.Low, kernel.FileRead, kernel.RuleReadOnly, ev.ToolName, abs)
}

func searchTool(c *kernel.Env, r *kernel.Result, ev *claude.Event, cwd string) {
	var in claude.SearchInput
	if !kernel.Decode(ev.ToolInput, &in) {
		r.Add(risk.High, kernel.FileRead, kernel.RuleUnreadableInput, ev.ToolName, "tool_input is not the expected object")
		return
	}
	p := cwd
	if in.Path != "" {
		p = kernel.AbsPath(cwd, kernel.ExpandHome(in.Path, c.Home))
	}
	r.Reads = append(r.Reads, p)
	if why := kernel.Credential(p); why != "" {
		r.Add(risk.High, kernel.FileRead, kernel.RuleCredentialRead, p, why)
		return
	}
	if ev.ToolName == claude.ToolGrep {
		// Grep reads every file under its path (matching its glob): a credential directory,
		// one holding the home directory's credentials, or a glob that may match one
		// (kernel/protect.go).
		var g struct {
			Glob string `json:"glob"`
		}
		kernel.Decode(ev.ToolInput, &g)
		why := kernel.CredentialTree(p, c.Home)
		if why == "" && g.Glob != "" {
			why = kernel.CredentialGlob(strings.TrimSuffix(p, "/") + "/" + g.Glob)
		}
		if why != "" {
			r.Add(risk.High, kernel.FileRead, kernel.RuleCredentialRead, p, why)
			return
		}
		if g.Glob == "" { // a glob narrows what rg reads: left to credentialGlob
			var m struct {
				Mode kernel.LooseString `json:"output_mode"`
				Fold json.RawMessage    `json:"-i"`
			}
			kernel.Decode(ev.ToolInput, &m)
			grepSearch(c, r, p, in.Pattern, string(m.Mode), string(m.Fold) == "true") // credsearch.go
			for _, q := range r.Parts {
				if q.Reason.Rule == kernel.RuleCredentialRead {
					return
				}
			}
		}
	}
	if ev.ToolName == claude.ToolGlob {
		if why := kernel.Credential(in.Pattern); why != "" {
			r.Add(risk.High, kernel.FileRead, kernel.RuleCredentialRead, in.Pattern, why)
			return
		}
	}
	r.Add(risk.Low, kernel.FileRead, kernel.RuleReadOnly, ev.ToolName, p)
}

func writeTool(c *kernel.Env, r *kernel.Result, ev *claude.Event, cwd string) {
	var in runfiles.PlantedInput // claude.FileInput and NotebookEdit's source, decoded once (runfiles/planted.go)
	if !runfiles.DecodeWrite(ev.ToolInput, &in) || in.Path() == "" {
		// Fail closed: a write whose target cannot be read could be to a protected file.
		r.Add(risk.Critical, kernel.FileWrite, kernel.RuleUnreadableInput, ev.ToolName, "tool_input names no file: the write cannot be judged")
		return
	}
	abs := kernel.AbsPath(cwd, kernel.ExpandHome(in.Path(), c.Home))
	r.Writes = append(r.Writes, abs)
	domain := kernel.FileWrite
	if underDocs(abs, c.Layout.ProjectDir) {
		domain = kernel.DocsWrite
	}
	c.JudgeWrite(r, kernel.Target{Path: abs, Known: true}, domain, ev.ToolName+" "+abs)
	c.OutsideWrite(r, ev.ToolName, abs, r.Resolver().Resolve(abs)) // kernel/filetools.go
	runfiles.Planted(c, r, ev, &in, abs, domain)                   // runfiles/planted.go: code put where a runner will find it
	harnessEnvWrite(c, r, func() string { return in.Content + "\n" + in.NewString + "\n" + string(in.Edits) }, []string{abs}, domain)
	r.Add(risk.Medium, domain, kernel.RuleFileWrite, ev.ToolName, abs)
}

// underDocs: a docs/ directory anywhere in the path (the seed's "path contains docs/"),
// counted within the project when the file is in it.
func underDocs(abs, project string) bool {
	rel := abs
	if r, err := filepath.Rel(project, abs); err == nil && !strings.HasPrefix(r, "..") {
		rel = r
	}
	for _, part := range strings.Split(filepath.Dir(rel), string(filepath.Separator)) {
		if part == "docs" {
			return true
		}
	}
	return false
}

func webFetch(c *kernel.Env, r *kernel.Result, ev *claude.Event) {
	var in claude.WebFetchInput
	if !kernel.Decode(ev.ToolInput, &in) || in.URL == "" {
		r.Add(risk.High, kernel.Web, kernel.RuleUnreadableInput, ev.ToolName, "tool_input names no url")
		return
	}
	if why := git.TradeURL(in.URL); why != "" {
		r.Add(risk.Critical, kernel.Web, kernel.RuleTradeURL, in.URL, why)
	}
	if why := git.MetadataURL(in.URL); why != "" {
		r.Add(risk.Critical, kernel.Web, kernel.RuleMetadataURL, in.URL, why)
	}
	if u, err := url.Parse(strings.TrimSpace(in.URL)); err != nil || u.Scheme != "" && !strings.EqualFold(u.Scheme, "http") && !strings.EqualFold(u.Scheme, "https") {
		r.Add(risk.Critical, kernel.Web, kernel.RuleWebScheme, in.URL, "WebFetch of a URL that is not http(s) (file://, a bad URL): it could read local files or reach what a web page should not")
	}
	if why := git.SecretInURL(in.URL); why != "" {
		r.Add(risk.Critical, kernel.Web, kernel.RuleSecretInURL, in.URL, why)
	}
	outbound.WebSent(r, in.URL)
	r.Add(risk.Medium, kernel.Web, kernel.RuleWebFetch, in.URL, "fetches a page")
}

// builtinTools are Claude Code's own tools (an array: nothing to build at start-up).
var builtinTools = [...]string{"Bash", "Read", "Write", "Edit", "MultiEdit", "NotebookEdit", "NotebookRead", "LS", "Glob", "Grep",
	"WebFetch", "WebSearch", "TodoWrite", "ExitPlanMode", "BashOutput", "KillShell", "KillBash", "Task", "SlashCommand",
	"ListMcpResourcesTool", "ReadMcpResourceTool"}

// builtinTool reports whether name is one of builtinTools, exactly.
func builtinTool(name string) bool {
	for _, n := range builtinTools {
		if n == name {
			return true
		}
	}
	return false
}

// builtinFold returns the built-in tool whose lower-case name is lower, or "".
func builtinFold(lower string) string {
	for _, n := range builtinTools {
		if strings.ToLower(n) == lower {
			return n
		}
	}
	return ""
}

// mcpCode: an MCP tool's argument of this (lower-case) name holds a command line to run.
func mcpCode(key string) bool {
	switch key {
	case "command", "cmd", "script", "shell", "commandline", "command_line", "bash":
		return true
	}
	return false
}

// canonicalTool folds a tool name for comparison with the built-ins: lower case, without
// spaces, tabs, underscores or dashes around or inside it.
func canonicalTool(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\t', '\n', '\r', '_', '-', '\u00a0', '\u200b', '\ufeff':
			return -1
		}
		return unicode.ToLower(r)
	}, s)
}

// Words in a tool's name that say it changes files, or runs commands.
var (
	mcpWrites = []string{"write", "edit", "create", "move", "rename", "delete", "remove", "put", "save", "upload", "patch", "append", "update", "set", "mkdir", "copy", "replace", "insert", "truncate", "chmod", "apply", "modify", "overwrite", "unlink", "rm"}
	mcpRuns   = []string{"run", "exec", "shell", "command", "terminal", "bash", "eval", "script", "spawn"}
	// mcpArgv are keys whose list of strings is a command's argv ({"args":["rm","-rf","/"]}).
	mcpArgv = map[string]bool{"args": true, "argv": true, "cmd": true, "command": true, "arguments": true}
	// mcpPathKeys are keys whose string names a file the tool works on.
	mcpPathKeys = []string{"path", "file", "dir", "dest", "target", "source", "src", "from", "to", "folder", "location", "output"}
)

// inputTool looks into the free-form input of an MCP tool, an unknown tool or a malformed
// event (domain "" = the event's). We cannot know what such a tool does, so:
//   - a string that names a protected path is critical whatever the tool's name;
//   - when the name says it writes (write, edit, move …), every path in the input is a
//     write, judged like the Write tool's and reported in paths.write (oath-gate's playbook
//     gate and self-escalation rule read it);
//   - a command field (command, cmd, script …), or a list of strings under args/argv/cmd, is
//     analysed as a shell program: fully when the name says it runs commands, else only a
//     critical verdict is taken over (a field named command may be anything).
func (c *Classifier) inputTool(r *kernel.Result, ev *claude.Event, cwd string, domain domain.Domain) {
	var v any
	if !kernel.Decode(ev.ToolInput, &v) {
		return
	}
	outbound.ToolSent(r, ev.ToolName, domain, v)
	tool := ev.ToolName
	if domain == "" {
		domain = kernel.Global
	}
	name := strings.ToLower(tool)
	if i := strings.LastIndex(name, "__"); i >= 0 {
		name = name[i+2:]
	}
	writes, runs := containsWord(name, mcpWrites), kernel.ContainsAny(name, mcpRuns)
	if !strings.HasPrefix(tool, "mcp__") && canonicalTool(tool) != "" {
		// An unknown tool: its name is not a promise either way, but a name that says it
		// writes still makes its paths writes.
		writes = writes || containsWord(canonicalTool(tool), mcpWrites)
	}
	extracted := false
	for _, x := range c.extract {
		if toolMatches(x.Tool, tool) {
			extracted = true // the user says what to take out of this tool's input and how to judge it
		}
	}
	shown := tool
	if shown == "" {
		shown = "the event"
	}
	runProg := func(prog string) {
		if extracted || strings.TrimSpace(prog) == "" || r.Depth >= 2 {
			return
		}
		if runs {
			r.Depth++
			program(c.Env, r, prog, cwd)
			r.Depth--
			return
		}
		for _, p := range c.Verdicts(r, prog, kernel.LangShell, cwd, kernel.Sink{NoPerson: true}).Parts {
			if p.Risk == risk.Critical {
				r.AddUnknown(risk.Critical, domain, p.Reason.Rule, shown, shown+" is given the command "+kernel.QuoteRaw(prog)+", which it may run: "+p.Reason.Detail, p.Carried())
				return
			}
		}
	}
	budget := 256
	var walk func(key string, v any, depth int)
	walk = func(key string, v any, depth int) {
		if budget <= 0 || depth > 8 {
			return
		}
		budget--
		lk := strings.ToLower(key)
		switch v := v.(type) {
		case map[string]any:
			// {"command":"rm","args":["-rf","/"]}: the command and its arguments together.
			var head string
			var tail []any
			for k, e := range v {
				s, ok := e.(string)
				switch lk := strings.ToLower(k); {
				case ok && mcpCode(lk):
					head = s
				case mcpArgv[lk] && lk != "command" && lk != "cmd":
					tail, _ = e.([]any)
				}
			}
			if head != "" && len(tail) > 0 {
				if argv, ok := stringList(c.Env, tail); ok && !strings.ContainsAny(head, " ;|&") {
					runProg(shell.QuoteWords(append([]shell.Word{{Value: head, Known: true}}, argv...)))
				}
			}
			for k, e := range v {
				walk(k, e, depth+1)
			}
		case []any:
			if mcpArgv[lk] {
				if argv, ok := stringList(c.Env, v); ok && len(argv) > 0 {
					runProg(shell.QuoteWords(argv))
				}
			}
			for _, e := range v {
				walk(key, e, depth+1)
			}
		case string:
			if mcpCode(lk) {
				runProg(v)
			}
			pathKey := kernel.ContainsAny(lk, mcpPathKeys)
			if p, ok := fileURI(v); ok { // file:///proj/.claude/settings.json names a file
				v, pathKey = p, true
			}
			if len(v) > 4096 || v == "" || strings.ContainsAny(v, "\n") || strings.Contains(v, "://") ||
				!pathKey && (strings.Contains(v, " ") || !strings.Contains(v, "/") && !strings.HasPrefix(v, ".")) {
				return
			}
			t := kernel.Target{Path: kernel.AbsPath(cwd, kernel.ExpandHome(v, c.Home)), Known: true, Tree: kernel.ContainsAny(name, []string{"delete", "remove", "move", "rename"})}
			if hit := c.Prot.Hit(t); hit != "" {
				r.Writes = append(r.Writes, t.Path)
				r.Add(risk.Critical, domain, kernel.RuleSelfProtection, shown, shown+" is given "+t.Path+" ("+hit+"): what the tool does with it cannot be known, and it may change it")
				return
			}
			if writes && (pathKey || filepath.IsAbs(v) || strings.HasPrefix(v, "~/")) {
				r.Writes = append(r.Writes, t.Path)
				c.JudgeWrite(r, t, domain, shown+" "+t.Path)
			} else if why := kernel.Credential(t.Path); why != "" && (pathKey || filepath.IsAbs(v) || strings.HasPrefix(v, "~/")) {
				// mcp__fs__read_file {"path": "~/.ssh/id_rsa"}: what the Read tool would ask
				r.Reads = append(r.Reads, t.Path)
				r.Add(risk.High, kernel.FileRead, kernel.RuleCredentialRead, shown, shown+" is given "+t.Path+": "+why)
			}
		}
	}
	walk("", v, 0)
}

// fileURI is the path a file: URI names (file:///p, escapes decoded). A host part is not
// trusted to make it remote: a tool may well ignore it and open the path here.
func fileURI(v string) (string, bool) {
	if len(v) < 7 || !strings.EqualFold(v[:7], "file://") {
		return "", false
	}
	u, err := url.Parse(v)
	if err != nil || u.Path == "" {
		return "", false
	}
	return u.Path, true
}

// containsWord reports whether name says one of ks: a key of four letters or more anywhere
// in it (writeFile, file_write), a shorter one (set, put, rm) only as a whole word (not the
// "set" of "settings").
func containsWord(name string, ks []string) bool {
	name = strings.ToLower(name)
	words := strings.FieldsFunc(name, func(r rune) bool { return r == '_' || r == '-' || r == '.' || r == ' ' })
	for _, k := range ks {
		if len(k) >= 4 {
			if strings.Contains(name, k) {
				return true
			}
			continue
		}
		if slices.Contains(words, k) {
			return true
		}
	}
	return false
}

// stringList returns a JSON list of strings as known words (~ expanded), or false.
func stringList(c *kernel.Env, v []any) ([]shell.Word, bool) {
	out := make([]shell.Word, 0, len(v))
	for _, e := range v {
		s, ok := e.(string)
		if !ok {
			return nil, false
		}
		s = kernel.ExpandHome(s, c.Home) // a tool may run it through a shell: ~ is the home directory
		out = append(out, shell.Word{Value: s, Known: true})
	}
	return out, true
}
