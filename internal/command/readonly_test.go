package command

import (
	"strings"
	"testing"
)

// FuzzReadOnly: any argv is answered without a panic, and an option that makes a command
// write (tree -o) is never read-only, whatever follows it.
func FuzzReadOnly(f *testing.F) {
	for _, s := range []string{"tree -o x", "sort -no f", "git -c a=b log", "less +!x f", "find . -fls f", "rg --pre=x y", "date 0101", "--"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		argv := strings.Fields(s)
		ReadOnly(argv)
		if ReadOnly(append([]string{"tree", "-o", "f"}, argv...)) {
			t.Errorf("tree -o f %q is read-only", argv)
		}
		if len(argv) > 0 {
			ParseStrings(argv[1:], "o", "output")
		}
	})
}
