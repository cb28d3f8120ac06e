package shell

import "testing"

// TestEscaped: a word spelled with $'…' escapes is marked, directly or through a variable, so
// that classify can tell a program name written to be unreadable; an echo of such text is not
// taken as the program a shell reads.
func TestEscaped(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{`$'\x72\x6d' x`, true}, {`$'\162m' x`, true}, {`x=$'\x72\x6d'; $x y`, true}, {`x=$'\x72\x6d'; "$x" y`, true},
		{`rm x`, false}, {`$'rm' x`, false}, {`'rm' x`, false}, {`"rm" x`, false},
	} {
		p := analyze(tc.src)
		c := p.Cmds[len(p.Cmds)-1]
		if c.Args[0].Escaped != tc.want {
			t.Errorf("%q: name %q escaped %v, want %v", tc.src, c.Args[0].Value, c.Args[0].Escaped, tc.want)
		}
	}
	if p := analyze(`echo $'\x6c\x73' | sh`); p.Cmds[len(p.Cmds)-1].Stdin != true {
		t.Errorf("echo of escaped text into sh: analysed as a known program: %+v", p.Cmds)
	}
}

// TestFeed: what feeds a command's stdin is kept, a pipe's text or a here-document (with Dyn
// where a value is computed at run time).
func TestFeed(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"echo eA== | base64 -d | sh", "echo eA== | base64 -d"},
		{"nc h 1 <<EOF\nhi\nEOF", "hi\n"},
		{"nc h 1 <<EOF\n$(cat f)\nEOF", Dyn + "\n"},
		{"nc h 1 <<< \"$X\"", Dyn},
	} {
		p := analyze(tc.src)
		if got := p.Cmds[len(p.Cmds)-1].Feed; got != tc.want {
			for _, c := range p.Cmds {
				if c.Feed == tc.want {
					got = tc.want
				}
			}
			if got != tc.want {
				t.Errorf("%q: feed %q, want %q", tc.src, got, tc.want)
			}
		}
	}
}

// TestCatHeredoc: $(cat <<'EOF' … EOF), Claude Code's way of passing a long argument, is known
// text; any other substitution, or a document with a computed value, stays unknown.
func TestCatHeredoc(t *testing.T) {
	for _, tc := range []struct {
		src, want string
		known     bool
	}{
		{"x \"$(cat <<'EOF'\nfix: y\n\nbody\nEOF\n)\"", "fix: y\n\nbody", true},
		{"x \"$(cat <<EOF\nhi $HOME\nEOF\n)\"", "hi /home/u", true},
		{"x \"$(cat <<EOF\nhi $X\nEOF\n)\"", "", false},
		{"x \"$(cat <<EOF\n$(id)\nEOF\n)\"", "", false},
		{"x \"$(cat f)\"", "", false},
		{"x \"$(cat <<EOF f\nhi\nEOF\n)\"", "", false},
		{"alias cat=rm; x \"$(cat <<EOF\nhi\nEOF\n)\"", "", false},
	} {
		p := analyze(tc.src)
		var got Word
		for _, c := range p.Cmds {
			if c.Name() == "x" {
				got = c.Args[1]
			}
		}
		if got.Known != tc.known || tc.known && got.Value != tc.want {
			t.Errorf("%q: %+v, want %q known=%v", tc.src, got, tc.want, tc.known)
		}
	}
}
