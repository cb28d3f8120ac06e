package kernel

import (
	"encoding/json"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/domain"
	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/layout"
	"github.com/oath-harness/oath-harness/internal/risk"
	"github.com/oath-harness/oath-harness/internal/safefile"
	"github.com/oath-harness/oath-harness/internal/sandbox"
)

// Domains: the short names classify's rules use (package domain owns them).
const (
	FileRead  = domain.FileRead
	FileWrite = domain.FileWrite
	DocsWrite = domain.DocsWrite
	TestRun   = domain.TestRun
	GitRead   = domain.GitRead
	GitLocal  = domain.GitLocal
	GitRemote = domain.GitRemote
	ShellExec = domain.ShellExec
	Web       = domain.Web
	MCP       = domain.MCP
	Global    = domain.Global
)

// Env is what every family of rules reads of the configuration: the layout, the protected
// places, the harness's own code; and the callbacks through which one family hands another
// what it found (a nested program, a file of code, a plant).
type Env struct {
	Layout layout.Layout
	Home   string
	Prot   Protection
	// CodeMentions are what inline code must not name: the harness's paths, absolute and as
	// usually spelled, and the variables that locate them.
	CodeMentions []string
	// HarnessCode are the harness checkout and install directories (lower case): running a program
	// from one is critical, since it can rebuild or replace the judge.
	HarnessCode []string
	// AuditDir is the audit trail, where a session's (re)start is read (losses.go).
	AuditDir string
	Later    laterPlaces // later.go
	// ContainerEnv: what Claude Code's environment, which its Bash tool inherits, sets of the
	// variables that point docker, podman or compose elsewhere (DOCKER_HOST …: person/person.go).
	ContainerEnv []shell.Name
	// start and realProj are built on the first write judged (filetools.go).
	startOnce, realOnce sync.Once
	start               startupPlaces
	realProj            string

	Callbacks
}

// Result accumulates the parts of one classification.
type Result struct {
	Parts  []Part
	Reads  []string
	Writes []string
	Cmds   [][]string
	Depth  int  // programs nested through classify itself (git rebase --exec …)
	Proxy  bool // the program sets a proxy variable (http_proxy …): local URLs may not stay local
	Sends  bool // a command sends data to another machine (outbound/outbound.go)
	// Remotes are git remotes the program pointed somewhere (git remote add …): name -> where
	Remotes map[string]string
	// CmdParts are the simple commands judged one by one (package classify's parts.go); person is what the class
	// that always needs a person learned (person/person.go).
	CmdParts []envelope.Part
	Trees    map[string]bool // written paths reached as a whole tree (package classify's parts.go)
	Person   personState
	code     *codeBudget // what runners may still read from disk (filecode.go), shared with nested results
	links    *safefile.Links
	// HeadMoved: a git command judged earlier in this call moves HEAD or changes branches, so
	// what a later history rewrite replaces is not what git says of HEAD now; gitElsewhere:
	// GIT_DIR, GIT_WORK_TREE, --git-dir or --work-tree point git at another repository.
	// Either makes a rewrite doubt (git/rewrites.go).
	HeadMoved, GitElsewhere bool
	// Box: whether the Bash call runs inside Claude Code's sandbox (package classify's
	// confined.go), judged before the rules, which read Confined (a plain GET inside it is the
	// sandbox's question: git/fetchget.go).
	Box      *sandbox.Verdict
	Confined bool
	// Bounded: it runs confined and the sandbox keeps its writes to the project and its
	// temporary directory, with the harness's files there denied (sandbox.Bound): what only
	// cannot be known statically is then code not read, high, not critical (AddUnknown,
	// bounded.go).
	Bounded bool
	Project string // the project's directory, when Bounded
	// ContainerEnv: assignments that point docker, podman or compose at another engine or
	// compose project (DOCKER_HOST, COMPOSE_PROJECT_NAME …: person/person.go).
	ContainerEnv []shell.Name
	taken        map[reasonKind]int // reasons of code from files, by kind (takeOver)
	Fragment     bool               // judging part of a program (sink.fragment)
	// VerdictOnly: only the verdicts (parts) of medium and above, a few of each kind (add),
	// and the not_read mark are read from this result (a child's): low verdicts, the commands
	// list and the per-command parts oath-gate reads are not kept. A 100 kB script has
	// thousands of commands, and building those was a tenth of judging it.
	VerdictOnly bool
	kept        map[partKind]int // verdictOnly: the verdicts kept, by kind (add)
	// NoPerson: the marks of the class that needs a person are not read from this result
	// (sink.noPerson), so what the code would lose is not recorded.
	NoPerson bool

	// ClaudeEnv: a variable assigned in this call that would switch a nested claude's
	// harness off (package classify's nested_claude.go), or "".
	ClaudeEnv string
	// StagedAll: a git add in this call may have staged the harness's files (self/self.go).
	StagedAll bool

	// IndexMoved: a git command judged earlier in this call changes the index or HEAD, so what
	// git says now of the files a later discard writes may not be what it writes (git/discards.go).
	IndexMoved bool
}

// partKind is a kind of verdict: what add counts in a child result.
type partKind struct {
	rule    string
	risk    risk.Level
	domain  domain.Domain
	unknown bool
}

// Resolver remembers, for this judgement, where the links of the paths it writes lead
// (judgeWrite): a large script names the same directories thousands of times.
func (r *Result) Resolver() *safefile.Links {
	if r.links == nil {
		r.links = &safefile.Links{}
	}
	return r.links
}

// Sibling is a result for judging more of the same program apart (package classify's bash.go's program judges
// commands on one core while the rest is analysed on the other): the same depth, flags and
// what earlier commands recorded, merged back by merge (or dropped). The budget and the
// memory of links are shared: only one goroutine uses them at a time.
func (r *Result) Sibling() *Result {
	return &Result{Depth: r.Depth, Proxy: r.Proxy, Sends: r.Sends, Remotes: maps.Clone(r.Remotes), Trees: maps.Clone(r.Trees),
		code: r.Budget(), links: r.Resolver(), HeadMoved: r.HeadMoved, IndexMoved: r.IndexMoved, GitElsewhere: r.GitElsewhere, Fragment: r.Fragment,
		VerdictOnly: r.VerdictOnly, NoPerson: r.NoPerson, ContainerEnv: slices.Clip(r.ContainerEnv), ClaudeEnv: r.ClaudeEnv, StagedAll: r.StagedAll, Confined: r.Confined, Box: r.Box, Bounded: r.Bounded, Project: r.Project}
}

// Merge appends what o judged after what r judged, as if r had judged it.
func (r *Result) Merge(o *Result) {
	r.Parts = append(r.Parts, o.Parts...)
	r.Reads = append(r.Reads, o.Reads...)
	r.Writes = append(r.Writes, o.Writes...)
	r.Cmds = append(r.Cmds, o.Cmds...)
	r.CmdParts = append(r.CmdParts, o.CmdParts...)
	r.Person.Hits = append(r.Person.Hits, o.Person.Hits...)
	r.Person.Losses = append(r.Person.Losses, o.Person.Losses...)
	r.Proxy = r.Proxy || o.Proxy
	r.Sends = r.Sends || o.Sends
	r.HeadMoved = r.HeadMoved || o.HeadMoved
	r.IndexMoved = r.IndexMoved || o.IndexMoved
	r.GitElsewhere = r.GitElsewhere || o.GitElsewhere
	r.StagedAll = r.StagedAll || o.StagedAll
	if r.ClaudeEnv == "" {
		r.ClaudeEnv = o.ClaudeEnv
	}
	if len(o.ContainerEnv) > len(r.ContainerEnv) { // o began with r's
		r.ContainerEnv = o.ContainerEnv
	}
	if len(o.Trees) > 0 && r.Trees == nil {
		r.Trees = map[string]bool{}
	}
	maps.Copy(r.Trees, o.Trees)
	if len(o.Remotes) > 0 && r.Remotes == nil {
		r.Remotes = map[string]string{}
	}
	maps.Copy(r.Remotes, o.Remotes)
	for k, n := range o.taken {
		if r.taken == nil {
			r.taken = map[reasonKind]int{}
		}
		r.taken[k] += n
	}
}

// Part is one judged piece of a call: a command, a redirection, a finding.
type Part struct {
	Risk   risk.Level
	Domain domain.Domain
	Reason envelope.Reason
	Setup  bool // from a setup command (cd, export, source …/activate): not the call's purpose
	// OnlyUnknown: the verdict says only that something cannot be known statically (its
	// producer added it with AddUnknown, or its reason carries such a verdict's), not what is
	// seen. onlyUnknown reads it; no reason's words are read for it.
	OnlyUnknown bool
}

// Carried is the mark of a verdict whose reason carries p's (a command another program runs,
// code taken over from a file): it says only what cannot be known when p does. It is never
// lowered in a bounded sandbox (UnknownValue): the verdict that carries it decides that.
func (p Part) Carried() Unknown {
	if p.OnlyUnknown {
		return Unknown{What: UnknownValue}
	}
	return Unknown{}
}

// MayWrite reports whether the call can change p: inside a sandbox that bounds its writes
// (Bounded), only the project and the sandbox's temporary directory; anywhere otherwise.
func (r *Result) MayWrite(p string) bool {
	return !r.Bounded || r.Box == nil || r.Box.MayWrite(p)
}

// Add adds a verdict. What it says is read by people: a critical one stays critical inside
// a bounded sandbox, however it is worded (AddUnknown lowers one marked so).
func (r *Result) Add(lvl risk.Level, domain domain.Domain, rule, cmd, detail string) {
	r.add(lvl, domain, rule, cmd, detail, Unknown{})
}

// AddUnknown adds a verdict that u marks as critical only because something cannot be known
// statically: inside a sandbox that bounds the call's writes (Bounded) it is lowered to
// high, code not read, when u.Bounded says so, and its reason says why (BoundedWords).
func (r *Result) AddUnknown(lvl risk.Level, domain domain.Domain, rule, cmd, detail string, u Unknown) {
	r.add(lvl, domain, rule, cmd, detail, u)
}

func (r *Result) add(lvl risk.Level, domain domain.Domain, rule, cmd, detail string, u Unknown) {
	if r.VerdictOnly {
		if lvl.Value() < risk.Medium.Value() {
			return // what reads a child's verdicts reads medium and above (takeOver, inContainer …)
		}
		// takeOver lists a few verdicts of a kind and says there are more: a configure
		// script's thousand $CC calls need not be kept to say so. A kind is all takeOver
		// reads of a verdict: a critical one that only says something cannot be known is
		// high there, and must not crowd out one that says what is seen.
		k := partKind{rule, lvl, domain, lvl == risk.Critical && onlyUnknown(rule, u.What != 0)}
		if r.kept[k] > maxCriticalOfAKind {
			return
		}
		if r.kept == nil {
			r.kept = map[partKind]int{}
		}
		r.kept[k]++
	}
	if r.Bounded && lvl == risk.Critical && u.Bounded(r.Project) {
		lvl, detail = risk.High, detail+BoundedWords
	}
	r.Parts = append(r.Parts, Part{Risk: lvl, Domain: domain, Reason: envelope.Reason{Rule: rule, Command: cmd, Risk: lvl, Detail: detail}, OnlyUnknown: u.What != 0})
}

func Dedupe(in []string) []string {
	out := make([]string, 0, len(in))
	seen := map[string]bool{}
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

func Decode(raw json.RawMessage, v any) bool {
	if len(raw) == 0 {
		return false
	}
	return json.Unmarshal(raw, v) == nil
}

// LooseString decodes a JSON string and ignores any other value.
type LooseString string

func (s *LooseString) UnmarshalJSON(b []byte) error {
	var v string
	if json.Unmarshal(b, &v) == nil {
		*s = LooseString(v)
	}
	return nil
}

func AbsPath(cwd, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(cwd, p)
}

func ExpandHome(p, home string) string {
	if home == "" {
		return p
	}
	if p == "~" {
		return home
	}
	if strings.HasPrefix(p, "~/") {
		return filepath.Join(home, p[2:])
	}
	return p
}

// written records a known target of a command's write (cmdCtx.write), and whether the write
// reaches everything under it.
func (r *Result) written(t Target) {
	if r.VerdictOnly {
		return // kept for the call's paths and parts, which a child has not
	}
	r.Writes = append(r.Writes, t.Path)
	if t.Tree {
		if r.Trees == nil {
			r.Trees = map[string]bool{}
		}
		r.Trees[t.Path] = true
	}
}
