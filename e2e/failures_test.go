package e2e

import (
	"testing"
)

// TestFailuresCountWhenTheyMeanSomething: through the real Claude Code and hooks, a failed read
// (a file that is not there) leaves trust as it was, a failed command that writes (cp of a file
// that is not there, run under the person's allow rule) cuts it (issue 13 item 2).
func TestFailuresCountWhenTheyMeanSomething(t *testing.T) {
	t.Parallel()
	p := newProject(t, sampleProject)
	p.setPhase("building")
	p.personRules([]string{"Bash(cp:*)"}, nil)
	s := p.run("look and copy",
		read(p.path("README.md")),
		read(p.path("no-such-file.txt")),
		read(p.path("main.go")),
		bash("cp no-such-file.txt copy.txt"))
	if !s.Results[1].IsError || !s.Results[3].IsError {
		t.Fatalf("the read of a missing file and the copy must fail: %+v", s.Results)
	}
	read, ok := p.outcome(toolUseID(1))
	if !ok || read.Event != "PostToolUseFailure" || str(read.Outcome) != "failure" {
		t.Fatalf("the failed read must be recorded as a failure: %+v (found %v)", read, ok)
	}
	if read.TrustScoreBefore == nil || read.TrustScoreAfter == nil || *read.TrustScoreAfter != *read.TrustScoreBefore {
		t.Errorf("a failed read changed nothing: trust must stay, got %+v", read)
	}
	edit, ok := p.outcome(toolUseID(3))
	if !ok || edit.Event != "PostToolUseFailure" {
		t.Fatalf("the failed copy must be recorded: %+v (found %v)", edit, ok)
	}
	if edit.TrustScoreBefore == nil || edit.TrustScoreAfter == nil || !(*edit.TrustScoreAfter < *edit.TrustScoreBefore) {
		t.Errorf("a failed copy cuts trust: %+v", edit)
	}
	if score, ok := p.trustScore(str(edit.Domain)); !ok || score != *edit.TrustScoreAfter {
		t.Errorf("the trust state must hold the cut score: %v %v", score, ok)
	}
}
