package kernel

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/domain"
	"github.com/oath-harness/oath-harness/internal/risk"
	"github.com/oath-harness/oath-harness/internal/sandbox"
)

// Code from files (issue 12): the code a write plants where a runner will find it, and the
// code a runner (make, npm test, pytest, a hook, ./script) will run as it is on disk now.
// Both are judged by the rules a command typed directly gets, with one policy for taking the
// verdicts over (takeOver):
//   - only high and critical verdicts count: an unknown build tool in a recipe (medium, "gray
//     area") is the everyday case and must not make `make test` more than the test run it is;
//   - a critical verdict that only says something cannot be known statically ($CC, "$@",
//     rm -rf "$tmp" in a script) counts as high: scripts are full of values from their
//     environment, and the catastrophes and exfiltrations that can be seen stay critical;
//   - code in other languages (conftest.py, a _test.go file, build.rs) counts only when the
//     inline-code analysis finds it critical (it runs a catastrophic command, deletes a tree
//     named by the home directory, names the harness, talks to a host that is not local):
//     its coarser "can reach files or the network" is true of nearly every test file;
//   - code that runs in a container or on a CI server (Dockerfile, workflow files) counts at
//     most high, except when it sends data away and names the CI's secrets;
//   - code a runner runs now brings its marks of the class that needs a person along: `make
//     nuke` whose recipe runs `git reset --hard` or `terraform destroy` asks as they would,
//     typed directly. Code planted for later does not: what it loses is judged when it runs
//     (sink.noPerson), so planting records no losses, which also keeps a 100 kB script cheap.
//
// Reading costs time on every call, so only runners read, only what they will run, bounded
// by fileLimits; what lies past a bound is said in a reason (medium), not guessed harmless.

// fileLimits bound what one classification reads from disk.
const (
	maxCodeFile  = 256 << 10 // bytes read of one file
	maxCodeFiles = 64        // files read by one classification, nested runners included
	maxCodeBytes = 2 << 20   // bytes read by one classification
	MaxWalkDirs  = 256       // directories listed looking for conftest.py or //go:generate
)

// Lang is the language of code in a file.
type Lang uint8

const (
	LangNone Lang = iota
	LangShell
	LangPython
	LangJS
	LangRuby
	LangPerl
	LangGo
	LangRust
	LangPHP
)

// interp is the interpreter name the inline-code analysis knows the language by.
func (l Lang) interp() string {
	switch l {
	case LangPython:
		return "python3"
	case LangJS:
		return "node"
	case LangRuby:
		return "ruby"
	case LangPerl:
		return "perl"
	case LangGo:
		return "go"
	case LangRust:
		return "rust"
	case LangPHP:
		return "php"
	}
	return "sh"
}

// ShebangLang reads the language of a script from its #! line, or langNone.
func ShebangLang(text string) Lang {
	if !strings.HasPrefix(text, "#!") {
		return LangNone
	}
	line, _, _ := strings.Cut(text[2:], "\n")
	f := strings.Fields(line)
	if len(f) == 0 {
		return LangNone
	}
	prog := filepath.Base(f[0])
	if prog == "env" {
		prog = ""
		for _, a := range f[1:] {
			if !strings.HasPrefix(a, "-") && !strings.Contains(a, "=") {
				prog = filepath.Base(a)
				break
			}
		}
	}
	switch {
	case shell.IsShell(prog):
		return LangShell
	case strings.HasPrefix(prog, "python"), prog == "pypy3", prog == "uv":
		return LangPython
	case prog == "node", prog == "nodejs", prog == "bun", prog == "deno", prog == "tsx", prog == "ts-node":
		return LangJS
	case prog == "ruby":
		return LangRuby
	case prog == "perl":
		return LangPerl
	case prog == "php":
		return LangPHP
	}
	return LangNone
}

// Sink says how the verdicts of code from a file are taken over.
type Sink struct {
	Domain    domain.Domain // "" keeps each verdict's own domain
	Rule      string        // "" keeps each verdict's own rule id
	Prefix    string        // what runs it, for the reason: "make test runs", "Write plants into Makefile"
	Elsewhere bool          // the code runs in a container or on a CI server
	Secrets   bool          // … and names the CI's secrets
	// Fragment: the code is part of a program (an Edit's new text, an append), which need
	// not parse alone: that it does not is no code left unread.
	Fragment bool
	// NoPerson: the code's marks of the class that needs a person are not taken over, and so
	// what it would lose is not recorded while it is judged: code a write plants (it runs
	// later: what it loses is judged when a runner runs it), a container's command (its
	// paths are the container's), a program asked only whether it is critical.
	NoPerson bool
	Cwd      string // where the code runs, when not the file's directory (a config file's tool)
}

// codeBudget is what one classification may still read, shared by nested runners.
type codeBudget struct {
	files, bytes int
	seen         map[string]readFile // what readCode read
	// GitConfigs is the configuration git sees in a directory, before git -c (git/gitprog.go), and
	// hooks the executable files of a hooks directory: a test script runs git hundreds of
	// times in the same few directories.
	GitConfigs map[string]GitConfig
	Hooks      map[string]map[string]bool
	judged     map[codeKey]codeVerdict // judgeCode's verdicts, before takeOver
	Ahead      *Prefetcher             // programs analysed ahead of a large program's judgement
	// inside is protection.within for the directory asked last: a script's commands run in
	// a few, one after another.
	inside struct {
		dir   string
		first []string
		ok    bool
	}
}

// Within is protection.within(dir), kept for the directory asked last.
func (b *codeBudget) Within(pr *Protection, dir string) ([]string, bool) {
	if c := &b.inside; c.dir != dir || dir == "" {
		c.dir = dir
		c.first, c.ok = pr.Within(dir)
	}
	return b.inside.first, b.inside.ok
}

// readFile is what readCode read of a file ("" for nothing to read), and whether it was cut.
type readFile struct {
	text string
	cut  bool
}

// Budget is the classification's codeBudget, shared with nested results.
func (r *Result) Budget() *codeBudget {
	if r.code == nil {
		r.code = &codeBudget{seen: map[string]readFile{}}
	}
	return r.code
}

// ReadCode reads a regular file for analysis, bounded. ok is false when there is nothing to
// read (missing, not a regular file); cut is true when the file is longer than the bound or
// the classification's budget is spent (what was read is still returned).
func (r *Result) ReadCode(path string) (text string, ok, cut bool) {
	b := r.Budget()
	if f, seen := b.seen[path]; seen {
		if f.cut { // still unread past the bound, for this result too (a judgement done again)
			r.NotRead(path + " is longer than the harness reads, or past the call's budget: the rest is not judged")
		}
		return f.text, f.text != "", f.cut
	}
	if b.files >= maxCodeFiles || b.bytes >= maxCodeBytes {
		r.NotRead(path + " would run, and the call's budget (" + strconv.Itoa(maxCodeFiles) + " files, " + strconv.Itoa(maxCodeBytes>>20) + " MB) is spent: it is not judged")
		b.seen[path] = readFile{cut: true}
		return "", false, true
	}
	// Only regular files: opening a FIFO for reading would wait for a writer.
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() {
		b.seen[path] = readFile{}
		return "", false, false
	}
	f, err := os.Open(path)
	if err != nil {
		b.seen[path] = readFile{}
		return "", false, false
	}
	defer f.Close()
	limit := min(maxCodeFile, maxCodeBytes-b.bytes)
	data, err := io.ReadAll(io.LimitReader(f, int64(limit)+1))
	if err != nil {
		return "", false, false
	}
	b.files++
	if len(data) > limit {
		data, cut = data[:limit], true
		r.NotRead(path + " is longer than the harness reads (" + strconv.Itoa(limit>>10) + " kB): the rest is not judged")
	}
	b.bytes += len(data)
	text = string(data)
	b.seen[path] = readFile{text, cut}
	return text, true, cut
}

// JudgeCode judges src, code in language l that runs in cwd, and takes the verdicts over into
// r as s says (see the policy at the top of this file).
func (c *Env) JudgeCode(r *Result, src string, l Lang, cwd string, s Sink) {
	if strings.TrimSpace(src) == "" {
		return
	}
	if r.Depth >= shell.MaxDepth {
		r.Add(risk.High, ShellExec, RuleNestingTooDeep, "", s.Prefix+" code nested too deep to be read")
		r.NotRead(s.Prefix + " code nested too deep to be read")
		return
	}
	v := c.Verdicts(r, src, l, cwd, s)
	for _, p := range v.Parts {
		c.takeOver(r, p, l, s)
	}
	if v.unread != "" {
		r.NotRead(v.unread)
	}
	c.takePerson(r, v.person, s)
}

// takePerson adds the marks of the class that needs a person of code a runner runs now to
// r: its certain members, and what it may lose, for git to be asked at the end.
func (c *Env) takePerson(r *Result, p personState, s Sink) {
	if s.NoPerson || r.NoPerson {
		return
	}
	for _, h := range p.Hits {
		if h.Rule != RuleNotRead { // taken over as unread
			r.Mark(h.Rule, s.Prefix+" "+h.Reason)
		}
	}
	for _, l := range p.Losses {
		l.via = strings.TrimSpace(s.Prefix + " " + l.via)
		r.AddLoss(l)
	}
}

// Verdicts judges src, code in language l that runs in cwd, into a child of r, once per
// classification: the same code is often judged again, as a hook or a configured program for
// every git command of a test script, or a test's body handed to the same helper.
func (c *Env) Verdicts(r *Result, src string, l Lang, cwd string, s Sink) codeVerdict {
	key := codeKey{src, cwd, l, r.Proxy, r.Depth, s.Fragment, s.NoPerson || r.NoPerson, s.runsConfined(r)}
	b := r.Budget()
	v, seen := b.judged[key]
	if !seen {
		sub := r.Child(s)
		if l == LangShell {
			c.Program(sub, src, cwd)
		} else {
			c.langCode(sub, src, l, cwd)
		}
		v = codeVerdict{sub.Parts, sub.unread(), sub.Person}
		if b.judged == nil {
			b.judged = map[codeKey]codeVerdict{}
		}
		b.judged[key] = v
	}
	return v
}

// codeVerdict is what judging code from a file found: its verdicts, code it did not read,
// and its marks of the class that needs a person.
type codeVerdict struct {
	Parts  []Part
	unread string
	person personState
}

// unread is the reason of r's not_read mark, or "".
func (r *Result) unread() string {
	for _, h := range r.Person.Hits {
		if h.Rule == RuleNotRead {
			return strings.TrimSuffix(h.Reason, Consequence(RuleNotRead))
		}
	}
	return ""
}

// codeKey is what the verdicts of judgeCode depend on.
type codeKey struct {
	src, cwd string
	l        Lang
	proxy    bool
	depth    int
	fragment bool
	noPerson bool
	confined bool
}

// Child is the result a nested program is judged into (code from a file, a container's
// command, a program given to another): one level deeper, sharing the classification's
// budget and memory of links. The nested program runs confined only when it runs now, in
// the call's own sandbox: code a write plants runs later, by whoever runs its runner,
// perhaps outside any sandbox, and a container's or CI server's command runs elsewhere, so
// neither may count on the sandbox (a planted "curl … | sh" is judged as if unconfined).
func (r *Result) Child(s Sink) *Result {
	return &Result{Depth: r.Depth + 1, code: r.Budget(), Proxy: r.Proxy, links: r.Resolver(), VerdictOnly: true,
		Fragment: s.Fragment, NoPerson: s.NoPerson || r.NoPerson, Confined: s.runsConfined(r), Box: s.box(r), Bounded: r.Bounded && s.runsConfined(r), Project: r.Project}
}

// box is the verdict code judged into a Child of r runs under: r's when it runs in r's
// sandbox, else none (reach.go then leaves every remote finding to the harness).
func (s Sink) box(r *Result) *sandbox.Verdict {
	if s.runsConfined(r) {
		return r.Box
	}
	return nil
}

// runsConfined reports whether code judged into a Child of r runs in r's sandbox.
func (s Sink) runsConfined(r *Result) bool {
	return r.Confined && !s.NoPerson && !r.NoPerson && !s.Elsewhere
}

func (c *Env) TakeOverAll(r, sub *Result, l Lang, s Sink) {
	for _, p := range sub.Parts {
		c.takeOver(r, p, l, s)
	}
	if why := sub.unread(); why != "" {
		r.NotRead(why)
	}
	c.takePerson(r, sub.Person, s)
}

// takeOver adds one verdict of code from a file to r, by the policy at the top of this file.
func (c *Env) takeOver(r *Result, p Part, l Lang, s Sink) {
	lvl := p.Risk
	if lvl.Value() < risk.High.Value() {
		return
	}
	switch p.Reason.Rule {
	case RuleTooManyCommands, RuleTooLong, RuleNestingTooDeep:
		// What follows the bound is not analysed: a person reads it (notRead).
		r.NotRead(s.Prefix + " " + p.Reason.Detail)
	}
	if lvl == risk.Critical && onlyUnknown(p.Reason.Rule, p.OnlyUnknown) {
		lvl = risk.High
		if s.Rule == RulePlantedCode && plantedUnknown(p.Reason.Rule) {
			// Planted for later: whoever runs it may run it outside any sandbox, and what it
			// reaches ($(HOME), a variable of the environment) is not read (issue 29).
			r.NotRead(s.Prefix + " " + p.Reason.Detail)
		}
	}
	if l != LangShell && lvl != risk.Critical {
		return
	}
	if s.Elsewhere && lvl == risk.Critical && !(s.Secrets && p.Reason.Rule == RuleNetworkExternal) {
		lvl = risk.High
	}
	domain, rule := p.Domain, p.Reason.Rule
	if domain == FileWrite {
		domain = ShellExec // a recipe or script that deletes files is a program run, not an edit
	}
	// A large file repeats itself ($CC in every recipe, rm in every clean): a few reasons of
	// each kind say it, and one line says there are more; the risk is the same.
	kind := reasonKind{s.Prefix, p.Reason.Rule, lvl}
	if r.taken == nil {
		r.taken = map[reasonKind]int{}
	}
	r.taken[kind]++
	most := maxReasonsOfAKind
	if lvl == risk.Critical {
		most = maxCriticalOfAKind // what blocks the call is what a person most needs to see
	}
	switch n := r.taken[kind]; {
	case n == most+1:
		r.Add(lvl, Pick(s.Domain, domain), Pick(s.Rule, rule), "", s.Prefix+" more of the same ("+p.Reason.Rule+"), not listed")
		return
	case n > most:
		return
	}
	if s.Domain != "" {
		domain = s.Domain
	}
	detail := p.Reason.Detail
	if s.Rule != "" {
		detail = rule + ": " + detail
		rule = s.Rule
	}
	if cmd := strings.TrimSpace(p.Reason.Command); cmd != "" && !strings.Contains(detail, cmd) {
		detail = QuoteRaw(cmd) + ": " + detail
	}
	r.AddUnknown(lvl, domain, rule, p.Reason.Command, s.Prefix+" "+detail, p.Carried())
}

// plantedUnknown reports the verdicts of planted code that make it code not read: a
// recursive deletion whose target cannot be known statically (it could be / or ~).
func plantedUnknown(rule string) bool {
	return rule == RuleCatastrophe
}

// maxReasonsOfAKind is how many reasons of one rule and risk code from one file gives;
// maxCriticalOfAKind the same for critical ones.
const (
	maxReasonsOfAKind  = 3
	maxCriticalOfAKind = 12
)

// reasonKind is what takeOver counts reasons by.
type reasonKind struct {
	prefix, rule string
	risk         risk.Level
}

// onlyUnknown reports a critical verdict that says only that something cannot be known
// statically (and bounds exceeded), as opposed to a catastrophe that can be seen: its rule is
// one that says nothing else, or its producer marked it (marked, Part.OnlyUnknown). It reads
// no reason's words, so rewording one cannot change a decision.
func onlyUnknown(rule string, marked bool) bool {
	switch rule {
	case RuleDynamicCommand, RuleDynamicProgram, RuleProgramFromStdin, RuleSelfProtectionUnknownTarget,
		RuleNestingTooDeep, RuleTooLong, RuleTooManyCommands, RuleSecretVariable:
		return true
	case RuleSelfProtection:
		return false // the harness's own tools and paths stay critical however they are named
	}
	return marked
}

// fileCodeWords are what a block of code in another language must contain for the
// inline-code analysis to find it critical: running something, deleting a tree, eval
// (decode-then-run), or the harness's names (with c.codeMentions). fileNetWords make it
// critical only next to a host that is neither local nor reserved (externalHost). A block
// with neither is not analysed at all, which keeps a large test file cheap.
var (
	fileCodeWords = []string{"system", "exec", "popen", "subprocess", "spawn", "child_process", "qx", "%x", "pcntl", "passthru",
		"proc_open", "command(", "command::new", "eval", "rmtree", "rm_rf", "rm_r", "rmsync", "rmdirsync", "remove_dir_all", "removeall", "rimraf",
		"remove_tree", "file::path", "fs.rm", "deltree", "fileutils.rm", "b64", "base64", "atob", "oath", "claude",
		"trust-scores", "current-phase", "protected-files"}
	fileNetWords = []string{"urllib", "requests", "http", "socket", "fetch(", "lwp", "urlopen", "axios", "websocket", "smtplib",
		"ftplib", "telnetlib", "paramiko", "open-uri", "curl", "invoke-", "net.", "net::", "fsockopen", "dial"}
)

// langCode runs the inline-code analysis over code in a file, block by block (blank-line
// separated, at most 4 kB each, so that its bounded literal scan sees the whole file), and
// only over the blocks that contain a word it could find critical.
func (c *Env) langCode(r *Result, src string, l Lang, cwd string) {
	if l == LangGo || l == LangJS || l == LangRust || l == LangPython {
		// `…` is a string here, not a command (Go raw strings, JS templates), and || is "or".
		src = strings.ReplaceAll(strings.ReplaceAll(src, "`", "\""), "||", "  ") // quicker than a Replacer of both
	}
	low := strings.ToLower(src)
	blocks := codeBlocks(src, 4096)
	strong := make([]bool, len(blocks))
	net := make([]bool, len(blocks))
	ends := make([]int, len(blocks))
	for i, off := 0, 0; i < len(blocks); i++ {
		off += len(blocks[i])
		ends[i] = off
	}
	// One pass over the text: at each byte, only the words that start with it and the next
	// byte are compared (second: the set of second bytes per first byte, every byte for a
	// word of one).
	var first [256][]string
	var second [256][4]uint64
	var net256 [256]bool
	for _, ws := range [][]string{fileCodeWords, c.CodeMentions, fileNetWords} {
		for _, w := range ws {
			switch {
			case len(w) == 1:
				second[w[0]] = [4]uint64{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
			case len(w) > 1:
				second[w[0]][w[1]>>6] |= 1 << (w[1] & 63)
			}
			if w != "" {
				first[w[0]] = append(first[w[0]], w)
			}
		}
	}
	for _, w := range fileNetWords {
		net256[w[0]] = true
	}
	isNet := func(w string) bool { return slices.Contains(fileNetWords, w) }
	for i, b := 0, 0; i < len(low); i++ {
		for i >= ends[b] {
			b++
		}
		if strong[b] {
			i = ends[b] - 1 // the block is analysed anyway
			continue
		}
		if i+1 < len(low) && second[low[i]][low[i+1]>>6]&(1<<(low[i+1]&63)) == 0 {
			continue // no word starts with these two bytes
		}
		for _, w := range first[low[i]] {
			if !strings.HasPrefix(low[i:], w) {
				continue
			}
			if net256[w[0]] && isNet(w) {
				net[b] = true
			} else {
				strong[b] = true
				break
			}
		}
	}
	for i, b := range blocks {
		if !strong[i] && !(net[i] && externalHost(b)) {
			continue
		}
		sub := &Result{Depth: r.Depth, code: r.code}
		x := &Command{Env: c, Call: sub, Name: l.interp(), Src: Clip(b),
			Cmd: &shell.Cmd{Args: []shell.Word{{Value: l.interp(), Known: true}}, Dir: shell.Dir{Paths: []string{cwd}}}}
		x.Env.InlineCode(*x, shell.Word{Value: b, Known: true})
		if x.Env.DecodedCode != nil {
			// A payload decoded and run (exec(bytes.fromhex(…))) cannot be read: judged a
			// statement at a time, so that a test's decode and an unrelated exec far apart
			// in the block are not taken for one (issue 29).
			for _, line := range strings.Split(b, "\n") {
				x.Env.DecodedCode(*x, shell.Word{Value: line, Known: true})
			}
		}
		for _, p := range sub.Parts {
			if p.Reason.Rule == RuleNetworkExternal && !externalHost(b) {
				continue // only reserved or local hosts named (example.com in a handler test)
			}
			r.Parts = append(r.Parts, p)
		}
	}
}

// codeBlocks splits src at blank lines into blocks of at most max bytes (a longer paragraph
// is cut at line ends).
func codeBlocks(src string, max int) []string {
	var out []string
	start, last := 0, 0
	for i := 0; i < len(src); i++ {
		if src[i] != '\n' {
			continue
		}
		blank := i+1 < len(src) && src[i+1] == '\n'
		if i+1-start > max && last > start {
			out = append(out, src[start:last])
			start = last
		}
		last = i + 1
		if blank && i+1-start > max/4 {
			out = append(out, src[start:i+1])
			start = i + 1
		}
	}
	if start < len(src) {
		out = append(out, src[start:])
	}
	return out
}

// externalHost reports a URL or host name literal in code that is neither local nor one of
// the names reserved for examples and tests (RFC 2606/6761: example.com, *.test, *.invalid …).
func externalHost(code string) bool {
	for _, l := range Literals(code) {
		ll := strings.ToLower(strings.TrimSpace(l))
		switch {
		case strings.Contains(ll, "://"):
			if !IsLocalURL(ll) && !reservedHost(URLHost(ll)) {
				return true
			}
		case strings.Contains(ll, ".") && !strings.ContainsAny(ll, " /") && HostLike(ll):
			if !reservedHost(ll) {
				return true
			}
		}
	}
	return false
}

func reservedHost(h string) bool {
	h = strings.TrimSuffix(strings.ToLower(h), ".")
	for _, d := range []string{"example.com", "example.net", "example.org", "example", "test", "invalid", "localhost"} {
		if h == d || strings.HasSuffix(h, "."+d) {
			return true
		}
	}
	return false
}

// Clip is s trimmed and cut to 200 bytes, for reasons.
func Clip(s string) string { return ClipText(strings.TrimSpace(s)) }
