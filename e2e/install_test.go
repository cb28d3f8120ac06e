package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// requireJQ skips where jq is missing: install.sh and some host-fact hooks use it, and
// scripts/setup.sh installs it (so CI always has it).
func requireJQ(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("jq"); err != nil {
		skipUnlessRequired(t, "jq not installed (scripts/setup.sh installs it)")
	}
}

// installSh runs hooks/install.sh with args and returns its stderr and exit code.
func installSh(t *testing.T, args ...string) (string, int) {
	t.Helper()
	requireJQ(t)
	cmd := exec.Command(filepath.Join(repoRoot(t), "hooks", "install.sh"), args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return stderr.String(), code
}

func readJSON(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return v
}

// hookCommands lists event -> the commands registered for it.
func hookCommands(settings map[string]any) map[string][]string {
	out := map[string][]string{}
	hooks, _ := settings["hooks"].(map[string]any)
	for event, groups := range hooks {
		for _, g := range groups.([]any) {
			for _, h := range g.(map[string]any)["hooks"].([]any) {
				out[event] = append(out[event], h.(map[string]any)["command"].(string))
			}
		}
	}
	return out
}

const existingSettings = `{
  "permissions": {"allow": ["Bash(ls:*)"], "deny": ["Read(./.env)"]},
  "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo mine"}]}]},
  "model": "sonnet"
}`

func TestInstallMergesAndIsIdempotent(t *testing.T) {
	proj := t.TempDir()
	settings := filepath.Join(proj, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(settings), 0o755)
	os.WriteFile(settings, []byte(existingSettings), 0o600)

	if msg, code := installSh(t, proj); code != 0 {
		t.Fatalf("install: exit %d: %s", code, msg)
	}
	got := readJSON(t, settings)
	hooksDir := filepath.Join(repoRoot(t), "hooks")
	cmds := hookCommands(got)
	want := map[string]string{
		"PreToolUse": "pre-tool-use.sh", "PostToolUse": "post-tool-use.sh", "PostToolUseFailure": "post-tool-use.sh",
		"SessionStart": "session-start.sh", "UserPromptSubmit": "user-prompt-submit.sh", "Stop": "stop.sh", "SessionEnd": "session-end.sh",
	}
	for event, script := range want {
		c := cmds[event]
		if len(c) == 0 || c[len(c)-1] != filepath.Join(hooksDir, script) {
			t.Errorf("%s: want %s registered by absolute path, got %v", event, script, c)
		}
	}
	if c := cmds["PreToolUse"]; len(c) != 2 || c[0] != "echo mine" {
		t.Errorf("the project's own PreToolUse hook must stay first: %v", c)
	}
	if !reflect.DeepEqual(got["permissions"], readJSONString(t, existingSettings)["permissions"]) || got["model"] != "sonnet" {
		t.Errorf("permissions and other keys must stay: %v", got)
	}
	for _, g := range got["hooks"].(map[string]any)["PreToolUse"].([]any)[1:] {
		h := g.(map[string]any)["hooks"].([]any)[0].(map[string]any)
		if h["timeout"] == nil {
			t.Errorf("every hook needs an explicit timeout: %v", h)
		}
	}
	for _, p := range []string{"planning", "building", "auditing"} {
		if _, err := os.Stat(filepath.Join(proj, ".claude", "commands", p+".md")); err != nil {
			t.Errorf("the /%s command must be installed (without it Claude Code never runs UserPromptSubmit for it): %v", p, err)
		}
	}
	backup, err := os.ReadFile(settings + ".oath-backup")
	if err != nil || string(backup) != existingSettings {
		t.Errorf("the original must be kept as a backup: %v %q", err, backup)
	}

	// A second run changes nothing, byte for byte.
	first, _ := os.ReadFile(settings)
	msg, code := installSh(t, proj)
	second, _ := os.ReadFile(settings)
	if code != 0 || !bytes.Equal(first, second) || !strings.Contains(msg, "nothing changed") {
		t.Errorf("second install: exit %d, %q, changed=%v", code, msg, !bytes.Equal(first, second))
	}

	// Uninstall removes exactly what install added.
	if msg, code := installSh(t, "--uninstall", proj); code != 0 {
		t.Fatalf("uninstall: exit %d: %s", code, msg)
	}
	if got, want := readJSON(t, settings), readJSONString(t, existingSettings); !reflect.DeepEqual(got, want) {
		t.Errorf("after uninstall\n got %v\nwant %v", got, want)
	}
	if _, err := os.Stat(filepath.Join(proj, ".claude", "commands")); !os.IsNotExist(err) {
		t.Errorf("uninstall must remove the phase commands it added: %v", err)
	}
}

func readJSONString(t *testing.T, s string) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestInstallRefusesWhatItCannotMerge(t *testing.T) {
	tests := []struct {
		name, content, want string
	}{
		{"unparsable file", `{"hooks": {`, "not valid JSON"},
		{"not an object", `["hooks"]`, "not a JSON object"},
		{"hooks not an object", `{"hooks": []}`, `"hooks" key that is not an object`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			proj := t.TempDir()
			settings := filepath.Join(proj, ".claude", "settings.json")
			os.MkdirAll(filepath.Dir(settings), 0o755)
			os.WriteFile(settings, []byte(tt.content), 0o644)
			msg, code := installSh(t, proj)
			if code != 1 || !strings.Contains(msg, tt.want) || strings.Count(msg, "\n") != 1 {
				t.Errorf("want exit 1 and one line naming %q, got %d %q", tt.want, code, msg)
			}
			if b, _ := os.ReadFile(settings); string(b) != tt.content {
				t.Errorf("the file must be left untouched, now %q", b)
			}
			entries, _ := os.ReadDir(filepath.Dir(settings))
			if len(entries) != 1 {
				t.Errorf("nothing else may be written next to it: %v", entries)
			}
		})
	}
}

func TestInstallFreshProjectAndKeepsOwnCommands(t *testing.T) {
	proj := filepath.Join(t.TempDir(), "my project") // a space: the command must be quoted
	own := filepath.Join(proj, ".claude", "commands", "planning.md")
	os.MkdirAll(filepath.Dir(own), 0o755)
	os.WriteFile(own, []byte("my own planning command\n"), 0o644)
	msg, code := installSh(t, proj)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, msg)
	}
	if !strings.Contains(msg, "keeping the project's own") {
		t.Errorf("a differing command file must be kept with a note: %q", msg)
	}
	if b, _ := os.ReadFile(own); string(b) != "my own planning command\n" {
		t.Errorf("the project's own command was overwritten: %q", b)
	}
	if msg, code := installSh(t, "--uninstall", proj); code != 0 {
		t.Fatalf("uninstall: exit %d: %s", code, msg)
	}
	if got := readJSON(t, filepath.Join(proj, ".claude", "settings.json")); len(got) != 0 {
		t.Errorf("uninstall of a fresh install leaves an empty object, got %v", got)
	}
	if _, err := os.Stat(own); err != nil {
		t.Errorf("uninstall must not remove the project's own command: %v", err)
	}
}

func TestInstallUsage(t *testing.T) {
	if msg, code := installSh(t, "--frobnicate"); code != 2 || !strings.Contains(msg, "usage") {
		t.Errorf("want exit 2 with usage, got %d %q", code, msg)
	}
	if msg, code := installSh(t, filepath.Join(t.TempDir(), "missing")); code != 1 || !strings.Contains(msg, "no such project") {
		t.Errorf("want exit 1 for a missing directory, got %d %q", code, msg)
	}
}
