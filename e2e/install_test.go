package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
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

// installSh runs hooks/install.sh with args as a person whose home is home (the installed copy
// and its registrations go under it), taking the binaries of this test run, and returns its
// stderr and exit code.
func installSh(t *testing.T, home string, args ...string) (string, int) {
	t.Helper()
	return installShFrom(t, filepath.Join(repoRoot(t), "hooks", "install.sh"), home, []string{"OATH_BIN=" + binaries(t)}, args...)
}

// installShFrom runs the install.sh at script with env added to a minimal environment.
func installShFrom(t *testing.T, script, home string, env []string, args ...string) (string, int) {
	t.Helper()
	requireJQ(t)
	cmd := exec.Command(script, args...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + home}, env...)
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

// TestInstallMergesAndIsIdempotent: the project scope merges into .claude/settings.json, a second
// run changes nothing, and uninstall puts back the very bytes that were there.
func TestInstallMergesAndIsIdempotent(t *testing.T) {
	proj, home := t.TempDir(), t.TempDir()
	settings := filepath.Join(proj, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(settings), 0o755)
	os.WriteFile(settings, []byte(existingSettings), 0o600)

	if msg, code := installSh(t, home, "--scope", "project", proj); code != 0 {
		t.Fatalf("install: exit %d: %s", code, msg)
	}
	got := readJSON(t, settings)
	current := filepath.Join(home, ".local", "share", "oath-harness", "current", "hooks")
	cmds := hookCommands(got)
	want := map[string]string{
		"PreToolUse": "pre-tool-use.sh", "PostToolUse": "post-tool-use.sh", "PostToolUseFailure": "post-tool-use.sh",
		"SessionStart": "session-start.sh", "UserPromptSubmit": "user-prompt-submit.sh", "Stop": "stop.sh", "SessionEnd": "session-end.sh",
	}
	for event, script := range want {
		c := cmds[event]
		if len(c) == 0 || !strings.HasPrefix(c[len(c)-1], "f='"+filepath.Join(current, script)+"'; ") {
			t.Errorf("%s: want the installed copy's %s registered through a checking command line, got %v", event, script, c)
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
			t.Errorf("the /%s command must be installed with the project (without it Claude Code never runs UserPromptSubmit for it): %v", p, err)
		}
	}
	backups, _ := filepath.Glob(filepath.Join(home, ".local", "share", "oath-harness", "registrations", "*.orig"))
	if len(backups) != 1 {
		t.Fatalf("the original must be kept as a backup: %v", backups)
	}
	if b, _ := os.ReadFile(backups[0]); string(b) != existingSettings {
		t.Errorf("the backup holds %q", b)
	}
	if _, err := os.Stat(settings + ".oath-backup"); err == nil {
		t.Errorf("no backup is left beside the settings file")
	}

	// A second run changes nothing, byte for byte.
	first, _ := os.ReadFile(settings)
	msg, code := installSh(t, home, "--scope", "project", proj)
	second, _ := os.ReadFile(settings)
	if code != 0 || !bytes.Equal(first, second) || !strings.Contains(msg, "nothing changed") {
		t.Errorf("second install: exit %d, %q, changed=%v", code, msg, !bytes.Equal(first, second))
	}

	// Uninstall restores the file exactly.
	msg, code = installSh(t, home, "--uninstall", "--scope", "project", proj)
	if code != 0 {
		t.Fatalf("uninstall: exit %d: %s", code, msg)
	}
	if b, _ := os.ReadFile(settings); string(b) != existingSettings {
		t.Errorf("after uninstall the file must be what it was, byte for byte:\n%s", b)
	}
	if _, err := os.Stat(filepath.Join(proj, ".claude", "commands")); !os.IsNotExist(err) {
		t.Errorf("uninstall must remove the phase commands it added: %v", err)
	}
	if _, err := os.Stat(filepath.Join(home, ".local", "share", "oath-harness")); !os.IsNotExist(err) {
		t.Errorf("uninstall of the last registration removes the installed copy: %v", err)
	}
	if !strings.Contains(msg, "restored") || !strings.Contains(msg, "kept") {
		t.Errorf("uninstall must say what it restored and what it kept: %q", msg)
	}
}

// TestUninstallAfterAnEdit: a settings file edited since install loses only our hooks; one that
// install created and that holds nothing else is removed.
func TestUninstallAfterAnEdit(t *testing.T) {
	proj, home := t.TempDir(), t.TempDir()
	if msg, code := installSh(t, home, proj); code != 0 {
		t.Fatalf("install: exit %d: %s", code, msg)
	}
	settings := filepath.Join(proj, ".claude", "settings.local.json")
	v := readJSON(t, settings)
	v["model"] = "opus"
	b, _ := json.Marshal(v)
	os.WriteFile(settings, b, 0o644)
	if msg, code := installSh(t, home, "--uninstall", proj); code != 0 || !strings.Contains(msg, "edited since install") {
		t.Fatalf("uninstall: exit %d: %s", code, msg)
	}
	if got := readJSON(t, settings); !reflect.DeepEqual(got, map[string]any{"model": "opus"}) {
		t.Errorf("only our hooks go: %v", got)
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
			msg, code := installSh(t, t.TempDir(), "--scope", "project", proj)
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
	home := filepath.Join(t.TempDir(), "it's home")  // a quote too
	own := filepath.Join(proj, ".claude", "commands", "planning.md")
	os.MkdirAll(filepath.Dir(own), 0o755)
	os.MkdirAll(home, 0o755)
	os.WriteFile(own, []byte("my own planning command\n"), 0o644)
	msg, code := installSh(t, home, "--scope", "project", proj)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, msg)
	}
	if !strings.Contains(msg, "keeping your own") {
		t.Errorf("a differing command file must be kept with a note: %q", msg)
	}
	if b, _ := os.ReadFile(own); string(b) != "my own planning command\n" {
		t.Errorf("the project's own command was overwritten: %q", b)
	}
	pre := hookCommands(readJSON(t, filepath.Join(proj, ".claude", "settings.json")))["PreToolUse"][0]
	out, err := exec.Command("sh", "-c", pre).CombinedOutput() // no event: the hook blocks, but it runs
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || strings.Contains(string(out), "missing") {
		t.Errorf("the quoted command must find the hook: %v %s", err, out)
	}
	if msg, code := installSh(t, home, "--uninstall", "--scope", "project", proj); code != 0 {
		t.Fatalf("uninstall: exit %d: %s", code, msg)
	}
	if _, err := os.Stat(filepath.Join(proj, ".claude", "settings.json")); !os.IsNotExist(err) {
		t.Errorf("uninstall of a fresh install removes the file it created: %v", err)
	}
	if _, err := os.Stat(own); err != nil {
		t.Errorf("uninstall must not remove the project's own command: %v", err)
	}
}

func TestInstallUsage(t *testing.T) {
	if msg, code := installSh(t, t.TempDir(), "--frobnicate"); code != 2 || !strings.Contains(msg, "usage") {
		t.Errorf("want exit 2 with usage, got %d %q", code, msg)
	}
	if msg, code := installSh(t, t.TempDir(), filepath.Join(t.TempDir(), "missing")); code != 1 || !strings.Contains(msg, "no such project") {
		t.Errorf("want exit 1 for a missing directory, got %d %q", code, msg)
	}
}

// TestInstallUpgradesAnOldRegistration: hooks an earlier version registered by the checkout's
// path are replaced in place by the installed copy's, and uninstall then removes them all.
func TestInstallUpgradesAnOldRegistration(t *testing.T) {
	proj, home := t.TempDir(), t.TempDir()
	hooks := filepath.Join(repoRoot(t), "hooks")
	old := map[string]any{"hooks": map[string]any{
		"PreToolUse": []any{
			map[string]any{"matcher": "Bash", "hooks": []any{map[string]any{"type": "command", "command": "echo mine"}}},
			map[string]any{"matcher": "*", "hooks": []any{map[string]any{"type": "command", "command": filepath.Join(hooks, "pre-tool-use.sh"), "timeout": 30}}},
		},
		"Stop": []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": filepath.Join(hooks, "stop.sh"), "timeout": 30}}}},
	}}
	b, _ := json.MarshalIndent(old, "", "  ")
	settings := filepath.Join(proj, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(settings), 0o755)
	os.WriteFile(settings, b, 0o644)
	if msg, code := installSh(t, home, "--scope", "project", proj); code != 0 || !strings.Contains(msg, "updated") {
		t.Fatalf("install: %d %s", code, msg)
	}
	cmds := hookCommands(readJSON(t, settings))
	if len(cmds["PreToolUse"]) != 2 || cmds["PreToolUse"][0] != "echo mine" || !strings.HasPrefix(cmds["PreToolUse"][1], "f='") || len(cmds["Stop"]) != 1 {
		t.Errorf("the old hooks must be replaced in place: %v", cmds)
	}
	if msg, code := installSh(t, home, "--uninstall", "--scope", "project", proj); code != 0 {
		t.Fatalf("uninstall: %d %s", code, msg)
	}
	if cmds := hookCommands(readJSON(t, settings)); len(cmds) != 1 || len(cmds["PreToolUse"]) != 1 {
		t.Errorf("only the project's own hook may stay: %v", cmds)
	}
}

// TestUninstallPurge: --purge removes the project's trust state and audit trail too, and says so.
func TestUninstallPurge(t *testing.T) {
	proj, home := t.TempDir(), t.TempDir()
	if msg, code := installSh(t, home, proj); code != 0 {
		t.Fatalf("install: %d %s", code, msg)
	}
	pre := hookCommands(readJSON(t, filepath.Join(proj, ".claude", "settings.local.json")))["PreToolUse"][0]
	cmd := exec.Command("sh", "-c", pre)
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "CLAUDE_PROJECT_DIR=" + proj}
	cmd.Stdin = strings.NewReader(`{"hook_event_name":"PreToolUse","session_id":"s","cwd":"` + proj + `","tool_name":"Read","tool_input":{"file_path":"` + proj + `/x"}}`)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the registered hook: %v\n%s", err, out)
	}
	root := stateRoot(home, proj)
	if _, err := os.Stat(filepath.Join(root, "audit")); err != nil {
		t.Fatalf("the call must be recorded in %s: %v", root, err)
	}
	msg, code := installSh(t, home, "--uninstall", "--purge", proj)
	if code != 0 || !strings.Contains(msg, "purged the trust state and audit trail ("+root+")") {
		t.Fatalf("uninstall --purge: %d %s", code, msg)
	}
	if _, err := os.Stat(root); !os.IsNotExist(err) {
		t.Errorf("--purge removes the state: %v", err)
	}
}

// TestUninstallKeepsTheCopyOthersUse: the installed copy stays while another project's settings
// file registers it, and uninstall says where.
func TestUninstallKeepsTheCopyOthersUse(t *testing.T) {
	home, a, b := t.TempDir(), t.TempDir(), t.TempDir()
	for _, p := range []string{a, b} {
		if msg, code := installSh(t, home, p); code != 0 {
			t.Fatalf("install %s: %d %s", p, code, msg)
		}
	}
	msg, code := installSh(t, home, "--uninstall", a)
	if code != 0 || !strings.Contains(msg, "kept the installed copy") || !strings.Contains(msg, filepath.Join(b, ".claude", "settings.local.json")) {
		t.Fatalf("uninstall a: %d %s", code, msg)
	}
	if _, err := os.Stat(filepath.Join(home, ".local", "share", "oath-harness", "current", "hooks", "pre-tool-use.sh")); err != nil {
		t.Fatalf("b still needs the copy: %v", err)
	}
	if msg, code := installSh(t, home, "--uninstall", b); code != 0 || !strings.Contains(msg, "removed the installed copy") {
		t.Fatalf("uninstall b: %d %s", code, msg)
	}
}

// fakeClaude is a claude that only says its version, for install.sh's --claude.
func fakeClaude(t *testing.T, version string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "claude")
	if err := os.WriteFile(p, []byte("#!/bin/sh\necho '"+version+" (Claude Code)'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// hookEntries lists every hook entry of the file (event -> entries).
func hookEntries(settings map[string]any) map[string][]map[string]any {
	out := map[string][]map[string]any{}
	hooks, _ := settings["hooks"].(map[string]any)
	for event, groups := range hooks {
		for _, g := range groups.([]any) {
			for _, h := range g.(map[string]any)["hooks"].([]any) {
				out[event] = append(out[event], h.(map[string]any))
			}
		}
	}
	return out
}

// TestInstallOnFailureByVersion: onFailure "block" on every entry where the Claude Code found
// reads it (2.1.295+), never for an older or unknown one (issue 26 item 2); PreSkillShellCommand
// only from 2.1.332 (older releases stop at a dialog for it); ConfigChange and PermissionDenied always.
func TestInstallOnFailureByVersion(t *testing.T) {
	for _, tc := range []struct {
		version     string
		onFailure   bool
		skill, note bool
	}{
		{"2.1.332", true, true, false},
		{"2.1.330", true, false, false},
		{"2.1.200", false, false, true},
	} {
		t.Run(tc.version, func(t *testing.T) {
			proj, home := t.TempDir(), t.TempDir()
			msg, code := installSh(t, home, "--claude", fakeClaude(t, tc.version), proj)
			if code != 0 {
				t.Fatalf("install: %d %s", code, msg)
			}
			entries := hookEntries(readJSON(t, filepath.Join(proj, ".claude", "settings.local.json")))
			for _, ev := range []string{"PreToolUse", "ConfigChange", "PermissionDenied", "Stop"} {
				if len(entries[ev]) != 1 {
					t.Errorf("%s: %v", ev, entries[ev])
				}
			}
			if _, ok := entries["PreSkillShellCommand"]; ok != tc.skill {
				t.Errorf("PreSkillShellCommand registered %v, want %v", ok, tc.skill)
			}
			for ev, es := range entries {
				for _, e := range es {
					if (e["onFailure"] == "block") != tc.onFailure {
						t.Errorf("%s: onFailure %v, want block=%v", ev, e["onFailure"], tc.onFailure)
					}
					if !strings.Contains(e["command"].(string), "'/bin/bash' \"$f\"") && !strings.Contains(e["command"].(string), "/bash' \"$f\"") {
						t.Errorf("%s: the hook must start through bash by absolute path: %s", ev, e["command"])
					}
				}
			}
			if strings.Contains(msg, "predates onFailure") != tc.note {
				t.Errorf("the message about an older claude: %q", msg)
			}
		})
	}
}

// TestInstallSandbox: install turns on the sandbox in the same file (no domain, credentials
// denied, the harness's own files denied to sandboxed writes, unsandboxed retries left to the
// person), keeps the person's own sandbox values, a second run changes nothing, and uninstall
// puts the file back exactly, also after the person edited another key (issue 29 item 1).
func TestInstallSandbox(t *testing.T) {
	proj, home := t.TempDir(), t.TempDir()
	settings := filepath.Join(proj, ".claude", "settings.json")
	const own = `{
  "model": "sonnet",
  "sandbox": {"excludedCommands": ["docker"], "network": {"allowedDomains": ["example.org"]},
    "filesystem": {"denyWrite": ["./secrets", "./state.md"]}}
}
`
	os.MkdirAll(filepath.Dir(settings), 0o755)
	os.WriteFile(settings, []byte(own), 0o644)
	msg, code := installSh(t, home, "--scope", "project", "--allow-domain", "github.com", "--registries", proj)
	if code != 0 || !strings.Contains(msg, "sandbox is on") {
		t.Fatalf("install: %d %s", code, msg)
	}
	sb := readJSON(t, settings)["sandbox"].(map[string]any)
	domains := sb["network"].(map[string]any)["allowedDomains"].([]any)
	deny := sb["filesystem"].(map[string]any)["denyRead"].([]any)
	if sb["enabled"] != true || sb["autoAllowBashIfSandboxed"] != true || sb["allowUnsandboxedCommands"] != true ||
		domains[0] != "example.org" || domains[1] != "github.com" || !slicesContain(domains, "proxy.golang.org") || !slicesContain(domains, "pypi.org") ||
		!slicesContain(deny, "~/.ssh") || !slicesContain(deny, "./.env") || sb["excludedCommands"].([]any)[0] != "docker" {
		t.Errorf("sandbox: %v", sb)
	}
	// The person's entries first, then the harness's files, each once (the one list in
	// hooks/sandbox.json, in the spelling measured by TestHostFactsSandboxDenyWrite).
	wantWrite := []any{"./secrets", "./state.md", "./.claude/current-phase.md", "./.claude/protected-files.txt"}
	if got := sb["filesystem"].(map[string]any)["denyWrite"]; !reflect.DeepEqual(got, wantWrite) {
		t.Errorf("denyWrite = %v, want %v", got, wantWrite)
	}
	if !strings.Contains(msg, "cannot create, change, delete or rename the harness's own files") {
		t.Errorf("install must say what denyWrite protects: %s", msg)
	}
	first, _ := os.ReadFile(settings)
	if msg, code := installSh(t, home, "--scope", "project", "--allow-domain", "github.com", "--registries", proj); code != 0 {
		t.Fatalf("second install: %d %s", code, msg)
	}
	if second, _ := os.ReadFile(settings); !bytes.Equal(first, second) {
		t.Errorf("a second install changed the file:\n%s\n---\n%s", first, second)
	}
	// The person edits another key; uninstall restores the sandbox as it was and keeps the edit.
	v := readJSON(t, settings)
	v["model"] = "opus"
	b, _ := json.MarshalIndent(v, "", "  ")
	os.WriteFile(settings, b, 0o644)
	if msg, code := installSh(t, home, "--uninstall", "--scope", "project", proj); code != 0 {
		t.Fatalf("uninstall: %d %s", code, msg)
	}
	want := readJSONString(t, own)
	want["model"] = "opus"
	if got := readJSON(t, settings); !reflect.DeepEqual(got, want) {
		t.Errorf("after an edit and uninstall: %v, want %v", got, want)
	}

	// --no-sandbox writes no sandbox key; a fresh file with the sandbox, and uninstall removes it.
	p2 := t.TempDir()
	if msg, code := installSh(t, home, "--no-sandbox", p2); code != 0 || !strings.Contains(msg, "--no-sandbox") {
		t.Fatalf("install --no-sandbox: %d %s", code, msg)
	}
	if _, ok := readJSON(t, filepath.Join(p2, ".claude", "settings.local.json"))["sandbox"]; ok {
		t.Error("--no-sandbox wrote a sandbox key")
	}
	// The user scope writes no denyWrite: Claude Code reads a relative path in
	// ~/.claude/settings.json against ~/.claude, so it would protect no project (measured by
	// TestHostFactsSandboxDenyWrite); install says how to cover a project instead.
	h3, p3 := t.TempDir(), t.TempDir()
	msg, code = installSh(t, h3, "--scope", "user", p3)
	if code != 0 || !strings.Contains(msg, "--scope local PROJECT") {
		t.Fatalf("install --scope user: %d %s", code, msg)
	}
	fs := readJSON(t, filepath.Join(h3, ".claude", "settings.json"))["sandbox"].(map[string]any)["filesystem"].(map[string]any)
	if _, ok := fs["denyWrite"]; ok || fs["denyRead"] == nil {
		t.Errorf("the user scope: denyRead and no denyWrite, got %v", fs)
	}
	// The doctor says so, with the fix; the fix (the local scope in that project) works.
	doctor := func() string {
		cmd := exec.Command(filepath.Join(repoRoot(t), "hooks", "install.sh"), "--doctor", p3)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + h3}
		out, _ := cmd.CombinedOutput()
		return string(out)
	}
	if out := doctor(); !strings.Contains(out, "FAIL  harness files") || !strings.Contains(out, "can write state.md, .claude/current-phase.md, .claude/protected-files.txt") {
		t.Errorf("the doctor must say the project's harness files are writable under the user scope:\n%s", out)
	}
	if msg, code := installSh(t, h3, "--scope", "local", p3); code != 0 {
		t.Fatalf("install --scope local after --scope user: %d %s", code, msg)
	}
	if out := doctor(); !strings.Contains(out, "ok    harness files") {
		t.Errorf("after the local install the doctor must find them denied:\n%s", out)
	}
	if _, code := installSh(t, home, "--allow-domain", "bad domain", t.TempDir()); code != 2 {
		t.Errorf("a domain with a space: exit %d, want 2", code)
	}
}

func slicesContain(xs []any, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// TestInstallRefusesASecondRegistration: the plugin enabled, or our hooks with another command
// line in another scope, is refused with nothing changed; the same command in two scopes is one
// registration (Claude Code runs it once) and is allowed (issue 28 item 4).
func TestInstallRefusesASecondRegistration(t *testing.T) {
	proj, home := t.TempDir(), t.TempDir()
	user := filepath.Join(home, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(user), 0o755)
	os.WriteFile(user, []byte(`{"enabledPlugins": {"oath-harness@oath-harness": true}}`), 0o644)
	msg, code := installSh(t, home, proj)
	if code != 1 || !strings.Contains(msg, "plugin") || !strings.Contains(msg, "twice") {
		t.Fatalf("with the plugin enabled: %d %s", code, msg)
	}
	if _, err := os.Stat(filepath.Join(proj, ".claude")); !os.IsNotExist(err) {
		t.Errorf("a refused install changes nothing in the project: %v", err)
	}
	os.Remove(user)

	if msg, code := installSh(t, home, proj); code != 0 {
		t.Fatalf("local: %d %s", code, msg)
	}
	if msg, code := installSh(t, home, "--scope", "user", proj); code != 0 {
		t.Fatalf("user, same command: %d %s", code, msg)
	}
	before, _ := os.ReadFile(user)
	msg, code = installSh(t, home, "--scope", "project", "--state-dir", filepath.Join(t.TempDir(), "st"), proj)
	if code != 1 || !strings.Contains(msg, "another command line") || !strings.Contains(msg, "--uninstall --scope") {
		t.Fatalf("project, another command: %d %s", code, msg)
	}
	if _, err := os.Stat(filepath.Join(proj, ".claude", "settings.json")); !os.IsNotExist(err) {
		t.Errorf("the refused scope's file was written: %v", err)
	}
	if after, _ := os.ReadFile(user); !bytes.Equal(before, after) {
		t.Error("the other scope's file changed")
	}
}

// TestInstallLinksTheToolsAndItsLastLineWorks: the tools are linked into ~/.local/bin (and it
// says when that is not on PATH), and the doctor command install prints runs as printed
// (issue 28 item 6).
func TestInstallLinksTheToolsAndItsLastLineWorks(t *testing.T) {
	proj, home := t.TempDir(), t.TempDir()
	msg, code := installSh(t, home, "--no-sandbox", proj)
	if code != 0 || !strings.Contains(msg, "not on your PATH") {
		t.Fatalf("install: %d %s", code, msg)
	}
	for _, n := range []string{"oath-audit", "oath-trust", "oath-doctor", "oath-decide"} {
		if target, err := os.Readlink(filepath.Join(home, ".local", "bin", n)); err != nil || !strings.HasSuffix(target, "/oath-harness/current/bin/"+n) {
			t.Errorf("%s: %q %v", n, target, err)
		}
	}
	lines := strings.Split(strings.TrimSpace(msg), "\n")
	last := lines[len(lines)-1]
	_, cmdline, ok := strings.Cut(last, "check the setup: ")
	if !ok {
		t.Fatalf("last line: %q", last)
	}
	cmd := exec.Command("sh", "-c", cmdline)
	cmd.Dir = t.TempDir() // any directory
	cmd.Env = []string{"HOME=" + home, "PATH=/usr/bin:/bin"}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "ok    registered") {
		t.Errorf("%s: %v\n%s", cmdline, err, out)
	}
	if msg, code := installSh(t, home, "--uninstall", proj); code != 0 {
		t.Fatalf("uninstall: %d %s", code, msg)
	}
	if entries, _ := os.ReadDir(filepath.Join(home, ".local", "bin")); len(entries) != 0 {
		t.Errorf("uninstall of the last registration removes the links: %v", entries)
	}
}

// TestInstalledSandboxConfinesBash measures what the real Claude Code honours of the sandbox
// settings install.sh writes (issue 29 item 1), with the harness's hooks taken out so that only
// Claude Code decides: a Bash call runs unasked inside the project (autoAllowBashIfSandboxed),
// cannot write the home directory, and cannot read the credentials denyRead names (~/.ssh, the
// project's .env). Run on the release under test (OATH_CLAUDE, else the pinned one).
func TestInstalledSandboxConfinesBash(t *testing.T) {
	cli := claudeCLI(t)
	for _, p := range []string{"bwrap", "socat"} {
		if _, err := exec.LookPath(p); err != nil {
			skipUnlessRequired(t, p+" not installed (scripts/setup.sh installs bubblewrap and socat)")
		}
	}
	if err := exec.Command("bwrap", "--ro-bind", "/", "/", "true").Run(); err != nil {
		skipUnlessRequired(t, "bwrap cannot create a namespace here: "+err.Error())
	}
	home, proj := t.TempDir(), t.TempDir()
	if msg, code := installSh(t, home, "--claude", cli, proj); code != 0 {
		t.Fatalf("install: %d %s", code, msg)
	}
	settings := filepath.Join(proj, ".claude", "settings.local.json")
	v := readJSON(t, settings)
	delete(v, "hooks")
	b, _ := json.MarshalIndent(v, "", "  ")
	os.WriteFile(settings, b, 0o644)
	os.MkdirAll(filepath.Join(home, ".ssh"), 0o700)
	os.WriteFile(filepath.Join(home, ".ssh", "id_test"), []byte("SSH-SECRET-1\n"), 0o600)
	os.WriteFile(filepath.Join(proj, ".env"), []byte("ENV-SECRET-2\n"), 0o600)

	api := newFakeAPI(t)
	api.SetScript(bash("cat ~/.ssh/id_test"), bash("cat .env"), bash("echo x > ~/outside.txt"), bash("echo y > inside.txt"))
	s := runClaude(t, cli, proj, home, api.URL, "go")
	if len(s.Results) != 4 {
		t.Fatalf("want 4 tool results, got %+v\n%s", s.Results, s.Stderr)
	}
	for i, secret := range []string{"SSH-SECRET-1", "ENV-SECRET-2"} {
		if strings.Contains(s.Results[i].Content, secret) {
			t.Errorf("the sandbox let a Bash call read a denied credential: %+v", s.Results[i])
		}
	}
	if _, err := os.Stat(filepath.Join(home, "outside.txt")); err == nil {
		t.Errorf("a sandboxed Bash call wrote the home directory: %+v", s.Results[2])
	}
	if _, err := os.Stat(filepath.Join(proj, "inside.txt")); err != nil {
		t.Errorf("a sandboxed Bash call inside the project must run unasked: %+v", s.Results[3])
	}
	t.Logf("results: %+v", s.Results)
}

// TestInstalledForTheReleaseFound: install.sh with the real CLI as --claude registers what that
// release reads (onFailure "block", ConfigChange, PermissionDenied, PreSkillShellCommand from
// 2.1.332), and the CLI takes the file: a session starts, its Read is judged, runs and is
// recorded (no dialog, no refused key). Run on the pinned release and on @latest (OATH_CLAUDE).
func TestInstalledForTheReleaseFound(t *testing.T) {
	cli := claudeCLI(t)
	home, proj := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(proj, "README.md"), []byte("hello\n"), 0o644)
	msg, code := installSh(t, home, "--claude", cli, "--no-sandbox", proj)
	if code != 0 || strings.Contains(msg, "predates") {
		t.Fatalf("install: %d %s", code, msg)
	}
	entries := hookEntries(readJSON(t, filepath.Join(proj, ".claude", "settings.local.json")))
	if e := entries["PreToolUse"]; len(e) != 1 || e[0]["onFailure"] != "block" {
		t.Errorf("PreToolUse: %v", e)
	}
	api := newFakeAPI(t)
	api.SetScript(read(filepath.Join(proj, "README.md")))
	s := runClaude(t, cli, proj, home, api.URL, "read it")
	if len(s.Results) != 1 || s.Results[0].IsError || !strings.Contains(s.Results[0].Content, "hello") {
		t.Fatalf("the Read must run: %+v\n%s\n%s", s.Results, s.Stdout, s.Stderr)
	}
	if got := strings.Join(auditEvents(t, stateRoot(home, proj)), " "); !strings.Contains(got, "SessionStart PreToolUse PostToolUse") {
		t.Errorf("the hooks must judge and record the call, got %q", got)
	}
	t.Logf("%s: registered %d events", cli, len(entries))
}

// TestOnFailureBlocksATimedOutHook measures what onFailure "block" (as install.sh writes it)
// does on the real CLI: a PreToolUse hook that outlives its timeout blocks its call; the same
// hook without the key lets the call through (issue 26 item 2). Only where the release reads it.
func TestOnFailureBlocksATimedOutHook(t *testing.T) {
	cli := claudeCLI(t)
	out, _ := exec.Command(cli, "--version").Output()
	if v := strings.Fields(string(out)); len(v) == 0 || !versionAtLeast(v[0], "2.1.295") {
		t.Skipf("%s predates onFailure", out)
	}
	for _, block := range []bool{true, false} {
		home, proj := t.TempDir(), t.TempDir()
		os.WriteFile(filepath.Join(proj, "README.md"), []byte("hello\n"), 0o644)
		if msg, code := installSh(t, home, "--claude", cli, "--no-sandbox", proj); code != 0 {
			t.Fatalf("install: %d %s", code, msg)
		}
		settings := filepath.Join(proj, ".claude", "settings.local.json")
		v := readJSON(t, settings)
		pre := v["hooks"].(map[string]any)["PreToolUse"].([]any)[0].(map[string]any)["hooks"].([]any)[0].(map[string]any)
		pre["timeout"] = 3
		pre["command"] = "sleep 20"
		if !block {
			delete(pre, "onFailure")
		}
		b, _ := json.MarshalIndent(v, "", "  ")
		os.WriteFile(settings, b, 0o644)
		api := newFakeAPI(t)
		api.SetScript(bash("echo ran > ran.txt"))
		s := runClaudeArgs(t, cli, proj, home, api.URL, []string{"-p", "go", "--permission-mode", "bypassPermissions"}, "IS_SANDBOX=1")
		_, err := os.Stat(filepath.Join(proj, "ran.txt"))
		t.Logf("onFailure block=%v: ran=%v results %+v", block, err == nil, s.Results)
		if block == (err == nil) {
			t.Errorf("onFailure block=%v: the call ran=%v after its hook timed out", block, err == nil)
		}
	}
}

func versionAtLeast(v, min string) bool {
	a, b := strings.Split(v, "."), strings.Split(min, ".")
	for i := 0; i < len(a) && i < len(b); i++ {
		var x, y int
		fmt.Sscan(a[i], &x)
		fmt.Sscan(b[i], &y)
		if x != y {
			return x > y
		}
	}
	return len(a) >= len(b)
}
