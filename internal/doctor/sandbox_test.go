package doctor

import (
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
