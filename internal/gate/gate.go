// Package gate decides whether the Core Contract (seed 000) forbids a tool call: HARD_BLOCK of
// protected files, the playbook gate with its admin maintenance whitelist, and fail-closed.
//
// The rules are pure: Judge is given the call (the event and oath-classify's findings) and an Env
// holding the settings switch, the protected list, the parsed state.md and a Git reader, and
// returns a verdict. Reading those files and running git is the caller's job (oath-gate), so
// the rules can be tested with a fake Git and a State written in a table.
//
// Order of the rules, each of which can only block:
//  1. only PreToolUse is judged (any other event: allow, rule not_a_tool_call);
//  2. settings must be readable and oath-classify must have run (fail-closed);
//  3. HARD_BLOCK: no write, by any route, to a protected path, whatever the mode;
//  4. with gate.playbook_gate on, no write may leave state.md at security: admin when it is not
//     admin now (the agent never raises its own mode; see RuleSelfEscalation);
//  5. with gate.playbook_gate on and playbook.active null: only reads, changes of the exceptions
//     (state.md, plan/playbook-*.md, plan/archive/**) and, with security: admin, the maintenance
//     whitelist pass.
//
// What counts as a change: every path in oath.classify's paths.write (and a file tool's
// tool_input path), and, for Bash, every command that readonly.ReadOnly does not know to change
// nothing by itself (oath-classify's own, option-aware knowledge: tree -o, rg --pre, git -c …, so
// the two stages cannot disagree; whatever it writes through a redirection is in paths.write).
// A non-Bash tool with no write path (Read, Grep, WebFetch, an MCP tool
// oath-classify found no write for) changes nothing. Should oath-classify miss a write route,
// HARD_BLOCK also checks every argument of a changing command, and DEST/base(SOURCE) of cp, mv, ln.
//
// A field of state.md is read only by the calls whose verdict depends on it: reads and writes of
// the exceptions pass even when state.md is missing (that is how it is recreated); every other
// change is blocked with a reason naming what could not be read. HARD_BLOCK needs no state.
package gate

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/readonly"
	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/envelope"
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
	Command  string // tool_input.command of Bash, as given

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
}

// Judge returns the gate's verdict on a call.
func Judge(c Call, env Env) envelope.GateVerdict {
	if c.EventErr != nil {
		return block(RuleEventUnreadable, "the event cannot be read (%v), so the gate cannot tell what the call does", c.EventErr)
	}
	if c.Event != "" && c.Event != claude.PreToolUse {
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

	var writes []string
	writes = append(writes, c.Classify.Paths.Write...)
	if fileTools[c.Tool] {
		writes = append(writes, c.ToolPath)
	}
	targets := make([]target, 0, len(writes))
	for _, w := range writes {
		if w == "" {
			continue
		}
		targets = append(targets, env.target(cwd, w))
	}
	cmds := c.Classify.Commands
	changing := len(targets) > 0
	for _, argv := range cmds {
		if !readonly.ReadOnly(argv) {
			changing = true
		}
	}
	unparsed := isBash && len(cmds) == 0 && strings.TrimSpace(c.Command) != ""
	if unparsed {
		changing = true
	}

	// HARD_BLOCK: whatever the mode.
	if changing {
		if v, blocked := env.hardBlock(cwd, targets, cmds); blocked {
			return v
		}
	}
	if !env.PlaybookGate {
		return allow(RuleGateOff, "no protected path is written; the playbook gate is off (gate.playbook_gate)")
	}
	if !changing {
		return allow(RuleReadOnly, "the call changes nothing")
	}
	if blocked, why := env.selfEscalation(c, targets); blocked {
		return block(RuleSelfEscalation, "%s", why)
	}

	// Writes of the exceptions pass without the state: that is how a missing state.md is recreated.
	var semantic []target
	for _, t := range targets {
		if env.changesProject(t) && !exception(t) {
			semantic = append(semantic, t)
		}
	}
	var others [][]string
	for _, argv := range cmds {
		if !readonly.ReadOnly(argv) {
			others = append(others, argv)
		}
	}
	if len(semantic) == 0 && len(others) == 0 && !unparsed {
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
		return block(RulePlaybookGate, "%s and oath-classify found no command in %q, so the gate cannot tell that it changes nothing", noPlaybook, truncate(c.Command, 80))
	}
	// The maintenance whitelist only ever opens paths that are exceptions anyway, so a semantic
	// write is blocked before security is even read.
	if len(semantic) > 0 {
		t := semantic[0]
		return block(RulePlaybookGate, "%s: %s is %s; write plan/playbook-NAME.md and set playbook.active to it first", noPlaybook, t.shown, category(t))
	}
	return env.maintenance(cwd, cmds, others, noPlaybook)
}

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

// hardBlock checks every written path, and every argument of a command that might write what it
// names (defence in depth, should oath-classify miss a write route).
func (env Env) hardBlock(cwd string, targets []target, cmds [][]string) (envelope.GateVerdict, bool) {
	if env.ProtectedErr != nil {
		return block(RuleProtectedList, "the protected-files list cannot be read (%v), so no change can be checked against it; fix the list", env.ProtectedErr), true
	}
	prot := env.Protected
	if prot == nil {
		prot = DefaultProtected()
	}
	check := func(t target, how string, ancestors bool) (envelope.GateVerdict, bool) {
		for _, p := range t.places {
			if e, ok := prot.match(p.rel, p.abs, ancestors); ok {
				return block(RuleHardBlock, "%s %s, protected by %q (%s); HARD_BLOCK holds in every mode, admin included: only a person can change it, outside the agent", how, t.shown, e.Pattern, e.Source), true
			}
		}
		return envelope.GateVerdict{}, false
	}
	for _, t := range targets {
		if v, ok := check(t, "the call writes", true); ok {
			return v, true
		}
	}
	// An argument is resolved against the event's cwd and every directory a cd before it named:
	// the command list is flat, so which cd applies is not known, and every reading is checked.
	dirs := []string{cwd}
	for _, argv := range cmds {
		if n := cmdName(argv); (n == "cd" || n == "pushd") && len(argv) > 1 {
			for _, d := range dirs {
				if len(dirs) < maxDirs {
					dirs = append(dirs, joinDir(d, argv[len(argv)-1]))
				}
			}
			continue
		}
		if writesNoOperand(argv) {
			continue
		}
		trees := treeWriters[cmdName(argv)]
		for _, d := range dirs {
			if g, ok := parseGit(argv); ok && g.dir != "" {
				d = joinDir(d, g.dir)
			}
			for _, a := range argv[1:] {
				for _, cand := range argCandidates(a) {
					if v, ok := check(env.target(d, cand), fmt.Sprintf("%s names", cmdName(argv)), trees); ok {
						return v, true
					}
				}
			}
			for _, cand := range intoDir(argv) {
				if v, ok := check(env.target(d, cand), fmt.Sprintf("%s writes", cmdName(argv)), false); ok {
					return v, true
				}
			}
		}
	}
	return envelope.GateVerdict{}, false
}

// treeWriters act on whole directory trees, so naming a directory above a protected file is a
// write to it (rm -r .claude, git checkout .). Other commands that merely name a directory
// ("go test .", "make -C .") are checked against the protected paths and what lies below them.
var treeWriters = map[string]bool{
	"rm": true, "rmdir": true, "mv": true, "chmod": true, "chown": true, "chgrp": true,
	"find": true, "rsync": true, "shred": true, "unlink": true, "git": true, "setfacl": true, "chattr": true,
}

// copiers take SOURCE… DEST, where DEST may be a directory the sources land in.
var copiers = map[string]bool{"cp": true, "mv": true, "ln": true, "install": true, "rsync": true}

// intoDir returns DEST/base(SOURCE) for each source of a copier: "cp /tmp/CLAUDE.md ." writes
// ./CLAUDE.md without naming it.
func intoDir(argv []string) []string {
	if !copiers[cmdName(argv)] {
		return nil
	}
	ops, _ := operands(argv[1:], nil)
	if len(ops) < 2 {
		return nil
	}
	dest := ops[len(ops)-1]
	var out []string
	for _, src := range ops[:len(ops)-1] {
		out = append(out, filepath.Join(dest, filepath.Base(src)))
	}
	return out
}

// maxDirs bounds the directories an argument is resolved against (a chain of cd doubles them).
const maxDirs = 64

// argCandidates are the paths an argument may name: itself, and the value of "--opt=value" or
// "of=value" (dd).
func argCandidates(a string) []string {
	if a == "" || a == "-" || a == "--" {
		return nil
	}
	var out []string
	if !strings.HasPrefix(a, "-") {
		out = append(out, a)
	}
	if _, v, ok := strings.Cut(a, "="); ok && v != "" {
		out = append(out, v)
	}
	return out
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
