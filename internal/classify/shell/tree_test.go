package shell

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// FuzzWalkTree: walkTree visits what syntax.Walk visits, in the same order, the calls after
// the children (f(nil)) included, and skips the same children when f says no: here every
// node of a kind the fuzzer picks (prune).
func FuzzWalkTree(f *testing.F) {
	for _, s := range []string{"a b; c | d && e", "if a; then b; elif c; then d; else e; fi", "for i in 1 2; do x $i; done",
		"for ((i=0; i<3; i++)); do :; done", "while a; do b; done", "case $x in a|b) c;; *) d;; esac", "f() { g; } >out",
		"x=$(a <(b) >(c)) y[1]=2 z=(a [2]=b) cmd", "echo ${a:-b} ${a/x/y} ${a:1:2} ${#a} ${!a} ${a[i]}", "[[ -f a && ! b =~ c ]]",
		"(( a = b + -c, d++ ))", "let a=1 b++", "declare -A m=([k]=v); export X=1", "time { a; } 2>&1", "coproc n { a; }",
		"cat <<EOF\n$x $(y)\nEOF\n", "echo @(a|b) \"q $x `c`\" $'e\\n'", "a & b; ! c"} {
		f.Add(s, uint8(0))
		f.Add(s, uint8(5))
	}
	f.Fuzz(func(t *testing.T, src string, prune uint8) {
		file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
		if err != nil {
			return
		}
		visits := func(walk func(syntax.Node, func(syntax.Node) bool)) []string {
			var seen []string
			walk(file, func(n syntax.Node) bool {
				if n == nil {
					seen = append(seen, "end")
					return true
				}
				kind := fmt.Sprintf("%T", n)
				seen = append(seen, fmt.Sprintf("%s@%p", kind, n))
				return prune == 0 || int(kind[len(kind)-1])%int(prune) != 0
			})
			return seen
		}
		if got, want := visits(walkTree), visits(syntax.Walk); !slices.Equal(got, want) {
			t.Fatalf("%q (prune %d):\nwalkTree    %v\nsyntax.Walk %v", src, prune, got, want)
		}
	})
}
