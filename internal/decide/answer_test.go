package decide

import (
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/domain"
	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/phase"
	"github.com/oath-harness/oath-harness/internal/risk"
	"github.com/oath-harness/oath-harness/internal/settings"
	"github.com/oath-harness/oath-harness/internal/trust"
)

// TestAnswer pins the host mapping (DESIGN.md, measured on Claude Code 2.1.330 in
// e2e.TestPermissionModes): approvals allow, blocks deny, the always-a-person class asks in every
// mode, any other human_required call is left to Claude Code where it keeps a person in the
// loop, and asked where it would not.
func TestAnswer(t *testing.T) {
	human := envelope.Decision{Decision: HumanRequired}
	person := class("git_local", risk.High)
	person.NeedsPerson = &envelope.Person{Rule: "discards-work", Reason: "discards uncommitted changes"}
	write := class("shell_exec", risk.High, "/p/build")
	noWrite := class("shell_exec", risk.High)
	for _, tt := range []struct {
		name  string
		d     envelope.Decision
		c     envelope.Classification
		tool  string
		mode  string
		want  string
		words string
	}{
		{"auto-approved allows", envelope.Decision{Decision: AutoApproved}, noWrite, "Bash", ModeBypass, AnswerAllow, ""},
		{"logged-only allows", envelope.Decision{Decision: LoggedOnly}, noWrite, "Bash", ModeDefault, AnswerAllow, ""},
		{"blocked denies", envelope.Decision{Decision: Blocked}, person, "Bash", ModeDefault, AnswerDeny, ""},
		{"an unknown decision denies", envelope.Decision{Decision: "maybe"}, noWrite, "Bash", ModeDefault, AnswerDeny, ""},
		{"the class asks in default mode", human, person, "Bash", ModeDefault, AnswerAsk, "whatever your allow rules"},
		{"the class asks in dontAsk", human, person, "Bash", ModeDontAsk, AnswerAsk, "whatever your allow rules"},
		{"the class asks in bypassPermissions", human, person, "Bash", ModeBypass, AnswerAsk, "whatever your allow rules"},
		{"default defers", human, noWrite, "Bash", ModeDefault, AnswerDefer, "your allow and deny rules apply"},
		{"manual is default", human, noWrite, "Bash", ModeManual, AnswerDefer, "your allow and deny rules apply"},
		{"no mode is default", human, noWrite, "Bash", "", AnswerDefer, "your allow and deny rules apply"},
		{"dontAsk defers", human, noWrite, "Bash", ModeDontAsk, AnswerDefer, "only if one of your allow rules covers it"},
		{"acceptEdits asks for a command that writes", human, write, "Bash", ModeAcceptEdits, AnswerAsk, "accept-edits mode"},
		{"acceptEdits asks for an edit tool", human, class("file_write", risk.High), "Edit", ModeAcceptEdits, AnswerAsk, "accept-edits mode"},
		{"acceptEdits defers a command that writes nothing", human, noWrite, "Bash", ModeAcceptEdits, AnswerDefer, "asks you otherwise"},
		{"bypassPermissions asks", human, noWrite, "Bash", ModeBypass, AnswerAsk, "bypass-permissions mode"},
		// Auto mode (issue 26 item 1): the classifier decides all but the class and blocks.
		{"auto defers a human_required call to its classifier", human, noWrite, "Bash", ModeAuto, AnswerDefer, "its classifier decides"},
		{"auto defers a command that writes", human, write, "Bash", ModeAuto, AnswerDefer, "its classifier decides"},
		{"auto defers an approval (a hook's allow does not skip the classifier)", envelope.Decision{Decision: AutoApproved}, noWrite, "Bash", ModeAuto, AnswerDefer, "its classifier decides"},
		{"auto defers a logged-only call", envelope.Decision{Decision: LoggedOnly}, noWrite, "Edit", ModeAuto, AnswerDefer, "its classifier decides"},
		{"auto asks the class", human, person, "Bash", ModeAuto, AnswerAsk, "whatever your allow rules"},
		{"auto denies a block", envelope.Decision{Decision: Blocked}, noWrite, "Bash", ModeAuto, AnswerDeny, ""},
		{"plan asks for a command", human, noWrite, "Bash", ModePlan, AnswerAsk, "plan mode"},
		{"plan defers an edit tool (plan mode refuses it)", human, class("file_write", risk.High), "Write", ModePlan, AnswerDefer, "refuses file edits"},
		{"an unknown mode asks", human, noWrite, "Bash", "yolo", AnswerAsk, `"yolo" is unknown`},
	} {
		got, why := Answer(tt.d, tt.c, tt.tool, tt.mode)
		if got != tt.want || !strings.Contains(why, tt.words) {
			t.Errorf("%s: got %s (%q), want %s (%q)", tt.name, got, why, tt.want, tt.words)
		}
		if p := Permission(got); (p == "") != (got == AnswerDefer) {
			t.Errorf("%s: Permission(%s) = %q", tt.name, got, p)
		}
	}
}

// TestAlwaysAPerson: the class is human_required at any trust and in every phase that does not
// block the call; blocks still win (issue 12 item 4).
func TestAlwaysAPerson(t *testing.T) {
	s := settings.Defaults()
	c := class("git_local", risk.High)
	c.NeedsPerson = &envelope.Person{Rule: "discards-work", Reason: "git reset --hard discards uncommitted changes in main.go"}
	for _, score := range []float64{0, 0.3, 0.8, 0.9999} {
		d := Decide(Input{Phase: phase.Building, Classify: c, Trust: trust.Domain{Score: score}, Settings: s})
		if d.Decision != HumanRequired || !strings.Contains(d.Reason, "discards uncommitted changes in main.go") || !strings.Contains(d.Reason, "no trust changes this") {
			t.Errorf("trust %v: %s (%s)", score, d.Decision, d.Reason)
		}
		if d.Guidance == "" || strings.Contains(d.Guidance, "more successful") {
			t.Errorf("trust %v: guidance %q promises what trust cannot give", score, d.Guidance)
		}
	}
	if d := Decide(Input{Phase: phase.Auditing, Classify: c, Trust: trust.Domain{Score: 0.99}, Settings: s}); d.Decision != Blocked {
		t.Errorf("git_local in auditing: %s, want blocked (the phase denies it)", d.Decision)
	}
	crit := c
	crit.Risk, crit.RiskValue = risk.Critical, 4
	if d := Decide(Input{Phase: phase.Building, Classify: crit, Trust: trust.Domain{Score: 0.99}, Settings: s}); d.Decision != Blocked {
		t.Errorf("critical: %s, want blocked", d.Decision)
	}
}

// TestParts: the phase profile is applied to every part (issue 12 item 5); the strictest wins
// and the reason names the part.
func TestParts(t *testing.T) {
	s := settings.Defaults()
	part := func(d domain.Domain, argv ...string) envelope.Part {
		return envelope.Part{Argv: argv, Domain: d, Risk: risk.Low}
	}
	withParts := func(d domain.Domain, l risk.Level, parts ...envelope.Part) envelope.Classification {
		c := class(d, l)
		c.Parts = parts
		return c
	}
	for _, tt := range []struct {
		name      string
		in        Input
		decision  string
		profile   domain.Access
		reason    string
		guidance  string
		noMention string
	}{
		{"a git_remote part is denied in building at full trust",
			Input{Phase: phase.Building, Classify: withParts("shell_exec", risk.High, part("git_remote", "git", "push", "u"), part("shell_exec", "rm", "-rf", "build")), Trust: trust.Domain{Score: 0.99}},
			Blocked, domain.Denied, "git_remote (the part `git push u`) is denied by the building profile", "no phase allows git_remote", ""},
		{"a shell_exec part in planning is denied; the phases allowing every part are offered",
			Input{Phase: phase.Planning, Classify: withParts("file_read", risk.High, part("file_read", "cat", "a"), part("shell_exec", "make")), Trust: trust.Domain{Score: 0.9}},
			Blocked, domain.Denied, "shell_exec (the part `make`)", "type /building to switch", ""},
		{"a trust-gated part of another domain gates with its own trust",
			Input{Phase: phase.Building, Classify: withParts("test_run", risk.Low, part("test_run", "go", "test"), part("git_local", "git", "commit")), Trust: trust.Domain{Score: 0.95},
				PartTrust: map[domain.Domain]trust.Domain{"git_local": {Score: 0.5, TotalOperations: 30}}},
			HumanRequired, domain.TrustGated, "git_local (the part `git commit`) is trust-gated in phase building and git_local trust 0.5 is below 0.8", "more successful git_local calls open it", ""},
		{"a part of another domain at 0.8 opens its gate",
			Input{Phase: phase.Building, Classify: withParts("test_run", risk.Low, part("test_run", "go", "test"), part("git_local", "git", "commit")), Trust: trust.Domain{Score: 0.95},
				PartTrust: map[domain.Domain]trust.Domain{"git_local": {Score: 0.8}}},
			AutoApproved, domain.TrustGated, "auto-approved", "", ""},
		{"an unknown part domain's trust is the initial score",
			Input{Phase: phase.Building, Classify: withParts("test_run", risk.Low, part("shell_exec", "make")), Trust: trust.Domain{Score: 0.95}},
			HumanRequired, domain.TrustGated, "shell_exec trust 0.3 is below 0.8", "", ""},
		{"a part in the call's own domain gates with the call's trust",
			Input{Phase: phase.Building, Classify: withParts("git_local", risk.Medium, part("git_local", "git", "add", "."), part("git_local", "git", "commit")), Trust: trust.Domain{Score: 0.85}},
			AutoApproved, domain.TrustGated, "auto-approved", "", ""},
		{"parts of allowed domains change nothing (appendix B holds)",
			Input{Phase: phase.Building, Classify: withParts("file_write", risk.High, part("file_write", "cp", "a", "b"), part("file_read", "ls")), Trust: trust.Domain{Score: 0.3}},
			LoggedOnly, domain.Allowed, "allowed and logged: at file_write trust 0.3, a high-risk call", "", "the part"},
		{"a part without a domain is not judged",
			Input{Phase: phase.Building, Classify: withParts("file_read", risk.Low, envelope.Part{Argv: []string{"x"}}), Trust: trust.Domain{Score: 0.5}},
			AutoApproved, domain.Allowed, "auto-approved", "", ""},
	} {
		tt.in.Settings = s
		d := Decide(tt.in)
		if d.Decision != tt.decision || d.Profile != string(tt.profile) || !strings.Contains(d.Reason, tt.reason) || !strings.Contains(d.Guidance, tt.guidance) {
			t.Errorf("%s: %s/%s\nreason %q\nguidance %q", tt.name, d.Decision, d.Profile, d.Reason, d.Guidance)
		}
		if tt.noMention != "" && strings.Contains(d.Reason, tt.noMention) {
			t.Errorf("%s: reason %q mentions %q", tt.name, d.Reason, tt.noMention)
		}
	}
}

// TestMessagesCiteNoIDs: what people read carries no requirement ids and no word of the seeds.
func TestMessagesCiteNoIDs(t *testing.T) {
	s := settings.Defaults()
	for _, c := range []envelope.Classification{class("shell_exec", risk.Critical), class("shell_exec", risk.High), class("git_remote", risk.Low), class("web", risk.Low)} {
		for _, p := range phase.All {
			d := Decide(Input{Phase: p, Classify: c, Trust: trust.Domain{Score: 0.3}, Settings: s})
			for _, text := range []string{d.Reason, d.Guidance} {
				if strings.Contains(text, "FR-") || strings.Contains(text, "AC-") || strings.Contains(strings.ToLower(text), "seed") {
					t.Errorf("%s/%s: %q", p, c.Domain, text)
				}
			}
		}
	}
}

// Inside Claude Code's sandbox with autoAllowBashIfSandboxed, a call that only lacks earned
// trust is left to Claude Code, which runs it confined without asking: the boundary, not a
// person, holds it (issue 29). What the boundary cannot stop is still asked; a call whose
// confinement cannot be established is asked; and no note goes to a person nobody asks.
func TestSandboxAutoAllowedCalls(t *testing.T) {
	yes, no := true, false
	human := envelope.Decision{Decision: HumanRequired, Reason: "human approval required: at shell_exec trust 0.3, a high-risk call"}
	for _, tt := range []struct {
		name   string
		c      envelope.Classification
		mode   string
		answer string
		note   bool
	}{
		{"confined, trust not yet earned", envelope.Classification{Confined: &yes, SandboxAutoAllow: true}, ModeDefault, AnswerDefer, false},
		{"confined, a loss of the project's work", envelope.Classification{Confined: &yes, SandboxAutoAllow: true, NeedsPerson: &envelope.Person{Rule: "loses_work", Reason: "deletes WORK.md"}}, ModeDefault, AnswerAsk, false},
		{"auto-allow claimed, confinement unknown", envelope.Classification{Confined: &no, SandboxAutoAllow: true}, ModeDefault, AnswerAsk, false},
		{"no auto-allow: Claude Code's prompt", envelope.Classification{Confined: &yes}, ModeDefault, AnswerDefer, true},
	} {
		a, why := Answer(human, tt.c, "Bash", tt.mode)
		d := human
		d.Answer, d.Reason = a, human.Reason+"; "+why
		if a != tt.answer || (Note(d, tt.mode) != "") != tt.note {
			t.Errorf("%s: answer %s (%s), note %q; want %s, note %v", tt.name, a, why, Note(d, tt.mode), tt.answer, tt.note)
		}
	}
}
