package classify

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/command"
	"github.com/oath-harness/oath-harness/internal/domain"
	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/layout"
	"github.com/oath-harness/oath-harness/internal/risk"
	"github.com/oath-harness/oath-harness/internal/safefile"
	"github.com/oath-harness/oath-harness/internal/sandbox"
	"github.com/oath-harness/oath-harness/internal/settings"
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

// Classifier classifies tool calls under one configuration. It is safe for concurrent use.
type Classifier struct {
	layout  layout.Layout
	home    string
	prot    protection
	rules   []*userRule
	extract []*extractor
	// codeMentions are what inline code must not name: the harness's paths, absolute and as
	// usually spelled, and the variables that locate them.
	codeMentions []string
	// code are the harness checkout and install directories (lower case): running a program
	// from one is critical, since it can rebuild or replace the judge.
	code []string
	// auditDir is the audit trail, where a session's (re)start is read (losses.go).
	auditDir string
	later    laterPlaces // later.go
	// containerEnv: what Claude Code's environment, which its Bash tool inherits, sets of the
	// variables that point docker, podman or compose elsewhere (DOCKER_HOST …: person.go).
	containerEnv []shell.Name
	// start and realProj are built on the first write judged (filetools.go).
	startOnce, realOnce sync.Once
	start               startupPlaces
	realProj            string
}

// New prepares a classifier. The user's filters are compiled here, once: a bad one is a
// settings error, and a call runs only the filters of the rules for its tool.
func New(s settings.Settings, l layout.Layout) (*Classifier, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	c := &Classifier{layout: l, home: os.Getenv("HOME"), containerEnv: inheritedContainerEnv(os.LookupEnv)}
	var install []string
	dirs, co := installDirs(c.home)
	for _, d := range dirs {
		// Binaries run from the project root or the home directory itself (go run, a stray
		// copy) would make every write critical: only their own files are protected then.
		if under(strings.ToLower(l.ProjectDir), strings.ToLower(d)) || d == c.home || d == "/" {
			continue
		}
		install = append(install, d)
		if d == co {
			c.code = append(c.code, strings.ToLower(d))
		}
	}
	c.auditDir = s.AuditDir(l.ProjectDir, l.Root)
	c.prot = newProtection(l, c.auditDir, c.home, install)
	c.later = newLaterPlaces(c.home, l.ProjectDir)
	c.codeMentions = append([]string{"oath-harness", "oath_home", "oath_bin", "oath_hooks_dir", "claude_project_dir", ".claude", "current-phase", "protected-files", "trust-scores"},
		command.Names(command.InCode)...) // the harness's programs and hooks
	for _, p := range append(append([]string{}, c.prot.trees...), c.prot.files...) {
		if p != "" && p != "/" {
			c.codeMentions = append(c.codeMentions, p)
		}
	}
	for i, r := range s.Classify.Rules {
		code, err := checkFilter(r.Filter)
		if err != nil {
			return nil, &settings.FieldError{Field: fmt.Sprintf("classify.rules[%d].filter", i), Value: fmt.Sprintf("%q", r.Filter), Rule: err.Error()}
		}
		c.rules = append(c.rules, newUserRule(r, code))
	}
	for i, x := range s.Classify.Extract {
		code, err := checkFilter(x.Filter)
		if err != nil {
			return nil, &settings.FieldError{Field: fmt.Sprintf("classify.extract[%d].filter", i), Value: fmt.Sprintf("%q", x.Filter), Rule: err.Error()}
		}
		c.extract = append(c.extract, newExtractor(x, code))
	}
	return c, nil
}

// installDirs are where the running binaries and their hooks live: a write there replaces
// the harness itself. co is the harness checkout that holds the running hooks, or "".
func installDirs(home string) (dirs []string, co string) {
	if exe, err := os.Executable(); err == nil {
		d := filepath.Dir(exe)
		dirs = append(dirs, d)
		parent := filepath.Dir(d)
		dirs = append(dirs, filepath.Join(parent, "hooks"), filepath.Join(parent, "bin"))
	}
	if b := os.Getenv("OATH_BIN"); b != "" && filepath.IsAbs(b) {
		dirs = append(dirs, filepath.Clean(b), filepath.Join(filepath.Dir(filepath.Clean(b)), "hooks"))
	}
	// hooks/lib.sh exports the real directory of the running hooks: with OATH_BIN set or the
	// binaries found on PATH, it is the only way to know where the hooks are.
	if h := os.Getenv("OATH_HOOKS_DIR"); h != "" && filepath.IsAbs(h) {
		dirs = append(dirs, filepath.Clean(h))
		// The whole checkout that holds them: its scripts rebuild bin/, its sources are the
		// judge (New drops it when it is the project or a parent of it).
		if co = checkout(filepath.Clean(h), home); co != "" {
			dirs = append(dirs, co)
		}
	}
	return dirs, co
}

// result accumulates the parts of one classification.
type result struct {
	parts  []part
	reads  []string
	writes []string
	cmds   [][]string
	depth  int  // programs nested through classify itself (git rebase --exec …)
	proxy  bool // the program sets a proxy variable (http_proxy …): local URLs may not stay local
	sends  bool // a command sends data to another machine (outbound.go)
	// remotes are git remotes the program pointed somewhere (git remote add …): name -> where
	remotes map[string]string
	// cmdParts are the simple commands judged one by one (parts.go); person is what the class
	// that always needs a person learned (person.go).
	cmdParts []envelope.Part
	trees    map[string]bool // written paths reached as a whole tree (parts.go)
	person   personState
	code     *codeBudget // what runners may still read from disk (filecode.go), shared with nested results
	links    *safefile.Links
	// headMoved: a git command judged earlier in this call moves HEAD or changes branches, so
	// what a later history rewrite replaces is not what git says of HEAD now; gitElsewhere:
	// GIT_DIR, GIT_WORK_TREE, --git-dir or --work-tree point git at another repository.
	// Either makes a rewrite doubt (rewrites.go).
	headMoved, gitElsewhere bool
	// box: whether the Bash call runs inside Claude Code's sandbox (confined.go), judged before
	// the rules, which read confined (a plain GET inside it is the sandbox's question).
	box      *sandbox.Verdict
	confined bool
	// containerEnv: assignments that point docker, podman or compose at another engine or
	// compose project (DOCKER_HOST, COMPOSE_PROJECT_NAME …: person.go).
	containerEnv []shell.Name
	taken        map[reasonKind]int // reasons of code from files, by kind (takeOver)
	fragment     bool               // judging part of a program (sink.fragment)
	// verdictOnly: only the verdicts (parts) of medium and above, a few of each kind (add),
	// and the not_read mark are read from this result (a child's): low verdicts, the commands
	// list and the per-command parts oath-gate reads are not kept. A 100 kB script has
	// thousands of commands, and building those was a tenth of judging it.
	verdictOnly bool
	kept        map[partKind]int // verdictOnly: the verdicts kept, by kind (add)
	// noPerson: the marks of the class that needs a person are not read from this result
	// (sink.noPerson), so what the code would lose is not recorded.
	noPerson bool

	// claudeEnv: a variable assigned in this call that would switch a nested claude's
	// harness off (nested_claude.go), or "".
	claudeEnv string
	// stagedAll: a git add in this call may have staged the harness's files (self.go).
	stagedAll bool

	// indexMoved: a git command judged earlier in this call changes the index or HEAD, so what
	// git says now of the files a later discard writes may not be what it writes (discards.go).
	indexMoved bool
}

// partKind is a kind of verdict: what add counts in a child result.
type partKind struct {
	rule    string
	risk    risk.Level
	domain  domain.Domain
	unknown bool
}

// resolver remembers, for this judgement, where the links of the paths it writes lead
// (judgeWrite): a large script names the same directories thousands of times.
func (r *result) resolver() *safefile.Links {
	if r.links == nil {
		r.links = &safefile.Links{}
	}
	return r.links
}

// sibling is a result for judging more of the same program apart (bash.go's program judges
// commands on one core while the rest is analysed on the other): the same depth, flags and
// what earlier commands recorded, merged back by merge (or dropped). The budget and the
// memory of links are shared: only one goroutine uses them at a time.
func (r *result) sibling() *result {
	return &result{depth: r.depth, proxy: r.proxy, sends: r.sends, remotes: maps.Clone(r.remotes), trees: maps.Clone(r.trees),
		code: r.budget(), links: r.resolver(), headMoved: r.headMoved, indexMoved: r.indexMoved, gitElsewhere: r.gitElsewhere, fragment: r.fragment,
		verdictOnly: r.verdictOnly, noPerson: r.noPerson, containerEnv: slices.Clip(r.containerEnv), claudeEnv: r.claudeEnv, stagedAll: r.stagedAll, confined: r.confined}
}

// merge appends what o judged after what r judged, as if r had judged it.
func (r *result) merge(o *result) {
	r.parts = append(r.parts, o.parts...)
	r.reads = append(r.reads, o.reads...)
	r.writes = append(r.writes, o.writes...)
	r.cmds = append(r.cmds, o.cmds...)
	r.cmdParts = append(r.cmdParts, o.cmdParts...)
	r.person.hits = append(r.person.hits, o.person.hits...)
	r.person.losses = append(r.person.losses, o.person.losses...)
	r.proxy = r.proxy || o.proxy
	r.sends = r.sends || o.sends
	r.headMoved = r.headMoved || o.headMoved
	r.indexMoved = r.indexMoved || o.indexMoved
	r.gitElsewhere = r.gitElsewhere || o.gitElsewhere
	r.stagedAll = r.stagedAll || o.stagedAll
	if r.claudeEnv == "" {
		r.claudeEnv = o.claudeEnv
	}
	if len(o.containerEnv) > len(r.containerEnv) { // o began with r's
		r.containerEnv = o.containerEnv
	}
	if len(o.trees) > 0 && r.trees == nil {
		r.trees = map[string]bool{}
	}
	maps.Copy(r.trees, o.trees)
	if len(o.remotes) > 0 && r.remotes == nil {
		r.remotes = map[string]string{}
	}
	maps.Copy(r.remotes, o.remotes)
	for k, n := range o.taken {
		if r.taken == nil {
			r.taken = map[reasonKind]int{}
		}
		r.taken[k] += n
	}
}

// part is one judged piece of a call: a command, a redirection, a finding.
type part struct {
	risk   risk.Level
	domain domain.Domain
	reason envelope.Reason
	setup  bool // from a setup command (cd, export, source …/activate): not the call's purpose
}

func (r *result) add(lvl risk.Level, domain domain.Domain, rule, cmd, detail string) {
	if r.verdictOnly {
		if lvl.Value() < risk.Medium.Value() {
			return // what reads a child's verdicts reads medium and above (takeOver, inContainer …)
		}
		// takeOver lists a few verdicts of a kind and says there are more: a configure
		// script's thousand $CC calls need not be kept to say so. A kind is all takeOver
		// reads of a verdict: a critical one that only says something cannot be known is
		// high there, and must not crowd out one that says what is seen.
		k := partKind{rule, lvl, domain, lvl == risk.Critical && onlyUnknown(rule, detail)}
		if r.kept[k] > maxCriticalOfAKind {
			return
		}
		if r.kept == nil {
			r.kept = map[partKind]int{}
		}
		r.kept[k]++
	}
	r.parts = append(r.parts, part{risk: lvl, domain: domain, reason: envelope.Reason{Rule: rule, Command: cmd, Risk: lvl, Detail: detail}})
}

// Classify classifies one tool event. It never fails: what it cannot read is at least high.
func (c *Classifier) Classify(ev *claude.Event) envelope.Classification {
	cwd := ev.Cwd
	if cwd == "" || !filepath.IsAbs(cwd) {
		cwd = c.layout.ProjectDir
	}
	cwd = filepath.Clean(cwd)
	r := &result{}
	if a, b, ok := envelope.FoldedKeys(ev.ToolInput); ok {
		// Claude Code's tools read a key by its exact name; encoding/json, which decodes
		// tool_input here, takes any case and keeps the last. {"file_path": protected,
		// "FILE_PATH": harmless} would be judged on one file and written to the other.
		r.add(risk.Critical, Global, ruleInputKeyVariant, ev.ToolName, "tool_input has the keys "+strconv.Quote(a)+" and "+
			strconv.Quote(b)+", which differ only in case: the tool may read the one the harness does not, so the call cannot be judged")
	}
	switch tool := ev.ToolName; {
	case tool == "":
		// Claude Code always names the tool: an event without one is malformed, and what
		// cannot be read cannot be judged.
		r.add(risk.Critical, Global, ruleNoTool, "", "the event names no tool (tool_name missing, empty or null): it cannot be judged")
		c.inputTool(r, ev, cwd, "")
	case tool == claude.ToolBash:
		c.box(r, ev) // confined.go
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
		c.webSearch(r, ev)
	case strings.HasPrefix(tool, "mcp__"):
		r.add(risk.Medium, MCP, ruleMCPTool, tool, "an MCP tool: medium unless a user rule says otherwise")
		c.inputTool(r, ev, cwd, MCP)
	case tool == "TodoWrite" || tool == "ExitPlanMode" || tool == "BashOutput":
		r.add(risk.Low, Global, ruleHarmlessTool, tool, "changes nothing outside the session")
	case builtinTool(tool):
		r.add(risk.Medium, Global, ruleUnknownTool, tool, "a tool without a built-in rule")
	case builtinTool(canonicalTool(tool)) || builtinFold(canonicalTool(tool)) != "":
		// Claude Code sends its tools' exact names: Write in another case or with spaces is
		// not the Write tool, and a hook that judged it as Write would be judging a guess.
		r.add(risk.Critical, Global, ruleToolNameVariant, tool, "the tool name "+strconv.Quote(tool)+" is a variant of the built-in "+builtinFold(canonicalTool(tool))+": not a name Claude Code sends, so it cannot be judged")
		c.inputTool(r, ev, cwd, Global)
	default:
		r.add(risk.Medium, Global, ruleUnknownTool, tool, "a tool without a built-in rule: its input is scanned like an MCP tool's")
		c.inputTool(r, ev, cwd, Global)
	}
	base := r.summary()
	c.applyUser(r, ev, cwd, &base)
	out := r.finish(base)
	for i := range out.Parts {
		if out.Parts[i].Dir == cwd {
			out.Parts[i].Dir = "" // the call's own directory says nothing new
		}
	}
	c.secretThenSend(r, ev) // secretflow.go
	c.needsPerson(r, ev, &out)
	c.boundary(r, ev, &out) // confined.go
	return out
}

// summary is the built-in verdict: the riskiest part, its domain.
func (r *result) summary() part {
	best := part{risk: risk.Low, domain: ""}
	first := true
	for _, p := range r.parts {
		if first || p.risk.Value() > best.risk.Value() ||
			p.risk == best.risk && p.domain.Rank() > best.domain.Rank() {
			best = p
			first = false
		}
	}
	if first {
		best = part{risk: risk.Medium, domain: Global}
	}
	best.domain = domainOf(r.parts, best.domain) // the purpose, not the setup (parts.go)
	return best
}

func (r *result) finish(p part) envelope.Classification {
	out := envelope.Classification{
		Domain:    p.domain,
		Risk:      p.risk,
		RiskValue: p.risk.Value(),
		Reasons:   make([]envelope.Reason, 0, len(r.parts)),
		Commands:  r.cmds,
		Paths:     envelope.Paths{Read: dedupe(r.reads), Write: dedupe(r.writes), WriteUnknown: writesUnknown(r.parts)},
		Parts:     r.cmdParts,
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
		out.Reasons = append(out.Reasons, envelope.Reason{Rule: ruleDefault, Risk: p.risk, Detail: "no rule matched: " + string(p.risk)})
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

// looseString decodes a JSON string and ignores any other value.
type looseString string

func (s *looseString) UnmarshalJSON(b []byte) error {
	var v string
	if json.Unmarshal(b, &v) == nil {
		*s = looseString(v)
	}
	return nil
}

func (c *Classifier) readTool(r *result, ev *claude.Event, cwd string) {
	// One decode: file_path/notebook_path, or path when neither is given. A path that is not a
	// string is ignored rather than failing the input, as the other keys decide.
	var in struct {
		claude.FileInput
		Alt looseString `json:"path"`
	}
	ok := decode(ev.ToolInput, &in)
	p := in.FileInput.Path()
	if p == "" {
		p = string(in.Alt)
	}
	if !ok || p == "" {
		r.add(risk.High, FileRead, ruleUnreadableInput, ev.ToolName, "tool_input names no file")
		return
	}
	abs := absPath(cwd, expandHome(p, c.home))
	r.reads = append(r.reads, abs)
	if why := credential(abs); why != "" {
		r.add(risk.High, FileRead, ruleCredentialRead, abs, why)
		return
	}
	r.add(risk.Low, FileRead, ruleReadOnly, ev.ToolName, abs)
}

func (c *Classifier) searchTool(r *result, ev *claude.Event, cwd string) {
	var in claude.SearchInput
	if !decode(ev.ToolInput, &in) {
		r.add(risk.High, FileRead, ruleUnreadableInput, ev.ToolName, "tool_input is not the expected object")
		return
	}
	p := cwd
	if in.Path != "" {
		p = absPath(cwd, expandHome(in.Path, c.home))
	}
	r.reads = append(r.reads, p)
	if why := credential(p); why != "" {
		r.add(risk.High, FileRead, ruleCredentialRead, p, why)
		return
	}
	if ev.ToolName == claude.ToolGrep {
		// Grep reads every file under its path (matching its glob): a credential directory,
		// one holding the home directory's credentials, or a glob that may match one
		// (protect.go).
		var g struct {
			Glob string `json:"glob"`
		}
		decode(ev.ToolInput, &g)
		why := credentialTree(p, c.home)
		if why == "" && g.Glob != "" {
			why = credentialGlob(strings.TrimSuffix(p, "/") + "/" + g.Glob)
		}
		if why != "" {
			r.add(risk.High, FileRead, ruleCredentialRead, p, why)
			return
		}
		if g.Glob == "" { // a glob narrows what rg reads: left to credentialGlob
			var m struct {
				Mode looseString     `json:"output_mode"`
				Fold json.RawMessage `json:"-i"`
			}
			decode(ev.ToolInput, &m)
			c.grepSearch(r, p, in.Pattern, string(m.Mode), string(m.Fold) == "true") // credsearch.go
			for _, q := range r.parts {
				if q.reason.Rule == ruleCredentialRead {
					return
				}
			}
		}
	}
	if ev.ToolName == claude.ToolGlob {
		if why := credential(in.Pattern); why != "" {
			r.add(risk.High, FileRead, ruleCredentialRead, in.Pattern, why)
			return
		}
	}
	r.add(risk.Low, FileRead, ruleReadOnly, ev.ToolName, p)
}

func (c *Classifier) writeTool(r *result, ev *claude.Event, cwd string) {
	var in plantedInput // claude.FileInput and NotebookEdit's source, decoded once (planted.go)
	if !decodeWrite(ev.ToolInput, &in) || in.Path() == "" {
		// Fail closed: a write whose target cannot be read could be to a protected file.
		r.add(risk.Critical, FileWrite, ruleUnreadableInput, ev.ToolName, "tool_input names no file: the write cannot be judged")
		return
	}
	abs := absPath(cwd, expandHome(in.Path(), c.home))
	r.writes = append(r.writes, abs)
	domain := FileWrite
	if underDocs(abs, c.layout.ProjectDir) {
		domain = DocsWrite
	}
	c.judgeWrite(r, target{path: abs, known: true}, domain, ev.ToolName+" "+abs)
	c.outsideWrite(r, ev.ToolName, abs, r.resolver().Resolve(abs)) // filetools.go
	c.planted(r, ev, &in, abs, domain)                             // planted.go: code put where a runner will find it
	c.harnessEnvWrite(r, func() string { return in.Content + "\n" + in.NewString + "\n" + string(in.Edits) }, []string{abs}, domain)
	r.add(risk.Medium, domain, ruleFileWrite, ev.ToolName, abs)
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
		r.add(risk.High, Web, ruleUnreadableInput, ev.ToolName, "tool_input names no url")
		return
	}
	if why := tradeURL(in.URL); why != "" {
		r.add(risk.Critical, Web, ruleTradeURL, in.URL, why)
	}
	if why := metadataURL(in.URL); why != "" {
		r.add(risk.Critical, Web, ruleMetadataURL, in.URL, why)
	}
	if u, err := url.Parse(strings.TrimSpace(in.URL)); err != nil || u.Scheme != "" && !strings.EqualFold(u.Scheme, "http") && !strings.EqualFold(u.Scheme, "https") {
		r.add(risk.Critical, Web, ruleWebScheme, in.URL, "WebFetch of a URL that is not http(s) (file://, a bad URL): it could read local files or reach what a web page should not")
	}
	if why := secretInURL(in.URL); why != "" {
		r.add(risk.Critical, Web, ruleSecretInURL, in.URL, why)
	}
	webSent(r, in.URL)
	r.add(risk.Medium, Web, ruleWebFetch, in.URL, "fetches a page")
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

// builtinTools are Claude Code's own tools (an array: nothing to build at start-up).
var builtinTools = [...]string{"Bash", "Read", "Write", "Edit", "MultiEdit", "NotebookEdit", "NotebookRead", "LS", "Glob", "Grep",
	"WebFetch", "WebSearch", "TodoWrite", "ExitPlanMode", "BashOutput", "KillShell", "KillBash", "Task", "SlashCommand",
	"ListMcpResourcesTool", "ReadMcpResourceTool"}

// builtinTool reports whether name is one of builtinTools, exactly.
func builtinTool(name string) bool {
	for _, n := range builtinTools {
		if n == name {
			return true
		}
	}
	return false
}

// builtinFold returns the built-in tool whose lower-case name is lower, or "".
func builtinFold(lower string) string {
	for _, n := range builtinTools {
		if strings.ToLower(n) == lower {
			return n
		}
	}
	return ""
}

// mcpCode: an MCP tool's argument of this (lower-case) name holds a command line to run.
func mcpCode(key string) bool {
	switch key {
	case "command", "cmd", "script", "shell", "commandline", "command_line", "bash":
		return true
	}
	return false
}

// canonicalTool folds a tool name for comparison with the built-ins: lower case, without
// spaces, tabs, underscores or dashes around or inside it.
func canonicalTool(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\t', '\n', '\r', '_', '-', '\u00a0', '\u200b', '\ufeff':
			return -1
		}
		return unicode.ToLower(r)
	}, s)
}

// Words in a tool's name that say it changes files, or runs commands.
var (
	mcpWrites = []string{"write", "edit", "create", "move", "rename", "delete", "remove", "put", "save", "upload", "patch", "append", "update", "set", "mkdir", "copy", "replace", "insert", "truncate", "chmod", "apply", "modify", "overwrite", "unlink", "rm"}
	mcpRuns   = []string{"run", "exec", "shell", "command", "terminal", "bash", "eval", "script", "spawn"}
	// mcpArgv are keys whose list of strings is a command's argv ({"args":["rm","-rf","/"]}).
	mcpArgv = map[string]bool{"args": true, "argv": true, "cmd": true, "command": true, "arguments": true}
	// mcpPathKeys are keys whose string names a file the tool works on.
	mcpPathKeys = []string{"path", "file", "dir", "dest", "target", "source", "src", "from", "to", "folder", "location", "output"}
)

// inputTool looks into the free-form input of an MCP tool, an unknown tool or a malformed
// event (domain "" = the event's). We cannot know what such a tool does, so:
//   - a string that names a protected path is critical whatever the tool's name;
//   - when the name says it writes (write, edit, move …), every path in the input is a
//     write, judged like the Write tool's and reported in paths.write (oath-gate's playbook
//     gate and self-escalation rule read it);
//   - a command field (command, cmd, script …), or a list of strings under args/argv/cmd, is
//     analysed as a shell program: fully when the name says it runs commands, else only a
//     critical verdict is taken over (a field named command may be anything).
func (c *Classifier) inputTool(r *result, ev *claude.Event, cwd string, domain domain.Domain) {
	var v any
	if !decode(ev.ToolInput, &v) {
		return
	}
	toolSent(r, ev.ToolName, domain, v)
	tool := ev.ToolName
	if domain == "" {
		domain = Global
	}
	name := strings.ToLower(tool)
	if i := strings.LastIndex(name, "__"); i >= 0 {
		name = name[i+2:]
	}
	writes, runs := containsWord(name, mcpWrites), containsAny(name, mcpRuns)
	if !strings.HasPrefix(tool, "mcp__") && canonicalTool(tool) != "" {
		// An unknown tool: its name is not a promise either way, but a name that says it
		// writes still makes its paths writes.
		writes = writes || containsWord(canonicalTool(tool), mcpWrites)
	}
	extracted := false
	for _, x := range c.extract {
		if toolMatches(x.Tool, tool) {
			extracted = true // the user says what to take out of this tool's input and how to judge it
		}
	}
	shown := tool
	if shown == "" {
		shown = "the event"
	}
	runProg := func(prog string) {
		if extracted || strings.TrimSpace(prog) == "" || r.depth >= 2 {
			return
		}
		if runs {
			r.depth++
			c.program(r, prog, cwd)
			r.depth--
			return
		}
		for _, p := range c.verdicts(r, prog, langShell, cwd, sink{noPerson: true}).parts {
			if p.risk == risk.Critical {
				r.add(risk.Critical, domain, p.reason.Rule, shown, shown+" is given the command "+quoteRaw(prog)+", which it may run: "+p.reason.Detail)
				return
			}
		}
	}
	budget := 256
	var walk func(key string, v any, depth int)
	walk = func(key string, v any, depth int) {
		if budget <= 0 || depth > 8 {
			return
		}
		budget--
		lk := strings.ToLower(key)
		switch v := v.(type) {
		case map[string]any:
			// {"command":"rm","args":["-rf","/"]}: the command and its arguments together.
			var head string
			var tail []any
			for k, e := range v {
				s, ok := e.(string)
				switch lk := strings.ToLower(k); {
				case ok && mcpCode(lk):
					head = s
				case mcpArgv[lk] && lk != "command" && lk != "cmd":
					tail, _ = e.([]any)
				}
			}
			if head != "" && len(tail) > 0 {
				if argv, ok := c.stringList(tail); ok && !strings.ContainsAny(head, " ;|&") {
					runProg(shell.QuoteWords(append([]shell.Word{{Value: head, Known: true}}, argv...)))
				}
			}
			for k, e := range v {
				walk(k, e, depth+1)
			}
		case []any:
			if mcpArgv[lk] {
				if argv, ok := c.stringList(v); ok && len(argv) > 0 {
					runProg(shell.QuoteWords(argv))
				}
			}
			for _, e := range v {
				walk(key, e, depth+1)
			}
		case string:
			if mcpCode(lk) {
				runProg(v)
			}
			pathKey := containsAny(lk, mcpPathKeys)
			if p, ok := fileURI(v); ok { // file:///proj/.claude/settings.json names a file
				v, pathKey = p, true
			}
			if len(v) > 4096 || v == "" || strings.ContainsAny(v, "\n") || strings.Contains(v, "://") ||
				!pathKey && (strings.Contains(v, " ") || !strings.Contains(v, "/") && !strings.HasPrefix(v, ".")) {
				return
			}
			t := target{path: absPath(cwd, expandHome(v, c.home)), known: true, tree: containsAny(name, []string{"delete", "remove", "move", "rename"})}
			if hit := c.prot.hit(t); hit != "" {
				r.writes = append(r.writes, t.path)
				r.add(risk.Critical, domain, ruleSelfProtection, shown, shown+" is given "+t.path+" ("+hit+"): what the tool does with it cannot be known, and it may change it")
				return
			}
			if writes && (pathKey || filepath.IsAbs(v) || strings.HasPrefix(v, "~/")) {
				r.writes = append(r.writes, t.path)
				c.judgeWrite(r, t, domain, shown+" "+t.path)
			} else if why := credential(t.path); why != "" && (pathKey || filepath.IsAbs(v) || strings.HasPrefix(v, "~/")) {
				// mcp__fs__read_file {"path": "~/.ssh/id_rsa"}: what the Read tool would ask
				r.reads = append(r.reads, t.path)
				r.add(risk.High, FileRead, ruleCredentialRead, shown, shown+" is given "+t.path+": "+why)
			}
		}
	}
	walk("", v, 0)
}

// fileURI is the path a file: URI names (file:///p, escapes decoded). A host part is not
// trusted to make it remote: a tool may well ignore it and open the path here.
func fileURI(v string) (string, bool) {
	if len(v) < 7 || !strings.EqualFold(v[:7], "file://") {
		return "", false
	}
	u, err := url.Parse(v)
	if err != nil || u.Path == "" {
		return "", false
	}
	return u.Path, true
}

// containsWord reports whether name says one of ks: a key of four letters or more anywhere
// in it (writeFile, file_write), a shorter one (set, put, rm) only as a whole word (not the
// "set" of "settings").
func containsWord(name string, ks []string) bool {
	name = strings.ToLower(name)
	words := strings.FieldsFunc(name, func(r rune) bool { return r == '_' || r == '-' || r == '.' || r == ' ' })
	for _, k := range ks {
		if len(k) >= 4 {
			if strings.Contains(name, k) {
				return true
			}
			continue
		}
		if slices.Contains(words, k) {
			return true
		}
	}
	return false
}

// stringList returns a JSON list of strings as known words (~ expanded), or false.
func (c *Classifier) stringList(v []any) ([]shell.Word, bool) {
	out := make([]shell.Word, 0, len(v))
	for _, e := range v {
		s, ok := e.(string)
		if !ok {
			return nil, false
		}
		s = expandHome(s, c.home) // a tool may run it through a shell: ~ is the home directory
		out = append(out, shell.Word{Value: s, Known: true})
	}
	return out, true
}
