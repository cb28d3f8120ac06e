// Package shell finds every simple command a bash program would run, seeing through wrappers
// and second programs, so that risk can be judged on parsed argv rather than on the raw string.
//
// It does not judge risk itself (internal/classify does); it reports what it saw: the commands
// (argv after unwrapping), the redirections, the variable names read or assigned, and the
// structural findings that make a program opaque (unparsable, dynamic command names, programs
// read from a pipe, bounds exceeded). What cannot be known statically is marked unknown, never
// guessed to be harmless.
package shell

import (
	"path/filepath"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"github.com/oath-harness/oath-harness/internal/command"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// Bounds on the work one program may cause. Beyond them the program is not analysed further
// and a critical finding says why: no legitimate command nests this deep, and an attacker
// could hide anything past the bound.
const (
	MaxSource   = 256 << 10 // bytes of one program
	MaxDepth    = 8         // nested programs (bash -c, eval, heredocs to a shell)
	MaxNesting  = 64        // brackets ( { [ nested in the source text
	MaxCommands = 2000      // simple commands in the whole program, nested ones included
)

// Rule ids of the findings this package reports; classify's ruleids.go lists them with the
// rest of the rule ids.
const (
	RuleDynamicCommand  = "dynamic_command"   // the command name cannot be known statically
	RuleDynamicProgram  = "dynamic_program"   // a second program (bash -c, eval, make -f) cannot be known statically
	RuleNestingTooDeep  = "nesting_too_deep"  // nested programs or brackets past a bound: not analysed further
	RuleTooLong         = "too_long"          // a program longer than MaxSource: not analysed
	RuleTooManyCommands = "too_many_commands" // more than MaxCommands simple commands: not analysed further
	RuleUnparsable      = "unparsable"        // the shell parser rejects the program
	RuleIFSChanged      = "ifs_changed"       // the program changes IFS: word splitting is not modelled
)

// Dyn stands for a value that cannot be known statically. It is spelled as a parameter
// expansion so that a second program built from a dynamic word still parses, and the dynamic
// part stays unknown in it.
const Dyn = "${__oath_dyn}"

// Word is one argument after expansion (the type lives in package command, whose option
// parser and program table read it).
type Word = command.Word

// Dir is the working directory a command may run in: every directory it may be in after the
// cd's seen so far, or Unknown when one of them could not be known.
type Dir struct {
	Paths   []string
	Unknown bool
}

// Cmd is one simple command, after unwrapping.
type Cmd struct {
	Args      []Word   // argv; Args[0] is the program as written (a path, a name)
	Via       []string // wrappers and program-carriers seen through, outermost first
	StdinArgs bool     // more arguments come from stdin (xargs)
	ArgsFrom  string   // with StdinArgs: the statement piping xargs its arguments, when it is one
	Stdin     bool     // its program comes from stdin (a shell or interpreter with nothing to run)
	Input     string   // where its stdin comes from: "pipe", "catfile", "file", "heredoc" or "" (nothing said)
	Feed      string   // what feeds its stdin: the piping statement's text, or the here-document (Dyn where unknown)
	Carrier   bool     // its program (bash -c, eval, trap …) was analysed as commands of its own
	Code      *Word    // the inline program of an interpreter (python -c, perl -e, awk '…', a heredoc)
	Script    Word     // the file its program comes from on stdin (sh < FILE, cat FILE | sh), when Input says so
	// StdinFile is the file its stdin comes from (tee F < FILE, cat FILE | tee F), when Input
	// is "file" or "catfile": what tee copies into its files.
	StdinFile Word
	Dir       Dir
	Depth     int    // 0 for the top-level program, +1 for each nested one
	Src       string // the simple command as written
}

func (c *Cmd) setCode(w Word) { c.Code = &w }

// Name is the base name of the program, "" when it is not known statically.
func (c *Cmd) Name() string {
	if len(c.Args) == 0 || !c.Args[0].Known {
		return ""
	}
	return filepath.Base(c.Args[0].Value)
}

// Redir is a redirection of a statement.
type Redir struct {
	Op     string // as written: >, >>, <, &>, …
	Target Word
	Write  bool // the target file is written
	Dir    Dir
	Src    string
	Depth  int
	Text   *Word // what a write puts in the file, when it can be read (cat <<EOF, echo)
	// From are the files a write copies into its target when the statement is cat FILE…
	// (cat x >> .git/config): the text is on disk, read only when the target needs it.
	From []Word
}

// Name is a variable name read ($X) or assigned (X=…, export X, env X=…).
type Name struct {
	Name   string
	Assign bool
	Value  Word // an assignment's value (unknown for arrays, appends and bare exports)
	Src    string
}

// Finding is something about the program's structure that makes it risky by itself.
type Finding struct {
	Rule   string
	Risk   risk.Level
	Src    string
	Detail string
	// NameUnknown: it is critical only because the command name cannot be known statically
	// (dynamicName), which classify may lower inside a sandbox that bounds the call's writes.
	NameUnknown bool
}

// FuncDecl is a function the program defines; Forks reports a body that calls the function
// itself in a pipe or in the background (the fork-bomb shape).
type FuncDecl struct {
	Name  string
	Forks bool
	Src   string
}

// Program is everything Analyze saw.
type Program struct {
	Cmds     []Cmd
	Redirs   []Redir
	Names    []Name
	Findings []Finding
	// Broken: the program does not parse as written (what was analysed is a repaired or
	// shortened copy, or nothing).
	Broken bool
	// Unread is the parser's error when a program (or one nested in it) does not parse and
	// what follows the error was not analysed: bash may still run it (it accepts programs the
	// parser does not, such as `! ! true`).
	Unread string
	// Unreads counts the programs (the top-level one, nested ones) the parser could not read.
	Unreads int
	// Cut, with Options.Cut, is where the top-level program stops parsing: the complete lines
	// before the erroring statement's line were analysed (Prefix, "" when the error is on the
	// first line), and nothing from Line on was. Whether bash runs any of the rest is for the
	// caller to establish (bash runs the complete commands before a syntax error, none after).
	Cut   *Cut
	Funcs []FuncDecl
	// Loops are the words `for NAME in WORDS` loops go over, expanded (globs kept as
	// patterns): what the loop's commands do with "$NAME" is done to them.
	Loops []Word
}

// Cut is where a program the parser cannot read stops: see Program.Cut.
type Cut struct {
	Line    int    // the 1-based line the erroring statement starts on, as far as the prefix shows
	Prefix  string // the complete lines before it, analysed
	Src     string // the whole program
	Finding int    // the index in Findings of the parser's complaint
}

// Options say where the program runs.
type Options struct {
	// Cut: record Program.Cut for a top-level program that does not parse.
	Cut  bool
	Cwd  string // absolute; relative paths are resolved against it
	Home string // $HOME and ~; "" = unknown
	// Env are variables whose value the program inherits and the caller knows (TMPDIR inside
	// Claude Code's sandbox, which sets it); the program may change them as any other.
	Env map[string]string
	// Pieces: src is JoinPieces(Pieces). Unless its top-level statements are exactly those
	// subshells, each between the parentheses JoinPieces wrote for it (a piece could close its
	// parenthesis and open another, or begin a quote or a here-document that ends in the
	// next), the program is Broken.
	Pieces []string
	// Batches, when set, receives the commands while the analysis goes on: those of each
	// top-level statement once it is walked, in order, as slices the receiver owns; it is
	// closed when Analyze returns, and the Program's Cmds are then empty: every command went
	// out in a batch. A caller judges them on another core while the rest of the program is
	// parsed and walked. A nil batch withdraws every batch before it: the analysis starts
	// again (a program that does not parse, found half-way).
	Batches chan<- []Cmd
	// Names, when set, says which variables Program.Names lists, by name and whether the
	// program assigns it. A caller that reads only some (classify: secrets, proxies,
	// variables that carry code) spares the walk a list of every variable a 100 kB script
	// reads; nil lists them all.
	Names func(name string, assign bool) bool
}

// JoinPieces makes one program of pieces that each run in a shell of their own (recipe lines,
// package.json scripts): each in a subshell, so that a cd or a variable stays in its piece.
// One parse instead of hundreds; Options.Pieces checks that no piece escaped its subshell.
func JoinPieces(pieces []string) string {
	var b strings.Builder
	for _, p := range pieces {
		b.WriteString("(\n")
		b.WriteString(p)
		b.WriteString("\n)\n")
	}
	return b.String()
}

// joinedAsWritten reports whether f's top-level statements are the subshells JoinPieces wrote
// for pieces: each opens and closes at the offsets of its own parentheses.
func joinedAsWritten(f *syntax.File, pieces []string) bool {
	j := joined{pieces: pieces}
	for _, st := range f.Stmts {
		if !j.next(st) {
			return false
		}
	}
	return j.all()
}

// joined checks, statement by statement, that a program is JoinPieces(pieces) as written.
type joined struct {
	pieces []string
	i, off int // the piece the next statement must be, and where its parenthesis opens
}

// next reports whether st is the next piece's subshell, opened and closed at the offsets of
// its own parentheses.
func (j *joined) next(st *syntax.Stmt) bool {
	if j.i >= len(j.pieces) {
		return false
	}
	sub, ok := st.Cmd.(*syntax.Subshell)
	if !ok || st.Negated || st.Background || st.Coprocess || len(st.Redirs) > 0 || st.Semicolon.IsValid() {
		return false
	}
	open, close := j.off, j.off+len("(\n")+len(j.pieces[j.i])+len("\n")
	if int(sub.Lparen.Offset()) != open || int(sub.Rparen.Offset()) != close {
		return false
	}
	j.i, j.off = j.i+1, close+len(")\n")
	return true
}

// all reports whether every piece had its statement.
func (j *joined) all() bool { return j.i == len(j.pieces) }

// Analyze parses src as bash and reports what it would run. It never fails: what it cannot
// parse or bound becomes a finding.
func Analyze(src string, opt Options) *Program {
	a := &analyzer{prog: &Program{}, opt: opt}
	if opt.Batches != nil {
		defer close(opt.Batches)
	}
	a.program(src, 0, Dir{Paths: []string{opt.Cwd}}, nil, "")
	a.publish()
	if a.parser != nil {
		parsers.Put(a.parser)
	}
	if a.opt.Batches == nil { // else every command went out in a batch
		a.prog.Cmds = a.cmds.slice()
	}
	a.prog.Redirs, a.prog.Names = a.redirs.slice(), a.names.slice()
	a.prog.Findings, a.prog.Funcs = a.findings.slice(), a.funcs.slice()
	a.prog.Loops = a.loops.slice()
	return a.prog
}

// name lists n among the program's variables, unless Options.Names leaves it out.
func (a *analyzer) name(n Name) {
	if a.opt.Names == nil || a.opt.Names(n.Name, n.Assign) {
		a.names.add(n)
	}
}

// wantsName reports whether a variable would be listed (name): the caller spares itself the
// expansion of a value no one reads.
func (a *analyzer) wantsName(name string, assign bool) bool {
	return a.opt.Names == nil || a.opt.Names(name, assign)
}

// publish hands the commands found since the last batch to Options.Batches, as the list's
// own memory (take): the receiver owns them from then on, and a large program's commands are
// neither copied nor kept twice.
func (a *analyzer) publish() {
	if a.opt.Batches == nil {
		return
	}
	if batch := a.cmds.take(); batch != nil {
		a.opt.Batches <- batch
	}
}

type analyzer struct {
	prog     *Program // its lists are collected below until Analyze returns
	cmds     list[Cmd]
	redirs   list[Redir]
	names    list[Name]
	findings list[Finding]
	funcs    list[FuncDecl]
	loops    list[Word]
	opt      Options
	ncmd     int
	stop     bool // MaxCommands reached
	// escVars are variables assigned a word spelled in $'…' escapes (see Word.Escaped).
	escVars map[string]bool
	parser  *syntax.Parser // reused by every nested program (a large script has hundreds)
}

// parse parses src as bash. The trees stay valid after the parser is used again.
func (a *analyzer) parse(src string) (*syntax.File, error) {
	if a.parser == nil {
		a.parser = parsers.Get().(*syntax.Parser)
	}
	return a.parser.Parse(strings.NewReader(src), "")
}

// parsers are bash parsers to reuse: a test script's bodies are analysed one by one, hundreds
// of programs, and a parser is large. Analyze returns its parser when it is done.
var parsers = sync.Pool{New: func() any { return syntax.NewParser(syntax.Variant(syntax.LangBash)) }}

func (a *analyzer) finding(rule string, lvl risk.Level, src, detail string) {
	a.findings.add(Finding{Rule: rule, Risk: lvl, Src: clip(src), Detail: detail})
}

// dynamicName reports src's command name, which cannot be known statically: at high,
// earned trust would run any program.
func (a *analyzer) dynamicName(src string) {
	a.findings.add(Finding{Rule: RuleDynamicCommand, Risk: risk.Critical, Src: clip(src),
		Detail: "the command name in " + quote(clip(src)) + " cannot be known statically", NameUnknown: true})
}

// program analyses one (possibly nested) program. via is the wrapper chain that led to it.
// It returns the directories the program may leave the shell in (for eval).
func (a *analyzer) program(src string, depth int, dir Dir, via []string, carrier string) Dir {
	if depth > MaxDepth {
		a.finding(RuleNestingTooDeep, risk.Critical, src, "more than "+itoa(MaxDepth)+" nested programs (bash -c, eval …): not analysed further")
		return dir
	}
	if len(src) > MaxSource {
		a.finding(RuleTooLong, risk.Critical, src[:200], "program longer than "+itoa(MaxSource)+" bytes: not analysed")
		return dir
	}
	if n := bracketDepth(src); n > MaxNesting {
		a.finding(RuleNestingTooDeep, risk.Critical, src, "brackets nested "+itoa(n)+" deep (bound "+itoa(MaxNesting)+"): not analysed")
		return dir
	}
	if depth == 0 && a.opt.Batches != nil && len(src) >= streamMin {
		if d, ok := a.streamed(src, dir, via); ok {
			return d
		}
		a.withdraw() // a parse error: analysed again, as below, from the start
	}
	f, err := a.parse(src)
	if depth == 0 && (err != nil || a.opt.Pieces != nil && !joinedAsWritten(f, a.opt.Pieces)) {
		a.prog.Broken = true
		if err == nil {
			return dir // the caller judges the pieces one by one
		}
	}
	if perr := err; err != nil {
		// bash runs a here-document that is never closed up to the end of the program (with
		// a warning): so must the analysis.
		fixed := src
		for try := 0; try < 4 && err != nil; try++ {
			_, rest, ok := strings.Cut(err.Error(), "unclosed here-document `")
			delim, _, ok2 := strings.Cut(rest, "`")
			if !ok || !ok2 || delim == "" {
				break
			}
			fixed += "\n" + delim + "\n"
			var f2 *syntax.File
			if f2, err = a.parse(fixed); err == nil {
				a.finding(RuleUnparsable, risk.High, src, "a here-document is never closed: bash reads it to the end of the program")
				return a.file(f2, fixed, depth, dir, via)
			}
		}
		err = perr
	}
	if err != nil {
		detail := err.Error()
		at := a.findings.len()
		a.finding(RuleUnparsable, risk.High, src, "the shell parser says: "+detail)
		if a.prog.Unread == "" {
			a.prog.Unread = detail
		}
		a.prog.Unreads++
		pe, ok := err.(syntax.ParseError)
		cut := ok && depth == 0 && a.opt.Cut && a.prog.Unreads == 1
		if ok && pe.Pos.Line() == 1 && cut {
			a.prog.Cut = &Cut{Line: 1, Src: src, Finding: at}
		}
		// bash runs a program line by line: what comes before the broken line runs. Analyse it.
		if ok && pe.Pos.Line() > 1 {
			if prefix := linesBefore(src, int(pe.Pos.Line())); prefix != "" {
				if f2, err2 := a.parse(prefix); err2 == nil {
					if cut && a.complete(f2, prefix) {
						a.prog.Cut = &Cut{Line: int(pe.Pos.Line()), Prefix: prefix, Src: src, Finding: at}
					}
					return a.file(f2, prefix, depth, dir, via)
				}
			}
		}
		return dir
	}
	return a.file(f, src, depth, dir, via)
}

// complete reports a prefix f (parsed from prefix) that ends at a statement's end: a line
// added after it is a statement of its own, on that line (no trailing \, &&, | or open
// here-document joins it to the last).
func (a *analyzer) complete(f *syntax.File, prefix string) bool {
	const sentinel = "oath_sentinel_statement"
	g, err := a.parse(prefix + sentinel + "\n")
	if err != nil || len(g.Stmts) != len(f.Stmts)+1 {
		return false
	}
	last := g.Stmts[len(g.Stmts)-1]
	call, ok := last.Cmd.(*syntax.CallExpr)
	return ok && len(call.Args) == 1 && call.Args[0].Lit() == sentinel && len(last.Redirs) == 0 &&
		int(last.Pos().Line()) == strings.Count(prefix, "\n")+1 && !last.Negated && !last.Background
}

func linesBefore(src string, line int) string {
	n := 0
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' {
			n++
			if n == line-1 {
				return src[:i+1]
			}
		}
	}
	return ""
}

// bracketDepth is the deepest nesting of ( { [ in src, quotes ignored: a cheap bound taken
// before parsing, since the parser and the walk recurse once per level.
func bracketDepth(src string) int {
	d, max := 0, 0
	for i := 0; i < len(src); i++ {
		switch bracket[src[i]] {
		case 0:
		case 1:
			d++
			if d > max {
				max = d
			}
		default:
			if d > 0 {
				d--
			}
		}
	}
	return max
}

// bracket is 1 for an opening bracket, -1 for a closing one (a table: bracketDepth reads every
// byte of a large program).
var bracket = [256]int8{'(': 1, '{': 1, '[': 1, ')': -1, '}': -1, ']': -1}

func clip(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}
