// Package domain names the kinds of tool calls whose trust is earned separately (seed 001 §3.3:
// file_read, shell_exec …) and holds what the harness knows about each: how capable it is,
// whether it only reads, and what each phase's tool profile says about it (001 §3.7).
//
// This file is the one place the names are spelled. Everything a domain means is one row of
// table below; adding a domain is one constant, one row, and the row of TestAccess that pins
// its access, and the compiler and the tests follow:
//
//   - the rows are unkeyed struct literals, so a row that leaves out a fact (its capability, its
//     reach, its access in one of the phases) does not compile, and adding a phase (a field of
//     row) breaks every row until each domain has an answer for it;
//   - a constant without a row is caught by TestEveryDomainHasARow, which reads this file, and
//     a row whose access no test pins by TestAccess: Go has no exhaustive switch, and a table
//     indexed by an integer (where a missing entry could be a compile error) would give up the
//     JSON strings and the names a trust file or a newer envelope may carry;
//   - settings (the domains a user's rule may name), classify (the tie-break), decide (the
//     phase profiles), router and trust (what only reads) all ask this package, never a list
//     of their own.
//
// A Domain is a string so that it reads and writes as the same JSON ("shell_exec") and can
// carry a name this build does not know (a trust file of a newer version, a hand-written
// envelope): such a domain has rank 0, changes things, and gets the access the seed gives an
// unlisted domain. Nothing here is built at start-up: table is constant data, searched in
// order (eleven rows).
package domain

import (
	"strings"

	"github.com/oath-harness/oath-harness/internal/phase"
)

// Domain is the kind of a tool call, as oath.classify.domain names it.
type Domain string

// The domains (seed 001 §3.3, plus git_read, web and mcp).
const (
	FileRead  Domain = "file_read"
	FileWrite Domain = "file_write"
	DocsWrite Domain = "docs_write"
	TestRun   Domain = "test_run"
	GitRead   Domain = "git_read"
	GitLocal  Domain = "git_local"
	GitRemote Domain = "git_remote"
	ShellExec Domain = "shell_exec"
	Web       Domain = "web"
	MCP       Domain = "mcp"
	// Global is the trust of calls of no known domain (an unknown tool or command), always
	// present in the trust file (002 §B-1-1).
	Global Domain = "_global"
)

// FileWriteSrc is the pseudo-group of writes under the project's src/ directory (FR-TP-004):
// not a domain a call has, but a group the planning profile denies whatever the call's domain,
// so that docs/ stays writable while the code does not.
const FileWriteSrc = "file_write_src"

// Access is what a phase profile says about a domain (001 §3.7 tpe_check), recorded as
// oath.decision.profile.
type Access string

const (
	Allowed    Access = "allowed"     // the trust engine decides
	TrustGated Access = "trust_gated" // human_required until the domain's trust reaches the auto-approve threshold
	Denied     Access = "blocked"     // blocked in this phase
	// unlisted marks a domain the seed's profile for the phase does not name: the seed's
	// rule for those applies (denied in auditing, left to trust elsewhere), and a denial says
	// "not in the profile" rather than "denied by the profile". Access never returns it.
	unlisted Access = "unlisted"
)

// What a domain's calls reach: reads for a domain whose calls only read (a failure of one
// reports on the world and changes nothing; haiku's reading persona is the reporter).
const (
	reads   = true
	changes = false
)

// row is everything the harness knows about one domain. Its fields are set by position: a row
// missing one does not compile.
type row struct {
	name     Domain
	readOnly bool
	// The access in each phase, as the seed's static profiles (001 §3.7, lib/tool-profile.sh)
	// list the domain, group for group (unlisted: the profile does not name it).
	planning, building, auditing Access
}

// table holds one row per domain, least capable first: a row's place is its rank, the
// tie-break between parts of a call of equal risk (the more capable domain names the call).
//
// The profiles are the seed's, group for group, so the table keeps two of its quirks:
// planning denies file_write as well as file_write_src (the static definition does, although
// 002 §B-1-4 lists only file_write_src), and building lists shell_exec and git_local both as
// allowed and as trust-gated (trust-gated wins: denied, then trust-gated, then allowed).
var table = [...]row{
	// name, reach, then the access in planning, building and auditing
	{FileRead, reads, Allowed, Allowed, Allowed},
	{GitRead, reads, Allowed, Allowed, Allowed},
	{DocsWrite, changes, Allowed, unlisted, unlisted},
	{TestRun, changes, unlisted, Allowed, unlisted},
	{FileWrite, changes, Denied, Allowed, Denied},
	{Web, changes, unlisted, unlisted, unlisted},
	{MCP, changes, unlisted, unlisted, unlisted},
	{GitLocal, changes, unlisted, TrustGated, Denied},
	{GitRemote, changes, Denied, Denied, Denied},
	{Global, changes, unlisted, unlisted, unlisted},
	{ShellExec, changes, Denied, TrustGated, Denied},
}

// srcWrites is the pseudo-group file_write_src's row: only planning names it.
var srcWrites = row{FileWriteSrc, changes, Denied, unlisted, unlisted}

// find returns d's place in table, or -1.
func find(d Domain) int {
	for i := range table {
		if table[i].name == d {
			return i
		}
	}
	return -1
}

// All lists the domains, least capable first.
func All() []Domain {
	out := make([]Domain, len(table))
	for i := range table {
		out[i] = table[i].name
	}
	return out
}

// Names is All as one line for a person: "file_read, git_read, …".
func Names() string {
	var b strings.Builder
	for i := range table {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(string(table[i].name))
	}
	return b.String()
}

// Label is d as a person reads it: the name, except Global, whose key means nothing to one.
func (d Domain) Label() string {
	if d == Global {
		return "other"
	}
	return string(d)
}

// GlobalExplained says what Global is, in the words Label uses.
const GlobalExplained = `other: calls of a tool or command no domain claims ("_global" in the JSON)`

// Known reports whether d is one of the domains this build knows.
func (d Domain) Known() bool { return find(d) >= 0 }

// Rank orders domains by capability, 1 for the least capable; 0 for a domain not known (it
// loses every tie).
func (d Domain) Rank() int { return find(d) + 1 }

// ReadOnly reports whether d's calls only read (file_read, git_read). A domain not known may
// change anything.
func (d Domain) ReadOnly() bool {
	i := find(d)
	return i >= 0 && table[i].readOnly
}

// Access is the seed's tpe_check: what the profile of phase p says about d, and whether the
// profile names d at all. A domain the profile does not name (unlisted in table, or not known
// to this build) is denied in auditing and left to trust in the other phases. A phase that is
// not one of the three gets auditing's profile (FR-TP-005).
func (d Domain) Access(p phase.Phase) (a Access, listed bool) {
	a = unlisted
	if i := find(d); i >= 0 {
		a = table[i].in(p)
	}
	switch {
	case a != unlisted:
		return a, true
	case column(p) == phase.Auditing:
		return Denied, false
	}
	return Allowed, false
}

// SrcWritesDenied reports whether the profile of phase p denies writing under src/ (the
// pseudo-group file_write_src), whatever the call's domain.
func SrcWritesDenied(p phase.Phase) bool { return srcWrites.in(p) == Denied }

// column is the phase whose profile applies in p: p itself, or auditing for a phase that is
// not one of the three.
func column(p phase.Phase) phase.Phase {
	switch p {
	case phase.Planning, phase.Building:
		return p
	}
	return phase.Auditing
}

// in is the row's entry for phase p.
func (r row) in(p phase.Phase) Access {
	switch column(p) {
	case phase.Planning:
		return r.planning
	case phase.Building:
		return r.building
	}
	return r.auditing
}
