package classify

import (
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/settings"
)

// TestParts: one part per simple command, with its own domain and risk (issue 12 item 5): the git_remote
// part of a compound command stays visible to the phase profile.
func TestParts(t *testing.T) {
	c := newTest(t, settings.Defaults())
	for _, tc := range []struct {
		cmd  string
		want []string // argv=domain/risk
	}{
		{"git push origin main; rm -rf build", []string{"git push origin main=git_remote/high", "rm -rf build=file_write/high"}},
		{"ls && go test ./...", []string{"ls=file_read/low", "go test ./...=test_run/low"}},
		{"cd sub && git commit -m x", []string{"cd sub=file_read/low", "git commit -m x=git_local/medium"}},
		{"bash -c 'git push origin main'", []string{"git push origin main=git_remote/high"}},
		{"echo $(git fetch) | wc -l", []string{"echo " + shell.Dyn + "=file_read/low", "git fetch=git_remote/medium", "wc -l=file_read/low"}},
	} {
		got := c.Classify(bash(tc.cmd))
		var parts []string
		for _, p := range got.Parts {
			parts = append(parts, strings.Join(p.Argv, " ")+"="+string(p.Domain)+"/"+string(p.Risk))
		}
		if strings.Join(parts, "; ") != strings.Join(tc.want, "; ") {
			t.Errorf("%s: parts\n  %s\nwant\n  %s", tc.cmd, strings.Join(parts, "; "), strings.Join(tc.want, "; "))
		}
	}
	if got := c.Classify(bash("cd sub && ls")); len(got.Parts) != 2 || got.Parts[1].Dir != testProject+"/sub" {
		t.Errorf("cd sub && ls: the second part runs in sub: %+v", got.Parts)
	}
	if got := c.Classify(event("Read", map[string]string{"file_path": "/proj/x"})); got.Parts != nil {
		t.Errorf("Read has no parts: %+v", got.Parts)
	}
}
