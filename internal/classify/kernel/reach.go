package kernel

import (
	"slices"

	"github.com/oath-harness/oath-harness/internal/risk"
	"github.com/oath-harness/oath-harness/internal/sandbox"
)

// What the sandbox alone stops on the network (issue 29). Claude Code's proxy asks the person
// before a host the settings do not allow is reached, but remembers a host allowed with "Yes"
// for the rest of the session, where no hook can read it: so data sent out, a service changed
// or its secret read through the proxy stay the harness's (the always-a-person class). What no
// answer of the person's opens is left to the sandbox: the Docker engine's Unix socket, which
// the sandbox closes. Remote is the one place that decides it.

// Remote reports whether a finding of x whose only consequence is at dest (what: the
// finding, in plain words) is left to the sandbox, and if so records why in its stead: a
// medium finding. Outside the sandbox, for any destination but the Docker engine, or with
// the engine's socket opened by the settings, it reports false and the caller records its
// finding as before.
func (x *Command) Remote(dest sandbox.Dest, what string) bool {
	b := x.Call.Box
	if !x.Call.Confined || b == nil || slices.Contains(x.Cmd.Via, "ssh") {
		return false // outside the sandbox, or run by ssh on another machine, which no sandbox here holds
	}
	if !dest.Engine {
		// A host reached through the proxy is not left to it: Claude Code remembers a host the
		// person allowed for the rest of the session (2.1.191 on), in no settings file a hook
		// reads, so after `kubectl get pods` was allowed once, `kubectl delete ns prod` would
		// reach the same host unasked. Remote changes, secrets and data sent out stay the
		// harness's (DESIGN.md: the always-a-person class). The Docker engine's socket is
		// closed whatever the person allowed: no session's answer opens it.
		return false
	}
	asks, why := b.Asks(dest)
	if !asks {
		return false
	}
	x.Add(risk.Medium, ShellExec, RuleSandboxAsks, what+": "+why+", so it is not the harness's to judge")
	return true
}

// Docker is the Docker engine, over its socket.
var Docker = sandbox.Dest{Engine: true}
