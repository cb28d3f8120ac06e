package audit

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/envelope"
)

// Summary is what oath-audit summary prints: how the calls went, per domain and per day.
type Summary struct {
	Version  int                       `json:"version"`
	Entries  int                       `json:"entries"`
	Bad      int                       `json:"unreadable_lines"`
	Sessions int                       `json:"sessions"`
	Calls    int                       `json:"calls"`
	From     string                    `json:"from,omitempty"` // the first line's timestamp
	To       string                    `json:"to,omitempty"`   // the last line's timestamp
	Domains  map[string]*DomainSummary `json:"domains"`
	Days     map[string]*DaySummary    `json:"days"`
	Blocks   []Block                   `json:"blocks"`
}

// DomainSummary is one domain's calls, decisions, outcomes and trust.
type DomainSummary struct {
	Calls     int            `json:"calls"`
	Decisions map[string]int `json:"decisions"`
	// Deferred counts the human_required calls left to Claude Code's own rules and prompt
	// (answer defer): a person's allow rule may have run them, so no one need have been asked.
	Deferred   int            `json:"deferred"`
	Outcomes   map[string]int `json:"outcomes"`
	TrustFirst *float64       `json:"trust_first"` // the first trust_score_before seen
	TrustLast  *float64       `json:"trust_last"`  // the last trust score seen, before or after
}

// DaySummary is one UTC day's calls and decisions.
type DaySummary struct {
	Calls     int            `json:"calls"`
	Decisions map[string]int `json:"decisions"`
}

// Block is one call that was not allowed to run: decision blocked, or a gate block.
type Block struct {
	Timestamp string  `json:"timestamp"`
	SessionID string  `json:"session_id"`
	ToolName  string  `json:"tool_name"`
	ToolUseID string  `json:"tool_use_id,omitempty"`
	Domain    *string `json:"domain"`
	Risk      *string `json:"risk_category"`
	Rule      string  `json:"rule,omitempty"`
	Reason    string  `json:"reason"`
}

// Summarize counts entries (a PreToolUse line is a call; Post lines give outcomes).
func Summarize(entries []Entry, bad int) Summary {
	z := NewSummarizer()
	for _, e := range entries {
		z.Add(e)
	}
	return z.Summary(bad)
}

// Summarizer counts entries one at a time, so that a trail of any length is summed up while it
// is read (Each), holding the counts and the blocks, never the lines.
type Summarizer struct {
	s        Summary
	sessions map[string]bool
}

// NewSummarizer starts an empty count.
func NewSummarizer() *Summarizer {
	return &Summarizer{
		s:        Summary{Version: Version, Domains: map[string]*DomainSummary{}, Days: map[string]*DaySummary{}, Blocks: []Block{}},
		sessions: map[string]bool{},
	}
}

// Add counts one entry.
func (z *Summarizer) Add(e Entry) {
	s := &z.s
	s.Entries++
	if e.Timestamp != "" && (s.From == "" || e.Timestamp < s.From) {
		s.From = e.Timestamp
	}
	if e.Timestamp > s.To {
		s.To = e.Timestamp
	}
	if e.SessionID != "" {
		z.sessions[e.SessionID] = true
	}
	if e.ToolName == nil {
		return
	}
	domain := domainOf(e)
	d := s.Domains[domain]
	if d == nil {
		d = &DomainSummary{Decisions: map[string]int{}, Outcomes: map[string]int{}}
		s.Domains[domain] = d
	}
	if d.TrustFirst == nil && e.TrustScoreBefore != nil {
		d.TrustFirst = ptr(*e.TrustScoreBefore)
	}
	if e.TrustScoreAfter != nil {
		d.TrustLast = ptr(*e.TrustScoreAfter)
	} else if e.TrustScoreBefore != nil {
		d.TrustLast = ptr(*e.TrustScoreBefore)
	}
	if e.Event != claude.PreToolUse {
		if e.Outcome != nil {
			d.Outcomes[*e.Outcome]++
		}
		return
	}
	s.Calls++
	d.Calls++
	decision := "none"
	if e.Decision != nil {
		decision = *e.Decision
	}
	d.Decisions[decision]++
	if decision == envelope.DecisionHumanRequired && e.Answer != nil && *e.Answer == "defer" {
		d.Deferred++
	}
	day := dayOf(e.Timestamp)
	ds := s.Days[day]
	if ds == nil {
		ds = &DaySummary{Decisions: map[string]int{}}
		s.Days[day] = ds
	}
	ds.Calls++
	ds.Decisions[decision]++
	if b, ok := blockOf(e); ok {
		s.Blocks = append(s.Blocks, b)
	}
}

// Summary returns the counts so far; bad is the number of unreadable lines (Each's count).
func (z *Summarizer) Summary(bad int) Summary {
	s := z.s
	s.Bad = bad
	s.Sessions = len(z.sessions)
	s.Blocks = append([]Block{}, z.s.Blocks...)
	sort.SliceStable(s.Blocks, func(i, j int) bool { return s.Blocks[i].Timestamp < s.Blocks[j].Timestamp })
	return s
}

func dayOf(ts string) string {
	if len(ts) >= 10 {
		return ts[:10]
	}
	return "unknown"
}

// blockOf reports whether a PreToolUse entry was blocked, and why: the gate's reason wins (the
// gate disposes), else the decision's.
func blockOf(e Entry) (Block, bool) {
	gateBlock := e.Gate != nil && e.Gate.Verdict == envelope.VerdictBlock
	if !gateBlock && (e.Decision == nil || *e.Decision != envelope.DecisionBlocked) {
		return Block{}, false
	}
	b := Block{Timestamp: e.Timestamp, SessionID: e.SessionID, ToolName: deref(e.ToolName),
		ToolUseID: deref(e.ToolUseID), Domain: e.Domain, Risk: e.RiskCategory}
	switch {
	case gateBlock:
		b.Rule, b.Reason = e.Gate.Rule, e.Gate.Reason
	case e.DecisionReason != nil:
		b.Reason = *e.DecisionReason
	}
	if b.Rule == "" && len(e.Reasons) > 0 {
		rules := make([]string, len(e.Reasons))
		for i, r := range e.Reasons {
			rules[i] = r.Rule
		}
		b.Rule = strings.Join(rules, ",")
	}
	return b, true
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// Format renders one entry as one line for a person:
//
//	2026-11-20T10:00:00.000Z PreToolUse  Bash shell_exec/high trust 0.30 human_required  rm -rf build
//
// The autonomy score is left out: it is arithmetic between risk and trust, which the line shows;
// the JSON line keeps it.
func Format(e Entry) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %-18s", e.Timestamp, e.Event)
	if e.ToolName != nil {
		fmt.Fprintf(&b, " %s", *e.ToolName)
		if e.Domain != nil {
			fmt.Fprintf(&b, " %s", *e.Domain)
			if *e.Domain == globalDomain {
				b.WriteString(" (no domain claims this call)")
			}
			if e.RiskCategory != nil {
				fmt.Fprintf(&b, "/%s", *e.RiskCategory)
			}
		}
	}
	if e.TrustScoreBefore != nil && e.TrustScoreAfter != nil && Score(*e.TrustScoreBefore) == Score(*e.TrustScoreAfter) {
		fmt.Fprintf(&b, " trust %s unchanged", Score(*e.TrustScoreBefore))
	} else if e.TrustScoreBefore != nil && e.TrustScoreAfter != nil {
		fmt.Fprintf(&b, " trust %s→%s", Score(*e.TrustScoreBefore), Score(*e.TrustScoreAfter))
	} else if e.TrustScoreBefore != nil {
		fmt.Fprintf(&b, " trust %s", Score(*e.TrustScoreBefore))
	} else if e.TrustScoreAfter != nil {
		fmt.Fprintf(&b, " trust →%s", Score(*e.TrustScoreAfter))
	}
	if e.Decision != nil {
		fmt.Fprintf(&b, " %s", *e.Decision)
	}
	if e.Outcome != nil && *e.Outcome != OutcomePending {
		fmt.Fprintf(&b, " %s", *e.Outcome)
	}
	if e.Gate != nil && e.Gate.Verdict == envelope.VerdictBlock {
		fmt.Fprintf(&b, " gate:%s", e.Gate.Rule)
	}
	if what := describe(e); what != "" {
		fmt.Fprintf(&b, "  %s", what)
	}
	return strings.TrimRight(b.String(), " ")
}

// describe is the short what of an entry: a command, a path, a session's end.
func describe(e Entry) string {
	switch {
	case e.TrustChanges != nil || e.ToolCalls != nil:
		calls := 0
		if e.ToolCalls != nil {
			calls = *e.ToolCalls
		}
		return strings.TrimPrefix(TrustMessage(e.TrustChanges, calls), "oath: ")
	case e.Source != nil:
		return "source " + *e.Source
	case e.EndReason != nil:
		return "reason " + *e.EndReason
	case e.Error != nil:
		return oneLine(*e.Error, 80)
	}
	if in := inputSummary(e.ToolInput); in != "" {
		return oneLine(in, 100)
	}
	return ""
}

// Text renders the summary as a short table for a person: one row per domain with its calls,
// their answers, the calls that failed after running and how trust moved.
func (s Summary) Text() string {
	var b strings.Builder
	if s.Calls == 0 && s.Entries == 0 {
		return "nothing recorded yet\n"
	}
	fmt.Fprintf(&b, "%s in %s", Plural(s.Calls, "tool call"), Plural(s.Sessions, "session"))
	if s.From != "" {
		fmt.Fprintf(&b, ", %s to %s", humanTime(s.From), humanTime(s.To))
	}
	b.WriteString("\n\n")
	names := make([]string, 0, len(s.Domains))
	for n := range s.Domains {
		names = append(names, n)
	}
	sort.Strings(names)
	cols := []string{envelope.DecisionAutoApproved, envelope.DecisionLoggedOnly, envelope.DecisionHumanRequired, envelope.DecisionBlocked}
	const row = "%-13s %5s %8s %7s %6s %7s %8s %7s  %s"
	line := func(format string, a ...any) { b.WriteString(strings.TrimRight(fmt.Sprintf(format, a...), " ") + "\n") }
	line(row, "domain", "calls", "no ask", "logged", "asked", "to host", "blocked", "failed", "trust")
	var tot [7]int
	global := false
	for _, n := range names {
		d := s.Domains[n]
		global = global || n == globalDomain
		v := []int{d.Calls, d.Decisions[cols[0]], d.Decisions[cols[1]], d.Decisions[cols[2]] - d.Deferred, d.Deferred, d.Decisions[cols[3]], d.Outcomes[envelope.OutcomeFailure]}
		for i := range v {
			tot[i] += v[i]
		}
		trust := score(d.TrustFirst) + " → " + score(d.TrustLast)
		if d.TrustFirst == nil && d.TrustLast == nil {
			trust = "–"
		}
		line(row, n, itoa(v[0]), itoa(v[1]), itoa(v[2]), itoa(v[3]), itoa(v[4]), itoa(v[5]), itoa(v[6]), trust)
	}
	line(row, "total", itoa(tot[0]), itoa(tot[1]), itoa(tot[2]), itoa(tot[3]), itoa(tot[4]), itoa(tot[5]), itoa(tot[6]), "")
	b.WriteString("\nno ask: ran without asking; logged: ran and logged; asked: the harness asked a person;\n" +
		"to host: left to Claude Code's own rules and prompt (an allow rule of yours may have run it unasked);\n" +
		"failed: failed after running\n")
	if global {
		b.WriteString(GlobalExplained + "\n")
	}
	if s.Bad > 0 {
		fmt.Fprintf(&b, "%s of the trail could not be read: run oath-audit verify\n", Plural(s.Bad, "line"))
	}
	if len(s.Blocks) > 0 {
		b.WriteString("why each call was blocked: oath-audit report --out report.html\n")
	}
	return b.String()
}

func itoa(n int) string { return fmt.Sprint(n) }

// humanTime spells a line's timestamp for a person (2026-02-23 10:00:00 UTC), or as written
// when it is not a timestamp.
func humanTime(ts string) string {
	t, err := time.Parse(TimeFormat, ts)
	if err != nil {
		return ts
	}
	return t.Format("2006-01-02 15:04:05 UTC")
}
