package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSkillShellCommandJudged (issue 26 item 4): on a Claude Code that sends PreSkillShellCommand
// (2.1.332), a skill's !`command` lines go through hooks/pre-tool-use.sh like a Bash call. A
// read-only command runs; one that would need a person (a make recipe at the trust a new
// project starts with) does not, since Claude Code asks nobody for it; both are audit lines.
func TestSkillShellCommandJudged(t *testing.T) {
	cli := claudeCLI(t)
	bin := binaries(t)
	api := newFakeAPI(t)
	root := t.TempDir()
	proj, home, state := filepath.Join(root, "p"), filepath.Join(root, "home"), filepath.Join(root, "state")
	skill := filepath.Join(proj, ".claude", "skills", "probe")
	for _, d := range []string{skill, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(proj, "Makefile"), []byte("all:\n\ttouch made\n"), 0o644)
	// allowed-tools lets both commands past Claude Code's own check (without it, 2.1.332 refuses
	// make before any hook runs): the harness's answer is then what stops it.
	os.WriteFile(filepath.Join(skill, "SKILL.md"), []byte("---\nname: probe\ndescription: probe the hooks\nallowed-tools: Bash(ls:*), Bash(make:*)\n---\nFiles: !`ls`\nBuild: !`make`\n"), 0o644)
	hook := "XDG_STATE_HOME=" + state + " bash " + hookPath(t, "pre-tool-use.sh") + " --bin " + bin
	mergeJSON(t, filepath.Join(proj, ".claude", "settings.local.json"), map[string]any{"hooks": map[string]any{
		"PreSkillShellCommand": []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": hook, "timeout": 60}}}},
	}})
	cmd := exec.Command(filepath.Join(bin, "oath-decide"), "phase", "building")
	cmd.Dir = proj
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+state, "CLAUDE_PROJECT_DIR="+proj)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("oath-decide phase building: %v\n%s", err, out)
	}
	api.SetScript()
	s := runClaude(t, cli, proj, home, api.URL, "/probe")
	var events []string
	for _, l := range auditLines(t, filepath.Join(state, "oath-harness")) {
		if l["event"] == "PreSkillShellCommand" {
			in, _ := l["tool_input"].(map[string]any)
			events = append(events, in["command"].(string)+":"+l["answer"].(string))
		}
	}
	if len(events) == 0 {
		t.Skipf("this Claude Code sends no PreSkillShellCommand (it came with 2.1.332)\n%s", s.Stderr)
	}
	got := strings.Join(events, ",")
	if !strings.Contains(got, "ls:allow") || !strings.Contains(got, "make:deny") {
		t.Errorf("skill commands answered %s, want ls:allow and make:deny", got)
	}
	if _, err := os.Stat(filepath.Join(proj, "made")); err == nil {
		t.Errorf("the skill's make ran without a person")
	}
}
