package classify

import (
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/domain"
	"github.com/oath-harness/oath-harness/internal/risk"
	"github.com/oath-harness/oath-harness/internal/settings"
)

// One part per simple command, with its own domain and risk (issue 12 item 5): the git_remote
// part of a compound command stays visible to the phase profile.
func TestParts(t *testing.T) {
	c := newTest(t, settings.Defaults())
	for _, tc := range []struct {
		cmd  string
		want []string // argv=domain/risk
	}{
		{"git push origin main; rm -rf build", []string{"git push origin main=git_remote/high", "rm -rf build=shell_exec/high"}},
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

// The domain is what the command is for (issue 13 item 3): setup prefixes count for the risk,
// not for the domain.
func TestDomainByMainCommand(t *testing.T) {
	c := newTest(t, settings.Defaults())
	for _, tc := range []struct {
		cmd    string
		domain domain.Domain
		risk   risk.Level
	}{
		{"source .venv/bin/activate && pytest", TestRun, risk.Medium},
		{". venv/bin/activate; python -m pytest -q", TestRun, risk.Medium},
		{"cd sub && npm test", TestRun, risk.Low},
		{"pushd sub && go test ./... && popd", TestRun, risk.Low},
		{"export CI=1 && go test ./...", TestRun, risk.Low},
		{"set -euo pipefail; go test ./...", TestRun, risk.Low},
		{"nvm use 20 && npm test", TestRun, risk.Medium},
		{"conda activate env && pytest", TestRun, risk.Medium},
		{"cd sub && git add -A", GitLocal, risk.Medium},
		{"cd sub && git status", GitRead, risk.Low},
		{"cd sub", FileRead, risk.Low},
		{"source ./deploy.sh && pytest", ShellExec, risk.Medium}, // not an activate script: it is part of the purpose
		{"cd sub && rm -rf build", ShellExec, risk.High},
		{"ls && go test ./...", TestRun, risk.Low}, // unchanged: the riskiest part, ties to the more capable domain
	} {
		got := c.Classify(bash(tc.cmd))
		if got.Domain != tc.domain || got.Risk != tc.risk {
			t.Errorf("%s: %s %s, want %s %s (%+v)", tc.cmd, got.Domain, got.Risk, tc.domain, tc.risk, got.Reasons)
		}
	}
}

// Precision (issue 12 item 6): [ and test are the test builtin, not a glob; a program named by
// a path of its own is not the system's program of that name.
func TestPrecision(t *testing.T) {
	c := newTest(t, settings.Defaults())
	for _, tc := range []struct {
		cmd      string
		min, max risk.Level
		domain   domain.Domain
	}{
		{"[ -f go.mod ] && go test ./...", risk.Low, risk.Low, TestRun},
		{"test -d vendor || go mod vendor", risk.Medium, risk.Medium, ShellExec},
		{"[[ -n $CI ]] && go test ./...", risk.Low, risk.Low, TestRun},
		{"if [ -x ./run.sh ]; then echo ok; fi", risk.Low, risk.Low, FileRead},
		{"[ -f a ] && rm -rf build", risk.High, risk.High, ShellExec},
		{"/bin/ls -la", risk.Low, risk.Low, FileRead},
		{"/usr/bin/ls", risk.Low, risk.Low, FileRead},
		{"./ls", risk.Medium, risk.Medium, ShellExec},
		{"/tmp/x/ls -la", risk.Medium, risk.Medium, ShellExec},
		{"bin/cat go.mod", risk.Medium, risk.Medium, ShellExec},
		{"~/bin/grep x", risk.Medium, risk.Medium, ShellExec},
		{".venv/bin/ls", risk.Medium, risk.Medium, ShellExec},
		{".venv/bin/pytest -q", risk.Low, risk.Low, TestRun},
		{"node_modules/.bin/jest", risk.Low, risk.Low, TestRun},
		{"./gradlew test", risk.Low, risk.Low, TestRun},
		{"./rm -rf /", risk.Critical, risk.Critical, ""},
		{"/???/rm -rf /", risk.Critical, risk.Critical, ""},
	} {
		check(t, c.Classify(bash(tc.cmd)), tc.cmd, tc.min, tc.max, tc.domain)
	}
}
