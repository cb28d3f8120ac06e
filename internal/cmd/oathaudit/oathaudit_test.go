package oathaudit_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/oath-harness/oath-harness/internal/audit"
	"github.com/oath-harness/oath-harness/internal/cmd/oathaudit"
	"github.com/oath-harness/oath-harness/internal/safefile"
)

// TestMain lets the test binary act as oath-audit when OATH_AUDIT_AS_TOOL is set, so that the
// tests below can start real, separate processes.
func TestMain(m *testing.M) {
	if os.Getenv("OATH_AUDIT_AS_TOOL") != "" {
		os.Exit(oathaudit.Main(os.Stdin, os.Stdout, os.Stderr, os.Args[1:]))
	}
	os.Exit(m.Run())
}

func toolCmd(t testing.TB, project string, stdin []byte, args ...string) *exec.Cmd {
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "OATH_AUDIT_AS_TOOL=1", "CLAUDE_PROJECT_DIR="+project, "OATH_HOME="+filepath.Join(project, "oath-harness"))
	cmd.Stdin = bytes.NewReader(stdin)
	return cmd
}

func event(i int, content string) []byte {
	in, _ := json.Marshal(map[string]string{"file_path": fmt.Sprintf("/w/f%d.go", i), "content": content})
	return []byte(fmt.Sprintf(`{"session_id":"s","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":%s,"tool_use_id":"t%d"}`, in, i))
}

// TestConcurrentRecordProcesses starts many record processes at once, some with 200 KB lines
// (far above the pipe and page sizes where a write could be split), and checks that every
// line arrived whole, once, and that the chain holds (FR-AT-005).
func TestConcurrentRecordProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts many processes")
	}
	project := t.TempDir()
	const procs = 24
	big := strings.Repeat("0123456789abcdef", 200<<10/16)
	var wg sync.WaitGroup
	errs := make(chan error, procs)
	for i := range procs {
		content := "small"
		if i%3 == 0 {
			content = big
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			ev := event(i, content)
			cmd := toolCmd(t, project, ev, "record")
			out, err := cmd.Output()
			if err != nil {
				errs <- fmt.Errorf("process %d: %v", i, err)
				return
			}
			if !bytes.Equal(out, ev) {
				errs <- fmt.Errorf("process %d: the envelope changed on its way through", i)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	files, err := audit.Files(filepath.Join(project, "oath-harness", "audit"))
	if err != nil || len(files) != 1 {
		t.Fatalf("files %v, %v", files, err)
	}
	seen := map[string]bool{}
	lines := 0
	err = audit.EachLine(files[0], func(l audit.Line) error {
		lines++
		var e audit.Entry
		if !l.Whole || json.Unmarshal(l.Raw, &e) != nil {
			return fmt.Errorf("line %d is torn or interleaved (%d bytes)", l.Num, len(l.Raw))
		}
		if seen[*e.ToolUseID] {
			return fmt.Errorf("line %d: %s twice", l.Num, *e.ToolUseID)
		}
		seen[*e.ToolUseID] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if lines != procs {
		t.Fatalf("%d lines, want %d", lines, procs)
	}
	res, err := audit.Verify(files)
	if err != nil || res.Break != nil || res.LastSeq != procs {
		t.Fatalf("verify: %+v, %v", res, err)
	}
}

// BenchmarkRecordProcess is the cost of one `oath-audit record` process on a typical
// PreToolUse envelope, start to exit, as a hook pays it. BenchmarkVersionProcess is the cost
// of starting the same binary at all: the difference is what record itself adds.
func BenchmarkRecordProcess(b *testing.B) {
	project := b.TempDir()
	ev := []byte(`{"session_id":"s","cwd":"/w","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"API_KEY=abc go test ./... 2>&1 | tail -20","description":"run the tests"},"tool_use_id":"toolu_1","oath":{"classify":{"domain":"shell_exec","risk":"medium","risk_value":2,"reasons":[{"rule":"unknown","command":"go test ./...","risk":"medium"}],"commands":[["go","test","./..."]],"paths":{"read":[],"write":[]}},"gate":{"verdict":"allow","rule":"","reason":""},"trust":{"domain":"shell_exec","score":0.6,"successes":10,"failures":0,"total_operations":10,"is_warming_up":false,"warmup_remaining":0},"decision":{"decision":"logged_only","autonomy":0.7,"phase":"building","profile":"trust_gated","reason":"ok","recommended_model":"sonnet","persona":"worker"}}}`)
	start := time.Now()
	for b.Loop() {
		if out, err := toolCmd(b, project, ev, "record").CombinedOutput(); err != nil {
			b.Fatalf("%v: %s", err, out)
		}
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/record")
}

func BenchmarkVersionProcess(b *testing.B) {
	project := b.TempDir()
	start := time.Now()
	for b.Loop() {
		if out, err := toolCmd(b, project, nil, "--version").CombinedOutput(); err != nil {
			b.Fatalf("%v: %s", err, out)
		}
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/start")
}

// BenchmarkRecordInProcess is record without the process start, on a growing file.
func BenchmarkRecordInProcess(b *testing.B) {
	project := b.TempDir()
	b.Setenv("CLAUDE_PROJECT_DIR", project)
	b.Setenv("OATH_HOME", filepath.Join(project, "oath-harness"))
	ev := event(1, "package main\n")
	var out bytes.Buffer
	for b.Loop() {
		out.Reset()
		if code := oathaudit.Main(bytes.NewReader(ev), &out, os.Stderr, []string{"record"}); code != 0 {
			b.Fatal("record failed")
		}
	}
}

// TestRecordLockTimeout: another process holding the audit lock past the timeout makes record
// fail (exit 1, nothing on stdout) instead of writing unlocked or dropping the line.
func TestRecordLockTimeout(t *testing.T) {
	project := t.TempDir()
	t.Setenv("CLAUDE_PROJECT_DIR", project)
	t.Setenv("OATH_HOME", filepath.Join(project, "oath-harness"))
	dir := filepath.Join(project, "oath-harness", "audit")
	unlock, err := safefile.Lock(filepath.Join(dir, ".chain"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	oathaudit.TestOnlyLockTimeout = 30 * time.Millisecond
	defer func() { oathaudit.TestOnlyLockTimeout = 0 }()
	var stdout, stderr bytes.Buffer
	code := oathaudit.Main(bytes.NewReader(event(1, "x")), &stdout, &stderr, []string{"record"})
	if code != 1 || stdout.Len() != 0 || !strings.Contains(stderr.String(), "timed out waiting for the lock") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
	if files, _ := audit.Files(dir); len(files) != 0 {
		t.Fatalf("a line was written without the lock: %v", files)
	}
}
