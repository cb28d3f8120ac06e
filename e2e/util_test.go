package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// writeHooks registers one shell command per event in dir/.claude/settings.json.
func writeHooks(t testing.TB, dir string, hooks map[string]string) {
	t.Helper()
	reg := map[string]any{}
	for event, command := range hooks {
		entry := map[string]any{"hooks": []any{map[string]any{"type": "command", "command": command, "timeout": 30}}}
		if event == "PreToolUse" || event == "PostToolUse" || event == "PostToolUseFailure" {
			entry["matcher"] = "*"
		}
		reg[event] = []any{entry}
	}
	b, err := json.MarshalIndent(map[string]any{"hooks": reg}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".claude", "settings.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}
