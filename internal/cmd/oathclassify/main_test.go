package oathclassify

import (
	"bytes"
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/envelope"
)

const bashEvent = `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","cwd":"/proj","tool_input":{"command":"go test ./... && git status --short"}}`

// TestMainInProcess: the entry point classifies a tool event and keeps the event's bytes.
func TestMainInProcess(t *testing.T) {
	t.Setenv("CLAUDE_PROJECT_DIR", t.TempDir())
	t.Setenv("OATH_HOME", "")
	var out, errb bytes.Buffer
	if code := Main(strings.NewReader(bashEvent), &out, &errb, nil); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	env, err := envelope.Parse(out.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	var c envelope.Classification
	if found, err := env.Stage(envelope.StageClassify, &c); !found || err != nil {
		t.Fatalf("no oath.classify: %v %s", err, out.String())
	}
	if c.Domain != "test_run" || c.Risk != "low" || len(c.Commands) != 2 {
		t.Errorf("classification %+v", c)
	}
	if !strings.HasPrefix(out.String(), bashEvent[:len(bashEvent)-1]) {
		t.Errorf("the host's event was not kept as it came: %s", out.String())
	}
	if errb.Len() != 0 {
		t.Errorf("stderr: %s", errb.String())
	}
}
