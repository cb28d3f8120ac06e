package oathaudit

import (
	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/layout"
	"github.com/oath-harness/oath-harness/internal/mask"
	"github.com/oath-harness/oath-harness/internal/seen"
)

// maxScanned bounds the response scanned for a secret (a Read returns at most a few MB).
const maxScanned = 4 << 20

// noteSeen notes, after a tool call ran, whether its output held a secret (or it was a
// credential read) and which destinations it sent to (package seen): oath-classify asks a
// person for a later call that sends to a new destination once a secret was read.
func noteSeen(env *envelope.Envelope, ev *claude.Event) error {
	if ev.HookEventName != claude.PostToolUse && ev.HookEventName != claude.PostToolUseFailure || ev.SessionID == "" {
		return nil
	}
	secret := ""
	var c envelope.Classification
	if ok, _ := env.Stage(envelope.StageClassify, &c); ok {
		if c.NeedsPerson != nil && c.NeedsPerson.Rule == "reads_credentials" {
			secret = "a credential read by " + ev.ToolName
		}
		for _, r := range c.Reasons {
			if secret == "" && r.Rule == "credential_read" {
				secret = "a credential read by " + ev.ToolName
			}
		}
	}
	if secret == "" && len(ev.ToolResponse) > 0 && len(ev.ToolResponse) <= maxScanned {
		var x mask.Secrets
		if x.ScanJSON(ev.ToolResponse); x.Found() {
			secret = "a secret in the output of " + ev.ToolName
		}
	}
	var dests []string
	if ev.HookEventName == claude.PostToolUse {
		dests, _ = seen.Dests(ev)
	}
	return seen.Note(layout.FromEnv().Root, ev.SessionID, secret, dests)
}
