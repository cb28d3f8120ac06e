// Package makefile reads GNU makefiles, enough to know what `make TARGET` will run.
package makefile

import (
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/oath-harness/oath-harness/internal/classify/shell"
)

// A small reader of GNU makefiles, enough to know what `make TARGET` will run: the recipes of
// the goals and of their prerequisites (explicit rules, then pattern rules), with variables
// expanded (make's built-in defaults, the makefile's own, command-line overrides, automatic
// variables), and every $(shell …) and != that make runs while reading. Conditionals are not
// evaluated: every branch counts (a false alarm costs a question; a miss could run anything).
// What it cannot follow ($(eval …), functions it does not model) becomes a value unknown to
// the shell analysis. Input is outside data: every loop is bounded.

// Bounds of the makefile reader.
const (
	mkMaxLines   = 20000 // logical lines read from one text
	mkMaxTargets = 256   // targets followed from the goals
	mkMaxRecipes = 1024  // recipe lines returned
	mkMaxExpand  = 64 << 10
	mkMaxDepth   = 24 // nested variable expansion
	MaxIncludes  = 16
)

type mkRule struct {
	targets []string
	prereqs []string // as written (expanded at use)
	recipe  []string
	double  bool // target:: recipe
}

// File is what is read of a makefile (and the files it includes, added to it).
type File struct {
	vars      map[string]string
	tvars     map[string]map[string]string // target-specific variables
	rules     []mkRule
	parseRuns []string // $(shell …) and != run while the makefile is read
	Includes  []string // as written (expanded at use)
	firstGoal string
	evals     bool // $(eval …) or $(call …) at top level: rules may exist that are not seen
	evalDepth int
	// OneShell: .ONESHELL may be a target (the text names it: a target, a variable, an
	// $(eval …), make --eval), so make may run each recipe in one shell, not a shell a line.
	OneShell bool
	// Cut says which bound of the reader was reached: what lies past it is not read.
	Cut string
	// exported are the variables make puts in its recipes' environment (export NAME …);
	// exportAll: .EXPORT_ALL_VARIABLES, all of them.
	exported  map[string]bool
	exportAll bool
}

// Parse reads makefile text. fragment: tab-indented lines before any rule are recipe
// lines too (an Edit's new text is part of a makefile).
func Parse(text string, fragment bool) *File {
	mf := &File{vars: map[string]string{}, tvars: map[string]map[string]string{}}
	mf.Add(text, fragment)
	return mf
}

// Add reads one more makefile text (an include) into mf.
// mkContinued is line with the lines that a trailing backslash continues, from lines[i] on, as
// make reads them: in a recipe the backslash and the newline stay (the shell reads them, the
// next line's tab goes), elsewhere both become one space (the next line's indent goes). It
// returns the index of the line after. The pieces are joined once: a variable continued over
// hundreds of lines (OBJS = a.o \ …) was copied once a line.
func mkContinued(line string, lines []string, i int, recipe bool) (string, int) {
	if !strings.HasSuffix(line, "\\") || i >= len(lines) {
		return line, i
	}
	pieces := []string{line}
	for last := line; strings.HasSuffix(last, "\\") && i < len(lines); i++ {
		if recipe {
			last = strings.TrimPrefix(lines[i], "\t")
		} else {
			pieces[len(pieces)-1] = strings.TrimSuffix(pieces[len(pieces)-1], "\\")
			last = strings.TrimLeft(lines[i], " \t")
		}
		pieces = append(pieces, last)
	}
	if recipe {
		return strings.Join(pieces, "\n"), i
	}
	return strings.Join(pieces, " "), i
}

func (mf *File) Add(text string, fragment bool) {
	mf.OneShell = mf.OneShell || strings.Contains(text, ".ONESHELL")
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	if mf.rules == nil { // a rule per line with a colon at most: grown once, not doubled
		mf.rules = make([]mkRule, 0, min(strings.Count(text, ":"), len(lines), mkMaxLines))
	}
	inRule := false // recipe lines may follow (a rule line was read)
	curIdx := len(mf.rules) - 1
	for i, n := 0, 0; i < len(lines); n++ {
		if n >= mkMaxLines {
			mf.Cut = "longer than " + strconv.Itoa(mkMaxLines) + " lines"
			break
		}
		line := lines[i]
		i++
		if strings.HasPrefix(line, "\t") && (inRule || fragment) {
			if !inRule { // an edit's recipe line whose rule line is not in the new text
				mf.rules = append(mf.rules, mkRule{targets: []string{"(edited)"}})
				curIdx, inRule = len(mf.rules)-1, true
			}
			// A recipe line, with its backslash continuations (passed on to the shell).
			line, i = mkContinued(line, lines, i, true)
			mf.rules[curIdx].recipe = append(mf.rules[curIdx].recipe, line[1:])
			continue
		}
		line, i = mkContinued(line, lines, i, false)
		t := strings.TrimSpace(stripMakeComment(line))
		if t == "" {
			continue
		}
		word, rest, _ := strings.Cut(t, " ")
		switch word {
		case "define":
			name, op := mkDefineName(rest)
			var body []string
			depth := 1
			for ; i < len(lines); i++ {
				l := strings.TrimSpace(lines[i])
				if strings.HasPrefix(l, "define ") || l == "define" {
					depth++
				}
				if l == "endef" || strings.HasPrefix(l, "endef ") {
					if depth--; depth == 0 {
						i++
						break
					}
				}
				body = append(body, lines[i])
			}
			mf.assign(name, op, strings.Join(body, "\n"))
			inRule = false
			continue
		case "ifeq", "ifneq", "ifdef", "ifndef", "else", "endif":
			continue // every branch counts
		case "include", "-include", "sinclude":
			mf.Includes = append(mf.Includes, rest) // split once expanded: $(wildcard a b)
			mf.scanShell(rest)
			inRule = false
			continue
		case "vpath", "unexport":
			continue
		case "export", "override", "private":
			if word == "export" {
				mf.export(rest)
			}
			if !strings.ContainsAny(rest, "=:") {
				continue // export NAME: the value is the variable's
			}
			t = strings.TrimSpace(rest)
		}
		if strings.HasPrefix(t, ".EXPORT_ALL_VARIABLES") {
			mf.exportAll = true
		}
		if strings.HasPrefix(t, "$(eval ") && mf.evalDepth < 4 {
			// $(eval TEXT) at the top level: TEXT is more makefile (a variable, a rule)
			body, _ := mkBalanced(t[1:])
			mf.evalDepth++
			mf.Add(strings.TrimPrefix(body, "eval "), fragment)
			mf.evalDepth--
			mf.evals = true
			continue
		}
		if strings.HasPrefix(t, "$(eval") || strings.HasPrefix(t, "${eval") || strings.HasPrefix(t, "$(call") {
			mf.evals = true
			mf.scanShell(t)
			continue
		}
		kind, at := mkLineKind(t)
		switch kind {
		case '=':
			name, op := mkAssignOp(t[:at])
			mf.assign(name, op, strings.TrimSpace(t[at+1:]))
			inRule = false
		case ':':
			mf.rule(t, at)
			curIdx, inRule = len(mf.rules)-1, true
		default:
			mf.scanShell(t)
			inRule = false
		}
	}
}

// stripMakeComment drops a # comment that is not escaped (\#).
func stripMakeComment(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '#' && (i == 0 || s[i-1] != '\\') {
			return s[:i]
		}
	}
	return s
}

// mkLineKind finds whether a line is an assignment ('=') or a rule (':'), and where: the
// first = or : outside $(…), with := ::= :::= counted as assignments.
func mkLineKind(t string) (byte, int) {
	depth := 0
	for i := 0; i < len(t); i++ {
		switch c := t[i]; c {
		case '(', '{':
			if i > 0 && t[i-1] == '$' || depth > 0 {
				depth++
			}
		case ')', '}':
			if depth > 0 {
				depth--
			}
		case '=':
			if depth == 0 {
				return '=', i
			}
		case ':':
			if depth != 0 {
				continue
			}
			rest := t[i:]
			switch {
			case strings.HasPrefix(rest, ":="):
				return '=', i + 1
			case strings.HasPrefix(rest, "::="):
				return '=', i + 2
			case strings.HasPrefix(rest, ":::="):
				return '=', i + 3
			}
			return ':', i
		}
	}
	return 0, 0
}

// mkAssignOp splits "NAME +" / "NAME ?" / "NAME :" from an assignment's left side.
func mkAssignOp(left string) (name string, op byte) {
	left = strings.TrimRight(left, " \t")
	if n := len(left); n > 0 {
		switch left[n-1] {
		case '+', '?', '!':
			return strings.TrimSpace(left[:n-1]), left[n-1]
		case ':':
			return strings.TrimSpace(strings.TrimRight(left, ":")), ':'
		}
	}
	return strings.TrimSpace(left), '='
}

func mkDefineName(rest string) (string, byte) {
	rest = strings.TrimSpace(rest)
	for _, op := range []string{":::=", "::=", ":=", "+=", "?=", "!=", "="} {
		if strings.HasSuffix(rest, op) {
			return strings.TrimSpace(strings.TrimSuffix(rest, op)), op[0]
		}
	}
	return rest, '='
}

func (mf *File) assign(name string, op byte, value string) {
	mf.scanShell(value)
	if name == "" || strings.ContainsAny(name, " \t") {
		return
	}
	switch op {
	case '?':
		if _, ok := mf.vars[name]; ok {
			return
		}
	case '+':
		if old, ok := mf.vars[name]; ok {
			value = old + " " + value
		}
	case '!':
		mf.parseRuns = append(mf.parseRuns, value)
		value = shell.Dyn
	}
	if name == ".DEFAULT_GOAL" {
		mf.firstGoal = strings.TrimSpace(value)
	}
	mf.vars[name] = value
}

// rule reads "targets: prerequisites ; recipe" (or a target-specific variable assignment).
func (mf *File) rule(t string, at int) {
	targets := strings.Fields(t[:at])
	rest := t[at+1:]
	double := strings.HasPrefix(rest, ":")
	rest = strings.TrimPrefix(rest, ":")
	var inline string
	hasInline := false
	if i := strings.IndexByte(rest, ';'); i >= 0 {
		inline, rest, hasInline = strings.TrimSpace(rest[i+1:]), rest[:i], true
	}
	if k, a := mkLineKind(strings.TrimSpace(rest)); k == '=' {
		// target: VAR = value
		r := strings.TrimSpace(rest)
		left := r[:a]
		for _, w := range []string{"export ", "override ", "private "} {
			left = strings.TrimPrefix(strings.TrimSpace(left), w)
		}
		name, _ := mkAssignOp(left)
		value := strings.TrimSpace(r[a+1:])
		mf.scanShell(value)
		for _, tg := range targets {
			if mf.tvars[tg] == nil {
				mf.tvars[tg] = map[string]string{}
			}
			mf.tvars[tg][name] = value
		}
		mf.rules = append(mf.rules, mkRule{}) // the recipe context ends
		return
	}
	// Static pattern rule: targets: target-pattern: prereq-patterns.
	if k, a := mkLineKind(rest); k == ':' {
		rest = rest[a+1:]
	}
	mf.scanShell(rest)
	r := mkRule{targets: targets, prereqs: strings.Fields(strings.ReplaceAll(rest, "|", " ")), double: double}
	if hasInline && inline != "" {
		r.recipe = append(r.recipe, inline)
	}
	mf.rules = append(mf.rules, r)
	if mf.firstGoal == "" {
		for _, tg := range targets {
			if !strings.HasPrefix(tg, ".") && !strings.Contains(tg, "%") && !strings.Contains(tg, "$") {
				mf.firstGoal = tg
				break
			}
		}
	}
}

// scanShell records the $(shell …) calls of text that make expands while reading.
func (mf *File) scanShell(text string) {
	for _, open := range []string{"$(shell ", "${shell "} {
		s := text
		for n := 0; n < 64; n++ {
			i := strings.Index(s, open)
			if i < 0 {
				break
			}
			body, end := mkBalanced(s[i+1:])
			mf.parseRuns = append(mf.parseRuns, strings.TrimSpace(body[len("shell"):]))
			s = s[i+1+end:]
		}
	}
}

// mkBalanced takes "(…)…" or "{…}…" and returns the text inside the brackets and the index
// after the closing one (the whole string when it is not closed).
func mkBalanced(s string) (string, int) {
	if s == "" {
		return "", 0
	}
	open := s[0]
	closeB := byte(')')
	if open == '{' {
		closeB = '}'
	}
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case open:
			depth++
		case closeB:
			depth--
			if depth == 0 {
				return s[1:i], i + 1
			}
		}
	}
	return s[1:], len(s)
}

// Ctx is what a recipe line is expanded with.
type Ctx struct {
	mf        *File
	overrides map[string]string // VAR=value from the command line
	target    string
	prereqs   []string
	stem      string
	dir       string
	runs      *[]string // $(shell …) met while expanding
	size      int
}

// makeDefaults are GNU make's built-in variables that recipes use as commands.
func makeDefault(name string) (string, bool) {
	switch name {
	case "MAKE":
		return "make", true
	case "CC":
		return "cc", true
	case "CXX":
		return "g++", true
	case "CPP":
		return "cc -E", true
	case "AR":
		return "ar", true
	case "AS":
		return "as", true
	case "LD":
		return "ld", true
	case "FC":
		return "f77", true
	case "RM":
		return "rm -f", true
	case "LEX":
		return "lex", true
	case "YACC":
		return "yacc", true
	case "ARFLAGS":
		return "rv", true
	case "SHELL":
		return "/bin/sh", true
	case "MAKEFLAGS", "MFLAGS", "CFLAGS", "CXXFLAGS", "CPPFLAGS", "LDFLAGS", "LDLIBS", "TARGET_ARCH", "MAKECMDGOALS", "MAKELEVEL":
		return "", true
	}
	return "", false
}

// lookup is a variable's value: command line, target-specific, the makefile's, make's defaults;
// an undefined one is unknown (it may come from the environment).
func (x *Ctx) lookup(name string) (string, bool) {
	if v, ok := x.overrides[name]; ok {
		return v, true
	}
	if tv := x.mf.tvars[x.target]; tv != nil {
		if v, ok := tv[name]; ok {
			return v, true
		}
	}
	if v, ok := x.mf.vars[name]; ok {
		return v, true
	}
	if name == "CURDIR" {
		return x.dir, true
	}
	return makeDefault(name)
}

// expand expands make's references in s; what it cannot know becomes shell.Dyn.
func (x *Ctx) expand(s string, depth int) string {
	if depth > mkMaxDepth || x.size > mkMaxExpand {
		return shell.Dyn
	}
	if !strings.Contains(s, "$") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if j := strings.IndexByte(s[i:], '$'); j != 0 { // the text up to the next $, as it is
			if j < 0 {
				j = len(s) - i
			}
			b.WriteString(s[i : i+j])
			x.size += j
			i += j - 1
			continue
		}
		if i+1 >= len(s) { // a $ that ends the text
			b.WriteByte('$')
			x.size++
			continue
		}
		i++
		var part string
		switch n := s[i]; n {
		case '$':
			part = "$"
		case '(', '{':
			body, end := mkBalanced(s[i:])
			i += end - 1
			part = x.reference(body, depth)
		default:
			part = x.variable(string(n), depth)
		}
		b.WriteString(part)
		x.size += len(part) // every byte made while expanding one line counts, nested ones too
		if x.size > mkMaxExpand {
			b.WriteString(shell.Dyn)
			break
		}
	}
	return b.String()
}

// reference expands the inside of $(…): a function call or a variable.
func (x *Ctx) reference(body string, depth int) string {
	fn, args, hasArgs := strings.Cut(body, " ")
	if hasArgs {
		switch fn {
		case "shell":
			*x.runs = append(*x.runs, x.expand(args, depth+1))
			return shell.Dyn
		case "info", "warning":
			x.expand(args, depth+1)
			return ""
		case "strip":
			return strings.Join(strings.Fields(x.expand(args, depth+1)), " ")
		case "wildcard":
			return x.wildcard(x.expand(args, depth+1))
		case "call", "value", "eval", "foreach", "if", "or", "and", "patsubst", "subst", "filter", "filter-out",
			"addprefix", "addsuffix", "notdir", "dir", "basename", "suffix", "join", "sort", "word", "words", "wordlist",
			"firstword", "lastword", "abspath", "realpath", "origin", "flavor", "error", "file", "let", "intcmp", "findstring", "guile":
			x.expand(args, depth+1) // for the $(shell …) inside
			if fn == "call" || fn == "value" {
				name, _, _ := strings.Cut(args, ",")
				if v, ok := x.lookup(strings.TrimSpace(x.expand(name, depth+1))); ok {
					x.expand(v, depth+1)
				}
			}
			return shell.Dyn
		}
	}
	name := x.expand(body, depth+1)
	if v, from, to, ok := mkSubstRef(name); ok {
		val := x.variable(v, depth)
		words := strings.Fields(val)
		for i, w := range words {
			if strings.HasSuffix(w, from) {
				words[i] = strings.TrimSuffix(w, from) + to
			}
		}
		return strings.Join(words, " ")
	}
	return x.variable(name, depth)
}

// wildcard is $(wildcard PATTERNS) in the makefile's directory (at most 64 names).
func (x *Ctx) wildcard(patterns string) string {
	var out []string
	for _, p := range strings.Fields(patterns) {
		if strings.Contains(p, shell.Dyn) || x.dir == "" || strings.Count(p, "*")+strings.Count(p, "?")+strings.Count(p, "[") > 2 {
			return shell.Dyn // unknown, or a pattern that could list half the disk
		}
		pat := p
		if !filepath.IsAbs(pat) {
			pat = filepath.Join(x.dir, p)
		}
		matches, _ := filepath.Glob(filepath.Clean(pat))
		for _, m := range matches {
			if len(out) < 64 {
				if !filepath.IsAbs(p) {
					m, _ = filepath.Rel(x.dir, m)
				}
				out = append(out, m)
			}
		}
	}
	return strings.Join(out, " ")
}

// mkSubstRef splits $(VAR:.c=.o).
func mkSubstRef(s string) (name, from, to string, ok bool) {
	name, rest, ok1 := strings.Cut(s, ":")
	from, to, ok2 := strings.Cut(rest, "=")
	return name, from, to, ok1 && ok2 && !strings.Contains(from, "%")
}

// variable expands one variable, automatic ones included.
func (x *Ctx) variable(name string, depth int) string {
	switch name {
	case "@":
		return x.target
	case "<":
		if len(x.prereqs) > 0 {
			return x.prereqs[0]
		}
		return ""
	case "^", "+", "?":
		return strings.Join(x.prereqs, " ")
	case "*":
		return x.stem
	case "|":
		return ""
	case "@D":
		return filepath.Dir(x.target)
	case "@F":
		return filepath.Base(x.target)
	}
	v, ok := x.lookup(name)
	if !ok {
		return shell.Dyn
	}
	return x.expand(v, depth+1)
}

// Recipe is one line a goal's closure runs, expanded.
type Recipe struct {
	Target string
	Text   string
}

// Plan returns the recipe lines `make goals…` runs (with overrides from the command line),
// the programs make runs while reading, and whether a goal's recipe could not be found
// while $(eval …) may have made it.
func (mf *File) Plan(goals []string, overrides map[string]string, dir string, dry bool) (lines []Recipe, runs []string, unseen bool) {
	x := &Ctx{mf: mf, overrides: overrides, dir: dir, runs: &runs}
	for _, r := range mf.parseRuns {
		runs = append(runs, x.expand(r, 0))
	}
	mf.computedOneShell(x)
	if len(goals) == 0 && mf.firstGoal != "" {
		goals = []string{mf.firstGoal}
	}
	// A makefile that includes another that a rule makes runs that rule first.
	for _, inc := range mf.Includes {
		goals = append(goals, strings.Fields(x.expand(inc, 0))...)
	}
	// A rule's target names are expanded once (make expands them as it reads the makefile):
	// every target followed is compared with every rule's.
	expanded := map[string]string{}
	expandedTarget := func(rt string) string {
		if !strings.ContainsRune(rt, '$') {
			return rt
		}
		e, ok := expanded[rt]
		if !ok {
			e = x.expand(rt, 0)
			expanded[rt] = e
		}
		return e
	}
	seen := map[string]bool{}
	queue := append([]string{}, goals...)
	for n := 0; len(queue) > 0 && n < mkMaxTargets && len(lines) < mkMaxRecipes; n++ {
		t := queue[0]
		queue = queue[1:]
		if seen[t] || t == "" || len(t) > 1024 {
			continue // a name past 1 kB is made by a pattern feeding itself (%: %%)
		}
		seen[t] = true
		var recipes []mkRule
		var prereqs []string
		found := false
		for _, r := range mf.rules {
			for _, rt := range r.targets {
				if rt != t && expandedTarget(rt) != t {
					continue
				}
				found = true
				prereqs = append(prereqs, r.prereqs...)
				if len(r.recipe) > 0 {
					if r.double {
						recipes = append(recipes, r)
					} else {
						recipes = []mkRule{r} // the last recipe given wins
					}
				}
			}
		}
		stem := ""
		if len(recipes) == 0 {
			for _, r := range mf.rules {
				for _, rt := range r.targets {
					if s, ok := mkPattern(rt, t); ok && len(r.recipe) > 0 {
						stem = s
						recipes = append(recipes, r)
						for _, p := range r.prereqs {
							prereqs = append(prereqs, strings.ReplaceAll(p, "%", s))
						}
						found = true
						break
					}
				}
				if len(recipes) > 0 {
					break
				}
			}
		}
		if !found && mf.evals && slicesContains(goals, t) {
			unseen = true
		}
		x.target, x.stem = t, stem
		x.prereqs = x.prereqs[:0]
		for _, p := range prereqs {
			for _, e := range strings.Fields(x.expand(p, 0)) {
				x.prereqs = append(x.prereqs, e)
				queue = append(queue, e)
			}
		}
		for _, r := range recipes {
			var shells []string
			for _, line := range r.recipe {
				if dry && !strings.HasPrefix(strings.TrimLeft(line, "@- \t"), "+") && !strings.Contains(line, "$(MAKE)") && !strings.Contains(line, "${MAKE}") {
					continue
				}
				x.size = 0
				shells = append(shells, mf.shells(x.expand(line, 0))...)
			}
			for _, s := range mf.oneShellOf(shells) {
				lines = append(lines, Recipe{t, s})
			}
		}
	}
	// Past mkMaxTargets and mkMaxRecipes the goal's closure is not followed further, and that is
	// not a cut (decided): a large project's `make` follows hundreds of targets, and asking a
	// person at every build would teach them to click yes. A makefile the agent writes is
	// judged whole when it is written (plantedCode).
	return lines, runs, unseen
}

// shells splits an expanded recipe line into what make runs, a shell each: the lines of a
// canned recipe (a define used in a recipe) are recipe lines of their own; a line continued
// with a backslash stays one. The @, - and + prefixes are make's, not the shell's; empty and
// comment lines run nothing.
func (mf *File) shells(text string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(text); i++ {
		if i < len(text) && (text[i] != '\n' || i > 0 && text[i-1] == '\\') {
			continue
		}
		s := strings.TrimLeft(text[start:i], "@-+ \t")
		if t := strings.TrimSpace(s); t != "" && !strings.HasPrefix(t, "#") {
			out = append(out, s)
		}
		start = i + 1
	}
	return out
}

// computedOneShell sets oneShell when a rule's target is .ONESHELL once expanded
// (X = .ONE, then $(X)SHELL:), or cannot be known.
func (mf *File) computedOneShell(x *Ctx) {
	for _, r := range mf.rules {
		for _, t := range r.targets {
			if strings.Contains(t, "$") {
				if e := x.expand(t, 0); strings.Contains(e, ".ONESHELL") || strings.Contains(e, shell.Dyn) {
					mf.OneShell = true
					return
				}
			}
		}
	}
}

// export records the names of an export directive (export A B, export A := v).
func (mf *File) export(rest string) {
	names := rest
	if i := strings.IndexAny(rest, "=:?+!"); i >= 0 {
		names = rest[:i]
	}
	if mf.exported == nil {
		mf.exported = map[string]bool{}
	}
	for _, n := range strings.Fields(names) {
		mf.exported[n] = true
	}
}

// RecipeEnv is code standing for what make puts around every recipe, judged as the shell
// meets it: the shell and its flags (SHELL, .SHELLFLAGS, for every target that sets its own
// too, unless plainShell says it is a shell: "SHELL .SHELLFLAGS true"), and the exported
// variables that carry code (carriesCode: BASH_ENV, LD_PRELOAD …, as export lines);
// overrides are make's command line (make SHELL=…). The two judgements are the caller's: it
// knows shells and the environment's variables.
func (mf *File) RecipeEnv(dir string, overrides map[string]string, plainShell, carriesCode func(string) bool) []string {
	var out []string
	scopes := []string{""}
	for t := range mf.tvars {
		scopes = append(scopes, t)
	}
	sort.Strings(scopes[1:])
	for _, t := range scopes {
		x := &Ctx{mf: mf, dir: dir, runs: new([]string), target: t, overrides: overrides}
		sh, _ := x.lookup("SHELL")
		flags, hasFlags := x.lookup(".SHELLFLAGS")
		if !plainShell(x.expand(sh, 0)) || hasFlags {
			out = append(out, x.expand(sh, 0)+" "+x.expand(flags, 0)+" true")
		}
		vars := mf.vars
		if t != "" {
			vars = mf.tvars[t]
		}
		names := make([]string, 0, len(vars))
		for n := range vars {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			if (mf.exportAll || mf.exported[n]) && carriesCode(n) {
				w := shell.Word{Value: n + "=" + x.expand(vars[n], 0), Known: true}
				out = append(out, "export "+shell.QuoteWords([]shell.Word{w})+"\ntrue")
			}
		}
	}
	return out
}

// oneShellOf returns a recipe's shells as make may run them: a shell a line, and when
// .ONESHELL may be set, also one shell for them all (judged both ways: a cd on one line
// reaches the next only then, which may make either reading the worse).
func (mf *File) oneShellOf(shells []string) []string {
	if mf.OneShell && len(shells) > 1 {
		return append(shells[:len(shells):len(shells)], strings.Join(shells, "\n"))
	}
	return shells
}

func slicesContains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// mkPattern matches a target against a pattern rule's target (%.o), returning the stem.
func mkPattern(pat, t string) (string, bool) {
	i := strings.IndexByte(pat, '%')
	if i < 0 {
		return "", false
	}
	pre, suf := pat[:i], pat[i+1:]
	if len(t) < len(pre)+len(suf) || !strings.HasPrefix(t, pre) || !strings.HasSuffix(t, suf) {
		return "", false
	}
	return t[len(pre) : len(t)-len(suf)], true
}

// Planted is every recipe line of a written makefile (any target may be made), and the
// programs make runs while reading it, as shell code.
func (mf *File) Planted(dir string) []string {
	var runs []string
	x := &Ctx{mf: mf, dir: dir, runs: &runs}
	for _, r := range mf.parseRuns {
		runs = append(runs, x.expand(r, 0))
	}
	mf.computedOneShell(x)
	var out []string
	for _, r := range mf.rules {
		x.target, x.prereqs = "", nil
		if len(r.targets) > 0 {
			x.target = r.targets[0]
		}
		var shells []string
		for _, line := range r.recipe {
			if len(out)+len(shells) >= mkMaxRecipes {
				mf.Cut = "more than " + strconv.Itoa(mkMaxRecipes) + " recipe lines"
				break
			}
			x.size = 0
			shells = append(shells, mf.shells(x.expand(line, 0))...)
		}
		for _, s := range mf.oneShellOf(shells) {
			out = append(out, s)
		}
	}
	for _, r := range runs {
		out = append(out, r)
	}
	return out
}

// Ctx is how make expands the makefile's references for the goals of one command line
// (overrides) run in dir.
func (mf *File) Ctx(overrides map[string]string, dir string) *Ctx {
	return &Ctx{mf: mf, overrides: overrides, dir: dir, runs: new([]string)}
}

// Expand expands make's references in s; what it cannot know becomes shell.Dyn.
func (x *Ctx) Expand(s string) string { return x.expand(s, 0) }

// Lookup is a variable's value as make sees it (unexpanded), and whether it is set.
func (x *Ctx) Lookup(name string) (string, bool) { return x.lookup(name) }

// New is an empty makefile, to which files are added (Add).
func New() *File {
	return &File{vars: map[string]string{}, tvars: map[string]map[string]string{}}
}
