package shell

import (
	"slices"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// FuzzPlainWord: the fast path for plain words (plainWord) gives exactly what the general
// expansion gives, for every word it accepts.
func FuzzPlainWord(f *testing.F) {
	for _, s := range []string{"ls", "-la", "'a b'", `"x y"`, `a"b"'c'`, `"a\"b"`, "~", "~/x", "a~b", "{a,b}", "*.go",
		`a\ b`, `$'a\nb'`, `"$x"`, `""`, "''", "a=b", `"a*b"`, "x[1]", "--opt=v", `$"x"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		word := echoed(src)
		if word == nil {
			return
		}
		v, ok := plainWord(word)
		if !ok {
			return
		}
		w := &walker{a: &analyzer{opt: Options{Home: "/home/u"}}, vars: map[string]string{}, dyn: map[string]bool{}}
		want := w.expandFields(nil, word)
		if got := w.expand(word); !slices.Equal(got, want) {
			t.Fatalf("%q: the fast path gives %+v, the shell's rules %+v", src, got, want)
		}
		if len(want) != 1 || want[0].Value != v {
			t.Fatalf("%q: plainWord %q, the shell's rules %+v", src, v, want)
		}
	})
}

// echoed is the one word src is in "echo SRC", or nil when it is not one word of a command.
func echoed(src string) *syntax.Word {
	file, err := syntax.NewParser().Parse(strings.NewReader("echo "+src+"\n"), "")
	if err != nil || len(file.Stmts) != 1 {
		return nil
	}
	call, ok := file.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) != 2 {
		return nil
	}
	return call.Args[1]
}
