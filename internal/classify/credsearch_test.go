package classify

import (
	"os/exec"
	"testing"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// TestRecursiveSearchPrintsCredentials (issue 29 item 7): a recursive search that would print
// the lines of .env or a key file is a credential read like Read .env; one whose pattern is not
// in them, that skips dotfiles or git-ignored files, or that prints only names is not.
func TestRecursiveSearchPrintsCredentials(t *testing.T) {
	c, dir := onDisk(t, map[string]string{
		".env":                "API_TOKEN=abc123\nDEBUG=1\n",
		".gitignore":          "ignored.pem\n",
		"src/main.go":         "package main // TOKEN handling lives here\n",
		"config/server.key":   "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n",
		"ignored.pem":         "-----BEGIN CERTIFICATE-----\n",
		"apps/web/.env.local": "STRIPE=sk_live_x\n",
		"node_modules/x/.env": "SECRET=1\n",
		"docs/readme.md":      "how to set API_TOKEN\n",
	})
	if _, err := exec.LookPath("git"); err == nil {
		exec.Command("git", "-C", dir, "init", "-q").Run()
	}
	for _, tc := range []struct {
		cmd  string
		cred bool
	}{
		{"grep -r API_TOKEN .", true},
		{"grep -rn token . -i", true},
		{"grep -R STRIPE apps", true},
		{"rg -uu API_TOKEN", true},
		{"rg --hidden API_TOKEN", true},
		{"rg 'PRIVATE KEY'", true}, // config/server.key is neither hidden nor ignored
		{"ag -u STRIPE", true},
		{"git grep --untracked API_TOKEN", true},
		// Neighbours: other patterns, dotfiles skipped, names only, not recursive, src/ only.
		{"grep -r 'func main' .", false},
		{"grep -r TOKEN src/", false},
		{"grep -rl API_TOKEN .", false},
		{"grep API_TOKEN docs/readme.md", false},
		{"rg API_TOKEN", false}, // .env is hidden: rg skips it
		{"rg CERTIFICATE", false},
		{"git grep API_TOKEN", false},
	} {
		got := c.Classify(bashAt(dir, tc.cmd))
		if has := hasRule(got, kernel.RuleCredentialRead); has != tc.cred {
			t.Errorf("%s: credential read %v, want %v (%s; %+v)", tc.cmd, has, tc.cred, got.Risk, got.Reasons)
		}
		if tc.cred && (got.NeedsPerson == nil || got.NeedsPerson.Rule != kernel.RuleReadsSecret) && got.Risk != risk.Critical {
			t.Errorf("%s: needs_person %+v, want %s", tc.cmd, got.NeedsPerson, kernel.RuleReadsSecret)
		}
	}
	grep := func(in map[string]any) bool {
		ev := event("Grep", in)
		ev.Cwd = dir
		return hasRule(c.Classify(ev), kernel.RuleCredentialRead)
	}
	for _, tc := range []struct {
		in   map[string]any
		cred bool
	}{
		{map[string]any{"pattern": "API_TOKEN", "output_mode": "content"}, true},
		{map[string]any{"pattern": "api_token", "output_mode": "content", "-i": true}, true},
		{map[string]any{"pattern": "API_TOKEN"}, false}, // files_with_matches: names only
		{map[string]any{"pattern": "api_token", "output_mode": "content"}, false},
		{map[string]any{"pattern": "func main", "output_mode": "content"}, false},
		{map[string]any{"pattern": "API_TOKEN", "output_mode": "content", "path": dir + "/src"}, false},
	} {
		if got := grep(tc.in); got != tc.cred {
			t.Errorf("Grep %v: credential read %v, want %v", tc.in, got, tc.cred)
		}
	}
}
