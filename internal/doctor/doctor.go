// Package doctor checks an installation of the harness end to end and says what to fix.
//
// It reads what Claude Code reads (the three settings files of the scopes and the plugins
// enabled there), follows the registered PreToolUse command to the installed copy, checks that
// the copy's binaries are the version it says, that the project's state directory is writable
// and its audit chain verifies, which phase is set, which Claude Code runs, and finally feeds a
// harmless PreToolUse event through the registered command line itself, the way Claude Code
// would. Nothing is changed but one audit line for that event.
package doctor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/oath-harness/oath-harness/internal/audit"
	"github.com/oath-harness/oath-harness/internal/checkpoint"
	"github.com/oath-harness/oath-harness/internal/layout"
	"github.com/oath-harness/oath-harness/internal/phase"
	"github.com/oath-harness/oath-harness/internal/settings"
)

// Status of one check.
type Status string

const (
	OK   Status = "ok"
	Warn Status = "warn"
	Fail Status = "FAIL"
)

// Check is one finding: what was checked, how it stands, and (unless OK) what to do.
type Check struct {
	Name   string `json:"name"`
	Status Status `json:"status"`
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
}

// Env is what the doctor looks at: the project, the user's home, the environment (for OATH_HOME,
// OATH_BIN, XDG_*), and the Claude Code CLI to ask for its version ("" to look on PATH).
type Env struct {
	Project string
	Home    string
	Getenv  func(string) string
	Claude  string
}

// Scope is one settings file Claude Code reads.
type Scope struct {
	Name string // user, project, local
	Path string
}

// Scopes are the settings files of the three scopes, in Claude Code's order of precedence
// (lowest first).
func (e Env) Scopes() []Scope {
	return []Scope{
		{"user", filepath.Join(e.Home, ".claude", "settings.json")},
		{"project", filepath.Join(e.Project, ".claude", "settings.json")},
		{"local", filepath.Join(e.Project, ".claude", "settings.local.json")},
	}
}

// registration is our PreToolUse command found in one scope.
type registration struct {
	scope     Scope
	command   string
	script    string // the pre-tool-use.sh it runs
	events    map[string]bool
	timeout   float64
	onFailure bool // every hook of ours carries onFailure "block"
}

// ourScript finds the hook script of one of our command lines: the installer's form
// (f='…/hooks/NAME.sh'; …) or a bare path to …/hooks/NAME.sh (earlier versions).
var ourScript = regexp.MustCompile(`^(?:f='((?:[^']|'\\'')*/hooks/[a-z-]+\.sh)'; |'?([^' ;]*/hooks/[a-z-]+\.sh)'?$)`)

func scriptOf(command string) string {
	m := ourScript.FindStringSubmatch(strings.TrimSpace(command))
	if m == nil {
		return ""
	}
	return strings.ReplaceAll(m[1], `'\''`, "'") + m[2] // install.sh quotes a ' as '\''
}

// Run performs every check, in the order a person would fix things.
func Run(ctx context.Context, e Env) []Check {
	var out []Check
	add := func(c Check) { out = append(out, c) }

	version, versionCheck := claudeVersion(ctx, e)
	regs, checks := registrations(e)
	out = append(out, checks...)
	pluginCheck, pluginOn := plugin(e)
	installer := e.installer()
	// Claude Code runs an identical command once, however many scopes name it: only distinct
	// command lines are distinct registrations.
	distinct := map[string]bool{}
	var names []string
	for _, r := range regs {
		if !distinct[r.command] {
			distinct[r.command] = true
			names = append(names, r.scope.Name)
		}
	}
	switch {
	case pluginOn && len(regs) > 0:
		add(Check{"registered", Fail, "twice: by the plugin and by install.sh in the " + regs[0].scope.Name + " scope; every call is judged twice",
			"keep the plugin and remove the other: " + installer + " --uninstall --scope " + regs[0].scope.Name + " " + shq(e.Project)})
	case pluginOn:
		add(pluginCheck)
	case len(regs) == 0:
		add(Check{"registered", Fail, "no settings file of Claude Code registers the oath-harness hooks: every call runs unjudged",
			installer + " " + shq(e.Project) + " (or install the plugin: docs/install.md)"})
	case len(distinct) == 1:
		where := regs[0].scope.Name + " scope (" + regs[0].scope.Path + ")"
		if len(regs) > 1 {
			where = "the " + strings.Join(scopeNames(regs), " and ") + " scopes, with the same command line (Claude Code runs it once)"
		}
		add(Check{"registered", OK, "in the " + where, ""})
	default:
		add(Check{"registered", Fail, "in " + fmt.Sprint(len(distinct)) + " scopes with different command lines (" + strings.Join(names, ", ") + "): every call is judged " + fmt.Sprint(len(distinct)) + " times",
			"keep one: " + installer + " --uninstall --scope " + names[len(names)-1] + " " + shq(e.Project)})
	}
	for _, r := range regs {
		var missing []string
		for _, h := range HooksFor(version) {
			if !r.events[h.Event] {
				missing = append(missing, h.Event)
			}
		}
		fix := installer + " --scope " + r.scope.Name + " " + shq(e.Project)
		if len(missing) > 0 {
			add(Check{"events (" + r.scope.Name + ")", Fail, "no hook for " + strings.Join(missing, ", "), fix})
		}
		if r.timeout < 20 {
			add(Check{"timeout (" + r.scope.Name + ")", Fail, fmt.Sprintf("PreToolUse timeout %gs: a hook past its timeout lets the call through, and a stage may take 10 s before it blocks", r.timeout),
				fix + " (registers 60 s)"})
		}
		switch {
		case version != "" && !AtLeast(version, OnFailureSince):
			add(Check{"on failure (" + r.scope.Name + ")", Warn, "Claude Code " + version + " predates onFailure \"block\" (" + OnFailureSince + "): a hook that times out or cannot start lets its call through",
				"upgrade Claude Code (npm install -g @anthropic-ai/claude-code), then " + fix})
		case version != "" && !r.onFailure:
			add(Check{"on failure (" + r.scope.Name + ")", Warn, "the hooks are registered without onFailure \"block\", which Claude Code " + version + " reads: a hook that times out lets its call through", fix})
		}
	}
	if len(regs) > 0 {
		out = append(out, installedCopy(regs[0], e)...)
	}
	out = append(out, state(e)...)
	phaseFix := installer
	if pluginOn {
		phaseFix = "" // the plugin's user: install.sh would register the hooks a second time
	}
	out = append(out, phaseCheck(e, phaseFix))
	out = append(out, versionCheck)
	out = append(out, sandboxChecks(e, phaseFix, len(regs) > 0 || pluginOn)...)
	if len(regs) > 0 {
		out = append(out, dryRun(ctx, regs[0], e))
	}
	return out
}

// registrations reads the scopes' settings files and finds our PreToolUse hook in each.
func registrations(e Env) ([]registration, []Check) {
	var regs []registration
	var checks []Check
	for _, s := range e.Scopes() {
		data, err := os.ReadFile(s.Path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			checks = append(checks, Check{"settings (" + s.Name + ")", Fail, err.Error(), "make " + s.Path + " readable"})
			continue
		}
		var v struct {
			Hooks map[string][]struct {
				Hooks []struct {
					Command   string  `json:"command"`
					Timeout   float64 `json:"timeout"`
					OnFailure string  `json:"onFailure"`
				} `json:"hooks"`
			} `json:"hooks"`
		}
		if err := json.Unmarshal(data, &v); err != nil {
			checks = append(checks, Check{"settings (" + s.Name + ")", Fail, s.Path + " is not valid settings JSON (" + err.Error() + "): Claude Code ignores it", "fix the JSON of " + s.Path})
			continue
		}
		var r *registration
		events := map[string]bool{}
		allBlock := true
		for ev, groups := range v.Hooks {
			for _, g := range groups {
				for _, h := range g.Hooks {
					script := scriptOf(h.Command)
					if script == "" || !strings.Contains(script, "/hooks/") {
						continue
					}
					base := filepath.Base(script)
					if !isOurs(base) {
						continue
					}
					events[ev] = true
					allBlock = allBlock && h.OnFailure == "block"
					if ev == "PreToolUse" && base == "pre-tool-use.sh" {
						if r != nil {
							checks = append(checks, Check{"duplicates (" + s.Name + ")", Warn, "PreToolUse registered twice in " + s.Path, e.installer() + " --scope " + s.Name + " " + shq(e.Project) + " (keeps one)"})
							continue
						}
						r = &registration{scope: s, command: h.Command, script: script, timeout: h.Timeout}
					}
				}
			}
		}
		if r != nil {
			if r.timeout == 0 {
				r.timeout = 60 // Claude Code's default
			}
			r.events = events
			r.onFailure = allBlock
			regs = append(regs, *r)
		}
	}
	return regs, checks
}

func isOurs(base string) bool {
	for _, s := range Scripts() {
		if base == s+".sh" {
			return true
		}
	}
	return false
}

func scopeNames(regs []registration) []string {
	var out []string
	for _, r := range regs {
		out = append(out, r.scope.Name)
	}
	return out
}

// shq quotes a word for a shell, as install.sh does, so that a printed command works as pasted.
func shq(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+=:@,", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// installer is install.sh as a command that works from any directory: the one next to the
// running doctor (the installed copy, or a checkout's bin/), else the installed copy's.
func (e Env) installer() string {
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			p := filepath.Join(filepath.Dir(filepath.Dir(real)), "hooks", "install.sh")
			if _, err := os.Stat(p); err == nil {
				return shq(p)
			}
		}
	}
	data := e.Getenv("XDG_DATA_HOME")
	if !filepath.IsAbs(data) {
		data = filepath.Join(e.Home, ".local", "share")
	}
	return shq(filepath.Join(data, "oath-harness", "current", "hooks", "install.sh"))
}

// plugin reports an enabled oath-harness plugin, which registers the hooks without a settings
// hook entry.
func plugin(e Env) (Check, bool) {
	for _, s := range e.Scopes() {
		data, err := os.ReadFile(s.Path)
		if err != nil {
			continue
		}
		var v struct {
			Enabled map[string]bool `json:"enabledPlugins"`
		}
		if json.Unmarshal(data, &v) != nil {
			continue
		}
		for name, on := range v.Enabled {
			if on && strings.HasPrefix(name, "oath-harness@") {
				return Check{"registered", OK, "by the plugin " + name + " (enabled in the " + s.Name + " scope); its binaries are built on first use (do not also run install.sh: every call would be judged twice)", ""}, true
			}
		}
	}
	return Check{}, false
}

// installedCopy checks the copy the registered command runs: it exists, says its version, and
// its binaries are that version.
func installedCopy(r registration, e Env) []Check {
	fi, err := os.Stat(r.script)
	if err != nil || fi.Mode()&0o111 == 0 {
		return []Check{{"installed copy", Fail, r.script + " is missing: every call is blocked (exit 2)", e.installer() + " --scope " + r.scope.Name + " " + shq(e.Project)}}
	}
	copyDir := filepath.Dir(filepath.Dir(r.script))
	if !strings.Contains(r.command, "f='") {
		return []Check{{"installed copy", Warn, "the hooks run from " + copyDir + " itself (an earlier install): moving or deleting it lets every call through",
			e.installer() + " --scope " + r.scope.Name + " " + shq(e.Project) + " (installs a copy of its own)"}}
	}
	var out []Check
	want, _ := os.ReadFile(filepath.Join(copyDir, "VERSION"))
	wantV := strings.TrimSpace(string(want))
	bin := filepath.Join(copyDir, "bin")
	var bad []string
	got := ""
	for _, t := range []string{"oath-classify", "oath-gate", "oath-trust", "oath-decide", "oath-audit"} {
		o, err := exec.Command(filepath.Join(bin, t), "--version").Output()
		if err != nil {
			bad = append(bad, t+" (does not run)")
			continue
		}
		f := strings.Fields(string(o))
		if len(f) < 2 {
			bad = append(bad, t+" (no version)")
			continue
		}
		if got == "" {
			got = f[1]
		}
		if f[1] != got || wantV != "" && !strings.HasPrefix(wantV, f[1]+"-") {
			bad = append(bad, t+" "+f[1])
		}
	}
	if len(bad) > 0 {
		out = append(out, Check{"installed copy", Fail, copyDir + " (version " + wantV + ") holds binaries of another version or broken ones: " + strings.Join(bad, ", "),
			e.installer() + " --scope " + r.scope.Name + " " + shq(e.Project)})
	} else {
		out = append(out, Check{"installed copy", OK, copyDir + " version " + wantV, ""})
	}
	return out
}

// state checks the project's state directory: where it is, writable, settings valid, chain intact.
func state(e Env) []Check {
	getenv := func(k string) string {
		if k == "CLAUDE_PROJECT_DIR" {
			return e.Project
		}
		return e.Getenv(k)
	}
	l := layout.Resolve(getenv, e.Project)
	var out []Check
	if l.Legacy != "" {
		if fi, err := os.Lstat(l.Legacy); err == nil && fi.IsDir() {
			out = append(out, Check{"old state", Warn, l.Legacy + " holds state of an earlier version, inside the working tree (git clean or stash -u erase it)",
				e.installer() + " " + shq(e.Project) + " moves it to " + l.Root})
		}
	}
	if err := os.MkdirAll(l.Root, 0o755); err != nil {
		return append(out, Check{"state", Fail, "cannot create " + l.Root + ": " + err.Error() + "; every call is blocked", "make " + filepath.Dir(l.Root) + " writable"})
	}
	f, err := os.CreateTemp(l.Root, ".doctor-*")
	if err != nil {
		return append(out, Check{"state", Fail, l.Root + " is not writable: " + err.Error() + "; every call is blocked", "make " + l.Root + " writable"})
	}
	f.Close()
	os.Remove(f.Name())
	out = append(out, Check{"state", OK, l.Root + " (writable)", ""})
	s, err := settings.Load(l.SettingsFile())
	if err != nil {
		return append(out, Check{"harness settings", Fail, err.Error() + ": every call is blocked", "fix " + l.SettingsFile()})
	}
	files, err := audit.Files(s.AuditDir(l.ProjectDir, l.Root))
	switch {
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		out = append(out, Check{"audit trail", Fail, err.Error(), ""})
	case len(files) == 0:
		out = append(out, Check{"audit trail", OK, "nothing recorded yet", ""})
	default:
		res, err := audit.Verify(files)
		switch {
		case err != nil:
			out = append(out, Check{"audit trail", Fail, err.Error(), "oath-audit verify shows where"})
		case res.Break != nil:
			out = append(out, Check{"audit trail", Fail, fmt.Sprintf("the chain is broken at %v", res.Break), "oath-audit verify shows where; the trail was edited or truncated"})
		default:
			out = append(out, Check{"audit trail", OK, audit.Plural(res.Lines, "line") + " in " + audit.Plural(res.Files, "file") + ", chain intact", ""})
		}
	}
	if c, ok := checkpointsCheck(l, s); ok {
		out = append(out, c)
	}
	return out
}

// checkpointsCheck says whether the project's newest checkpoint keeps the repository's history
// outside the project, so that an undo still works after a call deleted .git; no check before
// the first checkpoint.
func checkpointsCheck(l layout.Layout, s settings.Settings) (Check, bool) {
	cs, err := checkpoint.List(checkpoint.OptionsFor(l, s), "")
	if err != nil {
		return Check{"checkpoints", Warn, err.Error(), ""}, true
	}
	if len(cs) == 0 {
		return Check{}, false
	}
	last := cs[len(cs)-1]
	if last.HistoryKept() {
		return Check{"checkpoints", OK, audit.Plural(len(cs), "checkpoint") + " kept; the newest keeps the repository's history outside the project too", ""}, true
	}
	why := "it was taken before the mirror"
	if last.NoHistory != "" {
		why = last.NoHistory
	}
	return Check{"checkpoints", Warn, fmt.Sprintf("the newest checkpoint (%d) keeps the working tree only: the repository's history is not kept outside the project (%s), so an undo cannot rebuild .git if a call deletes it", last.Seq, why),
		"keep the harness's state on the project's file system (XDG_STATE_HOME or OATH_HOME) so that the mirror hard-links git's files instead of copying them"}, true
}

// phaseCheck says which phase is set. installer is "" for a plugin's user: the fix is then only
// the command typed in Claude Code (install.sh would register the hooks a second time).
func phaseCheck(e Env, installer string) Check {
	path := (layout.Layout{ProjectDir: e.Project}).PhaseFile()
	p, st, detail := phase.Read(path)
	if st != phase.FromFile {
		fix := "type /building in Claude Code (or /oath-harness:building)"
		if installer != "" {
			fix = "type /building in Claude Code (or " + installer + " --phase building " + shq(e.Project) + ")"
		}
		return Check{"phase", Warn, detail + ": the phase is " + string(p) + ", the most restrictive (most calls are blocked)", fix}
	}
	return Check{"phase", OK, string(p) + " (" + path + "; switch with /planning, /building, /auditing)", ""}
}

// claudeVersion asks the Claude Code CLI for its release ("" when it cannot be told).
func claudeVersion(ctx context.Context, e Env) (string, Check) {
	cli := e.Claude
	if cli == "" {
		p, err := exec.LookPath("claude")
		if err != nil {
			return "", Check{"claude code", Warn, "no claude on PATH: cannot tell which version runs the hooks", ""}
		}
		cli = p
	}
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	o, err := exec.CommandContext(ctx, cli, "--version").Output()
	if err != nil {
		return "", Check{"claude code", Warn, cli + " --version failed: " + err.Error(), ""}
	}
	v := Version(string(o))
	if v != "" && !AtLeast(v, OnFailureSince) {
		return v, Check{"claude code", Warn, strings.TrimSpace(string(o)) + ": older than " + OnFailureSince + ", which blocks a call whose hook fails instead of letting it through",
			"upgrade Claude Code (npm install -g @anthropic-ai/claude-code)"}
	}
	return v, Check{"claude code", OK, strings.TrimSpace(string(o)) + " (the end-to-end tests check 2.1.330 and the newest release)", ""}
}

// dryRun feeds a harmless PreToolUse event (a Read of a file in the project) through the
// registered command line, with sh as Claude Code runs it, and checks the answer is one.
func dryRun(ctx context.Context, r registration, e Env) Check {
	ev, _ := json.Marshal(map[string]any{
		"hook_event_name": "PreToolUse", "session_id": "oath-doctor", "cwd": e.Project, "permission_mode": "default",
		"tool_name": "Read", "tool_use_id": "oath-doctor-dry-run", "tool_input": map[string]any{"file_path": filepath.Join(e.Project, "README.md")},
	})
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", r.command)
	cmd.Dir = e.Project
	cmd.Env = append(os.Environ(), "CLAUDE_PROJECT_DIR="+e.Project)
	cmd.Stdin = bytes.NewReader(ev)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start).Round(time.Millisecond)
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		return Check{"dry PreToolUse", Fail, err.Error(), ""}
	}
	line := strings.TrimSpace(stderr.String())
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	switch {
	case ctx.Err() != nil:
		return Check{"dry PreToolUse", Fail, "no answer within 30 s: Claude Code would let the call through", ""}
	case code == 2:
		return Check{"dry PreToolUse", Fail, "the hook blocks a harmless Read (exit 2): " + line, "fix what the line says, then run this again"}
	case code != 0:
		return Check{"dry PreToolUse", Fail, fmt.Sprintf("the hook exits %d, which Claude Code treats as a harmless error (the call goes ahead): %s", code, line), ""}
	}
	var ans struct {
		HookSpecificOutput struct {
			HookEventName      string `json:"hookEventName"`
			PermissionDecision string `json:"permissionDecision"`
		} `json:"hookSpecificOutput"`
		Oath struct {
			Decision struct {
				Decision string `json:"decision"`
			} `json:"decision"`
		} `json:"oath"`
	}
	if json.Unmarshal(stdout.Bytes(), &ans) != nil || ans.HookSpecificOutput.HookEventName != "PreToolUse" {
		return Check{"dry PreToolUse", Fail, "the hook answered without hookSpecificOutput: Claude Code would ignore it", ""}
	}
	d := ans.HookSpecificOutput.PermissionDecision
	if d == "" {
		d = "no decision (Claude Code's own permission flow)"
	}
	return Check{"dry PreToolUse", OK, fmt.Sprintf("a Read of README.md through the %s scope's command: %s, %s, in %v", r.scope.Name, ans.Oath.Decision.Decision, d, took), ""}
}

// Failed reports whether any check failed.
func Failed(cs []Check) bool {
	for _, c := range cs {
		if c.Status == Fail {
			return true
		}
	}
	return false
}
