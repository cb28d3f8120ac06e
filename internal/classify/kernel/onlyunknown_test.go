package kernel

import (
	"testing"

	"github.com/oath-harness/oath-harness/internal/risk"
)

// onlyUnknown decides on the rule and the producer's mark, never on a reason's words: a
// reason that says "cannot be known" (a comment in the code it quotes, a rewording) changes
// nothing, and a marked reason worded otherwise is still only unknown.
func TestOnlyUnknownReadsNoWords(t *testing.T) {
	value := Unknown{What: UnknownValue}
	for _, tc := range []struct {
		what   string
		rule   string
		detail string
		u      Unknown
		want   bool
	}{
		{"unmarked, whatever its words", RuleInlineCodeCatastrophe, `python3 inline code runs "rm -rf / # cannot be known": recursive deletion of the root directory`, Unknown{}, false},
		{"marked, whatever its words", RuleNetworkExternal, "curl to a URL", value, true},
		{"a tree marked for the sandbox", RuleCatastrophe, `recursive deletion of "$(…)/build"`, Unknown{What: UnknownTree, Tree: "$D/build"}, true},
		{"a rule that says only that", RuleDynamicCommand, "reworded", Unknown{}, true},
		{"the harness's own stay critical", RuleSelfProtection, "with an argument that cannot be known statically", value, false},
	} {
		r := &Result{}
		r.AddUnknown(risk.Critical, ShellExec, tc.rule, "cmd", tc.detail, tc.u)
		p := r.Parts[0]
		if got := onlyUnknown(p.Reason.Rule, p.OnlyUnknown); got != tc.want {
			t.Errorf("%s: onlyUnknown %v, want %v", tc.what, got, tc.want)
		}
		// A verdict whose reason carries p's (code taken over from a file) says the same.
		outer := &Result{}
		outer.AddUnknown(risk.Critical, ShellExec, RulePlantedCode, "cmd", "Makefile runs: "+p.Reason.Detail, p.Carried())
		if got, want := outer.Parts[0].OnlyUnknown, p.OnlyUnknown; got != want {
			t.Errorf("%s: carried mark %v, want %v", tc.what, got, want)
		}
	}
}
