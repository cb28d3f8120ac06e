package e2e

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPermissionDeniedRecorded (issue 26 item 1): when auto mode refuses a call (here its safety
// check, which cannot run against the loopback API), Claude Code sends PermissionDenied;
// hooks/permission-denied.sh records it with the call's tool_use_id and the reason, and no
// trust changes (the harness's trust file is not written by it).
func TestPermissionDeniedRecorded(t *testing.T) {
	cli := claudeCLI(t)
	bin := binaries(t)
	api := newFakeAPI(t)
	root := t.TempDir()
	proj, home, state := filepath.Join(root, "p"), filepath.Join(root, "home"), filepath.Join(root, "state")
	for _, d := range []string{proj, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(proj, "probe.sh"), []byte("#!/bin/sh\necho ran > script-ran\n"), 0o755)
	hook := "XDG_STATE_HOME=" + state + " bash " + hookPath(t, "permission-denied.sh") + " --bin " + bin
	mergeJSON(t, filepath.Join(proj, ".claude", "settings.local.json"), map[string]any{"hooks": map[string]any{
		"PermissionDenied": []any{map[string]any{"matcher": "*", "hooks": []any{map[string]any{"type": "command", "command": hook, "timeout": 30}}}},
	}})
	api.SetScript(bash("./probe.sh"))
	s := runClaudeWith(t, cli, proj, home, api.URL, "probe", []string{"--permission-mode", "auto"})
	if len(s.Results) != 1 || !s.Results[0].IsError {
		t.Fatalf("want the script refused by auto mode: %+v\n%s", s.Results, s.Stderr)
	}
	var line map[string]any
	for _, l := range auditLines(t, filepath.Join(state, "oath-harness")) {
		if l["event"] == "PermissionDenied" {
			line = l
		}
	}
	if line == nil {
		t.Fatalf("no PermissionDenied line in the audit trail (tool_result %q)", s.Results[0].Content)
	}
	if line["tool_use_id"] == nil || line["denied_reason"] == nil || line["tool_name"] != "Bash" {
		t.Errorf("the line lacks the call or the reason: %v", line)
	}
	if line["trust_score_after"] != nil || line["trust_effect"] != nil {
		t.Errorf("a denial changed trust: %v", line)
	}
	if m, _ := filepath.Glob(filepath.Join(state, "oath-harness", "*", "state", "trust-scores.json")); len(m) > 0 {
		t.Errorf("the denial wrote trust: %v", m)
	}
}
