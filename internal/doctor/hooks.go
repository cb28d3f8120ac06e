package doctor

import (
	"strconv"
	"strings"
)

// Hook is one hook the harness registers: the one table of them. hooks/install.sh reads it
// (oath-doctor hooks), the doctor checks a registration against it, and a test holds the
// plugin's hooks/hooks.json to it.
type Hook struct {
	Event    string `json:"event"`
	Matcher  string `json:"matcher,omitempty"` // "*" for the events that take a tool matcher
	Script   string `json:"script"`            // hooks/SCRIPT.sh
	FailCode int    `json:"fail_code"`         // the script's exit code on failure: 2 blocks; 1 for Stop (2 would keep Claude working)
	Timeout  int    `json:"timeout"`           // seconds; past it Claude Code lets the call through (unless onFailure is block)
	Since    string `json:"since,omitempty"`   // the first Claude Code release that knows the event ("" for all)
}

// Hooks are every hook the harness registers.
//
// PreToolUse's 60 s: every stage gives up after 10 s and the hook then blocks; a 12 MiB event
// (the most it judges) took up to 16 s on two cores at load 18. ConfigChange blocks a change of
// settings mid-session (exit 2); PermissionDenied (auto mode's classifier said no) is recorded
// only, so a failure there is a warning (1). PreSkillShellCommand (a skill's inline shell
// command) goes through the PreToolUse pipeline; 2.1.331 and older open a dialog at start for a
// settings file that names it, so it is registered only for 2.1.332 and later.
var Hooks = []Hook{
	{Event: "PreToolUse", Matcher: "*", Script: "pre-tool-use", FailCode: 2, Timeout: 60},
	{Event: "PostToolUse", Matcher: "*", Script: "post-tool-use", FailCode: 2, Timeout: 30},
	{Event: "PostToolUseFailure", Matcher: "*", Script: "post-tool-use", FailCode: 2, Timeout: 30},
	{Event: "SessionStart", Script: "session-start", FailCode: 2, Timeout: 30},
	{Event: "UserPromptSubmit", Script: "user-prompt-submit", FailCode: 2, Timeout: 30},
	{Event: "Stop", Script: "stop", FailCode: 1, Timeout: 30},
	{Event: "SessionEnd", Script: "session-end", FailCode: 2, Timeout: 30},
	{Event: "ConfigChange", Script: "config-change", FailCode: 2, Timeout: 30},
	{Event: "PermissionDenied", Matcher: "*", Script: "permission-denied", FailCode: 1, Timeout: 30},
	{Event: "PreSkillShellCommand", Script: "pre-tool-use", FailCode: 2, Timeout: 60, Since: "2.1.332"},
}

// OnFailureSince is the first Claude Code release that reads a hook entry's onFailure: "block"
// (a hook that cannot start, times out or exits with an unexpected code blocks instead of
// letting the call through). Older releases may refuse the unknown key.
const OnFailureSince = "2.1.295"

// HooksFor are the hooks to register for Claude Code version v ("" when it is not known: then
// only those every release knows).
func HooksFor(v string) []Hook {
	var out []Hook
	for _, h := range Hooks {
		if h.Since == "" || v != "" && AtLeast(v, h.Since) {
			out = append(out, h)
		}
	}
	return out
}

// Scripts are the hook scripts of the table, each once.
func Scripts() []string {
	var out []string
	seen := map[string]bool{}
	for _, h := range Hooks {
		if !seen[h.Script] {
			seen[h.Script] = true
			out = append(out, h.Script)
		}
	}
	return out
}

// AtLeast compares dotted release numbers ("2.1.330"); a part that is not a number compares as 0.
func AtLeast(v, min string) bool {
	a, b := strings.Split(v, "."), strings.Split(min, ".")
	for i := 0; i < len(a) || i < len(b); i++ {
		x, y := 0, 0
		if i < len(a) {
			x, _ = strconv.Atoi(a[i])
		}
		if i < len(b) {
			y, _ = strconv.Atoi(b[i])
		}
		if x != y {
			return x > y
		}
	}
	return true
}

// Version is the release number in `claude --version`'s output ("2.1.332 (Claude Code)"), or "".
func Version(out string) string {
	f := strings.Fields(out)
	if len(f) == 0 {
		return ""
	}
	for _, r := range f[0] {
		if (r < '0' || r > '9') && r != '.' {
			return ""
		}
	}
	return f[0]
}
