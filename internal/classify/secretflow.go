package classify

import (
	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/seen"
)

// Secrets across calls (issue 29 item 7). A secret read in one call can leave in the next,
// in pieces no single call shows: a WebFetch, an MCP call or a Bash request each carrying a
// harmless-looking part. The sandbox does not cover WebFetch and MCP, and allows the domains
// settings list. So once the session has read a secret (package seen: oath-audit notes it from
// the outputs it masks), a call that sends to a destination the session has not used before
// always needs a person; destinations it already used stay as they were.

// sendRules are the rules that say a Bash call talks to another machine.
var sendRules = [...]string{kernel.RuleNetworkExternal, kernel.RuleNetworkFetch, kernel.RuleOutboundData, kernel.RuleGitRemote, kernel.RuleGitNewRemote, kernel.RuleTunnel, kernel.RuleMailer, kernel.RuleDNSData}

// sends reports whether the call sends a request to another machine.
func sendsOut(r *kernel.Result, ev *claude.Event) bool {
	switch {
	case ev.ToolName == claude.ToolWebFetch || len(ev.ToolName) > 5 && ev.ToolName[:5] == "mcp__":
		return true
	case ev.ToolName != claude.ToolBash:
		return false
	case r.Sends:
		return true
	}
	for _, p := range r.Parts {
		for _, s := range sendRules {
			if p.Reason.Rule == s {
				return true
			}
		}
	}
	return false
}

// secretThenSend marks a call that sends to a new destination after the session read a secret.
func secretThenSend(c *kernel.Env, r *kernel.Result, ev *claude.Event) {
	if ev.HookEventName != claude.PreToolUse || ev.SessionID == "" || !sendsOut(r, ev) {
		return
	}
	st, err := seen.Load(c.Layout.Root, ev.SessionID)
	if err != nil {
		r.Mark(kernel.RuleSecretThenSend, "the session's record of the secrets it read cannot be read ("+err.Error()+"), and this call sends data out")
		return
	}
	if st.Secret == "" {
		return
	}
	dests, ok := seen.Dests(ev)
	where := "a destination that cannot be named"
	for _, d := range dests {
		if !st.Dests[d] {
			where, ok = d, false
			break
		}
	}
	if ok {
		return // every destination was used before the secret, or since, with a person's yes
	}
	r.Mark(kernel.RuleSecretThenSend, "this session has read a secret ("+st.Secret+"), and this call sends to "+where+", which it has not used before: a secret can leave in pieces no single call shows")
}
