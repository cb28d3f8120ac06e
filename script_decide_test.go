package oath_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkOathDecideProcess measures one oath-decide process as a hook runs it: a built
// binary, started fresh, reading one PreToolUse envelope and writing its answer. It reports
// ms/op, the figure the PreToolUse latency budget is about.
//
//	go test -run '^$' -bench OathDecideProcess .
func BenchmarkOathDecideProcess(b *testing.B) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		b.Skip("needs the go tool to build oath-decide")
	}
	dir := b.TempDir()
	bin := filepath.Join(dir, "oath-decide")
	if out, err := exec.Command(goTool, "build", "-o", bin, "./cmd/oath-decide").CombinedOutput(); err != nil {
		b.Fatalf("building oath-decide: %v\n%s", err, out)
	}
	project := filepath.Join(dir, "project")
	if err := os.MkdirAll(filepath.Join(project, ".claude"), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, ".claude", "current-phase.md"), []byte("building\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	input := []byte(`{"session_id":"s","cwd":"` + project + `","hook_event_name":"PreToolUse","tool_name":"Bash",` +
		`"tool_input":{"command":"go test ./..."},"oath":{"classify":{"domain":"shell_exec","risk":"high","risk_value":3,` +
		`"reasons":[{"rule":"r","risk":"high"}],"commands":[["go","test","./..."]],"paths":{"read":[],"write":[]}},` +
		`"trust":{"domain":"shell_exec","score":0.45,"successes":12,"failures":1,"total_operations":13,"is_warming_up":false,"warmup_remaining":0}}}`)
	env := append(os.Environ(), "CLAUDE_PROJECT_DIR="+project, "OATH_HOME="+filepath.Join(project, "oath-harness"))
	start := time.Now()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		cmd := exec.Command(bin)
		cmd.Env = env
		cmd.Stdin = bytes.NewReader(input)
		out, err := cmd.Output()
		if err != nil || !bytes.Contains(out, []byte(`"permissionDecision":"ask"`)) {
			b.Fatalf("oath-decide: %v\n%s", err, out)
		}
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/op")
}
