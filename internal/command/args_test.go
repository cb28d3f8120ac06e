package command

import (
	"slices"
	"strings"
	"testing"
)

func values(ws []Word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.Value
	}
	return out
}

// TestParse: GNU-style splitting as the rules rely on it (clusters, values glued or apart,
// long options with "=", options after operands, "--").
func TestParse(t *testing.T) {
	for _, tc := range []struct {
		args, short string
		long        []string
		ops         string
		vals        map[string]string
		has         string // options given, Spec-named
	}{
		{args: "-rf a b", ops: "a b", has: "r f"},
		{args: "-ofile x", short: "o", ops: "x", vals: map[string]string{"o": "file"}},
		{args: "-no file x", short: "o", ops: "x", vals: map[string]string{"o": "file"}, has: "n o"},
		{args: "x --output=f y", ops: "x y", vals: map[string]string{"output": "f"}, has: "output"},
		{args: "--output f y", long: []string{"output"}, ops: "y", vals: map[string]string{"output": "f"}},
		{args: "--output f y", ops: "f y", has: "output"},
		{args: "a -- -rf -o", short: "o", ops: "a -rf -o"},
		{args: "- x", ops: "- x"},
	} {
		p := ParseStrings(strings.Fields(tc.args), tc.short, tc.long...)
		if got := strings.Join(values(p.Operands), " "); got != tc.ops {
			t.Errorf("%q: operands %q, want %q", tc.args, got, tc.ops)
		}
		for k, v := range tc.vals {
			if w, ok := p.Value(k); !ok || w.Value != v {
				t.Errorf("%q: value of %s = %q, %v; want %q", tc.args, k, w.Value, ok, v)
			}
		}
		for _, o := range strings.Fields(tc.has) {
			if !p.Given(o) {
				t.Errorf("%q: %s not given", tc.args, OptName(o))
			}
		}
	}
}

// TestParseUnknown: a word not known statically is an operand and is reported, before and
// after "--".
func TestParseUnknown(t *testing.T) {
	for _, args := range [][]Word{
		{{Value: "-x", Known: true}, {Value: "-$X"}},
		{{Value: "--", Known: true}, {Value: "a", Known: true}, {Value: "$X"}},
	} {
		p := Parse(args, "")
		if !p.Unknown || !slices.ContainsFunc(p.Operands, func(w Word) bool { return !w.Known }) {
			t.Errorf("%v: unknown word lost: %+v", args, p)
		}
	}
}

// FuzzParse: any argv is split without a panic, and every operand is one of the words given.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"-rf a", "-o", "--x=y z", "-- -a", "-abc -- d"} {
		f.Add(s, "o")
	}
	f.Fuzz(func(t *testing.T, s, short string) {
		args := strings.Fields(s)
		p := ParseStrings(args, short, "output")
		for _, o := range p.Operands {
			if !slices.Contains(args, o.Value) {
				t.Errorf("%q: operand %q is not an argument", s, o.Value)
			}
		}
		SplitGit(Words(args))
	})
}

// TestExpandAbbrev (issue 29: git reset --ha is --hard): a proper prefix of a listed long
// option is spelled out as the first listed one it fits, with its value; a one-letter prefix,
// a word after "--" or one not known statically is left as it is.
func TestExpandAbbrev(t *testing.T) {
	names := []string{"hard", "force", "force-with-lease", "output"}
	for _, tc := range []struct{ in, want string }{
		{"--ha x", "--hard x"}, {"--for", "--force"}, {"--force-w", "--force-with-lease"}, {"--out=f", "--output=f"},
		{"--outp f", "--output f"}, {"--h", "--h"}, {"--staged", "--staged"}, {"-- --ha", "-- --ha"}, {"--hard", "--hard"},
	} {
		if got := strings.Join(values(ExpandAbbrev(Words(strings.Fields(tc.in)), names)), " "); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.in, got, tc.want)
		}
	}
	in := Words([]string{"--ha"})
	ExpandAbbrev(in, names)
	if in[0].Value != "--ha" {
		t.Errorf("the arguments were changed in place: %q", in[0].Value)
	}
	if got := ExpandAbbrev([]Word{{Value: "--ha"}}, names); got[0].Value != "--ha" {
		t.Errorf("a word not known statically was expanded: %q", got[0].Value)
	}
}
