package audit

import (
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/envelope"
)

// TestSummaryTellsAskedFromDeferred: a human_required call left to Claude Code (answer defer)
// may have run on the person's allow rule, so the summary does not count it as a person asked.
func TestSummaryTellsAskedFromDeferred(t *testing.T) {
	call := func(answer string) Entry {
		return Entry{Timestamp: "2026-02-23T10:00:00Z", SessionID: "s", Event: claude.PreToolUse,
			ToolName: ptr("Bash"), Domain: ptr("shell_exec"), Decision: ptr(envelope.DecisionHumanRequired), Answer: ptr(answer)}
	}
	s := Summarize([]Entry{call("ask"), call("defer"), call("defer")}, 0)
	d := s.Domains["shell_exec"]
	if d.Decisions[envelope.DecisionHumanRequired] != 3 || d.Deferred != 2 {
		t.Fatalf("human_required %d, deferred %d; want 3 and 2", d.Decisions[envelope.DecisionHumanRequired], d.Deferred)
	}
	text := s.Text()
	if !strings.Contains(text, "shell_exec        3        0       0      1       2        0       0") {
		t.Errorf("the table does not show 1 asked and 2 left to Claude Code:\n%s", text)
	}
}

// TestUnchangedTrustSaysSo: a score that did not move reads "unchanged", not "0.3→0.3".
func TestUnchangedTrustSaysSo(t *testing.T) {
	e := Entry{Timestamp: "2026-02-23T10:00:00Z", SessionID: "s", Event: claude.PostToolUseFailure,
		ToolName: ptr("Bash"), Domain: ptr("file_read"), TrustScoreBefore: ptr(0.3), TrustScoreAfter: ptr(0.3)}
	if got := Format(e); !strings.Contains(got, "trust 0.30 unchanged") || strings.Contains(got, "→") {
		t.Errorf("Format = %q, want the trust said to be unchanged", got)
	}
}

// The line a person reads says the risk, the trust and the decision; the autonomy score between
// them is arithmetic the JSON keeps (issue 28, item 7).
func TestFormatLeavesAutonomyToTheJSON(t *testing.T) {
	e := Entry{Timestamp: "2026-02-23T10:00:00Z", SessionID: "s", Event: claude.PreToolUse,
		ToolName: ptr("Bash"), Domain: ptr("shell_exec"), RiskCategory: ptr("high"),
		TrustScoreBefore: ptr(0.3), AutonomyScore: ptr(0.41), Decision: ptr("human_required")}
	got := Format(e)
	if strings.Contains(got, "autonomy") || strings.Contains(got, "0.41") || !strings.Contains(got, "shell_exec/high trust 0.30 human_required") {
		t.Errorf("Format = %q, want risk, trust and decision without the autonomy score", got)
	}
	if label, _ := styleOf("human_required"); label != "needed a person" {
		t.Errorf("report label for human_required = %q: such a call may have been left to Claude Code's prompt, not asked by the harness", label)
	}
}
