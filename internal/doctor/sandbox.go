package doctor

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// ManagedSettings is where Claude Code reads managed (policy) settings on Linux; they override
// every scope.
var ManagedSettings = "/etc/claude-code/managed-settings.json"

// sandboxSettings is what the doctor reads of Claude Code's sandbox settings.
type sandboxSettings struct {
	Enabled   *bool `json:"enabled"`
	AutoAllow *bool `json:"autoAllowBashIfSandboxed"`
	Network   struct {
		AllowedDomains []string `json:"allowedDomains"`
	} `json:"network"`
}

// sandboxOn reads sandbox.enabled as Claude Code merges the settings (user, project, local, then
// managed: the last that sets it wins) and says which file decided.
func sandboxOn(e Env) (on bool, from string, s sandboxSettings) {
	files := []string{}
	for _, sc := range e.Scopes() {
		files = append(files, sc.Path)
	}
	files = append(files, ManagedSettings)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var v struct {
			Sandbox *sandboxSettings `json:"sandbox"`
		}
		if json.Unmarshal(data, &v) != nil || v.Sandbox == nil {
			continue
		}
		if v.Sandbox.Enabled != nil {
			on, from = *v.Sandbox.Enabled, f
		}
		if v.Sandbox.Network.AllowedDomains != nil {
			s.Network = v.Sandbox.Network
		}
		if v.Sandbox.AutoAllow != nil {
			s.AutoAllow = v.Sandbox.AutoAllow
		}
	}
	return on, from, s
}

// sandboxChecks say whether Claude Code's Bash sandbox is on for the project and whether it can
// start on this machine, and how to fix either.
func sandboxChecks(e Env, installer string, registered bool) []Check {
	on, from, s := sandboxOn(e)
	if !on {
		if !registered {
			return nil
		}
		fix := "type /sandbox in Claude Code and choose auto-allow"
		if installer != "" {
			fix = installer + " " + shq(e.Project) + " (turns it on; --no-sandbox keeps it off)"
		}
		return []Check{{"sandbox", Warn, "Claude Code's Bash sandbox is off for this project: no call that runs code the harness cannot read is automatic, at any trust (more prompts)", fix}}
	}
	net := "no network domain allowed (each new one is asked)"
	if len(s.Network.AllowedDomains) > 0 {
		net = "network to " + strings.Join(s.Network.AllowedDomains, ", ")
	}
	out := []Check{{"sandbox", OK, "on (" + from + "), " + net, ""}}
	c, _ := sandboxRuns()
	return append(out, c, harnessFilesCheck(e, installer))
}

// HarnessFiles are the harness's own files in a project, which no sandboxed command may write:
// state.md (the playbook and the security mode), .claude/current-phase.md (the phase; a missing
// one means the most restrictive) and .claude/protected-files.txt (the gate's extra protected
// paths). Code the harness cannot read runs confined, and inside the sandbox the whole project is
// writable, so a Makefile recipe could otherwise change what steers the harness. The same list
// as hooks/sandbox.json's deny_write_project, which install.sh and the plugin write (a test keeps
// the two equal), in the spelling measured to work in a project's settings (e2e
// TestHostFactsSandboxDenyWrite).
var HarnessFiles = []string{"./state.md", "./.claude/current-phase.md", "./.claude/protected-files.txt"}

// harnessFilesCheck says whether sandbox.filesystem.denyWrite, merged over the scopes as Claude
// Code merges arrays, keeps every harness file from sandboxed writes, and how to add the missing.
func harnessFilesCheck(e Env, installer string) Check {
	var missing []string
	for _, f := range HarnessFiles {
		if !writeDenied(e, filepath.Join(e.Project, f)) {
			missing = append(missing, strings.TrimPrefix(f, "./"))
		}
	}
	if len(missing) == 0 {
		return Check{"harness files", OK, "sandboxed commands cannot write state.md, .claude/current-phase.md or .claude/protected-files.txt (sandbox.filesystem.denyWrite)", ""}
	}
	local := filepath.Join(e.Project, ".claude", "settings.local.json")
	fix := `add "./` + strings.Join(missing, `", "./`) + `" to sandbox.filesystem.denyWrite in ` + local
	if installer != "" {
		fix = installer + " " + shq(e.Project) + " (adds them to " + local + "), or " + fix
	}
	return Check{"harness files", Fail, "sandboxed commands can write " + strings.Join(missing, ", ") +
		": code the harness cannot read runs confined (a Makefile recipe, $(…)) and could change the security mode, the phase or the protected list", fix}
}

// writeDenied reports whether an entry of sandbox.filesystem.denyWrite in any scope covers
// target (the entry itself or a directory above it). Only spellings measured on Claude Code's
// sandbox count: //ABSOLUTE and ~/PATH anywhere; ./PATH and a bare PATH in the project's own
// settings files, where they are read against the project. Not a bare or ./ path in
// ~/.claude/settings.json or the managed settings (read against their own directory, not the
// project), not /PATH (documented as relative to the settings file, measured to be no such
// thing), not a glob (no effect on Linux). A spelling not counted makes the check fail: it says
// "writable" rather than guess "denied".
func writeDenied(e Env, target string) bool {
	targets := []string{filepath.Clean(target)}
	if real, err := filepath.EvalSymlinks(e.Project); err == nil && real != e.Project {
		if rel, err := filepath.Rel(e.Project, target); err == nil {
			targets = append(targets, filepath.Join(real, rel))
		}
	}
	type file struct {
		path    string
		project bool
	}
	var files []file
	for _, sc := range e.Scopes() {
		files = append(files, file{sc.Path, sc.Name != "user"})
	}
	files = append(files, file{ManagedSettings, false})
	for _, f := range files {
		data, err := os.ReadFile(f.path)
		if err != nil {
			continue
		}
		var v struct {
			Sandbox struct {
				Filesystem struct {
					DenyWrite []string `json:"denyWrite"`
				} `json:"filesystem"`
			} `json:"sandbox"`
		}
		if json.Unmarshal(data, &v) != nil {
			continue
		}
		for _, entry := range v.Sandbox.Filesystem.DenyWrite {
			p := resolveSandboxPath(entry, e.Home, e.Project, f.project)
			if p == "" {
				continue
			}
			for _, t := range targets {
				if t == p || strings.HasPrefix(t, p+"/") {
					return true
				}
			}
		}
	}
	return false
}

// resolveSandboxPath is the absolute path a denyWrite entry names, or "" for a spelling the
// doctor does not count (see writeDenied).
func resolveSandboxPath(entry, home, project string, inProject bool) string {
	switch {
	case entry == "" || strings.ContainsAny(entry, "*?["):
		return ""
	case strings.HasPrefix(entry, "//"):
		return filepath.Clean(entry[1:])
	case entry == "~" || strings.HasPrefix(entry, "~/"):
		return filepath.Clean(filepath.Join(home, entry[1:]))
	case strings.HasPrefix(entry, "/") || strings.HasPrefix(entry, "~") || !inProject:
		return ""
	}
	return filepath.Clean(filepath.Join(project, entry))
}

// sandboxRuns checks that the sandbox can start here: Seatbelt on macOS; on Linux bubblewrap and
// socat, and that bubblewrap can create a namespace (a container or a kernel setting may forbid it).
func sandboxRuns() (Check, bool) {
	switch runtime.GOOS {
	case "darwin":
		if _, err := exec.LookPath("sandbox-exec"); err != nil {
			return Check{"sandbox runs", Fail, "no sandbox-exec (Seatbelt): the sandbox cannot start, and Claude Code runs commands unconfined", "use macOS's own /usr/bin/sandbox-exec"}, false
		}
		return Check{"sandbox runs", OK, "Seatbelt (sandbox-exec)", ""}, true
	case "linux":
	default:
		return Check{"sandbox runs", Fail, "Claude Code's sandbox does not run on " + runtime.GOOS + ": commands run unconfined", "use Linux, macOS or WSL2"}, false
	}
	var missing []string
	for _, p := range []string{"bwrap", "socat"} {
		if _, err := exec.LookPath(p); err != nil {
			missing = append(missing, p)
		}
	}
	if len(missing) > 0 {
		return Check{"sandbox runs", Fail, "no " + strings.Join(missing, " and ") + " on PATH: the sandbox cannot start, and Claude Code runs commands unconfined",
			"sudo apt-get install bubblewrap socat (Debian, Ubuntu; dnf install bubblewrap socat on Fedora)"}, false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if out, err := exec.CommandContext(ctx, "bwrap", "--ro-bind", "/", "/", "true").CombinedOutput(); err != nil {
		line := strings.TrimSpace(string(out))
		if i := strings.IndexByte(line, '\n'); i >= 0 {
			line = line[:i]
		}
		return Check{"sandbox runs", Fail, "bwrap cannot create a namespace here (" + strings.TrimSpace(line+" "+err.Error()) + "): the sandbox cannot start, and Claude Code runs commands unconfined",
			"allow unprivileged user namespaces (sudo sysctl -w kernel.unprivileged_userns_clone=1; on Ubuntu 24.04 also kernel.apparmor_restrict_unprivileged_userns=0), or in a container run it with --security-opt seccomp=unconfined"}, false
	}
	return Check{"sandbox runs", OK, "bubblewrap and socat work here (bwrap --ro-bind / / true)", ""}, true
}
