package classify

import (
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/settings"
)

// TestReadOnlyOptions: options that make an allow-list command write or run something.
func TestReadOnlyOptions(t *testing.T) {
	runCases(t, []tcase{
		{"tree -o out.txt", M, M, ""}, {"tree --output=out.txt src", M, M, ""}, {"tree -R -H . src", M, M, ""},
		{"less -o log f", M, M, ""}, {"less --log-file=log f", M, M, ""}, {"less '+!rm x' f", H, H, ""},
		{"rg --pre ./x.sh foo", H, H, ""}, {"rg --pre=./x.sh foo", H, H, ""}, {"rg --pre 'rm -rf /' x", C, C, ""},
		{"fd -x rm {} .", H, "", ""}, {"man -P 'rm -rf ~' ls", C, C, ""}, {"sort -o out f", M, M, ""}, {"sort -no out f", M, M, ""},
		{"uniq in out", M, M, ""}, {"xxd -r in out", M, M, ""}, {"date -s 2020-01-01", M, M, ""}, {"hostname evil", M, M, ""},
		{"history -w /tmp/h", M, M, ""}, {"tree -L 2 src", L, L, kernel.FileRead}, {"less -N f", L, L, kernel.FileRead},
		{"rg -n foo src", L, L, kernel.FileRead}, {"sort -t, -k2 f", L, L, kernel.FileRead}, {"date +%s", L, L, kernel.FileRead},
		{"hostname", L, L, kernel.FileRead}, {"uniq -c f", L, L, kernel.FileRead}, {"ls -la", L, L, kernel.FileRead},
	})
}

// TestReadOnlyPredicate: the predicate oath-gate uses, and its agreement with the verdict:
// whatever ReadOnly accepts classify judges low, file_read or git_read, with no write.
func TestReadOnlyPredicate(t *testing.T) {
	c := newTest(t, settings.Defaults())
	for _, tc := range []struct {
		cmd  string
		want bool
	}{
		{"cat f", true}, {"ls -la", true}, {"tree -L 2", true}, {"rg -n x", true}, {"sort -k2 f", true}, {"git status", true},
		{"git -C sub log --oneline", true}, {"git diff HEAD~1", true}, {"git branch -a", true}, {"git config --get user.name", true},
		{"find . -name x", true}, {"date +%F", true}, {"/usr/bin/head -n 3 f", true}, {"cd src", true}, {"printenv PATH", true},
		{"tree -o f", false}, {"tree --output=f", false}, {"tree -R", false}, {"less -o f x", false}, {"less -Of x", false},
		{"less --log-file=f x", false}, {"rg --pre ./x.sh y", false}, {"sort -o f g", false}, {"sort --output=f g", false},
		{"find . -delete", false}, {"find . -exec rm {} ;", false}, {"find . -fprint f", false}, {"find . -fls f", false},
		{"git -c core.pager=x log", false}, {"git diff --output=f", false}, {"git diff --output f", false}, {"git log -o f", false},
		{"git --git-dir=x status", false}, {"git diff --ext-diff", false}, {"git branch -D x", false}, {"git tag v1", false},
		{"git commit -m x", false}, {"git fsck --lost-found", false}, {"uniq a b", false}, {"xxd a b", false},
		{"date 0101", false}, {"hostname x", false}, {"export PATH=x", false}, {"eval ls", false}, {"alias ls=rm", false},
		{"rm x", false}, {"mktemp", false}, {"", false}, {"unknown-tool", false},
	} {
		argv := strings.Fields(tc.cmd)
		if got := ReadOnly(argv); got != tc.want {
			t.Errorf("ReadOnly(%q) = %v, want %v", argv, got, tc.want)
		}
		if !tc.want || tc.cmd == "cd src" {
			continue
		}
		got := c.Classify(bash(tc.cmd))
		if got.Risk != L || got.Domain != kernel.FileRead && got.Domain != kernel.GitRead || len(got.Paths.Write) > 0 {
			t.Errorf("%q is ReadOnly but classified %s %s writes %v; %+v", tc.cmd, got.Risk, got.Domain, got.Paths.Write, got.Reasons)
		}
	}
}
