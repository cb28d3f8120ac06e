package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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

// skipUnlessRequired skips t with why, except where OATH_REQUIRE_E2E is set (.ci/run sets it):
// there a missing prerequisite fails the test, so that CI cannot be green without the
// end-to-end tests. A developer machine without npm still runs scripts/test.sh, skipping them.
func skipUnlessRequired(t testing.TB, why string) {
	t.Helper()
	if os.Getenv("OATH_REQUIRE_E2E") != "" {
		t.Fatal(why + " (OATH_REQUIRE_E2E is set: CI must run the end-to-end tests)")
		return
	}
	t.Skip(why)
}

// recordTB notes what Fatal and Skip were called with, instead of ending the test.
type recordTB struct {
	testing.TB
	fatal, skip string
}

func (r *recordTB) Helper()           {}
func (r *recordTB) Fatal(args ...any) { r.fatal = fmt.Sprint(args...) }
func (r *recordTB) Skip(args ...any)  { r.skip = fmt.Sprint(args...) }

func TestMissingPrerequisiteFailsOnlyWhereRequired(t *testing.T) {
	for _, tt := range []struct {
		require     string
		fatal, skip bool
	}{
		{"", false, true},  // a developer's machine: skip with the reason
		{"1", true, false}, // CI (.ci/run): fail
	} {
		t.Setenv("OATH_REQUIRE_E2E", tt.require)
		r := &recordTB{TB: t}
		skipUnlessRequired(r, "no claude")
		if (r.fatal != "") != tt.fatal || (r.skip != "") != tt.skip || !strings.Contains(r.fatal+r.skip, "no claude") {
			t.Errorf("OATH_REQUIRE_E2E=%q: fatal %q, skip %q", tt.require, r.fatal, r.skip)
		}
	}
}
