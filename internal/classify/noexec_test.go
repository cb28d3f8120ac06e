package classify

import (
	"testing"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/settings"
)

// Issue 29 (peer suites: allowed commands asked). A shell with noexec (-n, in a cluster, -o
// noexec; the last of them and their + forms wins) reads its program and runs none of it; a
// bare shell reads its program from stdin, which Claude Code leaves empty
// (e2e TestHostFactsBashStdin). Both are reads. What could turn noexec off (+n appended by
// xargs from names that are not find's paths, -i) or feed stdin keeps today's answer.
func TestNoExecShellOnlyReads(t *testing.T) {
	runCases(t, []tcase{
		{"find src -type f -print0 | xargs -0 -n1 -P4 bash -n", L, L, ""},
		{"find . -name '*.sh' -print0 | xargs -0 bash -n", L, L, ""},
		{"bash -n build.sh", L, L, kernel.FileRead}, {"bash -nv build.sh", L, L, kernel.FileRead},
		{"sh -o noexec build.sh", L, L, kernel.FileRead}, {"bash +n -n build.sh", L, L, kernel.FileRead},
		{"bash", L, L, kernel.FileRead}, {"sh", L, L, kernel.FileRead},
	})
	c := newTest(t, settings.Defaults())
	for _, cmd := range []string{
		"ls | xargs bash -n",                                // a name could be +n
		"find . -print0 | xargs -0 -I{} bash -n",            // an xargs option not read
		"find . -printf '+n\\0' -print0 | xargs -0 bash -n", // find prints other words
		"bash -n +n build.sh", "bash -n -o noexec +o noexec build.sh", "bash -in build.sh",
		"bash -i", "{ bash; } < f", "bash < run.sh", "cat run.sh | bash",
	} {
		got := c.Classify(bash(cmd))
		if got.Risk == L {
			t.Errorf("%q is low: %+v", cmd, got.Reasons)
		}
	}
}
