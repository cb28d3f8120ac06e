package decide

import (
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/phase"
	"github.com/oath-harness/oath-harness/internal/risk"
	"github.com/oath-harness/oath-harness/internal/settings"
	"github.com/oath-harness/oath-harness/internal/trust"
)

func yes() *bool { b := true; return &b }
func no() *bool  { b := false; return &b }

// Issue 29 items 3 and 5: earned trust makes a Bash call automatic only when it runs confined
// or was read in full; a call that is neither is never automatic, at any trust.
func TestBoundary(t *testing.T) {
	s := settings.Defaults()
	for _, tc := range []struct {
		name       string
		tool       string
		confined   *bool
		readInFull *bool
		risk       risk.Level
		trust      float64
		want       string
	}{
		{"unread, outside, earned trust", claude.ToolBash, no(), no(), risk.High, 0.99, HumanRequired},
		{"unread, outside, fresh trust, low risk", claude.ToolBash, no(), no(), risk.Low, 0.3, HumanRequired},
		{"unread, confined, earned trust", claude.ToolBash, yes(), no(), risk.High, 0.99, AutoApproved},
		{"unread, confined, fresh trust", claude.ToolBash, yes(), no(), risk.High, 0.3, LoggedOnly},
		{"read in full, outside, earned trust", claude.ToolBash, no(), yes(), risk.High, 0.99, AutoApproved},
		{"facts missing on a Bash call: outside", claude.ToolBash, nil, nil, risk.Low, 0.99, HumanRequired},
		{"facts missing, tool unknown: as before", "", nil, nil, risk.Low, 0.99, AutoApproved},
		{"facts present, tool unknown: Bash", "", no(), no(), risk.Low, 0.99, HumanRequired},
		{"a file tool is not judged here", claude.ToolWrite, nil, nil, risk.Medium, 0.99, AutoApproved},
		{"critical stays blocked", claude.ToolBash, yes(), yes(), risk.Critical, 0.99, Blocked},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := class("file_write", tc.risk)
			c.Confined, c.ReadInFull = tc.confined, tc.readInFull
			c.ConfinedWhy, c.Unread = "the sandbox is off", "make runs what the harness does not read"
			d := Decide(Input{Phase: phase.Building, Tool: tc.tool, Classify: c, Trust: trust.Domain{Score: tc.trust}, Settings: s})
			if d.Decision != tc.want {
				t.Fatalf("decision %s, want %s (%s)", d.Decision, tc.want, d.Reason)
			}
			if tc.want == HumanRequired {
				for _, w := range []string{"outside Claude Code's sandbox (the sandbox is off)", "did not read all it will do (make runs", "no trust makes"} {
					if !strings.Contains(d.Reason, w) {
						t.Errorf("reason %q lacks %q", d.Reason, w)
					}
				}
				if !strings.Contains(d.Guidance, "turn on Claude Code's sandbox") {
					t.Errorf("guidance %q does not say how to turn on the sandbox", d.Guidance)
				}
			}
		})
	}
}

// With autoAllowBashIfSandboxed, Claude Code would run a confined call unasked: a call the
// harness wants a person for is asked, never left to Claude Code.
func TestBoundaryAnswer(t *testing.T) {
	d := envelope.Decision{Decision: HumanRequired}
	for _, tc := range []struct {
		name string
		auto bool
		mode string
		want string
	}{
		{"default mode, no auto-allow: Claude Code's prompt", false, ModeDefault, AnswerDefer},
		{"default mode, auto-allow: ask", true, ModeDefault, AnswerAsk},
		{"dontAsk, auto-allow: ask", true, ModeDontAsk, AnswerAsk},
		{"acceptEdits, auto-allow: ask", true, ModeAcceptEdits, AnswerAsk},
	} {
		c := class("shell_exec", risk.Medium)
		c.SandboxAutoAllow = tc.auto
		if got, _ := Answer(d, c, claude.ToolBash, tc.mode); got != tc.want {
			t.Errorf("%s: answer %s, want %s", tc.name, got, tc.want)
		}
	}
}
