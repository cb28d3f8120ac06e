// Package classify decides what a Claude Code tool call is (its domain) and how risky it is,
// from the parsed call, never from the raw string.
//
// # Rules, in order
//
//   - Every tool has a domain: Read/Glob/Grep/LS file_read; Write/Edit/MultiEdit/NotebookEdit
//     file_write, or docs_write when a component of the path is "docs"; WebFetch/WebSearch web;
//     mcp__server__tool mcp (medium unless a user rule says otherwise); anything else _global.
//   - A Bash command is parsed as bash (mvdan.cc/sh) by package shell, which reports every simple
//     command anywhere in it (lists, pipes, subshells, groups, loops, functions, command and
//     process substitution, arithmetic) after seeing through wrappers (sudo, env, command,
//     builtin, exec, nohup, nice, time, timeout, stdbuf, xargs, find -exec …, /bin/rm, \rm,
//     "rm", r”m) and second programs (bash -c, eval, heredocs and here-strings to a shell, trap,
//     alias, watch, su -c). Each command gets a risk and a domain; the program's risk is the
//     maximum, and its domain that of its riskiest part (ties go to the more capable domain).
//   - The seed's lists (001 §3.3): critical for curl/wget (and httpie) to a non-local URL, mail
//     senders, variables named like API_KEY/SECRET/TOKEN/PASSWORD (read or assigned), URLs about
//     trade/order/buy/sell/payment/transaction; high for the deny list; low for the allow list;
//     medium for the rest. Beyond them: destructive or irreversible commands (history rewriting,
//     killing processes, dropping databases, deleting cloud resources, publishing packages,
//     privilege escalation) and credential reads (SSH keys, cloud credentials, .env) are high;
//     catastrophes (recursive deletion or permission change of /, ~, the project root or a
//     system directory, raw device writes, mkfs, a fork bomb, force-pushing or deleting a remote
//     branch) are critical, so that no trust can make them automatic (DESIGN.md).
//   - Self-protection: a write by any route to the harness root, the audit directory, the
//     installed hooks and binaries, .claude/settings*.json (the project's and ~/.claude's),
//     .claude/current-phase.md or .claude/protected-files.txt is critical. Paths are compared
//     cleaned and absolute (case-insensitively, for macOS), after ~ and $HOME expansion and cd.
//     A recursive operation on a parent of a protected path hits it, and so does a glob that can
//     match it. Symbolic links are not followed (out of scope: the gate re-checks).
//
// # What cannot be known statically is the dangerous case
//
// A command name from $(…) or $VAR is high. A curl whose URL is not literal goes to the
// internet (critical). A write whose target is not literal (> "$F", cp x "$(cmd)", xargs rm,
// a relative path after cd "$X") could hit a protected file, so it is critical: the agent can
// always spell the path out. Unparsable programs are high (the parser's message is the detail)
// and the lines before the broken one are still analysed, since bash runs them. Programs past
// the bounds of package shell (size, nesting, number of commands) are critical.
//
// # User rules
//
// settings.classify.rules select calls by tool glob, a gojq filter over the event and a regular
// expression over strings that settings.classify.extract pulls out of the tool's input. A rule
// may raise a risk or mark a medium call low; it never lowers a built-in high or critical.
// Filters are compiled only when the event's tool matches, run under a deadline, and a filter
// that fails makes the call high. Extracted strings may be judged as a shell program or as SQL.
package classify

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/layout"
	"github.com/oath-harness/oath-harness/internal/risk"
	"github.com/oath-harness/oath-harness/internal/settings"
)

// Domains.
const (
	FileRead  = "file_read"
	FileWrite = "file_write"
	DocsWrite = "docs_write"
	TestRun   = "test_run"
	GitRead   = "git_read"
	GitLocal  = "git_local"
	GitRemote = "git_remote"
	ShellExec = "shell_exec"
	Web       = "web"
	MCP       = "mcp"
	Global    = "_global"
)

// domainRank breaks ties between parts of equal risk: the more capable domain wins.
var domainRank = map[string]int{FileRead: 1, GitRead: 2, DocsWrite: 3, TestRun: 4, FileWrite: 5, Web: 6, MCP: 7, GitLocal: 8, GitRemote: 9, Global: 10, ShellExec: 11}

// Classifier classifies tool calls under one configuration. It is safe for concurrent use.
type Classifier struct {
	layout  layout.Layout
	home    string
	prot    protection
	rules   []*userRule
	extract []*extractor
}

// New prepares a classifier. The user's filters are compiled later, only for the tools they
// name, so a call costs nothing for rules about other tools.
func New(s settings.Settings, l layout.Layout) (*Classifier, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	c := &Classifier{layout: l, home: os.Getenv("HOME")}
	c.prot = newProtection(l, s.AuditDir(l.ProjectDir, l.Root), c.home, installDirs())
	for _, r := range s.Classify.Rules {
		c.rules = append(c.rules, newUserRule(r))
	}
	for _, x := range s.Classify.Extract {
		c.extract = append(c.extract, newExtractor(x))
	}
	return c, nil
}

// installDirs are where the running binaries and their hooks live: a write there replaces
// the harness itself.
func installDirs() []string {
	var dirs []string
	if exe, err := os.Executable(); err == nil {
		d := filepath.Dir(exe)
		dirs = append(dirs, d)
		parent := filepath.Dir(d)
		dirs = append(dirs, filepath.Join(parent, "hooks"), filepath.Join(parent, "bin"))
	}
	if b := os.Getenv("OATH_BIN"); b != "" && filepath.IsAbs(b) {
		dirs = append(dirs, filepath.Clean(b))
	}
	return dirs
}

// result accumulates the parts of one classification.
type result struct {
	parts  []part
	reads  []string
	writes []string
	cmds   [][]string
	depth  int // programs nested through classify itself (git rebase --exec …)
}

// part is one judged piece of a call: a command, a redirection, a finding.
type part struct {
	risk   risk.Level
	domain string
	reason envelope.Reason
}

func (r *result) add(lvl risk.Level, domain, rule, cmd, detail string) {
	r.parts = append(r.parts, part{lvl, domain, envelope.Reason{Rule: rule, Command: cmd, Risk: lvl, Detail: detail}})
}

// Classify classifies one tool event. It never fails: what it cannot read is at least high.
func (c *Classifier) Classify(ev *claude.Event) envelope.Classification {
	cwd := ev.Cwd
	if cwd == "" || !filepath.IsAbs(cwd) {
		cwd = c.layout.ProjectDir
	}
	cwd = filepath.Clean(cwd)
	r := &result{}
	switch tool := ev.ToolName; {
	case tool == "":
		r.add(risk.Medium, Global, "no_tool", "", "the event names no tool")
	case tool == claude.ToolBash:
		c.bashTool(r, ev, cwd)
	case tool == claude.ToolRead || tool == "NotebookRead" || tool == "LS":
		c.readTool(r, ev, cwd)
	case tool == claude.ToolGlob || tool == claude.ToolGrep:
		c.searchTool(r, ev, cwd)
	case tool == claude.ToolWrite || tool == claude.ToolEdit || tool == claude.ToolMultiEdit || tool == claude.ToolNotebookEdit:
		c.writeTool(r, ev, cwd)
	case tool == claude.ToolWebFetch:
		c.webFetch(r, ev)
	case tool == claude.ToolWebSearch:
		r.add(risk.Low, Web, "web_search", "", "a search: nothing is changed")
	case strings.HasPrefix(tool, "mcp__"):
		r.add(risk.Medium, MCP, "mcp_tool", tool, "an MCP tool: medium unless a user rule says otherwise")
	case tool == "TodoWrite" || tool == "ExitPlanMode" || tool == "BashOutput":
		r.add(risk.Low, Global, "harmless_tool", tool, "changes nothing outside the session")
	default:
		r.add(risk.Medium, Global, "unknown_tool", tool, "a tool without a built-in rule")
	}
	base := r.summary()
	c.applyUser(r, ev, cwd, &base)
	return r.finish(base)
}

// summary is the built-in verdict: the riskiest part, its domain.
func (r *result) summary() part {
	best := part{risk: risk.Low, domain: ""}
	first := true
	for _, p := range r.parts {
		if first || p.risk.Value() > best.risk.Value() ||
			p.risk == best.risk && domainRank[p.domain] > domainRank[best.domain] {
			best = p
			first = false
		}
	}
	if first {
		best = part{risk: risk.Medium, domain: Global}
	}
	return best
}

func (r *result) finish(p part) envelope.Classification {
	out := envelope.Classification{
		Domain:    p.domain,
		Risk:      p.risk,
		RiskValue: p.risk.Value(),
		Reasons:   make([]envelope.Reason, 0, len(r.parts)),
		Commands:  r.cmds,
		Paths:     envelope.Paths{Read: dedupe(r.reads), Write: dedupe(r.writes)},
	}
	// The riskiest reasons first, so that the first one says why.
	parts := append([]part(nil), r.parts...)
	sort.SliceStable(parts, func(i, j int) bool { return parts[i].risk.Value() > parts[j].risk.Value() })
	seen := map[envelope.Reason]bool{}
	for _, q := range parts {
		if !seen[q.reason] {
			seen[q.reason] = true
			out.Reasons = append(out.Reasons, q.reason)
		}
	}
	if len(out.Reasons) == 0 {
		out.Reasons = append(out.Reasons, envelope.Reason{Rule: "default", Risk: p.risk, Detail: "no rule matched: " + string(p.risk)})
	}
	if out.Commands == nil {
		out.Commands = [][]string{}
	}
	return out
}

func dedupe(in []string) []string {
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

func decode(raw json.RawMessage, v any) bool {
	if len(raw) == 0 {
		return false
	}
	return json.Unmarshal(raw, v) == nil
}

func (c *Classifier) readTool(r *result, ev *claude.Event, cwd string) {
	var in claude.FileInput
	var path struct {
		Path string `json:"path"`
	}
	ok := decode(ev.ToolInput, &in)
	decode(ev.ToolInput, &path)
	p := in.Path()
	if p == "" {
		p = path.Path
	}
	if !ok || p == "" {
		r.add(risk.High, FileRead, "unreadable_input", ev.ToolName, "tool_input names no file")
		return
	}
	abs := absPath(cwd, expandHome(p, c.home))
	r.reads = append(r.reads, abs)
	if why := credential(abs); why != "" {
		r.add(risk.High, FileRead, "credential_read", abs, why)
		return
	}
	r.add(risk.Low, FileRead, "read_only", ev.ToolName, abs)
}

func (c *Classifier) searchTool(r *result, ev *claude.Event, cwd string) {
	var in claude.SearchInput
	if !decode(ev.ToolInput, &in) {
		r.add(risk.High, FileRead, "unreadable_input", ev.ToolName, "tool_input is not the expected object")
		return
	}
	p := cwd
	if in.Path != "" {
		p = absPath(cwd, expandHome(in.Path, c.home))
	}
	r.reads = append(r.reads, p)
	if why := credential(p); why != "" {
		r.add(risk.High, FileRead, "credential_read", p, why)
		return
	}
	if ev.ToolName == claude.ToolGlob {
		if why := credential(in.Pattern); why != "" {
			r.add(risk.High, FileRead, "credential_read", in.Pattern, why)
			return
		}
	}
	r.add(risk.Low, FileRead, "read_only", ev.ToolName, p)
}

func (c *Classifier) writeTool(r *result, ev *claude.Event, cwd string) {
	var in claude.FileInput
	if !decode(ev.ToolInput, &in) || in.Path() == "" {
		r.add(risk.High, FileWrite, "unreadable_input", ev.ToolName, "tool_input names no file")
		return
	}
	abs := absPath(cwd, expandHome(in.Path(), c.home))
	r.writes = append(r.writes, abs)
	domain := FileWrite
	if underDocs(abs, c.layout.ProjectDir) {
		domain = DocsWrite
	}
	c.judgeWrite(r, target{path: abs, known: true}, domain, ev.ToolName+" "+abs)
	r.add(risk.Medium, domain, "file_write", ev.ToolName, abs)
}

// underDocs: a docs/ directory anywhere in the path (the seed's "path contains docs/"),
// counted within the project when the file is in it.
func underDocs(abs, project string) bool {
	rel := abs
	if r, err := filepath.Rel(project, abs); err == nil && !strings.HasPrefix(r, "..") {
		rel = r
	}
	for _, part := range strings.Split(filepath.Dir(rel), string(filepath.Separator)) {
		if part == "docs" {
			return true
		}
	}
	return false
}

func (c *Classifier) webFetch(r *result, ev *claude.Event) {
	var in claude.WebFetchInput
	if !decode(ev.ToolInput, &in) || in.URL == "" {
		r.add(risk.High, Web, "unreadable_input", ev.ToolName, "tool_input names no url")
		return
	}
	if why := tradeURL(in.URL); why != "" {
		r.add(risk.Critical, Web, "trade_url", in.URL, why)
	}
	if why := secretInURL(in.URL); why != "" {
		r.add(risk.Critical, Web, "secret_in_url", in.URL, why)
	}
	r.add(risk.Medium, Web, "web_fetch", in.URL, "fetches a page")
}

func absPath(cwd, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(cwd, p)
}

func expandHome(p, home string) string {
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
