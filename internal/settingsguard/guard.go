// Package settingsguard decides whether a change of Claude Code's settings during a session may
// take effect: a change that would switch the harness off or widen what runs without it is
// blocked (Claude Code's ConfigChange event; exit 2 keeps the session on the settings it had).
//
// What the event tells (Claude Code 2.1.332): the source (user_settings, project_settings,
// local_settings, policy_settings, skills) and the file_path that changed; not the old or the new
// content. The new content is the file on disk. Claude Code's own writes (the person's
// /permissions, /hooks and /sandbox screens, "don't ask again") are echoes of its own write and
// raise no ConfigChange at all (it marks them internal and suppresses the file watcher's event):
// so every change this package sees was made by something else — the agent's Bash, a git
// checkout or stash, `claude config set` from a shell, another program — and the person's own
// screens stay free. A policy_settings change cannot be blocked (Claude Code ignores the
// verdict), and a skills change is judged when the skill's commands run (PreSkillShellCommand).
//
// The rules are data on what the new file says, compared where it matters with the last content
// the guard let through for that file (Seen), since the event carries no old content.
package settingsguard

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Sources of a ConfigChange event.
const (
	SourceUser    = "user_settings"
	SourceProject = "project_settings"
	SourceLocal   = "local_settings"
	SourcePolicy  = "policy_settings"
	SourceSkills  = "skills"
)

// Rule ids of a verdict (oath.gate.rule in the audit line).
const (
	RuleAllowed      = "settings_unchanged_harness" // nothing the harness depends on changed
	RulePolicy       = "settings_policy"            // policy settings: Claude Code applies them whatever a hook says
	RuleSkills       = "settings_skills"            // a skill changed: judged when its commands run
	RuleUnreadable   = "settings_unreadable"        // the new file cannot be read as one JSON object
	RuleHooksOff     = "settings_hooks_off"         // disableAllHooks
	RuleHooksChanged = "settings_hooks_changed"     // a harness hook removed or altered
	RuleSandbox      = "settings_sandbox"           // the sandbox turned off or widened
	RuleMode         = "settings_mode"              // permissions.defaultMode other than default or plan
	RuleAllowHarness = "settings_allow_harness"     // an allow rule for the harness's own files
	RulePlugin       = "settings_plugin_off"        // the harness's plugin disabled
	RuleEnv          = "settings_env"               // env that moves the harness's binaries or state
)

// MaxFile bounds the settings file read: a settings file is a few kilobytes.
const MaxFile = 1 << 20

// Event is what the guard reads of a ConfigChange event.
type Event struct {
	HookEventName string `json:"hook_event_name"`
	SessionID     string `json:"session_id"`
	Cwd           string `json:"cwd"`
	Source        string `json:"source"`
	FilePath      string `json:"file_path"`
}

// ParseEvent reads one ConfigChange event. Anything else — not one JSON object, another event,
// an unknown source — is an error: the guard does not let through a change it cannot place.
func ParseEvent(data []byte) (Event, error) {
	var e Event
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&e); err != nil {
		return Event{}, fmt.Errorf("the event is not a JSON object: %v", err)
	}
	if _, err := dec.Token(); err == nil {
		return Event{}, errors.New("the event is followed by more data")
	}
	if e.HookEventName != "ConfigChange" {
		return Event{}, fmt.Errorf("the event is %q, not ConfigChange", e.HookEventName)
	}
	switch e.Source {
	case SourceUser, SourceProject, SourceLocal, SourcePolicy, SourceSkills:
	default:
		return Event{}, fmt.Errorf("the event's source %q is none Claude Code 2.1.332 sends", e.Source)
	}
	return e, nil
}

// Input is one change to judge.
type Input struct {
	Event Event
	// New is the changed file's content now; nil when it was deleted.
	New []byte
	// Seen is the content the guard last let through for this file; nil when it has seen none
	// (the first change of the file it judges): then only what the new file says is judged.
	Seen []byte
	// Others is the current content of the other settings files (user, project, local) that
	// Claude Code merges, to tell whether the harness stays registered somewhere.
	Others [][]byte
	// HarnessFiles are paths (or path fragments) of the harness's own files: its state
	// directory, its installed copy, the settings files, the phase file.
	HarnessFiles []string
}

// Verdict is the guard's answer.
type Verdict struct {
	Block  bool
	Rule   string
	Reason string
}

func allow(rule, reason string) Verdict { return Verdict{Rule: rule, Reason: reason} }

func block(rule, format string, args ...any) Verdict {
	return Verdict{Block: true, Rule: rule, Reason: fmt.Sprintf(format, args...)}
}

// settings is the part of a settings file the rules read.
type settings struct {
	DisableAllHooks *bool                      `json:"disableAllHooks"`
	Hooks           map[string][]matcher       `json:"hooks"`
	Permissions     permissions                `json:"permissions"`
	Sandbox         sandbox                    `json:"sandbox"`
	EnabledPlugins  map[string]json.RawMessage `json:"enabledPlugins"`
	Env             map[string]json.RawMessage `json:"env"`
}

type matcher struct {
	Matcher string    `json:"matcher"`
	Hooks   []command `json:"hooks"`
}

type command struct {
	Type      string          `json:"type"`
	Command   string          `json:"command"`
	Timeout   json.RawMessage `json:"timeout"`
	OnFailure string          `json:"onFailure"`
}

type permissions struct {
	Allow       []string `json:"allow"`
	DefaultMode *string  `json:"defaultMode"`
	// AdditionalDirectories are writable inside the sandbox too.
	AdditionalDirectories []string `json:"additionalDirectories"`
}

type sandbox struct {
	Enabled                  *bool    `json:"enabled"`
	AutoAllowBashIfSandboxed *bool    `json:"autoAllowBashIfSandboxed"`
	AllowUnsandboxedCommands *bool    `json:"allowUnsandboxedCommands"`
	ExcludedCommands         []string `json:"excludedCommands"`
	Network                  struct {
		AllowedDomains      []string `json:"allowedDomains"`
		AllowUnixSockets    []string `json:"allowUnixSockets"`
		AllowAllUnixSockets *bool    `json:"allowAllUnixSockets"`
		AllowLocalBinding   *bool    `json:"allowLocalBinding"`
	} `json:"network"`
	// Filesystem bounds what a sandboxed command reads and writes: the installer denies reads of
	// credentials and writes of the harness's own files in the project (hooks/sandbox.json).
	Filesystem struct {
		AllowWrite []string `json:"allowWrite"`
		DenyWrite  []string `json:"denyWrite"`
		DenyRead   []string `json:"denyRead"`
	} `json:"filesystem"`
}

// parse reads a settings file; empty or absent is the empty object.
func parse(data []byte) (settings, error) {
	var s settings
	if len(bytes.TrimSpace(data)) == 0 {
		return s, nil
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return s, err
	}
	return s, nil
}

// Judge decides one change. It never panics on any input and reads no file.
func Judge(in Input) Verdict {
	switch in.Event.Source {
	case SourcePolicy:
		return allow(RulePolicy, "policy settings changed: Claude Code applies them whatever a hook answers")
	case SourceSkills:
		return allow(RuleSkills, "a skill changed: its shell commands are judged when they run")
	}
	name := in.Event.FilePath
	if name == "" {
		name = in.Event.Source
	}
	now, err := parse(in.New)
	if err != nil {
		return block(RuleUnreadable, "the changed %s is not valid settings JSON (%v), so the harness cannot tell what it would switch off; fix the file", name, err)
	}
	var seen *settings
	if in.Seen != nil {
		if s, err := parse(in.Seen); err == nil {
			seen = &s
		}
	}
	if now.DisableAllHooks != nil && *now.DisableAllHooks {
		return block(RuleHooksOff, "%s sets disableAllHooks, which would switch the harness off; a person can turn hooks off in Claude Code's /hooks screen", name)
	}
	if v := hooksChanged(now, seen, in.Others); v != "" {
		return block(RuleHooksChanged, "%s: %s; a person can change hooks in Claude Code's /hooks screen, or with hooks/install.sh for the next session", name, v)
	}
	if v := sandboxOff(now, seen); v != "" {
		return block(RuleSandbox, "%s: %s; a person can change the sandbox in Claude Code's /sandbox screen", name, v)
	}
	if m := now.Permissions.DefaultMode; m != nil && !quietMode(*m) && (seen == nil || seen.Permissions.DefaultMode == nil || *seen.Permissions.DefaultMode != *m) {
		return block(RuleMode, "%s sets the default permission mode to %q; only default and plan keep a person in the loop when the session starts; a person can choose a mode with Shift+Tab or /permissions", name, *m)
	}
	if r := allowsHarness(now, seen, in.HarnessFiles); r != "" {
		return block(RuleAllowHarness, "%s adds the allow rule %q, which names the harness's own files; a person can add rules in Claude Code's /permissions screen", name, r)
	}
	if p := pluginOff(now); p != "" {
		return block(RulePlugin, "%s disables the harness's plugin %s; a person can manage plugins with /plugin", name, p)
	}
	if k := envMoves(now, seen); k != "" {
		return block(RuleEnv, "%s sets env %s, which changes where the harness's hooks find their programs or state", name, k)
	}
	return allow(RuleAllowed, name+" changed nothing the harness depends on")
}

// quietMode reports a default permission mode in which Claude Code asks the person itself.
func quietMode(m string) bool {
	switch m {
	case "default", "plan", "manual":
		return true
	}
	return false
}

// ourScripts are the names by which a hook command runs the harness: the hook scripts and the
// plugin's dispatcher.
var ourScripts = []string{"pre-tool-use", "post-tool-use", "config-change", "session-start", "user-prompt-submit",
	"stop", "session-end", "permission-denied"}

// ours reports whether a hook command runs the harness: it names the installed copy or plugin
// (oath-harness) or runs one of the hook scripts through plugin.sh.
func ours(c command) bool {
	if strings.Contains(c.Command, "oath-harness") {
		return true
	}
	for _, s := range ourScripts {
		if strings.Contains(c.Command, "/"+s+".sh") || strings.Contains(c.Command, "plugin.sh\" "+s) {
			return true
		}
	}
	return false
}

// entry is one hook of ours as the file registers it.
type entry struct{ event, matcher, command, timeout, onFailure string }

func (e entry) String() string { return e.event + " " + e.command }

func oursIn(s settings) []entry {
	var out []entry
	for ev, list := range s.Hooks {
		for _, m := range list {
			for _, c := range m.Hooks {
				if ours(c) {
					out = append(out, entry{ev, m.Matcher, c.Command, string(c.Timeout), c.OnFailure})
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// catchAll reports a matcher that matches every tool.
func catchAll(m string) bool { return m == "" || m == "*" || m == ".*" }

// hooksChanged says how the change removes or alters the harness's hooks, or "". With the
// file's last seen content every hook of ours there must still be there, unchanged (same event,
// matcher, command, timeout and onFailure). Without it, the harness must stay registered for
// PreToolUse, for every tool, in the new file, another settings file, or through its plugin.
func hooksChanged(now settings, seen *settings, others [][]byte) string {
	after := oursIn(now)
	if seen != nil {
		have := map[entry]bool{}
		for _, e := range after {
			have[e] = true
		}
		for _, e := range oursIn(*seen) {
			if !have[e] {
				return fmt.Sprintf("the harness's %s hook (%s) is removed or altered", e.event, short(e.command))
			}
		}
		return ""
	}
	covered := func(s settings) bool {
		for _, e := range oursIn(s) {
			if e.event == "PreToolUse" && catchAll(e.matcher) {
				return true
			}
		}
		return pluginOn(s)
	}
	if covered(now) {
		return ""
	}
	for _, o := range others {
		if s, err := parse(o); err == nil && covered(s) {
			return ""
		}
	}
	if len(oursIn(now)) > 0 {
		return "the harness's PreToolUse hook no longer covers every tool"
	}
	return "no settings file would run the harness's PreToolUse hook any more"
}

func short(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// pluginKey reports a key of enabledPlugins that names the harness's plugin.
func pluginKey(k string) bool { return k == "oath-harness" || strings.HasPrefix(k, "oath-harness@") }

func pluginOn(s settings) bool {
	for k, v := range s.EnabledPlugins {
		if pluginKey(k) && string(bytes.TrimSpace(v)) != "false" {
			return true
		}
	}
	return false
}

// pluginOff names the harness's plugin when the file disables it.
func pluginOff(s settings) string {
	for k, v := range s.EnabledPlugins {
		if pluginKey(k) && string(bytes.TrimSpace(v)) == "false" {
			return k
		}
	}
	return ""
}

// sandboxOff says how the change turns the sandbox off or widens what runs outside it or
// unasked, or "". Against the last seen content, every new excluded command, allowed domain or
// Unix socket widens; without it, only an explicit off, an unsandboxed escape turned on, or a
// domain wildcard does.
func sandboxOff(now settings, seen *settings) string {
	sb := now.Sandbox
	var was sandbox
	if seen != nil {
		was = seen.Sandbox
	}
	on := func(b *bool) bool { return b != nil && *b }
	if sb.Enabled != nil && !*sb.Enabled {
		return "sandbox.enabled is false, which turns the Bash sandbox off"
	}
	if seen != nil {
		switch {
		case on(sb.AllowUnsandboxedCommands) && !on(was.AllowUnsandboxedCommands):
			return "sandbox.allowUnsandboxedCommands is turned on, which lets commands leave the sandbox"
		case on(sb.AutoAllowBashIfSandboxed) && !on(was.AutoAllowBashIfSandboxed):
			return "sandbox.autoAllowBashIfSandboxed is turned on, which runs sandboxed commands unasked"
		case on(sb.Network.AllowLocalBinding) && !on(was.Network.AllowLocalBinding):
			return "sandbox.network.allowLocalBinding is turned on"
		case on(sb.Network.AllowAllUnixSockets) && !on(was.Network.AllowAllUnixSockets):
			return "sandbox.network.allowAllUnixSockets is turned on, which opens every local socket (the docker daemon's among them)"
		}
	}
	for _, d := range sb.Network.AllowedDomains {
		if d == "*" || d == "*.*" {
			return fmt.Sprintf("sandbox.network.allowedDomains allows %q, every domain", d)
		}
	}
	if seen == nil {
		return ""
	}
	if x := added(sb.ExcludedCommands, was.ExcludedCommands); x != "" {
		return fmt.Sprintf("sandbox.excludedCommands adds %q, which would run outside the sandbox", x)
	}
	if x := added(sb.Network.AllowedDomains, was.Network.AllowedDomains); x != "" {
		return fmt.Sprintf("sandbox.network.allowedDomains adds %q", x)
	}
	if x := added(sb.Network.AllowUnixSockets, was.Network.AllowUnixSockets); x != "" {
		return fmt.Sprintf("sandbox.network.allowUnixSockets adds %q", x)
	}
	if x := added(sb.Filesystem.AllowWrite, was.Filesystem.AllowWrite); x != "" {
		return fmt.Sprintf("sandbox.filesystem.allowWrite adds %q, which sandboxed commands could then change", x)
	}
	if x := added(now.Permissions.AdditionalDirectories, seen.Permissions.AdditionalDirectories); x != "" {
		return fmt.Sprintf("permissions.additionalDirectories adds %q, which sandboxed commands could then change", x)
	}
	if x := added(was.Filesystem.DenyWrite, sb.Filesystem.DenyWrite); x != "" {
		return fmt.Sprintf("sandbox.filesystem.denyWrite no longer lists %q, which sandboxed commands could then change", x)
	}
	if x := added(was.Filesystem.DenyRead, sb.Filesystem.DenyRead); x != "" {
		return fmt.Sprintf("sandbox.filesystem.denyRead no longer lists %q, which sandboxed commands could then read", x)
	}
	return ""
}

// added returns the first entry of now that was is missing, or "".
func added(now, was []string) string {
	have := map[string]bool{}
	for _, w := range was {
		have[w] = true
	}
	for _, n := range now {
		if !have[n] {
			return n
		}
	}
	return ""
}

// allowsHarness returns a new allow rule that names one of the harness's files, or "".
func allowsHarness(now settings, seen *settings, files []string) string {
	var was []string
	if seen != nil {
		was = seen.Permissions.Allow
	}
	old := map[string]bool{}
	for _, r := range was {
		old[r] = true
	}
	for _, r := range now.Permissions.Allow {
		if old[r] {
			continue
		}
		open, close := strings.IndexByte(r, '('), strings.LastIndexByte(r, ')')
		if open < 0 || close < open {
			continue // a whole tool: the harness's own deny of writes to its files still answers first
		}
		spec := r[open+1 : close]
		for _, f := range append(files, harnessFragments...) {
			if f != "" && strings.Contains(spec, f) {
				return r
			}
		}
	}
	return ""
}

// harnessFragments name the harness's files wherever they live.
var harnessFragments = []string{".claude/settings", "oath-harness", "current-phase.md", "protected-files.txt", "settings.local.json"}

// envMoves returns an env key of the file that would change where the hooks find their
// programs or state, set or changed since the last seen content, or "".
func envMoves(now settings, seen *settings) string {
	var keys []string
	for k := range now.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !movesHarness(k) {
			continue
		}
		if seen != nil {
			if old, ok := seen.Env[k]; ok && bytes.Equal(old, now.Env[k]) {
				continue
			}
		}
		return k
	}
	return ""
}

func movesHarness(k string) bool {
	switch k {
	case "PATH", "XDG_STATE_HOME", "XDG_DATA_HOME", "HOME", "CLAUDE_PROJECT_DIR", "BASH_ENV", "ENV", "LD_PRELOAD", "LD_LIBRARY_PATH":
		return true
	}
	return strings.HasPrefix(k, "OATH_")
}
