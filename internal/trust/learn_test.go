package trust

import (
	"testing"

	"github.com/oath-harness/oath-harness/internal/domain"
	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// TestLearn: a failure counts when it means something (issue 13 item 2). A failure of a call that
// changed nothing and reports on the world leaves trust unchanged; a failure of a call that
// writes or runs something, or an interrupt, cuts it (AC-003).
func TestLearn(t *testing.T) {
	cmd := func(d domain.Domain, l risk.Level, argv ...[]string) envelope.Classification {
		return envelope.Classification{Domain: d, Risk: l, RiskValue: l.Value(), Commands: argv}
	}
	parts := func(c envelope.Classification, ps ...envelope.Part) envelope.Classification {
		c.Parts = ps
		return c
	}
	withWrite := func(c envelope.Classification) envelope.Classification {
		c.Paths.Write = []string{"/p/out"}
		return c
	}
	read := envelope.Classification{Domain: "file_read", Risk: risk.Low, RiskValue: 1}
	for _, tt := range []struct {
		name        string
		outcome     string
		interrupted bool
		tool        string
		c           envelope.Classification
		want        string
	}{
		{"a success raises", envelope.OutcomeSuccess, false, "Bash", withWrite(cmd("shell_exec", risk.High, []string{"rm", "x"})), EffectRaised},
		{"grep without a match", envelope.OutcomeFailure, false, "Bash", cmd("file_read", risk.Low, []string{"grep", "x", "f"}), EffectUnchanged},
		{"git log of a missing ref", envelope.OutcomeFailure, false, "Bash", cmd("git_read", risk.Low, []string{"git", "log", "nope"}), EffectUnchanged},
		{"Read of a missing file", envelope.OutcomeFailure, false, "Read", read, EffectUnchanged},
		{"Grep", envelope.OutcomeFailure, false, "Grep", read, EffectUnchanged},
		{"failing tests", envelope.OutcomeFailure, false, "Bash", cmd("test_run", risk.Low, []string{"go", "test", "./..."}), EffectUnchanged},
		{"tests behind cd", envelope.OutcomeFailure, false, "Bash", cmd("test_run", risk.Low, []string{"cd", "sub"}, []string{"go", "test"}), EffectUnchanged},
		{"a refused commit", envelope.OutcomeFailure, false, "Bash", cmd("git_local", risk.Medium, []string{"git", "commit", "-m", "x"}), EffectUnchanged},
		{"git -C dir add, refused", envelope.OutcomeFailure, false, "Bash", cmd("git_local", risk.Medium, []string{"git", "-C", "d", "add", "f"}), EffectUnchanged},
		{"parts: read then test", envelope.OutcomeFailure, false, "Bash", parts(cmd("test_run", risk.Low), envelope.Part{Argv: []string{"ls"}, Domain: "file_read"}, envelope.Part{Argv: []string{"pytest"}, Domain: "test_run"}), EffectUnchanged},
		{"an interrupt cuts even a read", envelope.OutcomeFailure, true, "Bash", cmd("file_read", risk.Low, []string{"grep", "x"}), EffectCut},
		{"a write that failed", envelope.OutcomeFailure, false, "Bash", withWrite(cmd("file_read", risk.Low, []string{"sort", "-o", "out"})), EffectCut},
		{"an Edit that failed", envelope.OutcomeFailure, false, "Edit", withWrite(envelope.Classification{Domain: "file_write", Risk: risk.Low}), EffectCut},
		{"an Edit classified without paths still cuts", envelope.OutcomeFailure, false, "Edit", envelope.Classification{Domain: "file_write", Risk: risk.Low}, EffectCut},
		{"git reset failed", envelope.OutcomeFailure, false, "Bash", cmd("git_local", risk.Medium, []string{"git", "reset", "HEAD~1"}), EffectCut},
		{"a high-risk test run (planted code) cuts", envelope.OutcomeFailure, false, "Bash", cmd("test_run", risk.High, []string{"make", "test"}), EffectCut},
		{"a shell command cuts", envelope.OutcomeFailure, false, "Bash", cmd("shell_exec", risk.Medium, []string{"make"}), EffectCut},
		{"parts: a shell_exec part cuts", envelope.OutcomeFailure, false, "Bash", parts(cmd("test_run", risk.Low), envelope.Part{Argv: []string{"make"}, Domain: "shell_exec"}, envelope.Part{Argv: []string{"pytest"}, Domain: "test_run"}), EffectCut},
		{"no classification cuts", envelope.OutcomeFailure, false, "Bash", envelope.Classification{}, EffectCut},
		{"a web fetch cuts", envelope.OutcomeFailure, false, "WebFetch", envelope.Classification{Domain: "web", Risk: risk.Medium}, EffectCut},
		{"an unknown tool reading cuts", envelope.OutcomeFailure, false, "mcp__x__y", read, EffectCut},
	} {
		l := Learn(tt.outcome, tt.interrupted, tt.tool, tt.c)
		if l.Effect != tt.want || l.Why == "" {
			t.Errorf("%s: %+v, want %s", tt.name, l, tt.want)
		}
	}
}

// TestDropSetup: the parts oath-classify marks as setup are not what the call is for.
func TestDropSetup(t *testing.T) {
	env, err := envelope.Parse([]byte(`{"hook_event_name":"PostToolUseFailure","tool_name":"Bash","oath":{"classify":{"domain":"test_run","risk":"medium","risk_value":2,
		"parts":[{"argv":["source",".venv/bin/activate"],"domain":"shell_exec","risk":"medium","setup":true},{"argv":["pytest"],"domain":"test_run","risk":"low"}]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	var c envelope.Classification
	if _, err := env.Stage(envelope.StageClassify, &c); err != nil {
		t.Fatal(err)
	}
	if l := Learn(envelope.OutcomeFailure, false, "Bash", c); l.Effect != EffectCut {
		t.Fatalf("with the source part: %+v", l)
	}
	DropSetup(&c)
	if len(c.Parts) != 1 || c.Parts[0].Argv[0] != "pytest" {
		t.Fatalf("parts %+v", c.Parts)
	}
	if l := Learn(envelope.OutcomeFailure, false, "Bash", c); l.Effect != EffectUnchanged {
		t.Errorf("failing tests behind source …/activate: %+v", l)
	}
}
