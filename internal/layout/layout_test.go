package layout

import "testing"

func TestResolve(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, c := range []struct {
		name          string
		env           map[string]string
		cwd           string
		project, root string
	}{
		{"nothing set: the working directory", nil, "/w", "/w", "/w/oath-harness"},
		{"project dir", map[string]string{"CLAUDE_PROJECT_DIR": "/p"}, "/w", "/p", "/p/oath-harness"},
		{"OATH_HOME wins for the root", map[string]string{"CLAUDE_PROJECT_DIR": "/p", "OATH_HOME": "/h"}, "/w", "/p", "/h"},
		{"relative paths are made absolute and clean", map[string]string{"CLAUDE_PROJECT_DIR": "p/../q", "OATH_HOME": "h/"}, "/w", "/w/q", "/w/h"},
	} {
		l := Resolve(env(c.env), c.cwd)
		if l.ProjectDir != c.project || l.Root != c.root {
			t.Errorf("%s: got %+v", c.name, l)
		}
	}
	l := Layout{ProjectDir: "/p", Root: "/p/oath-harness"}
	for got, want := range map[string]string{
		l.SettingsFile():       "/p/oath-harness/config/settings.json",
		l.TrustFile():          "/p/oath-harness/state/trust-scores.json",
		l.PhaseFile():          "/p/.claude/current-phase.md",
		l.StateFile():          "/p/state.md",
		l.ProtectedFilesList(): "/p/.claude/protected-files.txt",
	} {
		if got != want {
			t.Errorf("got %s, want %s", got, want)
		}
	}
}
