package kernel_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/classify/shell"
)

// TestLiterals: the strings of inline code, a concatenation read as the string it makes. An
// operand that is no literal stays unknown ($ here, shell.Dyn): the value is never its first
// (or any one) piece.
func TestLiterals(t *testing.T) {
	for _, tc := range []struct{ code, want string }{
		{`shutil.rmtree('.git')`, ".git"},
		{`shutil.rmtree('.'+'git')`, ".git"},
		{`shutil.rmtree('.' + "git")`, ".git"},
		{`rmtree("." . "git")`, ".git"},   // Perl, PHP
		{`rmtree("."."git")`, ".git"},     // no spaces
		{`os.remove(".." .. "x")`, "..x"}, // Lua
		{`system('rm -rf ' + '/')`, "rm -rf /"},
		{`shutil.rmtree('.' + name)`, ".$"},
		{`shutil.rmtree(base + '/build')`, "$/build"},
		{`system('rm -rf ' + d + '/x')`, "rm -rf $|$/x"}, // each piece keeps its unknown side
		{`system('a' + 'b' + c)`, "ab$"},
		{`system(c + 'a' + 'b')`, "$ab"},
		{`rmtree("." . $x)`, ".$"},
		{`rmtree($x . ".git")`, "$.git"},
		{`'.'.join(['a', 'b'])`, ".|a|b"}, // a method, not Perl's operator
		{`'{}'.format(x)`, "{}"},
		{`x += 'a'`, "a"},
		{`print('a', 'b')`, "a|b"},
		{`s = 'open`, "open"}, // unterminated: read to the end
	} {
		var got []string
		for _, l := range kernel.Literals(tc.code) {
			got = append(got, strings.ReplaceAll(l, shell.Dyn, "$"))
		}
		if want := strings.Split(tc.want, "|"); !slices.Equal(got, want) {
			t.Errorf("Literals(%q) = %q, want %q", tc.code, got, want)
		}
	}
}
