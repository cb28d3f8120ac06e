package shell

import (
	"io"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// escaped reports a word spelled in part with bash's ANSI-C quoting and a backslash escape
// ($'\x72\x6d', $'\162m'): the parser reads it, but a program's name spelled that way is meant
// not to be read by a person or a filter (classify judges it as decode-then-run).
// A variable assigned such a word (x=$'\x72\x6d'; $x) passes it on.
func (w *walker) escaped(word *syntax.Word) bool {
	for _, p := range word.Parts {
		switch p := p.(type) {
		case *syntax.SglQuoted:
			if p.Dollar && strings.Contains(p.Value, `\`) {
				return true
			}
		case *syntax.ParamExp:
			if p.Param != nil && w.a.escVars[p.Param.Value] {
				return true
			}
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if pe, ok := q.(*syntax.ParamExp); ok && pe.Param != nil && w.a.escVars[pe.Param.Value] {
					return true
				}
			}
		}
	}
	return false
}

// escapedVar remembers a variable assigned an escaped word.
func (w *walker) escapedVar(name string, v Word) {
	if !v.Escaped {
		return
	}
	if w.a.escVars == nil {
		w.a.escVars = map[string]bool{}
	}
	w.a.escVars[name] = true
}

// feedMax bounds the text kept of what feeds a command's stdin.
const feedMax = 4096

// FeedMax is the bound on Cmd.Feed: a feed that long was cut.
const FeedMax = feedMax

// feed returns what feeds the stdin of the command being emitted (Cmd.Feed): the text of the
// statement that pipes into it, or the expanded text of its here-document or here-string (Dyn
// where a part cannot be known). classify reads it to say what a shell reading a pipe runs
// (base64 -d x | sh runs what base64 decodes), and what a network channel sends.
func (w *walker) feed(input string) string {
	if len(w.stack) < 2 {
		return ""
	}
	st, ok := w.stack[len(w.stack)-2].(*syntax.Stmt)
	if !ok {
		return ""
	}
	t := ""
	switch input {
	case "pipe":
		in, from := w.input(st)
		switch {
		case in == "pipe" && from != nil:
			t = w.text(from)
		case in == "pipe":
			for _, r := range st.Redirs {
				if r.Op == syntax.RdrIn {
					t = w.text(r.Word) // < /dev/null, < <(base64 -d x)
				}
			}
		}
	case "heredoc":
		for _, r := range st.Redirs {
			switch r.Op {
			case syntax.Hdoc, syntax.DashHdoc:
				switch {
				case r.Hdoc == nil:
				case len(w.text(r.Hdoc)) > feedMax:
					// a long document (a file written with cat <<EOF) is not expanded twice
					t = w.text(r.Hdoc)
					if !w.known(r.Hdoc) {
						t = Dyn + t
					}
				default:
					if s, err := expand.Document(w.config(), r.Hdoc); err == nil {
						t = s
					} else {
						t = Dyn
					}
				}
			case syntax.WordHdoc:
				t = w.literal(r.Word).Value
			}
		}
	}
	if len(t) > feedMax {
		t = t[:feedMax]
	}
	return t
}

func anyEscaped(ws []Word) bool {
	for _, a := range ws {
		if a.Escaped {
			return true
		}
	}
	return false
}

// catHeredoc returns the text of $(cat <<'EOF' … EOF): the way Claude Code writes a long
// argument (a commit message, a pull request body) is a here-document printed as it is, known
// statically when the document is. Anything else in a command substitution is unknown.
func (w *walker) catHeredoc(cs *syntax.CmdSubst) (string, bool) {
	if len(cs.Stmts) != 1 {
		return "", false
	}
	st := cs.Stmts[0]
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Assigns) > 0 || len(ce.Args) != 1 || ce.Args[0].Lit() != "cat" || len(st.Redirs) != 1 || st.Negated || st.Background || w.aliases["cat"] != "" {
		return "", false
	}
	r := st.Redirs[0]
	if r.Op != syntax.Hdoc && r.Op != syntax.DashHdoc || r.Hdoc == nil || r.N != nil || !w.known(r.Hdoc) {
		return "", false
	}
	s, err := expand.Document(w.newConfig(), r.Hdoc) // called while a word is expanded
	if err != nil || strings.Contains(s, Dyn) {
		return "", false
	}
	return strings.TrimRight(s, "\n"), true // a substitution drops the trailing newlines
}

// cmdSubst is the expander's answer to a command substitution: Dyn, or the text of
// $(cat <<'EOF' … EOF) in a program that has a here-document (only then is a closure built).
func (w *walker) cmdSubst() func(io.Writer, *syntax.CmdSubst) error {
	if !w.heredocs {
		return dynSubst
	}
	return func(out io.Writer, cs *syntax.CmdSubst) error {
		text, ok := w.catHeredoc(cs)
		if !ok {
			text = Dyn
		}
		_, err := io.WriteString(out, text)
		return err
	}
}

func dynSubst(out io.Writer, _ *syntax.CmdSubst) error {
	_, err := io.WriteString(out, Dyn)
	return err
}
