package envelope

import (
	"github.com/oath-harness/oath-harness/internal/domain"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// Stage names: the keys under "oath". Field names below are stable (DESIGN.md "Field names"):
// tests, scripts and users rely on them. A stage may add fields to its own type; renaming one is
// a breaking change.
const (
	StageClassify = "classify"
	StageGate     = "gate"
	StageTrust    = "trust"
	StageDecision = "decision"
)

// Classification is oath.classify: what the call is and how risky.
type Classification struct {
	Domain    domain.Domain `json:"domain"`
	Risk      risk.Level    `json:"risk"`
	RiskValue int           `json:"risk_value"` // 1–4, Risk.Value()
	Reasons   []Reason      `json:"reasons"`
	Commands  [][]string    `json:"commands"` // each simple command's argv after unwrapping
	Paths     Paths         `json:"paths"`
	// NeedsPerson is set when the call belongs to the class that always needs a person
	// (DESIGN.md): it is answered "ask" at any trust, never auto-approved or logged only.
	NeedsPerson *Person `json:"needs_person,omitempty"`
	// Parts are the call's simple commands judged one by one, so that the phase profile can be
	// applied to every part: a git_remote part is denied in building whatever the others are.
	Parts []Part `json:"parts,omitempty"`

	// The boundary (DESIGN.md "The boundary"), for a Bash call; nil for other tools.
	//
	// Confined: the call runs inside Claude Code's sandbox (on in the merged settings, able to
	// start here, no dangerouslyDisableSandbox, not an excluded command); ConfinedWhy says why
	// or why not, in plain words.
	Confined    *bool  `json:"confined,omitempty"`
	ConfinedWhy string `json:"confined_why,omitempty"`
	// Bounded (for a confined call): no setting adds a writable path outside the project and
	// the harness's files inside it are denied to writes, so the call can write only the
	// project and its temporary directory: a write target or a command name that cannot be
	// known statically is code not read, not a catastrophe. BoundedWhy says why or why not.
	Bounded    *bool  `json:"bounded,omitempty"`
	BoundedWhy string `json:"bounded_why,omitempty"`
	// SandboxAutoAllow: Claude Code may run the call without asking (its sandbox is on with
	// autoAllowBashIfSandboxed, or its settings cannot be read): a call that needs a person
	// must be asked, not left to Claude Code.
	SandboxAutoAllow bool `json:"sandbox_auto_allow,omitempty"`
	// ReadInFull: the classifier read everything the call will do: no program whose code or
	// writes it does not model, no code built at run time, no write to a target it cannot
	// know. False unless it positively knows (fail closed). Earned trust makes a Bash call
	// automatic only when it is confined or read in full.
	ReadInFull *bool `json:"read_in_full,omitempty"`
	// Unread says, when ReadInFull is false, the first thing the classifier did not read.
	Unread string `json:"unread,omitempty"`
}

// IsConfined reports whether the classification says the call runs confined.
func (c Classification) IsConfined() bool { return c.Confined != nil && *c.Confined }

// IsReadInFull reports whether the classification says everything the call does was read.
func (c Classification) IsReadInFull() bool { return c.ReadInFull != nil && *c.ReadInFull }

// Person says why a call always needs a person: what it would lose, send or change, in words
// a person understands. No trust changes that answer.
type Person struct {
	Rule   string `json:"rule"`
	Reason string `json:"reason"`
}

// Part is one simple command of a call, judged on its own.
type Part struct {
	Argv   []string      `json:"argv"`
	Dir    string        `json:"dir,omitempty"` // where it runs, when known and not the call's cwd
	Domain domain.Domain `json:"domain"`
	Risk   risk.Level    `json:"risk"`
	// Setup marks a command that only prepares the shell for the main one (cd, export,
	// source …/activate): it neither decides the call's domain nor gates it.
	Setup bool `json:"setup,omitempty"`

	// What the part changes, as oath-classify found it: oath-gate judges a Bash call from these
	// alone. Every zero value is the cautious one (an older or partial output is a change).

	// ReadOnly: the command changes nothing by itself and runs no other program
	// (command.ReadOnly, the table's allow list); a redirection of the call is in paths.write.
	ReadOnly bool `json:"read_only,omitempty"`
	// DirUnknown: the directory it runs in is not one path known statically (cd "$X", a cd
	// in one branch only); Dir is then empty.
	DirUnknown bool `json:"dir_unknown,omitempty"`
	// Writes are the absolute paths it writes, creates, moves or deletes, resolved against the
	// directory it runs in. "DIR/**" is a write to the whole tree (rm -r DIR, mv DIR, chmod -R).
	Writes []string `json:"writes,omitempty"`
	// WritesUnknown: it may write files that Writes does not name: a program whose writes
	// oath-classify does not model (an interpreter, a build tool, an unknown program) or a
	// target that cannot be known statically (rm "$X"). Any path among its arguments may be
	// one it changes.
	WritesUnknown bool `json:"writes_unknown,omitempty"`
}

// Reason is one rule that matched.
type Reason struct {
	Rule    string     `json:"rule"`
	Command string     `json:"command,omitempty"`
	Risk    risk.Level `json:"risk"`
	Detail  string     `json:"detail,omitempty"`
}

// Paths lists the files a call reads and writes, absolute (resolved against the event's cwd).
type Paths struct {
	Read  []string `json:"read"`
	Write []string `json:"write"`
	// WriteUnknown: the call writes a file whose name cannot be known statically (a
	// redirection to "$F", rm "$X"): what it changes is not all in Write.
	WriteUnknown bool `json:"write_unknown,omitempty"`
}

// Gate verdicts.
const (
	VerdictAllow = "allow"
	VerdictBlock = "block"
)

// GateVerdict is oath.gate: whether the Core Contract (seed 000) forbids the call.
type GateVerdict struct {
	Verdict string `json:"verdict"` // allow | block
	Rule    string `json:"rule"`
	Reason  string `json:"reason"`
}

// Outcomes of a tool call, as oath-trust record learns them.
const (
	OutcomeSuccess = "success"
	OutcomeFailure = "failure"
)

// Trust is oath.trust: the trust the call's domain has earned.
type Trust struct {
	Domain          domain.Domain `json:"domain"`
	Score           float64       `json:"score"` // the score the decision uses
	ScoreBefore     *float64      `json:"score_before,omitempty"`
	ScoreAfter      *float64      `json:"score_after,omitempty"`
	Outcome         string        `json:"outcome,omitempty"` // success | failure, after record
	Successes       int           `json:"successes"`
	Failures        int           `json:"failures"`
	TotalOperations int           `json:"total_operations"`
	IsWarmingUp     bool          `json:"is_warming_up"`
	WarmupRemaining int           `json:"warmup_remaining"`
	Stale           bool          `json:"stale,omitempty"` // the store was locked: the last readable value
	// Effect is what record did with the outcome (raised, cut, unchanged) and EffectReason why:
	// a failure of a call that changed nothing leaves trust as it was.
	Effect       string `json:"effect,omitempty"`
	EffectReason string `json:"effect_reason,omitempty"`
}

// The four decisions (seed 001 §3.1).
const (
	DecisionAutoApproved  = "auto_approved"
	DecisionLoggedOnly    = "logged_only"
	DecisionHumanRequired = "human_required"
	DecisionBlocked       = "blocked"
)

// Decision is oath.decision: what should happen, and why.
type Decision struct {
	Decision         string  `json:"decision"`
	Autonomy         float64 `json:"autonomy"`
	Phase            string  `json:"phase"`
	Profile          string  `json:"profile"` // allowed | trust_gated | blocked
	Reason           string  `json:"reason"`
	Guidance         string  `json:"guidance,omitempty"`
	RecommendedModel string  `json:"recommended_model"`
	Persona          string  `json:"persona"`
	// EscalatesTo is the next rung of the escalation chain (reporter → worker → analyst →
	// architect → human) for a call that cannot go ahead on its own: human_required or blocked.
	EscalatesTo string `json:"escalates_to,omitempty"`
	// Answer is what Claude Code was told: allow, ask, deny, or defer (no decision: Claude
	// Code's own permission flow, with the person's rules, decides).
	Answer string `json:"answer,omitempty"`
}
