package kernel_test

import (
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// What a bounded sandbox lowers is decided by the mark alone: only what is critical because
// something cannot be known, never a named catastrophe, and of a tree only one whose last
// name is known and is neither the project's nor a directory's above it.
func TestUnknownBounded(t *testing.T) {
	const project = "/home/u/proj"
	dyn := shell.Dyn // a value of the environment or a command's output, as Resolve keeps it
	for _, tc := range []struct {
		u    kernel.Unknown
		want bool
	}{
		{kernel.Unknown{}, false}, // unmarked: whatever its words say
		{kernel.Unknown{What: kernel.UnknownTarget}, true},
		{kernel.Unknown{What: kernel.UnknownTarget, FromStdin: true}, true}, // xargs rm -f /tmp/x: files, not trees
		{kernel.Unknown{What: kernel.DynamicName}, true},
		{kernel.Unknown{What: kernel.UnknownTree, Tree: dyn}, false},
		{kernel.Unknown{What: kernel.UnknownTree, Tree: dyn + "/"}, false},
		{kernel.Unknown{What: kernel.UnknownTree, Tree: dyn + "/.."}, false},
		{kernel.Unknown{What: kernel.UnknownTree, Tree: dyn + "/."}, false},
		{kernel.Unknown{What: kernel.UnknownTree, Tree: dyn + "/build"}, true},
		{kernel.Unknown{What: kernel.UnknownTree, Tree: dyn + "/build/"}, true},
		{kernel.Unknown{What: kernel.UnknownTree, Tree: "$TMPDIR/build"}, true},
		{kernel.Unknown{What: kernel.UnknownTree, Tree: dyn + "/build", FromStdin: true}, false}, // a tree named on stdin could be /
		{kernel.Unknown{What: kernel.UnknownTree, Tree: dyn + "/proj"}, false},                   // the project's own name
		{kernel.Unknown{What: kernel.UnknownTree, Tree: dyn + "/U"}, false},                      // a directory above it, in any case
		{kernel.Unknown{What: kernel.UnknownTree, Tree: dyn + "/b*"}, false},
		{kernel.Unknown{What: kernel.UnknownTree, Tree: dyn + "/b{x,y}"}, false},
		{kernel.Unknown{What: kernel.UnknownTree, Tree: "~"}, false},
		{kernel.Unknown{What: kernel.UnknownTree, Tree: dyn + "/.git"}, false},
		{kernel.Unknown{What: kernel.UnknownTree, Tree: dyn + "/.GIT"}, false},
		{kernel.Unknown{What: kernel.UnknownTree, Tree: dyn + "/child/" + dyn}, false},
		// The whole target as written decides, however long: a reason clips it at 80 bytes.
		{kernel.Unknown{What: kernel.UnknownTree, Tree: dyn + "/" + strings.Repeat("a", 100) + "/build"}, true},
		{kernel.Unknown{What: kernel.UnknownTree, Tree: dyn + "/" + strings.Repeat("a", 100) + "/" + dyn}, false},
	} {
		if got := tc.u.Bounded(project); got != tc.want {
			t.Errorf("%+v: bounded %v, want %v", tc.u, got, tc.want)
		}
	}
	if (kernel.Unknown{What: kernel.UnknownTree, Tree: "$D/build"}).Bounded("") {
		t.Error("a tree is bounded with no project known")
	}
}

// A verdict is lowered inside a bounded sandbox only when its producer marks it (AddUnknown):
// the reasons the text of which the lowering once read, added unmarked, stay critical.
func TestBoundedOnlyMarked(t *testing.T) {
	const project = "/home/u/proj"
	for _, tc := range []struct {
		rule, detail string
		u            kernel.Unknown
	}{
		{kernel.RuleSelfProtectionUnknownTarget, `writes to "$(…)", which cannot be known statically and could be a protected file of the harness: spell the path out`, kernel.Unknown{What: kernel.UnknownTarget}},
		{kernel.RuleSelfProtectionUnknownTarget, `writes to "$(…)/child/**", which cannot be known statically and could be a protected file of the harness: spell the path out`, kernel.Unknown{What: kernel.UnknownTree, Tree: "$D/child"}},
		{kernel.RuleDynamicCommand, "the command name cannot be known statically: it could be any program", kernel.Unknown{What: kernel.DynamicName}},
		{kernel.RuleCatastrophe, `recursive deletion of "$(…)/build", which cannot be known statically (it could be / or ~)`, kernel.Unknown{What: kernel.UnknownTree, Tree: "$D/build"}},
	} {
		for _, bounded := range []bool{true, false} {
			r := &kernel.Result{Bounded: bounded, Project: project}
			r.Add(risk.Critical, kernel.ShellExec, tc.rule, "cmd", tc.detail)
			r.AddUnknown(risk.Critical, kernel.ShellExec, tc.rule, "cmd", tc.detail, tc.u)
			r.AddUnknown(risk.High, kernel.ShellExec, tc.rule, "cmd", tc.detail, tc.u)
			if len(r.Parts) != 3 {
				t.Fatalf("%s: %d parts, want 3", tc.detail, len(r.Parts))
			}
			plain, marked, high := r.Parts[0], r.Parts[1], r.Parts[2]
			if plain.Risk != risk.Critical || plain.Reason.Risk != risk.Critical || plain.Reason.Detail != tc.detail {
				t.Errorf("bounded %v, unmarked %q: %s %q, want critical as written", bounded, tc.detail, plain.Risk, plain.Reason.Detail)
			}
			want, detail := risk.Critical, tc.detail
			if bounded {
				want, detail = risk.High, tc.detail+kernel.BoundedWords
			}
			if marked.Risk != want || marked.Reason.Risk != want || marked.Reason.Detail != detail {
				t.Errorf("bounded %v, marked %q: %s %q, want %s %q", bounded, tc.detail, marked.Risk, marked.Reason.Detail, want, detail)
			}
			if high.Risk != risk.High || high.Reason.Detail != tc.detail {
				t.Errorf("bounded %v, marked high %q: %s %q, want high as written", bounded, tc.detail, high.Risk, high.Reason.Detail)
			}
		}
	}
}
