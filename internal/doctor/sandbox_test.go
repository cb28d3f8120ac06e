package doctor

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The sandbox is on or off as Claude Code merges the scopes (the last that sets enabled wins),
// and an off sandbox is a warning with the fix that turns it on (issue 29 item 1).
func TestSandboxOnAsClaudeCodeMergesIt(t *testing.T) {
	old := ManagedSettings
	ManagedSettings = "/nonexistent/managed-settings.json"
	defer func() { ManagedSettings = old }()
	on := `{"sandbox": {"enabled": true, "network": {"allowedDomains": ["pypi.org"]}}}`
	off := `{"sandbox": {"enabled": false}}`
	for _, tc := range []struct {
		name  string
		files map[string]string
		on    bool
	}{
		{"none", nil, false},
		{"user on", map[string]string{"user": on}, true},
		{"user on, local off", map[string]string{"user": on, "local": off}, false},
		{"project off, local on", map[string]string{"project": off, "local": on}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := env(t, tc.files)
			got, _, s := sandboxOn(e)
			if got != tc.on {
				t.Errorf("on = %v, want %v", got, tc.on)
			}
			cs := sandboxChecks(e, "/x/install.sh", true)
			if len(cs) == 0 || cs[0].Name != "sandbox" || (cs[0].Status == OK) != tc.on {
				t.Fatalf("checks: %+v", cs)
			}
			if tc.on && !strings.Contains(cs[0].Detail, "pypi.org") || tc.on && len(s.Network.AllowedDomains) != 1 {
				t.Errorf("the domains allowed: %+v", cs[0])
			}
			if !tc.on && !strings.HasPrefix(cs[0].Fix, "/x/install.sh ") {
				t.Errorf("the fix: %+v", cs[0])
			}
		})
	}
}

// The doctor's list of the harness's files is the one install.sh and the plugin write
// (hooks/sandbox.json): one list, kept equal by this test.
func TestHarnessFilesAreSandboxJSONs(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "hooks", "sandbox.json"))
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		DenyWriteProject []string `json:"deny_write_project"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(v.DenyWriteProject, HarnessFiles) {
		t.Errorf("hooks/sandbox.json deny_write_project = %v, doctor.HarnessFiles = %v", v.DenyWriteProject, HarnessFiles)
	}
}

// The doctor counts a harness file as denied only in a spelling measured to deny it (e2e
// TestHostFactsSandboxDenyWrite): ./PATH or PATH in the project's own settings, //ABSOLUTE or a
// directory above it anywhere; not a relative path in the user's settings (read against
// ~/.claude), not /PATH, not a glob. Anything else fails with the fix (issue 29 item 1).
func TestHarnessFilesDenied(t *testing.T) {
	old := ManagedSettings
	ManagedSettings = "/nonexistent/managed-settings.json"
	defer func() { ManagedSettings = old }()
	deny := func(entries ...string) string {
		b, _ := json.Marshal(map[string]any{"sandbox": map[string]any{"enabled": true, "filesystem": map[string]any{"denyWrite": entries}}})
		return string(b)
	}
	all := deny(HarnessFiles...)
	for _, tc := range []struct {
		name    string
		files   func(e Env) map[string]string
		missing []string // empty: OK
	}{
		{"local, as install writes", func(Env) map[string]string { return map[string]string{"local": all} }, nil},
		{"project, bare paths", func(Env) map[string]string {
			return map[string]string{"project": deny("state.md", ".claude/current-phase.md", ".claude/protected-files.txt")}
		}, nil},
		{"arrays merge across scopes", func(Env) map[string]string {
			return map[string]string{"project": deny("./state.md"), "local": deny("./.claude")}
		}, nil},
		{"user scope, relative: protects no project", func(Env) map[string]string { return map[string]string{"user": all} },
			[]string{"state.md", ".claude/current-phase.md", ".claude/protected-files.txt"}},
		{"user scope, absolute", func(e Env) map[string]string {
			return map[string]string{"user": deny("//"+e.Project+"/state.md", "//"+e.Project+"/.claude")}
		}, nil},
		{"/PATH and globs do not count", func(Env) map[string]string {
			return map[string]string{"local": deny("/state.md", "**/.claude/current-phase.md", "./.claude/protected-files.txt")}
		}, []string{"state.md", ".claude/current-phase.md"}},
		{"a sibling's name is not a parent", func(Env) map[string]string {
			return map[string]string{"local": deny("./state.md", "./.clau", "./.claude/protected-files.txt")}
		}, []string{".claude/current-phase.md"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := env(t, nil)
			for name, body := range tc.files(e) {
				for _, s := range e.Scopes() {
					if s.Name == name {
						os.MkdirAll(filepath.Dir(s.Path), 0o755)
						os.WriteFile(s.Path, []byte(body), 0o644)
					}
				}
			}
			c := harnessFilesCheck(e, "/x/install.sh")
			if len(tc.missing) == 0 {
				if c.Status != OK {
					t.Errorf("want ok, got %+v", c)
				}
				return
			}
			if c.Status != Fail || !strings.Contains(c.Detail, "can write "+strings.Join(tc.missing, ", ")+":") ||
				!strings.HasPrefix(c.Fix, "/x/install.sh ") || !strings.Contains(c.Fix, `"./`+tc.missing[0]+`"`) ||
				!strings.Contains(c.Fix, filepath.Join(e.Project, ".claude", "settings.local.json")) {
				t.Errorf("want a failure naming %v with the fix, got %+v", tc.missing, c)
			}
			// With the sandbox on, the check is part of the sandbox checks.
			var found bool
			for _, c := range sandboxChecks(e, "", true) {
				found = found || c.Name == "harness files" && c.Status == Fail && strings.HasPrefix(c.Fix, "add ")
			}
			if !found {
				t.Errorf("the sandbox checks must carry the failure (sandbox on)")
			}
		})
	}
}
