package e2e

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestHostFactsBashStdin measures what a Bash tool command reads on its standard input:
// nothing. Claude Code runs the command with stdin at end of file (/dev/null or an empty,
// closed pipe), even when the CLI itself was given a stdin that holds data. The classifier
// relies on it (a bare `bash` or `sh` given no program reads an empty stdin and runs nothing:
// internal/classify's shells). If this fails, the client changed: a bare shell would then run
// whatever the client feeds it, and must be judged as a program not read again.
func TestHostFactsBashStdin(t *testing.T) {
	cli := claudeCLI(t)
	api := newFakeAPI(t)
	proj, home := t.TempDir(), t.TempDir()
	writeHooks(t, proj, map[string]string{"PreToolUse": `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"fact check"}}'`})
	// wc -c reads stdin to its end: it prints 0 at once on an empty stdin and would wait for the
	// call's timeout on one held open. A bare bash reads its program there: with nothing, it
	// runs nothing and exits 0.
	api.SetScript(bash(`printf 'bytes=%s\n' "$(wc -c)"; bash; echo "bash-exit=$?"`))
	// The CLI's own stdin is a pipe held open with no data: a command that inherited it would
	// wait on it.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, cli, "-p", "read stdin", "--output-format", "stream-json", "--verbose")
	cmd.Dir, cmd.Env, cmd.Stdin = proj, claudeEnv(home, api.URL), r
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	r.Close()
	if ctx.Err() != nil {
		t.Fatalf("claude timed out\nstdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
	}
	if err != nil {
		t.Logf("claude exited with %v\nstderr:\n%s", err, stderr.String())
	}
	results := parseToolResults(t, stdout.Bytes())
	if len(results) != 1 {
		t.Fatalf("want 1 tool_result, got %d\n%s", len(results), stdout.String())
	}
	out := results[0].Content
	if !strings.Contains(out, "bytes=0") || !strings.Contains(out, "bash-exit=0") {
		t.Errorf("a Bash tool command must read an empty stdin, and a bare bash must run nothing; got %q", out)
	}
}
