package doctor

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
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
	return append(out, c)
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
