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
			if p.Dollar || !simpleQuoted(p) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// simpleQuoted reports double quotes around text and simple expansions: a backslash in them
// escapes only $ ` " \ (dquoted).
func simpleQuoted(p *syntax.DblQuoted) bool {
	for _, q := range p.Parts {
		switch q := q.(type) {
		case *syntax.Lit:
			if strings.IndexByte(q.Value, 0) >= 0 {
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
	return true
}

// simpleParam reports an expansion of one parameter by its value: an ordinary variable or a
// special parameter ($?, $1, $$; not $@ or $*, which are lists), bare or with a default or
// an alternative whose word is simple (${x-word}, ${x:-word}, ${x+word}, ${x:+word}). No
// other operator, index, length or indirection.
func simpleParam(p *syntax.ParamExp) bool {
	if p.Param == nil || !simpleName(p.Param.Value) ||
		p.Flags != nil || p.Excl || p.Length || p.Width || p.IsSet ||
		p.Split != syntax.OptUnset || p.GlobSubst != syntax.OptUnset || p.RcExpand != syntax.OptUnset ||
		p.NestedParam != nil || p.Index != nil || len(p.Modifiers) != 0 ||
		p.Slice != nil || p.Repl != nil || p.Names != 0 {
		return false
	}
	if p.Exp == nil {
		return true
	}
	switch p.Exp.Op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
		return p.Exp.Word == nil || simpleWord(p.Exp.Word)
	}
	return false
}

// simpleName is a parameter the walker's environment answers: a variable's name, a positional
// parameter or a special one other than $@ and $*.
func simpleName(name string) bool {
	if syntax.ValidName(name) {
		return true
	}
	switch name {
	case "?", "$", "!", "-", "#":
		return true
	}
	for i := 0; i < len(name); i++ {
		if name[i] < '0' || name[i] > '9' {
			return false
		}
	}
	return name != ""
}

// param is the value of a simple parameter expansion, as the expand package gives it: the
// environment's value ("" is unset), LINENO's line, a default when it is unset, an
// alternative when it is set.
func (w *walker) param(p *syntax.ParamExp) string {
	var v string
	if p.Param.Value == "LINENO" { // the one parameter the expander answers itself
		v = itoa(int(p.Pos().Line()))
	} else {
		v = w.env(p.Param.Value)
	}
	if p.Exp == nil {
		return v
	}
	word := func() string {
		if p.Exp.Word == nil {
			return ""
		}
		return w.simpleLiteral(p.Exp.Word)
	}
	switch p.Exp.Op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull:
		if v == "" {
			return word()
		}
	case syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
		if v != "" {
			return word()
		}
	}
	return v
}

// dquoted is the text of a literal inside double quotes: a backslash before $ ` " or \ is
// dropped, any other stays.
func dquoted(s string) string {
	i := strings.IndexByte(s, '\\')
	if i < 0 {
		return s
	}
	b := make([]byte, 0, len(s))
	for ; i >= 0; i = strings.IndexByte(s, '\\') {
		b = append(b, s[:i]...)
		if i+1 < len(s) && strings.IndexByte("$`\"\\", s[i+1]) >= 0 {
			b = append(b, s[i+1])
			s = s[i+2:]
		} else {
			b = append(b, '\\')
			s = s[i+1:]
		}
	}
	return string(append(b, s...))
}

// simpleFields is expand.Fields of a simple word, appended to fields: the text of its parts
// joined, a bare expansion split at blanks (IFS is always the default: env). A field ends at
// a blank of a bare expansion; one that would be empty is dropped unless the word has quotes.
func (w *walker) simpleFields(fields []string, word *syntax.Word) []string {
	n := len(fields)
	var (
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
					add(dquoted(q.Value))
				case *syntax.ParamExp:
					add(w.param(q))
				}
			}
		case *syntax.ParamExp:
			for v := w.param(p); v != ""; {
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
	if allowEmpty && len(fields) == n {
		fields = append(fields, "")
	}
	return fields
}

// simpleLiteral is expand.Literal of a simple word: its parts' text joined, nothing split.
func (w *walker) simpleLiteral(word *syntax.Word) string {
	if len(word.Parts) == 1 { // no copy
		if p, ok := word.Parts[0].(*syntax.ParamExp); ok {
			return w.param(p)
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
			b.WriteString(w.param(p))
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				switch q := q.(type) {
				case *syntax.Lit:
					b.WriteString(dquoted(q.Value))
				case *syntax.ParamExp:
					b.WriteString(w.param(q))
				}
			}
		}
	}
	return b.String()
}

// simpleKnown is known of a simple word: every parameter it names is known, and none is bare
// when the program changed IFS.
func (w *walker) simpleKnown(word *syntax.Word) bool {
	for _, part := range word.Parts {
		switch p := part.(type) {
		case *syntax.ParamExp:
			if w.ifs || !w.paramKnown(p) {
				return false
			}
		case *syntax.DblQuoted:
			if !w.quotedKnown(p.Parts) {
				return false
			}
		}
	}
	return true
}

// paramKnown reports a simple parameter expansion whose parameters, its default's or
// alternative's among them, are all known (knownTree's rule: each parameter of the tree).
func (w *walker) paramKnown(p *syntax.ParamExp) bool {
	if !w.knownVar(p.Param.Value) {
		return false
	}
	if p.Exp == nil || p.Exp.Word == nil {
		return true
	}
	for _, part := range p.Exp.Word.Parts {
		switch q := part.(type) {
		case *syntax.ParamExp:
			if !w.paramKnown(q) {
				return false
			}
		case *syntax.DblQuoted:
			if !w.quotedKnown(q.Parts) {
				return false
			}
		}
	}
	return true
}

// quotedKnown reports double-quoted parts whose parameters are all known.
func (w *walker) quotedKnown(parts []syntax.WordPart) bool {
	for _, q := range parts {
		if pe, ok := q.(*syntax.ParamExp); ok && !w.paramKnown(pe) {
			return false
		}
	}
	return true
}

// knownVar reports a variable whose value is known statically.
func (w *walker) knownVar(name string) bool {
	_, set := w.vars[name]
	return set && !w.dyn[name]
}
