package classify

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/claude"
	"github.com/oath-harness/oath-harness/internal/domain"
	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/layout"
	"github.com/oath-harness/oath-harness/internal/risk"
	"github.com/oath-harness/oath-harness/internal/settings"
)

// Helpers shared by the test files of every family: a classifier for the fixed project /proj
// (newTest) or for one on disk (onDisk, newAt), events (bash, event), and the table runners
// (runCases for a risk range, runCritical for red-team spellings, runRunnerCases on disk).

// testProject and testHome are the project and home directory of newTest's classifier.
const (
	testProject = "/proj"
	testHome    = "/home/u"
)

// newTest is a classifier with settings s for the project /proj, HOME /home/u and OATH_BIN
// /opt/oath/bin (nothing of them on disk).
func newTest(t testing.TB, s settings.Settings) *Classifier {
	t.Helper()
	if tt, ok := t.(*testing.T); ok {
		tt.Setenv("HOME", testHome)
		tt.Setenv("OATH_BIN", "/opt/oath/bin")
	} else {
		os.Setenv("HOME", testHome)
	}
	c, err := New(s, layout.Layout{ProjectDir: testProject, Root: testProject + "/oath-harness"})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// event is a PreToolUse event of tool with input as its tool_input, in the project.
func event(tool string, input any) *claude.Event {
	raw, _ := json.Marshal(input)
	return &claude.Event{HookEventName: claude.PreToolUse, ToolName: tool, ToolInput: raw, Cwd: testProject}
}

// bash is a Bash event running cmd.
func bash(cmd string) *claude.Event { return event("Bash", map[string]string{"command": cmd}) }

// check asserts a risk range (max "" = open) and, when given, the domain.
func check(t *testing.T, got envelope.Classification, what string, min, max risk.Level, domain domain.Domain) {
	t.Helper()
	if got.Risk.Value() < min.Value() || max != "" && got.Risk.Value() > max.Value() {
		t.Errorf("%s: risk %s, want %s..%s; reasons %+v", what, got.Risk, min, max, got.Reasons)
	}
	if domain != "" && got.Domain != domain {
		t.Errorf("%s: domain %s, want %s; reasons %+v", what, got.Domain, domain, got.Reasons)
	}
	if got.RiskValue != got.Risk.Value() {
		t.Errorf("%s: risk_value %d for %s", what, got.RiskValue, got.Risk)
	}
	if got.Reasons == nil || got.Commands == nil || got.Paths.Read == nil || got.Paths.Write == nil {
		t.Errorf("%s: a list is null: %+v", what, got)
	}
	if len(got.Reasons) == 0 {
		t.Errorf("%s: no reason given", what)
	}
}

// tcase is a row of a command table: cmd is classified low-bounded by min, high-bounded by max
// ("" = open), in domain ("" = any).
type tcase struct {
	cmd      string
	min, max risk.Level
	domain   domain.Domain
}

// runCases classifies every row's command with the default settings and checks it.
func runCases(t *testing.T, cases []tcase) {
	t.Helper()
	c := newTest(t, settings.Defaults())
	for _, tc := range cases {
		check(t, c.Classify(bash(tc.cmd)), tc.cmd, tc.min, tc.max, tc.domain)
	}
}

// runCritical asserts that every command is critical: the red-team spellings of a family, each
// a way to get a catastrophe, an exfiltration or a write to the harness past the classifier. At
// high, earned trust would auto-approve it (appendix B).
func runCritical(t *testing.T, cmds []string) {
	t.Helper()
	c := newTest(t, settings.Defaults())
	for _, cmd := range cmds {
		if got := c.Classify(bash(cmd)); got.Risk != C {
			t.Errorf("%q is %s (%s), want critical; reasons %+v", cmd, got.Risk, got.Domain, got.Reasons)
		}
	}
}

// L, M, H and C are the four risk levels, short for the tables.
const (
	L = risk.Low
	M = risk.Medium
	H = risk.High
	C = risk.Critical
)

// itoa, js and shQuote format for messages and commands.
func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

func js(v any) string { b, _ := json.Marshal(v); return string(b) }

func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// riskOf is the level named s (tables that spell levels as words).
func riskOf(s string) risk.Level {
	switch s {
	case "low":
		return L
	case "medium":
		return M
	case "high":
		return H
	}
	return C
}

// hasRule reports whether one of the classification's reasons is by rule.
func hasRule(got envelope.Classification, rule string) bool {
	for _, r := range got.Reasons {
		if r.Rule == rule {
			return true
		}
	}
	return false
}

// onDisk is a project on disk for the runners' tests: files by path relative to the project
// ("~/" for the home directory, a leading "x:" for an executable file).
func onDisk(t testing.TB, files map[string]string) (*Classifier, string) {
	t.Helper()
	dir := t.TempDir()
	dir, _ = filepath.EvalSymlinks(dir)
	home := filepath.Join(dir, "home")
	for name, body := range files {
		mode := os.FileMode(0o644)
		if n, ok := strings.CutPrefix(name, "x:"); ok {
			name, mode = n, 0o755
		}
		p := filepath.Join(dir, "proj", name)
		if n, ok := strings.CutPrefix(name, "~/"); ok {
			p = filepath.Join(home, n)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), mode); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Join(dir, "proj"), 0o755)
	os.MkdirAll(home, 0o755)
	if tt, ok := t.(*testing.T); ok {
		tt.Setenv("HOME", home)
		tt.Setenv("XDG_CONFIG_HOME", "")
		tt.Setenv("GIT_CONFIG_GLOBAL", "")
	} else {
		os.Setenv("HOME", home)
	}
	project := filepath.Join(dir, "proj")
	c, err := New(settings.Defaults(), layout.Layout{ProjectDir: project, Root: project + "/oath-harness"})
	if err != nil {
		t.Fatal(err)
	}
	return c, project
}

// bashAt is a Bash event running cmd in dir.
func bashAt(dir, cmd string) *claude.Event {
	ev := bash(cmd)
	ev.Cwd = dir
	return ev
}

// runnerCase is a row of a table run on disk: files make the project, cmd runs in it.
type runnerCase struct {
	what     string
	files    map[string]string
	cmd      string
	min, max risk.Level
	domain   domain.Domain
}

// runRunnerCases makes each row's project on disk and checks its command there.
func runRunnerCases(t *testing.T, cases []runnerCase) {
	t.Helper()
	for _, tc := range cases {
		c, dir := onDisk(t, tc.files)
		got := c.Classify(bashAt(dir, tc.cmd))
		check(t, got, tc.what+": "+tc.cmd, tc.min, tc.max, tc.domain)
	}
}

// ordinaryMakefile is an everyday makefile: test and vet run go, clean deletes build.
const ordinaryMakefile = "GO ?= go\n.PHONY: test clean\n\ntest: vet\n\t$(GO) test ./...\n\nvet:\n\t@$(GO) vet ./...\n\nclean:\n\trm -rf build\n"

// newAt is a classifier for a project in dir (a real directory, for what git is asked).
func newAt(t *testing.T, dir string) *Classifier {
	t.Helper()
	return newIn(t, dir, filepath.Join(t.TempDir(), "oath-harness"))
}

// newIn is a classifier for a project in dir whose harness root is root.
func newIn(t *testing.T, dir, root string) *Classifier {
	t.Helper()
	t.Setenv("HOME", testHome)
	t.Setenv("OATH_BIN", "/opt/oath/bin")
	c, err := New(settings.Defaults(), layout.Layout{ProjectDir: dir, Root: root})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// valid checks what any classification must be (for the fuzz targets).
func valid(t *testing.T, got envelope.Classification, what string) {
	t.Helper()
	if !got.Risk.Valid() || got.RiskValue != got.Risk.Value() || !got.Domain.Known() {
		t.Fatalf("%q: invalid classification %+v", what, got)
	}
	if got.Reasons == nil || len(got.Reasons) == 0 || got.Commands == nil || got.Paths.Read == nil || got.Paths.Write == nil {
		t.Fatalf("%q: null or empty list in %+v", what, got)
	}
	lowered := false
	for _, r := range got.Reasons {
		lowered = lowered || strings.HasPrefix(r.Rule, "user:")
	}
	for _, r := range got.Reasons {
		if !r.Risk.Valid() || r.Risk.Value() > got.Risk.Value() && (!lowered || r.Risk.Value() > 2) {
			t.Fatalf("%q: reason %+v above the verdict %s", what, r, got.Risk)
		}
	}
	if _, err := json.Marshal(got); err != nil {
		t.Fatalf("%q: %v", what, err)
	}
}

// levelCase is a row of a tool table: a value of the tool's input and its risk range, in words.
type levelCase struct{ in, min, max string }

// runToolLevels classifies tool with key set to each row's value (rest filling the rest of its
// input) and checks the risk range.
func runToolLevels(t *testing.T, tool, key string, rest map[string]string, cases []levelCase) {
	t.Helper()
	c := newTest(t, settings.Defaults())
	for _, tc := range cases {
		in := map[string]string{key: tc.in}
		for k, v := range rest {
			in[k] = v
		}
		got := c.Classify(event(tool, in))
		if got.Risk.Value() < riskOf(tc.min).Value() || got.Risk.Value() > riskOf(tc.max).Value() {
			t.Errorf("%s %s: %s, want %s..%s; reasons %+v", tool, tc.in, got.Risk, tc.min, tc.max, got.Reasons)
		}
	}
}

// toolInput is a tool event: the tool's name and its raw tool_input.
type toolInput struct{ tool, in string }

// runToolsCritical asserts that every event is critical, by rule when rule is not "".
func runToolsCritical(t *testing.T, rule string, cases []toolInput) {
	t.Helper()
	c := newTest(t, settings.Defaults())
	for _, tc := range cases {
		got := c.Classify(event(tc.tool, json.RawMessage(tc.in)))
		if got.Risk != C || rule != "" && got.Reasons[0].Rule != rule {
			t.Errorf("%s %s: %s, want critical %s; reasons %+v", tc.tool, tc.in, got.Risk, rule, got.Reasons)
		}
	}
}

// newRepo makes an empty git repository in a fresh directory (links resolved) and returns it
// with a git runner (fixed identity, branch main) and a file writer, both failing the test on
// error. It skips the test when git is missing.
func newRepo(t *testing.T) (dir string, git func(args ...string), write func(name, content string)) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	git = func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.email=a@b", "-c", "user.name=a", "-c", "init.defaultBranch=main"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write = func(name, content string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q")
	return dir, git, write
}

// anyPerson, as checkVerdict's pers: the row does not say whether a person is needed.
const anyPerson = "?"

// checkVerdict is check (the risk range, max "" = open; min "" = any) with the two other parts
// of a verdict the tables name: rule ("" = any) among the reasons, and the rule a person is
// needed for (pers; "" = none, anyPerson = not checked).
func checkVerdict(t *testing.T, got envelope.Classification, what string, min, max risk.Level, rule, pers string) {
	t.Helper()
	check(t, got, what, min, max, "")
	if rule != "" && !hasRule(got, rule) {
		t.Errorf("%s: want rule %s among the reasons %+v", what, rule, got.Reasons)
	}
	if pers == anyPerson {
		return
	}
	if p := personRule(got); p != pers {
		t.Errorf("%s: needs a person for %q, want %q (%s %+v)", what, p, pers, got.Risk, got.Reasons)
	}
}

// personRule is the rule a person is needed for, or "".
func personRule(got envelope.Classification) string {
	if got.NeedsPerson == nil {
		return ""
	}
	return got.NeedsPerson.Rule
}
