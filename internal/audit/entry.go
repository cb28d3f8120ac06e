// Package audit builds, appends, verifies and reads the audit trail: one masked JSON line per
// hook event in audit/YYYY-MM-DD.jsonl (UTC), each line carrying the hash of the line before it.
//
// Entry building is pure (FromEnvelope), the chain does the locking and the files (Log), and the
// readers (Verify, Summarize, Format, Report) only read.
package audit

import (
	"encoding/json"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/domain"
	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/mask"
)

// Version of the line format. A reader refuses nothing: lines of another version are shown as
// they are; the chain does not depend on the fields.
const Version = 1

// Outcome of a tool call as the trail records it; pending until the Post event arrives. A call
// denied at PreToolUse gets no Post event, so its line stays pending: its decision says why.
const OutcomePending = "pending"

// MaxResponse bounds the masked tool_response kept in a line. A Read of a large file returns the
// whole file; the trail keeps its head and its size, not a copy of the project.
const MaxResponse = 16 << 10

// Entry is one line of the trail. The first eleven fields are the seed's schema (002 §B-1-3,
// 001 §5.3) and are always present, null where the event or the stages that ran do not say
// (a session line has no tool; `oath-classify | oath-audit record` has no decision).
type Entry struct {
	Timestamp        string          `json:"timestamp"`
	SessionID        string          `json:"session_id"`
	ToolName         *string         `json:"tool_name"`
	ToolInput        json.RawMessage `json:"tool_input"` // masked
	Domain           *string         `json:"domain"`
	RiskCategory     *string         `json:"risk_category"`
	TrustScoreBefore *float64        `json:"trust_score_before"`
	AutonomyScore    *float64        `json:"autonomy_score"`
	Decision         *string         `json:"decision"`
	Outcome          *string         `json:"outcome"` // pending | success | failure; null on session lines
	TrustScoreAfter  *float64        `json:"trust_score_after"`

	Event     string  `json:"event"` // hook_event_name
	ToolUseID *string `json:"tool_use_id,omitempty"`
	// PromptID is Claude Code's prompt.id, on every event after the session's first prompt:
	// with session_id and tool_use_id it joins a line to Claude Code's OpenTelemetry events.
	PromptID         *string                `json:"prompt_id,omitempty"`
	RecommendedModel *string                `json:"recommended_model,omitempty"`
	Phase            *string                `json:"phase,omitempty"`
	Reasons          []envelope.Reason      `json:"reasons,omitempty"`         // classify's rules, masked
	NeedsPerson      *envelope.Person       `json:"needs_person,omitempty"`    // why the call always needs a person, masked
	Parts            []envelope.Part        `json:"parts,omitempty"`           // each simple command of a Bash call, masked
	Paths            *envelope.Paths        `json:"paths,omitempty"`           // the files read and written, masked
	Confined         *bool                  `json:"confined,omitempty"`        // a Bash call runs inside Claude Code's sandbox
	ConfinedWhy      *string                `json:"confined_why,omitempty"`    // why or why not, masked
	Bounded          *bool                  `json:"bounded,omitempty"`         // a confined call can write only the project and its temporary directory
	BoundedWhy       *string                `json:"bounded_why,omitempty"`     // why or why not, masked
	ReadInFull       *bool                  `json:"read_in_full,omitempty"`    // a Bash call's every effect was read
	Unread           *string                `json:"unread,omitempty"`          // what was not read, masked
	DecisionReason   *string                `json:"decision_reason,omitempty"` // masked
	Guidance         *string                `json:"guidance,omitempty"`        // what would change the answer, masked
	Answer           *string                `json:"answer,omitempty"`          // what Claude Code was told: allow, ask, deny, defer
	TrustEffect      *string                `json:"trust_effect,omitempty"`    // raised, cut or unchanged (Post events)
	EffectReason     *string                `json:"effect_reason,omitempty"`   // why, masked
	Gate             *envelope.GateVerdict  `json:"gate,omitempty"`            // reason masked
	ToolResponse     json.RawMessage        `json:"tool_response,omitempty"`   // masked, bounded
	Error            *string                `json:"error,omitempty"`           // PostToolUseFailure, masked
	DurationMS       *json.Number           `json:"duration_ms,omitempty"`
	Source           *string                `json:"source,omitempty"`        // SessionStart, ConfigChange
	ConfigFile       *string                `json:"config_file,omitempty"`   // ConfigChange: the settings file that changed
	DeniedReason     *string                `json:"denied_reason,omitempty"` // PermissionDenied: auto mode's classifier's reason, masked
	EndReason        *string                `json:"end_reason,omitempty"`    // SessionEnd
	TrustChanges     map[string]TrustChange `json:"trust_changes,omitempty"` // Stop, SessionEnd
	ToolCalls        *int                   `json:"tool_calls,omitempty"`    // Stop, SessionEnd

	// Seq and Prev make the chain: Seq counts lines from the first line of the trail, Prev is
	// the sha256 (hex) of the previous line's bytes, null on the very first line.
	Seq  int64   `json:"seq"`
	Prev *string `json:"prev"`
}

// TrustChange is how one domain's trust moved in a session.
type TrustChange struct {
	Before *float64 `json:"before"` // the first trust_score_before of the session
	After  *float64 `json:"after"`  // the last trust_score_after, null if no outcome was learned
	Calls  int      `json:"calls"`  // PreToolUse lines
}

func ptr[T any](v T) *T { return &v }

// FromEnvelope builds the line for one envelope, masked, without the chain fields. now is the
// time of the record (its UTC day picks the file).
//
// Masking is done in two passes over every text of the line: the first collects every secret
// found anywhere in the event (its input, its output, its error, and what the stages derived
// from them); the second writes each field with its own findings masked and every collected
// secret removed by value. A password seen once in a command is so removed from the path, the
// reason and the decision message built from it, whatever shape the rule that found it saw.
func FromEnvelope(env *envelope.Envelope, now time.Time) (*Entry, error) {
	ev, err := env.Event()
	if err != nil {
		return nil, err
	}
	var c envelope.Classification
	hasClassify, err := env.Stage(envelope.StageClassify, &c)
	if err != nil {
		return nil, err
	}
	var g envelope.GateVerdict
	hasGate, err := env.Stage(envelope.StageGate, &g)
	if err != nil {
		return nil, err
	}
	var t envelope.Trust
	hasTrust, err := env.Stage(envelope.StageTrust, &t)
	if err != nil {
		return nil, err
	}
	var d envelope.Decision
	hasDecision, err := env.Stage(envelope.StageDecision, &d)
	if err != nil {
		return nil, err
	}

	// Pass 1: every secret of the event.
	var x mask.Secrets
	var input, response, errDoc *mask.Doc
	var errText string
	errIsText := false
	tool := ev.IsToolEvent()
	if tool && len(ev.ToolInput) > 0 {
		input = x.ScanJSON(ev.ToolInput)
	}
	post := ev.HookEventName == claude.PostToolUse || ev.HookEventName == claude.PostToolUseFailure
	if post && len(ev.ToolResponse) > 0 {
		response = x.ScanJSON(ev.ToolResponse)
	}
	if post && len(ev.Error) > 0 {
		// Claude Code sends a string; anything else is kept as its masked JSON text.
		if json.Unmarshal(ev.Error, &errText) == nil {
			errIsText = true
			x.Scan(errText)
		} else {
			errDoc = x.ScanJSON(ev.Error)
		}
	}
	for _, id := range [...]string{ev.SessionID, ev.HookEventName, ev.ToolName, ev.ToolUseID, ev.Source, ev.PromptID} {
		x.ScanValue(id)
	}
	if ev.HookEventName == claude.PermissionDenied {
		x.Scan(ev.Reason) // free text of a model
	} else {
		x.ScanValue(ev.Reason)
	}
	x.Scan(ev.FilePath)
	if hasClassify {
		x.ScanValue(string(c.Domain))
		for _, r := range c.Reasons {
			x.ScanValue(r.Rule)
			x.Scan(r.Command)
			x.Scan(r.Detail)
		}
		for _, cmd := range c.Commands {
			x.ScanArgv(cmd)
		}
		for _, p := range c.Parts {
			x.ScanArgv(p.Argv)
			x.Scan(p.Dir)
			x.ScanValue(string(p.Domain))
		}
		for _, p := range c.Paths.Read {
			x.Scan(p)
		}
		for _, p := range c.Paths.Write {
			x.Scan(p)
		}
		if c.NeedsPerson != nil {
			x.ScanValue(c.NeedsPerson.Rule)
			x.Scan(c.NeedsPerson.Reason)
		}
		x.Scan(c.ConfinedWhy)
		x.Scan(c.BoundedWhy)
		x.Scan(c.Unread)
	}
	if hasGate {
		x.ScanValue(g.Rule)
		x.Scan(g.Reason)
	}
	if hasDecision {
		x.Scan(d.Reason)
		x.Scan(d.Guidance)
		x.ScanValue(d.Phase)
	}
	if hasTrust {
		x.Scan(t.EffectReason)
	}

	// Pass 2: the line, every text masked.
	orNil := func(s string) *string { // a short label or id, nil when empty
		if s == "" {
			return nil
		}
		return ptr(x.Value(s))
	}
	e := &Entry{
		Timestamp: now.UTC().Format(TimeFormat),
		SessionID: x.Value(ev.SessionID),
		Event:     x.Value(ev.HookEventName),
		ToolInput: json.RawMessage("null"),
		PromptID:  orNil(ev.PromptID),
	}
	if tool {
		e.ToolName = orNil(ev.ToolName)
		e.ToolUseID = orNil(ev.ToolUseID)
		if input != nil {
			e.ToolInput = x.JSON(input)
		}
	}
	if hasClassify {
		e.Domain = orNil(string(c.Domain))
		e.RiskCategory = orNil(string(c.Risk))
		for _, r := range c.Reasons {
			r.Rule = x.Value(r.Rule)
			r.Command = x.String(r.Command)
			r.Detail = x.String(r.Detail)
			e.Reasons = append(e.Reasons, r)
		}
		if len(c.Paths.Read) > 0 || len(c.Paths.Write) > 0 {
			e.Paths = &envelope.Paths{Read: maskAll(&x, c.Paths.Read), Write: maskAll(&x, c.Paths.Write)}
		}
		for _, p := range c.Parts {
			e.Parts = append(e.Parts, envelope.Part{Argv: x.Argv(p.Argv), Dir: x.String(p.Dir), Domain: domain.Domain(x.Value(string(p.Domain))), Risk: p.Risk})
		}
		if c.NeedsPerson != nil {
			e.NeedsPerson = &envelope.Person{Rule: x.Value(c.NeedsPerson.Rule), Reason: x.String(c.NeedsPerson.Reason)}
		}
		e.Confined, e.ReadInFull, e.Bounded = c.Confined, c.ReadInFull, c.Bounded
		if c.ConfinedWhy != "" {
			e.ConfinedWhy = ptr(x.String(c.ConfinedWhy))
		}
		if c.BoundedWhy != "" {
			e.BoundedWhy = ptr(x.String(c.BoundedWhy))
		}
		if c.Unread != "" {
			e.Unread = ptr(x.String(c.Unread))
		}
	}
	if hasGate {
		g.Verdict, g.Rule, g.Reason = x.Value(g.Verdict), x.Value(g.Rule), x.String(g.Reason)
		e.Gate = &g
	}
	if hasTrust && e.Domain == nil {
		e.Domain = orNil(string(t.Domain))
	}
	if hasDecision {
		e.Decision = orNil(d.Decision)
		e.AutonomyScore = ptr(d.Autonomy)
		e.Phase = orNil(d.Phase)
		e.RecommendedModel = orNil(d.RecommendedModel)
		if d.Reason != "" {
			e.DecisionReason = ptr(x.String(d.Reason))
		}
		if d.Guidance != "" {
			e.Guidance = ptr(x.String(d.Guidance))
		}
		e.Answer = orNil(d.Answer)
	}

	switch ev.HookEventName {
	case claude.PreToolUse, claude.PreSkillShellCommand:
		e.Outcome = ptr(OutcomePending)
		if hasTrust {
			e.TrustScoreBefore = ptr(t.Score)
		}
	case claude.PostToolUse, claude.PostToolUseFailure:
		// The event's name says how the call ended (DESIGN.md: there is no is_error).
		outcome := envelope.OutcomeSuccess
		if ev.HookEventName == claude.PostToolUseFailure {
			outcome = envelope.OutcomeFailure
		}
		e.Outcome = &outcome
		if hasTrust {
			e.TrustScoreBefore = t.ScoreBefore
			e.TrustScoreAfter = t.ScoreAfter
			e.TrustEffect = orNil(t.Effect)
			if t.EffectReason != "" {
				e.EffectReason = ptr(x.String(t.EffectReason))
			}
		}
		if response != nil {
			e.ToolResponse = bound(x.JSON(response))
		}
		switch {
		case errIsText:
			e.Error = ptr(x.String(errText))
		case errDoc != nil:
			e.Error = ptr(string(x.JSON(errDoc)))
		}
		if ev.DurationMS != "" {
			e.DurationMS = &ev.DurationMS
		}
	case claude.SessionStart:
		e.Source = orNil(ev.Source)
	case claude.ConfigChange:
		e.Source = orNil(ev.Source)
		if ev.FilePath != "" {
			e.ConfigFile = ptr(x.String(ev.FilePath))
		}
	case claude.PermissionDenied:
		if ev.Reason != "" {
			e.DeniedReason = ptr(x.String(ev.Reason))
		}
	case claude.SessionEnd:
		e.EndReason = orNil(ev.Reason)
	}
	return e, nil
}

// maskAll masks every text of a list.
func maskAll(x *mask.Secrets, list []string) []string {
	if list == nil {
		return nil
	}
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = x.String(s)
	}
	return out
}

// TimeFormat is the timestamp of a line: ISO 8601 UTC with milliseconds.
const TimeFormat = "2006-01-02T15:04:05.000Z"

// bound keeps a masked JSON value under MaxResponse: a larger one is replaced by an object with
// its size and the start of its text (cut at a character boundary; the text is already masked).
func bound(raw json.RawMessage) json.RawMessage {
	if len(raw) <= MaxResponse {
		return raw
	}
	head := string(raw[:4096])
	for !utf8.ValidString(head) && len(head) > 0 {
		head = head[:len(head)-1]
	}
	out, _ := json.Marshal(struct {
		Truncated bool   `json:"truncated"`
		Bytes     int    `json:"bytes"`
		Head      string `json:"head"`
	}{true, len(raw), strings.ToValidUTF8(head, "")})
	return out
}
