package oathdoctor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func run(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb strings.Builder
	code := Main(strings.NewReader(""), &out, &errb, args)
	return out.String(), errb.String(), code
}

// TestStateDirAndMigrate: state-dir names the project's root under the user's state home, and
// migrate moves an earlier version's PROJECT/oath-harness there once, saying so.
func TestStateDirAndMigrate(t *testing.T) {
	home, proj := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("OATH_HOME", "")
	out, _, code := run(t, "state-dir", "--project", proj)
	root := strings.TrimSpace(out)
	if code != 0 || !strings.HasPrefix(root, filepath.Join(home, ".local", "state", "oath-harness")+"/") {
		t.Fatalf("state-dir: %d %q", code, out)
	}
	os.MkdirAll(filepath.Join(proj, "oath-harness", "state"), 0o755)
	os.WriteFile(filepath.Join(proj, "oath-harness", "state", "trust-scores.json"), []byte("{}"), 0o600)
	if _, msg, code := run(t, "migrate", "--project", proj); code != 0 || !strings.Contains(msg, "moved") {
		t.Fatalf("migrate: %d %q", code, msg)
	}
	if _, err := os.Stat(filepath.Join(root, "state", "trust-scores.json")); err != nil {
		t.Errorf("moved: %v", err)
	}
	if _, msg, code := run(t, "migrate", "--project", proj); code != 0 || msg != "" {
		t.Errorf("a second migrate has nothing to do: %d %q", code, msg)
	}
	if _, msg, code := run(t, "frobnicate"); code != 2 || !strings.Contains(msg, "unexpected argument") {
		t.Errorf("usage: %d %q", code, msg)
	}
}

// TestCheckFailsWithoutRegistration: the check exits 1 and names the fix when nothing registers
// the hooks, with install.sh by a path that works from any directory.
func TestCheckFailsWithoutRegistration(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("PATH", "")
	out, msg, code := run(t, "--project", t.TempDir())
	if code != 1 || !strings.Contains(out, "FAIL  registered") || !strings.Contains(out, "/oath-harness/current/hooks/install.sh ") || !strings.Contains(msg, "needs fixing") {
		t.Errorf("exit %d\n%s\n%s", code, out, msg)
	}
}
