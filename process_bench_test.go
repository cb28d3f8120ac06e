package oath_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/toolbuild"
)

// BenchmarkStageProcess measures each PreToolUse stage and the PostToolUse recorders as a hook
// runs them: the real binary (go build), started fresh, reading the envelope the stage before
// it really wrote. "nop" is a do-nothing Go binary that copies stdin to stdout: the cost of
// starting a process at all, measured in the same run, so the ratios are comparable.
//
//	go test -run '^$' -bench StageProcess -benchtime 200x .
func BenchmarkStageProcess(b *testing.B) {
	bin := b.TempDir()
	toolbuild.Into(b, bin)
	project := b.TempDir()
	os.MkdirAll(filepath.Join(project, ".claude"), 0o755)
	os.WriteFile(filepath.Join(project, ".claude", "current-phase.md"), []byte("building\n"), 0o644)
	env := append(os.Environ(), "CLAUDE_PROJECT_DIR="+project, "OATH_HOME="+filepath.Join(project, "oath-harness"))
	run := func(b *testing.B, stdin []byte, name string, args ...string) []byte {
		c := exec.Command(filepath.Join(bin, name), args...)
		c.Env, c.Dir, c.Stdin = env, project, bytes.NewReader(stdin)
		var stderr bytes.Buffer
		c.Stderr = &stderr
		out, err := c.Output()
		if err != nil {
			b.Fatalf("%s %v: %v: %s", name, args, err, stderr.String())
		}
		return out
	}
	run(b, []byte(`{"session_id":"s","cwd":"`+project+`","hook_event_name":"SessionStart","source":"startup"}`), "oath-trust", "bootstrap")

	// The inputs of each stage, as the pipeline produces them for a typical Bash call.
	pre := []byte(`{"session_id":"s","cwd":"` + project + `","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"go test ./... 2>&1 | tail -20","description":"run the tests"},"tool_use_id":"toolu_1"}`)
	post := bytes.Replace(pre, []byte(`"PreToolUse"`), []byte(`"PostToolUse"`), 1)
	post = append(post[:len(post)-1], []byte(`,"tool_response":{"stdout":"ok  \tpkg\t0.01s","stderr":"","interrupted":false}}`)...)
	stages := []struct {
		name string
		args []string
	}{
		{"oath-classify", nil}, {"oath-gate", nil}, {"oath-trust", []string{"score"}},
		{"oath-decide", nil}, {"oath-audit", []string{"record"}},
	}
	inputs := make([][]byte, len(stages))
	in := pre
	for i, s := range stages {
		inputs[i] = in
		in = run(b, in, s.name, s.args...)
	}
	if !bytes.Contains(in, []byte(`"hookSpecificOutput"`)) {
		b.Fatalf("the pipeline gave no answer: %s", in)
	}
	postClassified := run(b, post, "oath-classify")
	postScored := run(b, postClassified, "oath-trust", "record")

	type benchCase struct {
		name, prog string
		stdin      []byte
		args       []string
	}
	cases := []benchCase{{"nop", "nop", pre, nil}}
	for i, s := range stages {
		cases = append(cases, benchCase{strings.TrimSpace(s.name + " " + strings.Join(s.args, " ")), s.name, inputs[i], s.args})
	}
	cases = append(cases,
		benchCase{"oath-trust record", "oath-trust", postClassified, []string{"record"}},
		benchCase{"oath-audit record (post)", "oath-audit", postScored, []string{"record"}},
	)
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				run(b, tc.stdin, tc.prog, tc.args...)
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/call")
		})
	}
}
