package oathdecide

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/decide"
	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/phase"
)

type answer struct {
	HookEventName string `json:"hook_event_name"`
	HSO           *claude.HookSpecificOutput
	Oath          struct {
		Classify *envelope.Classification `json:"classify"`
		Decision *envelope.Decision       `json:"decision"`
	} `json:"oath"`
}

func (a *answer) UnmarshalJSON(b []byte) error {
	// Keys are matched exactly, as envelope does (encoding/json alone would also take
	// "hook_event_nAme").
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil {
		return err
	}
	var raw struct {
		HSO  *claude.HookSpecificOutput
		Oath json.RawMessage
	}
	if v, ok := top["hook_event_name"]; ok {
		_ = json.Unmarshal(v, &a.HookEventName)
	}
	if v, ok := top["hookSpecificOutput"]; ok {
		if err := json.Unmarshal(v, &raw.HSO); err != nil {
			return err
		}
	}
	raw.Oath = top["oath"]
	a.HSO = raw.HSO
	if raw.Oath != nil {
		var o struct {
			Classify json.RawMessage    `json:"classify"`
			Decision *envelope.Decision `json:"decision"`
		}
		if err := json.Unmarshal(raw.Oath, &o); err != nil {
			return err
		}
		a.Oath.Decision = o.Decision
		if o.Classify != nil {
			var c envelope.Classification
			if json.Unmarshal(o.Classify, &c) == nil {
				a.Oath.Classify = &c
			}
		}
	}
	return nil
}

// FuzzMain feeds oath-decide arbitrary input and checks the hook contract: it never panics;
// it either fails (exit 1, stdout empty) or answers; a PreToolUse answer always carries
// hookEventName and either one of allow/ask/deny with a reason or no decision at all (a
// human_required call left to Claude Code's own permission flow); and it allows only a call
// whose classification it could read.
func FuzzMain(f *testing.F) {
	dir := f.TempDir()
	f.Setenv("CLAUDE_PROJECT_DIR", dir)
	f.Setenv("OATH_HOME", filepath.Join(dir, "oath-harness"))
	if err := phase.Write(filepath.Join(dir, ".claude", "current-phase.md"), phase.Building); err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{
		`{"hook_event_name":"PreToolUse","oath":{"classify":{"domain":"file_read","risk":"low","risk_value":1},"trust":{"domain":"file_read","score":0.9}}}`,
		`{"hook_event_name":"PreToolUse","oath":{"classify":{"domain":"shell_exec","risk":"high","risk_value":3,"paths":{"write":["/x/src/a"]}},"gate":{"verdict":"allow"}}}`,
		`{"hook_event_name":"PreToolUse","oath":{"classify":{"domain":"x","risk":"critical","risk_value":4},"trust":{"domain":"_global","score":1}}}`,
		`{"hook_event_name":"PreToolUse","oath":{"classify":null,"trust":{"score":-1}}}`,
		`{"hook_event_name":"PostToolUse"}`,
		`{"hook_event_name":"PreToolUse","permission_mode":"bypassPermissions","oath":{"classify":{"domain":"shell_exec","risk":"high","risk_value":3,"needs_person":{"rule":"r","reason":"x"}},"trust":{"domain":"shell_exec","score":1}}}`,
		`{"hook_event_name":"PreToolUse","permission_mode":"acceptEdits","tool_name":"Write","oath":{"classify":{"domain":"test_run","risk":"low","risk_value":1,"parts":[{"argv":["git","push"],"domain":"git_remote","risk":"high"},{"argv":["git","add"],"domain":"git_local","risk":"low"}]},"trust":{"domain":"test_run","score":0.9,"parts":[{"domain":"git_local","score":0.5}]}}}`,
		`{"hook_event_name":"PreToolUse","oath":7}`,
		`[]`, ``, `{"a":1,"a":2}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var stdout, stderr bytes.Buffer
		code := Main(bytes.NewReader(in), &stdout, &stderr, nil)
		switch code {
		case 1:
			if stdout.Len() != 0 || strings.Count(stderr.String(), "\n") != 1 {
				t.Fatalf("exit 1 with stdout %q, stderr %q", stdout.String(), stderr.String())
			}
			return
		case 0:
		default:
			t.Fatalf("exit %d", code)
		}
		var a answer
		if err := json.Unmarshal(stdout.Bytes(), &a); err != nil {
			t.Fatalf("output is not JSON: %v\n%s", err, stdout.Bytes())
		}
		if a.HookEventName != claude.PreToolUse {
			if a.HSO != nil || a.Oath.Decision != nil {
				t.Fatalf("a %q event got a decision: %s", a.HookEventName, stdout.Bytes())
			}
			return
		}
		h, d := a.HSO, a.Oath.Decision
		if h == nil || d == nil || h.HookEventName != claude.PreToolUse || d.Reason == "" {
			t.Fatalf("incomplete answer: %s", stdout.Bytes())
		}
		if (h.PermissionDecisionReason == "") != (h.PermissionDecision == "") {
			t.Fatalf("a decision without a reason, or a reason without a decision: %s", stdout.Bytes())
		}
		if h.PermissionDecision != decide.Permission(d.Answer) {
			t.Fatalf("answer %s sent as %q", d.Answer, h.PermissionDecision)
		}
		switch h.PermissionDecision {
		case claude.Allow:
			c := a.Oath.Classify
			if c == nil || c.Domain == "" || !c.Risk.Valid() || c.Risk == "critical" {
				t.Fatalf("allowed a call without a usable classification: %s", stdout.Bytes())
			}
			if d.Decision != decide.AutoApproved && d.Decision != decide.LoggedOnly {
				t.Fatalf("%s allowed", d.Decision)
			}
		case claude.Ask, "":
			if d.Decision != decide.HumanRequired {
				t.Fatalf("%s answered %q", d.Decision, h.PermissionDecision)
			}
		case claude.Deny:
		default:
			t.Fatalf("permissionDecision %q", h.PermissionDecision)
		}
		if d.Decision == decide.Blocked && h.PermissionDecision != claude.Deny {
			t.Fatal("blocked but not denied")
		}
	})
}
