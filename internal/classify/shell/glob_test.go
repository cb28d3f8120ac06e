package shell

import "testing"

// TestGlobQuoting: a word is a pattern (Word.Glob) when bash expands it as one: a pattern
// character outside quotes and not escaped, or an unquoted expansion whose value holds one.
// Quoted or escaped, *, ? and [ are passed as written.
func TestGlobQuoting(t *testing.T) {
	for _, tc := range []struct {
		src  string
		arg  int // the argument of the last command
		glob bool
	}{
		{"cat *", 1, true},
		{"cat *.md", 1, true},
		{"cat src/[ab].go", 1, true},
		{"cat ?", 1, true},
		{"cat '*'", 1, false},
		{`cat "*"`, 1, false},
		{`cat \*`, 1, false},
		{`cat \*.md`, 1, false},
		{`cat \\*`, 1, true}, // an escaped backslash, then a pattern
		{`cat x\*y*`, 1, true},
		{"sqlite3 app.db 'SELECT * FROM users;'", 2, false},
		{`psql -c "SELECT * FROM t"`, 2, false},
		{"x='*'; cat $x", 1, true},
		{"x='*.md'; cat ${x}", 1, true},
		{`x='*'; cat "$x"`, 1, false},
		{"x=a; cat $x", 1, false},
		{"x='a *'; cat $x", 2, true}, // split, then each field globbed
		{"x='a *'; cat $x", 1, false},
		{"cat $(echo '*')", 1, false}, // unknown: judged as unknown, not as a pattern
		{`cat "$HOME"/*`, 1, true},
	} {
		p := analyze(tc.src)
		if len(p.Cmds) == 0 {
			t.Errorf("%s: no command", tc.src)
			continue
		}
		c := p.Cmds[len(p.Cmds)-1]
		if tc.arg >= len(c.Args) {
			t.Errorf("%s: argv %+v has no argument %d", tc.src, c.Args, tc.arg)
			continue
		}
		if a := c.Args[tc.arg]; a.Glob != tc.glob {
			t.Errorf("%s: argument %d %+v: glob %v, want %v", tc.src, tc.arg, a, a.Glob, tc.glob)
		}
	}
}
