package doctor

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oath-harness/oath-harness/internal/layout"
	"github.com/oath-harness/oath-harness/internal/settings"
)

func TestScriptOf(t *testing.T) {
	for cmd, want := range map[string]string{
		`f='/h/.local/share/oath-harness/current/hooks/pre-tool-use.sh'; if [ -x "$f" ]; then "$f"; fi`: "/h/.local/share/oath-harness/current/hooks/pre-tool-use.sh",
		`f='/it'\''s/hooks/stop.sh'; exit 1`:      "/it's/hooks/stop.sh", // install.sh's quoting of a quote
		"/src/oath-harness/hooks/pre-tool-use.sh": "/src/oath-harness/hooks/pre-tool-use.sh",
		"echo mine": "",
		"/usr/bin/pre-tool-use.sh --flag; rm -rf x": "",
	} {
		if got := scriptOf(cmd); got != want {
			t.Errorf("scriptOf(%q) = %q, want %q", cmd, got, want)
		}
	}
}

// env makes a project and a home, with settings files written per scope ("" = none).
func env(t *testing.T, files map[string]string) Env {
	t.Helper()
	e := Env{Project: t.TempDir(), Home: t.TempDir()}
	e.Getenv = func(k string) string {
		if k == "HOME" {
			return e.Home
		}
		return ""
	}
	for _, s := range e.Scopes() {
		if body, ok := files[s.Name]; ok {
			os.MkdirAll(filepath.Dir(s.Path), 0o755)
			os.WriteFile(s.Path, []byte(body), 0o644)
		}
	}
	return e
}

// settingsWith registers command for every event, with timeout.
// Events are the events every release knows, from the one table.
var Events = func() (out []string) {
	for _, h := range HooksFor("") {
		out = append(out, h.Event)
	}
	return out
}()

func settingsWith(command string, timeout int, events ...string) string {
	hooks := map[string]any{}
	for _, ev := range events {
		hooks[ev] = []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": command, "timeout": timeout}}}}
	}
	b, _ := json.Marshal(map[string]any{"hooks": hooks})
	return string(b)
}

func find(cs []Check, name string) (Check, bool) {
	for _, c := range cs {
		if c.Name == name {
			return c, true
		}
	}
	return Check{}, false
}

func TestRegistrations(t *testing.T) {
	pre := "/src/oath-harness/hooks/pre-tool-use.sh"
	for _, tt := range []struct {
		name   string
		files  map[string]string
		check  string
		status Status
		want   string
	}{
		{"none", nil, "registered", Fail, "no settings file"},
		{"one scope", map[string]string{"local": settingsWith(pre, 30, Events...)}, "registered", OK, "local scope"},
		// Claude Code runs an identical command once: not a double registration (issue 28 item 4).
		{"two scopes, one command", map[string]string{"user": settingsWith(pre, 30, Events...), "local": settingsWith(pre, 30, Events...)}, "registered", OK, "same command line"},
		{"two scopes, two commands", map[string]string{"user": settingsWith(pre, 30, Events...), "local": settingsWith("/other/oath-harness/hooks/pre-tool-use.sh", 30, Events...)}, "registered", Fail, "2 scopes with different command lines (user, local)"},
		{"the plugin and install.sh", map[string]string{"user": `{"enabledPlugins": {"oath-harness@oath-harness": true}}`, "local": settingsWith(pre, 30, Events...)}, "registered", Fail, "twice: by the plugin"},
		{"an event missing", map[string]string{"project": settingsWith(pre, 30, "PreToolUse")}, "events (project)", Fail, "PostToolUse"},
		{"a short timeout", map[string]string{"project": settingsWith(pre, 5, Events...)}, "timeout (project)", Fail, "5s"},
		{"invalid JSON", map[string]string{"local": `{"hooks": `}, "settings (local)", Fail, "not valid settings JSON"},
		{"the plugin", map[string]string{"user": `{"enabledPlugins": {"oath-harness@oath-harness": true}}`}, "registered", OK, "plugin"},
		// A plugin's user is never told to run install.sh (that registers the hooks twice).
		{"the plugin, no phase", map[string]string{"user": `{"enabledPlugins": {"oath-harness@oath-harness": true}}`}, "phase", Warn, "auditing"},
		{"the old form: the checkout itself", map[string]string{"local": settingsWith(pre, 30, Events...)}, "installed copy", Fail, "missing"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := env(t, tt.files)
			regs, checks := registrations(e)
			all := append([]Check{}, checks...)
			all = append(all, Run(context.Background(), e)...)
			_ = regs
			c, ok := find(all, tt.check)
			if !ok || c.Status != tt.status || !strings.Contains(c.Detail, tt.want) {
				t.Errorf("%s: got %+v (found %v), want %s with %q\n%+v", tt.check, c, ok, tt.status, tt.want, all)
			}
			if c.Status != OK && c.Fix == "" && tt.check != "settings (local)" {
				t.Errorf("a finding that is not ok says what to do: %+v", c)
			}
			if _, plugin := tt.files["user"]; plugin && strings.Contains(tt.files["user"], "enabledPlugins") && len(tt.files) == 1 {
				for _, c := range all {
					if strings.Contains(c.Fix, "install.sh") {
						t.Errorf("a plugin's user is told to run install.sh (registers twice): %+v", c)
					}
				}
			}
		})
	}
}

// TestDryRun feeds the event through stand-in command lines: an answer passes; exit 2 and any
// other code fail, the latter named as letting the call through.
func TestDryRun(t *testing.T) {
	e := env(t, nil)
	for _, tt := range []struct {
		command string
		status  Status
		want    string
	}{
		{`cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"},"oath":{"decision":{"decision":"auto_approved"}}}'`, OK, "auto_approved, allow"},
		{`cat >/dev/null; echo 'oath-harness: blocked' >&2; exit 2`, Fail, "blocks a harmless Read"},
		{`cat >/dev/null; exit 127`, Fail, "call goes ahead"},
		{`cat >/dev/null; echo '{}'`, Fail, "without hookSpecificOutput"},
	} {
		c := dryRun(context.Background(), registration{scope: Scope{Name: "local"}, command: tt.command}, e)
		if c.Status != tt.status || !strings.Contains(c.Detail, tt.want) {
			t.Errorf("%q: %+v, want %s with %q", tt.command, c, tt.status, tt.want)
		}
	}
}

func TestStateAndPhase(t *testing.T) {
	e := env(t, nil)
	os.MkdirAll(filepath.Join(e.Project, "oath-harness", "state"), 0o755)
	cs := state(e)
	if c, ok := find(cs, "old state"); !ok || c.Status != Warn || !strings.Contains(c.Fix, "hooks/install.sh") {
		t.Errorf("an old state directory in the project must be pointed out: %+v", cs)
	}
	if c, ok := find(cs, "state"); !ok || c.Status != OK || !strings.HasPrefix(c.Detail, filepath.Join(e.Home, ".local", "state", "oath-harness")) {
		t.Errorf("the state directory is under the user's state home and writable: %+v", cs)
	}
	if c := phaseCheck(e, e.installer()); c.Status != Warn || !strings.Contains(c.Detail, "auditing") {
		t.Errorf("no phase: auditing, pointed out: %+v", c)
	}
	os.MkdirAll(filepath.Join(e.Project, ".claude"), 0o755)
	os.WriteFile(filepath.Join(e.Project, ".claude", "current-phase.md"), []byte("building\n"), 0o644)
	if c := phaseCheck(e, e.installer()); c.Status != OK || !strings.HasPrefix(c.Detail, "building") {
		t.Errorf("phase building: %+v", c)
	}
	if !Failed([]Check{{Status: OK}, {Status: Fail}}) || Failed([]Check{{Status: Warn}}) {
		t.Errorf("Failed")
	}
}

// FuzzScriptOf: any command line of a settings file is read without a panic, and what it finds
// is a hook script path.
func FuzzScriptOf(f *testing.F) {
	f.Add(`f='/h/.local/share/oath-harness/current/hooks/pre-tool-use.sh'; if [ -x "$f" ]; then "$f"; fi`)
	f.Add(`f='/it'\''s/hooks/stop.sh'; exit 1`)
	f.Add("/src/hooks/stop.sh")
	f.Fuzz(func(t *testing.T, cmd string) {
		if got := scriptOf(cmd); got != "" && (!strings.Contains(got, "/hooks/") || !strings.HasSuffix(got, ".sh")) {
			t.Errorf("scriptOf(%q) = %q", cmd, got)
		}
	})
}

// The newest checkpoint's history: kept outside the project (ok), or the working tree only
// (warn, with why and a fix); no check before the first checkpoint.
func TestCheckpointsCheck(t *testing.T) {
	l := layout.Layout{ProjectDir: t.TempDir(), Root: t.TempDir()}
	s := settings.Defaults()
	if c, ok := checkpointsCheck(l, s); ok {
		t.Errorf("no checkpoint yet, yet a check: %+v", c)
	}
	log := filepath.Join(l.Root, "checkpoints", "log.jsonl")
	os.MkdirAll(filepath.Dir(log), 0o755)
	os.WriteFile(log, []byte(`{"seq":1,"id":"4f2c1a0b00000000000000000000000000000000","kind":"git","top":"/p","session":"s","time":"2026-12-06T10:00:00Z","files":3,"tree":"t","mirror":"0123456789abcdef","state":"89abcdef0123456789abcdef0123456789abcdef"}`+"\n"), 0o600)
	if c, ok := checkpointsCheck(l, s); !ok || c.Status != OK {
		t.Errorf("a mirrored checkpoint: %+v", c)
	}
	f, _ := os.OpenFile(log, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"seq":2,"id":"5f2c1a0b00000000000000000000000000000000","kind":"git","top":"/p","session":"s","time":"2026-12-06T10:01:00Z","files":3,"tree":"t","mirror":"0123456789abcdef","no_history":"object files could not be linked"}` + "\n")
	f.Close()
	c, ok := checkpointsCheck(l, s)
	if !ok || c.Status != Warn || !strings.Contains(c.Detail, "keeps the working tree only") || !strings.Contains(c.Detail, "could not be linked") || c.Fix == "" {
		t.Errorf("a checkpoint without its history: %+v", c)
	}
}
