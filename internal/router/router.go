// Package router recommends the model and persona for a tool call (seed 002 F-5, seed 001 §3.5).
//
// In Phase 1 the recommendation is recorded only: Claude Code's hooks cannot switch models, so
// oath-decide writes it into oath.decision for the audit trail and nothing acts on it. The
// escalation chain reporter → worker → analyst → architect → human orders who handles what a
// lower rung cannot.
package router

import (
	"github.com/oath-harness/oath-harness/internal/domain"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// Models the router recommends.
const (
	Opus   = "opus"
	Sonnet = "sonnet"
	Haiku  = "haiku"
)

// Persona is one rung of the escalation chain.
type Persona string

// The escalation chain's rungs, lowest first (FR-MR-005).
const (
	Reporter  Persona = "reporter"  // haiku: reports, log analysis, summaries
	Worker    Persona = "worker"    // haiku: test runs, searches, file operations
	Analyst   Persona = "analyst"   // sonnet: analysis, design, implementation, review
	Architect Persona = "architect" // opus: decisions, final judgement
	Human     Persona = "human"     // the person: what no model may decide alone
)

// Chain is the escalation chain, lowest rung first.
var Chain = []Persona{Reporter, Worker, Analyst, Architect, Human}

// Escalate is the rung above p. The human is the top: Escalate(Human) is Human, and a persona
// not on the chain escalates to the human, so an unknown rung never ends the chain early.
func Escalate(p Persona) Persona {
	for i, c := range Chain {
		if c == p && i+1 < len(Chain) {
			return Chain[i+1]
		}
	}
	return Human
}

// Input is what the recommendation depends on: the decision's own inputs and result.
type Input struct {
	Autonomy float64
	Risk     risk.Level
	Trust    float64
	Decision string // auto_approved | logged_only | human_required | blocked
	Domain   domain.Domain
}

// Recommendation is the model and persona recorded in oath.decision.
type Recommendation struct {
	Model   string
	Persona Persona
}

// lowTrust is FR-MR-004's bound: a domain below it is overseen by the architect.
const lowTrust = 0.4

// Recommend is the seed's mr_recommend (001 §3.5), unchanged: opus for a critical block, a
// low-trust domain (< 0.4) or a complex judgement (autonomy < 0.6 at medium or high risk); haiku
// for an auto-approved low-risk call; sonnet otherwise. The seed estimates the AoT condition
// (opus_aot_threshold) from autonomy in Phase 1, so that setting is not read here.
//
// The persona is the rung that model plays, with two refinements the seed leaves open: haiku
// reading (a domain that only reads, domain.ReadOnly: file_read, git_read) is the reporter,
// other haiku work the worker; and a call whose decision is human_required has climbed the
// chain to its top, the human.
func Recommend(in Input) Recommendation {
	model := Sonnet
	switch {
	case in.Decision == "blocked" && in.Risk == risk.Critical:
		model = Opus
	case in.Trust < lowTrust:
		model = Opus
	case in.Autonomy < 0.6 && (in.Risk == risk.Medium || in.Risk == risk.High):
		model = Opus
	case in.Decision == "auto_approved" && in.Risk == risk.Low:
		model = Haiku
	}
	if in.Decision == "human_required" {
		return Recommendation{model, Human}
	}
	return Recommendation{model, personaOf(model, in.Domain)}
}

func personaOf(model string, d domain.Domain) Persona {
	switch model {
	case Opus:
		return Architect
	case Haiku:
		if d.ReadOnly() {
			return Reporter
		}
		return Worker
	}
	return Analyst
}
