package sandbox

import (
	"strings"
	"testing"
)

// Bound reads allowWrite, denyWrite and additionalDirectories with Claude Code's prefixes
// (//x absolute, ~/x home, /x the settings file's directory or, as measured, not; else
// relative: to the project for the project's settings, to ~/.claude for the user's), merged
// across layers; every doubt reads as not bounded.
func TestBound(t *testing.T) {
	w := Where{Project: "/p", Home: "/h", ConfigDir: "/h/.claude", TempDir: "/tmp/claude-0",
		InProject: []string{"/p/state.md", "/p/.claude/current-phase.md", "/p/.claude/protected-files.txt"},
		Elsewhere: []string{"/h/.local/state/oath-harness", "/h/.local/share/oath-harness"}}
	local, user := Source{"local", "/p/.claude/settings.local.json"}, Source{"user", "/h/.claude/settings.json"}
	deny := `"denyWrite":["./state.md","./.claude/current-phase.md","./.claude/protected-files.txt"]`
	for _, tc := range []struct {
		name   string
		layers map[Source]string
		where  func(Where) Where
		want   bool
		why    string
	}{
		{"installed", map[Source]string{local: `{"sandbox":{"filesystem":{` + deny + `}}}`}, nil, true, "bounded"},
		{"absolute entries", map[Source]string{user: `{"sandbox":{"filesystem":{"denyWrite":["//p/state.md","//p/.claude"]}}}`}, nil, true, "bounded"},
		{"the directory above them", map[Source]string{local: `{"sandbox":{"filesystem":{"denyWrite":["./state.md","./.claude"]}}}`}, nil, true, "bounded"},
		{"relative in the user's settings", map[Source]string{user: `{"sandbox":{"filesystem":{` + deny + `}}}`}, nil, false, "/p/state.md is the harness's"},
		{"a slash entry may be the settings file's directory", map[Source]string{local: `{"sandbox":{"filesystem":{"denyWrite":["/state.md","/.claude"]}}}`}, nil, false, "/p/state.md"},
		{"a pattern", map[Source]string{local: `{"sandbox":{"filesystem":{"denyWrite":["**/state.md","./.claude"]}}}`}, nil, false, "/p/state.md"},
		{"denied in one layer, added in another", map[Source]string{local: `{"sandbox":{"filesystem":{` + deny + `}}}`, user: `{"sandbox":{"filesystem":{"allowWrite":["~/.kube"]}}}`}, nil, false, `adds "~/.kube"`},
		{"additional directory", map[Source]string{local: `{"permissions":{"additionalDirectories":["../other"]},"sandbox":{"filesystem":{` + deny + `}}}`}, nil, false, `adds "../other"`},
		{"allowWrite inside the project adds nothing", map[Source]string{local: `{"sandbox":{"filesystem":{"allowWrite":["./build","//p/out/*.log"],` + deny + `}}}`}, nil, true, "bounded"},
		{"state inside the project", map[Source]string{local: `{"sandbox":{"filesystem":{` + deny + `}}}`}, func(w Where) Where { w.Elsewhere = []string{"/p/.oath"}; return w }, false, "/p/.oath lies where"},
		{"state in the sandbox's temp", map[Source]string{local: `{"sandbox":{"filesystem":{` + deny + `}}}`}, func(w Where) Where { w.Elsewhere = []string{"/tmp/claude-0/x"}; return w }, false, "/tmp/claude-0/x lies where"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var layers []Layer
			for _, src := range []Source{local, user} {
				l, err := Parse([]byte(orEmpty(tc.layers[src])))
				if err != nil {
					t.Fatal(err)
				}
				for i := range l.Writes {
					l.Writes[i].Scope, l.Writes[i].File = src.Scope, src.Path
				}
				layers = append(layers, l)
			}
			ww := w
			if tc.where != nil {
				ww = tc.where(w)
			}
			v := Verdict{Confined: true}
			Bound(&v, Merge(layers...), ww)
			if v.Bounded != tc.want || !strings.Contains(v.BoundedWhy, tc.why) {
				t.Errorf("bounded %v (%q), want %v with %q", v.Bounded, v.BoundedWhy, tc.want, tc.why)
			}
		})
	}
	v := Verdict{Confined: false}
	Bound(&v, Settings{}, w)
	if v.Bounded {
		t.Error("a call that is not confined is bounded")
	}
	for _, bad := range []string{`{"permissions":{"additionalDirectories":"x"}}`, `{"permissions":[]}`, `{"sandbox":{"filesystem":{"allowWrite":[1]}}}`, `{"sandbox":{"filesystem":[]}}`} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("%s: read, want an error (a key of the wrong type: the settings are unread)", bad)
		}
	}
}

func orEmpty(s string) string {
	if s == "" {
		return "{}"
	}
	return s
}
