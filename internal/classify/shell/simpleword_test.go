package shell

import (
	"slices"
	"testing"

	"mvdan.cc/sh/v3/expand"
)

// FuzzSimpleWord: the walker's own expansion of simple words (simpleFields, simpleLiteral,
// simpleKnown) gives exactly what the general one gives (expand.Fields, expand.Literal,
// knownTree), whatever the variables hold.
func FuzzSimpleWord(f *testing.F) {
	for _, s := range []string{`$a`, `"$a"`, `${a}x`, `x$b`, `"$b"`, `$b""`, `$e`, `"$e"`, `$e''`, `a$e`, `"$d/x"`,
		`$u`, `"x$u"y`, `$a$b$c`, `'q'$c`, `"$a b"$c`, `""`, `$LINENO`, `"$@"`, `$1`, `${a:-x}`, `~/$a`, `$a*`,
		`$?`, `"$$"`, `${10}`, `$#`, `${e-$b}`, `${e:-"$b"}`, `${a+q r}`, `"${a:+$u}"`, `${z-}`, `"${LINENO}x"`,
		`"a\"b\$c\x"`, `"\\"`, `${e-~}`, `${e-${a-z}}`, `${b-x}`, `"${e:-$b}"`} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, src string, ifs bool) {
		word := echoed(src)
		if word == nil {
			return
		}
		if !simpleWord(word) {
			return
		}
		w := &walker{a: &analyzer{opt: Options{Home: "/home/u"}}, ifs: ifs, src: "echo " + src + "\n",
			vars: map[string]string{"a": "x", "b": " p  q\t", "c": "r\ns ", "d": "/w", "e": "", "u": "v", "HOME": "/home/u"},
			dyn:  map[string]bool{"u": true}}
		want, err := expand.Fields(w.config(), word)
		if err != nil {
			return
		}
		if got := w.simpleFields(nil, word); !slices.Equal(got, want) {
			t.Fatalf("%q: simpleFields %q, expand.Fields %q", src, got, want)
		}
		if got, want := w.simpleLiteral(word), must(expand.Literal(w.config(), word)); got != want {
			t.Fatalf("%q: simpleLiteral %q, expand.Literal %q", src, got, want)
		}
		if got, want := w.simpleKnown(word), w.knownTree(word); got != want {
			t.Fatalf("%q: simpleKnown %v, knownTree %v", src, got, want)
		}
	})
}

func must(s string, err error) string {
	if err != nil {
		panic(err)
	}
	return s
}

// TestSimpleWordCovers: the words the walker expands itself, and words it leaves to the expand
// package (FuzzSimpleWord checks the answers of the first kind against it). An autoconf
// configure is full of $?, "${as_lineno-$LINENO}" and "\$x".
func TestSimpleWordCovers(t *testing.T) {
	for src, want := range map[string]bool{
		`$a`: true, `"$a/x"`: true, `$?`: true, `"$$"`: true, `${10}`: true, `$LINENO`: true,
		`"${as_lineno-$LINENO}"`: true, `${a:+"$b"}`: true, `${e-${a-z}}`: true, `"a\"b\$c"`: true,
		`"$@"`: false, `$*`: false, `${a=x}`: false, `${a?x}`: false, `${#a}`: false, `${a%x}`: false,
		`${!a}`: false, `$(x)`: false, `a\ b`: false, `${a-$(x)}`: false, `$'x'`: false,
	} {
		word := echoed(src)
		if word == nil {
			t.Fatalf("%s does not parse as one word", src)
		}
		if got := simpleWord(word); got != want {
			t.Errorf("simpleWord(%s) = %v, want %v", src, got, want)
		}
	}
}
