package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// These tests check that the harness works with Claude Code's permission system, not over it
// (issue 13 item 1): a call the harness leaves to Claude Code is decided by the person's own
// rules, a call that always needs a person is asked even under an allow rule, a deny rule still
// wins, and in a permission mode where Claude Code would ask nobody the harness asks.

// runClaudeWith is runClaude with extra command-line arguments (a permission mode) and
// IS_SANDBOX=1, which lets bypassPermissions start as root, as in CI containers.
func runClaudeWith(t testing.TB, cli, dir, home, apiURL, prompt string, args []string, extraEnv ...string) session {
	t.Helper()
	return runClaudeArgs(t, cli, dir, home, apiURL, append([]string{"-p", prompt}, args...), append([]string{"IS_SANDBOX=1"}, extraEnv...)...)
}

// writeSettings writes a settings file with PreToolUse and PermissionRequest hooks and the
// person's permission rules. A PermissionRequest hook runs when Claude Code is about to show
// its own dialog: it appends the event to .permission-requests, which tells that a person
// would have been asked (headless, the call is then refused).
func writeSettings(t testing.TB, path, preToolUse string, perms map[string]any) {
	t.Helper()
	hooks := map[string]any{
		"PermissionRequest": []any{map[string]any{"matcher": "*", "hooks": []any{map[string]any{
			"type": "command", "command": `cat >> "$CLAUDE_PROJECT_DIR/.permission-requests"`, "timeout": 30}}}},
	}
	if preToolUse != "" {
		hooks["PreToolUse"] = []any{map[string]any{"matcher": "*", "hooks": []any{map[string]any{"type": "command", "command": preToolUse, "timeout": 30}}}}
	}
	doc := map[string]any{"hooks": hooks}
	if perms != nil {
		doc["permissions"] = perms
	}
	mergeJSON(t, path, doc)
}

// mergeJSON sets the top-level keys of add in the JSON object at path (created if missing);
// hooks are merged event by event.
func mergeJSON(t testing.TB, path string, add map[string]any) {
	t.Helper()
	doc := map[string]any{}
	if b, err := os.ReadFile(path); err == nil {
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	for k, v := range add {
		if k == "hooks" {
			old, _ := doc["hooks"].(map[string]any)
			if old == nil {
				old = map[string]any{}
			}
			for ev, h := range v.(map[string]any) {
				list, _ := old[ev].([]any)
				old[ev] = append(list, h.([]any)...)
			}
			doc["hooks"] = old
			continue
		}
		doc[k] = v
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func permissionRequests(t testing.TB, dir string) int {
	b, _ := os.ReadFile(filepath.Join(dir, ".permission-requests"))
	return strings.Count(string(b), `"hook_event_name"`)
}

// TestHostFactsPermissionModes records, on the installed Claude Code, what each permission mode
// does with a PreToolUse hook that gives no decision (the harness's answer for a call it leaves
// to Claude Code) and with one that answers ask, with and without the person's rules. Each run
// makes four calls: a read (cat), a shell command that creates a file (touch), a script that
// creates one (./probe.sh), and a Write. Measured on Claude Code 2.1.330 (DESIGN.md,
// docs/permissions.md); the answers in internal/decide/answer.go rest on these facts.
func TestHostFactsPermissionModes(t *testing.T) {
	cli := claudeCLI(t)
	none := `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse"}}'`
	ask := `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"fact check ask"}}'`
	allow := `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"fact check allow"}}'`
	allowRules := []any{"Bash(touch:*)", "Bash(./probe.sh:*)", "Write", "Edit"}
	denyRules := []any{"Bash(touch:*)", "Write"}
	type ran struct{ touch, script, write bool }
	tests := []struct {
		name, mode, hook string
		localAllow       bool // the person's allow rules in .claude/settings.local.json
		sharedAllow      bool // the same rules in the shared .claude/settings.json
		deny             bool // deny rules in .claude/settings.json
		want             ran
		asked            bool // Claude Code's own dialog would have been shown (PermissionRequest)
		reason           string
	}{
		{"default: no decision is Claude Code's own prompt", "default", none, false, false, false, ran{}, true, ""},
		{"default: the person's allow rule runs a call with no decision", "default", none, true, false, false, ran{true, true, true}, false, ""},
		{"default: allow rules in the shared settings of an untrusted workspace are ignored", "default", none, false, true, false, ran{}, true, ""},
		{"default: a hook's ask beats the person's allow rules", "default", ask, true, false, false, ran{}, false, "fact check ask"},
		{"default: a deny rule beats a hook's allow", "default", allow, false, false, true, ran{false, true, false}, false, ""},
		{"default: a deny rule beats no decision", "default", none, false, false, true, ran{}, true, "has been denied"},
		{"acceptEdits: edits and file-creating commands run unasked", "acceptEdits", none, false, false, false, ran{touch: true, write: true}, true, ""},
		{"acceptEdits: a hook's ask is asked", "acceptEdits", ask, false, false, false, ran{}, false, "fact check ask"},
		{"plan: edits are refused, commands go to a safety check (not a person)", "plan", none, false, false, false, ran{}, true, "plan mode"},
		{"plan: the person's allow rule runs a command", "plan", none, true, false, false, ran{touch: true, script: true}, true, ""},
		{"plan: a hook's ask is asked", "plan", ask, false, false, false, ran{}, false, "fact check ask"},
		{"dontAsk: nothing runs without an allow rule, and nobody is asked", "dontAsk", none, false, false, false, ran{}, false, "don't ask mode"},
		{"dontAsk: the person's allow rule runs the call", "dontAsk", none, true, false, false, ran{true, true, true}, false, ""},
		{"dontAsk: a hook's ask is refused", "dontAsk", ask, true, false, false, ran{}, false, "fact check ask"},
		{"auto: edits and file-creating commands run without a person", "auto", none, false, false, false, ran{touch: true, write: true}, false, ""},
		{"auto: a hook's ask is asked", "auto", ask, false, false, false, ran{}, false, "fact check ask"},
		// Measured on 2.1.330 and 2.1.332 (issue 26 said otherwise): with no decision, the script
		// goes to auto mode's safety check, which cannot run against the loopback API and so
		// refuses it ("Auto mode is unavailable: its safety check does not run"); a hook's allow
		// runs it without the check. An allow would take the classifier's say away, so the
		// harness answers no decision in auto mode (decide.Answer).
		{"auto: a hook's allow runs what the classifier would refuse", "auto", allow, false, false, false, ran{true, true, true}, false, ""},
		{"bypassPermissions: everything runs unasked", "bypassPermissions", none, false, false, false, ran{true, true, true}, false, ""},
		{"bypassPermissions: a hook's ask is asked", "bypassPermissions", ask, false, false, false, ran{}, false, "fact check ask"},
		{"bypassPermissions: a deny rule still wins", "bypassPermissions", none, false, false, true, ran{false, true, false}, false, "has been denied"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			api := newFakeAPI(t)
			proj, home := t.TempDir(), t.TempDir()
			shared := map[string]any{}
			if tt.sharedAllow {
				shared["allow"] = allowRules
			}
			if tt.deny {
				shared["deny"] = denyRules
			}
			writeSettings(t, filepath.Join(proj, ".claude", "settings.json"), tt.hook, shared)
			if tt.localAllow {
				mergeJSON(t, filepath.Join(proj, ".claude", "settings.local.json"), map[string]any{"permissions": map[string]any{"allow": allowRules}})
			}
			os.WriteFile(filepath.Join(proj, "probe.txt"), []byte("probe-content-42\n"), 0o644)
			os.WriteFile(filepath.Join(proj, "probe.sh"), []byte("#!/bin/sh\necho ran > script-ran\n"), 0o755)
			api.SetScript(bash("cat probe.txt"), bash("touch marker"), bash("./probe.sh"),
				ToolCall{Name: "Write", Input: map[string]any{"file_path": filepath.Join(proj, "w.txt"), "content": "x"}})
			s := runClaudeWith(t, cli, proj, home, api.URL, "probe", []string{"--permission-mode", tt.mode})
			if len(s.Results) != 4 {
				t.Fatalf("want 4 tool_results, got %d\n%s\n%s", len(s.Results), s.Stdout, s.Stderr)
			}
			exists := func(name string) bool { _, err := os.Stat(filepath.Join(proj, name)); return err == nil }
			got := ran{exists("marker"), exists("script-ran"), exists("w.txt")}
			asked := permissionRequests(t, proj) > 0
			var texts []string
			for _, r := range s.Results {
				texts = append(texts, r.Content)
			}
			if got != tt.want || asked != tt.asked {
				t.Errorf("ran %+v (want %+v), Claude Code's dialog %v (want %v)\ntool_results %q", got, tt.want, asked, tt.asked, texts)
			}
			if tt.reason != "" && !strings.Contains(strings.Join(texts, "\n"), tt.reason) {
				t.Errorf("no tool_result carries %q: %q", tt.reason, texts)
			}
		})
	}
}

// personRules adds the person's permission rules to the project's local settings, where
// hooks/install.sh registers the hooks and where Claude Code honours allow rules in a workspace
// nobody has trusted interactively.
func (p *project) personRules(allow, deny []string) {
	p.t.Helper()
	perms := map[string]any{}
	if allow != nil {
		perms["allow"] = allow
	}
	if deny != nil {
		perms["deny"] = deny
	}
	mergeJSON(p.t, p.path(".claude/settings.local.json"), map[string]any{"permissions": perms})
}

// observeDialogs registers the PermissionRequest observer (writeSettings) beside the hooks
// install.sh registered.
func (p *project) observeDialogs() {
	p.t.Helper()
	writeSettings(p.t, p.path(".claude/settings.local.json"), "", nil)
}

// leftToClaudeCode reports whether the PreToolUse audit line says the call was left to Claude
// Code's own permission flow.
func leftToClaudeCode(l auditLine) bool {
	return strings.Contains(str(l.DecisionReason), "left to Claude Code")
}

// TestPersonsAllowRuleRunsADeferredCall: a call the harness leaves to Claude Code (human_required,
// trust-gated shell_exec at initial trust: a script of the project) runs under the person's own allow rule, and without
// the rule Claude Code's own dialog is what asks (headless: refused).
func TestPersonsAllowRuleRunsADeferredCall(t *testing.T) {
	t.Parallel()
	p := newProject(t, sampleProject)
	p.setPhase("building")
	p.observeDialogs()
	p.script("mk.sh", "#!/bin/sh\nmkdir \"$1\"\n")
	s := p.run("make a directory", bash("./mk.sh out1"))
	if !s.Results[0].IsError || p.exists("out1") {
		t.Fatalf("without a rule the deferred call must not run headless: %+v", s.Results[0])
	}
	d := p.decision(toolUseID(0))
	if str(d.Decision) != "human_required" || !leftToClaudeCode(d) {
		t.Fatalf("want human_required left to Claude Code, got %s (%s)", str(d.Decision), str(d.DecisionReason))
	}
	if strings.Contains(s.Results[0].Content, "oath-harness") {
		t.Errorf("the refusal must be Claude Code's own, not the harness's: %q", s.Results[0].Content)
	}

	p.personRules([]string{"Bash(./mk.sh:*)"}, nil)
	s = p.run("make a directory", bash("./mk.sh out2"))
	if s.Results[0].IsError || !p.exists("out2") {
		t.Fatalf("the person's allow rule must run the deferred call: %+v", s.Results[0])
	}
	if n := permissionRequests(t, p.dir); n != 1 {
		t.Errorf("Claude Code's dialog: %d times, want once (the run without a rule)", n)
	}
	if o, ok := p.outcome(toolUseID(0)); !ok || o.Event != "PostToolUse" {
		t.Errorf("the call's success must be learned: %+v %v", o, ok)
	}
}

// TestDenyRuleStillWins: the person's deny rule refuses a call the harness allows.
func TestDenyRuleStillWins(t *testing.T) {
	t.Parallel()
	p := newProject(t, sampleProject)
	p.setPhase("building")
	p.personRules(nil, []string{"Read"})
	s := p.run("read the readme", read(p.path("README.md")))
	if !s.Results[0].IsError || strings.Contains(s.Results[0].Content, "readme-content-7f3a") {
		t.Fatalf("a deny rule must win over the harness's allow: %+v", s.Results[0])
	}
	for _, l := range p.audit() {
		if l.Event == "PreToolUse" {
			if got := str(l.Decision); got != "auto_approved" && got != "logged_only" {
				t.Errorf("the harness allows the read (decision %s); the deny rule is what refused it", got)
			}
		}
	}
}

// TestAlwaysAPersonAskedDespiteAllowRule: a call of the class that always needs a person is asked
// by the harness even when the person's allow rule covers it (headless: refused with the
// harness's reason).
func TestAlwaysAPersonAskedDespiteAllowRule(t *testing.T) {
	t.Parallel()
	p := newProject(t, sampleProject)
	p.setPhase("building")
	cmd := "sudo -n true"
	if !needsPerson(t, p, cmd) {
		t.Skip("oath-classify does not mark " + cmd + " as always needing a person (oath.classify.needs_person): the class lands with issue 12")
	}
	p.personRules([]string{"Bash(sudo:*)"}, nil)
	s := p.run("become root", bash(cmd))
	r := s.Results[0]
	if !r.IsError || !strings.Contains(r.Content, "oath-harness") || !strings.Contains(r.Content, "no trust changes this") {
		t.Fatalf("the harness must ask (headless: refuse with its reason) despite the allow rule: %+v", r)
	}
	if d := p.decision(toolUseID(0)); str(d.Decision) != "human_required" {
		t.Errorf("decision %s (%s)", str(d.Decision), str(d.DecisionReason))
	}
}

// needsPerson runs the project's oath-classify on a Bash command.
func needsPerson(t *testing.T, p *project, command string) bool {
	t.Helper()
	ev, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "cwd": p.dir, "tool_name": "Bash", "tool_input": map[string]any{"command": command}})
	cmd := exec.Command(filepath.Join(p.bin, "oath-classify"))
	cmd.Env = append(os.Environ(), "CLAUDE_PROJECT_DIR="+p.dir, "HOME="+p.home)
	cmd.Stdin = bytes.NewReader(ev)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("oath-classify: %v", err)
	}
	var env struct {
		Oath struct {
			Classify struct {
				NeedsPerson *json.RawMessage `json:"needs_person"`
			} `json:"classify"`
		} `json:"oath"`
	}
	json.Unmarshal(out, &env)
	return env.Oath.Classify.NeedsPerson != nil
}

// TestBypassModeKeepsAPersonInTheLoop: in bypassPermissions Claude Code would run a trust-gated
// call unasked; the harness asks instead (headless: refused with its reason), and a call it
// allows runs.
func TestBypassModeKeepsAPersonInTheLoop(t *testing.T) {
	t.Parallel()
	p := newProject(t, sampleProject)
	p.setPhase("building")
	p.script("mk.sh", "#!/bin/sh\nmkdir \"$1\"\n")
	p.api.SetScript(bash("./mk.sh out"), read(p.path("README.md")))
	s := runClaudeWith(t, p.cli, p.dir, p.home, p.api.URL, "work", []string{"--permission-mode", "bypassPermissions"}, "OATH_BIN="+p.bin)
	if len(s.Results) != 2 {
		t.Fatalf("want 2 tool_results, got %d\n%s", len(s.Results), s.Stderr)
	}
	if r := s.Results[0]; !r.IsError || p.exists("out") || !strings.Contains(r.Content, "bypass-permissions mode") {
		t.Errorf("the gated call must be asked by the harness in bypassPermissions: %+v", r)
	}
	if r := s.Results[1]; r.IsError || !strings.Contains(r.Content, "readme-content-7f3a") {
		t.Errorf("an allowed read runs: %+v", r)
	}
}
