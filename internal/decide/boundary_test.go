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

// Issue 29's fresh-trust goal: no write or loss outside the project runs without a person. A
// Bash call outside the sandbox that the classifier read in full (so rule 6 lets trust decide)
// but that writes outside the project is human_required at any trust; temporary directories
// and the shell's devices are not outside, except under the home directory. Measured with
// scripts/bench-attacks.sh: `mv ~/Documents /tmp/old-docs` ran at fresh trust, sandbox off.
func TestWritesOutsideTheProject(t *testing.T) {
	s := settings.Defaults()
	for _, tc := range []struct {
		name     string
		tool     string
		confined *bool
		writes   []string
		want     string
	}{
		{"mv of a folder in the home directory", claude.ToolBash, no(), []string{"/tmp/old-docs", "/home/p/Documents"}, HumanRequired},
		{"a start-up file", claude.ToolBash, no(), []string{"/home/p/.bashrc"}, HumanRequired},
		{"a system directory", claude.ToolBash, no(), []string{"/usr/local/bin/bash"}, HumanRequired},
		{"a sibling of the project", claude.ToolBash, no(), []string{"/work/other/x"}, HumanRequired},
		{"everything under a folder", claude.ToolBash, no(), []string{"/home/p/other/**"}, HumanRequired},
		{"the home directory inside /tmp is still outside", claude.ToolBash, no(), []string{"/tmp/h/notes.txt"}, HumanRequired},
		{"inside the project", claude.ToolBash, no(), []string{"/work/proj/build/out"}, AutoApproved},
		{"a temporary file", claude.ToolBash, no(), []string{"/tmp/x", "/dev/null"}, AutoApproved},
		{"/tmp itself", claude.ToolBash, no(), []string{"/tmp"}, HumanRequired},
		{"confined: the sandbox stops it", claude.ToolBash, yes(), []string{"/home/p/.bashrc"}, AutoApproved},
		{"a file tool is judged by the classifier", claude.ToolWrite, nil, []string{"/home/p/x"}, AutoApproved},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := class("file_write", risk.Medium, tc.writes...)
			c.Confined, c.ReadInFull = tc.confined, yes()
			home := "/home/p"
			if strings.Contains(tc.name, "inside /tmp") {
				home = "/tmp/h"
			}
			d := Decide(Input{Phase: phase.Building, Tool: tc.tool, Classify: c, Trust: trust.Domain{Score: 0.99}, Settings: s, ProjectDir: "/work/proj", Home: home})
			if d.Decision != tc.want {
				t.Fatalf("decision %s, want %s (%s)", d.Decision, tc.want, d.Reason)
			}
			if tc.want == HumanRequired && !strings.Contains(d.Reason, "outside the project") {
				t.Errorf("reason %q does not say the call writes outside the project", d.Reason)
			}
		})
	}
}
