package oathclassify

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
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

// BenchmarkProcess runs the built oath-classify binary once per iteration, as a hook does:
// the figure is the whole cost of the stage in the pipeline (start-up, settings, parse, JSON).
func BenchmarkProcess(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "oath-classify")
	build := exec.Command("go", "build", "-o", bin, "github.com/oath-harness/oath-harness/cmd/oath-classify")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("build: %v\n%s", err, out)
	}
	project := b.TempDir()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		cmd := exec.Command(bin)
		cmd.Env = append(os.Environ(), "CLAUDE_PROJECT_DIR="+project, "OATH_HOME=")
		cmd.Stdin = strings.NewReader(bashEvent)
		out, err := cmd.Output()
		if err != nil {
			b.Fatal(err)
		}
		if !json.Valid(out) {
			b.Fatalf("not JSON: %s", out)
		}
	}
}
