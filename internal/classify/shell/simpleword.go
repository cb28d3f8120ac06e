package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Simple words: text as plainWord allows it and plain expansions of ordinary variables ($x,
// ${x}), bare or in double quotes ("$srcdir/conf.h", $CC). After plain words they are most of
// a script's words (two in three of the others in an autoconf configure), and the general
// expansion (expand.Fields with the walker's environment, known's walk of the tree) costs a
// pass with several allocations per word. For these words the walker expands them itself,
// by the same rules as the expand package; FuzzSimpleWord checks that the answers are the
// same.

// simpleWord reports whether word is a simple word.
func simpleWord(word *syntax.Word) bool {
	for i, part := range word.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			// unquoted: no escapes, braces, patterns or leading tilde (plainWord's rule)
			if strings.ContainsAny(p.Value, "\\{*?[\x00") || i == 0 && strings.HasPrefix(p.Value, "~") {
				return false
			}
		case *syntax.SglQuoted:
			if p.Dollar {
				return false
			}
		case *syntax.ParamExp:
			if !simpleParam(p) {
				return false
			}
		case *syntax.DblQuoted:
			if p.Dollar {
				return false
			}
			for _, q := range p.Parts {
				switch q := q.(type) {
				case *syntax.Lit:
					if strings.ContainsAny(q.Value, "\\\x00") {
						return false
					}
				case *syntax.ParamExp:
					if !simpleParam(q) {
						return false
					}
				default:
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// simpleParam reports $name or ${name} of an ordinary variable: no operator, index or
// special parameter ($@, $1, $?), and not LINENO, the one name the expander answers itself.
func simpleParam(p *syntax.ParamExp) bool {
	return p.Param != nil && syntax.ValidName(p.Param.Value) && p.Param.Value != "LINENO" &&
		p.Flags == nil && !p.Excl && !p.Length && !p.Width && !p.IsSet &&
		p.Split == syntax.OptUnset && p.GlobSubst == syntax.OptUnset && p.RcExpand == syntax.OptUnset &&
		p.NestedParam == nil && p.Index == nil && len(p.Modifiers) == 0 &&
		p.Slice == nil && p.Repl == nil && p.Names == 0 && p.Exp == nil
}

// simpleFields is expand.Fields of a simple word: the text of its parts joined, a bare
// expansion split at blanks (IFS is always the default: env). A field ends at a blank of a
// bare expansion; one that would be empty is dropped unless the word has quotes.
func (w *walker) simpleFields(word *syntax.Word) []string {
	var (
		fields     []string
		cur        string
		open       bool // cur is a field under way, even an empty one ("" or a text part)
		allowEmpty bool // the word has quotes: it makes one field even if all of it is empty
	)
	add := func(s string) {
		if open {
			cur += s
		} else {
			cur, open = s, true
		}
	}
	flush := func() {
		if open {
			fields = append(fields, cur)
			cur, open = "", false
		}
	}
	for _, part := range word.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			add(p.Value)
		case *syntax.SglQuoted:
			allowEmpty = true
			add(p.Value)
		case *syntax.DblQuoted:
			allowEmpty = true
			for _, q := range p.Parts {
				switch q := q.(type) {
				case *syntax.Lit:
					add(q.Value)
				case *syntax.ParamExp:
					add(w.env(q.Param.Value))
				}
			}
		case *syntax.ParamExp:
			for v := w.env(p.Param.Value); v != ""; {
				i := strings.IndexAny(v, " \t\n")
				if i < 0 {
					add(v)
					break
				}
				if i > 0 {
					add(v[:i])
				}
				flush()
				v = v[i+1:]
			}
		}
	}
	flush()
	if allowEmpty && len(fields) == 0 {
		fields = append(fields, "")
	}
	return fields
}

// simpleLiteral is expand.Literal of a simple word: its parts' text joined, nothing split.
func (w *walker) simpleLiteral(word *syntax.Word) string {
	if len(word.Parts) == 1 { // no copy
		if p, ok := word.Parts[0].(*syntax.ParamExp); ok {
			return w.env(p.Param.Value)
		}
	}
	var b strings.Builder
	for _, part := range word.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.ParamExp:
			b.WriteString(w.env(p.Param.Value))
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				switch q := q.(type) {
				case *syntax.Lit:
					b.WriteString(q.Value)
				case *syntax.ParamExp:
					b.WriteString(w.env(q.Param.Value))
				}
			}
		}
	}
	return b.String()
}

// simpleKnown is known of a simple word: every variable it expands is known, and none is
// bare when the program changed IFS.
func (w *walker) simpleKnown(word *syntax.Word) bool {
	for _, part := range word.Parts {
		switch p := part.(type) {
		case *syntax.ParamExp:
			if w.ifs || !w.knownVar(p.Param.Value) {
				return false
			}
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if pe, ok := q.(*syntax.ParamExp); ok && !w.knownVar(pe.Param.Value) {
					return false
				}
			}
		}
	}
	return true
}

// knownVar reports a variable whose value is known statically.
func (w *walker) knownVar(name string) bool {
	_, set := w.vars[name]
	return set && !w.dyn[name]
}
