package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"

	"github.com/oath-harness/oath-harness/internal/toolbuild"
)

var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// binaries builds the oath-* tools once per test run, from this checkout.
func binaries(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "oath-e2e-bin-")
		if buildErr != nil {
			return
		}
		toolbuild.Into(t, binDir)
	})
	if buildErr != nil {
		t.Fatalf("building the oath-* binaries: %v", buildErr)
	}
	return binDir
}

// project is a temporary project with the hooks installed by hooks/install.sh, and the loopback
// API its Claude Code talks to.
type project struct {
	t    *testing.T
	cli  string
	dir  string
	home string
	bin  string
	api  *fakeAPI
}

func newProject(t *testing.T, files map[string]string) *project {
	t.Helper()
	cli := claudeCLI(t)
	p := &project{t: t, cli: cli, dir: t.TempDir(), home: t.TempDir(), bin: binaries(t), api: newFakeAPI(t)}
	// t.TempDir is a symlink-free absolute path on Linux; keep it resolved so that paths in the
	// audit trail compare equal.
	if d, err := filepath.EvalSymlinks(p.dir); err == nil {
		p.dir = d
	}
	for name, content := range files {
		p.write(name, content)
	}
	// The state in the project, where the scenarios look for it (--state-dir: the hooks take no
	// OATH_HOME from the environment); no sandbox: the scenarios measure the harness's own answers.
	script := filepath.Join(repoRoot(t), "hooks", "install.sh")
	if msg, code := installShFrom(t, script, p.home, []string{"OATH_BIN=" + p.bin}, "--no-sandbox", "--state-dir", p.path("oath-harness"), p.dir); code != 0 {
		t.Fatalf("install.sh: exit %d: %s", code, msg)
	}
	return p
}

func (p *project) path(name string) string { return filepath.Join(p.dir, name) }

func (p *project) write(name, content string) {
	p.t.Helper()
	if err := os.MkdirAll(filepath.Dir(p.path(name)), 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(p.path(name), []byte(content), 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// script writes an executable file of the project.
func (p *project) script(name, content string) {
	p.t.Helper()
	p.write(name, content)
	if err := os.Chmod(p.path(name), 0o755); err != nil {
		p.t.Fatal(err)
	}
}

func (p *project) exists(name string) bool {
	_, err := os.Stat(p.path(name))
	return err == nil
}

// setPhase is the human writing the phase file (what /building does).
func (p *project) setPhase(phase string) { p.write(".claude/current-phase.md", phase+"\n") }

// run is one headless session: prompt, then the scripted calls.
func (p *project) run(prompt string, calls ...ToolCall) session {
	p.t.Helper()
	p.api.SetScript(calls...)
	// The state stays in the project (OATH_HOME, which still overrides the state directory), where
	// the scenarios look for it and write at it.
	s := runClaude(p.t, p.cli, p.dir, p.home, p.api.URL, prompt, "OATH_BIN="+p.bin, "OATH_HOME="+p.path("oath-harness"))
	if len(s.Results) != len(calls) {
		p.t.Fatalf("want %d tool results, got %d\nstdout:\n%s\nstderr:\n%s", len(calls), len(s.Results), s.Stdout, s.Stderr)
	}
	return s
}

// auditLine is the part of an audit line the scenarios check.
type auditLine struct {
	Event            string   `json:"event"`
	ToolName         *string  `json:"tool_name"`
	ToolUseID        string   `json:"tool_use_id"`
	Domain           *string  `json:"domain"`
	RiskCategory     *string  `json:"risk_category"`
	Decision         *string  `json:"decision"`
	DecisionReason   *string  `json:"decision_reason"`
	Phase            *string  `json:"phase"`
	Outcome          *string  `json:"outcome"`
	TrustScoreBefore *float64 `json:"trust_score_before"`
	TrustScoreAfter  *float64 `json:"trust_score_after"`
}

func str(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// audit reads every line of the project's audit trail, in order.
func (p *project) audit() []auditLine {
	p.t.Helper()
	files, _ := filepath.Glob(p.path("oath-harness/audit/*.jsonl"))
	sort.Strings(files)
	var lines []auditLine
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			p.t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			var l auditLine
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				p.t.Fatalf("%s: a line that is not JSON: %v\n%s", f, err, sc.Bytes())
			}
			lines = append(lines, l)
		}
	}
	return lines
}

// decision finds the PreToolUse audit line of one call (tool_use_id as the stand-in numbers them).
func (p *project) decision(toolUseID string) auditLine {
	p.t.Helper()
	for _, l := range p.audit() {
		if l.Event == "PreToolUse" && l.ToolUseID == toolUseID {
			return l
		}
	}
	p.t.Fatalf("no PreToolUse audit line for %s", toolUseID)
	return auditLine{}
}

// outcome finds the Post* audit line of one call, if any.
func (p *project) outcome(toolUseID string) (auditLine, bool) {
	for _, l := range p.audit() {
		if (l.Event == "PostToolUse" || l.Event == "PostToolUseFailure") && l.ToolUseID == toolUseID {
			return l, true
		}
	}
	return auditLine{}, false
}

// trustScore reads a domain's score from the trust state.
func (p *project) trustScore(domain string) (float64, bool) {
	p.t.Helper()
	b, err := os.ReadFile(p.path("oath-harness/state/trust-scores.json"))
	if err != nil {
		return 0, false
	}
	var st struct {
		Domains map[string]struct {
			Score float64 `json:"score"`
		} `json:"domains"`
	}
	if err := json.Unmarshal(b, &st); err != nil {
		p.t.Fatalf("trust state: %v", err)
	}
	d, ok := st.Domains[domain]
	return d.Score, ok
}

func read(path string) ToolCall {
	return ToolCall{Name: "Read", Input: map[string]any{"file_path": path}}
}

func toolUseID(i int) string { return "toolu_e2e_" + twoDigits(i) }

func twoDigits(i int) string { return string([]byte{byte('0' + i/10), byte('0' + i%10)}) }
