package kernel

import (
	"slices"

	"github.com/oath-harness/oath-harness/internal/command"
	"github.com/oath-harness/oath-harness/internal/risk"
	"github.com/oath-harness/oath-harness/internal/sandbox"
)

// Network reach inside the sandbox is the sandbox's question (issue 29), where no answer of the
// person's can open it: see Remote. Some findings have
// no consequence but on the other side of a channel: data sent to another machine (the
// outbound family), a service's state changed or its secret read by a cloud, cluster or
// secret-manager CLI over its API, containers deleted by the Docker engine over its socket.
// A confined call reaches that channel only through Claude Code's sandbox, whose proxy asks
// the person before a host the settings do not allow is reached (and which closes raw TCP and
// Unix sockets). Where the destination needs the person's say, standing in for that question
// would only ask twice: the finding is not the harness's, and the call is judged on its local
// effects (what it writes, deletes or plants here), which the families record apart.
//
// Remote is the one place that decides it; the families say only where a finding goes.

// Remote reports whether a finding of x whose only consequence is at dest (what: the
// finding, in plain words) is left to the sandbox, and if so records why in its stead: a
// medium finding, like a plain GET inside the sandbox. Outside the sandbox, with a
// destination the settings let through, or one that cannot be known while some domain is
// allowed, it reports false and the caller records its finding as before.
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

// RemoteMark marks the call for a person, as Result.Mark, unless Remote leaves the finding
// to the sandbox.
func (x *Command) RemoteMark(dest sandbox.Dest, rule, why string) {
	if !x.Remote(dest, why) {
		x.Call.Mark(rule, why+Consequence(rule))
	}
}

// API is the destination of a CLI that acts on its service over the network, at a host its
// configuration or environment names (a kubeconfig's server, VAULT_ADDR, a cloud's regional
// endpoints): not known here. Docker is the Docker engine, over its socket.
var (
	API    = sandbox.Dest{Unknown: true}
	Docker = sandbox.Dest{Engine: true}
)

// ReachDest is where a Person form of class c of a program whose row says r acts, when that
// is only on the other side of a channel (command.Reach); false when it acts here.
func ReachDest(r command.Reach, c command.PersonClass) (sandbox.Dest, bool) {
	switch {
	case r == command.Engine:
		return Docker, true
	case r == command.Service && (c == command.RemoteChange || c == command.ReadsSecret),
		r == command.ServiceChanges && c == command.RemoteChange:
		return API, true
	}
	return sandbox.Dest{}, false
}
