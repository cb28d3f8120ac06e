package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestReplayReadsRealTranscripts: oath-audit replay reads the transcripts the installed Claude
// Code writes (~/.claude/projects/<project>/*.jsonl) and replays them through the real hooks.
func TestReplayReadsRealTranscripts(t *testing.T) {
	t.Parallel()
	cli := claudeCLI(t)
	bin := binaries(t)
	api := newFakeAPI(t)
	proj, home := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(proj, "probe.txt"), []byte("probe-content-42\n"), 0o644)
	api.SetScript(bash("cat probe.txt"), bash("cat missing.txt"), bash("touch marker"),
		ToolCall{Name: "Write", Input: map[string]any{"file_path": filepath.Join(proj, "w.txt"), "content": "x"}},
		bash("git push origin main"))
	s := runClaude(t, cli, proj, home, api.URL, "work without the harness")
	if len(s.Results) != 5 {
		t.Fatalf("want 5 tool results, got %d", len(s.Results))
	}
	dirs, _ := filepath.Glob(filepath.Join(home, ".claude", "projects", "*"))
	if len(dirs) != 1 {
		t.Fatalf("want one transcript directory, got %v", dirs)
	}
	cmd := exec.Command(filepath.Join(bin, "oath-audit"), "replay", "--json", "--hooks", filepath.Join(repoRoot(t), "hooks"), dirs[0])
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("replay: %v\n%s", err, out)
	}
	var rep struct {
		Total struct {
			Calls, Denied, Allowed, Deferred, Asked int
			Default                                 int `json:"claude_default"`
		} `json:"total"`
	}
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	tot := rep.Total
	// cat and cat run (read-only: never asked by Claude Code); touch and Write are asked by
	// Claude Code; the push is denied by the harness in building.
	if tot.Calls != 5 || tot.Denied != 1 || tot.Default != 3 || tot.Allowed+tot.Deferred+tot.Asked != 4 {
		t.Errorf("replay of the transcript: %+v\n%s", tot, out)
	}
}
