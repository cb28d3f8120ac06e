package shell

import (
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/oath-harness/oath-harness/internal/risk"
)

// walker visits one parsed program. Variables assigned statically in the program are tracked
// (so `F=x; echo > $F` is known to write x), from a literal or from another variable known
// (`X=/; T=$X`); one read, looped over, or inherited from the environment without a value the
// caller knows is unknown. An assignment that always runs before what follows (sure) gives
// the variable its value; one that may or may not run (a branch, a loop, a function's body)
// leaves two possible values when it differs from the one before: unknown.
type walker struct {
	a     *analyzer
	src   string
	depth int
	dir   Dir
	via   []string
	vars  map[string]string
	dyn   map[string]bool
	// pinned are the variables a sure assignment does not simply set: assigned somewhere that
	// may or may not run, or that may run later (a function's body), given by read, a loop or
	// printf -v, a nameref, readonly, an array. Their value after one stays as setVar leaves
	// a second value: unknown when it differs.
	pinned map[string]bool
	// loopVals are the values a for loop's variable takes, when every one is known: ${!v}
	// in the loop reads the variables they name.
	loopVals map[string][]string
	stack    []syntax.Node
	// aliases defined in this program (alias x='rm -rf'): bash expands them in a later
	// command's first word once expand_aliases is on, so a use of x is analysed as its value.
	aliases map[string]string
	// procs are the process substitutions of the command being expanded, by the /dev/fd
	// path they expand to, so that `bash <(echo …)` can see what it runs.
	procs map[string]*syntax.ProcSubst
	// procAt and procCount: procRank's count of <( and >( in src[:procAt].
	procAt, procCount int
	// fieldBuf holds the fields of the last simple word expanded (fields).
	fieldBuf []string
	ifs      bool // the program changed IFS: an unquoted expansion may split anywhere
	// cdUnknown: CDPATH was set or cdable_vars turned on, so cd NAME may go anywhere.
	cdUnknown bool
	heredocs  bool           // the program has a here-document: $(cat <<'EOF' …) may be known text
	cfg       *expand.Config // the expander's configuration, made once (config)
	// dirs are the directories before each subshell being walked: bash runs ( … ), $( … )
	// and <( … ) in a shell of its own, so a cd there ends with it.
	dirs []Dir
}

func (a *analyzer) file(f *syntax.File, src string, depth int, dir Dir, via []string) Dir {
	w := a.walker(src, depth, dir, via)
	if depth > 0 || a.opt.Batches == nil {
		walkTree(f, w.visit)
		return w.dir
	}
	// Statement by statement, to hand out each one's commands once it is walked (a
	// statement's walk may still change the commands it emitted: xargs marks them).
	w.stack = append(w.stack, f)
	for _, st := range f.Stmts {
		if a.stop {
			break
		}
		walkTree(st, w.visit)
		a.publish()
	}
	return w.dir
}

// ownShell reports a node bash runs in a shell of its own, whose cd ends with it: ( … ), $( … ),
// ` … `, <( … ). Not bash 5.3's ${ …; } and ${| …; }, which run in the current shell.
func ownShell(n syntax.Node) bool {
	switch n := n.(type) {
	case *syntax.Subshell, *syntax.ProcSubst:
		return true
	case *syntax.CmdSubst:
		return !n.TempFile && !n.ReplyVar
	}
	return false
}

// walker starts the walk of a program (src) that runs in dir.
func (a *analyzer) walker(src string, depth int, dir Dir, via []string) *walker {
	w := &walker{a: a, src: src, depth: depth, dir: dir, via: via, vars: map[string]string{}, dyn: map[string]bool{}, heredocs: strings.Contains(src, "<<")}
	for k, v := range a.opt.Env {
		w.vars[k] = v
	}
	if a.opt.Home != "" {
		w.vars["HOME"] = a.opt.Home
	}
	if len(dir.Paths) == 1 && !dir.Unknown {
		w.vars["PWD"] = dir.Paths[0]
	}
	return w
}

func (w *walker) visit(n syntax.Node) bool {
	if n == nil {
		if ownShell(w.stack[len(w.stack)-1]) {
			w.dir, w.dirs = w.dirs[len(w.dirs)-1], w.dirs[:len(w.dirs)-1]
		}
		w.stack = w.stack[:len(w.stack)-1]
		return true
	}
	if w.a.stop {
		return false
	}
	switch n.(type) {
	case *syntax.Lit, *syntax.SglQuoted:
		// Leaves with nothing to see, and most of the nodes: no ancestor of any node (the
		// stack), and false spares the call on the way back.
		return false
	}
	w.stack = append(w.stack, n)
	if ownShell(n) {
		w.dirs = append(w.dirs, w.dir)
	}
	switch n := n.(type) {
	case *syntax.Stmt:
		w.redirs(n)
	case *syntax.CallExpr:
		w.call(n)
	case *syntax.DeclClause:
		w.decl(n)
	case *syntax.ParamExp:
		if n.Param != nil && w.a.wantsName(n.Param.Value, false) {
			w.a.names.add(Name{Name: n.Param.Value, Src: clip(w.text(n))})
		}
		if n.Excl && n.Param != nil && n.Index == nil && n.Names == 0 {
			// ${!x}: the variable whose name x holds is read; Dyn when it is not known.
			names := []string{Dyn}
			if v, ok := w.vars[n.Param.Value]; ok && !w.dyn[n.Param.Value] && syntax.ValidName(v) {
				names = []string{v}
			} else if vs, ok := w.loopVals[n.Param.Value]; ok { // for v in A B; do "${!v}"
				names = vs
			}
			for _, name := range names {
				if !syntax.ValidName(name) {
					name = Dyn
				}
				if name == Dyn || w.a.wantsName(name, false) {
					w.a.names.add(Name{Name: name, Src: clip(w.text(n))})
				}
			}
		}
	case *syntax.ForClause:
		if it, ok := n.Loop.(*syntax.WordIter); ok && it.Name != nil {
			w.unknownVar(it.Name.Value)
			var vals []string
			known := true
			for _, item := range it.Items {
				if w.a.loops.len() >= 256 {
					known = false
					break // bounded: what lies past is judged by its commands alone
				}
				for _, v := range w.expand(item) {
					w.a.loops.add(v)
					known = known && v.Known && !v.Glob
					vals = append(vals, v.Value)
				}
			}
			if known && len(it.Items) > 0 {
				if w.loopVals == nil {
					w.loopVals = map[string][]string{}
				}
				w.loopVals[it.Name.Value] = vals
			} else if w.loopVals != nil {
				delete(w.loopVals, it.Name.Value)
			}
		}
	case *syntax.FuncDecl:
		w.funcDecl(n)
	}
	return true
}

func (w *walker) text(n syntax.Node) string {
	s, e := int(n.Pos().Offset()), int(n.End().Offset())
	if s < 0 || e > len(w.src) || s > e {
		return ""
	}
	return w.src[s:e]
}

// env answers the expander: known variables by value, everything else as Dyn.
func (w *walker) env(name string) string {
	if name == "IFS" {
		return "" // the default; a program that sets IFS gets a finding instead
	}
	if v, ok := w.vars[name]; ok && !w.dyn[name] {
		return v
	}
	return Dyn
}

// config is the expander's configuration: made once per walker, since every word of a large
// program is expanded with it (its functions read the walker's state when called).
func (w *walker) config() *expand.Config {
	if w.cfg == nil {
		w.cfg = w.newConfig()
	}
	return w.cfg
}

// newConfig makes an expander's configuration. An expansion inside an expansion (the text of
// $(cat <<EOF …) while a word is expanded) needs one of its own: a configuration holds the
// buffers of the expansion under way.
func (w *walker) newConfig() *expand.Config {
	return &expand.Config{
		Env:      expand.FuncEnviron(w.env),
		CmdSubst: w.cmdSubst(),
		ProcSubst: func(ps *syntax.ProcSubst) (string, error) {
			if w.procs == nil {
				w.procs = map[string]*syntax.ProcSubst{}
			}
			for p, seen := range w.procs {
				if seen == ps { // a word expanded twice (a value, then its variable) names it once
					return p, nil
				}
			}
			n := 63 + w.procRank(ps)
			for w.procs["/dev/fd/"+itoa(n)] != nil { // a substitution of another text
				n++
			}
			p := "/dev/fd/" + itoa(n)
			w.procs[p] = ps
			return p, nil
		},
	}
}

// procRank is the number of process substitutions, <( or >(, spelled in the program before
// ps: its /dev/fd path depends on where it stands, not on which words were expanded before it
// (a value no one reads is not expanded: Options.Names). The count goes on from the last one
// asked, as the walk goes forward.
func (w *walker) procRank(ps *syntax.ProcSubst) int {
	off := min(max(int(ps.Pos().Offset()), 0), len(w.src))
	if off < w.procAt {
		w.procAt, w.procCount = 0, 0
	}
	for _, op := range []string{"<(", ">("} {
		w.procCount += strings.Count(w.src[w.procAt:off], op)
	}
	w.procAt = off // where an operator starts: none is cut in two
	return w.procCount
}

// known reports whether every part of word can be known statically. It is decided on the
// syntax tree, not on the expanded text, so no value (or IFS) can fake it.
func (w *walker) known(word *syntax.Word) bool {
	if simpleWord(word) {
		return w.simpleKnown(word)
	}
	return w.knownTree(word)
}

// knownTree is known of any word: a walk of its tree.
func (w *walker) knownTree(word *syntax.Word) bool {
	if w.ifs {
		for _, p := range word.Parts {
			switch p.(type) {
			case *syntax.ParamExp, *syntax.CmdSubst, *syntax.ArithmExp:
				return false // unquoted: split by an IFS that is not modelled
			}
		}
	}
	ok := true
	walkTree(word, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst:
			_, ok = w.catHeredoc(n)
			return false // $(cat <<'EOF' … EOF) was judged whole
		case *syntax.ParamExp:
			if n.Param == nil || n.Excl || n.Index != nil || n.Names != 0 {
				ok = false
			} else if !w.knownVar(n.Param.Value) {
				ok = false
			}
		case *syntax.Lit:
			if strings.HasPrefix(n.Value, "~") && n == firstLit(word) && !strings.HasPrefix(n.Value, "~/") && n.Value != "~" {
				ok = false // ~user
			}
			if strings.HasPrefix(n.Value, "~") && n == firstLit(word) && w.a.opt.Home == "" {
				ok = false
			}
		}
		return ok
	})
	return ok
}

func firstLit(word *syntax.Word) *syntax.Lit {
	if len(word.Parts) == 0 {
		return nil
	}
	l, _ := word.Parts[0].(*syntax.Lit)
	return l
}

// hasGlob reports a pattern character in word that bash expands: one written outside quotes
// and not escaped (cat *, not cat '*', "*" or \*), or an extended glob. Quoted or escaped, a
// pattern character is passed as written.
func hasGlob(word *syntax.Word) bool {
	for _, p := range word.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if unescapedPattern(p.Value) {
				return true
			}
		case *syntax.ExtGlob:
			return true
		}
	}
	return false
}

// unescapedPattern reports a *, ? or [ in unquoted text (a Lit keeps its backslashes) that no
// backslash escapes.
func unescapedPattern(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '*', '?', '[':
			return true
		}
	}
	return false
}

// expandsUnquoted reports an expansion outside double quotes ($x, ${x:-…}, $(…)): bash
// globs what it expands to, so a value holding a pattern character is a pattern (x='*';
// rm $x is rm *).
func expandsUnquoted(word *syntax.Word) bool {
	for _, p := range word.Parts {
		switch p.(type) {
		case *syntax.ParamExp, *syntax.CmdSubst, *syntax.ArithmExp:
			return true
		}
	}
	return false
}

// globField reports whether bash globs a field of word: glob is hasGlob(word), unquoted
// whether it expands outside quotes. A field that holds a pattern character only from quoted
// text next to an unquoted expansion ("*"$x) is counted too: the cautious reading.
func globField(glob, unquoted bool, f string) bool {
	return glob || unquoted && strings.ContainsAny(f, "*?[")
}

// braceBomb reports brace expansions that could multiply into very many words ({1..1000000},
// many groups): they are not expanded, the word counts as unknown.
func braceBomb(word *syntax.Word) bool {
	n := 0
	for _, p := range word.Parts {
		if l, ok := p.(*syntax.Lit); ok {
			n += strings.Count(l.Value, "{")
			if strings.Contains(l.Value, "..") && strings.Contains(l.Value, "{") {
				return true
			}
		}
	}
	return n > 3
}

// expand turns a word into the fields the shell would pass.
func (w *walker) expand(word *syntax.Word) []Word {
	return w.appendExpanded(nil, word)
}

// appendExpanded appends the fields of word (expand) to dst: a command's words are expanded
// into one argv, not into a slice each.
func (w *walker) appendExpanded(dst []Word, word *syntax.Word) []Word {
	if word == nil {
		return dst
	}
	if v, ok := plainWord(word); ok {
		return append(dst, Word{Value: v, Known: true})
	}
	return w.expandFields(dst, word)
}

// expandFields appends the fields of word to dst by the shell's own rules (expand.Fields).
func (w *walker) expandFields(dst []Word, word *syntax.Word) []Word {
	glob := hasGlob(word)
	if braceBomb(word) {
		return append(dst, Word{Value: w.text(word), Glob: glob})
	}
	known := w.known(word)
	fields, err := w.fields(word)
	if err != nil {
		return append(dst, Word{Value: w.text(word), Glob: glob})
	}
	esc := w.escaped(word)
	braces := len(fields) > 1 && strings.Contains(w.text(word), "{")
	unquoted := expandsUnquoted(word)
	for _, f := range fields {
		if braces && (f == "~" || strings.HasPrefix(f, "~/")) {
			// bash expands the tilde of each word a brace expansion makes ({rm,-rf,~})
			if w.a.opt.Home == "" {
				dst = append(dst, Word{Value: f, Glob: glob})
				continue
			}
			f = w.a.opt.Home + f[1:]
		}
		dst = append(dst, Word{Value: f, Known: known && !strings.Contains(f, Dyn), Glob: globField(glob, unquoted, f), Escaped: esc})
	}
	return dst
}

// fields is expand.Fields of word with the walker's environment (simpleFields for a simple
// word).
func (w *walker) fields(word *syntax.Word) ([]string, error) {
	if simpleWord(word) {
		// into the walker's buffer: the caller reads the fields at once, and most words
		// make one
		w.fieldBuf = w.simpleFields(w.fieldBuf[:0], word)
		return w.fieldBuf, nil
	}
	return expand.Fields(w.config(), word)
}

// literalText is expand.Literal of word with the walker's environment (simpleLiteral for a
// simple word).
func (w *walker) literalText(word *syntax.Word) (string, error) {
	if simpleWord(word) {
		return w.simpleLiteral(word), nil
	}
	return expand.Literal(w.config(), word)
}

// plainWord is the value of a word that expands to itself, one field: unquoted text without
// escapes, braces, a glob or a leading tilde; single quotes; double quotes around such text.
// Most words of a program are plain, and the general expansion (expand.Fields with the
// walker's environment) costs an allocation-heavy pass per word: a 100 kB script has
// thousands of them.
func plainWord(word *syntax.Word) (string, bool) {
	plainLit := func(s string) bool { return !strings.ContainsAny(s, "\\{*?[") }
	if len(word.Parts) == 1 {
		switch p := word.Parts[0].(type) {
		case *syntax.Lit:
			return p.Value, plainLit(p.Value) && !strings.HasPrefix(p.Value, "~")
		case *syntax.SglQuoted:
			return p.Value, !p.Dollar
		}
	}
	var b strings.Builder
	for i, part := range word.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if !plainLit(p.Value) || i == 0 && strings.HasPrefix(p.Value, "~") {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", false
			}
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok || strings.Contains(l.Value, "\\") {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// literal is one word as a single string (assignment values, here-strings).
func (w *walker) literal(word *syntax.Word) Word {
	if word == nil {
		return Word{Known: true}
	}
	if braceBomb(word) {
		return Word{Value: w.text(word)}
	}
	known := w.known(word)
	s, err := w.literalText(word)
	if err != nil {
		return Word{Value: w.text(word)}
	}
	return Word{Value: s, Known: known && !strings.Contains(s, Dyn), Glob: globField(hasGlob(word), expandsUnquoted(word), s), Escaped: w.escaped(word)}
}

// maxVar bounds a tracked variable's value: values built from values could grow exponentially.
const maxVar = 4096

// setVar records an assignment of v to name (appendTo: +=). One that surely runs (sure), to a
// variable not pinned, sets it: every later use sees v, whatever it held (inherited from the
// environment, assigned before, unknown). Any other leaves the old value beside v: unknown
// when they differ, and the variable pinned.
func (w *walker) setVar(name string, v Word, appendTo bool) {
	w.escapedVar(name, v)
	if name == "IFS" {
		w.a.finding(RuleIFSChanged, risk.High, name+"="+v.Value, "the program changes IFS: word splitting is not modelled")
		w.ifs = true
	}
	sure := !w.pinned[name] && w.sure()
	if !sure {
		w.pin(name)
	}
	old, had := w.vars[name]
	switch {
	case !v.Known || appendTo || len(v.Value) > maxVar:
		w.dyn[name] = true
	case sure:
		w.vars[name] = v.Value
		delete(w.dyn, name)
	case had && old != v.Value:
		w.dyn[name] = true // two values: which one a later use sees depends on the path taken
	default:
		w.vars[name] = v.Value
	}
}

// unknownVar records a variable whose value cannot be known from here on (read, a loop, a
// nameref, an array), pinned: no later assignment makes it known.
func (w *walker) unknownVar(name string) {
	w.dyn[name] = true
	w.pin(name)
}

func (w *walker) pin(name string) {
	if w.pinned == nil {
		w.pinned = map[string]bool{} // most programs assign nothing where it may not run
	}
	w.pinned[name] = true
}

// sure reports whether the assignment being walked runs whenever the program goes on past
// it: each node above it is a statement list, a { … } block or the left side of && or ||,
// and nothing runs it elsewhere or later (a branch, a loop, a subshell, a pipeline, the
// background, a function's body).
func (w *walker) sure() bool {
	for i, n := range w.stack {
		switch n := n.(type) {
		case *syntax.File, *syntax.Block, *syntax.CallExpr, *syntax.DeclClause:
		case *syntax.Stmt:
			if n.Background || n.Coprocess {
				return false
			}
		case *syntax.BinaryCmd:
			if n.Op != syntax.AndStmt && n.Op != syntax.OrStmt || i+1 >= len(w.stack) || w.stack[i+1] != n.X {
				return false
			}
		default:
			return false
		}
	}
	return true
}

func (w *walker) call(ce *syntax.CallExpr) {
	src := w.text(ce)
	for _, as := range ce.Assigns {
		if as.Name == nil {
			continue
		}
		if as.Name.Value == "CDPATH" {
			w.cdUnknown = true
		}
		if w.a.wantsName(as.Name.Value, true) { // the value is expanded for the list only
			w.a.names.add(Name{Name: as.Name.Value, Assign: true, Value: w.assigned(as), Src: clip(src)})
		}
		if len(ce.Args) == 0 {
			if as.Array != nil || as.Index != nil {
				w.unknownVar(as.Name.Value)
			} else {
				w.setVar(as.Name.Value, w.literal(as.Value), as.Append)
			}
		}
	}
	if len(ce.Args) == 0 {
		return
	}
	args := make([]Word, 0, len(ce.Args)) // most words are one field
	for _, word := range ce.Args {
		args = w.appendExpanded(args, word)
	}
	if len(args) == 0 {
		// "$@", ${a[@]}, $EMPTY: nothing here statically, but whatever the words hold at
		// run time is the command.
		for _, word := range ce.Args {
			if !w.known(word) {
				w.a.dynamicName(src)
				w.emit(Cmd{Args: []Word{{Value: Dyn}}, Via: w.via, Dir: w.dir, Src: src})
				return
			}
		}
		return
	}
	var stmt *syntax.Stmt
	if len(w.stack) >= 2 {
		stmt, _ = w.stack[len(w.stack)-2].(*syntax.Stmt)
	}
	if v, ok := w.aliases[args[0].Value]; ok && args[0].Known && ce.Args[0].Lit() != "" {
		// An alias defined earlier: analyse what it expands to, with the rest of the words.
		w.nested(v+" "+QuoteWords(args[1:]), false, append(append([]string{}, w.via...), "alias "+args[0].Value), src, w.dir, true)
		w.emit(Cmd{Args: args[:1], Via: w.via, Dir: w.dir, Src: src, Carrier: true})
		return
	}
	w.unwrap(args, w.via, src, stmt, w.dir)
}

// assigned is the value an assignment gives (an array's, or a bare export's, is unknown).
func (w *walker) assigned(as *syntax.Assign) Word {
	if as.Array != nil || as.Index != nil || as.Naked || as.Append {
		return Word{Value: Dyn}
	}
	return w.literal(as.Value)
}

func (w *walker) decl(d *syntax.DeclClause) {
	src := w.text(d)
	w.declPrints(d, src)
	nameref := false // declare -n r=x: $r is whatever x holds
	readonly := d.Variant.Value == "readonly"
	for _, as := range d.Args {
		if as.Name == nil && as.Value != nil {
			if l := as.Value.Lit(); strings.HasPrefix(l, "-") && strings.ContainsRune(l, 'n') {
				nameref = true
			}
			if l := as.Value.Lit(); strings.HasPrefix(l, "-") && strings.ContainsRune(l, 'r') {
				readonly = true
			}
		}
	}
	for _, as := range d.Args {
		if as.Name == nil {
			// a dynamic word: `export "$X"`, `export A""B=…`, `export {A,B}=…`, or an option
			if as.Value != nil {
				for _, v := range w.expand(as.Value) {
					if name, val, ok := strings.Cut(v.Value, "="); ok {
						if !v.Known && !strings.Contains(name, Dyn) && !syntax.ValidName(name) {
							name += Dyn // a name that is not known statically
						}
						w.a.name(Name{Name: name, Assign: true, Value: Word{Value: val, Known: v.Known}, Src: clip(src)})
					}
				}
			}
			continue
		}
		if w.a.wantsName(as.Name.Value, true) { // the value is expanded for the list only
			w.a.names.add(Name{Name: as.Name.Value, Assign: true, Value: w.assigned(as), Src: clip(src)})
		}
		if nameref && as.Value != nil { // declare -n r=HTTPS_PROXY: assigning r assigns that
			if v := w.literal(as.Value); v.Known && syntax.ValidName(v.Value) {
				w.a.name(Name{Name: v.Value, Assign: true, Src: clip(src)})
			}
		}
		switch {
		case as.Naked:
		case as.Array != nil || as.Index != nil || nameref:
			w.unknownVar(as.Name.Value)
		default:
			w.setVar(as.Name.Value, w.literal(as.Value), as.Append)
		}
		if readonly {
			w.pin(as.Name.Value) // a later assignment fails: the value stays
		}
	}
}

// declPrints emits declare, export or typeset as a command when it prints variables rather
// than setting them (export -p, declare -p NAME, typeset -p, a bare declare): the classifier
// judges it like env and printenv.
func (w *walker) declPrints(d *syntax.DeclClause, src string) {
	switch d.Variant.Value {
	case "declare", "export", "typeset":
	default:
		return
	}
	args := []Word{{Value: d.Variant.Value, Known: true}}
	prints, names := false, false
	for _, as := range d.Args {
		if as.Name != nil {
			if as.Value != nil || as.Array != nil || !as.Naked {
				return // an assignment
			}
			names = true
			args = append(args, Word{Value: as.Name.Value, Known: true})
			continue
		}
		for _, v := range w.expand(as.Value) {
			switch {
			case !v.Known, strings.Contains(v.Value, "="):
				return
			case strings.HasPrefix(v.Value, "-") || strings.HasPrefix(v.Value, "+"):
				if strings.ContainsAny(v.Value, "fF") {
					return // functions, not variables
				}
				prints = prints || strings.ContainsRune(v.Value, 'p')
			default:
				names = true
			}
			args = append(args, v)
		}
	}
	if prints || !names {
		w.emit(Cmd{Args: args, Via: w.via, Dir: w.dir, Src: src})
	}
}

// funcDecl records a function and whether its body forks itself (`:(){ :|:& };:`).
func (w *walker) funcDecl(fd *syntax.FuncDecl) {
	if fd.Name == nil || fd.Body == nil {
		return
	}
	name := fd.Name.Value
	self, forks := false, false
	walkTree(fd.Body, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CallExpr:
			if len(n.Args) > 0 && n.Args[0].Lit() == name {
				self = true
			}
		case *syntax.BinaryCmd:
			if n.Op == syntax.Pipe || n.Op == syntax.PipeAll {
				forks = true
			}
		case *syntax.Stmt:
			if n.Background {
				forks = true
			}
		}
		return true
	})
	w.a.funcs.add(FuncDecl{Name: name, Forks: self && forks, Src: clip(w.text(fd))})
}

// redirs records the statement's redirections. Heredocs are read by the command they feed.
func (w *walker) redirs(st *syntax.Stmt) {
	for _, r := range st.Redirs {
		var write bool
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.AppClob, syntax.RdrAll,
			syntax.RdrAllClob, syntax.AppAll, syntax.AppAllClob, syntax.RdrInOut:
			write = true
		case syntax.DplOut:
			t := w.literal(r.Word)
			if t.Known && (t.Value == "-" || isDigits(t.Value)) {
				continue // >&2, >&-: a descriptor, not a file
			}
			write = true
		case syntax.RdrIn:
		default:
			continue
		}
		var text *Word
		var from []Word
		if write {
			if text = w.written(st); text == nil {
				from = w.catFiles(st)
			}
		}
		for _, t := range w.expand(r.Word) {
			w.a.redirs.add(Redir{Op: r.Op.String(), Target: t, Write: write, Dir: w.dir, Src: clip(w.text(st)), Depth: w.depth, Text: text, From: from})
		}
	}
}

// written is the text a statement writes through its redirection when it can be read: cat
// of a heredoc or here-string, echo or printf of known words (cat > Makefile <<'EOF' …).
func (w *walker) written(st *syntax.Stmt) *Word {
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 {
		return nil
	}
	switch ce.Args[0].Lit() {
	case "cat":
		if len(ce.Args) == 1 {
			if text, found, dyn := w.stdinProgram(st); found {
				return &Word{Value: text, Known: !dyn}
			}
		}
	case "echo", "printf":
		bare := *st
		bare.Redirs = nil
		if text, ok := w.echoed(&bare); ok {
			return &Word{Value: text, Known: true}
		}
	}
	return nil
}

// catFiles are the files `cat FILE…` (or `cat < FILE`) copies to its output, or whose lines
// tac, head, tail and sort print; nil for any other statement. A word that cannot be known is
// kept as it is: the reader judges it.
func (w *walker) catFiles(st *syntax.Stmt) []Word {
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 {
		return nil
	}
	name := ce.Args[0].Lit()
	switch name {
	case "cat", "tac", "head", "tail", "sort":
	default:
		return nil
	}
	var out []Word
	skip := false
	for _, a := range ce.Args[1:] {
		for _, v := range w.expand(a) {
			switch {
			case skip:
				skip = false
			case v.Known && strings.HasPrefix(v.Value, "-") && v.Value != "-":
				// an option (-n, -A …); head's and tail's -n 5, -c 5, sort's -k 2, -t , take
				// the next word (cat -n numbers lines)
				skip = name != "cat" && len(v.Value) == 2 && strings.ContainsRune("nckt", rune(v.Value[1]))
			default:
				out = append(out, v)
			}
		}
	}
	if len(ce.Args) == 1 {
		for _, r := range st.Redirs {
			if r.Op == syntax.RdrIn {
				out = append(out, w.literal(r.Word))
			}
		}
	}
	return out
}

// stdinFile is the file a command's stdin comes from, when input (w.input) says it is one.
func (w *walker) stdinFile(input string, stmt, from *syntax.Stmt) Word {
	switch input {
	case "file":
		for _, r := range stmt.Redirs {
			if r.Op == syntax.RdrIn {
				return w.literal(r.Word)
			}
		}
	case "catfile":
		return w.literal(from.Cmd.(*syntax.CallExpr).Args[1])
	}
	return Word{}
}

// QuoteWords spells words back as shell words, for a program rebuilt from an argv (alias
// expansion, git bisect run, find -exec …): known ones single-quoted, unknown ones as Dyn
// (still unknown when parsed again).
func QuoteWords(ws []Word) string {
	parts := make([]string, len(ws))
	for i, a := range ws {
		switch {
		case !a.Known:
			parts[i] = "\"" + Dyn + "\""
		case a.Glob:
			parts[i] = a.Value
		default:
			parts[i] = "'" + strings.ReplaceAll(a.Value, "'", `'\''`) + "'"
		}
	}
	return strings.Join(parts, " ")
}

// input says where a statement's stdin comes from: "pipe" (and the statement feeding it),
// "catfile" (cat FILE | …, and that cat), "file" (< f), "heredoc" (<<, <<<) or "".
func (w *walker) input(stmt *syntax.Stmt) (string, *syntax.Stmt) {
	if stmt == nil {
		return "", nil
	}
	for _, r := range stmt.Redirs {
		switch r.Op {
		case syntax.RdrIn:
			if t := w.literal(r.Word); !t.Known || strings.HasPrefix(t.Value, "/dev/") || strings.HasPrefix(t.Value, "/proc/") {
				return "pipe", nil // < <(…), < /dev/stdin: a stream, not a script file
			}
			return "file", nil
		case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
			return "heredoc", nil
		}
	}
	// Pipes are left-associative: a | b | c is (a | b) | c.
	var child syntax.Node = stmt
	for i := len(w.stack) - 1; i >= 0; i-- {
		switch n := w.stack[i].(type) {
		case *syntax.Stmt:
			if syntax.Node(n) != child {
				child = n
			}
		case *syntax.BinaryCmd:
			if n.Op != syntax.Pipe && n.Op != syntax.PipeAll {
				return "", nil
			}
			if n.Y == child {
				if w.catFile(n.X) {
					return "catfile", n.X // cat script.sh | sh: a known script file, through a pipe
				}
				return "pipe", n.X
			}
		case *syntax.CallExpr:
		default:
			return "", nil
		}
	}
	return "", nil
}

// echoed returns the text a statement prints when it is a plain echo or printf of known words
// (echo 'rm -rf /' | sh), so the program a shell reads from it can be analysed.
func (w *walker) echoed(st *syntax.Stmt) (string, bool) {
	if st == nil || len(st.Redirs) > 0 {
		return "", false
	}
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) < 2 {
		return "", false
	}
	args := make([]Word, 0, len(ce.Args))
	for _, word := range ce.Args {
		args = w.appendExpanded(args, word)
	}
	if !allKnown(args) || len(args) < 2 || anyEscaped(args) {
		return "", false // echo $'\x72\x6d …' | sh: a payload spelled to be unreadable
	}
	switch args[0].Value {
	case "echo":
		rest := args[1:]
		for len(rest) > 0 && (rest[0].Value == "-n" || rest[0].Value == "-E") {
			rest = rest[1:]
		}
		out := joinArgs(rest)
		if len(rest) > 0 && strings.HasPrefix(rest[0].Value, "-") || strings.Contains(out, "\\") {
			return "", false
		}
		return out, true
	case "printf":
		f := args[1].Value
		if strings.ContainsAny(f, "%\\") {
			if (f == "%s\\n" || f == "%s\\n\\n") && len(args) > 2 {
				return strings.Join(valuesOf(args[2:]), "\n"), true
			}
			if f == "%s" && len(args) > 2 {
				return strings.Join(valuesOf(args[2:]), ""), true
			}
			return "", false
		}
		if len(args) > 2 {
			return "", false
		}
		return f, true
	}
	return "", false
}

// catFile reports a statement that is only `cat FILE` of one known, ordinary file.
func (w *walker) catFile(st *syntax.Stmt) bool {
	if st == nil || len(st.Redirs) > 0 {
		return false
	}
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) != 2 || ce.Args[0].Lit() != "cat" || len(ce.Assigns) > 0 {
		return false
	}
	f := w.literal(ce.Args[1])
	return f.Known && !f.Glob && f.Value != "-" && !strings.HasPrefix(f.Value, "/dev/") && !strings.HasPrefix(f.Value, "/proc/")
}

func valuesOf(ws []Word) []string {
	out := make([]string, len(ws))
	for i, a := range ws {
		out[i] = a.Value
	}
	return out
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// emit records one simple command after unwrapping, and follows its effect on the shell's
// state (cd, read).
func (w *walker) emit(c Cmd) {
	w.a.ncmd++
	if w.a.ncmd > MaxCommands {
		if !w.a.stop {
			w.a.finding(RuleTooManyCommands, risk.Critical, c.Src, "more than "+itoa(MaxCommands)+" simple commands: not analysed further")
		}
		w.a.stop = true
		return
	}
	c.Depth = w.depth
	if c.Src == "" {
		c.Src = joinArgs(c.Args)
	}
	c.Src = clip(c.Src)
	if (c.Input == "pipe" || c.Input == "heredoc") && c.Feed == "" {
		c.Feed = w.feed(c.Input)
	}
	w.a.cmds.add(c)
	switch c.Name() {
	case "cd", "pushd", "popd":
		w.cd(c)
	case "shopt", "set":
		for _, a := range c.Args[1:] {
			if a.Value == "cdable_vars" || !a.Known {
				w.cdUnknown = true
			}
		}
	case "read", "mapfile", "readarray", "getopts":
		for _, a := range c.Args[1:] {
			if a.Known && !strings.HasPrefix(a.Value, "-") {
				w.unknownVar(a.Value)
				w.a.name(Name{Name: a.Value, Assign: true, Src: c.Src})
			}
		}
	case "printf":
		for i := 1; i+1 < len(c.Args); i++ {
			if c.Args[i].Value == "-v" {
				w.unknownVar(c.Args[i+1].Value)
				w.a.name(Name{Name: c.Args[i+1].Value, Assign: true, Src: c.Src})
			}
		}
	}
}

// cd follows a change of directory. At the top level of a program (a plain sequence or an
// && / || chain) the new directory replaces the old; anywhere else (a subshell, a pipe, a loop,
// a branch) it may or may not apply afterwards, so it is added as a second possibility.
func (w *walker) cd(c Cmd) {
	var target Word
	switch c.Name() {
	case "popd":
		w.dir = Dir{Paths: w.dir.Paths, Unknown: true}
		return
	}
	if w.cdUnknown {
		w.dir = Dir{Paths: w.dir.Paths, Unknown: true}
		return
	}
	for _, a := range c.Args[1:] {
		if a.Known && strings.HasPrefix(a.Value, "-") && a.Value != "-" {
			continue
		}
		target = a
		break
	}
	if len(c.Args) == 1 || target == (Word{}) {
		home := w.env("HOME") // cd alone goes to $HOME, which the program may have changed
		target = Word{Value: home, Known: home != Dyn && home != ""}
	}
	var next Dir
	if !target.Known || target.Value == "-" || target.Glob || len(c.Via) > len(w.via) {
		next = Dir{Paths: w.dir.Paths, Unknown: true}
	} else {
		for _, d := range w.dir.Paths {
			next.Paths = append(next.Paths, Abs(d, target.Value))
		}
		next.Unknown = w.dir.Unknown
	}
	if w.topLevel() {
		w.dir = next
		return
	}
	w.dir = union(w.dir, next)
}

func (w *walker) topLevel() bool {
	for _, n := range w.stack {
		switch n := n.(type) {
		case *syntax.File, *syntax.Stmt, *syntax.Block, *syntax.CallExpr, *syntax.Subshell: // a subshell's cd ends with it (visit)
		case *syntax.BinaryCmd:
			if n.Op != syntax.AndStmt && n.Op != syntax.OrStmt {
				return false
			}
		default:
			return false
		}
	}
	return true
}

func union(a, b Dir) Dir {
	out := Dir{Unknown: a.Unknown || b.Unknown}
	seen := map[string]bool{}
	for _, p := range append(append([]string{}, a.Paths...), b.Paths...) {
		if !seen[p] {
			seen[p] = true
			out.Paths = append(out.Paths, p)
		}
	}
	return out
}

// Abs resolves p against dir, cleaning the result; a path already absolute stays as it is.
func Abs(dir, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	// Most often the two join as they are, once ./ before and / after are gone (./pkg/...,
	// build/).
	q := strings.TrimSuffix(p, "/")
	for strings.HasPrefix(q, "./") {
		q = q[2:]
	}
	if clean(dir) && clean(q) && dir[0] == '/' && q[0] != '/' {
		if dir == "/" {
			return dir + q
		}
		return dir + "/" + q
	}
	return filepath.Join(dir, p)
}

func joinArgs(args []Word) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = a.Value
	}
	return strings.Join(parts, " ")
}
