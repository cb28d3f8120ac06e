package sandbox

import (
	"path/filepath"
	"slices"
	"strings"
)

// Call is what of a Bash call decides whether it runs confined.
type Call struct {
	Command string
	// DisableSandbox: tool_input carries dangerouslyDisableSandbox with any value but false.
	DisableSandbox bool
}

// Verdict is whether a call runs confined, and why, in plain words.
type Verdict struct {
	Confined bool
	Why      string
	// AutoAllow: Claude Code may run the call without asking anyone, because the sandbox is on
	// with autoAllowBashIfSandboxed (or the settings cannot be read, so it may be). Where the
	// harness wants a person, it must then ask explicitly: leaving the call to Claude Code's
	// own flow would let it run.
	AutoAllow bool
	// Network is the sandbox's network as the settings say it (network.go: Asks).
	Network Network
	// Bounded: the call runs confined, no setting adds a writable path outside the project,
	// and the harness's files inside the project are denied to writes (writes.go, Bound);
	// BoundedWhy says why or why not, in plain words.
	Bounded    bool
	BoundedWhy string
	// Writable are the only places a bounded call can write (the project and the sandbox's
	// temporary directory, as named and with their links resolved); nil when not Bounded.
	Writable []string
}

// MayWrite reports whether the call can change p: anywhere when its writes are not bounded;
// inside a bounded sandbox only when p lies in a writable place or holds one (rm -rf of a
// directory above the project reaches the project). Everything else is read-only to the
// call: the sandbox refuses the write, so nothing there can be lost.
func (v Verdict) MayWrite(p string) bool {
	if !v.Bounded {
		return true
	}
	p = filepath.Clean(p)
	for _, w := range v.Writable {
		if under(p, w) || under(w, p) {
			return true
		}
	}
	return false
}

// Judge decides whether call runs confined under s. platform is asked only when everything
// else says yes (probing may start bubblewrap).
func Judge(s Settings, call Call, platform func() Platform) Verdict {
	v := Verdict{Network: s.Network}
	switch {
	case s.Unread != "":
		v.AutoAllow = true // it may be on, with auto-allow
		v.Why = "cannot tell whether the sandbox is on: " + s.Unread
		return v
	case !s.Enabled && s.EnabledBy != "":
		v.Why = "the sandbox is off: sandbox.enabled is false in " + s.EnabledBy
		return v
	case !s.Enabled:
		v.Why = "the sandbox is off: no settings file of Claude Code's turns it on (sandbox.enabled)"
		return v
	case call.DisableSandbox:
		// Claude Code asks the person for it (measured on 2.1.332): no auto-allow.
		v.Why = "the call asks to run outside the sandbox (dangerouslyDisableSandbox)"
		return v
	}
	if e, word := Excluded(call.Command, s.Excluded); e != "" {
		v.Why = "the call names " + word + ", and sandbox.excludedCommands lists " + quote(e) + ": Claude Code runs it outside the sandbox"
		return v
	}
	// From here on Claude Code means to sandbox the call; whether it auto-allows one whose
	// sandbox cannot start is not worth guessing: the harness asks rather than defers.
	v.AutoAllow = s.AutoAllow
	p := platform()
	if s.Platforms != nil && !slices.Contains(s.Platforms, p.Name) {
		v.Why = "the sandbox is on, but sandbox.enabledPlatforms does not list " + p.Name
		return v
	}
	if !p.Available {
		v.Why = "the sandbox is on, but cannot start here: " + p.Why
		return v
	}
	v.Confined = true
	v.Why = "runs inside Claude Code's sandbox (sandbox.enabled in " + s.EnabledBy + "; " + p.Why + ")"
	return v
}

func quote(s string) string { return `"` + s + `"` }

// Excluded returns the first entry of excludedCommands that may match command, and the word
// of the command it matched, or "". It matches more than Claude Code does, never less: an
// entry excludes every call that names its program anywhere (as a command, an argument, in a
// substitution, by a path ending in it), after removing the shell's quotes and backslashes,
// and an entry with a pattern in its program name excludes every call. Claude Code splits
// the command into its subcommands and compares their first words with the entry (a prefix
// for "cmd:*"); what it finds is among what this finds.
func Excluded(command string, entries []string) (entry, word string) {
	if len(entries) == 0 {
		return "", ""
	}
	flat := unquote.Replace(command)
	words := strings.FieldsFunc(flat, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\r' || strings.ContainsRune(";&|()<>`${}=", r)
	})
	for _, e := range entries {
		prog := program(e)
		if prog == "" {
			continue // an empty entry names nothing
		}
		if strings.ContainsAny(prog, "*?[") {
			return e, "any program"
		}
		for _, w := range words {
			if w == prog || filepath.Base(w) == prog {
				return e, w
			}
		}
	}
	return "", ""
}

// unquote removes the shell's quotes and backslashes (NewReplacer builds its table on first use).
var unquote = strings.NewReplacer(`"`, "", `'`, "", `\`, "")

// program is the program an excludedCommands entry names: its first word, without a path and
// without the ":*" of a prefix rule; "*" when the entry is a bare pattern.
func program(entry string) string {
	e := strings.TrimSpace(entry)
	e = strings.TrimSuffix(e, ":*")
	f := strings.Fields(e)
	if len(f) == 0 {
		if strings.Contains(entry, "*") {
			return "*"
		}
		return ""
	}
	p := strings.TrimSuffix(f[0], ":*")
	p = unquote.Replace(p)
	if i := strings.LastIndexByte(p, '/'); i >= 0 && i < len(p)-1 {
		p = p[i+1:]
	}
	return p
}

// CacheFile is where a harness root keeps the probe's answer (Probe): its state directory,
// which no tool call may write, so the agent cannot claim a sandbox that is not there.
func CacheFile(root string) string {
	if root == "" {
		return ""
	}
	return filepath.Join(root, "state", "sandbox-probe.json")
}

// Mode says, for a person, which mode is in force for Bash calls in a project and what it
// costs: inside the boundary earned trust runs them; outside, what the harness cannot read
// always goes to a person.
func Mode(s Settings, platform func() Platform) (confined bool, words string) {
	v := Judge(s, Call{}, platform)
	if v.Confined {
		return true, "Bash calls run inside Claude Code's sandbox here (" + strings.TrimPrefix(v.Why, "runs inside Claude Code's sandbox (") +
			": earned trust may run them, and what the harness cannot read runs only there."
	}
	return false, "Claude Code's sandbox is not in force here (" + v.Why + "): Bash calls the harness cannot read in full " +
		"(make, test runners, interpreters, project scripts) go to a person at any trust; turning the sandbox on " +
		"(hooks/install.sh, or sandbox.enabled in .claude/settings.local.json) lets earned trust run them inside it."
}
