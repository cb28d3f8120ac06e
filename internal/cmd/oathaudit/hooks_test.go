package oathaudit_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/mask/masktest"
	"github.com/oath-harness/oath-harness/internal/toolbuild"
)

// TestSecretsThroughTheHooks runs the real hooks (hooks/pre-tool-use.sh, post-tool-use.sh)
// with the real binaries on events carrying a secret of every family the issue measured
// leaking, by every route an event brings text in: a Bash command, a Write's content, an Edit,
// a Bash output and a Read's file content after the call, a WebFetch URL, and the derived route
// (a secret given as an option comes back in the paths and reasons the classifier builds).
// No secret's core may be anywhere in the audit trail (FR-AT-004, AC-023).
func TestSecretsThroughTheHooks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binaries and runs the hooks")
	}
	bin := t.TempDir()
	toolbuild.Into(t, bin)
	hooks := filepath.Join(toolbuild.RepoRoot(), "hooks")
	project := t.TempDir()
	os.MkdirAll(filepath.Join(project, ".claude"), 0o755)
	os.WriteFile(filepath.Join(project, ".claude", "current-phase.md"), []byte("building\n"), 0o644)
	home := filepath.Join(project, "oath-harness")
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + project, "CLAUDE_PROJECT_DIR=" + project, "OATH_HOME=" + home, "OATH_BIN=" + bin}
	run := func(hook string, event map[string]any) {
		t.Helper()
		data, _ := json.Marshal(event)
		c := exec.Command(filepath.Join(hooks, hook), "--bin", bin, "--home", home) // the hooks read neither from the environment
		c.Dir, c.Env, c.Stdin = project, env, bytes.NewReader(data)
		var stderr bytes.Buffer
		c.Stderr = &stderr
		if err := c.Run(); err != nil {
			t.Fatalf("%s: %v: %s\n%s", hook, err, stderr.String(), data)
		}
	}
	n := 0
	call := func(tool string, input, response any) {
		n++
		ev := map[string]any{"session_id": "s-secrets", "cwd": project, "permission_mode": "default",
			"hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": input, "tool_use_id": "toolu_" + string(rune('a'+n%26)) + strings.Repeat("x", n/26)}
		run("pre-tool-use.sh", ev)
		if response != nil {
			ev["hook_event_name"], ev["tool_response"] = "PostToolUse", response
			run("post-tool-use.sh", ev)
		}
	}
	run("session-start.sh", map[string]any{"session_id": "s-secrets", "cwd": project, "hook_event_name": "SessionStart", "source": "startup"})
	for _, f := range masktest.Families {
		call("Bash", map[string]any{"command": f.Text, "description": "run"}, map[string]any{"stdout": "", "stderr": "", "interrupted": false})
		call("Write", map[string]any{"file_path": filepath.Join(project, "deploy.sh"), "content": "#!/bin/sh\nset -e\n" + f.Text + "\n"}, nil)
		call("Edit", map[string]any{"file_path": filepath.Join(project, "deploy.sh"), "old_string": "set -e", "new_string": f.Text}, nil)
		call("Bash", map[string]any{"command": "cat deploy.log"}, map[string]any{"stdout": "+ " + f.Text + "\nok\n", "stderr": "", "interrupted": false})
		call("Read", map[string]any{"file_path": filepath.Join(project, "notes.md")},
			map[string]any{"type": "text", "file": map[string]any{"filePath": filepath.Join(project, "notes.md"), "content": "# notes\n" + f.Text + "\n", "numLines": 2}})
		if f.Token {
			call("WebFetch", map[string]any{"url": "https://example.com/hook?token=" + f.Text, "prompt": "read it"}, nil)
		}
	}
	// The derived route: the password is an option's value in the command only; the classifier
	// puts it bare into the paths written and the reasons.
	derived := "Sshp4ssDerived7"
	call("Bash", map[string]any{"command": "sshpass -p " + derived + " ssh host uptime > /tmp/" + derived + ".log"}, nil)

	trail, err := os.ReadFile(filepath.Join(home, "audit", dayFile(t, filepath.Join(home, "audit"))))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range masktest.Families {
		if bytes.Contains(trail, []byte(f.Core)) {
			t.Errorf("%s: the secret reached the audit trail:\n%s", f.Name, lineWith(trail, f.Core))
		}
	}
	if bytes.Contains(trail, []byte(derived)) {
		t.Errorf("derived route: the secret reached the audit trail:\n%s", lineWith(trail, derived))
	}
	if !bytes.Contains(trail, []byte(`"/tmp/***.log"`)) {
		t.Errorf("derived route: the path written is not in the line, masked:\n%s", lineWith(trail, "sshpass"))
	}
}

// dayFile is the one day file of dir.
func dayFile(t *testing.T, dir string) string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if len(m) != 1 {
		t.Fatalf("want one day file in %s, got %v", dir, m)
	}
	return filepath.Base(m[0])
}

func lineWith(trail []byte, s string) string {
	for _, l := range strings.Split(string(trail), "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}
