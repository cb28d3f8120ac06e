package classify

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/domain"
	"github.com/oath-harness/oath-harness/internal/risk"
	"github.com/oath-harness/oath-harness/internal/settings"
)

// TestCorpus carries ../shared/corpus/classify-sample.jsonl (copied to testdata/corpus).
func TestCorpus(t *testing.T) {
	c := newTest(t, settings.Defaults())
	f, err := os.Open("../../testdata/corpus/classify-sample.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		var line struct {
			Tool, Cmd, Min, Max, Domain, Note string
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("corpus line %d: %v", n+1, err)
		}
		n++
		min := risk.Level(line.Min)
		if min == "" {
			min = risk.Low
		}
		got := c.Classify(event(line.Tool, map[string]string{"command": line.Cmd}))
		check(t, got, line.Cmd, min, risk.Level(line.Max), domain.Domain(line.Domain))
	}
	if n < 40 {
		t.Fatalf("only %d corpus lines read", n)
	}
}

// TestSeedLists: AC-015 (allow list low), AC-016 (deny list high), AC-017 (critical), AC-018 (medium).
// Commands that only create, change or delete the files they name (rm, cp, mv, mkdir, touch,
// chmod …) are file_write, the domain 002 §B-1-1 defines as "writing, creating, deleting files":
// what they are for (issue 13), and whether they lose work is asked of git (issue 12).
func TestSeedLists(t *testing.T) {
	runCases(t, []tcase{
		{"ls -la", L, L, kernel.FileRead}, {"cat foo.txt", L, L, kernel.FileRead}, {"grep -rn 'rm -rf' .", L, L, kernel.FileRead},
		{"pytest", L, L, kernel.TestRun}, {"find . -name '*.go'", L, L, kernel.FileRead}, {"pwd", L, L, kernel.FileRead},
		{"du -sh .", L, L, kernel.FileRead}, {"head -5 a", L, L, kernel.FileRead}, {"jq .x f.json", L, L, kernel.FileRead},
		{"printf '%s' x", L, L, kernel.FileRead}, {"git diff HEAD~1", L, L, kernel.GitRead}, {"git show HEAD", L, L, kernel.GitRead},
		{"git branch", L, L, kernel.GitRead}, {"git branch -a", L, L, kernel.GitRead},
		{"rm foo.txt", H, H, kernel.FileWrite}, {"rm -rf build", H, H, kernel.FileWrite}, {"chmod 644 x", H, H, kernel.FileWrite},
		{"chown me x", H, H, kernel.FileWrite}, {"apt-get install x", H, H, kernel.ShellExec}, {"brew install jq", H, H, kernel.ShellExec},
		{"pip install requests", H, H, kernel.ShellExec}, {"git merge main", H, H, kernel.GitLocal}, {"scp b:a dl/", H, H, kernel.ShellExec},
		{"reboot", H, H, kernel.ShellExec}, {"shutdown -h now", H, H, kernel.ShellExec},
		{"curl https://api.example.com/pay", C, C, ""}, {"wget http://example.org", C, C, ""},
		{"echo $API_KEY", C, C, ""}, {"export PASSWORD=x", C, C, ""}, {"mail -s hi a@b < f", C, C, ""},
		{"mutt a@b", C, C, ""}, {"swaks --to a@b", C, C, ""},
		{"make", M, M, kernel.ShellExec}, {"node script.js", M, M, kernel.ShellExec}, {"mkdir -p a/b", M, M, kernel.FileWrite},
		{"cp a b", M, M, kernel.FileWrite}, {"mv a b", M, M, kernel.FileWrite}, {"touch x", M, M, kernel.FileWrite},
		{"sed -i s/a/b/ f", M, M, kernel.ShellExec}, {"echo hi > notes.txt", M, M, kernel.ShellExec},
		{"git add -A", M, M, kernel.GitLocal}, {"git commit -m 'x'", M, M, kernel.GitLocal}, {"git fetch", M, M, kernel.GitRemote},
	})
}

// TestPathsAndCommands: commands are the argv after unwrapping; paths are absolute.
func TestPathsAndCommands(t *testing.T) {
	c := newTest(t, settings.Defaults())
	got := c.Classify(bash("cd sub && sudo cp ../a.txt b/ > log.txt; cat < in"))
	want := [][]string{{"cd", "sub"}, {"cp", "../a.txt", "b/"}, {"cat"}}
	if js(got.Commands) != js(want) {
		t.Errorf("commands %s, want %s", js(got.Commands), js(want))
	}
	for _, p := range []string{"/proj/sub/b", "/proj/sub/b/a.txt", "/proj/sub/log.txt"} {
		if !strings.Contains(js(got.Paths.Write), p) {
			t.Errorf("paths.write %v lacks %s", got.Paths.Write, p)
		}
	}
	if r := append([]string{}, got.Paths.Read...); len(r) != 2 || !strings.Contains(js(r), "/proj/a.txt") || !strings.Contains(js(r), "/proj/sub/in") {
		t.Errorf("paths.read %v", got.Paths.Read)
	}
	ev := bash("echo hi > out.txt")
	ev.Cwd = "/elsewhere"
	if got := c.Classify(ev); js(got.Paths.Write) != `["/elsewhere/out.txt"]` {
		t.Errorf("cwd not used: %v", got.Paths.Write)
	}
	ev.Cwd = ""
	if got := c.Classify(ev); js(got.Paths.Write) != `["/proj/out.txt"]` {
		t.Errorf("project fallback not used: %v", got.Paths.Write)
	}
	got = c.Classify(bash("ls"))
	if js(got.Paths) != `{"read":[],"write":[]}` {
		t.Errorf("empty paths: %s", js(got.Paths))
	}
}

// TestDomainByMainCommand: the domain is what the command is for (issue 13 item 3): setup prefixes count for the risk,
// not for the domain.
func TestDomainByMainCommand(t *testing.T) {
	c := newTest(t, settings.Defaults())
	for _, tc := range []struct {
		cmd    string
		domain domain.Domain
		risk   risk.Level
	}{
		{"source .venv/bin/activate && pytest", kernel.TestRun, risk.Medium},
		{". venv/bin/activate; python -m pytest -q", kernel.TestRun, risk.Medium},
		{"cd sub && npm test", kernel.TestRun, risk.Low},
		{"pushd sub && go test ./... && popd", kernel.TestRun, risk.Low},
		{"export CI=1 && go test ./...", kernel.TestRun, risk.Low},
		{"set -euo pipefail; go test ./...", kernel.TestRun, risk.Low},
		{"nvm use 20 && npm test", kernel.TestRun, risk.Medium},
		{"conda activate env && pytest", kernel.TestRun, risk.Medium},
		{"cd sub && git add -A", kernel.GitLocal, risk.Medium},
		{"cd sub && git status", kernel.GitRead, risk.Low},
		{"cd sub", kernel.FileRead, risk.Low},
		{"source ./deploy.sh && pytest", kernel.ShellExec, risk.Medium}, // not an activate script: it is part of the purpose
		{"cd sub && rm -rf build", kernel.FileWrite, risk.High},
		{"ls && go test ./...", kernel.TestRun, risk.Low},     // unchanged: the riskiest part, ties to the more capable domain
		{"export -p | grep KEY", kernel.ShellExec, risk.High}, // bare or -p, export and set print the environment
		{"set | grep TOKEN", kernel.ShellExec, risk.High},
	} {
		got := c.Classify(bash(tc.cmd))
		if got.Domain != tc.domain || got.Risk != tc.risk {
			t.Errorf("%s: %s %s, want %s %s (%+v)", tc.cmd, got.Domain, got.Risk, tc.domain, tc.risk, got.Reasons)
		}
	}
}
