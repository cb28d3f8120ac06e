package shell

import "testing"

// TestVariableValues: what the last command's operand holds after the program's assignments,
// with TMPDIR inherited as Claude Code's sandbox sets it (Options.Env). An assignment that
// surely runs gives the variable its value, from a literal or another known variable; one
// that may not run, or may run later, leaves two values: unknown ("?").
func TestVariableValues(t *testing.T) {
	const tmp = "/tmp/claude-1000"
	for _, tc := range []struct{ src, want string }{
		{"rm -rf $TMPDIR", tmp}, // inherited, not assigned: as before
		{"rm -rf $HOME", "/home/u"},
		{"rm -rf $OTHER", "?"}, // from the environment, value not known
		{"X=/; TMPDIR=$X; rm -rf $TMPDIR", "/"},
		{"TMPDIR=/; rm -rf $TMPDIR", "/"},
		{`X=/; TMPDIR="$X"; rm -rf "$TMPDIR"`, "/"},
		{"X=/; export TMPDIR=$X; rm -rf $TMPDIR", "/"},
		{"TMPDIR=/ && rm -rf $TMPDIR", "/"},
		{"{ TMPDIR=/; }; rm -rf $TMPDIR", "/"},
		{"HOME=/tmp/h; rm -rf $HOME", "/tmp/h"},
		{"X=/tmp/a; X=/; rm -rf $X", "/"},
		{"X=$(pwd); X=/; rm -rf $X", "/"},
		// A value that cannot be known stays unknown.
		{"TMPDIR=$(mktemp -d); rm -rf $TMPDIR", "?"},
		{"TMPDIR=$UNSET; rm -rf $TMPDIR", "?"},
		{"X=$(pwd); TMPDIR=$X; rm -rf $TMPDIR", "?"},
		{"TMPDIR+=/x; rm -rf $TMPDIR", "?"},
		// An assignment that may not run, or runs elsewhere: two values.
		{"if c; then TMPDIR=/; fi; rm -rf $TMPDIR", "?"},
		{"c && TMPDIR=/; rm -rf $TMPDIR", "?"},
		{"c || TMPDIR=/; rm -rf $TMPDIR", "?"},
		{"X=/ && TMPDIR=$X && rm -rf $TMPDIR", "?"}, // the right of && is not sure: the cautious reading
		{"for i in 1 2; do TMPDIR=/; done; rm -rf $TMPDIR", "?"},
		{"(TMPDIR=/); rm -rf $TMPDIR", "?"},
		{"TMPDIR=/ & rm -rf $TMPDIR", "?"},
		{"TMPDIR=/ | cat; rm -rf $TMPDIR", "?"},
		{"X=a; if c; then X=b; fi; rm -rf $X", "?"},
		// Pinned: a later sure assignment does not make it one value.
		{"f() { X=/; }; X=/tmp/a; f; rm -rf $X", "?"},
		{"if c; then X=/; fi; X=/tmp/a; rm -rf $X", "?"},
		{"readonly X=/; X=/tmp/a; rm -rf $X", "?"},
		{"declare -r X=/; X=/tmp/a; rm -rf $X", "?"},
		{"read X; X=/tmp/a; rm -rf $X", "?"},
		{"for X in a b; do :; done; X=/tmp/a; rm -rf $X", "?"},
		{"declare -n X=Y; X=/tmp/a; rm -rf $X", "?"},
	} {
		p := Analyze(tc.src, Options{Cwd: "/proj", Home: "/home/u", Env: map[string]string{"TMPDIR": tmp}})
		c := p.Cmds[len(p.Cmds)-1]
		a := c.Args[len(c.Args)-1]
		got := a.Value
		if !a.Known {
			got = "?"
		}
		if got != tc.want {
			t.Errorf("%s: operand %+v, want %q", tc.src, a, tc.want)
		}
	}
}
