package settingsguard

import (
	"strings"
	"testing"
)

// ourHooks is a settings file as hooks/install.sh leaves it: the harness's hooks and the sandbox.
const ourHooks = `{"hooks":{
  "PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"f=/home/u/.local/share/oath-harness/current/hooks/pre-tool-use.sh; [ -f $f ] && exec bash $f; exit 2","timeout":60}]}],
  "PostToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"f=/home/u/.local/share/oath-harness/current/hooks/post-tool-use.sh; [ -f $f ] && exec bash $f; exit 2","timeout":30}]}],
  "ConfigChange":[{"hooks":[{"type":"command","command":"f=/home/u/.local/share/oath-harness/current/hooks/config-change.sh; [ -f $f ] && exec bash $f; exit 2","timeout":30}]}]},
 "sandbox":{"enabled":true,"autoAllowBashIfSandboxed":true},
 "permissions":{"allow":["Bash(go test:*)"]}}`

// with returns ourHooks with old replaced by new (which must be there).
func with(t *testing.T, old, new string) string {
	t.Helper()
	if !strings.Contains(ourHooks, old) {
		t.Fatalf("%q is not in ourHooks", old)
	}
	return strings.Replace(ourHooks, old, new, 1)
}

// TestJudge: issue 26 item 3. Every route that would switch the harness off or widen what runs
// without it is blocked; changes that leave it alone pass.
func TestJudge(t *testing.T) {
	local := Event{HookEventName: "ConfigChange", Source: SourceLocal, FilePath: "/p/.claude/settings.local.json"}
	plugin := `{"enabledPlugins":{"oath-harness@oath-harness":true}}`
	for _, tt := range []struct {
		name      string
		ev        Event
		now, seen string // seen "" = never seen
		others    []string
		rule      string
		block     bool
		words     string
	}{
		{"an unrelated key changes", local, with(t, `"permissions":{`, `"model":"opus","permissions":{`), ourHooks, nil, RuleAllowed, false, "changed nothing"},
		{"the same file again", local, ourHooks, ourHooks, nil, RuleAllowed, false, ""},
		{"a first sight of our file", local, ourHooks, "", nil, RuleAllowed, false, ""},
		{"a person's own allow rule for go vet", local, with(t, `"Bash(go test:*)"`, `"Bash(go test:*)","Bash(go vet:*)"`), ourHooks, nil, RuleAllowed, false, ""},
		{"policy settings cannot be blocked", Event{HookEventName: "ConfigChange", Source: SourcePolicy}, `{"disableAllHooks":true}`, "", nil, RulePolicy, false, "whatever a hook answers"},
		{"skills are judged when they run", Event{HookEventName: "ConfigChange", Source: SourceSkills}, `not json`, "", nil, RuleSkills, false, ""},

		{"disableAllHooks", local, with(t, `{"hooks"`, `{"disableAllHooks":true,"hooks"`), ourHooks, nil, RuleHooksOff, true, "disableAllHooks"},
		{"disableAllHooks on first sight", local, `{"disableAllHooks":true}`, "", nil, RuleHooksOff, true, "/hooks screen"},
		{"our hooks removed", local, `{"sandbox":{"enabled":true}}`, ourHooks, nil, RuleHooksChanged, true, "removed or altered"},
		{"our PreToolUse command altered", local, with(t, `exec bash $f; exit 2","timeout":60`, `exit 0","timeout":60`), ourHooks, nil, RuleHooksChanged, true, "removed or altered"},
		{"our PreToolUse matcher narrowed", local, with(t, `"PreToolUse":[{"matcher":"*"`, `"PreToolUse":[{"matcher":"Read"`), ourHooks, nil, RuleHooksChanged, true, "PreToolUse"},
		{"our timeout lowered", local, with(t, `"timeout":60`, `"timeout":1`), ourHooks, nil, RuleHooksChanged, true, "PreToolUse"},
		{"the guard's own hook removed", local, strings.Replace(ourHooks, `"ConfigChange":[{"hooks":[{"type":"command","command":"f=/home/u/.local/share/oath-harness/current/hooks/config-change.sh; [ -f $f ] && exec bash $f; exit 2","timeout":30}]}]`, `"Stop":[]`, 1), ourHooks, nil, RuleHooksChanged, true, "ConfigChange"},
		{"first sight: no hook of ours anywhere", local, `{"hooks":{}}`, "", nil, RuleHooksChanged, true, "no settings file"},
		{"first sight: ours in the user's settings", local, `{"hooks":{}}`, "", []string{ourHooks}, RuleAllowed, false, ""},
		{"first sight: the plugin is enabled", local, `{}`, "", []string{plugin}, RuleAllowed, false, ""},
		{"first sight: ours narrowed to Bash", local, with(t, `"PreToolUse":[{"matcher":"*"`, `"PreToolUse":[{"matcher":"Bash"`), "", nil, RuleHooksChanged, true, "no longer covers every tool"},
		{"a deleted file that held our hooks", local, ``, ourHooks, nil, RuleHooksChanged, true, "removed or altered"},

		{"sandbox off", local, with(t, `"enabled":true`, `"enabled":false`), ourHooks, []string{plugin}, RuleSandbox, true, "sandbox.enabled is false"},
		{"sandbox off on first sight", local, `{"sandbox":{"enabled":false}}`, "", []string{plugin}, RuleSandbox, true, "/sandbox screen"},
		{"an excluded command added", local, with(t, `"enabled":true`, `"enabled":true,"excludedCommands":["curl"]`), ourHooks, nil, RuleSandbox, true, `"curl"`},
		{"every domain allowed", local, with(t, `"enabled":true`, `"enabled":true,"network":{"allowedDomains":["*"]}`), "", nil, RuleSandbox, true, "every domain"},
		{"a domain added", local, with(t, `"enabled":true`, `"enabled":true,"network":{"allowedDomains":["evil.example"]}`), ourHooks, nil, RuleSandbox, true, "evil.example"},
		{"unsandboxed commands turned on", local, with(t, `"enabled":true`, `"enabled":true,"allowUnsandboxedCommands":true`), ourHooks, nil, RuleSandbox, true, "leave the sandbox"},
		{"a writable path added", local, with(t, `"enabled":true`, `"enabled":true,"filesystem":{"allowWrite":["~/.config"]}`), ourHooks, nil, RuleSandbox, true, `allowWrite adds "~/.config"`},
		{"an additional directory added", local, with(t, `"permissions":{`, `"permissions":{"additionalDirectories":["/home/u"],`), ourHooks, nil, RuleSandbox, true, `additionalDirectories adds "/home/u"`},
		{"the harness's state.md no longer denied", local, with(t, `"enabled":true`, `"enabled":true,"filesystem":{"denyWrite":["./.claude/current-phase.md"]}`), with(t, `"enabled":true`, `"enabled":true,"filesystem":{"denyWrite":["./state.md","./.claude/current-phase.md"]}`), nil, RuleSandbox, true, `no longer lists "./state.md"`},
		{"a credential no longer denied", local, with(t, `"enabled":true`, `"enabled":true,"filesystem":{"denyRead":[]}`), with(t, `"enabled":true`, `"enabled":true,"filesystem":{"denyRead":["~/.ssh"]}`), nil, RuleSandbox, true, `denyRead no longer lists "~/.ssh"`},
		{"every local socket opened", local, with(t, `"enabled":true`, `"enabled":true,"network":{"allowAllUnixSockets":true}`), ourHooks, nil, RuleSandbox, true, "allowAllUnixSockets"},
		{"a path denied to writes added", local, with(t, `"enabled":true`, `"enabled":true,"filesystem":{"denyWrite":["./state.md","./secrets"]}`), with(t, `"enabled":true`, `"enabled":true,"filesystem":{"denyWrite":["./state.md"]}`), nil, RuleAllowed, false, ""},
		{"autoAllow turned on", local, with(t, `"autoAllowBashIfSandboxed":true`, `"autoAllowBashIfSandboxed":true`), with(t, `"autoAllowBashIfSandboxed":true`, `"autoAllowBashIfSandboxed":false`), nil, RuleSandbox, true, "unasked"},

		{"defaultMode bypassPermissions", local, with(t, `"permissions":{`, `"permissions":{"defaultMode":"bypassPermissions",`), ourHooks, nil, RuleMode, true, `"bypassPermissions"`},
		{"defaultMode acceptEdits", local, with(t, `"permissions":{`, `"permissions":{"defaultMode":"acceptEdits",`), ourHooks, nil, RuleMode, true, "Shift+Tab"},
		{"defaultMode auto", local, with(t, `"permissions":{`, `"permissions":{"defaultMode":"auto",`), ourHooks, nil, RuleMode, true, `"auto"`},
		{"defaultMode plan", local, with(t, `"permissions":{`, `"permissions":{"defaultMode":"plan",`), ourHooks, nil, RuleAllowed, false, ""},
		{"a defaultMode the file already had", local, with(t, `"permissions":{`, `"permissions":{"defaultMode":"acceptEdits",`), with(t, `"permissions":{`, `"permissions":{"defaultMode":"acceptEdits",`), nil, RuleAllowed, false, ""},

		{"an allow rule for the settings file", local, with(t, `"Bash(go test:*)"`, `"Bash(go test:*)","Edit(.claude/settings.local.json)"`), ourHooks, nil, RuleAllowHarness, true, "Edit(.claude/settings.local.json)"},
		{"an allow rule for the harness state", local, with(t, `"Bash(go test:*)"`, `"Bash(go test:*)","Write(/home/u/.local/state/oath-harness/**)"`), ourHooks, nil, RuleAllowHarness, true, "harness's own files"},
		{"an allow rule for the phase file", local, with(t, `"Bash(go test:*)"`, `"Bash(go test:*)","Write(.claude/current-phase.md)"`), "", nil, RuleAllowHarness, true, "current-phase.md"},

		{"the plugin disabled", local, `{"enabledPlugins":{"oath-harness@oath-harness":false}}`, "", []string{ourHooks}, RulePlugin, true, "oath-harness@oath-harness"},
		{"env moves the binaries", local, with(t, `"permissions":{`, `"env":{"OATH_BIN":"/tmp/fake"},"permissions":{`), ourHooks, nil, RuleEnv, true, "OATH_BIN"},
		{"env PATH", local, with(t, `"permissions":{`, `"env":{"PATH":"/tmp/x:/usr/bin"},"permissions":{`), "", nil, RuleEnv, true, "PATH"},
		{"env of another program", local, with(t, `"permissions":{`, `"env":{"GOFLAGS":"-mod=mod"},"permissions":{`), ourHooks, nil, RuleAllowed, false, ""},

		{"not JSON", local, `{"hooks":`, ourHooks, nil, RuleUnreadable, true, "not valid settings JSON"},
		{"a hooks key of the wrong shape", local, `{"hooks":[1,2]}`, ourHooks, nil, RuleUnreadable, true, "not valid settings JSON"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := Input{Event: tt.ev, HarnessFiles: []string{"/home/u/.local/state/oath-harness"}}
			if tt.now != "" {
				in.New = []byte(tt.now)
			}
			if tt.seen != "" {
				in.Seen = []byte(tt.seen)
			}
			for _, o := range tt.others {
				in.Others = append(in.Others, []byte(o))
			}
			v := Judge(in)
			if v.Block != tt.block || v.Rule != tt.rule || !strings.Contains(v.Reason, tt.words) {
				t.Errorf("got block=%v %s %q; want block=%v %s with %q", v.Block, v.Rule, v.Reason, tt.block, tt.rule, tt.words)
			}
		})
	}
}

func TestParseEvent(t *testing.T) {
	for _, tt := range []struct {
		in, err string
	}{
		{`{"hook_event_name":"ConfigChange","source":"local_settings","file_path":"/p/.claude/settings.local.json","session_id":"s"}`, ""},
		{`{"hook_event_name":"ConfigChange","source":"skills"}`, ""},
		{`{"hook_event_name":"ConfigChange","source":"somewhere"}`, "none Claude Code"},
		{`{"hook_event_name":"PreToolUse","source":"local_settings"}`, "not ConfigChange"},
		{`{"hook_event_name":"ConfigChange","source":"local_settings"} {}`, "more data"},
		{`[]`, "not a JSON object"},
		{``, "not a JSON object"},
	} {
		_, err := ParseEvent([]byte(tt.in))
		if (err == nil) != (tt.err == "") || (err != nil && !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("%s: %v, want %q", tt.in, err, tt.err)
		}
	}
}

// FuzzJudge: no event and no settings file makes the parser or the rules panic, and a change
// they cannot read is blocked.
func FuzzJudge(f *testing.F) {
	f.Add([]byte(`{"hook_event_name":"ConfigChange","source":"local_settings","file_path":"/p/x"}`), []byte(ourHooks), []byte(ourHooks))
	f.Add([]byte(`{"hook_event_name":"ConfigChange","source":"user_settings"}`), []byte(`{"disableAllHooks":true}`), []byte(nil))
	f.Add([]byte(`{"hook_event_name":"ConfigChange","source":"project_settings"}`), []byte(`{"hooks":{"PreToolUse":[{"hooks":[{}]}]}}`), []byte(`{`))
	f.Fuzz(func(t *testing.T, event, now, seen []byte) {
		ev, err := ParseEvent(event)
		if err != nil {
			return
		}
		v := Judge(Input{Event: ev, New: now, Seen: seen})
		if v.Rule == "" || v.Reason == "" {
			t.Fatalf("a verdict without rule or reason: %+v", v)
		}
		if _, perr := parse(now); perr != nil && ev.Source != SourcePolicy && ev.Source != SourceSkills && !v.Block {
			t.Fatalf("unreadable settings let through: %+v", v)
		}
	})
}

// BenchmarkJudge: a settings change as the installer leaves the file, compared with the last
// content let through (the usual case). It runs once per settings change, not per tool call.
func BenchmarkJudge(b *testing.B) {
	in := Input{Event: Event{HookEventName: "ConfigChange", Source: SourceLocal, FilePath: "/p/.claude/settings.local.json"},
		New: []byte(ourHooks), Seen: []byte(ourHooks), HarnessFiles: []string{"/home/u/.local/state/oath-harness"}}
	for i := 0; i < b.N; i++ {
		if v := Judge(in); v.Block {
			b.Fatal(v.Reason)
		}
	}
}
