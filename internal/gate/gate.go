// Package gate decides whether the Core Contract (seed 000) forbids a tool call: HARD_BLOCK of
// protected files, the playbook gate with its admin maintenance whitelist, and fail-closed.
//
// The rules are pure: Judge is given the call (the event and oath-classify's findings) and an Env
// holding the settings switch, the protected list, the parsed state.md and a Git reader, and
// returns a verdict. Reading those files and running git is the caller's job (oath-gate), so
// the rules can be tested with a fake Git and a State written in a table.
//
// Order of the rules, each of which can only block:
//  1. only PreToolUse and PreSkillShellCommand (a skill's shell command, judged like Bash) are
//     judged (any other event: allow, rule not_a_tool_call);
//  2. settings must be readable and oath-classify must have run (fail-closed);
//  3. HARD_BLOCK: no write, by any route, to a protected path, whatever the mode;
//  4. with gate.playbook_gate on, no write may leave state.md at security: admin when it is not
//     admin now (the agent never raises its own mode; see RuleSelfEscalation);
//  5. with gate.playbook_gate on and playbook.active null: only reads, changes of the exceptions
//     (state.md, plan/playbook-*.md, plan/archive/**) and, with security: admin, the maintenance
//     whitelist pass.
//
// What counts as a change: every path in oath.classify's paths.write (and a file tool's
// tool_input path), and, for Bash, every part (simple command) of oath.classify.parts that is
// not read_only. The gate reads nothing else of a Bash call: not tool_input.command, and it
// parses no command line: which arguments a command writes is known in one place, the rules
// of oath-classify that judge those writes. A part's writes are resolved where it runs (DIR/**
// for a whole tree); a part whose writes oath-classify could not all name (writes_unknown) is
// a change the gate cannot place, and HARD_BLOCK checks each of its arguments instead.
// Fail-closed: a Bash call with no parts, a write whose target cannot be known
// (paths.write_unknown) and a part whose directory cannot be known are changes to the project
// that only an active playbook lets through. A non-Bash tool with no write path (Read, Grep,
// WebFetch, an MCP tool oath-classify found no write for) changes nothing.
//
// A field of state.md is read only by the calls whose verdict depends on it: reads and writes of
// the exceptions pass even when state.md is missing (that is how it is recreated); every other
// change is blocked with a reason naming what could not be read. HARD_BLOCK needs no state.
package gate

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/nameglob"
)

// Rules: the stable values of oath.gate.rule.
const (
	RuleNotAToolCall       = "not_a_tool_call"           // allow: only PreToolUse is judged
	RuleSettingsUnreadable = "settings_unreadable"       // block: config/settings.json is invalid
	RuleEventUnreadable    = "event_unreadable"          // block: the host's event cannot be decoded
	RuleClassifyMissing    = "classify_missing"          // block: oath.classify absent or unreadable
	RuleNoTarget           = "no_target"                 // block: a file tool without a file path
	RuleProtectedList      = "protected_list_unreadable" // block: protected-files.txt unreadable
	RuleHardBlock          = "hard_block"                // block: a protected path would change
	RuleStateUnreadable    = "state_unreadable"          // block: state.md could not be read
	RulePlaybookGate       = "playbook_gate"             // block: a change with no active playbook
	RuleAdminWhitelist     = "admin_whitelist"           // block: admin git op outside the whitelist
	RuleGitUnreadable      = "git_unreadable"            // block: git could not answer
	RuleGateOff            = "playbook_gate_off"         // allow: nothing protected, gate off
	RulePlaybookActive     = "playbook_active"           // allow: a playbook is active
	RuleReadOnly           = "read_only"                 // allow: the call changes nothing
	RuleException          = "playbook_exception"        // allow: only the exceptions change
	RuleMaintenance        = "admin_maintenance"         // allow: admin maintenance whitelist
)

// Call is one tool call as the gate sees it.
type Call struct {
	Event    string // hook_event_name; "" is judged like PreToolUse (stricter, never looser)
	Tool     string // tool_name
	Cwd      string // the event's cwd; "" means the project directory
	ToolPath string // tool_input.file_path or notebook_path of a file tool, as given

	EventErr error // the event's fields could not be decoded

	StateWrite *StateWrite // what a Write/Edit/MultiEdit would put in state.md, if it targets it

	Classify    *envelope.Classification // oath.classify; nil when oath-classify did not run
	ClassifyErr error                    // oath.classify present but unreadable
}

// Env is everything outside the call that a verdict may depend on.
type Env struct {
	ProjectDir   string
	SettingsErr  error // settings could not be loaded: every call is blocked
	PlaybookGate bool  // settings gate.playbook_gate
	Protected    *Protected
	ProtectedErr error  // the protected-files list could not be read
	State        State  // read only when PlaybookGate is on
	StateText    []byte // state.md as read (nil when missing), to judge an Edit of it
	Git          Git
	// Resolve returns a path with its symbolic links resolved (as far as the path exists), so a
	// link cannot be used to reach a protected file. nil: paths are taken as they are.
	Resolve func(string) string
	// Names lists the files on disk that the pattern DIR/**/NAME names (package nameglob),
	// without looking inside a matched directory when tree is set: find . -name '*.pyc'
	// -delete changes those files, not the project. nil, or an error, and the write reaches
	// the whole of DIR, as every write did before names narrowed it.
	Names func(dir, name string, tree bool) ([]string, error)
	// resolvedProject is Resolve(ProjectDir), computed once per judgement (Judge, Check) rather
	// than for every path of every command.
	resolvedProject string
}

// withResolvedProject returns env with the project directory's links resolved once.
func (env Env) withResolvedProject() Env {
	if env.Resolve != nil && env.resolvedProject == "" {
		env.resolvedProject = env.Resolve(env.ProjectDir)
	}
	return env
}

func allow(rule, format string, a ...any) envelope.GateVerdict {
	return envelope.GateVerdict{Verdict: envelope.VerdictAllow, Rule: rule, Reason: fmt.Sprintf(format, a...)}
}

func block(rule, format string, a ...any) envelope.GateVerdict {
	return envelope.GateVerdict{Verdict: envelope.VerdictBlock, Rule: rule, Reason: fmt.Sprintf(format, a...)}
}

// fileTools name their target in tool_input as well as in oath.classify.
var fileTools = map[string]bool{
	claude.ToolWrite: true, claude.ToolEdit: true, claude.ToolMultiEdit: true, claude.ToolNotebookEdit: true,
}

// IsFileTool reports whether the tool writes the file named in tool_input.file_path/notebook_path.
func IsFileTool(tool string) bool { return fileTools[tool] }

// place is one spelling of a written path: absolute, and relative to the project directory
// ("." for the directory itself, "" when outside it).
type place struct{ abs, rel string }

// target is a written path with every spelling under which it can be reached.
type target struct {
	shown  string // as reported, for reasons
	places []place
	tree   bool // the write reaches everything below the path, so a directory above a protected path counts
}

// Judge returns the gate's verdict on a call.
func Judge(c Call, env Env) envelope.GateVerdict {
	if c.EventErr != nil {
		return block(RuleEventUnreadable, "the event cannot be read (%v), so the gate cannot tell what the call does", c.EventErr)
	}
	if !claude.IsPreCall(c.Event) {
		return allow(RuleNotAToolCall, "the gate judges PreToolUse calls only; %s passes", c.Event)
	}
	if env.SettingsErr != nil {
		return block(RuleSettingsUnreadable, "the gate cannot read its settings (%v); fix the settings file", env.SettingsErr)
	}
	if c.ClassifyErr != nil {
		return block(RuleClassifyMissing, "oath.classify cannot be read (%v); oath-classify must run before oath-gate", c.ClassifyErr)
	}
	if c.Classify == nil {
		return block(RuleClassifyMissing, "oath.classify is missing: oath-classify must run before oath-gate")
	}
	env = env.withResolvedProject()
	cwd := c.Cwd
	if cwd == "" {
		cwd = env.ProjectDir
	} else if !filepath.IsAbs(cwd) {
		cwd = filepath.Join(env.ProjectDir, cwd)
	}
	isBash := c.Tool == claude.ToolBash
	if fileTools[c.Tool] && strings.TrimSpace(c.ToolPath) == "" {
		return block(RuleNoTarget, "%s names no file in tool_input; the gate cannot tell what it would change", c.Tool)
	}

	cl := c.Classify
	targets := env.targets(cwd, c)
	// The changing parts: a Bash call with no parts is one the gate cannot see into.
	var others []envelope.Part
	for _, p := range cl.Parts {
		if !p.ReadOnly {
			others = append(others, p)
		}
	}
	unparsed := isBash && len(cl.Parts) == 0
	changing := len(targets) > 0 || len(others) > 0 || unparsed || cl.Paths.WriteUnknown

	// HARD_BLOCK: whatever the mode.
	if changing {
		if v, blocked := env.hardBlock(cwd, targets, others); blocked {
			return v
		}
	}
	if !env.PlaybookGate {
		return allow(RuleGateOff, "no protected path is written; the playbook gate is off (gate.playbook_gate)")
	}
	if !changing {
		return allow(RuleReadOnly, "the call changes nothing")
	}
	if blocked, why := env.selfEscalation(c, targets, others, cwd); blocked {
		return block(RuleSelfEscalation, "%s", why)
	}

	// Writes of the exceptions pass without the state: that is how a missing state.md is recreated.
	var semantic []target
	for _, t := range targets {
		if env.changesProject(t) && !exception(t) {
			semantic = append(semantic, t)
		}
	}
	if len(semantic) == 0 && len(others) == 0 && !unparsed && !cl.Paths.WriteUnknown {
		return allow(RuleException, "the call changes only %s or files outside the project, which pass the playbook gate", exceptionList)
	}

	st := env.State
	if st.ActiveErr != nil {
		return block(RuleStateUnreadable, "playbook.active cannot be read (%v); fix state.md (## playbook / active: PATH|null)", st.ActiveErr)
	}
	if !st.Null() {
		return allow(RulePlaybookActive, "playbook %s is active", st.Active)
	}
	const noPlaybook = "no playbook is active (state.md playbook.active: null)"
	if unparsed {
		return block(RulePlaybookGate, "%s and oath-classify found no command in the Bash call, so the gate cannot tell that it changes nothing", noPlaybook)
	}
	// The maintenance whitelist only ever opens paths that are exceptions anyway, so a semantic
	// write is blocked before security is even read.
	if len(semantic) > 0 {
		t := semantic[0]
		return block(RulePlaybookGate, "%s: %s is %s; write plan/playbook-NAME.md and set playbook.active to it first", noPlaybook, t.shown, category(t))
	}
	return env.maintenance(cwd, others, cl.Paths.WriteUnknown, noPlaybook)
}

// maxNames bounds the files one pattern DIR/**/NAME is checked as (Env.Names); past it, the
// write reaches the whole of DIR.
const maxNames = 4096

const exceptionList = "state.md, plan/playbook-*.md and plan/archive/**"

// exceptions pass the playbook gate in every mode; they are also seed 000's maintenance whitelist.
var exceptions = []pattern{
	mustCompile("state.md", false),
	mustCompile("plan/playbook-*.md", false),
	mustCompile("plan/archive/**", false),
}

// isException reports whether rel (relative to the project) is one of the exceptions.
func isException(rel string) bool {
	if rel == "" || rel == "." {
		return false
	}
	for _, p := range exceptions {
		if p.matches(rel) {
			return true
		}
	}
	return false
}

// exception reports whether every spelling of t inside the project is an exception.
func exception(t target) bool {
	inside := false
	for _, p := range t.places {
		if p.rel == "" {
			continue
		}
		inside = true
		if !isException(p.rel) {
			return false
		}
	}
	return inside
}

// changesProject reports whether t lies in the project under any of its spellings. Writes
// elsewhere (a temporary file) are not the project's semantic changes.
func (env Env) changesProject(t target) bool {
	for _, p := range t.places {
		if p.rel != "" {
			return true
		}
	}
	return false
}

// target resolves a written path against cwd and lists its spellings.
func (env Env) target(cwd, w string) target {
	abs := w
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(cwd, abs)
	}
	abs = filepath.Clean(abs)
	t := target{shown: env.show(abs)}
	t.places = append(t.places, place{abs, rel(env.ProjectDir, abs)})
	if env.Resolve != nil {
		proj := env.resolvedProject
		if proj == "" {
			proj = env.Resolve(env.ProjectDir)
		}
		if r := env.Resolve(abs); r != abs {
			t.places = append(t.places, place{r, rel(env.ProjectDir, r)})
			if proj != env.ProjectDir {
				t.places = append(t.places, place{r, rel(proj, r)})
			}
		}
	}
	return t
}

// show prints a path relative to the project when it lies inside.
func (env Env) show(abs string) string {
	if r := rel(env.ProjectDir, abs); r != "" && r != "." {
		return r
	}
	return abs
}

// rel returns p relative to dir in slash form, "." for dir itself and "" when p is outside.
func rel(dir, p string) string {
	r, err := filepath.Rel(dir, p)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return ""
	}
	return filepath.ToSlash(r)
}

// targets are the paths the call writes: a file tool's target, oath.classify's paths.write and
// each part's writes. A write reaches everything below it (tree) when a part says so (DIR/**)
// or when no part names it (a redirection, a file tool: judged as before, the cautious way);
// a part's plain write (cp x . writes into ., not over it) reaches the path and what is below
// a protected path, not the directories above one.
func (env Env) targets(cwd string, c Call) []target {
	var out []target
	add := func(w string, tree bool) {
		if w == "" {
			return
		}
		if d, ok := strings.CutSuffix(w, "/**"); ok {
			w, tree = d, true
			if w == "" {
				w = "/"
			}
		}
		if dir, name, ok := nameglob.Split(w); ok {
			if !filepath.IsAbs(dir) {
				dir = filepath.Join(cwd, dir)
			}
			if env.Names != nil {
				if ms, err := env.Names(dir, name, tree); err == nil && len(ms) <= maxNames {
					for _, m := range ms {
						t := env.target(cwd, m)
						t.tree = tree
						out = append(out, t)
					}
					return
				}
			}
			w, tree = dir, true
		}
		t := env.target(cwd, w)
		t.tree = tree
		out = append(out, t)
	}
	if fileTools[c.Tool] {
		add(c.ToolPath, true)
	}
	plain := map[string]bool{}
	for _, p := range c.Classify.Parts {
		for _, w := range p.Writes {
			add(w, false)
			plain[w] = true
		}
	}
	for _, w := range c.Classify.Paths.Write {
		if !plain[w] {
			add(w, true)
		}
	}
	return out
}

// hardBlock checks every written path, and the arguments of a part whose writes are unknown
// (python3 tool.py CLAUDE.md may write what it is given), resolved where the part runs.
func (env Env) hardBlock(cwd string, targets []target, changing []envelope.Part) (envelope.GateVerdict, bool) {
	if env.ProtectedErr != nil {
		return block(RuleProtectedList, "the protected-files list cannot be read (%v), so no change can be checked against it; fix the list", env.ProtectedErr), true
	}
	prot := env.Protected
	if prot == nil {
		prot = DefaultProtected()
	}
	check := func(t target, how string) (envelope.GateVerdict, bool) {
		for _, p := range t.places {
			if e, ok := prot.match(p.rel, p.abs, t.tree); ok {
				return block(RuleHardBlock, "%s %s, protected by %q (%s); HARD_BLOCK holds in every mode, admin included: only a person can change it, outside the agent", how, t.shown, e.Pattern, e.Source), true
			}
		}
		return envelope.GateVerdict{}, false
	}
	for _, t := range targets {
		if v, ok := check(t, "the call writes"); ok {
			return v, true
		}
	}
	for _, p := range changing {
		for _, t := range env.named(cwd, p) {
			if v, ok := check(t, partName(p)+" names"); ok {
				return v, true
			}
		}
	}
	return envelope.GateVerdict{}, false
}

// named are the paths a part whose writes are unknown may write: each of its arguments,
// resolved where it runs (a write to the path itself and below, not to the directories above:
// go test . does not write the whole project). A part whose writes are known names none.
func (env Env) named(cwd string, p envelope.Part) []target {
	if !p.WritesUnknown || len(p.Argv) == 0 {
		return nil
	}
	var out []target
	dir := partDir(cwd, p)
	for _, a := range p.Argv[1:] {
		for _, n := range argPaths(a) {
			out = append(out, env.target(dir, n))
		}
	}
	return out
}

// argPaths are the paths one argument of a program may name: the word itself, and the value of
// --opt=VALUE or key=VALUE (dd of=F). Nothing is known of the program: its writes are unknown.
func argPaths(a string) []string {
	var out []string
	if a != "" && !strings.HasPrefix(a, "-") {
		out = append(out, a)
	}
	if k, v, ok := strings.Cut(a, "="); ok && v != "" && !strings.HasPrefix(v, "-") && optionKey(k) {
		out = append(out, v)
	}
	return out
}

// optionKey reports whether k, before an argument's first =, names an option or a key (of,
// --output, -Dout.file): a URL's query (http://h/p?q=*) is not one, and what follows its = is
// a part of the URL, which bash globs only as a whole (checked as the word itself).
func optionKey(k string) bool {
	if k == "" {
		return false
	}
	for _, c := range k {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-_.", c)) {
			return false
		}
	}
	return true
}

// partName is a part's program without its directory ("/bin/rm" is rm).
func partName(p envelope.Part) string {
	if len(p.Argv) == 0 {
		return "a command"
	}
	return filepath.Base(p.Argv[0])
}

// partDir is where a part runs: its own directory, or the call's.
func partDir(cwd string, p envelope.Part) string {
	if p.Dir != "" {
		return p.Dir
	}
	return cwd
}

func joinDir(cwd, d string) string {
	if filepath.IsAbs(d) {
		return filepath.Clean(d)
	}
	return filepath.Join(cwd, d)
}

// category names what kind of semantic change a path is, after seed 000's table.
func category(t target) string {
	r := ""
	for _, p := range t.places {
		if p.rel != "" {
			r = p.rel
			break
		}
	}
	base := strings.ToLower(filepath.Base(r))
	ext := strings.ToLower(filepath.Ext(base))
	switch {
	case r == ".":
		return "the project directory itself"
	case strings.HasPrefix(r, ".claude/hooks/"):
		return "a hook (seed 000: .claude/hooks/*.sh)"
	case strings.HasPrefix(r, ".claude/settings") && ext == ".json":
		return "a settings file (seed 000: .claude/settings.json)"
	case strings.Contains(base, ".config."):
		return "a settings file (seed 000: *.config.*)"
	case strings.HasPrefix(r, "docs/") && ext == ".md":
		return "a spec (seed 000: docs/*.md)"
	case codeExt[ext]:
		return fmt.Sprintf("code (seed 000: *%s)", ext)
	}
	return "a change to the project (only the exceptions change without a playbook)"
}

var codeExt = map[string]bool{
	".ts": true, ".tsx": true, ".js": true, ".jsx": true, ".mjs": true, ".cjs": true, ".py": true,
	".go": true, ".rs": true, ".java": true, ".kt": true, ".rb": true, ".php": true, ".c": true,
	".h": true, ".cc": true, ".cpp": true, ".hpp": true, ".cs": true, ".swift": true, ".sh": true,
	".bash": true, ".zsh": true, ".sql": true, ".scala": true, ".lua": true, ".pl": true,
	".vue": true, ".svelte": true,
}
