package decide

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/oath-harness/oath-harness/internal/domain"
	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/phase"
	"github.com/oath-harness/oath-harness/internal/risk"
	"github.com/oath-harness/oath-harness/internal/settings"
	"github.com/oath-harness/oath-harness/internal/trust"
)

// TestAppendixB reproduces seed 001 appendix B row for row: the autonomy to the seed's three
// decimals, exactly (after the 9-decimal rounding of Autonomy), and the decision.
func TestAppendixB(t *testing.T) {
	s := settings.Defaults()
	tests := []struct {
		trust    float64
		risk     risk.Level
		value    int
		autonomy string // "" where the seed writes "blocked (always)"
		decision string
	}{
		{0.3, risk.Low, 1, "0.755", LoggedOnly},
		{0.3, risk.Medium, 2, "0.650", LoggedOnly},
		{0.3, risk.High, 3, "0.545", LoggedOnly},
		{0.3, risk.Critical, 4, "", Blocked},
		{0.5, risk.Low, 1, "0.825", AutoApproved},
		{0.5, risk.Medium, 2, "0.750", LoggedOnly},
		{0.5, risk.High, 3, "0.675", LoggedOnly},
		{0.8, risk.Low, 1, "0.930", AutoApproved},
		{0.8, risk.Medium, 2, "0.900", AutoApproved},
		{0.8, risk.High, 3, "0.870", AutoApproved},
	}
	for _, tt := range tests {
		if tt.value != tt.risk.Value() {
			t.Fatalf("table error: %s is %d, not %d", tt.risk, tt.risk.Value(), tt.value)
		}
		a := Autonomy(tt.value, tt.trust, s.Risk)
		if tt.autonomy != "" {
			want, _ := strconv.ParseFloat(tt.autonomy, 64)
			if a != want {
				t.Errorf("Autonomy(trust %v, %s) = %v, want exactly %v", tt.trust, tt.risk, a, want)
			}
		}
		if got := Level(a, tt.risk, s.Autonomy); got != tt.decision {
			t.Errorf("Level(%v, %s) = %s, want %s", a, tt.risk, got, tt.decision)
		}
		// The whole decision agrees in building, where every domain here is allowed.
		d := Decide(Input{Phase: phase.Building, Classify: class("file_write", tt.risk), Trust: trust.Domain{Score: tt.trust}, Settings: s})
		if d.Decision != tt.decision {
			t.Errorf("Decide(trust %v, %s) = %s, want %s (%s)", tt.trust, tt.risk, d.Decision, tt.decision, d.Reason)
		}
	}
}

// TestLevel pins AC-007..010 and the thresholds' edges (AC-009: 0.4 ≤ autonomy ≤ 0.8 is
// logged_only, so exactly 0.8 is not auto-approved).
func TestLevel(t *testing.T) {
	a := settings.Defaults().Autonomy
	tests := []struct {
		autonomy float64
		risk     risk.Level
		want     string
	}{
		{1.0, risk.Critical, Blocked}, // AC-007
		{0.85, risk.Low, AutoApproved},
		{0.6, risk.Medium, LoggedOnly},
		{0.3, risk.High, HumanRequired},
		{0.8, risk.Low, LoggedOnly},
		{0.800000001, risk.Low, AutoApproved},
		{0.8000000000000002, risk.Low, LoggedOnly}, // float noise above 0.8 is 0.8
		{0.4, risk.High, LoggedOnly},
		{0.39999999999999997, risk.High, LoggedOnly}, // float noise below 0.4 is 0.4
		{0.399999999, risk.High, HumanRequired},
		{0.99, "", Blocked}, // an unknown risk is never approved
	}
	for _, tt := range tests {
		if got := Level(tt.autonomy, tt.risk, a); got != tt.want {
			t.Errorf("Level(%v, %q) = %s, want %s", tt.autonomy, tt.risk, got, tt.want)
		}
	}
	// AC-007 through the whole decision: trust 1.0 and critical is blocked.
	d := Decide(Input{Phase: phase.Building, Classify: class("file_read", risk.Critical), Trust: trust.Domain{Score: 1}, Settings: settings.Defaults()})
	if d.Decision != Blocked || !strings.Contains(d.Reason, "critical call is blocked") {
		t.Errorf("critical at trust 1.0: %s (%s)", d.Decision, d.Reason)
	}
}

// TestAutonomyOnThreshold: medium risk at trust 0.6 is exactly 0.8 in decimals, and float64
// computes exactly 0.8 too; it stays logged_only.
func TestAutonomyOnThreshold(t *testing.T) {
	s := settings.Defaults()
	if a := Autonomy(2, 0.6, s.Risk); a != 0.8 || Level(a, risk.Medium, s.Autonomy) != LoggedOnly {
		t.Errorf("Autonomy(medium, 0.6) = %v (%s), want 0.8 and logged_only", a, Level(a, risk.Medium, s.Autonomy))
	}
	if a := Autonomy(4, -5, settings.Risk{Lambda1: 1, Lambda2: 1}); a != 0 {
		t.Errorf("Autonomy is not clamped at 0: %v", a)
	}
	if a := Autonomy(1, 2, s.Risk); a != 1 {
		t.Errorf("Autonomy is not clamped at 1: %v", a)
	}
}

func TestSrcWrite(t *testing.T) {
	tests := []struct {
		writes []string
		want   string
	}{
		{[]string{"/p/src/main.go"}, "/p/src/main.go"},
		{[]string{"/p/docs/a.md", "/p/src"}, "/p/src"},
		{[]string{"src/x.go"}, "src/x.go"},
		{[]string{"/p/docs/../src/x.go"}, "/p/docs/../src/x.go"},
		{[]string{"/p/srcs/x.go", "/p/docs/src/x.md", "/other/src/x.go"}, ""},
		{nil, ""},
	}
	for _, tt := range tests {
		if got := SrcWrite("/p", tt.writes); got != tt.want {
			t.Errorf("SrcWrite(%q) = %q, want %q", tt.writes, got, tt.want)
		}
	}
}

func class(d domain.Domain, l risk.Level, writes ...string) envelope.Classification {
	return envelope.Classification{
		Domain: d, Risk: l, RiskValue: l.Value(),
		Reasons: []envelope.Reason{{Rule: "test-rule", Risk: l, Detail: "a test call"}},
		Paths:   envelope.Paths{Write: writes},
	}
}

func TestDecide(t *testing.T) {
	s := settings.Defaults()
	at := func(score float64) trust.Domain { return trust.Domain{Score: score} }
	tests := []struct {
		name     string
		in       Input
		decision string
		profile  domain.Access
		reason   []string // substrings the reason must hold
		guidance []string
	}{
		{"AC-024 shell_exec is blocked in planning",
			Input{Phase: phase.Planning, Classify: class("shell_exec", risk.Medium), Trust: at(0.9)},
			Blocked, domain.Denied, []string{"blocked in phase planning", "shell_exec is denied", "risk medium (a test call)", "shell_exec trust 0.9"}, []string{"type /building to switch"}},
		{"AC-025 file_write is blocked in auditing",
			Input{Phase: phase.Auditing, Classify: class("file_write", risk.Low), Trust: at(0.9)},
			Blocked, domain.Denied, []string{"blocked in phase auditing", "file_write is denied"}, []string{"type /building to switch"}},
		{"AC-026 shell_exec below 0.8 needs a human in building",
			Input{Phase: phase.Building, Classify: class("shell_exec", risk.Low), Trust: at(0.79)},
			HumanRequired, domain.TrustGated, []string{"trust-gated in phase building", "trust 0.79 is below 0.8"}, []string{"reach auto-approve"}},
		{"trust-gated at exactly 0.8 opens (appendix B: shell_exec high at 0.8 is auto-approved)",
			Input{Phase: phase.Building, Classify: class("shell_exec", risk.High), Trust: at(0.8)},
			AutoApproved, domain.TrustGated, []string{"auto-approved: at shell_exec trust 0.8, a high-risk call (a test call) runs without asking"}, nil},
		{"trust 0.7999999 is printed so that it is visibly below 0.8",
			Input{Phase: phase.Building, Classify: class("git_local", risk.Medium), Trust: at(0.7999)},
			HumanRequired, domain.TrustGated, []string{"trust 0.7999 is below 0.8"}, nil},
		{"FR-TP-004 a write under src/ is blocked in planning whatever the domain",
			Input{Phase: phase.Planning, Classify: class("docs_write", risk.Low, "/p/docs/a.md", "/p/src/a.go"), Trust: at(0.9), ProjectDir: "/p"},
			Blocked, domain.Denied, []string{"writing under src/ (/p/src/a.go)", "file_write_src"}, []string{"type /building to switch"}},
		{"docs/ stays writable in planning",
			Input{Phase: phase.Planning, Classify: class("docs_write", risk.Low, "/p/docs/a.md"), Trust: at(0.5), ProjectDir: "/p"},
			AutoApproved, domain.Allowed, []string{"auto-approved"}, nil},
		{"a write under src/ is not special in building",
			Input{Phase: phase.Building, Classify: class("file_write", risk.Low, "/p/src/a.go"), Trust: at(0.3), ProjectDir: "/p"},
			LoggedOnly, domain.Allowed, []string{"allowed and logged: at file_write trust 0.3, a low-risk call (a test call) runs without asking, and is logged for review"}, []string{"more successful file_write calls reach auto-approve"}},
		{"an unlisted domain is blocked in auditing",
			Input{Phase: phase.Auditing, Classify: class("web", risk.Medium), Trust: at(0.5)},
			Blocked, domain.Denied, []string{"web is not in the auditing profile"}, []string{"type /planning or /building to switch"}},
		{"an unlisted domain is left to trust in planning",
			Input{Phase: phase.Planning, Classify: class("mcp", risk.High), Trust: at(0.05)},
			HumanRequired, domain.Allowed, []string{"human approval required: at mcp trust 0.05, a high-risk call (a test call) needs a person until mcp earns more trust"}, []string{"reach logged-only (allowed without asking)", "reach auto-approve"}},
		{"git_remote is denied in every phase",
			Input{Phase: phase.Building, Classify: class("git_remote", risk.High), Trust: at(1)},
			Blocked, domain.Denied, nil, []string{"no phase allows git_remote"}},
		{"a gate block is final at full trust",
			Input{Phase: phase.Building, Classify: class("file_read", risk.Low), Trust: at(1), Gate: &envelope.GateVerdict{Verdict: "block", Rule: "HARD_BLOCK", Reason: "CLAUDE.md is protected"}},
			Blocked, domain.Allowed, []string{"Core Contract gate: CLAUDE.md is protected"}, []string{"final"}},
		{"a gate allow changes nothing",
			Input{Phase: phase.Building, Classify: class("file_read", risk.Low), Trust: at(0.5), Gate: &envelope.GateVerdict{Verdict: "allow"}},
			AutoApproved, domain.Allowed, nil, nil},
		{"fail closed: unknown gate verdict",
			Input{Phase: phase.Building, Classify: class("file_read", risk.Low), Trust: at(0.5), Gate: &envelope.GateVerdict{Verdict: "maybe"}},
			Blocked, domain.Denied, []string{"cannot decide safely", `"maybe"`}, nil},
		{"fail closed: no domain",
			Input{Phase: phase.Building, Classify: class("", risk.Low), Trust: at(0.5)},
			Blocked, domain.Denied, []string{"no domain"}, nil},
		{"fail closed: risk_value contradicts risk",
			Input{Phase: phase.Building, Classify: envelope.Classification{Domain: "file_read", Risk: risk.Low, RiskValue: 3}, Trust: at(0.5)},
			Blocked, domain.Denied, []string{"risk low but risk_value 3"}, nil},
		{"fail closed: trust above 1",
			Input{Phase: phase.Building, Classify: class("file_read", risk.Low), Trust: at(1.5)},
			Blocked, domain.Denied, []string{"outside [0, 1]"}, nil},
		{"an invalid phase decides as auditing",
			Input{Phase: "", Classify: class("file_write", risk.Low), Trust: at(0.9)},
			Blocked, domain.Denied, []string{"blocked in phase auditing (the default: no phase is set)"}, []string{"type /building to switch"}},
	}
	for _, tt := range tests {
		tt.in.Settings = s
		d := Decide(tt.in)
		if d.Decision != tt.decision || d.Profile != string(tt.profile) {
			t.Errorf("%s: got %s/%s, want %s/%s (reason %q)", tt.name, d.Decision, d.Profile, tt.decision, tt.profile, d.Reason)
		}
		for _, sub := range tt.reason {
			if !strings.Contains(d.Reason, sub) {
				t.Errorf("%s: reason %q lacks %q", tt.name, d.Reason, sub)
			}
		}
		for _, sub := range tt.guidance {
			if !strings.Contains(d.Guidance, sub) {
				t.Errorf("%s: guidance %q lacks %q", tt.name, d.Guidance, sub)
			}
		}
		if d.Reason == "" || d.RecommendedModel == "" || d.Persona == "" {
			t.Errorf("%s: incomplete decision %+v", tt.name, d)
		}
		if d.Decision == AutoApproved && d.Guidance != "" {
			t.Errorf("%s: an auto-approved call has guidance %q", tt.name, d.Guidance)
		}
		if d.Decision != AutoApproved && d.Decision != Blocked && d.Guidance == "" {
			t.Errorf("%s: %s without guidance", tt.name, d.Decision)
		}
	}
}

var reachAuto = regexp.MustCompile(`(\d+) (?:more successful \S+ calls? (?:would )?)?reach auto-approve`)

// TestGuidanceIsExact applies the N successes the guidance names, with trust.Success, and
// checks that the decision becomes auto_approved at N and not at N−1, from new domains, a
// domain warming up, one about to leave the boost and one long past it, trust-gated or not.
func TestGuidanceIsExact(t *testing.T) {
	s := settings.Defaults()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		phase  phase.Phase
		domain domain.Domain
		risk   risk.Level
		start  trust.Domain
	}{
		{"new domain, low risk", phase.Building, "file_read", risk.Low, trust.New(s.Trust, now)},
		{"new domain, high risk", phase.Planning, "mcp", risk.High, trust.New(s.Trust, now)},
		{"new shell_exec, trust-gated", phase.Building, "shell_exec", risk.High, trust.New(s.Trust, now)},
		{"git_local trust-gated at medium risk", phase.Building, "git_local", risk.Medium, trust.Domain{Score: 0.62, TotalOperations: 40}},
		{"about to leave the boost", phase.Building, "file_write", risk.Medium, trust.Domain{Score: 0.42, TotalOperations: 18}},
		{"past the boost", phase.Building, "file_write", risk.High, trust.Domain{Score: 0.5, TotalOperations: 120}},
		{"after failures, very low trust", phase.Building, "test_run", risk.High, trust.Domain{Score: 0.04, TotalOperations: 60, Failures: 20}},
		{"warming up past the boost", phase.Building, "shell_exec", risk.Medium, trust.Domain{Score: 0.55, TotalOperations: 80, IsWarmingUp: true, WarmupRemaining: 5}},
		{"warming up within the boost", phase.Planning, "docs_write", risk.Medium, trust.Domain{Score: 0.2, TotalOperations: 3, IsWarmingUp: true, WarmupRemaining: 2}},
	}
	for _, tt := range tests {
		in := Input{Phase: tt.phase, Classify: class(tt.domain, tt.risk), Trust: tt.start, Settings: s}
		d := Decide(in)
		m := reachAuto.FindStringSubmatch(d.Guidance)
		if m == nil {
			t.Errorf("%s: %s, guidance %q names no count", tt.name, d.Decision, d.Guidance)
			continue
		}
		n, _ := strconv.Atoi(m[1])
		dom := tt.start
		for i := 1; i <= n; i++ {
			dom = trust.Success(dom, s.Trust, now)
			in.Trust = dom
			got := Decide(in).Decision
			if i < n && got == AutoApproved {
				t.Errorf("%s: guidance says %d, but auto-approved after %d (score %v)", tt.name, n, i, dom.Score)
				break
			}
			if i == n && got != AutoApproved {
				t.Errorf("%s: guidance says %d, but after %d successes the decision is %s (score %v)", tt.name, n, n, got, dom.Score)
			}
		}
		t.Logf("%s: %s → %d successes (%s)", tt.name, d.Decision, n, d.Guidance)
	}
}

// TestGuidanceLoggedOnlyIsExact does the same for "N more reach logged-only".
func TestGuidanceLoggedOnlyIsExact(t *testing.T) {
	s := settings.Defaults()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	in := Input{Phase: phase.Building, Classify: class("test_run", risk.High), Trust: trust.Domain{Score: 0.02, TotalOperations: 50}, Settings: s}
	d := Decide(in)
	var n int
	if _, err := fmt.Sscanf(d.Guidance, "%d more successful test_run calls reach logged-only", &n); err != nil {
		t.Fatalf("guidance %q: %v", d.Guidance, err)
	}
	for i := 1; i <= n; i++ {
		in.Trust = trust.Success(in.Trust, s.Trust, now)
		got := Decide(in).Decision
		if (i < n) != (got == HumanRequired) {
			t.Fatalf("guidance says %d, but after %d successes the decision is %s", n, i, got)
		}
	}
}

func TestGuidanceOutOfReach(t *testing.T) {
	s := settings.Defaults()
	s.Autonomy.AutoApproveThreshold = 1
	d := Decide(Input{Phase: phase.Building, Classify: class("file_read", risk.Low), Trust: trust.Domain{Score: 0.3}, Settings: s})
	if !strings.Contains(d.Guidance, "out of reach") {
		t.Errorf("threshold 1: guidance %q, want out of reach", d.Guidance)
	}
}

func TestFmtBelow(t *testing.T) {
	for _, tt := range []struct {
		v, limit float64
		want     string
	}{{0.45, 0.8, "0.45"}, {0.79999, 0.8, "0.79999"}, {0.3999999, 0.4, "0.3999999"}, {0, 0.4, "0"}} {
		if got := fmtBelow(tt.v, tt.limit); got != tt.want {
			t.Errorf("fmtBelow(%v, %v) = %q, want %q", tt.v, tt.limit, got, tt.want)
		}
	}
	if math.IsNaN(Autonomy(2, math.NaN(), settings.Defaults().Risk)) {
		t.Error("Autonomy(NaN trust) is NaN")
	}
}

func BenchmarkDecide(b *testing.B) {
	in := Input{Phase: phase.Building, Classify: class("shell_exec", risk.High), Trust: trust.Domain{Score: 0.3}, Settings: settings.Defaults()}
	for b.Loop() {
		Decide(in)
	}
}

func BenchmarkDecideAutoApproved(b *testing.B) {
	in := Input{Phase: phase.Building, Classify: class("file_read", risk.Low), Trust: trust.Domain{Score: 0.9}, Settings: settings.Defaults()}
	for b.Loop() {
		Decide(in)
	}
}

// TestEscalation: a call that cannot go ahead on its own names the next rung of the chain
// reporter → worker → analyst → architect → human (F-5); one that goes ahead names none.
func TestEscalation(t *testing.T) {
	s := settings.Defaults()
	for _, tc := range []struct {
		name     string
		in       Input
		decision string
		persona  string
		next     string
	}{
		{"asked: the human already holds it", Input{Phase: phase.Building, Classify: class("shell_exec", risk.High), Trust: trust.Domain{Score: 0.3}},
			HumanRequired, "human", "human"},
		{"critical block: the architect's call goes to the human", Input{Phase: phase.Building, Classify: class("shell_exec", risk.Critical), Trust: trust.Domain{Score: 0.9}},
			Blocked, "architect", "human"},
		{"phase block by the analyst goes to the architect", Input{Phase: phase.Building, Classify: class("git_remote", risk.High), Trust: trust.Domain{Score: 0.95}},
			Blocked, "analyst", "architect"},
		{"auto-approved: nothing to escalate", Input{Phase: phase.Building, Classify: class("file_read", risk.Low), Trust: trust.Domain{Score: 0.9}},
			AutoApproved, "reporter", ""},
	} {
		tc.in.Settings = s
		d := Decide(tc.in)
		if d.Decision != tc.decision || d.Persona != tc.persona || d.EscalatesTo != tc.next {
			t.Errorf("%s: decision %s persona %s escalates_to %q, want %s %s %q", tc.name, d.Decision, d.Persona, d.EscalatesTo, tc.decision, tc.persona, tc.next)
		}
	}
}

// A reason is read by a person in a prompt: it says what was found and the trust it was weighed
// against, never the autonomy number in between or a rule's id, and a long finding is cut at a
// word, not inside one (issue 28, item 7).
func TestReasonsInPlainWords(t *testing.T) {
	s := settings.Defaults()
	long := "writes /tmp/project/oath-harness/state/trust-scores.json, which reaches /tmp/project/oath-harness: " +
		strings.Repeat("the agent must not change the harness's own state, ", 12)
	for _, in := range []Input{
		{Phase: phase.Building, Classify: class("file_read", risk.Low), Trust: trust.Domain{Score: 0.9}},
		{Phase: phase.Building, Classify: class("file_write", risk.Medium), Trust: trust.Domain{Score: 0.3}},
		{Phase: phase.Building, Classify: class("mcp", risk.High), Trust: trust.Domain{Score: 0.05}},
		{Phase: phase.Building, Classify: withDetail(class("file_write", risk.Critical), long), Trust: trust.Domain{Score: 0.3}},
	} {
		in.Settings = s
		d := Decide(in)
		for _, bad := range []string{"autonomy", "(rule ", "rule test-rule"} {
			if strings.Contains(d.Reason, bad) {
				t.Errorf("%s/%s: reason %q says %q", in.Classify.Domain, in.Classify.Risk, d.Reason, bad)
			}
		}
		if i := strings.Index(d.Reason, "…"); i >= 0 && (i < 2 || d.Reason[i-1] != ' ') {
			t.Errorf("reason cut inside a word: %q", d.Reason)
		}
		if in.Classify.Risk == risk.Critical && !strings.Contains(d.Reason, "the agent must not change") {
			t.Errorf("the why of a long finding was cut away: %q", d.Reason)
		}
	}
}

func withDetail(c envelope.Classification, detail string) envelope.Classification {
	for i := range c.Reasons {
		c.Reasons[i].Detail = detail
	}
	return c
}
