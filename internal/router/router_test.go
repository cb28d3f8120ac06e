package router

import (
	"testing"

	"github.com/oath-harness/oath-harness/internal/risk"
)

func TestRecommend(t *testing.T) {
	tests := []struct {
		name string
		in   Input
		want Recommendation
	}{
		{"critical block goes to the architect", Input{0.9, risk.Critical, 0.9, "blocked", "shell_exec"}, Recommendation{Opus, Architect}},
		{"low trust goes to the architect (FR-MR-004)", Input{0.755, risk.Low, 0.3, "logged_only", "file_read"}, Recommendation{Opus, Architect}},
		{"trust exactly 0.4 is not low", Input{0.82, risk.Low, 0.4, "auto_approved", "file_read"}, Recommendation{Haiku, Reporter}},
		{"complex judgement: autonomy < 0.6 at high risk", Input{0.58, risk.High, 0.4, "logged_only", "shell_exec"}, Recommendation{Opus, Architect}},
		{"autonomy < 0.6 at low risk is not complex", Input{0.59, risk.Low, 0.5, "logged_only", "file_write"}, Recommendation{Sonnet, Analyst}},
		{"simple low-risk read: haiku reporter", Input{0.93, risk.Low, 0.8, "auto_approved", "git_read"}, Recommendation{Haiku, Reporter}},
		{"simple low-risk test run: haiku worker", Input{0.93, risk.Low, 0.8, "auto_approved", "test_run"}, Recommendation{Haiku, Worker}},
		{"auto-approved high risk: sonnet", Input{0.87, risk.High, 0.8, "auto_approved", "shell_exec"}, Recommendation{Sonnet, Analyst}},
		{"human_required climbs to the human", Input{0.65, risk.Medium, 0.5, "human_required", "shell_exec"}, Recommendation{Sonnet, Human}},
		{"phase block, not critical: sonnet", Input{0.75, risk.Medium, 0.5, "blocked", "shell_exec"}, Recommendation{Sonnet, Analyst}},
	}
	for _, tt := range tests {
		if got := Recommend(tt.in); got != tt.want {
			t.Errorf("%s: Recommend(%+v) = %+v, want %+v", tt.name, tt.in, got, tt.want)
		}
	}
}

func TestEscalate(t *testing.T) {
	want := map[Persona]Persona{Reporter: Worker, Worker: Analyst, Analyst: Architect, Architect: Human, Human: Human, "intern": Human}
	for from, to := range want {
		if got := Escalate(from); got != to {
			t.Errorf("Escalate(%q) = %q, want %q", from, got, to)
		}
	}
	// Walking the chain from the bottom visits every rung once and ends at the human.
	p, seen := Reporter, []Persona{Reporter}
	for p != Human {
		p = Escalate(p)
		seen = append(seen, p)
	}
	if len(seen) != len(Chain) {
		t.Errorf("the walk visited %v, want %v", seen, Chain)
	}
}
