package e2e

import (
	"strings"
	"testing"
	"time"
)

// TestAHugeEventIsRefusedQuickly: a 50 MB PreToolUse event is blocked as too large to judge, well
// within the hook's timeout (60 s; a hook past it would let the call through without onFailure),
// even on a busy machine (issue 26 item 2). Measured on two cores at load 18: 1.0-1.7 s.
func TestAHugeEventIsRefusedQuickly(t *testing.T) {
	event := `{"session_id":"s","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_use_id":"toolu_1","tool_input":{"command":"echo ` +
		strings.Repeat("x", 50<<20) + `"}}`
	r, took := runHookWithin(t, 50*time.Second, hookPath(t, "pre-tool-use.sh"), event, "OATH_BIN="+binaries(t))
	t.Logf("exit %d after %v: %q", r.code, took.Round(time.Millisecond), r.stderr)
	if r.code != 2 || !strings.Contains(r.stderr, "too large to judge") {
		t.Errorf("want a block (exit 2) saying the event is too large to judge, got %+v", r)
	}
	if took > 20*time.Second {
		t.Errorf("took %v: too close to the hook's timeout", took)
	}
}
